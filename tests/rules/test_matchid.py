"""GNU Backgammon Match IDs: values checked against gnubg 1.07 itself."""

import pytest

from matches.rules.errors import ParseError
from matches.rules.matchid import GameState, MatchId

# Each id below was printed by gnubg 1.07 (gnubg.matchid()) after the commands shown.
GNUBG_MATCH_IDS = [
    # new match 7; set score 2 4; set turn 1; set dice 52
    ("cInqACAAIAAE", MatchId(on_roll=1, turn=1, dice=(5, 2), match_length=7, score=(2, 4))),
    # ... set turn 0; set dice 52
    ("MIHqACAAIAAE", MatchId(on_roll=0, turn=0, dice=(5, 2), match_length=7, score=(2, 4))),
    # ... set cube value 4; set cube owner 1
    (
        "EoHqACAAIAAE",
        MatchId(cube_value=4, cube_owner=1, dice=(5, 2), match_length=7, score=(2, 4)),
    ),
    # set jacoby off; new session; set dice 52 (gnubg rolled the opening for player 1)
    ("cIkKAAAAAAAE", MatchId(on_roll=1, turn=1, dice=(5, 2))),
    # set jacoby on; new session (opening roll 43 to player 1)
    ("cAkOAAAAAAAA", MatchId(on_roll=1, turn=1, dice=(4, 3), jacoby=True)),
]


@pytest.mark.parametrize(("text", "match_id"), GNUBG_MATCH_IDS)
def test_match_ids_agree_with_gnubg(text: str, match_id: MatchId) -> None:
    assert match_id.to_id() == text
    assert MatchId.from_id(text) == match_id


def test_manual_example_decodes() -> None:
    # the example in GNU Backgammon's manual (written before the Jacoby bit existed)
    mid = MatchId.from_id("cAlvATAAIAAA")
    assert (mid.match_length, mid.score, mid.dice, mid.on_roll) == (11, (3, 4), (6, 3), 1)
    assert mid.cube_value == 1
    assert mid.cube_owner is None
    assert mid.game_state is GameState.PLAYING


def test_every_field_round_trips() -> None:
    mid = MatchId(
        cube_value=64,
        cube_owner=0,
        on_roll=1,
        crawford=True,
        game_state=GameState.RESIGNED,
        turn=0,
        double_offered=True,
        resign=3,
        dice=(6, 6),
        match_length=25,
        score=(24, 17),
        jacoby=False,
    )
    assert MatchId.from_id(mid.to_id()) == mid


def test_dice_are_stored_larger_first() -> None:
    assert MatchId(dice=(2, 5)).to_id() == MatchId(dice=(5, 2)).to_id()
    assert MatchId.from_id(MatchId(dice=(2, 5)).to_id()).dice == (5, 2)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"cube_value": 3},
        {"cube_value": 0},
        {"cube_owner": 2},
        {"dice": (7, 1)},
        {"dice": (0, 3)},
        {"match_length": 5, "score": (6, 0)},
        {"crawford": True},
        {"resign": 4},
    ],
)
def test_impossible_match_states_are_rejected(kwargs: dict[str, object]) -> None:
    with pytest.raises(ParseError):
        MatchId(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("cAkOAAAAAAA", "12 characters"),
        ("cAkOAAAAAA#A", "not base64"),
        ("cIkPAAAAAAAE", "dice"),  # a die of 7
        ("YAkOAAAAAAAA", "cube owner 2"),
    ],
)
def test_bad_match_ids(text: str, fragment: str) -> None:
    with pytest.raises(ParseError, match=fragment):
        MatchId.from_id(text)
