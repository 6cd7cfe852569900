"""Whole matches reported by their GNU Backgammon files (tests/data/reporting/make_files.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import override_settings

from matches.errors import Invalid
from matches.models import Match
from matches.rules.errors import RulesError
from matches.services.records import record_upload
from tests.factories import PlayerFactory
from tests.matches.conftest import META, Table, make_table

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "data" / "reporting"
EXPECTED = json.loads((DATA / "expected.json").read_text())
MAT = (DATA / "anna_bert_25pt.mat").read_bytes()
SGF = (DATA / "anna_bert_25pt.sgf").read_bytes()
ILLEGAL = (DATA / "anna_bert_25pt_illegal.mat").read_bytes()


@pytest.fixture
def table25(db: None) -> Table:
    """A ready 25-point match between the players the gnubg file names."""
    return make_table(round__event__match_lengths=[25])


def upload(t: Table, data: bytes, name: str = "match.mat", **kw: object) -> Match:
    return record_upload(
        match_id=t.match.pk, actor=t.link1, file_name=name, data=data, meta=META, **kw
    )


@pytest.mark.parametrize(("data", "name"), [(MAT, "anna.mat"), (SGF, "anna.sgf")])
def test_a_gnubg_25_point_match_file_is_accepted_with_gnubgs_score(
    table25: Table, data: bytes, name: str
) -> None:
    expected = EXPECTED["anna_bert_25pt"]
    match = upload(table25, data, name)
    assert [match.score1, match.score2] == expected["final_score"]
    assert match.status == "reported"
    assert match.winner_id == match.entry1_id
    games = list(match.games.order_by("number"))
    assert len(games) == expected["games"]
    assert sum(g.crawford for g in games) <= 1
    assert all(g.moves for g in games)
    assert games[0].moves[0]["kind"] == "roll"
    submission = match.submissions.get()
    assert (submission.kind, submission.status, submission.file_name) == (
        "record",
        "accepted",
        name,
    )
    assert submission.file_text.startswith(data.decode("utf-8")[:40])
    assert submission.payload["file_players"] == expected["players"]
    assert len(submission.payload["games"]) == expected["games"]


def test_a_file_with_one_illegal_move_is_rejected_naming_game_and_move(table25: Table) -> None:
    expected = EXPECTED["anna_bert_25pt_illegal"]
    with pytest.raises(RulesError) as error:
        upload(table25, ILLEGAL)
    assert error.value.code == expected["error"] == "illegal-move"
    assert (error.value.game, error.value.move, error.value.side) == (
        expected["game"],
        expected["move"],
        expected["side"],
    )
    match = table25.refresh()
    assert (match.score1, match.score2, match.status, match.games.count()) == (0, 0, "ready", 0)
    rejected = match.submissions.get()
    assert (rejected.status, rejected.error_code) == ("rejected", "illegal-move")
    assert rejected.error_detail["move"] == expected["move"]
    assert expected["play"] in rejected.file_text


def test_other_names_need_the_reporter_to_say_who_is_who(db: None) -> None:
    t = make_table(
        round__event__match_lengths=[25],
        entry1__player=PlayerFactory(name="Yvonne"),
        entry2__player=PlayerFactory(name="Xavier"),
    )
    with pytest.raises(Invalid) as unmatched:
        upload(t, MAT)
    assert unmatched.value.code == "players-unmatched"
    assert unmatched.value.detail["file_players"] == ["Anna_Kowalska", "Bert_van_Dijk"]
    # Xavier (the match's second player) is the file's first player.
    match = upload(t, MAT, first_is=t.p2)
    assert (match.score1, match.score2) == (16, 26)
    assert match.winner_id == match.entry2_id
    first = match.games.get(number=1)
    assert first.winner_side == 1  # Bert won game 1; Bert is Yvonne's side here
    assert {m["side"] for m in first.moves if m["side"]} == {1, 2}


def test_swap_says_the_file_has_the_players_the_other_way_round(db: None) -> None:
    t = make_table(
        round__event__match_lengths=[25],
        entry1__player=PlayerFactory(name="Bert van Dijk"),
        entry2__player=PlayerFactory(name="Anna Kowalska"),
    )
    match = upload(t, MAT)  # the names match, in the other order
    assert (match.score1, match.score2) == (16, 26)
    other = make_table(
        round__event__match_lengths=[25],
        entry1__player=PlayerFactory(name="P"),
        entry2__player=PlayerFactory(name="Q"),
    )
    assert upload(other, MAT, swap=True).score2 == 26


def test_files_that_do_not_fit_the_match_are_refused(table: Table) -> None:
    with pytest.raises(Invalid) as length:
        upload(table, MAT)
    assert length.value.code == "length-mismatch"
    with pytest.raises(RulesError) as garbage:
        upload(table, b"\x00\xffnot a match file")
    assert garbage.value.code == "parse-error"
    with override_settings(MATCH_FILE_MAX_BYTES=1000), pytest.raises(Invalid) as big:
        upload(table, MAT)
    assert (big.value.code, big.value.status) == ("file-too-large", 413)
    codes = list(table.match.submissions.values_list("error_code", flat=True))
    assert codes == ["length-mismatch", "parse-error", "file-too-large"]


def test_game_one_must_start_at_the_matchs_penalty_points(db: None) -> None:
    """The upload replays from the match's real starting score, not the file's game 1."""
    t = make_table(round__event__match_lengths=[25], start_score1=2, score1=2)
    with pytest.raises(RulesError) as error:
        upload(t, MAT)  # its game 1 says 0-0
    assert (error.value.code, error.value.game, error.value.move) == ("score-mismatch", 1, 0)
    match = t.refresh()
    assert (match.score1, match.score2, match.games.count()) == (2, 0, 0)
    assert match.submissions.get().error_code == "score-mismatch"


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.97])
def test_a_file_cut_off_inside_a_game_is_refused_as_truncated(table25: Table, cut: float) -> None:
    text = MAT.decode("utf-8")
    data = text[: int(len(text) * cut)].encode("utf-8")
    with pytest.raises(RulesError) as error:
        upload(table25, data)
    assert error.value.code == "truncated"
    assert error.value.game is not None
    assert error.value.move is not None
    match = table25.refresh()
    assert (match.score1, match.score2, match.games.count()) == (0, 0, 0)
    rejected = match.submissions.get()
    assert (rejected.status, rejected.error_code) == ("rejected", "truncated")
    assert rejected.error_detail["game"] == error.value.game
