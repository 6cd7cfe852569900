"""The match page's actions: final score, game by game, forfeit and walkover, late-arrival
penalty points and corrections, each posted as a director would from the console."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.http import RequestMeta
from matches.access import Actor
from matches.models import Match, Submission
from matches.services.reporting import GameInput, game_report
from tests.factories import EntryFactory, EventFactory, PlayerFactory, TournamentFactory
from tournament.models import Event
from tournament.services.draws import draw_make
from tournament.services.rounds import round_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(client, django_capture_on_commit_callbacks):
    """An 8-player Main of 5-point matches, drawn by rating, round 1 started; logged in."""
    tournament = TournamentFactory(slug="club")
    event = EventFactory(tournament=tournament, slug="main", match_lengths=[5])
    for i in range(8):
        EntryFactory(event=event, player=PlayerFactory(name=f"P{i + 1}", rating=2000 - i * 10))
    draw_make(event=event, method="rating")
    round_start(round_=event.rounds.get(number=1))
    client.force_login(tournament.directors.get())
    return event


def first_ready(event: Event) -> Match:
    return (
        Match.objects.filter(event=event, status="ready")
        .select_related("entry1__player", "entry2__player")
        .order_by("round__number", "slot")
        .first()
    )


def url(match: Match, action: str = "") -> str:
    return f"/director/t/club/matches/{match.pk}/{action + '/' if action else ''}"


def test_final_score_decides_the_match_and_the_winner_moves_on(
    client, drawn, django_capture_on_commit_callbacks
):
    match = first_ready(drawn)
    page = client.get(url(match)).content.decode()
    assert match.entry1.player.name in page
    assert "Enter the final score" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(match, "score"), {"score1": "2", "score2": "6"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner_id, match.score1, match.score2) == (
        "complete",
        match.entry2_id,
        2,
        6,
    )
    submission = match.submissions.get()
    assert submission.as_director
    assert submission.payload["final_score"] == [2, 6]
    assert submission.submitted_by == drawn.tournament.directors.get()
    following = Match.objects.get(event=drawn, round__number=2, slot=match.slot // 2)
    assert match.winner_id in (following.entry1_id, following.entry2_id)


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        (("3", "4"), "is not over"),
        (("5", "6"), "only the winner reaches"),
        (("x", "5"), "Enter a whole number"),
    ],
)
def test_a_final_score_that_is_not_a_finished_match_is_refused(client, drawn, scores, message):
    match = first_ready(drawn)
    response = client.post(url(match, "score"), {"score1": scores[0], "score2": scores[1]})
    assert response.status_code == 400
    assert message in response.content.decode()
    match.refresh_from_db()
    assert match.status == "ready"
    # The refused entry is kept, as a rejected submission of the director's.
    refused = match.submissions.get()
    assert (refused.status, refused.as_director) == ("rejected", True)


def _games(rows: list[tuple[str, str, str, str]], total: int = 9) -> dict[str, str]:
    data = {
        "games-TOTAL_FORMS": str(total),
        "games-INITIAL_FORMS": "0",
        "games-MIN_NUM_FORMS": "0",
        "games-MAX_NUM_FORMS": str(total),
    }
    for i in range(total):
        winner, cube, result, ended_by = rows[i] if i < len(rows) else ("", "1", "single", "play")
        data.update(
            {
                f"games-{i}-winner": winner,
                f"games-{i}-cube": cube,
                f"games-{i}-result": result,
                f"games-{i}-ended_by": ended_by,
            }
        )
    return data


def test_game_by_game_entry_is_checked_by_the_rules_engine(client, drawn):
    match = first_ready(drawn)
    # 4-0 after a doubled gammon: the next game is the Crawford game, where no cube turns.
    doubled_in_crawford = [("1", "2", "gammon", "play"), ("2", "2", "single", "play")]
    response = client.post(url(match, "games"), _games(doubled_in_crawford))
    assert response.status_code == 400
    assert "Crawford" in response.content.decode()
    match.refresh_from_db()
    assert match.status == "ready"
    assert not match.games.exists()

    played = [
        ("1", "2", "gammon", "play"),  # 4-0
        ("2", "1", "single", "play"),  # 4-1, the Crawford game
        ("2", "2", "single", "drop"),  # 4-3: a drop of the redouble to 4 is worth 2
        ("1", "1", "single", "play"),  # 5-3
    ]
    response = client.post(url(match, "games"), _games(played))
    assert response.status_code == 302, response.content.decode()[:3000]
    match.refresh_from_db()
    assert match.status == "complete"
    assert match.winner_id == match.entry1_id
    assert (match.score1, match.score2) == (5, 3)
    assert match.games.count() == 4
    assert match.games.get(number=2).crawford


def test_forfeit_and_walkover(client, drawn):
    first, second = Match.objects.filter(event=drawn, status="ready").order_by("slot")[:2]
    response = client.post(
        url(first, "forfeit"),
        {"winner": str(first.entry2_id), "decision": "forfeit", "reason": "left at 2-3"},
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert (first.status, first.decision, first.winner_id) == (
        "complete",
        "forfeit",
        first.entry2_id,
    )
    response = client.post(
        url(second, "forfeit"), {"winner": str(second.entry1_id), "decision": "walkover"}
    )
    assert response.status_code == 302
    second.refresh_from_db()
    assert second.decision == "walkover"
    assert second.winner_id == second.entry1_id
    # A winner who is not in the match is refused by the form.
    third = first_ready(drawn)
    response = client.post(
        url(third, "forfeit"), {"winner": str(first.entry1_id), "decision": "forfeit"}
    )
    assert response.status_code == 400
    third.refresh_from_db()
    assert third.status == "ready"


def test_late_arrival_penalty_then_forfeit_past_half_the_length(client, drawn):
    match = first_ready(drawn)
    response = client.post(url(match, "penalty"), {"late": str(match.entry1_id), "points": "2"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.start_score1, match.start_score2, match.score2, match.status) == (
        0,
        2,
        2,
        "ready",
    )
    assert "starts 0\u20132" in client.get("/director/t/club/events/main/matches/").content.decode()
    # 2 + 1 = 3 of 5 points: past half the length, the late player forfeits.
    response = client.post(url(match, "penalty"), {"late": str(match.entry1_id), "points": "1"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.decision, match.winner_id) == (
        "complete",
        "forfeit",
        match.entry2_id,
    )
    # A final score below the penalty start is refused on another match.
    other = first_ready(drawn)
    client.post(url(other, "penalty"), {"late": str(other.entry1_id), "points": "1"})
    response = client.post(url(other, "score"), {"score1": "5", "score2": "0"})
    assert response.status_code == 400
    assert "cannot be below" in response.content.decode()


def test_correction_reseats_the_next_round_or_asks_for_a_cascade(
    client, drawn, django_capture_on_commit_callbacks
):
    r1 = list(Match.objects.filter(event=drawn, round__number=1).order_by("slot"))
    with django_capture_on_commit_callbacks(execute=True):
        for m in r1:
            assert client.post(url(m, "score"), {"score1": "5", "score2": "1"}).status_code == 302
        round_start(round_=drawn.rounds.get(number=2))
    first = r1[0]
    first.refresh_from_db()
    semi = Match.objects.get(event=drawn, round__number=2, slot=0)
    assert semi.entry1_id == first.entry1_id
    assert semi.status == "ready"

    # The next match is ready but not played: the correction re-seats it.
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(first, "correct"), {"winner": str(first.entry2_id)})
    assert response.status_code == 302
    semi.refresh_from_db()
    assert semi.entry1_id == first.entry2_id

    # Once the next match is decided, a correction needs the cascade.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url(semi, "score"), {"score1": "5", "score2": "0"})
    response = client.post(url(first, "correct"), {"winner": str(first.entry1_id)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Cascade" in page
    first.refresh_from_db()
    assert first.winner_id == first.entry2_id
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url(first, "correct"), {"winner": str(first.entry1_id), "cascade": "on"}
        )
    assert response.status_code == 302
    semi.refresh_from_db()
    assert semi.entry1_id == first.entry1_id
    assert semi.status != "complete"
    corrections = Submission.objects.filter(match=first, kind="resolve")
    assert list(corrections.values_list("status", "error_code")) == [
        ("accepted", ""),
        ("rejected", "next-match-started"),
        ("accepted", ""),
    ]


def test_match_grid_queries_do_not_grow_with_the_field(client):
    counts = []
    for size in (8, 64):
        tournament = TournamentFactory(slug=f"grid-{size}")
        event = EventFactory(tournament=tournament, slug="main", match_lengths=[5])
        EntryFactory.create_batch(size, event=event)
        draw_make(event=event, method="rating")
        round_start(round_=event.rounds.get(number=1))
        client.force_login(tournament.directors.get())
        base = f"/director/t/grid-{size}/"
        for path in ("events/main/matches/", "events/main/", ""):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(base + path)
            assert response.status_code == 200
            counts.append((path, size, len(queries)))
    by_page: dict[str, set[int]] = {}
    for path, _, n in counts:
        by_page.setdefault(path, set()).add(n)
    assert all(len(ns) == 1 for ns in by_page.values()), counts


def test_htmx_check_in_swaps_one_row(client):
    event = EventFactory(tournament=TournamentFactory(slug="club"), slug="main")
    entry = EntryFactory(event=event)
    client.force_login(event.tournament.directors.get())
    path = f"/director/t/club/events/main/entries/{entry.pk}/check-in/"
    response = client.post(path, {"checked_in": "1"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith(f'<tr id="entry-{entry.pk}" class="row-checked-in">')
    assert "<html" not in body
    assert "Undo check-in" in body
    # After the draw the check-in cannot be taken back: the row says why.
    draw_event = event
    EntryFactory(event=draw_event, status="checked-in")
    draw_make(event=draw_event, method="rating")
    response = client.post(path, {"checked_in": "0"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "withdraw the player instead" in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == "checked-in"


def test_event_form_shows_service_refusals_by_field(client):
    tournament = TournamentFactory(slug="club")
    client.force_login(tournament.directors.get())
    response = client.post(
        "/director/t/club/new-event/",
        {"name": "Main", "format": "single-elimination", "match_lengths": "7", "holland": "on"},
    )
    assert response.status_code == 400
    assert "turn Crawford on" in response.content.decode()
    response = client.post(
        "/director/t/club/new-event/",
        {"name": "Main", "format": "single-elimination", "match_lengths": "7, x"},
    )
    assert response.status_code == 400
    assert "“x” is not a whole number" in response.content.decode()
    assert not tournament.events.exists()


def test_swiss_rounds_are_paired_from_the_console(client, django_capture_on_commit_callbacks):
    tournament = TournamentFactory(slug="club")
    client.force_login(tournament.directors.get())
    response = client.post(
        "/director/t/club/new-event/",
        {
            "name": "Swiss",
            "kind": "side",
            "format": "swiss",
            "match_lengths": "3",
            "rounds_planned": "2",
            "crawford": "on",
        },
    )
    assert response.status_code == 302
    event = tournament.events.get()
    for i in range(6):
        client.post(f"/director/t/club/events/{event.slug}/entries/", {"name": f"S{i}"})
    assert event.entries.count() == 6
    assert (
        client.post(
            f"/director/t/club/events/{event.slug}/draw/", {"method": "random", "seed": "3"}
        ).status_code
        == 302
    )
    for _ in range(2):
        response = client.post(f"/director/t/club/events/{event.slug}/rounds/next/")
        assert response.status_code == 302
        with django_capture_on_commit_callbacks(execute=True):
            for m in Match.objects.filter(event=event, status="ready"):
                client.post(url(m, "score"), {"score1": "3", "score2": "0"})
    event.refresh_from_db()
    assert event.rounds.count() == 2
    assert not Match.objects.filter(event=event).exclude(status="complete").exists()


def test_a_players_report_shows_in_the_grid_with_who_reported_it(client, drawn):
    match = first_ready(drawn)
    reporter = Actor(key=match.entry1.report_key)
    for game in (
        GameInput(winner=match.entry1.player_id, cube=2, result="gammon"),
        GameInput(winner=match.entry1.player_id),
    ):
        game_report(match_id=match.pk, actor=reporter, game=game, meta=RequestMeta())
    match.refresh_from_db()
    assert match.status == "reported"

    grid = client.get("/director/t/club/events/main/matches/?status=reported").content.decode()
    assert f"reported by {match.entry1.player.name}" in grid
    assert f'href="/director/matches/{match.pk}/audit/">Review</a>' in grid
    assert grid.count('class="match-card') == 1  # the filter keeps only reported matches

    page = client.get(url(match)).content.decode()
    assert "waits for the opponent's confirmation" in page
    assert "Enter the final score" not in page  # settled from the reported games instead
    assert "Forfeit or walkover" in page
    response = client.post(url(match, "score"), {"score1": "5", "score2": "0"})
    assert response.status_code == 400
    assert "already has games reported" in response.content.decode()


def test_manual_draw_follows_the_order_typed(client):
    event = EventFactory(tournament=TournamentFactory(slug="club"), slug="main")
    entries = [
        EntryFactory(event=event, player=PlayerFactory(name=f"M{i}", rating=1500 + i))
        for i in range(4)
    ]
    client.force_login(event.tournament.directors.get())
    page = client.get("/director/t/club/events/main/").content.decode()
    # The box starts with every player, best rated first, as "No. · name" lines: the
    # entry's number in the event (1 for the first registered), not the player's id.
    assert "4 · M3\n3 · M2" in page
    numbers = {e.pk: n for n, e in enumerate(sorted(entries, key=lambda e: e.pk), start=1)}
    order = [entries[1], entries[3], entries[0], entries[2]]
    text = "\n".join(f"{numbers[e.pk]} · {e.player.name}" for e in order)
    bad = client.post(
        "/director/t/club/events/main/draw/", {"method": "manual", "order": "999 · Nobody"}
    )
    assert bad.status_code == 400
    assert "no player has No. 999 here" in bad.content.decode()
    short = client.post(
        "/director/t/club/events/main/draw/",
        {"method": "manual", "order": "1 · M0"},
    )
    assert short.status_code == 400  # the service wants every drawn player once
    assert "every drawn player" in short.content.decode()
    response = client.post(
        "/director/t/club/events/main/draw/", {"method": "manual", "order": text}
    )
    assert response.status_code == 302
    seeds = {e.player.name: e.seed for e in event.entries.select_related("player")}
    assert seeds == {"M1": 1, "M3": 2, "M0": 3, "M2": 4}
    assert event.draws.get().method == "manual"


def test_event_clocks_and_fee_from_the_form(client):
    tournament = TournamentFactory(slug="club")
    client.force_login(tournament.directors.get())
    response = client.post(
        "/director/t/club/new-event/",
        {
            "name": "Open Main",
            "format": "single-elimination",
            "match_lengths": "11 11 13 17",
            "crawford": "on",
            "holland": "on",
            "clock_reserve": "2, 3",
            "clock_delay": "12",
            "entry_fee": "40.00",
        },
    )
    assert response.status_code == 302
    event = tournament.events.get()
    assert event.match_lengths == [11, 11, 13, 17]
    assert (event.crawford, event.holland, event.kind) == (True, True, "main")
    assert event.clock == [
        {"reserve_minutes_per_point": 2, "delay_seconds": 12},
        {"reserve_minutes_per_point": 3, "delay_seconds": 12},
    ]
    assert str(event.entry_fee) == "40.00"
    assert (
        "clock 2 min/pt + 12 s, 3 min/pt + 12 s"
        in client.get(f"/director/t/club/events/{event.slug}/").content.decode()
    )
