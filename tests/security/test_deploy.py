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

from tournament.web.access_log import MaskedKeyLogger, mask_private_links

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
INTERPOLATION = re.compile(r"\$\{(\w+)(?::[?-][^}]*)?\}")


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


def test_nginx_serves_tls_redirects_http_and_leaves_hsts_to_django() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    assert re.search(r"listen 443 ssl;", conf)
    assert "ssl_certificate /etc/nginx/certs/fullchain.pem;" in conf
    assert "return 301 https://$host$request_uri;" in conf
    assert "add_header Strict-Transport-Security" not in conf  # Django sends it: once
    assert "443:443" in str(_compose()["services"]["nginx"]["ports"])
    assert conf.count("access_log /var/log/nginx/access.log bgd_masked;") == 2


def nginx_or_skip() -> str:
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if nginx is None:
        pytest.skip("nginx is not installed (make deploy-deps installs it)")
    return nginx


def nginx_site(nginx: str, tmp: Path, *, upstream: str, http: int, https: int) -> Path:
    """deploy/nginx.conf under a main config of its own in ``tmp``: a self-signed
    certificate, logs in ``tmp``, the given ports and upstream. Returns the main config."""
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=director.example.org", "-keyout", f"{tmp}/privkey.pem"),
            *("-out", f"{tmp}/fullchain.pem"),
        ],
        check=True,
        capture_output=True,
    )
    from bench.server import edge_cache_conf, edge_site_text

    edge = edge_cache_conf(tmp)
    site = edge_site_text((DEPLOY / "nginx.conf").read_text(), tmp)
    site = site.replace("server web:8000", f"server {upstream}")
    site = site.replace("/etc/nginx/certs", str(tmp)).replace("/var/log/nginx", str(tmp))
    site = site.replace("listen 80;", f"listen 127.0.0.1:{http};")
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;")
    site = re.sub(r"listen \[::\]:\d+( ssl)?;", "", site)  # no IPv6 needed here
    version = subprocess.run([nginx, "-v"], capture_output=True, text=True).stderr
    if tuple(map(int, re.findall(r"\d+", version)[:2])) < (1, 25):
        site = site.replace("http2 on;", "")  # the image runs 1.27; Debian 12 has 1.22
    (tmp / "site.conf").write_text(edge + site)
    user = "user root;\n" if os.geteuid() == 0 else ""
    main = tmp / "nginx.conf"
    main.write_text(
        f"{user}daemon off; pid {tmp}/nginx.pid; error_log {tmp}/error.log error;\n"
        "events { worker_connections 64; }\n"
        f"http {{ client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy; "
        f"fastcgi_temp_path {tmp}/fcgi; uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi; "
        f"access_log {tmp}/access.log; include {tmp}/site.conf; }}\n"
    )
    return main


def test_nginx_config_is_valid(tmp_path: Path) -> None:
    nginx = nginx_or_skip()
    main = nginx_site(nginx, tmp_path, upstream="127.0.0.1:8000", http=8080, https=8443)
    done = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(main)], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


def _https(port: int, method: str, path: str, **headers: str) -> tuple[int, list[str]]:
    """A request to nginx's TLS port: status and the Strict-Transport-Security headers."""
    import http.client
    import ssl

    conn = http.client.HTTPSConnection(
        "127.0.0.1", port, timeout=10, context=ssl._create_unverified_context()
    )
    try:
        conn.request(method, path, headers={"Host": "127.0.0.1", **headers})
        response = conn.getresponse()
        response.read()
        return response.status, response.headers.get_all("Strict-Transport-Security") or []
    finally:
        conn.close()


@pytest.mark.django_db(transaction=True)
def test_nginx_in_front_of_the_app_masks_links_and_sends_hsts_once(
    tmp_path: Path, live_server
) -> None:
    """nginx proxies to the app: one HSTS header (Django's); a private link's key is
    in neither the access log nor the error log, where a refused upload names the
    request line (as it still does for other paths)."""
    import time

    from bench.server import free_port, terminate, wait_port

    nginx = nginx_or_skip()
    upstream = live_server.url.removeprefix("http://")
    http_port, https_port = free_port(), free_port()
    main = nginx_site(nginx, tmp_path, upstream=upstream, http=http_port, https=https_port)
    for temp in ("body", "proxy", "fcgi", "uwsgi", "scgi"):
        (tmp_path / temp).mkdir()
    proc = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(main)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_port(https_port, timeout=10)
        status, hsts = _https(https_port, "GET", "/healthz")
        assert status == 200
        assert len(hsts) == 1, hsts
        assert hsts[0].startswith("max-age=31536000")
        key = "SeCrEtKeY0123456789abcdef"
        status, hsts = _https(https_port, "GET", f"/r/{key}/")
        assert status in {200, 404}
        assert len(hsts) == 1, hsts
        too_big = {"Content-Length": str(4 * 1024 * 1024), "Content-Type": "text/plain"}
        assert _https(https_port, "POST", f"/r/{key}/matches/1/record/", **too_big)[0] == 413
        assert _https(https_port, "POST", "/api/matches/1/record/", **too_big)[0] == 413
        time.sleep(0.2)  # nginx writes its logs as each request ends
    finally:
        terminate(proc)
    access = (tmp_path / "access.log").read_text()
    errors = (tmp_path / "error.log").read_text()
    assert "GET /r/***/ HTTP/1.1" in access
    assert "POST /r/***/matches/1/record/ HTTP/1.1" in access
    assert "client intended to send too large body" in errors  # logged for /api/
    assert "/api/matches/1/record/" in errors
    assert key not in access
    assert key not in errors


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
    assert 'logger_class = "tournament.web.access_log.MaskedKeyLogger"' in conf


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


def test_gunicorn_listens_only_where_the_proxy_reaches_it(monkeypatch) -> None:
    """With NUM_PROXIES=1 the app believes the last X-Forwarded-For entry: gunicorn must
    not be reachable but through nginx (loopback outside Docker, the compose network in
    it, where web exposes its port without publishing it)."""
    import runpy

    monkeypatch.delenv("GUNICORN_BIND", raising=False)
    conf = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert conf["bind"] == "127.0.0.1:8000"
    web = _compose()["services"]["web"]
    assert "ports" not in web
    assert web["expose"] == ["8000"]
    assert _container_env(_operator_env())["GUNICORN_BIND"] == "0.0.0.0:8000"
    guide = " ".join((DEPLOY / "DEPLOY.md").read_text().split())
    assert "gunicorn listens on 127.0.0.1:8000 only" in guide


def _docker_ignores(relative: str, patterns: list[str]) -> bool:
    """Whether a .dockerignore pattern (Go path matching, ``**`` for any depth) leaves
    ``relative`` (or a folder above it) out of the build context."""
    import fnmatch

    parts = relative.split("/")

    def match(pat: list[str], path: list[str]) -> bool:
        if not pat:
            return not path
        if pat[0] == "**":
            return any(match(pat[1:], path[i:]) for i in range(len(path) + 1))
        return bool(path) and fnmatch.fnmatchcase(path[0], pat[0]) and match(pat[1:], path[1:])

    return any(
        match(p.strip("/").split("/"), parts[:depth])
        for p in patterns
        for depth in range(1, len(parts) + 1)
    )


def _docker_context() -> list[str]:
    """The files ``docker build`` sends from the repository (.dockerignore applied)."""
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert not [p for p in patterns if p.startswith("!")], "exceptions are not modelled here"
    sent = []
    for folder, dirs, files in os.walk(ROOT):
        here = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if here == "." else f"{here}/"
        dirs[:] = [d for d in dirs if not _docker_ignores(prefix + d, patterns)]
        sent += [prefix + f for f in files if not _docker_ignores(prefix + f, patterns)]
    return sent


def test_the_build_context_holds_the_site_and_not_its_tests_or_benchmarks() -> None:
    sent = _docker_context()
    for needed in (
        "manage.py",
        "deploy/gunicorn.conf.py",
        "requirements/base.txt",
        "tournament/wsgi.py",
        "tournament/settings.py",
        "matches/models.py",
    ):
        assert needed in sent, needed
    leaked = [f for f in sent if f.split("/")[0] in {"tests", "bench", ".git", ".venv"}]
    assert not leaked, leaked[:10]
    assert not [f for f in sent if f.endswith((".pem", ".sqlite3", "/.env")) or f == ".env"]


def test_the_image_builds_and_starts_from_that_context(tmp_path: Path) -> None:
    """The Dockerfile's steps after ``COPY . .`` run in a copy of the build context: the
    site needs nothing from tests/ or bench/ (collectstatic, the checks, the WSGI app)."""
    for name in _docker_context():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}}
    env = {**base, "SECRET_KEY": secrets.token_urlsafe(50), "PYTHONDONTWRITEBYTECODE": "1"}
    for argv in (
        ["manage.py", "collectstatic", "--no-input"],
        ["manage.py", "check"],
        ["-c", "import tournament.wsgi, matches.api.urls, tournament.celery"],
    ):
        done = subprocess.run(
            [sys.executable, *argv],
            cwd=tmp_path,
            env={**env, "DJANGO_SETTINGS_MODULE": "tournament.settings"},
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, (argv, done.stdout[-2000:], done.stderr[-2000:])
    assert (tmp_path / "staticfiles").is_dir()


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


def test_the_production_configuration_keeps_the_admin_off_its_default_path() -> None:
    """Compose and the example .env choose ``off`` (or a path of the operator's own);
    with the default ``admin/`` ``check --deploy`` warns (tournament.W001)."""
    env = _container_env(_operator_env())
    assert env["ADMIN_PATH"].strip().strip("/") not in ("", "admin")
    assert "${ADMIN_PATH:-off}" in (DEPLOY / "compose.yaml").read_text()
    default = _manage(
        {**env, "ADMIN_PATH": "admin/"}, "check", "--deploy", "--fail-level", "WARNING"
    )
    assert default.returncode != 0
    assert "tournament.W001" in default.stdout + default.stderr
    unset = {k: v for k, v in env.items() if k != "ADMIN_PATH"}
    assert (
        "tournament.W001"
        in _manage(unset, "check", "--deploy").stderr + _manage(unset, "check", "--deploy").stdout
    )
    own = _manage(
        {**env, "ADMIN_PATH": "ops-4f2c/"}, "check", "--deploy", "--fail-level", "WARNING"
    )
    assert own.returncode == 0, own.stdout + own.stderr
