"""Hypothesis properties of positions and plays, against an independent brute force.

The brute force below shares no code with the engine's play generation
(``matches.rules.generation``): it tries every ordering of the dice and every checker for each die, with no pruning and no
deduplication tricks, then applies the maximal-play rule as the rules state it.
"""

from itertools import permutations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.rules import Move, Play, Position, check_play, legal_plays
from matches.rules.errors import IllegalMove

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ZONES = {
    "anywhere": list(range(25)),
    "home": list(range(6)),
    "home and bar": [*range(6), 24, 24],
    "near home": list(range(12)),
    "far": list(range(12, 25)),
}


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Random valid positions; zones make bear-offs, bars and contact all common."""
    boards = [[0] * 25, [0] * 25]
    for side in (0, 1):
        zone = ZONES[draw(st.sampled_from(sorted(ZONES)))]
        spots = draw(st.lists(st.sampled_from(zone), min_size=1, max_size=15))
        for i in spots:
            other = boards[1 - side]
            if i < 24 and other[23 - i]:
                continue  # the opponent holds that point: leave this checker off
            boards[side][i] += 1
    return Position((tuple(boards[0]), tuple(boards[1])))


rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))
sides = st.integers(0, 1)


# -- brute force --------------------------------------------------------------------------
# State: (mover's 25 counts, opponent's 25 counts) as tuples, mover's numbering by index
# 0..23 = points 1..24 and 24 = bar; the opponent's index for mover index t is 23 - t.


def brute_step(state: tuple[tuple[int, ...], tuple[int, ...]], src: int, die: int):
    me, op = list(state[0]), list(state[1])
    if me[src] == 0:
        return None
    if me[24] > 0 and src != 24:
        return None
    dst = src - die
    if dst >= 0:
        if op[23 - dst] > 1:
            return None
        me[src] -= 1
        me[dst] += 1
        if op[23 - dst] == 1:
            op[23 - dst] = 0
            op[24] += 1
        return tuple(me), tuple(op)
    outside = sum(me[6:25])
    if outside:
        return None
    if dst < -1 and sum(me[src + 1 : 6]) > 0:
        return None
    me[src] -= 1
    return tuple(me), tuple(op)


def brute_force(pos: Position, side: int, roll: tuple[int, int]) -> set[Position]:
    start = (pos.boards[side], pos.boards[1 - side])
    dice = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
    endings: list[tuple[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]] = []

    def walk(state, remaining, used):
        endings.append((tuple(used), state))
        if not remaining:
            return
        die = remaining[0]
        for src in range(25):
            after = brute_step(state, src, die)
            if after is not None:
                walk(after, remaining[1:], [*used, die])

    for order in set(permutations(dice)):
        walk(start, list(order), [])
    most = max(len(used) for used, _ in endings)
    chosen = [(used, state) for used, state in endings if len(used) == most]
    if most == 1 and roll[0] != roll[1]:
        larger = [(used, state) for used, state in chosen if used[0] == max(roll)]
        chosen = larger or chosen
    result = set()
    for _, (me, op) in chosen:
        result.add(Position((me, op) if side == 0 else (op, me)))
    return result


def single_steps(play: Play) -> int:
    return len(play.moves)


# -- properties ---------------------------------------------------------------------------


@SETTINGS
@given(positions(), sides, rolls)
def test_legal_plays_match_the_brute_force(pos: Position, side: int, roll) -> None:
    plays = legal_plays(pos, side, roll)
    results = [pos.apply(side, play) for play in plays]
    assert len(set(results)) == len(results), "one play per resulting position"
    assert set(results) == brute_force(pos, side, roll)


@SETTINGS
@given(positions(), sides, rolls)
def test_every_legal_play_uses_the_most_dice_possible(pos: Position, side: int, roll) -> None:
    plays = legal_plays(pos, side, roll)
    dice = 4 if roll[0] == roll[1] else 2
    # the brute force's longest sequence of single-die steps
    start = (pos.boards[side], pos.boards[1 - side])

    def longest(state, remaining) -> int:
        best = 0
        for i, die in enumerate(remaining):
            for src in range(25):
                after = brute_step(state, src, die)
                if after is not None:
                    best = max(best, 1 + longest(after, remaining[:i] + remaining[i + 1 :]))
                    if best == len(remaining):
                        return best
        return best

    most = longest(start, [roll[0]] * dice if dice == 4 else list(roll))
    assert {single_steps(play) for play in plays} == {most}


@SETTINGS
@given(positions(), sides, rolls)
def test_checkers_are_conserved_and_positions_stay_valid(pos: Position, side: int, roll) -> None:
    for play in legal_plays(pos, side, roll):
        after = pos.apply(side, play)
        Position(after.boards)  # validates: no shared points, at most 15 a side
        borne_off = sum(1 for move in play.moves if move.dst == 0)
        assert after.off(side) == pos.off(side) + borne_off
        assert after.off(1 - side) == pos.off(1 - side)
        hits = after.bar(1 - side) - pos.bar(1 - side)
        assert hits == sum(1 for move in play.moves if move.hit) - _repeat_marks(play)
        for s in (0, 1):
            assert sum(after.boards[s]) + after.off(s) == 15


def _repeat_marks(play: Play) -> int:
    """Moves marked as hits that found the blot already gone (a second checker landing)."""
    seen: set[int] = set()
    repeats = 0
    for move in play.moves:
        if move.hit:
            if move.dst in seen:
                repeats += 1
            seen.add(move.dst)
    return repeats


@SETTINGS
@given(positions(), sides, rolls)
def test_check_play_accepts_every_legal_play(pos: Position, side: int, roll) -> None:
    for play in legal_plays(pos, side, roll):
        expected = pos.apply(side, play)
        assert check_play(pos, side, roll, play) == expected
        assert check_play(pos, side, roll, str(play)) == expected
        reordered = Play(tuple(reversed(play.moves)))
        assert check_play(pos, side, roll, reordered) == expected


@SETTINGS
@given(positions(), sides, rolls, st.data())
def test_check_play_accepts_only_legal_results(pos: Position, side: int, roll, data) -> None:
    """Random written plays: whatever check_play accepts is a legal result."""
    legal = brute_force(pos, side, roll)
    dice = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
    count = data.draw(st.integers(0, len(dice)))
    occupied = [i + 1 for i, n in enumerate(pos.boards[side]) if n] or [25]
    moves = []
    for die in dice[:count]:
        src = data.draw(st.sampled_from(occupied))
        moves.append(Move(src, max(src - die, 0)))
    play = Play(tuple(moves))
    try:
        after = check_play(pos, side, roll, play)
    except IllegalMove:
        return
    assert after in legal


@SETTINGS
@given(positions(), sides)
def test_position_id_round_trip(pos: Position, side: int) -> None:
    pid = pos.position_id(side)
    assert len(pid) == 14
    assert Position.from_position_id(pid, side) == pos


moves = st.builds(
    lambda src, length, hit: Move(src, max(src - length, 0), hit and src - length > 0),
    st.integers(1, 25),
    st.integers(1, 12),
    st.booleans(),
)


@SETTINGS
@given(st.lists(moves, max_size=4))
def test_format_then_parse_is_stable(move_list: list[Move]) -> None:
    text = str(Play(tuple(move_list)))
    again = Play.parse(text)
    assert str(again) == text
    assert Play.parse(str(again)) == again


@SETTINGS
@given(positions(), sides, rolls)
def test_written_legal_plays_read_back_to_the_same_play(pos: Position, side: int, roll) -> None:
    for play in legal_plays(pos, side, roll):
        text = str(play)
        assert str(Play.parse(text)) == text
        assert check_play(pos, side, roll, Play.parse(text)) == pos.apply(side, play)
