"""Public downloads, the series leaderboard page and a player's email choice.

An event's results (CSV) and match files (zip), a player's matches (iCalendar) and
a series' leaderboard. A private tournament's downloads are for its directors only;
a series page counts public tournaments only. A player turns emails on or off
through their private report link (``/r/<key>/emails/``), no account needed.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.league import exports
from tournament.models import Event, Series
from tournament.pages.caching import cached_page
from tournament.pages.delivery import Page, page_response
from tournament.selectors import players_visible_to
from tournament.services.notify_prefs import link_notify_set
from tournament.services.series import series_leaderboard


def _visible_event(request: HttpRequest, slug: str, event_slug: str) -> Event:
    event = get_object_or_404(
        Event.objects.select_related("tournament"), tournament__slug=slug, slug=event_slug
    )
    if event.tournament.is_public:
        return event
    user = request.user
    if user.is_authenticated and (
        user.is_staff
        or user.is_superuser
        or user.directed_tournaments.filter(pk=event.tournament_id).exists()
    ):
        return event
    raise Http404(_("No such event"))


def _download(content: str | bytes, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def event_results_csv(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Every match of the event as CSV (times in the tournament's zone)."""
    event = _visible_event(request, slug, event_slug)
    return _download(
        exports.event_results_csv(event),
        "text/csv; charset=utf-8",
        f"{event.tournament.slug}-{event.slug}-results.csv",
    )


@require_GET
def event_match_zip(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Every match file of the event that exists, as a zip of ``.mat`` files."""
    event = _visible_event(request, slug, event_slug)
    return _download(
        exports.zip_files(exports.event_match_files(event)),
        "application/zip",
        f"{event.tournament.slug}-{event.slug}-matches.zip",
    )


@require_GET
def player_calendar(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's scheduled matches (public tournaments) as an iCalendar feed."""
    player = get_object_or_404(players_visible_to(request.user), pk=player_id)
    response = HttpResponse(
        exports.player_calendar(player), content_type="text/calendar; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="player-{player.pk}-matches.ics"'
    return response


@require_GET
def series_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A series' public leaderboard; cached until the next accepted result or rating."""
    series = get_object_or_404(Series, slug=slug)

    def build(version: str) -> Page:
        board = series_leaderboard(series=series, public_only=True)
        return {
            "title": f"{series.name}: leaderboard",
            "content": render_to_string("series/leaderboard.html", {"board": board}),
        }

    page, version = cached_page("series", "site", 0, build, series.pk)
    assert page is not None  # only a live poll ("unless") gets None
    return page_response(request, page, version)


@require_http_methods(["GET", "POST"])
def player_emails(request: HttpRequest, key: str) -> HttpResponse:
    """Through a private link: turn this tournament's email notices to the player on or
    off (no other tournament's). Shows where this tournament writes to them: its contact,
    else the player's own email only as a hint (``a…@example.org``): a link travels on
    printed slips and QR codes, the player's own address is not its holder's to read."""
    from matches.access import link_by_key

    link, _entries = link_by_key(key=key)
    saved = False
    if request.method == "POST":
        choice = request.POST.get("notify")
        if choice not in ("on", "off"):
            return HttpResponse(_("Choose on or off."), status=400, content_type="text/plain")
        link = link_notify_set(link=link, notify=choice == "on")
        saved = True
    page = {
        "title": _("Emails for {name}").format(name=link.player.name),
        "content": render_to_string(
            "deadlines/preferences.html",
            {
                "player": link.player,
                "tournament": link.tournament,
                "contact": link.email or address_hint(link.player.email),
                "notify": link.notify,
                "saved": saved,
            },
            request=request,
        ),
    }
    response = render(request, "public/shell.html", {"page": page, "version": ""})
    response["Cache-Control"] = "private, no-store"
    return response


def address_hint(email: str) -> str:
    """An address as a hint: its first character, then the domain (``a…@example.org``)."""
    local, at, domain = email.partition("@")
    return f"{local[:1]}…@{domain}" if at and local else ""


@require_POST
def player_claim(request: HttpRequest, key: str) -> HttpResponse:
    """Through a private link, while logged in: "this is me", the player linked to the
    account (``player_account_link``: the player's own email must be the account's).
    Back to the link's page with what happened."""
    from django.contrib import messages
    from django.contrib.auth.views import redirect_to_login

    from matches.access import link_by_key, link_check_live
    from matches.errors import AppError
    from tournament.services.players import player_account_link

    link, _entries = link_by_key(key=key)
    back = reverse("matches:entry", args=[link.key])
    if not request.user.is_authenticated:
        return redirect_to_login(back)
    try:
        link_check_live(link)
        player_account_link(player=link.player, user=request.user, link=link)
    except AppError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("{link_player_name} is linked to your account.").format(
                link_player_name=link.player.name
            ),
        )
    return HttpResponseRedirect(back)
