"""The REST API's routes (shape fixed by api.md)."""

from django.urls import include, path

from tournament.api import (
    auth,
    bmab,
    directors,
    entries,
    events,
    forbidden_pairs,
    league,
    matches,
    player_links,
    players,
    rounds,
    signup,
    tournaments,
)

urlpatterns = [
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    # players, tournaments, events (brackets, standings), entries, rounds (draws), matches
    path("players/", players.PlayerListView.as_view(), name="api-players"),
    path("players/import/", players.PlayerImportView.as_view(), name="api-players-import"),
    path("players/<int:pk>/", players.PlayerDetailView.as_view(), name="api-player"),
    path(
        "players/<int:pk>/link-account/",
        players.PlayerAccountLinkView.as_view(),
        name="api-player-link-account",
    ),
    path("tournaments/", tournaments.TournamentListView.as_view(), name="api-tournaments"),
    path(
        "tournaments/<slug:slug>/",
        tournaments.TournamentDetailView.as_view(),
        name="api-tournament",
    ),
    path("tournaments/<slug:slug>/events/", events.EventListView.as_view(), name="api-events"),
    path(
        "tournaments/<slug:slug>/player-links/",
        player_links.PlayerLinkListView.as_view(),
        name="api-player-links",
    ),
    path(
        "tournaments/<slug:slug>/player-links/<int:player_id>/",
        player_links.PlayerLinkDetailView.as_view(),
        name="api-player-link",
    ),
    path(
        "tournaments/<slug:slug>/players/<int:player_id>/merge/",
        player_links.PlayerMergeView.as_view(),
        name="api-player-merge",
    ),
    path(
        "tournaments/<slug:slug>/player-links/<int:player_id>/regenerate/",
        player_links.PlayerLinkRegenerateView.as_view(),
        name="api-player-link-regenerate",
    ),
    path(
        "tournaments/<slug:slug>/directors/",
        directors.DirectorListView.as_view(),
        name="api-directors",
    ),
    path(
        "tournaments/<slug:slug>/directors/<int:user_id>/",
        directors.DirectorDetailView.as_view(),
        name="api-director",
    ),
    path(
        "tournaments/<slug:slug>/directors/<int:user_id>/link/",
        directors.DirectorLinkView.as_view(),
        name="api-director-link",
    ),
    path("events/<int:pk>/", events.EventDetailView.as_view(), name="api-event"),
    path("events/<int:pk>/entries/", entries.EntryListView.as_view(), name="api-entries"),
    path("events/<int:pk>/signup/", signup.SignupView.as_view(), name="api-signup"),
    path("signup/confirm/", signup.SignupConfirmView.as_view(), name="api-signup-confirm"),
    path(
        "events/<int:pk>/entries/paid/", signup.EntriesPaidView.as_view(), name="api-entries-paid"
    ),
    path(
        "events/<int:pk>/entries/check-in/",
        signup.EntriesCheckInView.as_view(),
        name="api-entries-check-in",
    ),
    path("events/<int:pk>/places/", signup.EventPlacesView.as_view(), name="api-places"),
    path(
        "events/<int:pk>/entries/approve/",
        signup.EntriesApproveView.as_view(),
        name="api-entries-approve",
    ),
    path("entries/<int:pk>/approve/", signup.EntryApproveView.as_view(), name="api-approve"),
    path("events/<int:pk>/draw/", rounds.DrawView.as_view(), name="api-draw"),
    path("events/<int:pk>/rounds/next/", rounds.NextRoundView.as_view(), name="api-next-round"),
    path(
        "events/<int:pk>/forbidden-pairs/",
        forbidden_pairs.ForbiddenPairListView.as_view(),
        name="api-forbidden-pairs",
    ),
    path(
        "events/<int:pk>/forbidden-pairs/<int:pair_id>/",
        forbidden_pairs.ForbiddenPairDetailView.as_view(),
        name="api-forbidden-pair",
    ),
    path("events/<int:pk>/end/", rounds.EventEndView.as_view(), name="api-event-end"),
    path("events/<int:pk>/bmab.zip", bmab.EventBmabExportView.as_view(), name="api-event-bmab"),
    path("players/<int:pk>/bmab.zip", bmab.PlayerBmabExportView.as_view(), name="api-player-bmab"),
    path("events/<int:pk>/bracket/", events.BracketView.as_view(), name="api-bracket"),
    path("events/<int:pk>/standings/", events.StandingsView.as_view(), name="api-standings"),
    path("entries/<int:pk>/check-in/", entries.EntryCheckInView.as_view(), name="api-check-in"),
    path("entries/<int:pk>/withdraw/", entries.EntryWithdrawView.as_view(), name="api-withdraw"),
    path(
        "entries/<int:pk>/withdraw/undo/",
        entries.EntryWithdrawUndoView.as_view(),
        name="api-withdraw-undo",
    ),
    path("rounds/<int:pk>/", rounds.RoundDetailView.as_view(), name="api-round"),
    path("rounds/<int:pk>/start/", rounds.RoundStartView.as_view(), name="api-round-start"),
    path("rounds/<int:pk>/tables/", rounds.RoundTablesView.as_view(), name="api-round-tables"),
    path("matches/<int:pk>/", matches.MatchDetailView.as_view(), name="api-match"),
    path("matches/<int:pk>/forfeit/", matches.MatchForfeitView.as_view(), name="api-forfeit"),
    path("matches/<int:pk>/walkover/", matches.MatchWalkoverView.as_view(), name="api-walkover"),
    path("matches/<int:pk>/penalty/", matches.MatchPenaltyView.as_view(), name="api-penalty"),
    path("matches/<int:pk>/correct/", matches.MatchCorrectView.as_view(), name="api-correct"),
    path("matches/<int:pk>/score/", matches.MatchScoreView.as_view(), name="api-score"),
    path("matches/<int:pk>/reopen/", matches.MatchReopenView.as_view(), name="api-reopen"),
    path("", include("matches.api.urls")),  # reporting: games, record, confirm, dispute, resolve
    # ratings, series, deadlines (tournament.api.league)
    path("players/<int:pk>/ratings/", league.PlayerRatingsView.as_view(), name="api-ratings"),
    path(
        "series/<slug:slug>/leaderboard/",
        league.SeriesLeaderboardView.as_view(),
        name="api-series",
    ),
    path("rounds/<int:pk>/deadline/", league.RoundDeadlineView.as_view(), name="api-deadline"),
]
