"""Namesakes told apart when what is named is not a stored entry: a bracket's stand-in
for a player to come, or a player's row (the players list). They have no "No.", and
naming them must never reach for a manager they do not have (it answered 500)."""

from __future__ import annotations

from types import SimpleNamespace

from matches.names import entry_number, names_told_apart


def _stand_in(pk: int, player_pk: int) -> SimpleNamespace:
    player = SimpleNamespace(pk=player_pk, name="Anna Berg", club="Odense", country="DK")
    return SimpleNamespace(pk=pk, player=player, player_id=player_pk, event_id=7, seed=None)


def test_stand_ins_alike_in_everything_are_told_apart_by_record() -> None:
    a, b = _stand_in(1, 10), _stand_in(2, 11)
    assert entry_number(a) is None
    assert names_told_apart([a, b]) == {1: "Anna Berg (record 10)", 2: "Anna Berg (record 11)"}
