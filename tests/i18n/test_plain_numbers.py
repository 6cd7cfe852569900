"""A refused rating is written as people write numbers, in the page's language: "not
100000000000000", "nicht 2,5" never "1e+14"."""

from __future__ import annotations

import pytest
from django.utils import translation

from matches.errors import Invalid
from tournament.services.players import player_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "rating", "said"),
    [
        ("en", 1e14, "at most 4000, not 100000000000000."),
        ("de", 1e14, "höchstens bei 4000, nicht 100000000000000."),
        ("de", 4000.5, "nicht 4000,5."),
        ("en", -0.5, "not -0.5."),
    ],
)
def test_a_refused_rating_is_written_plainly(language: str, rating: float, said: str) -> None:
    with translation.override(language), pytest.raises(Invalid) as refused:
        player_create(name="Hans Meier", rating=rating)
    assert said in str(refused.value)
    assert "e+" not in str(refused.value)
