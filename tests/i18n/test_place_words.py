"""Final places in the reader's language: "1st" and "3rd-4th" in English, "1." and
"3.-4." (an en dash) in German, "1位" and "3-4位" (a full-width tilde) in Japanese; the
draw engine writes English."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from tests.factories import TournamentFactory
from tests.i18n.test_money import finished_main, sheet
from tournament.formats.places import Place
from tournament.place_words import place_words

DASH = "\u2013"  # en dash
WAVE = "\uff5e"  # full-width tilde


@pytest.mark.parametrize(
    ("language", "one", "shared"),
    [
        ("en", "1st", "3rd-4th"),
        ("de", "1.", f"3.{DASH}4."),
        ("da", "1.", "3.-4."),
        ("tr", "1.", "3.-4."),
        ("ja", "1位", f"3{WAVE}4位"),
    ],
)
def test_a_place_in_each_language(language: str, one: str, shared: str) -> None:
    with translation.override(language):
        assert place_words(Place(best=1, worst=1)) == one
        assert place_words(Place(best=3, worst=4)) == shared
        assert place_words("withdrew") == "withdrew"  # not a place: as it is


@pytest.mark.django_db
def test_the_final_sheet_and_a_players_places_in_german(client: Any) -> None:
    tournament = TournamentFactory(slug="platz-open")
    main = finished_main(tournament)
    german = sheet(client, tournament, "de")
    assert "<tr><td>1.</td>" in german
    assert f"<tr><td>3.{DASH}4.</td>" in german
    assert "1st" not in german
    assert "3rd" not in german
    english = sheet(client, tournament, "en")
    assert "<tr><td>1st</td>" in english
    assert "<tr><td>3rd-4th</td>" in english
    champion = main.champion
    assert champion is not None
    from tournament.public.finished import entry_finished

    with translation.override("de"):
        assert entry_finished(entry=champion).place.startswith("1. von 4: "), "de"
    with translation.override("ja"):
        assert entry_finished(entry=champion).place.startswith("4 人中 1位"), "ja"
    with translation.override("en"):
        assert entry_finished(entry=champion).place.startswith("1st of 4"), "en"
