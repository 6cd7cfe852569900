"""A 16-player online league over four weekly rounds, driven with a frozen clock.

Each week some matches are played and confirmed at once, one waits for a
confirmation that never comes, one player vanishes after a game, one match is
never touched, and one is finished on the last day. The beat tasks remind the
players a day before the deadline, apply the forfeit rule at the deadline, the
played matches are rated as they are confirmed and the series leaderboard moves
on; recomputing the ratings from scratch gives the same numbers.
"""

from __future__ import annotations

import datetime as dt
import math
import zoneinfo
from collections.abc import Iterator

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command

from core.http import RequestMeta
from matches.access import Actor
from matches.models import Match
from matches.services.confirmation import match_confirm
from matches.services.reporting import GameInput, game_report, match_report
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournament.formulas import ratings, series
from tournament.models import Entry, Event, Player, RatingChange, Round, Series
from tournament.services.deadlines import round_deadline_set
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.ratings import rated_matches, ratings_recompute
from tournament.services.results import match_award
from tournament.services.rounds import swiss_next_round
from tournament.services.series import series_leaderboard
from tournament.tasks.deadlines import apply_deadlines, send_deadline_reminders

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
LENGTH = 5
META = RequestMeta(ip="127.0.0.1", user_agent="league test")
# What happens to the match in each slot of every round.
CONFIRMED_EARLY = (0, 1, 2, 3)
NEVER_CONFIRMED = 4  # reported by player 1; player 2 never answers
VANISHED = 5  # player 1 reports a game; player 2 is never heard of again
UNTOUCHED = 6  # neither player reports anything
LAST_DAY = 7  # played and confirmed on the deadline's day, after the reminder


def local(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=BERLIN)


def report_match(match: Match, winner: Entry, *, loser_games: int, by: Entry) -> None:
    """``by`` reports the whole match: the loser's single games first, then the winner's 5."""
    loser = match.entry2 if winner.pk == match.entry1_id else match.entry1
    assert loser is not None
    games = [GameInput(winner=loser.player_id) for _ in range(loser_games)]
    games += [
        GameInput(winner=winner.player_id, result="gammon"),
        *(GameInput(winner=winner.player_id) for _ in range(3)),
    ]
    match_report(match_id=match.pk, actor=Actor(entry=by), games=games, score=None, meta=META)


def confirm(match: Match, by: Entry) -> None:
    match_confirm(match_id=match.pk, actor=Actor(entry=by), meta=META)


def inbox() -> list[tuple[str, str]]:
    """(recipient, subject) of every email sent, then the outbox is emptied."""
    sent = sorted((m.to[0], m.subject) for m in mail.outbox)
    mail.outbox.clear()
    return sent


def addresses(*entries: Entry | None) -> list[str]:
    return sorted(
        e.player.email for e in entries if e is not None and e.player.notify and e.player.email
    )


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    with time_machine.travel(local(2030, 3, 4, 9, 0), tick=False) as traveller:
        yield traveller


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_a_league_season(clock: time_machine.Traveller) -> None:
    director = UserFactory(email="director@example.org")
    season = Series.objects.create(name="Club League 2030", slug="league-2030")
    tournament = TournamentFactory(
        name="Spring League", time_zone="Europe/Berlin", series=season, director=director
    )
    event = event_create(
        tournament=tournament,
        name="League",
        format=Event.Format.SWISS,
        match_lengths=[LENGTH],
        rounds=4,
        deadline_rule=Event.DeadlineRule.FORFEIT,
    )
    entries = [entry_register(event=event, player=PlayerFactory(notify=i != 15)) for i in range(16)]
    draw_make(event=event, method="rating", by=director)
    starting = {p.pk: (p.rating, p.experience) for p in Player.objects.filter(entries__event=event)}
    assert len(starting) == len(entries)
    boards = []

    for week in range(4):
        monday = local(2030, 3, 4, 9, 0) + dt.timedelta(weeks=week)
        clock.move_to(monday)
        deadline = local(2030, 3, 10, 20, 0) + dt.timedelta(weeks=week)
        rnd = swiss_next_round(event=event, by=director)
        round_deadline_set(round=rnd, deadline=deadline)
        matches = list(
            rnd.matches.select_related("entry1__player", "entry2__player").order_by("slot")
        )
        assert [m.status for m in matches] == [Match.Status.READY] * 8
        # Starting the round tells every player with an address that their match is ready.
        ready = inbox()
        assert {to for to, _ in ready} == set(
            addresses(*(e for m in matches for e in (m.entry1, m.entry2)))
        )
        assert all(subject.startswith("Your next match") for _, subject in ready)

        # Tuesday: most matches are played, reported and confirmed at once.
        clock.move_to(monday + dt.timedelta(days=1, hours=11))
        for slot in CONFIRMED_EARLY:
            m = matches[slot]
            winner = m.entry1 if (slot + week) % 2 else m.entry2
            report_match(m, winner, loser_games=slot % 4, by=m.entry1)
            confirm(m, by=m.entry2)
        m = matches[NEVER_CONFIRMED]
        report_match(m, m.entry2, loser_games=2, by=m.entry1)  # an honest loser reports
        m = matches[VANISHED]
        game_report(
            match_id=m.pk,
            actor=Actor(entry=m.entry1),
            game=GameInput(winner=m.entry1.player_id),
            meta=META,
        )
        assert not mail.outbox  # nothing is due yet
        send_deadline_reminders.apply().get()
        assert inbox() == []

        # Saturday 21:00, 23 hours before the deadline: the reminders go out, once.
        clock.move_to(deadline - dt.timedelta(hours=23))
        assert send_deadline_reminders.apply().get() == len(
            addresses(matches[NEVER_CONFIRMED].entry2)
            + addresses(
                *(
                    e
                    for s in (VANISHED, UNTOUCHED, LAST_DAY)
                    for e in (matches[s].entry1, matches[s].entry2)
                )
            )
        )
        sent = inbox()
        expected = sorted(
            addresses(matches[NEVER_CONFIRMED].entry2)
            + [
                a
                for s in (VANISHED, UNTOUCHED, LAST_DAY)
                for a in addresses(matches[s].entry1, matches[s].entry2)
            ]
        )
        assert [to for to, _ in sent] == expected
        when = "Sunday {} March 2030, 20:00 {}".format(
            deadline.day, "CEST" if week == 3 else "CET"
        )  # the clocks go forward on 31 March 2030
        assert all(subject.endswith(f"is due by {when}") for _, subject in sent), sent
        assert send_deadline_reminders.apply().get() == 0
        assert inbox() == []

        # Sunday afternoon: the last match is finished in time.
        clock.move_to(deadline - dt.timedelta(hours=4))
        m = matches[LAST_DAY]
        report_match(m, m.entry1, loser_games=3, by=m.entry2)
        confirm(m, by=m.entry1)
        assert apply_deadlines.apply().get() == {}  # not yet

        # One minute past the deadline: the rule applies, once.
        clock.move_to(deadline + dt.timedelta(minutes=1))
        assert apply_deadlines.apply().get() == {"confirmed": 1, "forfeited": 1, "flagged": 1}
        assert apply_deadlines.apply().get() == {}
        for m in matches:
            m.refresh_from_db()
        silent, vanished, untouched = (
            matches[NEVER_CONFIRMED],
            matches[VANISHED],
            matches[UNTOUCHED],
        )
        assert (silent.status, silent.decision, silent.winner_id) == (
            Match.Status.COMPLETE,
            Match.Decision.PLAY,
            silent.entry2_id,
        )
        assert (vanished.status, vanished.decision, vanished.winner_id) == (
            Match.Status.COMPLETE,
            Match.Decision.FORFEIT,
            vanished.entry1_id,
        )
        assert (untouched.flagged, untouched.status) == (True, Match.Status.READY)
        sent = inbox()
        assert [to for to, _ in sent] == sorted(
            [
                *addresses(silent.entry1, silent.entry2, vanished.entry1, vanished.entry2),
                "director@example.org",
            ]
        )
        assert any("forfeits the match" in subject for _, subject in sent)

        # Every match played to its end, and only those, is rated.
        played = [matches[s] for s in (*CONFIRMED_EARLY, NEVER_CONFIRMED, LAST_DAY)]
        assert set(
            RatingChange.objects.filter(match__round=rnd).values_list("match_id", flat=True)
        ) == {m.pk for m in played}
        boards.append(series_leaderboard(series=season))

        # The director settles the flagged match, and the next round can be paired.
        match_award(
            decision="forfeit",
            match=untouched,
            winner=untouched.entry1,
            reason="neither showed; coin toss",
            by=director,
        )
        # Its players were told of a match that will not be played: each is corrected.
        told = inbox()
        assert [to for to, _ in told] == addresses(untouched.entry1, untouched.entry2)
        assert all(subject.startswith("Correction") for _, subject in told), told
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.COMPLETE

    # The ratings are the FIBS formula replayed over the played matches in confirmation order.
    replay = dict(starting)
    order = rated_matches().select_related("entry1", "entry2").order_by("confirmed_at", "pk")
    assert order.count() == 24
    for m in order:
        (r1, e1), (r2, e2) = replay[m.entry1.player_id], replay[m.entry2.player_id]
        one, two = ratings.rate(
            r1,
            r2,
            LENGTH,
            winner=1 if m.winner_id == m.entry1_id else 2,
            experience1=e1,
            experience2=e2,
        )
        replay[m.entry1.player_id] = (one.rating_after, one.experience_after)
        replay[m.entry2.player_id] = (two.rating_after, two.experience_after)
    live = {p.pk: (p.rating, p.experience) for p in Player.objects.all()}
    assert live == replay
    assert sum(exp for _, exp in live.values()) == 2 * 24 * LENGTH

    # Recomputing from scratch, by the service or the command, gives the same numbers.
    history = list(
        RatingChange.objects.order_by("pk").values_list(
            "player_id",
            "match_id",
            "rating_before",
            "rating_after",
            "experience_before",
            "created_at",
        )
    )
    assert ratings_recompute() == 24
    call_command("recompute_ratings")
    assert {p.pk: (p.rating, p.experience) for p in Player.objects.all()} == live
    assert sorted(
        RatingChange.objects.values_list(
            "player_id",
            "match_id",
            "rating_before",
            "rating_after",
            "experience_before",
            "created_at",
        )
    ) == sorted(history)

    # The series leaderboard moved on every week and counts the forfeits' progress, not as wins.
    assert [len(b.rows) for b in boards] == [16] * 4
    assert len({tuple((r.player_id, r.points) for r in b.rows) for b in boards}) == 4
    final = series_leaderboard(series=season)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert final.events[0].finished
    assert final.rows[0].player_id == event.champion.player_id
    wins = {r.player_id: r.wins for r in final.rows}
    assert sum(wins.values()) == 24
    weight = series.kind_weight(event.kind)
    for row in final.rows:
        assert row.points >= round(weight * math.sqrt(LENGTH) * row.wins, 2)
    assert [r.rank for r in final.rows] == sorted(r.rank for r in final.rows)
    assert final.events[0].field == 16
