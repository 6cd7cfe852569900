"""Shared fixtures: which services the run has, and a real Celery worker process.

``make test`` runs each test once (see the Makefile and README "Tests"): most of
them with ``DATABASE_URL``/``REDIS_URL`` set (PostgreSQL, Redis and a live
worker), spread over pytest-xdist workers; the ones marked ``embedded`` on the
SQLite default (tasks eager, local-memory cache); the ones marked ``serial`` alone,
after the others. Tests marked ``services`` need the services; elsewhere they are
skipped with the reason shown, as ``embedded`` ones are on the services.

Every name a run gives to something shared on the machine derives from ``RUN_ID``
(one per pytest process: each xdist worker has its own): its test database
(``test_bgdirector_<pid>``), its cache key prefix, its Celery queue and the node
names of the workers it starts. Two runs side by side, or two xdist workers, never
see each other's keys, tasks or workers.

Passwords are hashed with MD5 here: production's PBKDF2 costs a quarter of a second
of CPU per hash, and the suite makes thousands of accounts. ``production_password_hashers``
restores the real ones for a test (tests/security/test_password_hashing.py checks them).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

ROOT = Path(__file__).resolve().parent.parent
RUN_ID = f"{os.getpid()}-{uuid.uuid4().hex[:6]}"
#: Cache key prefix, Celery queue and the start of every Celery node name of this run.
RUN_NAME = f"test-{RUN_ID}"
STRESS_DIR = ROOT / "tests" / "stress"
ON_SERVICES = bool(settings.DATABASE_URL and settings.REDIS_URL)
#: Whether this process's live Celery worker (``celery_worker_process``) is running.
_LIVE_WORKER_UP = False

#: The hashers the site runs with (Django's default list: PBKDF2 first).
PRODUCTION_PASSWORD_HASHERS = list(settings.PASSWORD_HASHERS)
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# CI replays the same examples every run (a failure there is reproducible, not luck);
# developers' runs explore new ones.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") == "true":
    hypothesis_settings.load_profile("ci")


def pytest_configure(config: pytest.Config) -> None:
    _use_password_hashers(FAST_PASSWORD_HASHERS)
    # Keep this run's cache keys, task queue and every other broker key (acks, control
    # broadcasts) apart from any other run on the machine; in the environment too, so that
    # every server a test starts (workers, gunicorn) inherits them.
    names = {
        "CACHE_KEY_PREFIX": RUN_NAME,
        "CELERY_QUEUE": RUN_NAME,
        "CELERY_KEY_PREFIX": f"{RUN_NAME}-broker:",  # not under the cache's prefix
    }
    os.environ.update(names)
    settings.CACHES["default"]["KEY_PREFIX"] = names["CACHE_KEY_PREFIX"]
    if ON_SERVICES:
        from tournament.celery import app

        app.conf.task_default_queue = names["CELERY_QUEUE"]
        app.conf.broker_transport_options = {
            **app.conf.broker_transport_options,
            "global_keyprefix": names["CELERY_KEY_PREFIX"],
        }
        # The analyses' queue follows it, as CELERY_QUEUE makes it in the worker.
        settings.ANALYSIS_QUEUE = f"{names['CELERY_QUEUE']}.analysis"
        app.conf.task_routes = {
            "tournament.tasks.analyse_match": {"queue": settings.ANALYSIS_QUEUE}
        }
        _drop_abandoned_test_databases()
        _flush_by_delete()


def _flush_by_delete() -> None:
    """Empty the tables after a transactional test with ``DELETE`` rather than Django's one
    ``TRUNCATE`` of every table.

    ``TRUNCATE`` gives each of the 35 tables and their indexes new files (and waits for an
    exclusive lock on each): 0.7-0.9 s per flush here, against 0.01-0.05 s for deleting
    the few rows a test wrote (measured 2026-11-29 on a migrated database, the machine
    loaded). Django's foreign keys on PostgreSQL are deferred to the commit, so the
    order of the deletes does not matter. A flush that resets sequences keeps ``TRUNCATE``.
    """
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(  # type: ignore[no-untyped-def]
        self, style, tables, *, reset_sequences=False, allow_cascade=False
    ) -> list[str]:
        if reset_sequences or allow_cascade:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        deletes = [f"DELETE FROM {self.quote_name(table)};" for table in tables]
        return ["SET CONSTRAINTS ALL DEFERRED;", *deletes] if deletes else []

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]


def _use_password_hashers(hashers: list[str]) -> None:
    """Hash with ``hashers`` from now on (Django caches the instances it made)."""
    from django.contrib.auth import hashers as auth_hashers

    settings.PASSWORD_HASHERS = hashers
    auth_hashers.get_hashers.cache_clear()
    auth_hashers.get_hashers_by_algorithm.cache_clear()


@pytest.fixture
def production_password_hashers(settings) -> list[str]:  # type: ignore[no-untyped-def]
    """The site's real password hashers for this test (the suite hashes with MD5).

    Also for a test whose users log in through a server in another process (gunicorn,
    a worker): that process knows only the real hashers.
    """
    settings.PASSWORD_HASHERS = PRODUCTION_PASSWORD_HASHERS
    return PRODUCTION_PASSWORD_HASHERS


def this_runs_node(name: str) -> str:
    """The Celery node name (before ``@host``) of a worker this run starts: ``name`` made unique."""
    return f"{RUN_NAME}-{name}"


def is_this_runs_node(node: str) -> bool:
    """Whether ``node`` (``name@host``, as control replies name them) is one of this run's workers."""
    return node.startswith(f"{RUN_NAME}-")


def _drop_abandoned_test_databases() -> None:
    """Drop ``test_bgdirector_<pid>`` databases left by runs that were killed (their pid is gone)."""
    import psycopg

    db = settings.DATABASES["default"]
    try:
        conn = psycopg.connect(
            host=db["HOST"],
            port=db["PORT"] or 5432,
            user=db["USER"],
            dbname="postgres",
            autocommit=True,
            connect_timeout=3,
        )
    except psycopg.Error:
        return
    with conn:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE 'test_bgdirector_%'"
            )
        ]
        for name in names:
            pid = name.removeprefix("test_bgdirector_").split("_")[0]
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave ``tests/stress/`` unimported when the run deselects ``stress`` (every stage of
    ``make test``): importing it builds schemathesis' coverage cases, 2-4 s of every process."""
    if collection_path == STRESS_DIR and "not stress" in (config.option.markexpr or ""):
        return True
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _gnubg_tests(config, items)
    if ON_SERVICES:
        skip = pytest.mark.skip(
            reason="about the embedded default (SQLite, eager tasks, local-memory cache): "
            "make test runs it in its SQLite stage"
        )
        marker = "embedded"
    else:
        skip = pytest.mark.skip(
            reason="needs PostgreSQL + Redis + a Celery worker (DATABASE_URL, REDIS_URL)"
        )
        marker = "services"
    for item in items:
        if marker in item.keywords:
            item.add_marker(skip)


def _gnubg_tests(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``gnubg`` need GNU Backgammon: skipped loudly without it, failed under CI."""
    from matches.analysis.engine import gnubg_find

    needing = [item for item in items if "gnubg" in item.keywords]
    if not needing or gnubg_find(settings.GNUBG_PATH):
        return
    reason = "needs GNU Backgammon (gnubg): run `make analysis-deps` (Debian package gnubg)"
    if os.environ.get("CI") == "true":
        return  # they run and fail: tests/analysis/conftest.py's ``_gnubg_present``
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"!!! gnubg is not installed: {len(needing)} tests marked gnubg are SKIPPED ({reason})",
            yellow=True,
            bold=True,
        )
    for item in needing:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def _analysis_off_unless_asked(settings: Any) -> None:
    """Uploads elsewhere in the suite are not analysed (gnubg would load the machine);
    the analysis tests turn it on (``analysis_on``). Eager analyses run in the task's
    caller, not in a background thread, so that tests on uncommitted data see them run
    (``tests/analysis/test_analysis_background.py`` tests the thread)."""
    settings.ANALYSIS_AUTO = False
    settings.ANALYSIS_IN_THREAD = False


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup: None, django_db_blocker: object
) -> Iterator[subprocess.Popen[bytes]]:
    """A real ``celery worker`` process on this run's queue, using the test database."""
    if not ON_SERVICES:
        pytest.skip("no broker: Celery runs eagerly on the SQLite default")
    from tournament.celery import app

    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_QUEUE": app.conf.task_default_queue,
        "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
        "SECRET_KEY": settings.SECRET_KEY,
    }
    node = this_runs_node("live")
    log = open(ROOT / f".pytest-worker-{RUN_ID}.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tournament",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "-Q",
            f"{app.conf.task_default_queue},{app.conf.task_default_queue}.analysis",
            "-n",
            f"{node}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"celery worker exited with {proc.returncode}; see {log.name}")
        if app.control.ping(destination=[f"{node}@{os.uname().nodename}"], timeout=0.5):
            break
    else:
        proc.kill()
        raise RuntimeError("celery worker did not answer a ping within 30 s")
    global _LIVE_WORKER_UP
    _LIVE_WORKER_UP = True
    yield proc
    _LIVE_WORKER_UP = False
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
    Path(log.name).unlink(missing_ok=True)
    with app.connection_for_write() as conn:
        conn.default_channel.queue_delete(app.conf.task_default_queue)
        conn.default_channel.queue_delete(f"{app.conf.task_default_queue}.analysis")


def _wait_for(predicate, timeout: float = 20.0, interval: float = 0.1):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout} s")


def _flushes_the_database(request: pytest.FixtureRequest) -> bool:
    """Whether the test's database is flushed after it (a transactional test)."""
    if {"transactional_db", "live_server", "celery_worker_process"} & set(request.fixturenames):
        return True
    marker = request.node.get_closest_marker("django_db")
    return bool(marker and marker.kwargs.get("transaction"))


@pytest.fixture(autouse=True)
def _live_worker_idle_before_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """With the live worker up in this process, let every task finish before a flush.

    Tasks a test queued (advances, ratings, emails) may still run after its last
    assertion; a TRUNCATE under their row locks deadlocks. The live worker, once a test
    started it, takes every task of this run's queue: those of later transactional tests
    too, whose commits publish their follow-ups (a CI failure: "couldn't be flushed").
    """
    uses_worker = "celery_worker_process" in request.fixturenames
    if not (uses_worker or (_LIVE_WORKER_UP and _flushes_the_database(request))):
        yield
        return
    request.getfixturevalue("_django_db_helper")  # set up before us, so flushed after us
    yield
    from tests.resilience.faults import wait_until_worker_idle

    wait_until_worker_idle(live_only=not uses_worker)


@pytest.fixture
def wait_for():  # type: ignore[no-untyped-def]
    """Poll ``predicate`` until it returns something truthy; fail after ``timeout`` seconds."""
    return _wait_for


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def _chromium_browser() -> Iterator[object]:
    """Debian's headless Chromium under Playwright, one for the whole run.

    One sync Playwright per process: a second one started while the first runs
    fails (it finds the first one's event loop), so every browser test shares this.
    """
    import shutil

    if not shutil.which(CHROMIUM):
        pytest.skip("chromium is not installed (make browser-deps)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop shares the thread
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def chromium(_chromium_browser: Any) -> Iterator[Any]:
    """The shared browser, with every page a test opened closed when it ends.

    A page left open keeps polling the session-wide live server; its requests then
    hold locks while a later test's database is flushed (a CI failure, 2026-11-25).
    """
    yield _chromium_browser
    for context in list(_chromium_browser.contexts):
        context.close()


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Celery tasks run in-process at commit, also in the PostgreSQL + Redis run.

    For tests whose data is never committed (the plain ``db`` fixture), which a worker
    process could not see, and for pages whose notices should be sent in the server's
    thread; the live worker has its own tests.
    """
    from tournament.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
