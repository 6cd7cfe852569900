"""Emails telling both players that their next match is ready."""

from __future__ import annotations

import pytest

from tests.factories import MatchFactory, PlayerFactory
from tournament.tasks.notifications import notify_match_ready

pytestmark = pytest.mark.django_db


def test_both_players_get_their_own_private_link_once(mailoutbox) -> None:
    match = MatchFactory(
        entry1__player=PlayerFactory(name="Anna"), entry2__player=PlayerFactory(name="Bert")
    )
    assert notify_match_ready(match.pk) == 2
    by_to = {m.to[0]: m for m in mailoutbox}
    anna = by_to[match.entry1.player.email]
    assert "Bert" in anna.subject
    assert f"/r/{match.entry1.report_key}/" in anna.body
    assert match.entry2.report_key not in anna.body
    assert "7-point match" in anna.body
    assert notify_match_ready(match.pk) == 0  # a repeated task sends nothing more
    assert len(mailoutbox) == 2


def test_players_who_opted_out_or_have_no_address_get_nothing(mailoutbox) -> None:
    match = MatchFactory(
        entry1__player=PlayerFactory(notify=False), entry2__player=PlayerFactory(email="")
    )
    assert notify_match_ready(match.pk) == 0
    assert mailoutbox == []


def test_a_match_that_is_not_ready_is_not_announced(mailoutbox) -> None:
    match = MatchFactory(status="pending")
    assert notify_match_ready(match.pk) == 0
    assert notify_match_ready(10**9) == 0
    assert mailoutbox == []
