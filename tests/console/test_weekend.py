"""A whole weekend through the console alone, as a director with a browser would run it.

38 players come from a CSV (with two bad rows the preview points out); one withdraws
before the draw, so 37 play a Main of
single elimination whose round-1 and round-2 losers feed a Consolation; the players
out of both then enter a Last Chance. Every round is started and every match is
decided from the console's forms until each bracket has its champion.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from matches.models import Match
from tests.factories import UserFactory, grant_tournament_creation
from tournament.models import Entry, Event, Player, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 37
IN_CSV = PLAYERS + 1


def players_csv(n: int, *, bad_lines: bool = True) -> str:
    lines = ["name,email,rating,club"]
    for i in range(n):
        lines.append(
            f"Player {i + 1:02d},p{i + 1}@example.org,{1400 + (i * 53) % 400},Club {i % 5}"
        )
    if bad_lines:  # two lines the preview must point out by number
        lines.insert(5, "Ratingless Rick,rick@example.org,lots,Club 0")
        lines.insert(9, ",nameless@example.org,1500,Club 0")
    return "\n".join(lines) + "\n"


def ok(response) -> None:
    """A console form post succeeded: it redirects; a 400 page says why."""
    if response.status_code != 302:
        body = response.content.decode()
        errors = re.findall(r'class="errorlist[^"]*"[^>]*>(.*?)</ul>', body, re.S)
        messages = re.findall(r'<ul class="messages".*?</ul>', body, re.S)
        raise AssertionError(f"{response.status_code}: {errors or messages or body[:2000]}")


class Console:
    """The pages a director clicks through, as form posts."""

    def __init__(self, client: Client, slug: str) -> None:
        self.client = client
        self.slug = slug
        self.rng = random.Random(7)

    def event_url(self, event: Event, tail: str = "") -> str:
        return f"/director/t/{self.slug}/events/{event.slug}/{tail}"

    def new_event(self, **fields: str) -> Event:
        ok(self.client.post(f"/director/t/{self.slug}/new-event/", fields))
        return Event.objects.get(tournament__slug=self.slug, name=fields["name"])

    def start_next_round(self, event: Event) -> bool:
        """Start the event's earliest round that has not started; False when none is left."""
        rnd = event.rounds.filter(status="pending").order_by("bracket", "number").first()
        if rnd is None:
            return False
        before = rnd.status
        self.client.post(self.event_url(event, f"rounds/{rnd.pk}/start/"))
        rnd.refresh_from_db()
        return rnd.status != before

    def decide_ready_matches(self, event: Event) -> int:
        """Enter a final score for every ready match of the event; return how many."""
        decided = 0
        for match in Match.objects.filter(event=event, status="ready").order_by("pk"):
            loser_score = self.rng.randrange(match.length)
            scores = [match.length, loser_score]
            if self.rng.random() < 0.5:
                scores.reverse()
            page = self.client.get(f"/director/t/{self.slug}/matches/{match.pk}/")
            assert page.status_code == 200
            ok(
                self.client.post(
                    f"/director/t/{self.slug}/matches/{match.pk}/score/",
                    {"score1": scores[0], "score2": scores[1]},
                )
            )
            decided += 1
        return decided

    def play(self, *events: Event) -> None:
        """Start rounds and decide matches until every event has its champion."""
        for _ in range(200):
            pending = [e for e in events if not _refreshed(e).champion_id]
            if not pending:
                return
            progress = 0
            for event in pending:
                progress += self.decide_ready_matches(event)
                if (
                    not progress
                    and not Match.objects.filter(
                        event=event, status__in=["ready", "playing", "reported", "disputed"]
                    ).exists()
                ):
                    progress += self.start_next_round(event)
            if not progress:
                stuck = {
                    e.name: list(
                        Match.objects.filter(event=e)
                        .exclude(status="complete")
                        .values_list("round__number", "slot", "status")
                    )
                    for e in pending
                }
                raise AssertionError(f"no progress: {stuck}")
        raise AssertionError("the weekend did not finish")


def _refreshed(event: Event) -> Event:
    event.refresh_from_db()
    return event


def test_a_37_player_weekend_from_a_csv_to_three_champions(client):
    director = grant_tournament_creation(UserFactory(username="td"))
    client.force_login(director)

    ok(
        client.post(
            "/director/new/",
            {"name": "Spring Open", "slug": "spring", "venue": "Club House", "is_public": "on"},
        )
    )
    tournament = Tournament.objects.get(slug="spring")
    assert list(tournament.directors.all()) == [director]
    console = Console(client, "spring")

    main = console.new_event(
        name="Main",
        kind="main",
        format="single-elimination",
        match_lengths="5, 5, 5, 7",
        crawford="on",
    )
    consolation = console.new_event(
        name="Consolation",
        kind="consolation",
        format="single-elimination",
        match_lengths="3",
        crawford="on",
        feeds_from=str(main.pk),
        feed_rounds="1, 2",
    )
    last_chance = console.new_event(
        name="Last Chance",
        kind="last-chance",
        format="single-elimination",
        match_lengths="3",
        crawford="on",
    )
    assert main.match_lengths == [5, 5, 5, 7]
    assert consolation.feeds_from_id == main.pk
    assert consolation.feed_rounds == [1, 2]

    # The CSV: the preview names the two bad lines and nothing is imported until they
    # are fixed (the import is all or nothing).
    csv_text = players_csv(IN_CSV)
    preview = client.post("/director/t/spring/import/", {"text": csv_text, "event": str(main.pk)})
    assert preview.status_code == 200
    page = preview.content.decode()
    assert "2 lines to fix" in page
    assert "Line 6, rating: &#x27;lots&#x27; is not a number." in page
    assert "Line 10, name: The name is empty." in page
    assert 'name="confirm"' not in page
    refused = client.post(
        "/director/t/spring/import/", {"text": csv_text, "event": str(main.pk), "confirm": "1"}
    )
    assert refused.status_code == 400
    assert "nothing was imported" in refused.content.decode()
    assert "Line 6, rating" in refused.content.decode()
    assert Player.objects.count() == 0

    fixed = csv_text.replace("lots", "1650").replace(",nameless@", "Nameless Nora,nameless@")
    preview = client.post("/director/t/spring/import/", {"text": fixed, "event": str(main.pk)})
    page = preview.content.decode()
    assert "40 rows read: 40 new players, 0 already known" in page
    assert 'name="confirm"' in page
    ok(
        client.post(
            "/director/t/spring/import/", {"text": fixed, "event": str(main.pk), "confirm": "1"}
        )
    )
    assert main.entries.count() == IN_CSV + 2
    # The two players of the fixed lines are not coming after all.
    for name in ("Ratingless Rick", "Nameless Nora"):
        gone = main.entries.get(player__name=name)
        ok(client.post(console.event_url(main, f"entries/{gone.pk}/withdraw/")))
    assert "Player 38" in client.get(console.event_url(main)).content.decode()

    # Check-in as players arrive (only checked-in players are drawn once anyone is).
    for entry in main.entries.filter(status=Entry.Status.REGISTERED):
        ok(
            client.post(
                console.event_url(main, f"entries/{entry.pk}/check-in/"), {"checked_in": "1"}
            )
        )
    assert main.entries.filter(status=Entry.Status.CHECKED_IN).count() == IN_CSV

    # One player leaves before the draw; the check-in toggle works both ways.
    leaver = main.entries.get(player__name="Player 38")
    ok(client.post(console.event_url(main, f"entries/{leaver.pk}/withdraw/")))
    ok(client.post(console.event_url(main, f"entries/{leaver.pk}/check-in/"), {"checked_in": "1"}))
    leaver.refresh_from_db()
    assert leaver.status == Entry.Status.WITHDRAWN  # a withdrawn entry cannot check in
    late = main.entries.get(player__name="Player 36")  # checked in by mistake
    ok(client.post(console.event_url(main, f"entries/{late.pk}/check-in/"), {"checked_in": "0"}))
    late.refresh_from_db()
    assert late.status == Entry.Status.REGISTERED
    ok(client.post(console.event_url(main, f"entries/{late.pk}/check-in/"), {"checked_in": "1"}))
    late.refresh_from_db()
    assert late.status == Entry.Status.CHECKED_IN

    ok(client.post(console.event_url(main, "draw/"), {"method": "random", "seed": "20240601"}))
    main.refresh_from_db()
    assert main.status == Event.Status.DRAWN
    placed = {
        entry_id
        for match in Match.objects.filter(event=main, round__number=1)
        for entry_id in (match.entry1_id, match.entry2_id)
        if entry_id
    }
    assert len(placed) == PLAYERS
    assert leaver.pk not in placed
    draw = main.draws.get()
    assert draw.method == "random"
    assert draw.seed == 20240601
    assert "20240601" in client.get(console.event_url(main)).content.decode()

    # Lengths can change before a round starts: the final becomes 9 points.
    ok(client.post(console.event_url(main, "lengths/"), {"match_lengths": "5, 5, 5, 5, 5, 9"}))
    final_round = main.rounds.order_by("-number").first()
    assert final_round.match_length == 9

    console.play(main, consolation)

    # The Last Chance: everyone out of both brackets who wants another go.
    out = (
        Player.objects.filter(entries__event=main, entries__status=Entry.Status.ELIMINATED)
        .filter(entries__event=consolation, entries__status=Entry.Status.ELIMINATED)
        .distinct()
        .order_by("name")[:11]
    )
    assert len(out) == 11
    for player in out:
        ok(client.post(console.event_url(last_chance, "entries/"), {"player": str(player.pk)}))
    ok(client.post(console.event_url(last_chance, "draw/"), {"method": "rating"}))
    console.play(last_chance)

    for event in (main, consolation, last_chance):
        event.refresh_from_db()
        assert event.status == Event.Status.FINISHED, event.name
        assert event.champion is not None, event.name
        assert not Match.objects.filter(event=event).exclude(status="complete").exists()
        final = Match.objects.filter(event=event).order_by("-round__number").first()
        assert final.winner_id == event.champion_id
        grid = client.get(console.event_url(event, "matches/")).content.decode()
        assert event.champion.player.name in grid
    # Nobody is the champion of the Main and of the Consolation.
    assert main.champion.player_id != consolation.champion.player_id
