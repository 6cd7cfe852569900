"""The deployment files: compose needs a .env with a generated key, the settings it makes
pass ``check --deploy``, nginx serves TLS and masks private links, the image carries
neither secrets nor test tools."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
import yaml

from tournament.access_log import MaskedKeyLogger, mask_private_links

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
INTERPOLATION = re.compile(r"\$\{(\w+)(?::\?[^}]*)?\}")


def _dotenv(text: str) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line)
    return {k.strip(): v.strip() for k, v in pairs if not k.strip().startswith("#")}


def _compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def _operator_env() -> dict[str, str]:
    """deploy/.env as DEPLOY.md has the operator write it: the example, secrets generated."""
    env = _dotenv((DEPLOY / "env.example").read_text())
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    env["POSTGRES_PASSWORD"] = secrets.token_urlsafe(24)
    return env


def _container_env(dotenv: dict[str, str]) -> dict[str, str]:
    """What a web container sees: env_file, then ``environment`` interpolated from .env."""
    app = _compose()["services"]["web"]
    env = dict(dotenv)
    for name, value in (app.get("environment") or {}).items():
        env[name] = INTERPOLATION.sub(lambda m: dotenv[m.group(1)], str(value))
    return env


def _manage(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "PYTHONPATH"}}
    return subprocess.run(
        [sys.executable, "manage.py", *argv],
        cwd=ROOT,
        env={**base, **env, "DJANGO_SETTINGS_MODULE": "tournament.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_the_compose_settings() -> None:
    env = _container_env(_operator_env())
    assert env["DATABASE_URL"].startswith("postgres://bgdirector:")
    assert env["NUM_PROXIES"] == "1"  # nginx appends the client's address
    done = _manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_example_file_alone_starts_nothing() -> None:
    example = _dotenv((DEPLOY / "env.example").read_text())
    assert example["SECRET_KEY"] == ""
    assert example["POSTGRES_PASSWORD"] == ""
    app = _compose()["x-app"]
    assert app["env_file"] == [{"path": ".env", "required": True}]
    assert "${SECRET_KEY:?" in app["environment"]["SECRET_KEY"]
    assert (
        "${POSTGRES_PASSWORD:?"
        in _compose()["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"]
    )
    for service in _compose()["services"].values():
        assert "env.example" not in str(service)


@pytest.mark.parametrize("key", ["change-me-to-a-long-random-string", "CHANGE-ME-please"])
def test_the_site_refuses_a_published_example_key(key: str) -> None:
    env = _container_env({**_operator_env(), "SECRET_KEY": key})
    env["SECRET_KEY"] = key
    done = _manage(env, "check")
    assert done.returncode != 0
    assert "tournament.E002" in done.stderr


def test_nginx_serves_tls_redirects_http_and_sends_hsts() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    assert re.search(r"listen 443 ssl;", conf)
    assert "ssl_certificate /etc/nginx/certs/fullchain.pem;" in conf
    assert "return 301 https://$host$request_uri;" in conf
    assert re.search(r'add_header Strict-Transport-Security "max-age=\d+', conf)
    assert "443:443" in str(_compose()["services"]["nginx"]["ports"])
    assert conf.count("access_log /var/log/nginx/access.log bgd_masked;") == 2


def test_nginx_config_is_valid() -> None:
    nginx = shutil.which("nginx")
    if nginx is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        subprocess.run(
            [
                *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
                *("-subj", "/CN=director.example.org", "-keyout", f"{tmp}/privkey.pem"),
                *("-out", f"{tmp}/fullchain.pem"),
            ],
            check=True,
            capture_output=True,
        )
        site = (DEPLOY / "nginx.conf").read_text()
        site = site.replace("server web:8000", "server 127.0.0.1:8000")
        site = site.replace("/etc/nginx/certs", tmp).replace("/var/log/nginx", tmp)
        version = subprocess.run([nginx, "-v"], capture_output=True, text=True).stderr
        if tuple(map(int, re.findall(r"\d+", version)[:2])) < (1, 25):
            site = site.replace("http2 on;", "")  # the image runs 1.27; Debian has older
        (base / "site.conf").write_text(site)
        (base / "nginx.conf").write_text(
            f"pid {tmp}/nginx.pid; error_log {tmp}/error.log; events {{}}\n"
            f"http {{ client_body_temp_path {tmp}; proxy_temp_path {tmp}; "
            f"access_log {tmp}/access.log; include {tmp}/site.conf; }}\n"
        )
        done = subprocess.run([nginx, "-t", "-c", f"{tmp}/nginx.conf"], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


def test_access_logs_mask_private_links() -> None:
    assert mask_private_links("GET /r/AbC-12_x/matches/4/game/ HTTP/1.1") == (
        "GET /r/***/matches/4/game/ HTTP/1.1"
    )
    assert mask_private_links("https://h.example/r/KEY?x=1") == "https://h.example/r/***?x=1"
    logger = MaskedKeyLogger(types.SimpleNamespace(**_gunicorn_cfg()))
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": "/r/SeCrEt123/matches/9/record/",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "PATH_INFO": "/r/SeCrEt123/matches/9/record/",
        "QUERY_STRING": "",
        "HTTP_REFERER": "https://d.example/r/SeCrEt123/",
    }
    response = types.SimpleNamespace(status="302 Found", sent=0, headers=[])
    request = types.SimpleNamespace(headers=[])
    atoms = logger.atoms(response, request, environ, _elapsed())
    assert "SeCrEt123" not in " ".join(str(v) for v in atoms.values())
    assert atoms["r"] == "POST /r/***/matches/9/record/ HTTP/1.1"
    conf = (DEPLOY / "gunicorn.conf.py").read_text()
    assert 'logger_class = "tournament.access_log.MaskedKeyLogger"' in conf


def _gunicorn_cfg() -> dict:
    from gunicorn.config import Config

    cfg = Config()
    return {name: cfg.settings[name].get() for name in cfg.settings} | {
        "settings": cfg.settings,
        "logconfig_dict": {},
        "syslog": False,
        "capture_output": False,
    }


def _elapsed():  # type: ignore[no-untyped-def]
    import datetime as dt

    return dt.timedelta(milliseconds=3)


def test_the_image_leaves_out_secrets_local_data_and_test_tools() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".git", "**/.env", "db.sqlite3", ".venv"):
        assert entry in ignored, entry
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "pip install --no-cache-dir -r requirements/base.txt" in dockerfile
    assert "-r requirements.txt" not in dockerfile
    runtime = (ROOT / "requirements" / "base.txt").read_text().lower()
    for tool in ("pytest", "hypothesis", "playwright", "schemathesis", "ruff", "mypy"):
        assert tool not in runtime, tool
    assert "drf-spectacular-sidecar==" in runtime
    assert (ROOT / "requirements.txt").read_text().splitlines()[1] == "-r requirements/base.txt"


def test_secure_cookies_are_the_default_with_debug_off() -> None:
    env = {"SECRET_KEY": secrets.token_urlsafe(50), "DEBUG": "0"}
    done = _manage(env, "shell", "-c", _PRINT_COOKIE_FLAGS)
    assert done.stdout.split()[-2:] == ["True", "True"], done.stderr
    opted_out = _manage({**env, "SECURE_COOKIES": "0"}, "shell", "-c", _PRINT_COOKIE_FLAGS)
    assert opted_out.stdout.split()[-2:] == ["False", "False"], opted_out.stderr


_PRINT_COOKIE_FLAGS = (
    "from django.conf import settings; "
    "print(settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)"
)
