"""Services: keyword-only, typed functions named <entity>_<action> that own their transaction."""

from tournament.services.advance import match_advance
from tournament.services.directors import (
    DirectorInvite,
    DirectorLink,
    tournament_director_invite,
    tournament_director_link,
    tournament_director_remove,
)
from tournament.services.draws import draw_make
from tournament.services.entries import entry_check_in, entry_register, entry_withdraw
from tournament.services.event_settings import event_locked_settings, event_update
from tournament.services.events import event_create
from tournament.services.players import (
    PlayerChange,
    player_account_link,
    player_contact_set,
    player_create,
    player_update,
)
from tournament.services.results import (
    GameResult,
    match_forfeit,
    match_penalty_add,
    match_result_enter,
    match_walkover,
    match_winner_correct,
)
from tournament.services.rounds import (
    event_next_round,
    round_length_set,
    round_robin_next_round,
    round_start,
    swiss_next_round,
)
from tournament.services.tournaments import (
    tournament_create,
    tournament_director_add,
    tournament_update,
)

__all__ = [
    "DirectorInvite",
    "DirectorLink",
    "GameResult",
    "PlayerChange",
    "draw_make",
    "entry_check_in",
    "entry_register",
    "entry_withdraw",
    "event_create",
    "event_locked_settings",
    "event_next_round",
    "event_update",
    "match_advance",
    "match_forfeit",
    "match_penalty_add",
    "match_result_enter",
    "match_walkover",
    "match_winner_correct",
    "player_account_link",
    "player_contact_set",
    "player_create",
    "player_update",
    "round_length_set",
    "round_robin_next_round",
    "round_start",
    "swiss_next_round",
    "tournament_create",
    "tournament_director_add",
    "tournament_director_invite",
    "tournament_director_link",
    "tournament_director_remove",
    "tournament_update",
]
