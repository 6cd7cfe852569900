"""Public URLs of downloads and series: /t/<slug>/<event>/results.csv and matches.zip,
/players/<id>/matches.ics, /series/<slug>/, /r/<key>/emails/ (a player's email choice) and /r/<key>/claim/ (link it to an account)."""

from django.urls import path

from tournament.league import views as views_league

urlpatterns = [
    path(
        "t/<slug:slug>/<slug:event_slug>/results.csv",
        views_league.event_results_csv,
        name="event-results-csv",
    ),
    path(
        "t/<slug:slug>/<slug:event_slug>/matches.zip",
        views_league.event_match_zip,
        name="event-match-zip",
    ),
    path("players/<int:player_id>/matches.ics", views_league.player_calendar, name="player-ics"),
    path("series/<slug:slug>/", views_league.series_page, name="series"),
    path("r/<slug:key>/emails/", views_league.player_emails, name="player-emails"),
    path("r/<slug:key>/claim/", views_league.player_claim, name="player-claim"),
]
