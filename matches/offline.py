"""What makes the private link work offline and installable: the service worker and the
link's web app manifest (docs/director-guide.md, "Results without the network").

The service worker's script lives in ``static/js/sw.js`` (no build step) but is served
from the site's root, ``/sw.js``: a worker's scope is at most the folder of its script,
and the worker must cover the private links (``/r/<key>/``) and the brackets and slips
(``/t/...``). ``Service-Worker-Allowed: /`` is sent as well, so the same script could be
registered from ``/static/`` with scope ``/``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET

from matches.access import link_by_key

#: The worker's own words: the line over a kept copy and the page for one never kept.
#: One worker serves every language, so it carries them all (``LINES_MARK``).
OFFLINE_LINES = {
    "offline": gettext_lazy("Offline."),
    "loaded_at": gettext_lazy(
        "This page as it was loaded at {time}: it is not updated until the network is back."
    ),
    "earlier": gettext_lazy("earlier"),
    "title": gettext_lazy("Offline"),
    "not_kept": gettext_lazy(
        "This page was not opened on this phone before, so there is no copy of it here. "
        "It opens when the network is back."
    ),
    "still_read": gettext_lazy(
        "Your private link's page, and the brackets and slips you opened, can still be read."
    ),
}
#: Where ``static/js/sw.js`` takes the lines in every language.
LINES_MARK = "var LINES = {}; // every language's lines, written in by matches.offline"


def _lines() -> dict[str, dict[str, str]]:
    lines = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            lines[code] = {key: str(text) for key, text in OFFLINE_LINES.items()}
    return lines


@functools.cache
def _worker_source() -> str:
    found = finders.find("js/sw.js")
    path = Path(found if isinstance(found, str) else settings.STATIC_ROOT / "js" / "sw.js")
    source = path.read_text(encoding="utf-8")
    if LINES_MARK not in source:
        raise RuntimeError(f"{path} has lost its line {LINES_MARK!r}")
    lines = json.dumps(_lines(), ensure_ascii=False, sort_keys=True)
    return source.replace(LINES_MARK, f"var LINES = {lines};")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the site's service worker, checked for a new version on each visit."""
    source = _worker_source() if not settings.DEBUG else _worker_source.__wrapped__()
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def entry_manifest(request: HttpRequest, key: str) -> JsonResponse:
    """The private link as an app on the phone's home screen: it opens the link's page."""
    link, _ = link_by_key(key=key)
    start = f"/r/{link.key}/"
    manifest = {
        "id": start,
        "name": f"{link.player.name} · {link.tournament.name}"[:80],
        "short_name": (link.tournament.name or gettext("Results"))[:24],
        "description": gettext("Report and follow your matches in {tournament}.").format(
            tournament=link.tournament.name
        ),
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#7a1f1f",
        "icons": [
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {
                "src": static("img/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "any maskable",
            },
            {"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response
