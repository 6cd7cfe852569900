"""Routes of the match list and the reporting endpoints, included under /api/ (bench-only
ones when enabled). ``/api/matches/<id>/`` is the tournament API's: a director also puts a
match at a table there."""

from django.conf import settings
from django.urls import path

from matches.api import views

urlpatterns = [
    path("matches/", views.MatchListView.as_view(), name="api-matches"),
    path("matches/<int:pk>/games/", views.GameReportView.as_view(), name="api-match-games"),
    path("matches/<int:pk>/report/", views.MatchReportView.as_view(), name="api-match-report"),
    path("matches/<int:pk>/record/", views.RecordUploadView.as_view(), name="api-match-record"),
    path("matches/<int:pk>/confirm/", views.ConfirmView.as_view(), name="api-match-confirm"),
    path("matches/<int:pk>/dispute/", views.DisputeView.as_view(), name="api-match-dispute"),
    path("matches/<int:pk>/resolve/", views.ResolveView.as_view(), name="api-match-resolve"),
    path(
        "matches/<int:pk>/submissions/",
        views.SubmissionListView.as_view(),
        name="api-match-submissions",
    ),
]

if getattr(settings, "BENCH_ENDPOINTS", False):
    from matches.api import bench

    urlpatterns += bench.urlpatterns
