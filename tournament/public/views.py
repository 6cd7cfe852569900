"""Public pages: thin views that read through the selectors and serve pages from the cache.

Live updates poll: each live fragment carries the version it was built for and
asks ``…/live/?v=N`` every few seconds; the answer is ``204 No Content`` (one
cache read, no SQL) until the version moves, then the new fragment. Polling
rather than server-sent events because the site runs on sync gunicorn workers:
an open event stream would hold a whole worker per spectator, while a poll holds
one for about a millisecond.
"""

from __future__ import annotations

import hashlib
import time
import zoneinfo
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.formats import date_format, number_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches import analysis_selectors as analysis
from matches.access import user_directs
from tournament.models import Event, Tournament
from tournament.pages import delivery
from tournament.pages.caching import cached_page, lookup
from tournament.pages.delivery import Page
from tournament.public import bracket as layout
from tournament.public import charts
from tournament.public.selectors import (
    event_pages,
    in_play,
    match_record,
    player_history,
    room_board,
    tournament_pages,
)
from tournament.public.signup import signups_close_at, signups_open, signups_stale
from tournament.selectors.final_places import event_final
from tournament.web.local_time import own_clock

PAPERS = {"a4": "A4", "letter": "Letter"}
#: Game rows on a match slip (a longer match continues on the back).
SLIP_ROWS = 12


def slip_rows(length: int, most: int) -> range:
    """Game rows for a match of ``length`` points: two per point (a match of n points
    lasts at most 2n - 1 games), at most ``most``."""
    return range(1, min(2 * length, most) + 1)


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _render(template: str, context: dict[str, Any], zone: str = "UTC") -> str:
    with timezone.override(_zone(zone)):
        return render_to_string(template, context)


#: What a page answers a visitor who may not see it: what it answers for an object that
#: does not exist (the selectors' words).
NO_TOURNAMENT = gettext_lazy("No such tournament")
NO_EVENT = gettext_lazy("No such event")
NO_MATCH = gettext_lazy("No such match")
NO_PAGE = gettext_lazy("No such page")


def _can_see(request: HttpRequest, page: Page) -> bool:
    """Public pages for all; a private tournament's pages for its directors and staff."""
    if page.get("public", True):
        return True
    user = request.user
    if not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    return user.directed_tournaments.filter(pk=page["tournament_id"]).exists()


def _shell(
    request: HttpRequest, page: Page | None, version: str, missing: str | Promise = NO_PAGE
) -> HttpResponse:
    """The page, or 404 saying ``missing``: what the page's selector says when the object
    does not exist, so that a hidden one answers exactly like a missing one."""
    if page is None or not _can_see(request, page):
        raise Http404(str(missing))
    return delivery.page_response(request, page, version)


def _live(
    request: HttpRequest, page: Page | None, version: str, missing: str | Promise = NO_PAGE
) -> HttpResponse:
    """The live fragment, or 204 when the caller already has this version.

    Who may see the page is checked first: a private tournament's page answers a
    stranger 404 for every ``?v=``, exactly like a page that does not exist (comparing
    the version first told a stranger, trying the small counter, that it existed)."""
    if page is None or not _can_see(request, page):
        raise Http404(str(missing))
    if version and _known(request) == version:
        return delivery.edge_cacheable(request, HttpResponse(status=204))
    return delivery.live_response(request, page)


def _known(request: HttpRequest) -> str:
    """The version a polling fragment already shows."""
    return request.GET.get("v", "")


def _tournament_facts(t: Tournament) -> dict[str, Any]:
    return {"public": t.is_public, "tournament_id": t.pk, "zone": t.time_zone}


# --- list and tournament ---------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """The list of public tournaments."""

    def build(version: str) -> Page:
        tournaments = list(tournament_pages.public_tournaments())
        today = timezone.localdate()
        return {
            "title": _("Tournaments"),
            "content": _render("public/home.html", {"tournaments": tournaments, "today": today}),
        }

    page, version = cached_page("home", "site", 0, build)
    return _shell(request, page, version)


@own_clock
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament: its events, the schedule of rounds and what is being played now."""

    def build(version: str) -> Page:
        t = tournament_pages.tournament_by_slug(slug)
        data = tournament_pages.tournament_page(t)
        pr = _pr_context(t, event__tournament=t)
        return {
            "title": t.name,
            "content": _render(
                "public/tournament.html",
                {"data": data, "t": t, "signup_open": signups_open(data.events), **pr},
                t.time_zone,
            ),
            **signups_close_at(data.events),
            **_tournament_facts(t),
        }

    page, version = cached_page("tournament", "site", 0, build, slug)
    if signups_stale(page):  # a deadline passed since it was built: built again
        page, version = cached_page("tournament", "site", 0, build, slug)
    return _shell(request, page, version, NO_TOURNAMENT)


#: Letters a player search needs before it lists anyone, and the most it reads.
SEARCH_MIN, SEARCH_MAX = 2, 60


@own_clock
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's players (its field, with their events), filtered by name with
    ``?q=``. A page of its own without JavaScript; typing in its search box, or the
    tournament page's (htmx), swaps in the list only."""
    query = " ".join(request.GET.get("q", "").split())[:SEARCH_MAX]

    def build(version: str) -> Page:
        t = tournament_pages.tournament_by_slug(slug)
        searching = len(query) >= SEARCH_MIN
        found = tournament_pages.tournament_field(t, query if searching else "")
        player_url = reverse("public-player", args=[0]).removesuffix("0/")
        for event in {id(e): e for row in found for e in row.events}.values():
            event.public_url = reverse("public-event", args=[t.slug, event.slug])  # type: ignore[attr-defined]
        context = {
            "t": t,
            "q": query,
            "found": found,
            "min": SEARCH_MIN,
            "searching": searching,
            "listing": True,
            "player_url": player_url,
        }
        return {
            "title": _("Players: {name}").format(name=t.name),
            "content": _render("public/players.html", {**context, "live": delivery.LIVE_MARK}),
            "live": _render("public/_player_results.html", context),
            **_tournament_facts(t),
        }

    digest = hashlib.sha256(query.encode()).hexdigest()[:20]
    page, version = cached_page("players", "site", 0, build, slug, digest)
    if request.headers.get("HX-Request") == "true":
        if page is None or not _can_see(request, page):
            raise Http404(NO_TOURNAMENT)
        response = delivery.live_response(request, page)
    else:
        response = _shell(request, page, version, NO_TOURNAMENT)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _scoreboard_page(slug: str) -> tuple[Page | None, str]:
    def build(version: str) -> Page:
        t = tournament_pages.tournament_by_slug(slug)
        context = {
            "t": t,
            "live": in_play.scoreboard(t),
            "version": version,
            "live_url": reverse("public-scoreboard-live", args=[slug]),
        }
        live = _render("public/_scoreboard_live.html", context, t.time_zone)
        return {
            "title": _("Scoreboard: {name}").format(name=t.name),
            "content": _render("public/scoreboard.html", {**context, "live": delivery.LIVE_MARK}),
            "live": live,
            "body_class": "scoreboard-screen",
            **_tournament_facts(t),
        }

    return cached_page("scoreboard", "site", 0, build, slug)


@own_clock
def scoreboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The running matches, big, with each side's match-winning chance: for a screen in the room."""
    page, version = _scoreboard_page(slug)
    return _shell(request, page, version, NO_TOURNAMENT)


@own_clock
def scoreboard_live(request: HttpRequest, slug: str) -> HttpResponse:
    page, version = _scoreboard_page(slug)
    return _live(request, page, version, NO_TOURNAMENT)


# --- room board ------------------------------------------------------------------------------

#: Seconds the room board's page is kept without a version bump: results age off the
#: board ("results of the last minutes") even when nothing else happens.
BOARD_BUCKET = 60


def _board_page(slug: str, event_slug: str) -> tuple[Page | None, str]:
    """The board and its version token: the site's version and the minute, so that a
    poller up to date gets 204 within the minute and the whole board each new minute."""
    bucket = int(time.time() // BOARD_BUCKET)

    def build(version: str) -> Page:
        # the event first: a missing event of a private tournament and of a missing one
        # answer the same
        event = event_pages.event_by_slugs(slug, event_slug) if event_slug else None
        t = tournament_pages.tournament_by_slug(slug)
        live_url = reverse("public-board-live", args=[slug])
        query = f"?event={event_slug}&" if event_slug else "?"
        context = {
            "t": t,
            "event": event,
            "board": room_board.room_board(t, event),
            "version": f"{version}.{bucket}",
            "live_url": f"{live_url}{query}",
        }
        return {
            "title": _("Room board: {name}").format(
                name=f"{event.name + ' · ' if event else ''}{t.name}"
            ),
            "content": _render("public/board.html", {**context, "live": delivery.LIVE_MARK}),
            "live": _render("public/_board_live.html", context, t.time_zone),
            "body_class": "room-board",
            **_tournament_facts(t),
        }

    page, token = cached_page("board", "site", 0, build, slug, event_slug, bucket)
    return page, f"{token}.{bucket}" if token else ""


def _board_event(request: HttpRequest) -> str:
    """The ``?event=`` slug a board is limited to (blank: every event)."""
    wanted = request.GET.get("event", "")
    return wanted if wanted and len(wanted) <= 50 and wanted.replace("-", "").isalnum() else ""


@own_clock
def board(request: HttpRequest, slug: str) -> HttpResponse:
    """The room board for a TV or projector: next up with tables, in play, results, round clock."""
    event_slug = _board_event(request)
    page, version = _board_page(slug, event_slug)
    return _shell(request, page, version, NO_EVENT if event_slug else NO_TOURNAMENT)


@own_clock
def board_live(request: HttpRequest, slug: str) -> HttpResponse:
    event_slug = _board_event(request)
    page, version = _board_page(slug, event_slug)
    return _live(request, page, version, NO_EVENT if event_slug else NO_TOURNAMENT)


# --- event -----------------------------------------------------------------------------------


def _event_ids(slug: str, event_slug: str) -> list[int]:
    """The event's id, then those of the events drawn beside it (cached lookup)."""

    def find() -> list[int]:
        return event_pages.event_and_companion_ids(event_pages.event_by_slugs(slug, event_slug))

    return [int(i) for i in lookup(f"ids:event:{slug}:{event_slug}", find)]


def _event_id(slug: str, event_slug: str) -> int:
    return _event_ids(slug, event_slug)[0]


def _event_page(slug: str, event_slug: str) -> tuple[Page | None, str]:
    event_id, *companions = _event_ids(slug, event_slug)

    def build(version: str) -> Page:
        event = event_pages.event_by_slugs(slug, event_slug)
        data = event_pages.event_page(event)
        t = event.tournament
        context = {
            "data": data,
            "event": event,
            "t": t,
            "final": event_final(event),
            "version": version,
            "signup_open": event.pk in signups_open([event]),
            "live_url": reverse("public-event-live", args=[slug, event_slug]),
            **_pr_context(t, event=event),
        }
        live = _render("public/_event_live.html", context, t.time_zone)
        return {
            "title": f"{event.name}: {t.name}",
            "content": _render(
                "public/event.html", {**context, "live": delivery.LIVE_MARK}, t.time_zone
            ),
            "live": live,
            "body_class": "public wide" if data.bracket else "public",
            **signups_close_at([event]),
            **_tournament_facts(t),
        }

    def fetch() -> tuple[Page | None, str]:
        return cached_page(
            "event", "event", event_id, build, also=[("event", c) for c in companions]
        )

    page, version = fetch()
    if signups_stale(page):  # its sign-up deadline passed since it was built
        page, version = fetch()
    return page, version


@own_clock
def event(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """An event: the bracket (with its Consolation and Last Chance beside a Main) or standings."""
    page, version = _event_page(slug, event_slug)
    return _shell(request, page, version, NO_EVENT)


@own_clock
def event_live(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    page, version = _event_page(slug, event_slug)
    return _live(request, page, version, NO_EVENT)


def _paper(request: HttpRequest) -> str:
    return request.GET.get("paper", "a4") if request.GET.get("paper") in PAPERS else "a4"


def _print_page(
    request: HttpRequest, slug: str, event_slug: str, name: str, make: Any
) -> HttpResponse:
    paper = _paper(request)

    def build(version: str) -> Page:
        event = event_pages.event_by_slugs(slug, event_slug)
        context = {"event": event, "t": event.tournament, "paper": paper, **make(event)}
        context["paper_name"] = PAPERS[paper]
        return {
            "html": _render(f"public/{name}.html", context, event.tournament.time_zone),
            **_tournament_facts(event.tournament),
        }

    event_id, *companions = _event_ids(slug, event_slug)
    page, _unused = cached_page(
        name, "event", event_id, build, paper, also=[("event", c) for c in companions]
    )
    if page is None or not _can_see(request, page):
        raise Http404(NO_EVENT)
    return delivery.standalone_response(request, page)


@own_clock
def event_print(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Bracket sheets to print (``?paper=a4`` or ``letter``), cut to fit a page each."""

    def make(event: Event) -> dict[str, Any]:
        data = event_pages.event_page(event)
        brackets = [b for b in [data.bracket, *data.companions] if b is not None]
        sheets = [
            (b, section, sheet)
            for b in brackets
            for section in b.sections
            for sheet in layout.sheets(section)
        ]
        return {"data": data, "sheets": sheets}

    return _print_page(request, slug, event_slug, "print_bracket", make)


@own_clock
def event_final_sheet(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """A finished event's final sheet to print: places, names, prizes and the pool."""
    return _print_page(
        request, slug, event_slug, "final_sheet", lambda event: {"final": event_final(event)}
    )


@own_clock
def event_slips(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Match slips for the matches waiting to be played, to hand to the players. The
    tournament's directors get each player's private link and QR code on them too (never
    cached, never shown to anyone else)."""

    def make(event: Event) -> dict[str, Any]:
        slips = [(m, slip_rows(m.length, SLIP_ROWS)) for m in event_pages.event_slips(event)]
        return {"slips": slips}

    if request.user.is_authenticated:
        event = event_pages.event_by_slugs(slug, event_slug)
        if user_directs(request.user, event.tournament_id):
            from tournament.console.slips import director_slips

            paper = _paper(request)
            slips = make(event)["slips"]
            return director_slips(request, event, slips, paper=paper, paper_name=PAPERS[paper])
    return _print_page(request, slug, event_slug, "slips", make)


@own_clock
def draw(request: HttpRequest, slug: str, event_slug: str, draw_id: int) -> HttpResponse:
    """A draw's method, random seed and public log, to re-run it."""
    event_id = _event_id(slug, event_slug)

    def build(version: str) -> Page:
        event = event_pages.event_by_slugs(slug, event_slug)
        the_draw = event_pages.draw_of(event, draw_id)
        context = {"event": event, "t": event.tournament, "draw": the_draw}
        return {
            "title": _("Draw of {name}").format(name=event.name),
            "content": _render("public/draw.html", context, event.tournament.time_zone),
            **_tournament_facts(event.tournament),
        }

    page, version = cached_page("draw", "event", event_id, build, draw_id)
    return _shell(request, page, version, _("No such draw"))


# --- match and player ------------------------------------------------------------------------


def _pr_context(t: Tournament, **where: Any) -> dict[str, Any]:
    """A PR table of the matches ``where`` names, as everyone may see it (``_pr_table.html``)."""
    rows = analysis.pr_table(None, **where)
    return {
        "pr_rows": [r.as_dict() for r in rows],
        "pr_hidden": not t.analysis_public,
        "pr_csv": reverse("api-tournament-analysis-csv", args=[t.slug]),
    }


def _match_page(match_id: int) -> tuple[Page | None, str]:
    event_id = int(lookup(f"ids:match:{match_id}", lambda: match_record.match_event_id(match_id)))

    def build(version: str) -> Page:
        data = match_record.match_page(match_id)
        t = data.event.tournament
        context = {
            "data": data,
            "m": data.match,
            "event": data.event,
            "t": t,
            "version": version,
            "live_url": reverse("public-match-live", args=[match_id]),
            "analysis": analysis.analysis_data(
                data.match,
                analysis.analysis_current(match_id),
                visible=analysis.figures_visible(data.match, None),
            ),
        }
        live = _render("public/_match_live.html", context, t.time_zone)
        return {
            "title": f"{_match_title(data)}: {data.event.name}",
            "content": _render(
                "public/match.html", {**context, "live": delivery.LIVE_MARK}, t.time_zone
            ),
            "live": live,
            **_tournament_facts(t),
        }

    return cached_page("match", "event", event_id, build, match_id)


def _match_title(data: match_record.MatchPage) -> str:
    names = [e.player.name if e else "?" for e in (data.match.entry1, data.match.entry2)]
    return " v ".join(names)


@own_clock
def match(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match: score, chances, every game (cube, gammons, doubles, Crawford) and its moves."""
    page, version = _match_page(match_id)
    return _shell(request, page, version, NO_MATCH)


@own_clock
def match_live(request: HttpRequest, match_id: int) -> HttpResponse:
    page, version = _match_page(match_id)
    return _live(request, page, version, NO_MATCH)


def _date(when: Any) -> str:
    """A date in the active language's own format (``DATE_FORMAT``), in local time."""
    return date_format(timezone.localtime(when), "DATE_FORMAT")


@own_clock
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player: rating and its history, events entered, matches played."""

    def build(version: str) -> Page:
        data = player_history.player_page(player_id)
        chart = None
        if data.rating_changes:
            values = [data.rating_changes[0].rating_before] + [
                c.rating_after for c in data.rating_changes
            ]
            labels = [_("start")] + [
                _("{date}: {before} to {after}").format(
                    date=_date(c.created_at),
                    before=f"{c.rating_before:.0f}",
                    after=f"{c.rating_after:.0f}",
                )
                for c in data.rating_changes
            ]
            chart = charts.rating_chart(values, labels)
        history = analysis.player_history(player_id, None)
        pr_chart = None
        if history:
            pr_chart = charts.rating_chart(
                [h["pr"] for h in history],
                [
                    _("{date}, {event}: PR {pr}").format(
                        date=_date(h["analysed_at"]),
                        event=h["event_name"],
                        pr=number_format(h["pr"], 2),
                    )
                    for h in history
                ],
            )
        context = {
            "data": data,
            "chart": chart,
            "pr_history": history,
            "pr_chart": pr_chart,
            "pr_average": round(sum(h["pr"] for h in history) / len(history), 2)
            if history
            else None,
        }
        return {
            "title": data.player.name,
            "content": _render("public/player.html", context),
        }

    page, version = cached_page("player", "site", 0, build, player_id)
    return _shell(request, page, version)
