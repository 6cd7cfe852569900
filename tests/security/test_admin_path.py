"""The admin's path is a setting (``ADMIN_PATH``), its login throttled there too, and an
entry's report key (the player's private link) is read-only in it."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import clear_url_caches

import tournament.urls
from tests.factories import EntryFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_at(settings) -> Iterator[str]:  # type: ignore[no-untyped-def]
    settings.ADMIN_PATH = "ops-desk/"
    importlib.reload(tournament.urls)
    clear_url_caches()
    yield "/ops-desk/"
    settings.ADMIN_PATH = "admin/"
    importlib.reload(tournament.urls)
    clear_url_caches()


def test_the_admin_answers_at_its_configured_path_only(admin_at: str) -> None:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get(admin_at).status_code == 200
    assert client.get("/admin/").status_code == 404
    assert Client().get(f"{admin_at}login/").status_code == 200


def test_an_entrys_report_key_is_read_only_in_the_admin() -> None:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    entry = EntryFactory()
    old = entry.report_key
    page = client.get(f"/admin/tournament/entry/{entry.pk}/change/").content.decode()
    assert 'name="report_key"' not in page
    client.post(
        f"/admin/tournament/entry/{entry.pk}/change/",
        {"seed": "", "report_key": "attackerchosenkey0000000000000000"},
    )
    entry.refresh_from_db()
    assert entry.report_key == old
