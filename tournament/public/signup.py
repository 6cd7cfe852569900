"""Players' own sign-up (``/t/<slug>/<event>/signup/``) and their entries on their link
(``/r/<key>/entries/``: status, place on the waiting list, withdraw before the draw).

The sign-up form is a public, unauthenticated POST: CSRF as everywhere, a limit per
client address (``SIGNUP_RATE``, counted like the login throttle counts addresses), a
honeypot field that people never see, and every refusal shown at its field.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from matches.api.report_throttle import link_rate_limited
from matches.errors import Invalid
from matches.services.access import link_by_key
from tournament.models import Entry, Event, PlayerLink
from tournament.services.entries import entry_withdraw
from tournament.services.signup import (
    SIGNED,
    entry_signup,
    signup_open_problem,
)
from tournament.services.waiting_list import waiting_position
from tournament.web.signup_rate import signup_wait

#: The honeypot: a field hidden from people (CSS and ``aria-hidden``); bots fill it.
HONEYPOT = "website"


class SignupForm(forms.Form):
    name = forms.CharField(label="Your name", max_length=120)
    email = forms.EmailField(
        label="Email", max_length=254, help_text="Your private link is sent here."
    )
    club = forms.CharField(label="Club", max_length=120, required=False)
    country = forms.CharField(
        label="Country",
        max_length=2,
        required=False,
        help_text="Two-letter code, e.g. DE, FR, US.",
    )
    website = forms.CharField(required=False, label="Leave this empty")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs.update(autocomplete="name")
        self.fields["email"].widget.attrs.update(autocomplete="email")
        self.fields["country"].widget.attrs.update(autocomplete="country", size="2")
        self.fields[HONEYPOT].widget.attrs.update(tabindex="-1", autocomplete="off")


def _event(slug: str, event_slug: str) -> Event:
    event = (
        Event.objects.select_related("tournament")
        .filter(tournament__slug=slug, slug=event_slug, tournament__is_public=True)
        .first()
    )
    if event is None:
        raise Http404("No such event.")
    return event


def _room(event: Event) -> dict[str, Any]:
    taken = event.entries.filter(status__in=(Entry.Status.REGISTERED, Entry.Status.CHECKED_IN))
    waiting = event.entries.filter(status=Entry.Status.WAITING).count()
    count = taken.count()
    full = event.entry_cap is not None and count >= event.entry_cap
    return {"taken": count, "waiting": waiting, "full": full}


@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """The sign-up form of one event, and the sign-up itself."""
    event = _event(slug, event_slug)
    context: dict[str, Any] = {"event": event, "t": event.tournament, "closed": None}
    context["closed"] = signup_open_problem(event)
    if request.method == "GET" or context["closed"]:
        context.update(form=SignupForm(), **_room(event))
        return render(
            request, "public/signup.html", context, status=200 if request.method == "GET" else 400
        )
    form = SignupForm(request.POST)
    wait = signup_wait(request)
    if wait is not None:
        form.is_valid()
        form.add_error(
            None, f"Too many sign-ups from your address: try again in {wait // 60 + 1} minutes."
        )
        context.update(form=form, **_room(event))
        response = render(request, "public/signup.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response
    if form.is_valid() and form.cleaned_data[HONEYPOT]:
        form.add_error(None, "This sign-up looks automatic: leave the last field empty.")
    elif form.is_valid():
        data = form.cleaned_data
        try:
            done = entry_signup(
                event=event,
                name=data["name"],
                email=data["email"],
                club=data["club"],
                country=data["country"],
            )
        except Invalid as err:
            field = err.detail.get("field")
            form.add_error(field if field in form.fields else None, err.message)
        else:
            return render(
                request,
                "public/signup_done.html",
                {
                    "event": event,
                    "t": event.tournament,
                    "entry": done.entry,
                    "link": done.link,
                    "position": done.position,
                    "contact": data["email"],  # as typed: the record's own may be empty
                    "link_url": request.build_absolute_uri(
                        reverse("matches:entry", args=[done.link.key])
                    ),
                },
            )
    context.update(form=form, **_room(event))
    return render(request, "public/signup.html", context, status=400)


def _link_entries(link: PlayerLink) -> list[dict[str, Any]]:
    entries = (
        Entry.objects.filter(event__tournament_id=link.tournament_id, player_id=link.player_id)
        .select_related("event")
        .order_by("event__position", "event_id")
    )
    return [
        {
            "entry": e,
            "position": waiting_position(e),
            "can_withdraw": e.status in SIGNED and e.event.status == Event.Status.REGISTRATION,
        }
        for e in entries
    ]


def _entries_context(link: PlayerLink) -> dict[str, Any]:
    rows = _link_entries(link)
    active = any(r["entry"].status != Entry.Status.WITHDRAWN for r in rows)
    return {"link": link, "t": link.tournament, "rows": rows, "active": active}


@never_cache
def link_entries(request: HttpRequest, key: str) -> HttpResponse:
    """The player's entries in the tournament: status, waiting-list place, withdraw."""
    link, own = link_by_key(key=key)
    if not own:
        return HttpResponseRedirect(reverse("link-entries", args=[link.key]))
    context = _entries_context(link)
    return render(request, "public/link_entries.html", context)


@require_POST
@link_rate_limited
def link_entry_withdraw(request: HttpRequest, key: str, entry_id: int) -> HttpResponse:
    """The player withdraws one entry before its draw (the first waiting moves up)."""
    link, _ = link_by_key(key=key)
    row = next((r for r in _link_entries(link) if r["entry"].pk == entry_id), None)
    if row is None:
        raise Http404("No such entry of yours.")
    if not row["can_withdraw"]:
        context = _entries_context(link)
        context["refusal"] = (
            f"{row['entry'].event.name} is drawn: ask the director to withdraw you."
            if row["entry"].status in SIGNED
            else f"You are already out of {row['entry'].event.name}."
        )
        return render(request, "public/link_entries.html", context, status=400)
    try:
        entry_withdraw(entry=row["entry"], reason="withdrew from their link")
    except Invalid as err:
        context = _entries_context(link)
        context["refusal"] = err.message
        return render(request, "public/link_entries.html", context, status=400)
    return HttpResponseRedirect(reverse("link-entries", args=[link.key]) + "?withdrawn=1")
