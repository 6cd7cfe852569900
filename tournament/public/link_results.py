"""A player's private link once everything they entered is over: their results.

``/r/<key>/`` (the matches app) sends a link whose events are all finished here: final
places are the tournament's knowledge (brackets, standings), not the matches app's.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from matches import selectors
from matches.access import EventFinished, link_by_key, link_check_live
from tournament.public.finished import entry_finished


def link_results(request: HttpRequest, key: str) -> HttpResponse:
    """The player's finished events: each match, wins and losses, and final place."""
    link, own = link_by_key(key=key)
    if not own:
        return HttpResponseRedirect(reverse("link-results", args=[link.key]))
    try:
        link_check_live(link)
    except EventFinished:
        results = [entry_finished(entry=e) for e in selectors.link_finished_entries(link=link)]
        return render(request, "public/link_results.html", {"link": link, "results": results})
    # Something is still to play: the link's own page.
    return HttpResponseRedirect(reverse("matches:entry", args=[link.key]))
