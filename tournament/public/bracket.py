"""Lay an elimination event's matches out as a bracket: sections, round columns, match boxes.

No queries here: the selectors load the rounds and matches (players joined) and
this module arranges them. A column's matches share its height equally, so a
match sits level with the two it follows when the next round halves, and level
with the one it follows when the next round has as many matches (a Consolation
round where survivors meet newly dropped Main losers). The template draws the
connectors from ``Column.joins``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.models import Match
from matches.names import names_told_apart
from tournament.models import Event, Round
from tournament.public.boxes import Box, Column, Destination, Joins, Line
from tournament.public.render import columns_html

SECTION_TITLES = {
    Round.Bracket.MAIN: gettext_lazy("Winners bracket"),
    Round.Bracket.LOSERS: gettext_lazy("Losers bracket"),
    Round.Bracket.FINAL: gettext_lazy("Grand final"),
}
SECTION_ORDER = [Round.Bracket.MAIN, Round.Bracket.LOSERS, Round.Bracket.FINAL]


@dataclass(frozen=True, slots=True)
class EntryRow:
    """The little of an entry a bracket shows."""

    pk: int
    seed: int | None
    player_id: int
    name: str
    club: str = ""
    country: str = ""

    @property
    def player(self) -> PlayerFacts:
        """What tells the player apart from a namesake (``matches.names``)."""
        return PlayerFacts(self.player_id, self.name, self.club, self.country)


class PlayerFacts(NamedTuple):
    pk: int
    name: str
    club: str
    country: str


@dataclass(frozen=True, slots=True)
class MatchRow:
    """The little of a match a bracket shows: plain values, no model instances (a 1,024-player
    event has 1,023 matches and building their models was most of an uncached page)."""

    pk: int
    event_id: int
    round_id: int
    slot: int
    is_bye: bool
    status: str
    winner_id: int | None
    decision: str
    length: int
    score1: int
    score2: int
    entry1: EntryRow | None
    entry2: EntryRow | None
    table: int | None = None

    #: The ``values_list`` fields, in order, that ``from_values`` reads.
    FIELDS: ClassVar[tuple[str, ...]] = (
        "pk", "event_id", "round_id", "slot", "is_bye", "status", "winner_id", "decision",
        "length", "score1", "score2",
        "entry1_id", "entry1__seed", "entry1__player_id", "entry1__player__name",
        "entry1__player__club", "entry1__player__country",
        "entry2_id", "entry2__seed", "entry2__player_id", "entry2__player__name",
        "entry2__player__club", "entry2__player__country",
        "table",
    )  # fmt: skip

    @classmethod
    def from_values(cls, row: Sequence[Any]) -> MatchRow:
        head = row[:11]
        first = EntryRow(*row[11:17]) if row[11] is not None else None
        second = EntryRow(*row[17:23]) if row[17] is not None else None
        return cls(*[*head, first, second, row[23]])

    @property
    def entry1_id(self) -> int | None:
        return self.entry1.pk if self.entry1 else None

    @property
    def entry2_id(self) -> int | None:
        return self.entry2.pk if self.entry2 else None


@dataclass(frozen=True, slots=True)
class Section:
    """A bracket in the drawing sense: Main, or a double elimination's winners/losers/final."""

    key: str
    title: str
    columns: tuple[Column, ...]

    @property
    def html(self) -> str:
        """The drawing (see ``render``)."""
        return columns_html(self.columns)

    @property
    def rows(self) -> int:
        """Match boxes in the tallest column (sets the drawing's height)."""
        return max((len(c.boxes) for c in self.columns), default=0)


@dataclass(frozen=True, slots=True)
class Bracket:
    """An event's whole drawing."""

    event: Event
    sections: tuple[Section, ...]
    champion: str = ""
    matches: int = field(default=0)


def round_name(matches_in_round: int, number: int) -> str:
    """The usual name of an elimination round from how many matches it has.

    >>> [round_name(n, 9) for n in (1, 2, 4, 8)]
    ['Final', 'Semi-finals', 'Quarter-finals', 'Round 9']
    """
    names = {1: _("Final"), 2: _("Semi-finals"), 4: _("Quarter-finals")}
    return names.get(matches_in_round) or _("Round {number}").format(number=number)


def _joins(count: int, next_count: int | None) -> Joins:
    if next_count is None:
        return "end"
    if next_count * 2 == count:
        return "halves"
    if next_count == count:
        return "same"
    return "loose"


#: (bracket, round number, slot, position) -> what fills an empty line ("Loser of Main R2 M3").
type Placeholders = Mapping[tuple[str, int, int, int], str]


def _entry_line(
    entry: EntryRow | None,
    match: MatchRow,
    side: int,
    destinations: Mapping[int, Destination],
    placeholder: str = "",
    names: Mapping[int, str] | None = None,
) -> Line:
    if entry is None:
        return Line(placeholder=placeholder or (_("bye") if match.is_bye else ""))
    done = match.status == Match.Status.COMPLETE and match.winner_id is not None
    won = done and match.winner_id == entry.pk
    lost = done and not won
    played = match.status != Match.Status.PENDING and not match.is_bye
    score = (match.score1 if side == 1 else match.score2) if played else None
    if score is not None and match.status == Match.Status.READY and not score:
        score = None
    return Line(
        name=(names or {}).get(entry.pk, entry.name),
        seed=entry.seed,
        player_id=entry.player_id,
        score=score,
        won=won,
        lost=lost,
        went=destinations.get(entry.player_id) if lost else None,
    )


def match_box(
    match: MatchRow,
    destinations: Mapping[int, Destination] | None = None,
    placeholders: tuple[str, str] = ("", ""),
    names: Mapping[int, str] | None = None,
) -> Box:
    """One match box; ``destinations`` maps a player to where they went after losing,
    ``names`` an entry to its name told apart from its namesakes'."""
    where = destinations or {}
    if (
        match.is_bye
        and match.entry1_id is None
        and match.entry2_id is None
        and match.status == Match.Status.COMPLETE
    ):  # a void; a bye still waiting for its player shows who will come and "bye"
        return _void_box(match.slot + 1, match.length)
    return Box(
        match_id=match.pk,
        number=match.slot + 1,
        length=match.length,
        status=match.status,
        status_label=str(Match.Status(match.status).label),
        is_bye=match.is_bye,
        decision=match.decision
        if match.decision not in ("", Match.Decision.PLAY, Match.Decision.BYE)
        else "",
        top=_entry_line(match.entry1, match, 1, where, placeholders[0], names),
        bottom=_entry_line(match.entry2, match, 2, where, placeholders[1], names),
        table=match.table if match.status != Match.Status.COMPLETE else None,
    )


def _void_box(number: int, length: int) -> Box:
    return Box(None, number, length, "void", _("Not played"), False, "", Line(), Line())


def build(
    event: Event,
    rounds: Iterable[Round],
    matches: Iterable[MatchRow],
    destinations: Mapping[int, Destination] | None = None,
    placeholders: Placeholders | None = None,
) -> Bracket:
    """Arrange ``matches`` in ``rounds`` of ``event``.

    ``destinations`` says where a losing player went; ``placeholders`` name who will
    fill an empty line.
    """
    fills = placeholders or {}
    by_round: dict[int, dict[int, MatchRow]] = {}
    total = 0
    for match in matches:
        by_round.setdefault(match.round_id, {})[match.slot] = match
        total += 1
    names = names_told_apart(
        e for slots in by_round.values() for m in slots.values() for e in (m.entry1, m.entry2) if e
    )
    grouped: dict[str, list[Round]] = {}
    for rnd in sorted(rounds, key=lambda r: r.number):
        grouped.setdefault(rnd.bracket, []).append(rnd)
    sections: list[Section] = []
    for key in SECTION_ORDER:
        section_rounds = grouped.get(key, [])
        if not section_rounds:
            continue
        counts = [max(by_round.get(r.pk, {}), default=-1) + 1 for r in section_rounds]
        columns: list[Column] = []
        for index, rnd in enumerate(section_rounds):
            slots = by_round.get(rnd.pk, {})
            boxes = tuple(
                match_box(
                    slots[k],
                    destinations,
                    (
                        fills.get((key, rnd.number, k, 0), ""),
                        fills.get((key, rnd.number, k, 1), ""),
                    ),
                    names,
                )
                if k in slots
                else _void_box(k + 1, rnd.match_length)
                for k in range(counts[index])
            )
            following = counts[index + 1] if index + 1 < len(counts) else None
            columns.append(
                Column(
                    number=rnd.number,
                    name=rnd.display_name
                    if rnd.name
                    else _column_name(key, counts[index], rnd.number, following),
                    length=rnd.match_length,
                    status=rnd.status,
                    boxes=boxes,
                    joins=_joins(counts[index], following),
                    fed=index > 0 and columns[-1].joins in ("halves", "same"),
                )
            )
        title = str(SECTION_TITLES[key]) if len(grouped) > 1 else ""
        sections.append(Section(key=key, title=title, columns=tuple(columns)))
    champion = event.champion.player.name if event.champion_id and event.champion else ""
    return Bracket(event=event, sections=tuple(sections), champion=champion, matches=total)


def _column_name(key: str, count: int, number: int, following: int | None) -> str:
    if key == Round.Bracket.FINAL:
        return _("Grand final") if number == 1 else _("Deciding final")
    if key == Round.Bracket.LOSERS:
        if count == 1 and following is None:
            return _("Losers final")
        return _("Losers round {number}").format(number=number)
    if following is not None and following == count:
        return _("Round {number}").format(number=number)
    return round_name(count, number)


@dataclass(frozen=True, slots=True)
class Sheet:
    """A printed page: a run of consecutive rounds, for one block of the first of them."""

    title: str
    columns: tuple[Column, ...]

    @property
    def html(self) -> str:
        """The drawing (see ``render``)."""
        return columns_html(self.columns)


def sheets(section: Section, per_sheet: int = 16, max_columns: int = 5) -> list[Sheet]:
    """Split a section into printable sheets of at most ``per_sheet`` matches per column.

    The first round is cut into blocks of ``per_sheet`` consecutive matches; each
    block's sheet follows its matches round by round while the block still holds
    whole matches, for at most ``max_columns`` rounds. The rounds left over make up
    a smaller bracket, cut the same way.
    """
    result: list[Sheet] = []
    columns = list(section.columns)
    while columns:
        blocks = max(1, -(-len(columns[0].boxes) // per_sheet))
        depth = len(columns) if blocks == 1 else 1
        while depth < len(columns) and _splits(len(columns[depth].boxes), blocks):
            depth += 1
        depth = min(depth, max_columns)
        for block in range(blocks):
            cut = []
            for index, column in enumerate(columns[:depth]):
                n = len(column.boxes)
                boxes = column.boxes[block * n // blocks : (block + 1) * n // blocks]
                joins = column.joins if index < depth - 1 else "end"
                cut.append(_replace_boxes(column, boxes, joins, column.fed and index > 0))
            part = (block, blocks) if blocks > 1 else None
            result.append(Sheet(_sheet_title(section, columns[:depth], part), tuple(cut)))
        columns = columns[depth:]
    return result


def _splits(count: int, blocks: int) -> bool:
    return count >= blocks and count % blocks == 0


def _replace_boxes(column: Column, boxes: Sequence[Box], joins: Joins, fed: bool) -> Column:
    return Column(
        column.number, column.name, column.length, column.status, tuple(boxes), joins, fed
    )


def _sheet_title(section: Section, columns: Sequence[Column], block: tuple[int, int] | None) -> str:
    span = (
        columns[0].name
        if len(columns) == 1
        else _("{first} to {last}").format(first=columns[0].name, last=columns[-1].name)
    )
    head = f"{section.title}: " if section.title else ""
    if block is None:
        return f"{head}{span}"
    return f"{head}{span}, " + _("part {part} of {parts}").format(part=block[0] + 1, parts=block[1])
