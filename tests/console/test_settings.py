"""The settings pages of a tournament and of an event: current values shown, changes saved
through the services, settings the draw fixed shown locked and refused when changed, other
tournaments' directors turned away, and the public pages showing the change at once."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django import forms as django_forms
from django.test import Client

from matches.errors import Invalid
from tests.factories import EntryFactory, EventFactory, TournamentFactory, UserFactory
from tournament.console.forms import EventSettingsForm, TournamentSettingsForm
from tournament.models import Event, Round, Tournament
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.event_settings import event_locked_settings, event_update
from tournament.services.events import event_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Each test's database reuses ids: pages cached by an earlier test must not show."""
    clear_caches()
    yield
    clear_caches()


@pytest.fixture
def event() -> Event:
    tournament = TournamentFactory(name="Autumn Open", slug="autumn", venue="Hotel Rex")
    return EventFactory(tournament=tournament, name="Main", slug="main", match_lengths=[7, 9])


def director_client(event: Event) -> Client:
    client = Client()
    client.force_login(event.tournament.directors.get())
    return client


def drawn(event: Event, players: int = 8) -> Event:
    for _ in range(players):
        EntryFactory(event=event)
    draw_make(event=event, method="rating")
    event.refresh_from_db()
    return event


def _post_data(form: django_forms.Form) -> dict[str, str]:
    """What the page's form sends untouched (a locked field's value from its hidden input)."""
    data: dict[str, str] = {}
    for bound in form:
        value = bound.field.prepare_value(bound.value())
        if isinstance(bound.field, django_forms.BooleanField):
            if value:
                data[bound.name] = "on"
        else:
            data[bound.name] = "" if value is None else str(value)
    return data


def event_data(event: Event, **changes: str) -> dict[str, str]:
    event.refresh_from_db()
    form = EventSettingsForm(event=event, locked=event_locked_settings(event))
    return {**_post_data(form), **changes}


def tournament_data(tournament: Tournament, **changes: str) -> dict[str, str]:
    tournament.refresh_from_db()
    return {**_post_data(TournamentSettingsForm(tournament=tournament)), **changes}


def field_errors(html: str, name: str) -> str:
    """The error list rendered with field ``name`` (its ``id_<name>_error`` list)."""
    found = re.search(rf'<ul class="errorlist" id="id_{name}_error">(.*?)</ul>', html, re.S)
    return found.group(1) if found else ""


# --- the tournament ----------------------------------------------------------------------


def test_tournament_settings_show_the_current_values(event: Event) -> None:
    tournament = event.tournament
    tournament.time_zone = "Europe/Dublin"
    tournament.save()
    page = director_client(event).get("/director/t/autumn/settings/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'value="Autumn Open"' in html
    assert 'value="Hotel Rex"' in html
    assert f'value="{tournament.starts_on.isoformat()}"' in html
    assert '<option value="Europe/Dublin" selected>' in html
    assert "Locked: It is the address of the public pages" in html
    assert 'type="hidden" name="slug" value="autumn"' in html
    # Linked from the tournament's console page.
    assert 'href="/director/t/autumn/settings/"' in (
        director_client(event).get("/director/t/autumn/").content.decode()
    )


def test_tournament_settings_change_the_tournament(event: Event) -> None:
    client = director_client(event)
    data = tournament_data(
        event.tournament,
        name="Autumn Open 2026",
        venue="Grand Hotel",
        time_zone="America/New_York",
        starts_on="2026-10-02",
        ends_on="2026-10-04",
    )
    del data["is_public"]
    response = client.post("/director/t/autumn/settings/", data)
    assert response.status_code == 302
    assert response["Location"] == "/director/t/autumn/"
    tournament = Tournament.objects.get(pk=event.tournament_id)
    assert tournament.name == "Autumn Open 2026"
    assert tournament.venue == "Grand Hotel"
    assert tournament.time_zone == "America/New_York"
    assert (tournament.starts_on, tournament.ends_on) == (
        dt.date(2026, 10, 2),
        dt.date(2026, 10, 4),
    )
    assert tournament.is_public is False
    assert tournament.slug == "autumn"


def test_a_new_tournament_slug_is_refused_at_its_field(event: Event) -> None:
    client = director_client(event)
    data = tournament_data(event.tournament, name="Renamed", slug="spring")
    response = client.post("/director/t/autumn/settings/", data)
    assert response.status_code == 400
    assert "This cannot change" in field_errors(response.content.decode(), "slug")
    tournament = Tournament.objects.get(pk=event.tournament_id)
    assert (tournament.slug, tournament.name) == ("autumn", "Autumn Open")


def test_tournament_dates_out_of_order_are_refused(event: Event) -> None:
    data = tournament_data(event.tournament, starts_on="2026-10-04", ends_on="2026-10-02")
    response = director_client(event).post("/director/t/autumn/settings/", data)
    assert response.status_code == 400
    assert "before the first" in field_errors(response.content.decode(), "ends_on")


def test_tournament_settings_set_the_currency(event: Event) -> None:
    """The currency is an ISO code typed in any case; an unknown one is refused at its
    field and the tournament keeps the one it had."""
    client = director_client(event)
    response = client.post(
        "/director/t/autumn/settings/", tournament_data(event.tournament, currency="eur")
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=event.tournament_id).currency == "EUR"
    html = client.get("/director/t/autumn/settings/").content.decode()
    assert re.search(r'<input type="text" name="currency" value="EUR"', html)
    assert "ISO code, e.g. EUR" in html

    data = tournament_data(event.tournament, currency="XYZ")
    response = client.post("/director/t/autumn/settings/", data)
    assert response.status_code == 400
    assert "ISO 4217" in field_errors(response.content.decode(), "currency")
    assert Tournament.objects.get(pk=event.tournament_id).currency == "EUR"

    response = client.post(
        "/director/t/autumn/settings/", tournament_data(event.tournament, currency="")
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=event.tournament_id).currency == ""


def _label(html: str, name: str) -> str:
    found = re.search(rf'<label for="id_{name}"[^>]*>([^<]*)<', html)
    assert found, name
    return found.group(1).strip().rstrip(":")


def test_the_event_forms_name_the_currency_of_their_amounts(event: Event) -> None:
    """The entry fee, added money and a side pool's stake are typed in the tournament's
    currency, so their labels say which; without one they read as before."""
    client = director_client(event)
    new, settings = "/director/t/autumn/new-event/", "/director/t/autumn/events/main/settings/"
    assert _label(client.get(new).content.decode(), "entry_fee") == "Entry fee"
    Tournament.objects.filter(pk=event.tournament_id).update(currency="DKK")
    assert _label(client.get(new).content.decode(), "entry_fee") == "Entry fee (DKK)"
    html = client.get(settings).content.decode()
    assert _label(html, "entry_fee") == "Entry fee (DKK)"
    assert _label(html, "added_money") == "Added money (DKK)"
    german = client.get(settings, headers={"accept-language": "de"}).content.decode()
    assert _label(german, "entry_fee") == "Startgeld (DKK)"
    EntryFactory(event=event)  # the side pools show once the event has entries
    page = client.get("/director/t/autumn/events/main/").content.decode()
    assert _label(page, "pool-stake") == "Stake (DKK)"
    japanese = client.get(settings, headers={"accept-language": "ja"}).content.decode()
    assert _label(japanese, "added_money") == "追加賞金（DKK）"  # noqa: RUF001 (Japanese parentheses)


@pytest.mark.parametrize(
    ("language", "typed", "saved", "shown"),
    [
        ("de", "12,50", "12.50", "12,50"),
        ("de", "1.200", "1200.00", "1200,00"),
        ("en", "12,50", "12.50", "12.50"),  # never 1250, as a number box made it
        ("en", "1,200", "1200.00", "1200.00"),
        ("tr", "1.200,5", "1200.50", "1200,50"),
    ],
)
def test_an_entry_fee_is_read_in_the_directors_language(
    event: Event, language: str, typed: str, saved: str, shown: str
) -> None:
    """A text box with a decimal keypad, read by the page language's separators and
    shown in them: a browser's number box dropped the comma of "12,50" and sent 1250."""
    client = director_client(event)
    url = "/director/t/autumn/events/main/settings/"
    head = {"accept-language": language}
    response = client.post(url, event_data(event, entry_fee=typed), headers=head)
    assert response.status_code == 302, field_errors(response.content.decode(), "entry_fee")
    assert Event.objects.get(pk=event.pk).entry_fee == Decimal(saved)
    html = client.get(url, headers=head).content.decode()
    assert f'<input type="text" name="entry_fee" value="{shown}" inputmode="decimal"' in html


def test_an_ambiguous_or_garbled_amount_is_refused_at_its_field(event: Event) -> None:
    client = director_client(event)
    url = "/director/t/autumn/events/main/settings/"
    event.entry_fee = Decimal(40)
    event.save()
    for language, typed, says in (
        ("en", "1.200", "2 decimal places"),  # 1.2 or 1200? three decimals are refused
        ("de", "1,200", "2 Dezimalstellen"),
        ("en", "12,5,0", "Enter a number"),
    ):
        data = event_data(event, entry_fee=typed)
        response = client.post(url, data, headers={"accept-language": language})
        assert response.status_code == 400, typed
        assert says in field_errors(response.content.decode(), "entry_fee"), typed
        assert Event.objects.get(pk=event.pk).entry_fee == Decimal(40)


def test_the_public_pages_show_the_new_tournament_name_at_once(
    event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    public = Client()
    assert "Autumn Open" in public.get("/t/autumn/").content.decode()
    assert "Autumn Open" in public.get("/t/autumn/main/").content.decode()
    assert "Autumn Open" in public.get("/").content.decode()
    data = tournament_data(event.tournament, name="Harvest Classic")
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client(event).post("/director/t/autumn/settings/", data)
    assert response.status_code == 302
    for path in ("/t/autumn/", "/t/autumn/main/", "/"):
        html = public.get(path).content.decode()
        assert "Harvest Classic" in html, path
        assert "Autumn Open" not in html, path


# --- the event ---------------------------------------------------------------------------


def test_event_settings_show_the_current_values(event: Event) -> None:
    event.crawford, event.holland = True, True
    event.clock = [{"reserve_minutes_per_point": 2, "delay_seconds": 12}]
    event.entry_fee = Decimal("40.00")
    event.payout_split = [50, 30, 20]
    event.deadline_rule = Event.DeadlineRule.FORFEIT
    event.save()
    page = director_client(event).get("/director/t/autumn/events/main/settings/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="name" value="Main"' in html
    assert 'name="match_lengths" value="7, 9"' in html
    assert '<option value="single-elimination" selected>' in html
    assert re.search(r'name="holland"[^>]*checked', html)
    assert 'name="clock_reserve" value="2"' in html
    assert 'name="clock_delay" value="12"' in html
    assert 'name="entry_fee" value="40.00"' in html
    assert 'name="payout_split" value="50, 30, 20"' in html
    assert '<option value="forfeit" selected>' in html
    # Before the draw only the slug is locked.
    assert html.count("Locked:") == 1
    assert 'href="/director/t/autumn/events/main/settings/"' in (
        director_client(event).get("/director/t/autumn/events/main/").content.decode()
    )


def test_event_settings_change_the_event_before_its_draw(event: Event) -> None:
    data = event_data(
        event,
        name="Championship",
        format="double-elimination",
        match_lengths="9, 11",
        clock_reserve="2",
        clock_delay="12",
        entry_fee="25",
        payout_split="60, 40",
        deadline_rule="forfeit",
        tiebreaks="wins, points_diff",
    )
    del data["crawford"]  # unticked
    response = director_client(event).post("/director/t/autumn/events/main/settings/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert response["Location"] == "/director/t/autumn/events/main/"
    event.refresh_from_db()
    assert event.name == "Championship"
    assert event.slug == "main"
    assert event.format == Event.Format.DOUBLE_ELIMINATION
    assert event.match_lengths == [9, 11]
    assert event.crawford is False
    assert event.clock == [{"reserve_minutes_per_point": 2, "delay_seconds": 12}]
    assert event.entry_fee == Decimal("25")
    assert event.payout_split == [60, 40]
    assert event.deadline_rule == Event.DeadlineRule.FORFEIT
    assert event.tiebreaks == ["wins", "points_diff"]


def test_after_the_draw_the_format_is_shown_locked_with_the_reason(event: Event) -> None:
    drawn(event)
    html = director_client(event).get("/director/t/autumn/events/main/settings/").content.decode()
    fmt = re.search(r'<select name="format"[^>]*>', html)
    assert fmt is not None
    assert "disabled" in fmt.group(0)
    assert "Locked: The draw laid out the matches with it." in html
    assert 'type="hidden" name="format" value="single-elimination"' in html
    crawford = re.search(r'<input type="checkbox" name="crawford"[^>]*>', html)
    assert crawford is not None
    assert "disabled" in crawford.group(0)
    name = re.search(r'<input type="text" name="name"[^>]*>', html)
    assert name is not None
    assert "disabled" not in name.group(0)


@pytest.mark.parametrize(
    ("field", "value"),
    [("format", "double-elimination"), ("crawford", None), ("holland", "on")],
)
def test_a_locked_setting_changed_after_the_draw_is_refused_at_its_field(
    event: Event, field: str, value: str | None
) -> None:
    drawn(event)
    data = event_data(event, name="Renamed")
    if value is None:
        del data[field]
    else:
        data[field] = value
    response = director_client(event).post("/director/t/autumn/events/main/settings/", data)
    assert response.status_code == 400
    error = field_errors(response.content.decode(), field)
    assert "cannot change now" in error
    assert "The draw laid out the matches with it." in error
    event.refresh_from_db()
    assert (event.name, event.format, event.crawford, event.holland) == (
        "Main",
        "single-elimination",
        True,
        False,
    )


def test_after_the_draw_the_open_settings_still_change(event: Event) -> None:
    drawn(event)
    data = event_data(event, name="Main Event", match_lengths="5, 7", deadline_rule="forfeit")
    response = director_client(event).post("/director/t/autumn/events/main/settings/", data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.match_lengths, event.deadline_rule) == (
        "Main Event",
        [5, 7],
        "forfeit",
    )
    # Rounds not started take the new lengths (round 1: 5 points, the rest 7).
    lengths = dict(
        event.rounds.filter(bracket=Round.Bracket.MAIN).values_list("number", "match_length")
    )
    assert lengths == {1: 5, 2: 7, 3: 7}
    assert set(event.matches.filter(round__number=1).values_list("length", flat=True)) == {5}


def test_the_event_slug_cannot_change(event: Event) -> None:
    data = event_data(event, slug="championship")
    response = director_client(event).post("/director/t/autumn/events/main/settings/", data)
    assert response.status_code == 400
    assert "This cannot change" in field_errors(response.content.decode(), "slug")
    assert Event.objects.filter(pk=event.pk, slug="main").exists()


def test_the_public_event_page_shows_the_new_name_at_once(
    event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    drawn(event)
    public = Client()
    assert "Grand Main" not in public.get("/t/autumn/main/").content.decode()
    assert "Grand Main" not in public.get("/t/autumn/").content.decode()
    data = event_data(event, name="Grand Main")
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client(event).post("/director/t/autumn/events/main/settings/", data)
    assert response.status_code == 302
    assert "Grand Main" in public.get("/t/autumn/main/").content.decode()
    assert "Grand Main" in public.get("/t/autumn/").content.decode()


# --- who may --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/director/t/autumn/settings/", "/director/t/autumn/events/main/settings/"]
)
def test_another_tournaments_director_is_turned_away(event: Event, path: str) -> None:
    other = Client()
    other.force_login(TournamentFactory(slug="elsewhere").directors.get())
    assert other.get(path).status_code == 404
    before = (
        Tournament.objects.get(pk=event.tournament_id).name,
        Event.objects.get(pk=event.pk).name,
    )
    data = {"name": "Hijacked", "format": "swiss", "match_lengths": "3"}
    assert other.post(path, data).status_code == 404
    after = (
        Tournament.objects.get(pk=event.tournament_id).name,
        Event.objects.get(pk=event.pk).name,
    )
    assert after == before
    anonymous = Client().get(path)
    assert anonymous.status_code == 302
    assert "/accounts/login/" in anonymous["Location"]


def test_staff_may_edit_any_tournament(event: Event) -> None:
    staff = Client()
    staff.force_login(UserFactory(is_staff=True))
    data = tournament_data(event.tournament, name="Staff Edit")
    assert staff.post("/director/t/autumn/settings/", data).status_code == 302
    assert Tournament.objects.get(pk=event.tournament_id).name == "Staff Edit"


# --- the service's rules ------------------------------------------------------------------


def _refusal(**kwargs: Any) -> Invalid:
    with pytest.raises(Invalid) as caught:
        event_update(**kwargs)
    return caught.value


def test_holland_needs_crawford(event: Event) -> None:
    err = _refusal(event=event, crawford=False, holland=True)
    assert err.detail["field"] == "holland"


def test_a_swiss_event_keeps_at_least_the_rounds_it_paired(event: Event) -> None:
    swiss = event_create(
        tournament=event.tournament, name="Swiss", format=Event.Format.SWISS, rounds=5
    )
    drawn(swiss)
    assert event_locked_settings(swiss).get("rounds_planned") is None
    err = _refusal(event=swiss, rounds=0)
    assert err.detail["field"] == "rounds_planned"
    assert event_update(event=swiss, rounds=3).rounds_planned == 3


def test_a_feeding_main_keeps_its_format_and_a_consolation_may_change_its_feed(
    event: Event,
) -> None:
    consolation = event_create(
        tournament=event.tournament,
        name="Consolation",
        match_lengths=[5],
        feeds_from=event,
        feed_rounds=[1],
    )
    err = _refusal(event=event, format=Event.Format.SWISS)
    assert err.detail["field"] == "format"
    assert "feed Consolation" in err.message
    changed = event_update(event=consolation, feed_rounds=[1, 2])
    assert changed.feed_rounds == [1, 2]
    # Unchanged values are never refused, even locked ones.
    drawn(event)
    consolation.refresh_from_db()
    assert consolation.status == Event.Status.DRAWN
    assert event_update(event=consolation, feed_rounds=[2, 1], name="Cons").name == "Cons"
    err = _refusal(event=consolation, feed_rounds=[1])
    assert err.detail["field"] == "feed_rounds"
