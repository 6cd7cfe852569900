"""A director's match slips: the public slips with each player's private link and QR code.

Served at the public slips address (``public-event-slips``) to the tournament's directors
only; never cached, never shown to anyone else.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone

from tournament.console.players import link_address
from tournament.console.qr import qr_svg
from tournament.models import Event
from tournament.services.player_links import player_links_ensure

#: Game rows on a director's slip, which also carries the players' link stubs (rows
#: drawn a little lower to make room): a 5-point match has room for all of its games
#: (2 x length - 1 = 9 games at most; 10 rows, as many as half a Letter page holds).
SLIP_ROWS_WITH_LINKS = 10


def director_slips(
    request: HttpRequest,
    event: Event,
    slips: Sequence[tuple[Any, range]],
    *,
    paper: str,
    paper_name: str,
) -> HttpResponse:
    """The slips of ``event`` (each match, both players known, with its game rows) with the
    players' links."""
    player_links_ensure(tournament=event.tournament)
    keys = dict(event.tournament.player_links.values_list("player_id", "key"))
    links = {}
    for match, _ in slips:
        for entry in (match.entry1, match.entry2):
            url = link_address(request, keys[entry.player_id])
            links[entry.pk] = {"url": url, "qr": qr_svg(url, title=entry.player.name, scale=2)}
    # The link stubs take the room of a few game rows (a longer match goes on the back).
    rows = [(match, range(1, min(len(r), SLIP_ROWS_WITH_LINKS) + 1)) for match, r in slips]
    for match, _ in rows:
        match.link1, match.link2 = links[match.entry1_id], links[match.entry2_id]
    context = {
        "slips": rows,
        "event": event,
        "t": event.tournament,
        "paper": paper,
        "paper_name": paper_name,
        "with_links": True,
    }
    try:
        zone = zoneinfo.ZoneInfo(event.tournament.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    with timezone.override(zone):
        response = HttpResponse(render_to_string("public/slips.html", context))
    response["Cache-Control"] = "private, no-store"
    return response
