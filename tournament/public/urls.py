"""Public URLs (names ``home`` and ``public-*``): tournaments at /t/<slug>/..., matches at /matches/<id>/, players at /players/<id>/."""

from django.conf import settings
from django.urls import path

from tournament.public import signup, views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/<slug:slug>/", views.tournament, name="public-tournament"),
    path("t/<slug:slug>/scoreboard/", views.scoreboard, name="public-scoreboard"),
    path("t/<slug:slug>/scoreboard/live/", views.scoreboard_live, name="public-scoreboard-live"),
    path("t/<slug:slug>/board/", views.board, name="public-board"),
    path("t/<slug:slug>/board/live/", views.board_live, name="public-board-live"),
    path("t/<slug:slug>/players/", views.players, name="public-players"),
    path("t/<slug:slug>/<slug:event_slug>/", views.event, name="public-event"),
    path("t/<slug:slug>/<slug:event_slug>/live/", views.event_live, name="public-event-live"),
    path("t/<slug:slug>/<slug:event_slug>/print/", views.event_print, name="public-event-print"),
    path("t/<slug:slug>/<slug:event_slug>/signup/", signup.signup, name="public-signup"),
    path(
        "t/<slug:slug>/<slug:event_slug>/final/", views.event_final_sheet, name="public-event-final"
    ),
    path("t/<slug:slug>/<slug:event_slug>/slips/", views.event_slips, name="public-event-slips"),
    path("t/<slug:slug>/<slug:event_slug>/draws/<int:draw_id>/", views.draw, name="public-draw"),
    path("signup/confirm/<str:token>/", signup.signup_confirm_page, name="public-signup-confirm"),
    path("matches/<int:match_id>/", views.match, name="public-match"),
    path("matches/<int:match_id>/live/", views.match_live, name="public-match-live"),
    path("players/<int:player_id>/", views.player, name="public-player"),
]

if getattr(settings, "BENCH_ENDPOINTS", False):
    from tournament.public import bench

    urlpatterns += bench.urlpatterns
