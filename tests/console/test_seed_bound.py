"""A seed past any field's size is refused at its box, in the console and the service
(PostgreSQL's integer column would otherwise fail the request), not stored."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.errors import AppError
from tests.factories import PlayerFactory, UserFactory
from tournament.services.entries import MAX_SEED, entry_register
from tournament.services.events import event_create
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


def test_a_huge_seed_is_refused_at_its_field(client: Client) -> None:
    director = UserFactory()
    t = tournament_create(name="Open", slug="open", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    client.force_login(director)
    url = "/director/t/open/events/main/entries/"
    refused = client.post(url, {"name": "Ada Berg", "seed": "99999999999999999"})
    assert refused.status_code == 400
    assert 'id="id_seed_error"' in refused.content.decode()
    assert not main.entries.exists()
    with pytest.raises(AppError) as too_big:
        entry_register(event=main, player=PlayerFactory(), seed=MAX_SEED + 1)
    assert too_big.value.detail["field"] == "seed"
    entered = client.post(url, {"name": "Ada Berg", "seed": str(MAX_SEED)})
    assert entered.status_code == 302
    assert main.entries.get().seed == MAX_SEED
