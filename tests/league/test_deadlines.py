"""Deadline reminders and rules, case by case (the season test plays them together)."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
import time_machine
from django.core import mail

from matches.errors import Invalid
from matches.models import Match, Submission
from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tournament.models import Event
from tournament.services.deadlines import (
    Action,
    match_deadline_apply,
    match_remind,
    matches_past_deadline,
    matches_to_remind,
    round_deadline_set,
)

pytestmark = pytest.mark.django_db
DEADLINE = dt.datetime(2030, 11, 3, 19, 0, tzinfo=dt.UTC)  # 20:00 in Berlin, 14:00 in New York


def late_match(
    *, rule: str = Event.DeadlineRule.FLAG, zone: str = "UTC", **kwargs: object
) -> Match:
    tournament = TournamentFactory(time_zone=zone, director=UserFactory(email="td@example.org"))
    match = MatchFactory(
        round__event__tournament=tournament, round__event__deadline_rule=rule, **kwargs
    )
    round_deadline_set(round=match.round, deadline=DEADLINE)
    return match


def submit(
    match: Match, entry_id: int | None, *, kind: str = "game", accepted: bool = True
) -> None:
    version = match.submissions.count() + 1
    Submission.objects.create(
        match=match,
        version=version,
        kind=kind,
        status=Submission.Status.ACCEPTED if accepted else Submission.Status.REJECTED,
        via_entry_id=entry_id,
        as_director=entry_id is None,
    )


def test_the_reminder_is_written_in_the_tournaments_zone() -> None:
    match = late_match(zone="America/New_York", entry1__player__name="Ann & Co")
    now = DEADLINE - dt.timedelta(hours=20)
    assert matches_to_remind(now=now) == [match.pk]
    assert match_remind(match_id=match.pk, now=now) == 2
    first = next(m for m in mail.outbox if m.to == [match.entry2.player.email])
    assert first.subject == (
        f"{match.event.tournament.name}: your match against Ann & Co is due by "
        "Sunday 3 November 2030, 14:00 EST"
    )
    assert f"/r/{match.entry2.report_key}/" in first.body
    assert "forfeits" not in first.body
    assert "go to the director" in first.body
    match.refresh_from_db()
    assert match.reminded_at == now
    assert matches_to_remind(now=now) == []
    assert match_remind(match_id=match.pk, now=now) == 0
    assert len(mail.outbox) == 2


def test_no_reminder_too_early_for_players_who_opted_out_or_after_the_deadline() -> None:
    match = late_match(entry1__player__notify=False, entry2__player__email="")
    assert matches_to_remind(now=DEADLINE - dt.timedelta(days=2)) == []
    assert matches_to_remind(now=DEADLINE + dt.timedelta(seconds=1)) == []
    assert match_remind(match_id=match.pk, now=DEADLINE - dt.timedelta(hours=1)) == 0
    assert mail.outbox == []
    match.refresh_from_db()
    assert match.reminded_at is not None  # handled: nobody to write to


def test_a_later_deadline_arms_a_new_reminder() -> None:
    match = late_match()
    match_remind(match_id=match.pk, now=DEADLINE - dt.timedelta(hours=3))
    later = DEADLINE + dt.timedelta(days=7)
    round_deadline_set(round=match.round, deadline=later)
    assert matches_to_remind(now=DEADLINE) == []
    assert matches_to_remind(now=later - dt.timedelta(hours=2)) == [match.pk]


def test_only_the_silent_opponent_is_reminded_of_a_report() -> None:
    match = late_match(status=Match.Status.REPORTED, score1=7)
    match.reported_by = match.entry1
    match.save()
    assert match_remind(match_id=match.pk, now=DEADLINE - dt.timedelta(hours=1)) == 1
    (only,) = mail.outbox
    assert only.to == [match.entry2.player.email]
    assert "reported the result" in only.body


def test_a_deadline_needs_a_time_zone_and_is_stored_in_utc() -> None:
    match = late_match()
    with pytest.raises(Invalid, match="time zone"):
        round_deadline_set(round=match.round, deadline=dt.datetime(2030, 1, 1, 20, 0))
    berlin = dt.datetime(2030, 7, 1, 20, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Berlin"))
    rnd = round_deadline_set(round=match.round, deadline=berlin)
    rnd.refresh_from_db()
    assert rnd.deadline == dt.datetime(2030, 7, 1, 18, 0, tzinfo=dt.UTC)


def test_the_flag_rule_flags_and_tells_the_director() -> None:
    match = late_match(zone="Europe/Berlin")
    submit(match, match.entry1_id)  # even a clear no-show is the director's call here
    assert matches_past_deadline(now=DEADLINE - dt.timedelta(seconds=1)) == []
    assert matches_past_deadline(now=DEADLINE) == [match.pk]
    result = match_deadline_apply(match_id=match.pk, now=DEADLINE)
    assert result.action is Action.FLAGGED
    match.refresh_from_db()
    assert (match.flagged, match.status) == (True, Match.Status.READY)
    (note,) = mail.outbox
    assert note.to == ["td@example.org"]
    assert "Sunday 3 November 2030, 20:00 CET" in note.body
    assert matches_past_deadline(now=DEADLINE) == []
    assert match_deadline_apply(match_id=match.pk, now=DEADLINE).action is Action.NOTHING


def test_the_forfeit_rule_names_the_player_who_never_reported(
    django_capture_on_commit_callbacks,
) -> None:
    match = late_match(rule=Event.DeadlineRule.FORFEIT)
    submit(match, match.entry2_id, accepted=False)  # a rejected report still shows up
    with django_capture_on_commit_callbacks(execute=True):
        result = match_deadline_apply(match_id=match.pk, now=DEADLINE)
    assert (result.action, result.loser_entry_id) == (Action.FORFEITED, match.entry1_id)
    match.refresh_from_db()
    assert (match.status, match.decision, match.winner_id) == (
        Match.Status.COMPLETE,
        Match.Decision.FORFEIT,
        match.entry2_id,
    )
    assert not match.rating_changes.exists()  # a forfeit is not rated
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [match.entry1.player.email, match.entry2.player.email]
    )


@pytest.mark.parametrize(
    ("reporters", "status", "why"),
    [
        ((), Match.Status.READY, "neither player"),
        ((1, 2), Match.Status.PLAYING, "both players"),
        ((1,), Match.Status.DISPUTED, "disputed"),
    ],
)
def test_the_forfeit_rule_flags_what_it_cannot_decide(
    reporters: tuple[int, ...], status: str, why: str
) -> None:
    match = late_match(rule=Event.DeadlineRule.FORFEIT, status=status)
    for side in reporters:
        submit(match, match.entry1_id if side == 1 else match.entry2_id)
    result = match_deadline_apply(match_id=match.pk, now=DEADLINE)
    assert result.action is Action.FLAGGED
    assert why in result.reason
    match.refresh_from_db()
    assert (match.flagged, match.status) == (True, status)


def test_the_beat_tasks_run_on_the_clock() -> None:
    from tournament.tasks.deadlines import apply_deadlines, send_deadline_reminders

    match = late_match()
    with time_machine.travel(DEADLINE - dt.timedelta(hours=12), tick=False):
        assert send_deadline_reminders.apply().get() == 2
    with time_machine.travel(DEADLINE + dt.timedelta(minutes=5), tick=False):
        assert apply_deadlines.apply().get() == {"flagged": 1}
        assert apply_deadlines.apply().get() == {}
    match.refresh_from_db()
    assert match.flagged
