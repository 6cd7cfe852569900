"""Confirming, disputing and a director's final decision."""

from __future__ import annotations

import pytest
from django.utils import timezone

from matches.access import NotAllowed
from matches.errors import Conflict, Invalid
from matches.models import Game, Match
from matches.rules.errors import RulesError
from matches.services.confirmation import match_confirm, match_dispute, match_resolve
from matches.services.reporting import GameInput, game_report, match_report
from tests.matches.conftest import META, Table

pytestmark = pytest.mark.django_db


def play(t: Table, *winners_and_cubes: tuple[int, int]) -> Match:
    match = t.match
    for winner, cube in winners_and_cubes:
        match = game_report(
            match_id=t.match.pk,
            actor=t.link1,
            game=GameInput(winner=winner, cube=cube),
            meta=META,
        )
    return match


def test_the_opponent_disputes_and_the_director_upholds(
    table: Table, django_capture_on_commit_callbacks
) -> None:
    play(table, (table.p1, 4), (table.p1, 4))  # 8-0, reported by Anna
    match = match_dispute(
        match_id=table.match.pk, actor=table.link2, reason="The second game was a 2.", meta=META
    )
    assert match.status == "disputed"
    with pytest.raises(Conflict) as confirm:
        match_confirm(match_id=match.pk, actor=table.link2, meta=META)
    assert confirm.value.code == "nothing-to-confirm"
    with pytest.raises(NotAllowed):
        match_resolve(match_id=match.pk, actor=table.link1, meta=META)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_resolve(
            match_id=match.pk, actor=table.boss, meta=META, note="Both agreed at the table."
        )
    assert (match.status, match.score1, match.winner_id) == ("complete", 8, match.entry1_id)
    last = match.submissions.order_by("version").last()
    assert (last.kind, last.as_director, last.payload["note"]) == (
        "resolve",
        True,
        "Both agreed at the table.",
    )


def test_the_director_replaces_the_games_and_the_old_ones_stay_voided(table: Table) -> None:
    play(table, (table.p1, 4), (table.p1, 4))
    match_dispute(match_id=table.match.pk, actor=table.link2, reason="wrong", meta=META)
    games = [
        GameInput(winner=table.p1, cube=4),
        GameInput(winner=table.p2, cube=2),
        GameInput(winner=table.p1, cube=2),  # 6-2: Crawford next
        GameInput(winner=table.p1),
    ]
    match = match_resolve(match_id=table.match.pk, actor=table.boss, meta=META, games=games)
    assert (match.score1, match.score2, match.status) == (7, 2, "complete")
    assert Game.objects.filter(match=match, voided=True).count() == 2
    live = list(Game.objects.filter(match=match, voided=False).order_by("number"))
    assert [g.number for g in live] == [1, 2, 3, 4]
    assert live[3].crawford


def test_the_director_can_adopt_a_rejected_whole_report(table: Table) -> None:
    play(table, (table.p2, 1))
    # Bert's whole report contradicts the game Anna reported: the match goes to the director.
    bert = [GameInput(winner=table.p1, cube=8)]
    with pytest.raises(Conflict):
        match_report(match_id=table.match.pk, actor=table.link2, games=bert, score=None, meta=META)
    version = table.match.submissions.get(kind="match").version
    match = match_resolve(
        match_id=table.match.pk, actor=table.boss, meta=META, from_version=version
    )
    assert (match.score1, match.score2, match.status) == (8, 0, "complete")


def test_a_director_cannot_resolve_to_an_invalid_match(table: Table) -> None:
    play(table, (table.p1, 4), (table.p1, 4))
    with pytest.raises(RulesError) as error:
        match_resolve(
            match_id=table.match.pk,
            actor=table.boss,
            meta=META,
            games=[GameInput(winner=table.p1, cube=3)],
        )
    assert error.value.code == "bad-cube-value"
    assert table.refresh().status == "reported"
    assert Game.objects.filter(match=table.match, voided=True).count() == 0


def test_a_dismissed_mid_match_dispute_lets_play_go_on(table: Table) -> None:
    play(table, (table.p1, 1))
    match_dispute(match_id=table.match.pk, actor=table.link2, reason="not so", meta=META)
    match = match_resolve(match_id=table.match.pk, actor=table.boss, meta=META)
    assert match.status == "playing"
    assert play(table, (table.p2, 1)).score2 == 1


def test_directors_do_not_dispute_and_complete_matches_cannot_be_disputed(table: Table) -> None:
    with pytest.raises(Conflict):
        match_dispute(match_id=table.match.pk, actor=table.link1, reason="x", meta=META)
    with pytest.raises(Invalid) as director:
        match_dispute(match_id=table.match.pk, actor=table.boss, reason="x", meta=META)
    assert director.value.code == "director-resolves"
    play(table, (table.p1, 8))
    match_confirm(match_id=table.match.pk, actor=table.link2, meta=META)
    with pytest.raises(Conflict) as closed:
        match_dispute(match_id=table.match.pk, actor=table.link2, reason="x", meta=META)
    assert closed.value.code == "match-closed"


def test_a_correction_that_changes_an_advanced_winner_goes_through_the_console(
    table: Table,
) -> None:
    play(table, (table.p1, 8))
    match_confirm(match_id=table.match.pk, actor=table.link2, meta=META)
    Match.objects.filter(pk=table.match.pk).update(advanced_at=timezone.now())
    with pytest.raises(Conflict) as moved:
        match_resolve(
            match_id=table.match.pk,
            actor=table.boss,
            meta=META,
            games=[GameInput(winner=table.p2, cube=8)],
        )
    assert moved.value.code == "bracket-moved-on"
    match = table.refresh()
    assert (match.winner_id, match.score1) == (match.entry1_id, 8)
    # The same winner with a corrected score is fine.
    match = match_resolve(
        match_id=table.match.pk,
        actor=table.boss,
        meta=META,
        games=[GameInput(winner=table.p1, cube=4, result="gammon")],
    )
    assert (match.score1, match.status) == (8, "complete")
