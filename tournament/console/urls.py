"""The director's console, mounted at /director/ (the dispute queue lives at /director/disputes/)."""

from django.urls import path

from tournament.console import (
    directors,
    entries,
    events,
    matches,
    players,
    rounds,
    signups,
    tournaments,
)

app_name = "console"

urlpatterns = [
    path("", tournaments.home, name="home"),
    path("new/", tournaments.tournament_new, name="tournament-new"),
    path("t/<slug:slug>/", tournaments.tournament_detail, name="tournament"),
    path("t/<slug:slug>/settings/", tournaments.tournament_settings, name="tournament-settings"),
    path("t/<slug:slug>/new-event/", events.event_new, name="event-new"),
    path("t/<slug:slug>/import/", players.players_import, name="import"),
    path("t/<slug:slug>/player-links/", players.player_links, name="player-links"),
    path("t/<slug:slug>/player-links/email/", players.player_links_email_view, name="links-email"),
    path(
        "t/<slug:slug>/player-links/<int:player_id>/email/",
        players.player_link_email_view,
        name="link-email",
    ),
    path(
        "t/<slug:slug>/player-links/<int:player_id>/regenerate/",
        players.player_link_regenerate_view,
        name="link-regenerate",
    ),
    path("t/<slug:slug>/players/<int:player_id>/", players.player_edit, name="player-edit"),
    path("t/<slug:slug>/players/<int:player_id>/merge/", players.player_merge, name="player-merge"),
    path(
        "t/<slug:slug>/players/<int:player_id>/link-account/",
        players.player_link_account_view,
        name="player-link-account",
    ),
    path("t/<slug:slug>/directors/", directors.directors, name="directors"),
    path(
        "t/<slug:slug>/directors/<int:user_id>/remove/",
        directors.director_remove,
        name="director-remove",
    ),
    path(
        "t/<slug:slug>/directors/<int:user_id>/link/",
        directors.director_link,
        name="director-link",
    ),
    path("t/<slug:slug>/events/<slug:event_slug>/", events.event_detail, name="event"),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/settings/",
        events.event_settings,
        name="event-settings",
    ),
    path("t/<slug:slug>/events/<slug:event_slug>/entries/", entries.entry_add, name="entry-add"),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/entries/bulk/",
        signups.entries_bulk,
        name="entries-bulk",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/side-pools/",
        signups.side_pool_add,
        name="side-pool-add",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/side-pools/<int:pool_id>/",
        signups.side_pool_players,
        name="side-pool-players",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/entries/<int:entry_id>/approve/",
        signups.entry_approve_view,
        name="entry-approve",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/entries/<int:entry_id>/check-in/",
        entries.entry_check_in_toggle,
        name="entry-check-in",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/entries/<int:entry_id>/withdraw/",
        entries.entry_withdraw_view,
        name="entry-withdraw",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/entries/<int:entry_id>/withdraw/undo/",
        entries.entry_withdraw_undo_view,
        name="entry-withdraw-undo",
    ),
    path("t/<slug:slug>/events/<slug:event_slug>/draw/", rounds.draw, name="draw"),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/lengths/",
        events.match_lengths,
        name="match-lengths",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/rounds/<int:round_id>/start/",
        rounds.round_start_view,
        name="round-start",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/rounds/<int:round_id>/minutes/",
        rounds.round_minutes,
        name="round-minutes",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/rounds/next/", rounds.next_round, name="next-round"
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/forbidden-pairs/",
        rounds.forbidden_pair_new,
        name="forbidden-pair-new",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/forbidden-pairs/<int:pair_id>/delete/",
        rounds.forbidden_pair_delete,
        name="forbidden-pair-delete",
    ),
    path("t/<slug:slug>/events/<slug:event_slug>/end/", rounds.event_end_view, name="event-end"),
    path("t/<slug:slug>/events/<slug:event_slug>/matches/", matches.match_grid, name="matches"),
    path("t/<slug:slug>/matches/<int:match_id>/", matches.match_detail, name="match"),
    path("t/<slug:slug>/matches/<int:match_id>/score/", matches.match_score, name="match-score"),
    path("t/<slug:slug>/matches/<int:match_id>/table/", matches.match_table, name="match-table"),
    path("t/<slug:slug>/matches/<int:match_id>/bmab/", matches.match_bmab, name="match-bmab"),
    path(
        "t/<slug:slug>/matches/<int:match_id>/analysis/",
        matches.match_analysis_rerun,
        name="match-analysis-rerun",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/rounds/<int:round_id>/tables/",
        rounds.round_tables,
        name="round-tables",
    ),
    path("t/<slug:slug>/matches/<int:match_id>/games/", matches.match_games, name="match-games"),
    path(
        "t/<slug:slug>/matches/<int:match_id>/forfeit/",
        matches.match_forfeit_view,
        name="match-forfeit",
    ),
    path("t/<slug:slug>/matches/<int:match_id>/reopen/", matches.match_reopen, name="match-reopen"),
    path(
        "t/<slug:slug>/matches/<int:match_id>/penalty/", matches.match_penalty, name="match-penalty"
    ),
    path(
        "t/<slug:slug>/matches/<int:match_id>/correct/", matches.match_correct, name="match-correct"
    ),
]
