"""The model's elimination-Swiss rules walked through by hand, so that every one of them
runs (a random run reaches a kept player or a knockout only now and then): twelve players,
out at 2 losses, the Wisconsin ending after 3 rounds, a player kept one more round, the
knockout to its end; the model's invariants after every step."""

from __future__ import annotations

import pytest

from matches.models import Match
from tests.model.machine import TournamentModel
from tests.model.world import winning_games
from tournament.models import Event, Round
from tournament.selectors import elimination_next
from tournament.services.results import match_result_enter

pytestmark = pytest.mark.django_db

INVARIANTS = (
    "elimination_exactly_at_n_losses",
    "one_champion",
    "playoff_of_the_players_left",
    "forbidden_pairs_kept",
    "places_rank_exactly_the_drawn",
    "each_match_one_result",
    "no_player_in_two_open_matches",
    "field_counted_the_same_everywhere",
)


def check(model: TournamentModel) -> None:
    for name in INVARIANTS:
        getattr(model, name)()


def test_a_kept_player_and_the_wisconsin_knockout_keep_the_invariants() -> None:
    model = TournamentModel()
    try:
        elim = model.elim
        for person in range(12):  # twelve players (3: the elimination Swiss's index)
            model.enter_by_hand(pick=3, person=person)
        model.set_the_wisconsin_ending(rounds=0)  # refused: 1 to 50 rounds
        assert model.refusals["invalid"] == 1
        model.set_the_wisconsin_ending(rounds=3)
        model.set_the_places_paid(places=3, switch=False, last_loss=True)
        model.make_the_draw(pick=3, seed=11)
        check(model)
        for _ in range(20):
            elim.refresh_from_db()
            if elim.status == Event.Status.FINISHED:
                break
            if elimination_next(elim).keepable and not model.elim_kept:
                model.next_round_keeping_a_player_out(pick=0)
            else:
                model.start_round(pick=4, tables=None)  # the elimination Swiss
            check(model)
            for match in Match.objects.filter(event=elim, status=Match.Status.READY):
                model.attempt(
                    f"enter the result of match {match.pk}",
                    lambda match=match: match_result_enter(  # type: ignore[misc]
                        match=match, games=winning_games(match, 2), by=model.director
                    ),
                )
                check(model)
        elim.refresh_from_db()
        assert elim.status == Event.Status.FINISHED
        assert model.elim_kept, "no player was kept one more round"
        assert elim.playoff["kind"] == "knockout"
        assert elim.rounds.filter(bracket=Round.Bracket.PLAYOFF).count() >= 2
        model.set_the_wisconsin_ending(rounds=5)  # refused: the event is finished
        assert model.refusals["setting-locked"] >= 1
        check(model)
    finally:
        model.teardown()
