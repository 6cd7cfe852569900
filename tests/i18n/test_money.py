"""Money in the tournament's currency, written the way the reader's language writes money
(the ``|money`` filter, Babel's CLDR data): "€20" in English, "20 €" in German, "200 kr."
in Danish, "￥2,000" in Japanese. A tournament without a currency shows its amounts as the
pages always did (``floatformat:"-2g"``)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.utils import translation

from tests.factories import PlayerFactory, TournamentFactory
from tests.tournament.conftest import run_to_champion
from tournament.models import Event, Tournament
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.payments import entries_mark_paid
from tournament.templatetags.site_i18n import money

NBSP = "\xa0"
TIMES = "\u00d7"


@pytest.mark.parametrize(
    ("language", "amount", "currency", "shown"),
    [
        ("en", Decimal("20"), "EUR", "€20"),
        ("en", Decimal("20.00"), "EUR", "€20"),  # whole: no decimals, as -2g wrote it
        ("en", Decimal("1200"), "EUR", "€1,200"),
        ("en", Decimal("12.50"), "EUR", "€12.50"),
        ("en", Decimal("200"), "DKK", f"DKK{NBSP}200"),  # letters kept apart from digits
        ("en", Decimal("2000"), "JPY", "JP¥2,000"),
        ("en", 5, "EUR", "€5"),  # the prize rounding unit is a whole number
        ("de", Decimal("20"), "EUR", f"20{NBSP}€"),
        ("de", Decimal("1200.5"), "EUR", f"1.200,50{NBSP}€"),
        ("de", Decimal("200"), "DKK", f"200{NBSP}DKK"),
        ("de", Decimal("2000"), "JPY", f"2.000{NBSP}¥"),
        ("da", Decimal("200"), "DKK", f"200{NBSP}kr."),
        ("da", Decimal("12.50"), "EUR", f"12,50{NBSP}€"),
        ("da", Decimal("1200"), "DKK", f"1.200{NBSP}kr."),
        ("ja", Decimal("2000"), "JPY", "￥2,000"),
        ("ja", Decimal("12.50"), "EUR", "€12.50"),
        ("ja", Decimal("200"), "DKK", f"DKK{NBSP}200"),
        ("tr", Decimal("1200"), "EUR", "€1.200"),
    ],
)
def test_an_amount_is_written_in_the_readers_conventions(
    language: str, amount: Any, currency: str, shown: str
) -> None:
    with translation.override(language):
        assert money(amount, currency) == shown


@pytest.mark.parametrize(
    ("language", "amount", "shown"),
    [
        ("en", Decimal("1200"), "1,200"),
        ("en", Decimal("12.50"), "12.50"),
        ("en", Decimal("20.00"), "20"),
        ("de", Decimal("1200"), "1.200"),
        ("de", Decimal("12.50"), "12,50"),
        ("ja", 5, "5"),
        ("en", 0, "0"),
    ],
)
def test_without_a_currency_an_amount_is_written_as_before(
    language: str, amount: Any, shown: str
) -> None:
    from django.template.defaultfilters import floatformat

    with translation.override(language):
        assert money(amount, "") == shown == floatformat(amount, "-2g")


@pytest.mark.parametrize("currency", ["EUR", ""])
def test_no_amount_is_an_empty_string(currency: str) -> None:
    assert money(None, currency) == money("", currency) == ""


# ---- the final sheet ---------------------------------------------------------------------


@pytest.fixture
def _fresh_cache() -> Iterator[None]:
    """Each test's database reuses ids: pages cached by an earlier test must not show."""
    clear_caches()
    yield
    clear_caches()


def finished_main(tournament: Tournament) -> Event:
    """A Main of four paid entries at 20, split 60 / 40, played out: prizes 48 and 32."""
    main = event_create(
        tournament=tournament,
        name="Main",
        slug="main",
        match_lengths=[1],
        entry_fee=Decimal("20"),
        payout_split=[60, 40],
    )
    entries = [entry_register(event=main, player=PlayerFactory()) for _ in range(4)]
    entries_mark_paid(event=main, entry_ids=[e.pk for e in entries], method="cash")
    draw_make(event=main, method="random", seed=3)
    run_to_champion([main])
    main.refresh_from_db()
    assert main.status == Event.Status.FINISHED
    return main


def sheet(client: Any, tournament: Tournament, language: str) -> str:
    clear_caches()
    url = f"/t/{tournament.slug}/main/final/"
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.usefixtures("_fresh_cache")
def test_the_final_sheet_of_a_tournament_in_euros_shows_euros(client: Any) -> None:
    tournament = TournamentFactory(slug="euro-open", currency="EUR")
    finished_main(tournament)

    english = sheet(client, tournament, "en")
    assert f"Prize pool <strong>€80</strong>: 4 paid entries {TIMES} €20" in english
    assert '<td class="num">€48</td>' in english
    assert '<td class="num">€32</td>' in english
    assert "rounded down to €1. Paid out <strong>€80</strong>" in english

    german = sheet(client, tournament, "de")
    assert f'<td class="num">48{NBSP}€</td>' in german
    assert f'<td class="num">32{NBSP}€</td>' in german
    assert f"<strong>80{NBSP}€</strong>" in german
    assert f"{TIMES} 20{NBSP}€" in german
    assert "€4" not in german  # the symbol after the number, never before it

    # The event page's final places and a player's page say the same.
    page = client.get("/t/euro-open/main/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Prize pool €80 (4 paid entries); paid out €80, rounded to €1; remainder €0." in page


@pytest.mark.django_db
@pytest.mark.usefixtures("_fresh_cache")
def test_without_a_currency_the_final_sheet_reads_as_before(client: Any) -> None:
    tournament = TournamentFactory(slug="plain-open")
    assert tournament.currency == ""
    finished_main(tournament)

    english = sheet(client, tournament, "en")
    assert f"Prize pool <strong>80</strong>: 4 paid entries {TIMES} 20" in english
    assert '<td class="num">48</td>' in english
    assert "rounded down to 1. Paid out <strong>80</strong>" in english
    assert "€" not in english
    german = sheet(client, tournament, "de")
    assert '<td class="num">48</td>' in german
    assert "€" not in german
