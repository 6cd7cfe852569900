"""The REST API's routes (shape fixed by api.md)."""

from django.urls import include, path

from tournament.api import auth, league, player_links
from tournament.api import views as tv

urlpatterns = [
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    # tournaments, events, entries, draws, rounds, brackets (tournament.api.views)
    path("players/", tv.PlayerListView.as_view(), name="api-players"),
    path("players/import/", tv.PlayerImportView.as_view(), name="api-players-import"),
    path("players/<int:pk>/", tv.PlayerDetailView.as_view(), name="api-player"),
    path("tournaments/", tv.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<slug:slug>/", tv.TournamentDetailView.as_view(), name="api-tournament"),
    path("tournaments/<slug:slug>/events/", tv.EventListView.as_view(), name="api-events"),
    path(
        "tournaments/<slug:slug>/player-links/",
        player_links.PlayerLinkListView.as_view(),
        name="api-player-links",
    ),
    path(
        "tournaments/<slug:slug>/player-links/<int:player_id>/regenerate/",
        player_links.PlayerLinkRegenerateView.as_view(),
        name="api-player-link-regenerate",
    ),
    path("events/<int:pk>/", tv.EventDetailView.as_view(), name="api-event"),
    path("events/<int:pk>/entries/", tv.EntryListView.as_view(), name="api-entries"),
    path("events/<int:pk>/draw/", tv.DrawView.as_view(), name="api-draw"),
    path("events/<int:pk>/rounds/next/", tv.NextRoundView.as_view(), name="api-next-round"),
    path("events/<int:pk>/bracket/", tv.BracketView.as_view(), name="api-bracket"),
    path("events/<int:pk>/standings/", tv.StandingsView.as_view(), name="api-standings"),
    path("entries/<int:pk>/check-in/", tv.EntryCheckInView.as_view(), name="api-check-in"),
    path("entries/<int:pk>/withdraw/", tv.EntryWithdrawView.as_view(), name="api-withdraw"),
    path(
        "entries/<int:pk>/withdraw/undo/",
        tv.EntryWithdrawUndoView.as_view(),
        name="api-withdraw-undo",
    ),
    path("rounds/<int:pk>/", tv.RoundDetailView.as_view(), name="api-round"),
    path("rounds/<int:pk>/start/", tv.RoundStartView.as_view(), name="api-round-start"),
    path("rounds/<int:pk>/tables/", tv.RoundTablesView.as_view(), name="api-round-tables"),
    path("matches/", tv.MatchListView.as_view(), name="api-matches"),
    path("matches/<int:pk>/", tv.MatchDetailView.as_view(), name="api-match"),
    path("matches/<int:pk>/forfeit/", tv.MatchForfeitView.as_view(), name="api-forfeit"),
    path("matches/<int:pk>/walkover/", tv.MatchWalkoverView.as_view(), name="api-walkover"),
    path("matches/<int:pk>/penalty/", tv.MatchPenaltyView.as_view(), name="api-penalty"),
    path("matches/<int:pk>/correct/", tv.MatchCorrectView.as_view(), name="api-correct"),
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
