"""The console's player pages: the CSV import, a player's details, and every player's
private link."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament.console import forms, selectors
from tournament.console.base import (
    AuthenticatedHttpRequest,
    call_button_service,
    call_service,
)
from tournament.console.qr import qr_svg
from tournament.selectors import user_may_change_player_identity
from tournament.services.console_extras import (
    players_csv_preview,
)
from tournament.services.imports import players_import_csv
from tournament.services.merge import players_merge
from tournament.services.player_links import (
    link_email_limits,
    player_link_email,
    player_link_regenerate,
    player_links_email,
    player_links_ensure,
)
from tournament.services.players import (
    PlayerChange,
    identity_not_yours_text,
    namesake_text,
    player_account_link,
    player_namesakes,
    player_update_in_tournament,
)


@login_required
@require_http_methods(["GET", "POST"])
def players_import(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Import players from CSV: first a preview with every line's errors, then the import.

    The import is all or nothing, so the button appears once the preview is clean;
    the CSV stays in the text box to be fixed and previewed again.
    """
    tournament = selectors.tournament_for(request.user, slug)
    open_events = selectors.registering_events(tournament)
    form = forms.PlayersCsvForm(request.POST or None, request.FILES or None, events=open_events)
    context: dict[str, Any] = {"tournament": tournament, "form": form}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if request.POST.get("confirm"):
            result = call_service(
                form,
                players_import_csv,
                data=data["csv_text"],
                event=data["event"],
                by=request.user,
            )
            if result is not None and not result.errors:
                messages.success(
                    request,
                    (
                        _(
                            "{new} new player(s), {known} already known; {entered} entered in {event}."
                        )
                        if data["event"]
                        else _("{new} new player(s), {known} already known.")
                    ).format(
                        new=len(result.created),
                        known=len(result.existing),
                        entered=result.entered,
                        event=data["event"].name if data["event"] else "",
                    ),
                )
                if result.namesakes:
                    messages.warning(
                        request,
                        _("Check for duplicates: {list}.").format(
                            list="; ".join(
                                _("{name} (line {line}) has the name of {others}").format(
                                    name=n.player.name,
                                    line=n.row,
                                    others=", ".join(namesake_text(p) for p in n.existing),
                                )
                                for n in result.namesakes
                            )
                        ),
                    )
                if data["event"] is not None:
                    return redirect("console:event", tournament.slug, data["event"].slug)
                return redirect("console:tournament", tournament.slug)
            if result is not None:
                form.add_error("text", _("Some lines are wrong: nothing was imported."))
        context["preview"] = players_csv_preview(data=data["csv_text"], by=request.user)
        context["event"] = data["event"]
        context["csv_text"] = data["csv_text"]
        if not form.errors:  # an uploaded file's text moves into the box, to fix and resend
            context["form"] = forms.PlayersCsvForm(
                initial={"text": data["csv_text"], "event": data["event"]}, events=open_events
            )
    return render(request, "console/import.html", context, status=400 if form.errors else 200)


def link_address(request: HttpRequest, key: str) -> str:
    """The absolute address of a private link, as this site is reached."""
    return request.build_absolute_uri(reverse("matches:entry", args=[key]))


@login_required
@require_GET
def player_links(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Every player's private link with its QR code: to print (one card each), email,
    or replace when one has leaked."""
    tournament = selectors.tournament_for(request.user, slug)
    player_links_ensure(tournament=tournament)
    cards = []
    for link in selectors.player_links(tournament):
        url = link_address(request, link.key)
        cards.append(
            {
                "link": link,
                "url": url,
                "qr": qr_svg(url, title=f"{link.player.name}: {url}"),
                "limits": link_email_limits(link),
            }
        )
    return render(
        request,
        "console/player_links.html",
        {"tournament": tournament, "cards": cards, "here": "links"},
    )


@login_required
@require_POST
def player_links_email_view(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Queue every player's link by email; say how many went and who has no address."""
    tournament = selectors.tournament_for(request.user, slug)
    done = player_links_email(tournament=tournament, by=request.user)
    parts = [
        ngettext("{n} link email queued.", "{n} link emails queued.", done.queued).format(
            n=done.queued
        )
    ]
    if done.no_email:
        parts.append(
            ngettext(
                "{n} player has no email address: print their card.",
                "{n} players have no email address: print their cards.",
                done.no_email,
            ).format(n=done.no_email)
        )
    if done.opted_out:
        parts.append(
            ngettext(
                "{n} turned email notices off.", "{n} turned email notices off.", done.opted_out
            ).format(n=done.opted_out)
        )
    text = " ".join(parts)
    messages.success(request, text)
    return redirect("console:player-links", tournament.slug)


@login_required
@require_POST
def player_link_email_view(
    request: AuthenticatedHttpRequest, slug: str, player_id: int
) -> HttpResponse:
    """Email one player their link now (again, or the new one after "New link")."""
    tournament = selectors.tournament_for(request.user, slug)
    link = selectors.player_link_of(tournament, player_id)
    sent = player_link_email(link=link, by=request.user)
    name = link.player.name
    if sent == "queued":
        messages.success(
            request,
            _("{name}'s link is on its way to {link_contact_email}.").format(
                name=name, link_contact_email=link.contact_email
            ),
        )
    elif sent == "opted-out":
        messages.error(
            request, _("{name} turned email notices off: print their card.").format(name=name)
        )
    elif sent == "wait":
        limits = link_email_limits(link)
        when = timezone.localtime(limits.next_at) if limits.next_at else None
        at = date_format(when, "D H:i") if when else _("later")
        messages.error(
            request,
            _(
                "{name}'s link was emailed recently: the next mail can go {at}. {limits_sentence}"
            ).format(name=name, at=at, limits_sentence=limits.sentence()),
        )
    else:
        messages.error(
            request,
            _("{name} has no email address: add one (Edit) or print their card.").format(name=name),
        )
    return redirect(f"{reverse('console:player-links', args=[tournament.slug])}#player-{player_id}")


@login_required
@require_http_methods(["GET", "POST"])
def player_link_regenerate_view(
    request: AuthenticatedHttpRequest, slug: str, player_id: int
) -> HttpResponse:
    """Replace a leaked link (GET asks to confirm): the old address then answers 404."""
    tournament = selectors.tournament_for(request.user, slug)
    link = selectors.player_link_of(tournament, player_id)
    if request.method == "POST":
        player_link_regenerate(link=link, by=request.user)
        messages.success(
            request,
            _(
                "{link_player_name} has a new link; the old one no longer "
                "works. Give them the new one (print their card or email it)."
            ).format(link_player_name=link.player.name),
        )
        return redirect(
            f"{reverse('console:player-links', args=[tournament.slug])}#player-{player_id}"
        )
    return render(
        request,
        "console/player_link_regenerate.html",
        {"tournament": tournament, "link": link, "here": "links"},
    )


@login_required
@require_http_methods(["GET", "POST"])
def player_edit(request: AuthenticatedHttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Correct a player's name, email, club or country (GET shows the form), then go back
    to the page the director came from: an event's entries (``?event=<slug>``), or the
    player links. Another tournament's player answers 404."""
    tournament = selectors.tournament_for(request.user, slug)
    player = selectors.player_of(tournament, player_id)
    event = None
    if event_slug := request.GET.get("event", ""):
        event = selectors.event_of(tournament, event_slug)
        entry = selectors.player_entry_in(event, player.pk)
        back = f"{reverse('console:event', args=[tournament.slug, event.slug])}#entry-{entry.pk}"
    else:
        back = f"{reverse('console:player-links', args=[tournament.slug])}#player-{player.pk}"
    contact = selectors.player_contact(tournament, player)
    locked = (
        ""
        if user_may_change_player_identity(request.user, player)
        else identity_not_yours_text(player)
    )
    form = forms.PlayerEditForm(
        request.POST if request.method == "POST" else None,
        player=player,
        email=contact,
        identity_locked=locked,
    )
    if request.method == "POST" and form.is_valid():
        data, old_name = form.cleaned_data, player.name
        done = call_service(
            form,
            player_update_in_tournament,
            tournament=tournament,
            player=player,
            by=request.user,
            name=data["name"],
            email=data["email"],
            club=data["club"],
            country=data["country"],
            confirm_new=data["confirm_new"],
        )
        if done is not None:
            messages.success(request, change_message(done, old_name=old_name))
            return redirect(back)
    return render(
        request,
        "console/player_edit.html",
        {
            "tournament": tournament,
            "event": event,
            "player": player,
            "form": form,
            "back": back,
            "here": "player",
            "identity_locked": locked,
            "merges": player.merged_in.select_related("by")[:5],
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def player_link_account_view(
    request: AuthenticatedHttpRequest, slug: str, player_id: int
) -> HttpResponse:
    """ "This is me": link the player to the director's own account (the own-match rule
    then sees them), when the player's email is the account's (``player_account_link``)."""
    tournament = selectors.tournament_for(request.user, slug)
    player = selectors.player_of(tournament, player_id)
    done = call_button_service(request, player_account_link, player=player, user=request.user)
    if done is not None:
        messages.success(
            request, _("{player_name} is linked to your account.").format(player_name=player.name)
        )
    return redirect("console:player-edit", tournament.slug, player.pk)


def change_message(done: PlayerChange, *, old_name: str) -> str:
    """The success message: what changed (a new name with the old one), and for a new
    email, that the private link can be sent again."""
    name = done.player.name
    if not done.changed:
        return _("Nothing changed for {name}.").format(name=name)
    parts = [
        _("name (was {old_name})").format(old_name=old_name)
        if f == "name"
        else str(CHANGED_FIELDS.get(f, f))
        for f in done.changed
    ]
    listed = (
        parts[0]
        if len(parts) == 1
        else _("{items} and {last}").format(items=", ".join(parts[:-1]), last=parts[-1])
    )
    text = _("{name}: {fields} changed.").format(name=name, fields=listed)
    if "email" in done.changed or "contact" in done.changed:
        text += " " + _("Their private link can be emailed again from Player links.")
    if "contact" in done.changed:
        text += " " + _(
            "They also play in tournaments you do not direct: the new address is this "
            "tournament's contact for them; their own email (the other tournaments') is unchanged."
        )
    return text


#: The player's fields a change names (``PlayerChange.changed``).
CHANGED_FIELDS = {
    "email": gettext_lazy("email"),
    "contact": gettext_lazy("contact email"),
    "club": gettext_lazy("club"),
    "country": gettext_lazy("country"),
    "rating": gettext_lazy("rating"),
    "experience": gettext_lazy("experience"),
}


@login_required
@require_http_methods(["GET", "POST"])
def player_merge(request: AuthenticatedHttpRequest, slug: str, player_id: int) -> HttpResponse:
    """ "These two are one person": choose the other record (``?other=``), see what
    moves, confirm; the other record becomes part of this one (``players_merge``)."""
    tournament = selectors.tournament_for(request.user, slug)
    player = selectors.player_of(tournament, player_id)
    data = request.POST if request.method == "POST" else request.GET
    raw = (data.get("other") or "").strip()
    candidates = [p for p in selectors.tournament_players(tournament) if p.pk != player.pk]
    outside = [
        p
        for p in player_namesakes(player.name, exclude=player.pk, by=request.user)
        if p not in candidates
    ]
    other = next((p for p in (*candidates, *outside) if str(p.pk) == raw), None)
    keep = player
    if other is not None and (other in outside or data.get("keep") == "other"):
        keep, other = other, player  # the record outside the tournament stays
    context: dict[str, Any] = {
        "tournament": tournament,
        "player": player,
        "candidates": candidates + outside,
        "other": other,
        "keep": keep,
        "swap": keep.pk != player.pk,
        "here": "player",
    }
    if other is not None:
        context["rows"] = [
            (
                p,
                list(selectors.player_entries_in(tournament, p)),
                selectors.player_contact(tournament, p),
            )
            for p in (keep, other)
        ]
    if request.method == "POST" and other is not None and request.POST.get("confirm"):
        done = call_button_service(
            request,
            players_merge,
            tournament=tournament,
            keep=keep,
            other=other,
            by=request.user,
        )
        if done is not None:
            messages.success(
                request,
                ngettext(
                    "{removed} (record {removed_id}) is now part of {kept} (record {kept_id}): "
                    "{moved} entry moved, ratings recomputed.",
                    "{removed} (record {removed_id}) is now part of {kept} (record {kept_id}): "
                    "{moved} entries moved, ratings recomputed.",
                    len(done.moved["entries"]),
                ).format(
                    removed=done.removed_name,
                    removed_id=done.removed_id,
                    kept=keep.name,
                    kept_id=keep.pk,
                    moved=len(done.moved["entries"]),
                ),
            )
            return redirect("console:player-edit", tournament.slug, keep.pk)
        return render(request, "console/player_merge.html", context, status=400)
    return render(request, "console/player_merge.html", context)
