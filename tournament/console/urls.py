"""The director's console, mounted at /director/ (the dispute queue lives at /director/disputes/)."""

from django.urls import path

from tournament.console import views

app_name = "console"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.tournament_new, name="tournament-new"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament"),
    path("t/<slug:slug>/settings/", views.tournament_settings, name="tournament-settings"),
    path("t/<slug:slug>/new-event/", views.event_new, name="event-new"),
    path("t/<slug:slug>/import/", views.players_import, name="import"),
    path("t/<slug:slug>/player-links/", views.player_links, name="player-links"),
    path("t/<slug:slug>/player-links/email/", views.player_links_email_view, name="links-email"),
    path(
        "t/<slug:slug>/player-links/<int:player_id>/regenerate/",
        views.player_link_regenerate_view,
        name="link-regenerate",
    ),
    path("t/<slug:slug>/events/<slug:event_slug>/", views.event_detail, name="event"),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/settings/",
        views.event_settings,
        name="event-settings",
    ),
    path("t/<slug:slug>/events/<slug:event_slug>/entries/", views.entry_add, name="entry-add"),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/entries/<int:entry_id>/check-in/",
        views.entry_check_in_toggle,
        name="entry-check-in",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/entries/<int:entry_id>/withdraw/",
        views.entry_withdraw_view,
        name="entry-withdraw",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/entries/<int:entry_id>/withdraw/undo/",
        views.entry_withdraw_undo_view,
        name="entry-withdraw-undo",
    ),
    path("t/<slug:slug>/events/<slug:event_slug>/draw/", views.draw, name="draw"),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/lengths/",
        views.match_lengths,
        name="match-lengths",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/rounds/<int:round_id>/start/",
        views.round_start_view,
        name="round-start",
    ),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/rounds/next/", views.next_round, name="next-round"
    ),
    path("t/<slug:slug>/events/<slug:event_slug>/matches/", views.match_grid, name="matches"),
    path("t/<slug:slug>/matches/<int:match_id>/", views.match_detail, name="match"),
    path("t/<slug:slug>/matches/<int:match_id>/score/", views.match_score, name="match-score"),
    path("t/<slug:slug>/matches/<int:match_id>/table/", views.match_table, name="match-table"),
    path(
        "t/<slug:slug>/events/<slug:event_slug>/rounds/<int:round_id>/tables/",
        views.round_tables,
        name="round-tables",
    ),
    path("t/<slug:slug>/matches/<int:match_id>/games/", views.match_games, name="match-games"),
    path(
        "t/<slug:slug>/matches/<int:match_id>/forfeit/",
        views.match_forfeit_view,
        name="match-forfeit",
    ),
    path(
        "t/<slug:slug>/matches/<int:match_id>/penalty/", views.match_penalty, name="match-penalty"
    ),
    path(
        "t/<slug:slug>/matches/<int:match_id>/correct/", views.match_correct, name="match-correct"
    ),
]
