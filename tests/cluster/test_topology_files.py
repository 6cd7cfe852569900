"""deploy/compose.yaml, deploy/nginx.conf, deploy/pgbouncer.ini and the settings describe
one topology: nginx -> web (2 replicas) -> PgBouncer (transaction pooling) -> PostgreSQL,
workers and one beat apart, Redis. Read as files: no container engine runs here."""

from __future__ import annotations

import configparser
import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
INTERPOLATION = re.compile(r"\$\{(\w+)(?::\?[^}]*)?\}")
#: Variables compose passes that are read by something other than the settings.
NOT_SETTINGS = {
    "POSTGRES_PASSWORD",
    "POSTGRES_USER",
    "POSTGRES_DB",
    "GUNICORN_BIND",
    "WEB_CONCURRENCY",
}


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def pgbouncer() -> configparser.ConfigParser:
    ini = configparser.ConfigParser(inline_comment_prefixes=(";",))
    ini.read_string((DEPLOY / "pgbouncer.ini").read_text())
    return ini


def app_env(service: str) -> dict[str, str]:
    """A service's ``environment`` with the .env placeholders filled in."""
    env = compose()["services"][service].get("environment") or {}
    return {k: INTERPOLATION.sub("secret", str(v)) for k, v in env.items()}


def variables_read() -> set[str]:
    """Every environment variable the settings and the gunicorn configuration read."""
    text = (ROOT / "tournament" / "settings.py").read_text()
    text += (DEPLOY / "gunicorn.conf.py").read_text()
    return set(re.findall(r"""(?:environ\.get|environ\[|env_bool)\(?\s*["'](\w+)["']""", text))


def test_the_services_of_the_topology_are_all_there_with_healthchecks() -> None:
    services = compose()["services"]
    for name in ("postgres", "pgbouncer", "redis", "web", "worker", "beat", "nginx"):
        assert name in services, name
    for name in ("postgres", "pgbouncer", "redis", "web", "worker", "beat"):
        assert "healthcheck" in services[name], f"{name} has no healthcheck"
    assert services["web"]["deploy"]["replicas"] >= 2
    assert services["worker"]["deploy"]["replicas"] >= 2
    assert services["beat"]["deploy"]["replicas"] == 1
    assert "beat" in services["beat"]["command"]
    assert "worker" in services["worker"]["command"]
    assert services["web"]["depends_on"]["pgbouncer"] == {"condition": "service_healthy"}


def test_the_app_reaches_postgresql_through_pgbouncer_in_transaction_pooling() -> None:
    env = app_env("web")
    url = urlparse(env["DATABASE_URL"])
    ini = pgbouncer()
    assert url.hostname == "pgbouncer"
    assert url.port == int(ini["pgbouncer"]["listen_port"])
    assert str(url.port) in str(compose()["services"]["pgbouncer"]["expose"])
    assert ini["pgbouncer"]["pool_mode"] == "transaction"
    assert env["DATABASE_POOL_MODE"] == "transaction"
    name = url.path.lstrip("/")
    target = dict(p.split("=", 1) for p in ini["databases"][name].split())
    assert (target["host"], target["port"], target["dbname"]) == ("postgres", "5432", name)
    assert compose()["services"]["postgres"]["environment"]["POSTGRES_DB"] == name


def test_migrations_go_straight_to_postgresql_in_one_session() -> None:
    env = app_env("migrate")
    url = urlparse(env["DATABASE_URL"])
    assert (url.hostname, url.port, env["DATABASE_POOL_MODE"]) == ("postgres", 5432, "session")


def test_nginx_proxies_to_the_web_service_where_gunicorn_listens() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    (upstream,) = re.findall(r"^\s*server (\S+):(\d+);", conf, flags=re.M)
    host, port = upstream
    assert host in compose()["services"]
    assert host == "web"
    assert app_env("web")["GUNICORN_BIND"].endswith(f":{port}")
    assert port in str(compose()["services"]["web"]["expose"])
    assert urlparse(app_env("web")["REDIS_URL"]).hostname == "redis"


def test_every_variable_compose_and_the_example_set_is_read_by_the_settings() -> None:
    example = {
        line.split("=", 1)[0].lstrip("# ").strip()
        for line in (DEPLOY / "env.example").read_text().splitlines()
        if re.match(r"^#? ?[A-Z_]+=", line)
    }
    read = variables_read()
    unread = (set(app_env("web")) | example) - read - NOT_SETTINGS
    assert unread == set(), f"set in deploy/ but read by nothing: {unread}"
    assert {"DATABASE_POOL_MODE", "DATABASE_PREPARED_STATEMENTS"} <= read


def test_the_web_containers_settings_turn_off_what_transaction_pooling_breaks() -> None:
    env = {**app_env("web"), "SECRET_KEY": "x" * 60, "PATH": "/usr/bin:/bin"}
    show = (
        "import json, tournament.settings as s; d = s.DATABASES['default']; "
        "print(json.dumps([d['OPTIONS'], d.get('DISABLE_SERVER_SIDE_CURSORS'), d['HOST'], d['PORT']]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", show], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    options, no_cursors, host, port = json.loads(done.stdout)
    assert options == {"prepare_threshold": None}
    assert no_cursors is True
    assert (host, int(port)) == ("pgbouncer", 6432)
