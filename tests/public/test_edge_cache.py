"""Spectators from the edge (issue 27): the app lets the proxy keep exactly what every
anonymous visitor gets (``X-Accel-Expires``), and deploy/nginx.conf keeps it, never for
a visitor with a session, never a private tournament's page."""

from __future__ import annotations

import http.client
import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import ROOT
from tests.factories import EventFactory, TournamentFactory, UserFactory
from tournament.web.language import from_accept_language

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


# --- the language in the edge's key ------------------------------------------------------

_MAP = re.search(
    r'map \$http_accept_language \$bgd_language \{\s*"~\*(?P<regex>[^"]+)" \$(?P<capture>\w+);',
    (ROOT / "deploy" / "nginx-edge-cache.conf").read_text(),
)
assert _MAP, "deploy/nginx-edge-cache.conf maps the Accept-Language header"
#: nginx's regex (PCRE) in Python's spelling: the same for this grammar.
EDGE_LANGUAGE = re.compile(_MAP["regex"].replace("(?<", "(?P<"), re.IGNORECASE)

TAGS = st.sampled_from(
    ["da", "de", "en", "ja", "tr", "DE", "de-DE", "en-us", "ja-JP", "fr", "fr-CA", "zh-Hans",
     "deu", "dex", "*", "de_DE", "d", "x-y-z", "es-419", "toolongtag", "de-toolongtag", "@", ""]
)  # fmt: skip
WEIGHTS = st.sampled_from(
    ["", ";q=1", ";q=1.0", " ; q=1.000", ";q=0.9", ";q=0", ";q=0.5", ";q=1.5", ";q=0.1234", ";q =1"]
)
GAPS = st.sampled_from([",", ", ", " ,", " , ", ",,", " "])


@st.composite
def accept_language(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.tuples(TAGS, WEIGHTS), min_size=1, max_size=4))
    gaps = [draw(GAPS) for _ in parts[1:]]
    text = parts[0][0] + parts[0][1]
    for (tag, weight), gap in zip(parts[1:], gaps, strict=True):
        text += gap + tag + weight
    return draw(st.sampled_from(["", " "])) + text + draw(st.sampled_from(["", ",", " "]))


def test_the_edge_knows_the_languages_the_site_offers() -> None:
    first = re.search(r"\(\?<\w+>([a-z|]+)\)", _MAP["regex"])
    assert first, _MAP["regex"]
    assert set(first.group(1).split("|")) == {code for code, _ in django_settings.LANGUAGES}


@given(header=accept_language())
def test_the_edge_keys_a_header_on_a_language_only_when_the_app_picks_it(header: str) -> None:
    """Where nginx's map names a language, the app answers in that language, so one copy
    serves every header written that way; a header the app reads otherwise (garbled, a
    first choice not offered or weighed down) keys as sent."""
    found = EDGE_LANGUAGE.search(header)
    if found:
        assert found[_MAP["capture"]].lower() == from_accept_language(header), header


@pytest.mark.parametrize(
    ("header", "key"),
    [
        ("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "de"),
        ("ja", "ja"),
        ("tr-TR,tr;q=0.9", "tr"),
        ("fr-FR,fr;q=0.9,de;q=0.8", None),  # the app picks de: keyed as sent
        ("de;q=0.5,ja", None),  # the app picks ja
        ("de-DE,de;q=0.9,@@", None),  # garbled: the app picks none
        ("de_DE", None),
    ],
)
def test_common_headers_share_one_copy_per_language(header: str, key: str | None) -> None:
    found = EDGE_LANGUAGE.search(header)
    assert (found[_MAP["capture"]] if found else None) == key


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
        # Another language is another copy; a browser that puts it first shares it.
        danish = _get(plain, live, **{"Accept-Language": "da"})
        assert danish[1] == "MISS"
        assert danish[2] != first[2]  # the fragment in Danish
        browser = _get(plain, live, **{"Accept-Language": "da-DK,da;q=0.9,en-US;q=0.8"})
        assert (browser[1], browser[2]) == ("HIT", danish[2])
        # A header the app reads as another language keys as sent, never as its first tag.
        garbled = _get(plain, live, **{"Accept-Language": "da-DK,@@"})
        assert garbled[1] == "MISS"
        assert garbled[2] == first[2]  # the app read no language: the default's copy
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
