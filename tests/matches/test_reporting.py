"""Reporting through the services: game by game, whole matches, who may act, every report kept."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from matches.access import Actor, NotAllowed
from matches.errors import Conflict, Forbidden, Invalid, NotAuthenticated
from matches.models import Game, Match, Submission
from matches.rules.errors import RulesError
from matches.services.confirmation import match_confirm
from matches.services.reporting import DoubleInput, GameInput, game_report, match_report
from matches.signals import match_changed, match_completing
from tests.factories import EventFactory, MatchFactory, PlayerFactory, UserFactory
from tests.matches.conftest import META, Table, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def announced() -> Iterator[dict[str, list[int]]]:
    """The match ids announced as changed (after commit) and as completing (in the transaction)."""
    seen: dict[str, list[int]] = {"changed": [], "completed": []}

    def on_changed(sender: object, *, match_id: int, **kw: object) -> None:
        seen["changed"].append(match_id)

    def on_completed(sender: object, *, match_id: int, **kw: object) -> None:
        seen["completed"].append(match_id)

    match_changed.connect(on_changed, dispatch_uid="test-changed")
    match_completing.connect(on_completed, dispatch_uid="test-completed")
    yield seen
    match_changed.disconnect(dispatch_uid="test-changed")
    match_completing.disconnect(dispatch_uid="test-completed")


def report(t: Table, actor: Actor, winner: int, **kw: object) -> Match:
    return game_report(
        match_id=t.match.pk, actor=actor, game=GameInput(winner=winner, **kw), meta=META
    )


def refused(exc_type: type[Exception], call, *args, **kwargs) -> Exception:  # type: ignore[no-untyped-def]
    with pytest.raises(exc_type) as info:
        call(*args, **kwargs)
    return info.value


def test_a_game_moves_the_score_and_starts_the_match(table: Table) -> None:
    match = report(table, table.link1, table.p1, cube=2, result="gammon")
    assert (match.score1, match.score2, match.status) == (4, 0, Match.Status.PLAYING)
    assert match.started_at is not None
    game = Game.objects.get(match=match)
    assert (game.number, game.winner_side, game.cube, game.points) == (1, 1, 2, 4)
    assert (game.score_before1, game.score_before2, game.crawford) == (0, 0, False)
    submission = game.submission
    assert submission.kind == "game"
    assert submission.status == "accepted"
    assert submission.via_entry_id == table.match.entry1_id
    assert (submission.ip_address, submission.user_agent) == ("192.0.2.7", "pytest phone")
    assert submission.payload["winner"] == table.p1


def test_the_crawford_game_is_derived_and_refuses_a_double(table: Table) -> None:
    report(table, table.link1, table.p1, cube=2, result="gammon")  # 4-0
    report(table, table.link2, table.p1, cube=2)  # 6-0: Anna is 1 away
    doubled = GameInput(
        winner=table.p2, cube=2, doubles=(DoubleInput(by=table.p2, turn=3, response="take"),)
    )
    error = refused(
        RulesError, game_report, match_id=table.match.pk, actor=table.link2, game=doubled, meta=META
    )
    assert error.code == "double-in-crawford"
    assert error.game == 3
    # A doubled result without the doubles listed (the phone form) is refused the same way.
    refused_cube = refused(RulesError, report, table, table.link2, table.p2, cube=2)
    assert refused_cube.code == "double-in-crawford"
    match = report(table, table.link2, table.p2)  # the Crawford game, undoubled
    game = match.games.get(number=3)
    assert game.crawford
    assert (match.score1, match.score2) == (6, 1)
    rejected = Submission.objects.filter(match=match, status="rejected").order_by("version")
    assert [s.error_code for s in rejected] == ["double-in-crawford", "double-in-crawford"]
    assert rejected[0].error_detail["game"] == 3
    assert [s.version for s in match.submissions.all()] == [1, 2, 3, 4, 5]
    # Post-Crawford, the cube is free again.
    match = report(
        table,
        table.link1,
        table.p2,
        cube=2,
        doubles=(DoubleInput(by=table.p2, turn=1, response="take"),),
    )
    assert (match.score1, match.score2) == (6, 3)
    assert not match.games.get(number=4).crawford


def test_a_players_report_that_decides_the_match_waits_for_the_opponent(
    table: Table, django_capture_on_commit_callbacks, announced
) -> None:
    report(table, table.link1, table.p1, cube=4)
    with django_capture_on_commit_callbacks(execute=True):
        match = report(table, table.link1, table.p1, cube=4, result="single")
    assert (match.score1, match.status, match.winner_id) == (8, "reported", match.entry1_id)
    assert match.reported_by_id == match.entry1_id
    assert announced["completed"] == []
    assert announced["changed"] == [match.pk]
    own = refused(Forbidden, match_confirm, match_id=match.pk, actor=table.link1, meta=META)
    assert (own.code, own.status) == ("own-report", 403)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_confirm(match_id=match.pk, actor=table.link2, meta=META)
    assert match.status == "complete"
    assert match.confirmed_at is not None
    assert announced["completed"] == [match.pk]
    again = refused(Conflict, match_confirm, match_id=match.pk, actor=table.link2, meta=META)
    assert again.code == "already-complete"
    kinds = list(match.submissions.values_list("kind", "status"))
    assert kinds[-3:] == [("confirm", "rejected"), ("confirm", "accepted"), ("confirm", "rejected")]


def test_a_directors_report_needs_no_confirmation(
    table: Table, django_capture_on_commit_callbacks, announced
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = report(table, table.boss, table.p2, cube=4, result="gammon")
    assert (match.score2, match.status, match.winner_id) == (8, "complete", match.entry2_id)
    assert announced["completed"] == [match.pk]
    assert match.submissions.get().as_director


def test_a_repeated_game_is_answered_409_and_never_counted_twice(table: Table) -> None:
    report(table, table.link1, table.p1, game_number=1)
    for actor in (table.link1, table.link2, table.boss):
        error = refused(Conflict, report, table, actor, table.p1, game_number=1)
        assert error.code == "game-already-recorded"
    ahead = refused(Conflict, report, table, table.link1, table.p1, game_number=5)
    assert ahead.code == "game-out-of-order"
    match = table.refresh()
    assert (match.score1, match.games.count(), match.status) == (1, 1, "playing")
    assert match.submissions.filter(status="rejected").count() == 4


def test_the_opponent_reporting_the_same_game_differently_sends_it_to_the_director(
    table: Table,
) -> None:
    report(table, table.link1, table.p1, game_number=1)
    error = refused(Conflict, report, table, table.link2, table.p2, game_number=1)
    assert error.code == "conflicting-report"
    match = table.refresh()
    assert match.status == "disputed"
    assert (match.score1, match.score2) == (1, 0)
    closed = refused(Conflict, report, table, table.link1, table.p1)
    assert closed.code == "match-disputed"


def test_nothing_after_the_match_is_won(table: Table) -> None:
    report(table, table.boss, table.p1, cube=8)
    error = refused(RulesError, report, table, table.boss, table.p2)
    assert error.code == "game-after-match-end"
    assert error.game == 2


def test_holland_applies_when_the_event_uses_it(db: None) -> None:
    t = make_table(round__event__holland=True, holland=True)
    report(t, t.link1, t.p1, cube=2, result="gammon")
    report(t, t.link1, t.p1, cube=2)  # 6-0
    report(t, t.link1, t.p2)  # Crawford game: 6-1
    early = GameInput(winner=t.p2, cube=2, doubles=(DoubleInput(by=t.p2, turn=1),))
    error = refused(
        RulesError, game_report, match_id=t.match.pk, actor=t.link2, game=early, meta=META
    )
    assert (error.code, error.game) == ("holland", 4)
    late = GameInput(winner=t.p2, cube=2, doubles=(DoubleInput(by=t.p2, turn=2),))
    match = game_report(match_id=t.match.pk, actor=t.link2, game=late, meta=META)
    assert match.score2 == 3


def test_doubles_order_and_ownership_are_checked(table: Table) -> None:
    twice = GameInput(
        winner=table.p1,
        cube=4,
        doubles=(DoubleInput(by=table.p1, turn=2), DoubleInput(by=table.p1, turn=4)),
    )
    error = refused(
        RulesError, game_report, match_id=table.match.pk, actor=table.link1, game=twice, meta=META
    )
    assert error.code == "double-not-owner"
    wrong_value = refused(
        RulesError,
        report,
        table,
        table.link1,
        table.p1,
        cube=4,
        doubles=(DoubleInput(by=table.p1, turn=2),),
    )
    assert wrong_value.code == "bad-cube-value"


def test_a_winner_who_is_not_in_the_match_is_a_clear_400(table: Table) -> None:
    stranger = PlayerFactory()
    error = refused(Invalid, report, table, table.link1, stranger.pk)
    assert (error.code, error.detail) == ("not-in-match", {"field": "winner"})


def test_who_may_report(table: Table) -> None:
    other = MatchFactory()
    foreign_director = UserFactory()
    EventFactory(tournament__director=foreign_director)
    refused(NotAllowed, report, table, Actor(entry=other.entry1), table.p1)
    refused(NotAllowed, report, table, Actor(user=foreign_director), table.p1)
    refused(NotAllowed, report, table, Actor(user=UserFactory()), table.p1)
    refused(NotAuthenticated, report, table, Actor(), table.p1)
    assert not Submission.objects.filter(match=table.match).exists()
    # A player's own account acts as that player.
    account = UserFactory()
    player = table.match.entry2.player
    player.user = account
    player.save()
    match = report(table, Actor(user=account), table.p2)
    assert match.submissions.get().via_entry_id == table.match.entry2_id
    assert match.submissions.get().submitted_by == account


def test_a_pending_match_takes_no_report(db: None) -> None:
    t = make_table(status=Match.Status.PENDING)
    error = refused(Conflict, report, t, t.link1, t.p1)
    assert error.code == "match-not-ready"


def whole(t: Table, actor: Actor, games: list[GameInput], score=None) -> Match:  # type: ignore[no-untyped-def]
    return match_report(match_id=t.match.pk, actor=actor, games=games, score=score, meta=META)


def seven_three(t: Table) -> list[GameInput]:
    return [
        GameInput(winner=t.p1, cube=2, result="gammon"),
        GameInput(winner=t.p2, cube=2, doubles=(DoubleInput(by=t.p2, turn=4),)),
        GameInput(winner=t.p1, cube=2),  # 6-2
        GameInput(winner=t.p2),  # the Crawford game: 6-3
        GameInput(  # a dropped initial double: worth the cube before it, 1
            winner=t.p1,
            cube=1,
            ended_by="drop",
            doubles=(DoubleInput(by=t.p1, turn=1, response="drop"),),
        ),
    ]


def test_a_whole_match_report_with_its_final_score(table: Table) -> None:
    match = whole(table, table.link2, seven_three(table), score=(7, 3))
    assert (match.score1, match.score2, match.status) == (7, 3, "reported")
    assert match.reported_by_id == match.entry2_id
    games = list(match.games.order_by("number"))
    assert [g.crawford for g in games] == [False, False, False, True, False]
    assert [g.points for g in games] == [4, 2, 2, 1, 1]
    assert games[4].doubles == [{"side": 1, "player": table.p1, "turn": 1, "response": "drop"}]


def test_a_whole_match_report_must_add_up_and_finish(table: Table) -> None:
    error = refused(RulesError, whole, table, table.link1, seven_three(table), score=(8, 3))
    assert error.code == "score-mismatch"
    short = refused(Invalid, whole, table, table.link1, seven_three(table)[:3])
    assert short.code == "match-not-finished"
    crawford_double = seven_three(table)
    crawford_double[3] = GameInput(winner=table.p2, cube=2)
    bad = refused(RulesError, whole, table, table.link1, crawford_double)
    assert (bad.code, bad.game) == ("double-in-crawford", 4)
    assert table.refresh().games.count() == 0
    assert table.match.submissions.filter(status="rejected").count() == 3


def test_the_opponents_matching_whole_report_confirms_and_a_different_one_disputes(
    db: None, django_capture_on_commit_callbacks, announced
) -> None:
    agreeing = make_table()
    whole(agreeing, agreeing.link1, seven_three(agreeing))
    with django_capture_on_commit_callbacks(execute=True):
        match = whole(agreeing, agreeing.link2, seven_three(agreeing))
    assert match.status == "complete"
    assert announced["completed"] == [match.pk]
    assert match.games.count() == 5

    differing = make_table()
    whole(differing, differing.link1, seven_three(differing))
    other = [GameInput(winner=differing.p2, cube=8)]
    error = refused(Conflict, whole, differing, differing.link2, other)
    assert error.code == "conflicting-report"
    assert differing.refresh().status == "disputed"
    same_reporter = make_table()
    whole(same_reporter, same_reporter.link1, seven_three(same_reporter))
    again = refused(Conflict, whole, same_reporter, same_reporter.link1, seven_three(same_reporter))
    assert again.code == "already-reported"


def test_a_whole_report_after_some_games_keeps_them_and_adds_the_rest(table: Table) -> None:
    games = seven_three(table)
    report(table, table.link1, table.p1, cube=2, result="gammon")
    match = whole(table, table.link1, games)
    assert match.games.count() == 5
    assert match.score1 == 7
    other = make_table()
    report(other, other.link1, other.p2)
    error = refused(Conflict, whole, other, other.link2, seven_three(other))
    assert error.code == "conflicting-report"
