"""Spectators from the edge (issue 27): the app lets the proxy keep exactly what every
anonymous visitor gets (``X-Accel-Expires``), and deploy/nginx.conf keeps it, never for
a visitor with a session, never a private tournament's page."""

from __future__ import annotations

import http.client
import re
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import EventFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _event(public: bool = True):
    tournament = TournamentFactory(is_public=public)
    return EventFactory(tournament=tournament)


def _paths(event) -> list[str]:
    t = event.tournament.slug
    return [f"/t/{t}/{event.slug}/", f"/t/{t}/{event.slug}/live/?v=0", f"/t/{t}/"]


def test_anonymous_visitors_get_pages_the_edge_may_keep(settings) -> None:
    settings.EDGE_CACHE_SECONDS = 2
    event = _event()
    for path in _paths(event):
        response = Client().get(path)
        assert response.status_code == 200, path
        assert response["X-Accel-Expires"] == "2", path
    # The poll of a phone that has the current version: 204, kept as well.
    page = Client().get(_paths(event)[0]).content.decode()
    version = re.search(r'data-version="([^"]+)"', page)
    assert version is not None
    live = f"/t/{event.tournament.slug}/{event.slug}/live/?v={version.group(1)}"
    response = Client().get(live)
    assert response.status_code == 204
    assert response["X-Accel-Expires"] == "2"


def test_no_edge_copy_for_a_session_a_private_page_or_when_off(settings) -> None:
    settings.EDGE_CACHE_SECONDS = 2
    event = _event()
    director = event.tournament.directors.first()
    signed_in = Client()
    signed_in.force_login(director)
    for path in _paths(event):
        assert "X-Accel-Expires" not in signed_in.get(path), path
    hidden = _event(public=False)
    for path in _paths(hidden):
        response = Client().get(path)
        assert response.status_code == 404, path
        assert "X-Accel-Expires" not in response, path
    settings.EDGE_CACHE_SECONDS = 0
    assert "X-Accel-Expires" not in Client().get(_paths(event)[0])


def _get(port: int, path: str, **headers: str) -> tuple[int, str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1", **headers})
        response = conn.getresponse()
        body = response.read().decode(errors="replace")
        return response.status, response.headers.get("X-Edge-Cache", ""), body
    finally:
        conn.close()


@pytest.mark.django_db(transaction=True)
def test_nginx_serves_spectators_from_its_cache_and_never_a_session(
    tmp_path: Path, live_server
) -> None:
    """The shipped nginx.conf in front of the app: the second anonymous poll of a live
    fragment is a HIT (gunicorn not asked); a signed-in visitor is never served a copy;
    a private tournament's page is never kept."""
    from bench.server import free_port, terminate, wait_port
    from tests.security.test_deploy import nginx_or_skip, nginx_site

    nginx = nginx_or_skip()
    event = _event()
    hidden = _event(public=False)
    director = UserFactory()
    event.tournament.directors.add(director)
    session = Client()
    session.force_login(director)
    cookie = f"sessionid={session.cookies['sessionid'].value}"
    upstream = live_server.url.removeprefix("http://")
    http_port, https_port = free_port(), free_port()
    main = nginx_site(nginx, tmp_path, upstream=upstream, http=http_port, https=https_port)
    # A plain-HTTP server of the same site for the test (the shipped one redirects to TLS).
    site = (tmp_path / "site.conf").read_text()
    plain = free_port()
    site += (
        f"server {{ listen 127.0.0.1:{plain}; proxy_http_version 1.1; "
        'proxy_set_header Connection ""; proxy_set_header Host $host; '
        f"location / {{ include {tmp_path}/bgd-edge-location.conf; "
        "proxy_pass http://bgdirector_web; } }\n"
    )
    (tmp_path / "site.conf").write_text(site)
    for temp in ("body", "proxy", "fcgi", "uwsgi", "scgi"):
        (tmp_path / temp).mkdir()
    proc = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(main)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_port(plain, timeout=10)
        live = _paths(event)[1]
        first = _get(plain, live)
        second = _get(plain, live)
        assert (first[0], first[1]) == (200, "MISS")
        assert (second[0], second[1]) == (200, "HIT")
        assert second[2] == first[2]
        # Another language is another copy.
        assert _get(plain, live, **{"Accept-Language": "da"})[1] == "MISS"
        # A session is never served the spectators' copy, nor leaves one.
        for _ in range(2):
            status, edge, _body = _get(plain, live, Cookie=cookie)
            assert (status, edge) == (200, "BYPASS")
        # A private page: 404 for a stranger, never kept.
        for path in _paths(hidden):
            for _ in range(2):
                status, edge, _body = _get(plain, path)
                assert status == 404, path
                assert edge != "HIT", (path, edge)
    finally:
        terminate(proc)
