"""Player pages (/r/<key>/, /me/) and the director's dispute queue and audit (/director/...)."""

from django.urls import path

from matches import offline, views

app_name = "matches"

urlpatterns = [
    path("sw.js", offline.service_worker, name="service-worker"),
    path("r/<slug:key>/", views.entry_page, name="entry"),
    path("r/<slug:key>/manifest.webmanifest", offline.entry_manifest, name="entry-manifest"),
    path("r/<slug:key>/matches/<int:match_id>/game/", views.entry_game, name="entry-game"),
    path("r/<slug:key>/matches/<int:match_id>/record/", views.entry_record, name="entry-record"),
    path("r/<slug:key>/matches/<int:match_id>/confirm/", views.entry_confirm, name="entry-confirm"),
    path("r/<slug:key>/matches/<int:match_id>/dispute/", views.entry_dispute, name="entry-dispute"),
    path("me/", views.me, name="me"),
    path("director/disputes/", views.director_disputes, name="disputes"),
    path("director/matches/<int:match_id>/audit/", views.director_audit, name="audit"),
]
