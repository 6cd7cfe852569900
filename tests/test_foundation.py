"""The project's foundation: health endpoint, settings by environment, a live worker."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings

from bench.server import free_port, start_redis
from tests.factories import UserFactory
from tournament.models import Player
from tournament.tasks.probe import health_probe

pytestmark = pytest.mark.django_db


def test_healthz_reports_every_service_up(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["services"]) == {"database", "cache", "broker"}
    assert all(s["status"] == "ok" for s in body["services"].values())


@pytest.fixture
def private_redis():
    """A redis-server of the test's own, on a free port, that the test may stop."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    proc = start_redis(port, timeout=10.0)
    yield proc, f"redis://127.0.0.1:{port}/0"
    proc.kill()
    proc.wait()


def test_healthz_answers_503_when_redis_stops(client, private_redis):
    proc, url = private_redis
    client.force_login(UserFactory(is_staff=True))  # staff see the backends
    redis_cache = {
        "default": {
            "BACKEND": "core.redis_cache.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    with override_settings(
        CACHES=redis_cache, CELERY_BROKER_URL=url, CELERY_TASK_ALWAYS_EAGER=False
    ):
        up = client.get("/healthz")
        assert up.status_code == 200, up.json()
        assert up.json()["services"]["broker"]["backend"] == "redis"
        proc.kill()
        proc.wait()
        down = client.get("/healthz")
    assert down.status_code == 503
    services = down.json()["services"]
    assert services["cache"]["status"] == "down"
    assert services["broker"]["status"] == "down"
    assert services["database"]["status"] == "ok"


def _run_without_secret(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    return subprocess.run(
        [sys.executable, *argv],
        env={**env, "DJANGO_SETTINGS_MODULE": "tournament.settings"},
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
    )


def test_the_site_refuses_to_start_without_a_secret_key_when_debug_is_off():
    check = _run_without_secret("manage.py", "check")
    assert check.returncode != 0
    assert "SECRET_KEY must be set" in check.stderr
    wsgi = _run_without_secret("-c", "import tournament.wsgi")
    assert wsgi.returncode != 0
    assert "SECRET_KEY must be set" in wsgi.stderr


def test_api_docs_and_schema_are_served(client):
    assert client.get("/api/docs/").status_code == 200
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"openapi" in schema.content


@pytest.mark.embedded
def test_the_embedded_default_uses_sqlite_local_memory_and_eager_tasks():
    """What ``make run`` and ``make test-quick`` run on: no service to install."""
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")
    assert settings.CELERY_TASK_ALWAYS_EAGER


@pytest.mark.services
def test_services_run_uses_postgresql_and_redis():
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] > 0
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    assert not settings.CELERY_TASK_ALWAYS_EAGER


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_task_runs_in_a_live_worker_against_the_test_database(celery_worker_process, wait_for):
    Player.objects.create(name="Nack Ballard")
    key = f"probe-{os.getpid()}-{time.time_ns()}"
    health_probe.delay(key)
    seen = wait_for(lambda: cache.get(key))
    assert seen["pid"] == celery_worker_process.pid
    assert seen["players"] == 1


@pytest.mark.services
def test_this_runs_broker_keys_carry_its_own_prefix(celery_worker_process):
    """Runs side by side on one Redis (and xdist workers) share no queue, ack or broadcast."""
    import redis

    from tournament.celery import app

    prefix = os.environ["CELERY_KEY_PREFIX"]
    queue = app.conf.task_default_queue
    assert prefix.startswith(settings.CACHES["default"]["KEY_PREFIX"] + "-")
    raw = redis.Redis.from_url(settings.REDIS_URL)
    assert raw.exists(f"{prefix}_kombu.binding.{queue}")
    assert not raw.exists(f"_kombu.binding.{queue}")


@pytest.mark.services
@pytest.mark.parametrize("how", ["clear_caches", "cache.clear"])
def test_clearing_the_page_caches_leaves_other_runs_keys_alone(how):
    """``cache.clear()`` flushed the whole Redis database: another run's throttle counters,
    page versions and Celery queue went with it (runs side by side failed; a test calling
    it reset another xdist worker's rate counter mid-test)."""
    import redis

    from tournament.pages.caching import clear_caches

    raw = redis.Redis.from_url(settings.REDIS_URL)
    other = f"test-other-{os.getpid()}:1:login:addr:10.0.0.1"
    broker = os.environ["CELERY_KEY_PREFIX"] + "probe"  # where this run's queues live
    raw.set(other, 3, ex=60)
    raw.set(broker, 1, ex=60)
    cache.set("mine", 1)
    try:
        clear_caches() if how == "clear_caches" else cache.clear()
        assert cache.get("mine") is None
        assert raw.get(other) == b"3"
        assert raw.get(broker) == b"1"
    finally:
        raw.delete(other, broker)
