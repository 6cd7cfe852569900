"""The match equity table: transcribed right, consistent, Crawford-aware."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.public.equity import (
    POST_CRAWFORD,
    PRE_CRAWFORD,
    TABLE_LENGTH,
    away_chance,
    chances,
)

GNUBG_MET = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")


@pytest.mark.skipif(not GNUBG_MET.exists(), reason="GNU Backgammon's MET files are not installed")
def test_every_value_matches_the_published_table():
    root = ET.parse(GNUBG_MET).getroot()
    pre = [
        [float(me.text) for me in row.findall("me")]
        for row in root.find("pre-crawford-table").findall("row")
    ]
    post = [float(me.text) for me in root.find("post-crawford-table").find("row").findall("me")]
    assert [list(row) for row in PRE_CRAWFORD] == pre
    assert list(POST_CRAWFORD) == post


def test_table_shape():
    assert len(PRE_CRAWFORD) == TABLE_LENGTH
    assert all(len(row) == TABLE_LENGTH for row in PRE_CRAWFORD)
    assert len(POST_CRAWFORD) == TABLE_LENGTH


def test_table_is_complementary():
    for i in range(TABLE_LENGTH):
        assert PRE_CRAWFORD[i][i] == pytest.approx(0.5)
        for j in range(TABLE_LENGTH):
            assert PRE_CRAWFORD[i][j] + PRE_CRAWFORD[j][i] == pytest.approx(1.0, abs=2e-5)


def test_needing_more_points_never_helps():
    for i in range(TABLE_LENGTH):
        for j in range(TABLE_LENGTH - 1):
            assert PRE_CRAWFORD[i][j] <= PRE_CRAWFORD[i][j + 1]  # opponent further away
            assert PRE_CRAWFORD[j][i] >= PRE_CRAWFORD[j + 1][i]  # I am further away
    assert list(POST_CRAWFORD) == sorted(POST_CRAWFORD, reverse=True)


def test_post_crawford_trailer_does_better_than_in_the_crawford_game():
    # Once the Crawford game is over the trailer may double at once: the free drop
    # and the cube make the leader's position worse than in the Crawford game.
    for away in range(2, TABLE_LENGTH + 1):
        crawford = away_chance(away, 1, phase="crawford")
        post = away_chance(away, 1, phase="post-crawford")
        assert post > crawford


def test_known_values():
    assert chances(length=7, score1=0, score2=0).first == 0.5
    # 2-away/1-away: the Crawford game and after it (free drop: close to even)
    assert chances(length=5, score1=3, score2=4).first == pytest.approx(0.32264)
    assert chances(length=5, score1=3, score2=4, crawford_played=True).first == pytest.approx(
        0.48803
    )
    # no Crawford rule: a 1-away leader faces the cube at once, as post-Crawford
    no_rule = chances(length=5, score1=4, score2=3, crawford=False)
    assert no_rule.phase == "post-crawford"
    assert no_rule.second == pytest.approx(0.48803)
    assert chances(length=3, score1=2, score2=2).phase == "pre-crawford"  # DMP
    assert chances(length=3, score1=2, score2=2).first == 0.5


def test_finished_match():
    done = chances(length=7, score1=3, score2=8)
    assert (done.first, done.second, done.phase) == (0.0, 1.0, "over")
    assert done.percent == (0, 100)


def test_beyond_the_table_keeps_the_difference():
    assert away_chance(31, 30) == away_chance(25, 24)
    assert away_chance(40, 1, phase="crawford") == away_chance(25, 1, phase="crawford")


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="match length"):
        chances(length=0, score1=0, score2=0)
    with pytest.raises(ValueError, match="still need points"):
        away_chance(0, 3)


@given(
    length=st.integers(1, 40),
    score1=st.integers(0, 45),
    score2=st.integers(0, 45),
    crawford=st.booleans(),
    played=st.booleans(),
)
def test_chances_are_probabilities_that_add_up(length, score1, score2, crawford, played):
    c = chances(
        length=length, score1=score1, score2=score2, crawford=crawford, crawford_played=played
    )
    assert 0.0 <= c.first <= 1.0
    assert c.first + c.second == pytest.approx(1.0)
    assert sum(c.percent) == 100
    swapped = chances(
        length=length, score1=score2, score2=score1, crawford=crawford, crawford_played=played
    )
    assert swapped.first == pytest.approx(c.second, abs=2e-5)
