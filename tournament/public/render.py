"""Bracket columns as HTML, written in Python: a 1,024-player bracket is 1,023 boxes and the
template engine spent most of an uncached page render on them.

The markup is the one the stylesheet expects (``static/css/public.css``): a
``.bracket`` of ``.round`` sections, each an ordered list of ``.slot`` items holding
one ``.match`` box. Every piece of text goes through ``escape``.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from matches.models import Match
from tournament.public.boxes import Box, Column, Line

_MARK = 987654321


def _url_pattern(name: str) -> str:
    return reverse(name, args=[_MARK]).replace(str(_MARK), "{}")


def _line(line: Line, player_url: str) -> str:
    state = " won" if line.won else " lost" if line.lost else ""
    seed = "" if line.seed is None else str(line.seed)
    if line.name:
        name = f'<a href="{player_url.format(line.player_id)}">{escape(line.name)}</a>'
        if line.won:
            winner = escape(_("(winner)"))
            name += f'<span class="sr-only"> {winner}</span>'
    else:
        name = f'<span class="ph">{escape(line.placeholder or "—")}</span>'
    score = "" if line.score is None else str(line.score)
    return (
        f'<p class="line{state}"><span class="seed">{seed}</span>'
        f'<span class="name">{name}</span><span class="score">{score}</span></p>'
    )


def _box(box: Box, column: Column, player_url: str, match_url: str) -> str:
    if box.is_void:
        no_match = escape(_("no match: byes on both lines"))
        return (
            '<div class="match void"><p class="line"><span class="seed"></span>'
            f'<span class="ph">{no_match}</span></p></div>'
        )
    label = _("Match {number} of {round}").format(number=box.number, round=column.name)
    number = _("M{number}").format(number=box.number)
    foot = [
        f'<a href="{match_url.format(box.match_id)}" class="m-no" '
        f'aria-label="{escape(label)}">{escape(number)}</a>'
    ]
    if box.length != column.length:
        foot.append(" · " + escape(_("{length} pt").format(length=box.length)))
    if box.table is not None:
        table = _("Table {table}").format(table=box.table)
        foot.append(f' <span class="tbl">{escape(table)}</span>')
    if box.live:
        badge = _("live") if box.status == "playing" else Match.STATUS_IN_TEXT[box.status]
        foot.append(f' <span class="badge live">{escape(badge)}</span>')
    elif box.decision:
        decision = Match.DECISION_IN_TEXT.get(box.decision, box.decision)
        foot.append(f' <span class="badge">{escape(decision)}</span>')
    for line in box.lines:
        if line.went:
            foot.append(
                f' <a class="went" href="{escape(line.went.href)}">&rarr; {escape(line.went.label)}</a>'
            )
    live = " is-live" if box.live else ""
    return (
        f'<article class="match st-{escape(box.status)}{live}" id="m{box.match_id}">'
        f"{_line(box.top, player_url)}{_line(box.bottom, player_url)}"
        f'<p class="foot">{"".join(foot)}</p></article>'
    )


def columns_html(columns: Iterable[Column]) -> SafeString:
    """The ``.bracket`` element for ``columns`` (a section, or a printed sheet's cut)."""
    player_url = _url_pattern("public-player")
    match_url = _url_pattern("public-match")
    parts = ['<div class="bracket">']
    for column in columns:
        fed = " fed" if column.fed else ""
        name = escape(column.name)
        label = _("{round}, {length}-point matches").format(round=column.name, length=column.length)
        title = _("Round {number}").format(number=column.number)
        short = _("R{number}").format(number=column.number)
        length = _("{length} pt").format(length=column.length)
        parts.append(
            f'<section class="round joins-{column.joins}{fed}" aria-label="{escape(label)}">'
            f'<h4 class="round-head"><span><abbr title="{escape(title)}">{escape(short)}</abbr> '
            f'{name}</span> <span>{escape(length)}</span></h4><ol class="slots">'
        )
        parts.extend(
            f'<li class="slot">{_box(box, column, player_url, match_url)}</li>'
            for box in column.boxes
        )
        parts.append("</ol></section>")
    parts.append("</div>")
    return mark_safe("".join(parts))  # every value above is escaped or a number
