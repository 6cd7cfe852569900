"""Bad input: mutated match files, oversized uploads, HTML in every name.

- Match files from ``tests/data/gnubg`` mutated at random (bytes flipped, inserted,
  deleted, lines dropped or swapped, files cut short) and uploaded through the API
  and the service: the answer is the engine's error (400 with its code) or a
  refusal, never a crash, and every upload is stored as a submission.
- Readers fed truncations and bit flips: only the engine's ``RulesError``.
- An upload over the size limit is refused (413, a clear message) before its body
  is read: the request's stream raises if anyone touches it.
- A player, tournament, event, venue and club named ``<script>alert(1)</script>``:
  every page shows it escaped.
"""

from __future__ import annotations

import contextlib
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.access import Actor
from matches.models import Match, Submission
from matches.rules.errors import RulesError
from matches.rules.matfile import read_mat
from matches.rules.sgf import read_sgf
from matches.services.ledger import REFUSALS
from matches.services.records import record_upload
from tests.mutations import mutate
from tests.resilience.test_permissions import MATRIX, Lookup, make_scene
from tests.resilience.world import META, World, build_world
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnubg"
FILES = sorted(p for p in CORPUS.iterdir() if p.suffix in (".mat", ".sgf"))
SMALL = [p for p in FILES if re.search(r"_(1|3|5|7)pt\.", p.name)]


def length_of(path: Path) -> int:
    return int(re.search(r"_(\d+)pt\.", path.name).group(1))  # type: ignore[union-attr]


def _match_for(path: Path) -> tuple[World, Match]:
    world = build_world(size=2, lengths=(length_of(path),))
    return world, world.matches(1)[0]


def test_mutated_match_files_through_the_api_get_the_engines_error() -> None:
    rng = random.Random(20261121)
    seen: dict[int, int] = {}
    uploads = 0
    for path in SMALL[:8]:
        _world, match = _match_for(path)
        client = Client(HTTP_X_REPORT_KEY=match.entry1.report_key)  # type: ignore[union-attr]
        source = path.read_bytes()
        for _ in range(8):
            data = mutate(source, rng, rng.randint(1, 5))
            response = client.post(
                f"/api/matches/{match.pk}/record/",
                {
                    "file": SimpleUploadedFile(path.name, data),
                    "first_is": match.entry1.player_id,  # type: ignore[union-attr]
                },
            )
            uploads += 1
            seen[response.status_code] = seen.get(response.status_code, 0) + 1
            assert response.status_code in (201, 400, 409), (path.name, response.content[:300])
            if response.status_code != 201:
                body = response.json()
                assert set(body) == {"code", "message", "detail"}
                assert body["code"]
                assert body["message"]
        assert Submission.objects.filter(match=match, kind="record").count() == 8
    assert seen.get(400, 0) > uploads // 2, seen


@pytest.fixture
def upload_match(db: None) -> Match:
    return _match_for(CORPUS / "m04_7pt.mat")[1]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    path=st.sampled_from([p for p in SMALL if "_7pt." in p.name]),
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 10),
)
def test_the_upload_service_only_refuses_mutated_files(
    upload_match: Match, path: Path, seed: int, count: int
) -> None:
    data = mutate(path.read_bytes(), random.Random(seed), count)
    before = Submission.objects.filter(match=upload_match).count()
    with contextlib.suppress(*REFUSALS):  # anything else fails the test
        record_upload(
            match_id=upload_match.pk,
            actor=Actor(entry=upload_match.entry1),
            file_name=path.name,
            data=data,
            meta=META,
            first_is=upload_match.entry1.player_id,  # type: ignore[union-attr]
        )
    assert Submission.objects.filter(match=upload_match).count() == before + 1


@pytest.mark.parametrize("path", FILES[::6], ids=lambda p: p.name)
def test_readers_fed_truncations_and_bit_flips_raise_only_rules_errors(path: Path) -> None:
    reader = read_mat if path.suffix == ".mat" else read_sgf
    data = path.read_bytes()
    rng = random.Random(path.name)
    cuts = [rng.randrange(len(data)) for _ in range(40)]
    flips = []
    for _ in range(40):
        buf = bytearray(data)
        at = rng.randrange(len(buf))
        buf[at] ^= 1 << rng.randrange(8)
        flips.append(bytes(buf))
    for sample in [data[:cut] for cut in cuts] + flips:
        with contextlib.suppress(RulesError):
            reader(sample)


# ---- size limit ---------------------------------------------------------------------


class _Untouchable:
    """A request body that fails the test if anything reads it."""

    def read(self, *args: Any) -> bytes:
        raise AssertionError("the oversized body was read")

    readline = read

    def __iter__(self) -> Any:
        raise AssertionError("the oversized body was read")


def _oversized(client: Client, path: str, **headers: str) -> Any:
    size = 50 * 1024 * 1024
    return client.generic(
        "POST",
        path,
        CONTENT_TYPE="multipart/form-data; boundary=xyz",
        CONTENT_LENGTH=str(size),
        **{"wsgi.input": _Untouchable()},  # type: ignore[arg-type]
        **headers,
    )


@pytest.mark.parametrize("csrf", [False, True])
def test_an_oversized_upload_is_refused_unread(upload_match: Match, csrf: bool) -> None:
    key = upload_match.entry1.report_key  # type: ignore[union-attr]
    client = Client(enforce_csrf_checks=csrf)
    if csrf:  # a browser that has the CSRF cookie: the check would read the form's body
        client.cookies["csrftoken"] = "k" * 32
    api = _oversized(client, f"/api/matches/{upload_match.pk}/record/", HTTP_X_REPORT_KEY=key)
    assert api.status_code == 413
    assert api.json()["code"] == "file-too-large"
    assert "may be at most" in api.json()["message"]
    # The attempt is stored (the reporter is known from the header alone).
    assert Submission.objects.filter(match=upload_match, error_code="file-too-large").exists()
    form = _oversized(client, f"/r/{key}/matches/{upload_match.pk}/record/")
    assert form.status_code == 413
    assert "may be at most" in form.content.decode()
    signed_in = Client(enforce_csrf_checks=csrf)
    signed_in.force_login(build_world(size=2).director)
    assert _oversized(signed_in, f"/api/matches/{upload_match.pk}/record/").status_code == 413


@pytest.mark.parametrize("declared", ["12x", "lots", "1e9"])
def test_a_bad_content_length_is_bad_input_on_every_upload_path(
    upload_match: Match, declared: str
) -> None:
    """A ``Content-Length`` that is not a number reads as 0 on every path that checks the
    declared size (the middleware, the API, the private link's form): no 500."""
    key = upload_match.entry1.report_key  # type: ignore[union-attr]

    def post(client: Client, path: str, **headers: str) -> Any:
        return client.generic(
            "POST",
            path,
            b"--xyz--\r\n",
            content_type="multipart/form-data; boundary=xyz",
            CONTENT_LENGTH=declared,
            **headers,
        )

    api = post(Client(), f"/api/matches/{upload_match.pk}/record/", HTTP_X_REPORT_KEY=key)
    assert api.status_code == 400, api.content
    form = post(Client(), f"/r/{key}/matches/{upload_match.pk}/record/")
    assert form.status_code == 400, form.content
    assert "Choose a match file." in form.content.decode()
    signed_in = Client()
    signed_in.force_login(build_world(size=2).director)
    # Past the middleware (a session): the view answers as for any upload, here that this
    # director does not direct the match's tournament.
    assert post(signed_in, f"/api/matches/{upload_match.pk}/record/").status_code == 403


@override_settings(MATCH_FILE_MAX_BYTES=2048)
def test_a_file_over_a_small_limit_is_refused_with_a_clear_message(upload_match: Match) -> None:
    client = Client(HTTP_X_REPORT_KEY=upload_match.entry1.report_key)  # type: ignore[union-attr]
    data = (CORPUS / "m04_7pt.mat").read_bytes()
    assert len(data) > 2048
    response = client.post(
        f"/api/matches/{upload_match.pk}/record/", {"file": SimpleUploadedFile("m.mat", data)}
    )
    assert response.status_code == 413
    assert response.json()["message"].endswith("match files may be at most 2048 bytes.")


# ---- HTML in names ------------------------------------------------------------------

EVIL = "<script>alert(1)</script>"


def test_html_in_names_is_escaped_on_every_page() -> None:
    scene = make_scene()
    world = scene.world
    Player.objects.filter(pk__in=[p.pk for p in world.players]).update(name=EVIL, club=EVIL)
    Tournament.objects.filter(pk=world.tournament.pk).update(name=EVIL, venue=EVIL)
    world.event.name = EVIL
    world.event.save(update_fields=["name"])
    scene.series.name = EVIL
    scene.series.save(update_fields=["name"])
    viewers = {"anonymous": Client(), "director": Client(), "player": Client()}
    viewers["director"].force_login(world.director)
    viewers["player"].force_login(world.account_of(scene.match.entry1))  # type: ignore[arg-type]
    checked = 0
    for row in MATRIX:
        if row.method != "GET":
            continue
        path = row.path.format_map(Lookup(scene))
        for who, client in viewers.items():
            response = client.get(path)
            kind = response.get("Content-Type", "")
            if response.status_code != 200 or not kind.startswith("text/html"):
                continue
            html = response.content.decode()
            assert EVIL not in html, f"{path} as {who} shows the name unescaped"
            checked += 1
    assert checked > 40
