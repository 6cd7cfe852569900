"""The documentation stands on its own: no path outside the repository; docs/api.md
carries the API's core shape, each of its endpoints served (in the OpenAPI schema); the
deployment without Docker has every step the image and compose take."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "deploy/DEPLOY.md"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_document_points_outside_the_repository(doc: Path) -> None:
    text = doc.read_text()
    assert not re.search(r"/work/|/tmp/|shared `api\.md`", text), doc


def test_the_readme_points_at_the_api_page_in_the_repository() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "[`docs/api.md`](docs/api.md): the core shape" in readme


@pytest.mark.django_db
def test_docs_api_carries_the_core_shape_and_each_endpoint_is_served(client) -> None:
    text = (ROOT / "docs/api.md").read_text()
    core = text.split("## The core shape", 1)[1].split("## Beyond the core", 1)[0]
    for part in ("POST /api/auth/token/", '"code": "<stable-code>"', "Game report body"):
        assert part in core
    paths = set(re.findall(r"\| `(?:[A-Z, ]+) (/api/[^`?]+)", core))
    assert len(paths) >= 15, paths
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    served = {re.sub(r"\{[^}]+\}", "{}", p) for p in schema["paths"]}
    for path in paths:
        assert re.sub(r"\{[^}]+\}", "{}", path) in served, path


def test_the_way_without_docker_has_every_step() -> None:
    deploy = (ROOT / "deploy/DEPLOY.md").read_text()
    way = deploy.split("Without Docker, the same steps by hand", 1)[1].split("## ", 1)[0]
    dockerfile = (ROOT / "deploy/Dockerfile").read_text()
    assert "collectstatic" in dockerfile
    for step in (
        "pip install -r requirements/base.txt",
        "gnubg",
        "manage.py collectstatic --no-input",
        "manage.py migrate",
        "manage.py createsuperuser",
        "manage.py check --deploy",
        "gunicorn -c deploy/gunicorn.conf.py tournament.wsgi",
        "celery -A tournament worker",
        "-Q bgdirector.analysis",
        "celery -A tournament beat",
        "nginx.conf",
        "/etc/nginx/conf.d/bgd-edge-cache.conf",
        "/etc/nginx/snippets/bgd-edge-location.conf",
    ):
        assert step in way, step
    assert way.index("collectstatic") < way.index("gunicorn -c")
