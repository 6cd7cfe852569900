"""Who may do what: every endpoint and page against six callers.

Callers: anonymous, player 1 of match M, their opponent, another player of the
event, the director of another tournament, the tournament's director. Each row of
``MATRIX`` says who may pass; everybody else must be turned away (401 or a login
redirect when anonymous, 403/404 when logged in) and never reach a service. The
matrix must name every URL the site routes (``test_the_matrix_covers_every_url``).
Private report links are checked apart: wrong, expired or for another match, they
open nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from matches.models import Match, Submission
from tests.resilience.world import World, build_world, play_to_end
from tournament.models import Entry, Event, Series, SidePool
from tournament.services.events import event_create
from tournament.services.side_pools import side_pool_create
from tournament.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "opponent", "other_player", "other_director", "director")
SIGNED_IN = ROLES[1:]

# Who may pass, by rule.
RULES: dict[str, set[str]] = {
    "public": set(ROLES),
    "link": set(ROLES),  # the private key in the URL is the credential
    "signed_in": set(SIGNED_IN),
    "any_director": {"other_director", "director"},
    "director": {"director"},
    "match": {"player", "opponent", "director"},
    # The player's own account, or a director (who gets the matches of what they direct).
    "player_or_director": {"player", "other_director", "director"},
}


@dataclass
class Scene:
    """The objects the matrix's URLs point at."""

    world: World
    match: Match  # round 1, slot 0: player vs opponent
    series: Series
    pool: SidePool

    def __getattr__(self, name: str) -> Any:
        w = self.world
        values = {
            "slug": w.tournament.slug,
            "eslug": w.event.slug,
            "event": w.event.pk,
            "m": self.match.pk,
            "r1": w.round(1).pk,
            "r2": w.round(2).pk,
            "p": self.match.entry1.player_id,  # type: ignore[union-attr]
            "key": self.match.entry1.report_key,  # type: ignore[union-attr]
            "draw": w.event.draws.first().pk,  # type: ignore[union-attr]
            "series_slug": self.series.slug,
            "td": w.director.pk,  # the tournament's only director: removing them is refused
            # An entry far from M: withdrawing or checking it in touches nobody here.
            "entry": w.matches(1)[-1].entry2_id,
            # The key holder's own entry (drawn: their link may not withdraw it, 400).
            "own_entry": self.match.entry1_id,
            "pool_id": self.pool.pk,
        }
        if name == "signup_token":  # a sign-up asked for the event (its page: public)
            from tournament.models import SignupRequest

            asked, _ = SignupRequest.objects.get_or_create(
                event=w.event, email="asked@example.org", defaults={"name": "Asked"}
            )
            return asked.token
        if name == "fp":  # a forbidden pair of the event (made again after a delete)
            from tournament.models import ForbiddenPair

            far = w.matches(1)[-1]
            one, two = far.entry1.player_id, far.entry2.player_id  # type: ignore[union-attr]
            pair, _ = ForbiddenPair.objects.get_or_create(
                event=w.event, player_a_id=one, player_b_id=two
            )
            return pair.pk
        if name in values:
            return values[name]
        raise AttributeError(name)


@dataclass(frozen=True)
class Row:
    method: str
    path: str  # formatted with the scene's attributes
    rule: str
    body: dict[str, Any] | None = None
    api: bool = False


def api(method: str, path: str, rule: str, body: dict[str, Any] | None = None) -> Row:
    return Row(method, "/api" + path, rule, body, api=True)


MATRIX: list[Row] = [
    # ---- public pages ------------------------------------------------------------
    Row("GET", "/healthz", "public"),
    Row("GET", "/sw.js", "public"),  # the service worker
    Row("POST", "/i18n/setlang/", "public", {"language": "da"}),  # sets a cookie, nothing more
    Row("GET", "/jsi18n/da/", "public"),  # the scripts' catalogue
    Row("GET", "/", "public"),
    Row("GET", "/t/{slug}/", "public"),
    Row("GET", "/t/{slug}/scoreboard/", "public"),
    Row("GET", "/t/{slug}/scoreboard/live/", "public"),
    Row("GET", "/t/{slug}/board/", "public"),
    Row("GET", "/t/{slug}/board/live/", "public"),
    Row("GET", "/t/{slug}/players/", "public"),
    Row("GET", "/t/{slug}/{eslug}/", "public"),
    Row("GET", "/t/{slug}/{eslug}/live/", "public"),
    Row("GET", "/t/{slug}/{eslug}/print/", "public"),
    Row("GET", "/t/{slug}/{eslug}/slips/", "public"),
    Row("GET", "/t/{slug}/{eslug}/draws/{draw}/", "public"),
    Row("GET", "/t/{slug}/{eslug}/results.csv", "public"),
    Row("GET", "/t/{slug}/{eslug}/matches.zip", "public"),
    Row("GET", "/t/{slug}/{eslug}/final/", "public"),
    Row("GET", "/t/{slug}/{eslug}/signup/", "public"),
    Row("GET", "/signup/confirm/{signup_token}/", "public"),
    Row("GET", "/matches/{m}/", "public"),
    Row("GET", "/matches/{m}/live/", "public"),
    Row("GET", "/players/{p}/", "public"),
    Row("GET", "/players/{p}/matches.ics", "public"),
    Row("GET", "/series/{series_slug}/", "public"),
    Row("GET", "/accounts/reset/MQ/not-a-token/", "public"),  # says the link is not valid
    Row("GET", "/accounts/reset/done/", "public"),
    # ---- a player's own pages ----------------------------------------------------
    Row("GET", "/me/", "signed_in"),
    Row("GET", "/r/{key}/", "link"),
    Row("GET", "/r/{key}/manifest.webmanifest", "link"),
    Row("GET", "/r/{key}/results/", "link"),
    Row("GET", "/r/{key}/emails/", "link"),
    Row("GET", "/r/{key}/entries/", "link"),
    Row("POST", "/r/{key}/entries/{own_entry}/withdraw/", "link", {}),  # drawn: 400
    Row("POST", "/r/{key}/matches/{m}/game/", "link", {}),
    Row("POST", "/r/{key}/matches/{m}/record/", "link", {}),
    Row("POST", "/r/{key}/matches/{m}/confirm/", "link", {}),
    Row("POST", "/r/{key}/matches/{m}/dispute/", "link", {}),
    Row("POST", "/r/{key}/entries/{own_entry}/undo/", "link", {}),  # not withdrawn: 400
    Row("POST", "/r/{key}/entries/signup/", "link", {}),  # no event: 400
    Row("POST", "/r/{key}/claim/", "signed_in", {}),  # "this is me": needs an account
    # ---- the director's console --------------------------------------------------
    Row("GET", "/director/", "signed_in"),  # lists only the tournaments one directs
    Row("GET", "/director/new/", "any_director"),  # directors create tournaments
    Row("GET", "/director/disputes/", "any_director"),
    Row("GET", "/director/matches/{m}/audit/", "director"),
    Row("GET", "/director/t/{slug}/", "director"),
    Row("GET", "/director/t/{slug}/settings/", "director"),
    Row("POST", "/director/t/{slug}/settings/", "director", {}),
    Row("GET", "/director/t/{slug}/new-event/", "director"),
    Row("POST", "/director/t/{slug}/new-event/", "director", {}),
    Row("GET", "/director/t/{slug}/import/", "director"),
    Row("POST", "/director/t/{slug}/import/", "director", {}),
    Row("GET", "/director/t/{slug}/events/{eslug}/", "director"),
    Row("GET", "/director/t/{slug}/events/{eslug}/settings/", "director"),
    Row("POST", "/director/t/{slug}/events/{eslug}/settings/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/entries/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/entries/bulk/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/entries/{entry}/approve/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/side-pools/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/side-pools/{pool_id}/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/entries/{entry}/check-in/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/entries/{entry}/withdraw/", "director", {}),
    Row("GET", "/director/t/{slug}/events/{eslug}/entries/{entry}/withdraw/", "director"),
    Row("POST", "/director/t/{slug}/events/{eslug}/entries/{entry}/withdraw/undo/", "director", {}),
    Row("GET", "/director/t/{slug}/player-links/", "director"),
    Row("POST", "/director/t/{slug}/player-links/email/", "director", {}),
    Row("POST", "/director/t/{slug}/player-links/{p}/email/", "director", {}),
    Row("GET", "/director/t/{slug}/player-links/{p}/regenerate/", "director"),
    Row("POST", "/director/t/{slug}/player-links/{p}/regenerate/", "director", {}),
    Row("GET", "/director/t/{slug}/players/{p}/", "director"),
    Row("POST", "/director/t/{slug}/players/{p}/", "director", {}),  # no name: refused, 400
    Row("POST", "/director/t/{slug}/players/{p}/link-account/", "director", {}),
    Row("GET", "/director/t/{slug}/directors/", "director"),
    Row("POST", "/director/t/{slug}/directors/", "director", {}),
    Row("GET", "/director/t/{slug}/directors/{td}/remove/", "director"),
    Row("POST", "/director/t/{slug}/directors/{td}/remove/", "director", {}),
    Row("POST", "/director/t/{slug}/directors/{td}/link/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/draw/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/lengths/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/rounds/{r2}/start/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/rounds/{r2}/minutes/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/rounds/next/", "director", {}),
    Row("GET", "/director/t/{slug}/events/{eslug}/matches/", "director"),
    Row("GET", "/director/t/{slug}/matches/{m}/", "director"),
    Row("POST", "/director/t/{slug}/matches/{m}/score/", "director", {}),
    Row("POST", "/director/t/{slug}/matches/{m}/games/", "director", {}),
    Row("POST", "/director/t/{slug}/matches/{m}/forfeit/", "director", {}),
    Row("POST", "/director/t/{slug}/matches/{m}/reopen/", "director", {}),
    Row("POST", "/director/t/{slug}/matches/{m}/analysis/", "director", {}),
    Row("POST", "/director/t/{slug}/matches/{m}/penalty/", "director", {}),
    Row("POST", "/director/t/{slug}/matches/{m}/correct/", "director", {}),
    Row("POST", "/director/t/{slug}/matches/{m}/table/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/rounds/{r2}/tables/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/end/", "director", {}),  # not a Swiss: 400
    Row("POST", "/director/t/{slug}/events/{eslug}/forbidden-pairs/", "director", {}),
    Row("POST", "/director/t/{slug}/events/{eslug}/forbidden-pairs/{fp}/delete/", "director", {}),
    Row("POST", "/director/t/{slug}/matches/{m}/bmab/", "director", {}),
    Row("GET", "/director/t/{slug}/players/{p}/merge/", "director"),
    Row("POST", "/director/t/{slug}/players/{p}/merge/", "director", {}),  # no other: 400
    # ---- API: reading ------------------------------------------------------------
    api("GET", "/schema/", "public"),
    api("GET", "/docs/", "public"),
    api("GET", "/players/", "public"),
    api("GET", "/players/{p}/", "public"),
    api("GET", "/players/{p}/ratings/", "public"),
    api("GET", "/tournaments/", "public"),
    api("GET", "/tournaments/{slug}/", "public"),
    api("GET", "/tournaments/{slug}/events/", "public"),
    api("GET", "/events/{event}/", "public"),
    api("GET", "/events/{event}/entries/", "public"),
    api("GET", "/events/{event}/bracket/", "public"),
    api("GET", "/events/{event}/standings/", "public"),
    api("GET", "/rounds/{r1}/", "public"),
    api("GET", "/matches/", "public"),
    api("GET", "/matches/{m}/", "public"),
    api("GET", "/series/{series_slug}/leaderboard/", "public"),
    api("GET", "/events/{event}/places/", "public"),  # unfinished: 400
    api("GET", "/matches/{m}/analysis/", "public"),
    api("GET", "/players/{p}/analysis/", "public"),
    api("GET", "/events/{event}/analysis/", "public"),
    api("GET", "/tournaments/{slug}/analysis/", "public"),
    api("GET", "/tournaments/{slug}/analysis.csv", "public"),
    api("POST", "/events/{event}/signup/", "public", {}),  # no name: 400
    api("POST", "/signup/confirm/", "public", {}),  # no token: 400
    # ---- API: managing -----------------------------------------------------------
    api("POST", "/players/", "any_director", {}),
    api("POST", "/players/import/", "any_director", {}),
    api("POST", "/tournaments/", "any_director", {}),
    api("PATCH", "/tournaments/{slug}/", "director", {}),
    api("PATCH", "/players/{p}/", "director", {}),  # no field: nothing changes
    api("POST", "/tournaments/{slug}/events/", "director", {}),
    api("PATCH", "/events/{event}/", "director", {}),
    api("POST", "/events/{event}/entries/", "director", {}),
    api("POST", "/events/{event}/draw/", "director", {}),
    api("POST", "/events/{event}/rounds/next/", "director", {}),
    api("POST", "/entries/{entry}/check-in/", "director", {}),
    api("POST", "/entries/{entry}/withdraw/", "director", {}),
    api("POST", "/entries/{entry}/withdraw/undo/", "director", {}),
    api("POST", "/entries/{entry}/approve/", "director", {}),
    api("POST", "/events/{event}/entries/paid/", "director", {}),
    api("POST", "/events/{event}/entries/check-in/", "director", {}),
    api("POST", "/matches/{m}/analysis/rerun/", "director", {}),
    api("GET", "/tournaments/{slug}/player-links/", "director"),
    api("POST", "/tournaments/{slug}/player-links/{p}/regenerate/", "director", {}),
    api("PATCH", "/tournaments/{slug}/player-links/{p}/", "director", {}),  # no email: 400
    api("POST", "/players/{p}/link-account/", "signed_in", {}),  # linked already: 400
    api("GET", "/tournaments/{slug}/directors/", "director"),
    api("POST", "/tournaments/{slug}/directors/", "director", {}),
    api("DELETE", "/tournaments/{slug}/directors/{td}/", "director"),
    api("POST", "/tournaments/{slug}/directors/{td}/link/", "director", {}),
    api("PATCH", "/rounds/{r2}/", "director", {}),
    api("POST", "/rounds/{r2}/start/", "director", {}),
    api("PUT", "/rounds/{r2}/deadline/", "director", {}),
    api("POST", "/matches/{m}/forfeit/", "director", {}),
    api("POST", "/matches/{m}/walkover/", "director", {}),
    api("POST", "/matches/{m}/penalty/", "director", {}),
    api("POST", "/matches/{m}/correct/", "director", {}),
    api("PATCH", "/matches/{m}/", "director", {}),
    api("POST", "/rounds/{r2}/tables/", "director", {}),
    api("POST", "/events/{event}/end/", "director", {}),
    api("POST", "/events/{event}/entries/approve/", "director", {}),
    api("GET", "/events/{event}/forbidden-pairs/", "director"),
    api("POST", "/events/{event}/forbidden-pairs/", "director", {}),
    api("DELETE", "/events/{event}/forbidden-pairs/{fp}/", "director"),
    api("GET", "/events/{event}/bmab.zip", "director"),
    api("GET", "/players/{p}/bmab.zip", "player_or_director"),
    api("POST", "/matches/{m}/reopen/", "director", {}),
    api("POST", "/matches/{m}/score/", "director", {}),
    api("POST", "/tournaments/{slug}/players/{p}/merge/", "director", {}),
    # ---- API: reporting ----------------------------------------------------------
    api("POST", "/matches/{m}/games/", "match", {}),
    api("POST", "/matches/{m}/report/", "match", {}),
    api("POST", "/matches/{m}/record/", "match", {}),
    api("POST", "/matches/{m}/confirm/", "match", {}),
    api("POST", "/matches/{m}/dispute/", "match", {}),
    api("POST", "/matches/{m}/bmab/", "match", {}),
    api("POST", "/matches/{m}/resolve/", "director", {}),
    api("GET", "/matches/{m}/submissions/", "director"),
]

#: Routes outside the matrix, with the reason.
NOT_IN_MATRIX = {
    "admin": "Django's admin: staff only, its own permission system",
    "admin/login/": "the admin's login, throttled: tests/security/test_login_throttle.py",
    "login": "tested by test_login_is_throttled and the CSRF test",
    "logout": "tested by the CSRF test",
    "api/auth/token/": "tested by test_login_is_throttled",
    "api/devices/sync/": "a phone's private key only (X-Report-Key), no session: "
    "tests/matches/test_idempotency.py (401 without it, 404 unknown, own matches only)",
}


def make_scene() -> Scene:
    world = build_world(size=8, lengths=(3,))
    series = Series.objects.create(name="Club Series", slug=f"series-{world.tournament.pk}")
    world.tournament.series = series
    world.tournament.save(update_fields=["series"])
    pool = side_pool_create(event=world.event, name="Side", stake=Decimal("5"), payout_split=[100])
    return Scene(world=world, match=world.matches(1)[0], series=series, pool=pool)


def _clients(scene: Scene) -> dict[str, Client]:
    w, m = scene.world, scene.match
    other_match = w.matches(1)[1]
    users = {
        "player": w.account_of(m.entry1),  # type: ignore[arg-type]
        "opponent": w.account_of(m.entry2),  # type: ignore[arg-type]
        "other_player": w.account_of(other_match.entry1),  # type: ignore[arg-type]
        "other_director": w.other_director,
        "director": w.director,
    }
    clients = {"anonymous": Client()}
    for role, user in users.items():
        client = Client()
        client.force_login(user)
        clients[role] = client
    return clients


def _send(client: Client, row: Row, scene: Scene) -> Any:
    path = row.path.format_map(Lookup(scene))
    call: Callable[..., Any] = getattr(client, row.method.lower())
    if row.method == "GET":
        return call(path)
    if row.api and not row.path.endswith("/record/"):
        return call(path, row.body or {}, content_type="application/json")
    return call(path, row.body or {})


class Lookup(dict):  # type: ignore[type-arg]
    def __init__(self, scene: Scene) -> None:
        super().__init__()
        self.scene = scene

    def __missing__(self, key: str) -> Any:
        return getattr(self.scene, key)


def _verdict(row: Row, role: str, response: Any) -> str | None:
    """Why ``response`` is wrong for ``role`` on ``row`` (None when it is right)."""
    code = response.status_code
    if code >= 500:
        return f"{code} (server error)"
    allowed = role in RULES[row.rule]
    if allowed:
        if code in (401, 403, 404) or (
            code == 302 and "/accounts/login/" in response.get("Location", "")
        ):
            return f"{code}: turned away, but {row.rule!r} lets {role} in"
        return None
    if role == "anonymous":
        if row.api and code == 401:
            return None
        if not row.api and code == 302 and "/accounts/login/" in response["Location"]:
            return None
        return f"{code}: anonymous must get {'401' if row.api else 'the login page'}"
    if code in (403, 404):
        return None
    return f"{code}: {role} must be turned away (403/404)"


def test_every_endpoint_and_page_against_six_callers() -> None:
    scene = make_scene()
    clients = _clients(scene)
    stored = Submission.objects.count()
    wrong: list[str] = []
    for row in MATRIX:
        # Turned-away callers first: what they try must not change anything for the others.
        for role in sorted(ROLES, key=lambda r: r in RULES[row.rule]):
            response = _send(clients[role], row, scene)
            problem = _verdict(row, role, response)
            if problem:
                wrong.append(f"{row.method} {row.path} as {role}: {problem}")
            if role not in RULES[row.rule] and row.rule == "match":
                assert Submission.objects.count() == stored, (row.path, role)
            stored = Submission.objects.count()
    assert not wrong, "\n".join(wrong)


def _route_names(patterns: list[Any], prefix: str = "") -> set[str]:
    found: set[str] = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if str(pattern.pattern).startswith("admin/"):
                found.add("admin")
                continue
            found |= _route_names(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            found.add(prefix + str(pattern.pattern))
    return found


def _matrix_route(path: str) -> str:
    """A matrix path as its URL pattern reads (``{m}`` -> ``<int:match_id>`` and so on)."""
    return path


def test_the_matrix_covers_every_url() -> None:
    from django.urls import resolve

    scene = make_scene()
    covered: set[str] = set()
    for row in MATRIX:
        match = resolve(row.path.format_map(Lookup(scene)))
        covered.add(match.route)
    routes = _route_names(get_resolver().url_patterns)
    missing = {
        r
        for r in routes - covered
        if r not in NOT_IN_MATRIX and not any(r.startswith(f"accounts/{n}") for n in NOT_IN_MATRIX)
    }
    assert not missing, f"routes with no row in the permission matrix: {sorted(missing)}"


# ---- private report links -----------------------------------------------------------


@pytest.fixture
def linked() -> Scene:
    return make_scene()


def _game(client: Client, key: str, match: Match) -> Any:
    return client.post(
        f"/r/{key}/matches/{match.pk}/game/",
        {"winner": match.entry1.player_id, "cube": 1, "result": "single", "ended_by": "play"},  # type: ignore[union-attr]
    )


def test_a_wrong_report_link_opens_nothing(linked: Scene) -> None:
    client = Client()
    for key in ("nope", linked.key[:-1], linked.key + "x", "%00", "a" * 200):
        page = client.get(f"/r/{key}/")
        assert page.status_code in (403, 404), key
        assert _game(client, key, linked.match).status_code in (403, 404), key
    assert not Submission.objects.exists()


def test_a_report_link_for_another_match_opens_nothing(linked: Scene) -> None:
    other = linked.world.matches(1)[1]
    client = Client()
    response = _game(client, linked.key, other)
    assert response.status_code in (403, 404)
    api = client.post(
        f"/api/matches/{other.pk}/games/",
        {"winner": other.entry1.player_id},  # type: ignore[union-attr]
        content_type="application/json",
        HTTP_X_REPORT_KEY=linked.key,
    )
    assert api.status_code == 403
    assert not Submission.objects.filter(match=other).exists()


def test_the_link_of_a_withdrawn_player_has_expired(linked: Scene) -> None:
    entry = Entry.objects.get(pk=linked.match.entry1_id)
    entry_withdraw(entry=entry, reason="went home")
    client = Client()
    assert client.get(f"/r/{entry.report_key}/").status_code in (403, 404)
    api = client.post(
        f"/api/matches/{linked.match.pk}/dispute/",
        {"reason": "x"},
        content_type="application/json",
        HTTP_X_REPORT_KEY=entry.report_key,
    )
    assert api.status_code == 403
    assert not Submission.objects.filter(via_entry=entry).exists()


def test_the_links_of_a_finished_event_have_expired(linked: Scene) -> None:
    Event.objects.filter(pk=linked.world.event.pk).update(status=Event.Status.FINISHED)
    client = Client()
    # the player's results, and no form any more
    results = client.get(f"/r/{linked.key}/", follow=True)
    assert results.status_code == 200
    assert b"Final place" in results.content or b"is finished" in results.content
    assert b"<form" not in results.content.split(b"<main")[1]
    assert _game(client, linked.key, linked.match).status_code in (403, 404)
    api = client.post(
        f"/api/matches/{linked.match.pk}/games/",
        {"winner": linked.match.entry1.player_id},  # type: ignore[union-attr]
        content_type="application/json",
        HTTP_X_REPORT_KEY=linked.key,
    )
    assert api.status_code == 403
    assert not Submission.objects.exists()


# ---- a private tournament, seen from another tenant -------------------------------------

#: Placeholders that name a thing of the tournament (``key`` is a credential, not a name).
_SCOPED = {"slug", "eslug", "event", "m", "r1", "r2", "p", "draw", "entry", "own_entry"}
_SCOPED |= {"pool_id", "td"}  # a series is shared: its pages count public tournaments only


def _placeholders(path: str) -> set[str]:
    import string

    return {name for _, name, _, _ in string.Formatter().parse(path) if name}


def _private_scene() -> Scene:
    """The scene with its tournament private, and the other director's own tournament
    holding an event of the same slug (so that a console address can mix the two)."""
    from tournament.pages.caching import clear_caches

    scene = make_scene()
    scene.world.tournament.is_public = False
    scene.world.tournament.save(update_fields=["is_public"])
    event_create(tournament=scene.world.other_tournament, name="Main", match_lengths=[3])
    play_to_end(scene.world.matches(1)[1])  # results to show: tables, exports, histories
    clear_caches()
    return scene


def _secrets(scene: Scene) -> list[str]:
    """What another tenant must never read of the private tournament."""
    w = scene.world
    return [w.tournament.name, *(p.name for p in w.players), scene.key]


def _leaks(response: Any, secrets: list[str]) -> list[str]:
    if response.status_code >= 300 or response.get("Content-Type", "").startswith("image/"):
        return []
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode("utf-8", "replace")
    return [s for s in secrets if s in text]


def test_a_private_tournament_is_out_of_reach_of_another_director_and_anonymous() -> None:
    """Every row of the matrix against a private tournament: whatever names one of its
    things (slug, event, match, round, player, entry, draw, pool, series) is 404/403 to
    the director of another tournament and to anybody signed out, and no answer of any
    route (lists, searches, exports, the other director's own pages) names its players,
    its name or a private key. Private links stay credentials of their own."""
    scene = _private_scene()
    clients = _clients(scene)
    secrets = _secrets(scene)
    stored = Submission.objects.count()
    wrong: list[str] = []
    for row in MATRIX:  # the director's visits first: their pages are cached now
        if row.method == "GET" and "key" not in _placeholders(row.path):
            assert _send(clients["director"], row, scene).status_code < 500, row.path
    for row in MATRIX:
        names = _placeholders(row.path)
        if "key" in names:
            continue  # the link is the credential: tested apart
        if row.method == "GET":  # a page's live fragment (htmx) and a search too
            for role in ("other_director", "anonymous"):
                path = row.path.format_map(Lookup(scene)) + "?q=Player"
                fragment = clients[role].get(path, HTTP_HX_REQUEST="true")
                if (
                    names & _SCOPED
                    and fragment.status_code not in (401, 403, 404)
                    and not (
                        fragment.status_code == 302
                        and "/accounts/login/" in fragment.get("Location", "")
                    )
                ):
                    wrong.append(f"GET {row.path} (htmx) as {role}: {fragment.status_code}")
                if leaked := _leaks(fragment, secrets):
                    wrong.append(f"GET {row.path} (htmx) as {role}: shows {leaked}")
        for role in ("other_director", "anonymous"):
            response = _send(clients[role], row, scene)
            if (
                names & _SCOPED
                and response.status_code not in (401, 403, 404)
                and not (
                    response.status_code == 302
                    and "/accounts/login/" in response.get("Location", "")
                )
            ):
                wrong.append(f"{row.method} {row.path} as {role}: {response.status_code}")
                continue
            if leaked := _leaks(response, secrets):
                wrong.append(f"{row.method} {row.path} as {role}: shows {leaked}")
            if names & _IDS and not names & {"slug", "eslug"}:
                # Enumerating ids tells nothing: a hidden thing answers as a missing one.
                missing = row.path.format_map(_Missing(scene, names & _IDS))
                absent = _send(
                    clients[role], Row(row.method, missing, row.rule, row.body, row.api), scene
                )
                if absent.status_code != response.status_code:
                    wrong.append(
                        f"{row.method} {row.path} as {role}: {response.status_code} when hidden,"
                        f" {absent.status_code} when missing"
                    )
    assert Submission.objects.count() == stored
    assert not wrong, "\n".join(wrong)


_IDS = {"event", "m", "r1", "r2", "p", "draw", "entry", "own_entry", "pool_id"}


class _Missing(Lookup):
    """The scene's values, but ``names``: ids that name nothing."""

    def __init__(self, scene: Scene, names: set[str]) -> None:
        super().__init__(scene)
        self.update(dict.fromkeys(names, 10**9))


def test_a_directors_own_address_does_not_reach_another_tournaments_things() -> None:
    """The console and the API behind the other director's own tournament slug, with the
    ids of the private tournament's match, round, player, entry, draw and pool: 404."""
    scene = _private_scene()
    own = scene.world.other_tournament.slug
    client = _clients(scene)["other_director"]
    stored = Submission.objects.count()
    wrong: list[str] = []
    for row in MATRIX:
        names = _placeholders(row.path)
        if "slug" not in names or not (names & _SCOPED) - {"slug", "eslug"}:
            continue
        mixed = Row(row.method, row.path.replace("{slug}", own), row.rule, row.body, row.api)
        response = _send(client, mixed, scene)
        if response.status_code not in (403, 404):
            wrong.append(f"{row.method} {mixed.path}: {response.status_code}")
        if leaked := _leaks(response, _secrets(scene)):
            wrong.append(f"{row.method} {mixed.path}: shows {leaked}")
    assert Submission.objects.count() == stored
    assert not wrong, "\n".join(wrong)
