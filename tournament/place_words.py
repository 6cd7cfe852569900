"""A final place in the reader's language: the draw engine writes "1st" and "3rd-4th" (in
English, as it is pure Python); a German page reads "1." and "3.-4.", a Japanese one
"1位" and "3-4位"."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, pgettext


def place_words(place: Any) -> str:
    """``place`` (``tournament.formats.places.Place``: ``best``, ``worst``, ``shared``) as
    the active language writes a place; anything else as it is."""
    english = (get_language() or "en").split("-")[0] == "en"
    if english or not all(hasattr(place, a) for a in ("best", "worst", "shared")):
        return str(place)  # English: the engine's own words ("1st", "3rd-4th")
    if place.shared:
        # Translators: places shared, from best to worst ("3rd-4th" in English)
        return pgettext("final places", "{best}-{worst}").format(best=place.best, worst=place.worst)
    # Translators: one final place ("1st" in English)
    return pgettext("final place", "{place}").format(place=place.best)
