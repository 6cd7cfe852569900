"""Routes of the match list and the reporting endpoints, included under /api/ (bench-only
ones when enabled). ``/api/matches/<id>/`` is the tournament API's: a director also puts a
match at a table there."""

from django.conf import settings
from django.urls import path

from matches.api import analysis_views, views

urlpatterns = [
    path("matches/", views.MatchListView.as_view(), name="api-matches"),
    path("devices/sync/", views.DeviceSyncView.as_view(), name="api-device-sync"),
    path("matches/<int:pk>/games/", views.GameReportView.as_view(), name="api-match-games"),
    path("matches/<int:pk>/report/", views.MatchReportView.as_view(), name="api-match-report"),
    path("matches/<int:pk>/record/", views.RecordUploadView.as_view(), name="api-match-record"),
    path("matches/<int:pk>/confirm/", views.ConfirmView.as_view(), name="api-match-confirm"),
    path("matches/<int:pk>/dispute/", views.DisputeView.as_view(), name="api-match-dispute"),
    path("matches/<int:pk>/resolve/", views.ResolveView.as_view(), name="api-match-resolve"),
    path("matches/<int:pk>/bmab/", views.BmabView.as_view(), name="api-match-bmab"),
    path(
        "matches/<int:pk>/submissions/",
        views.SubmissionListView.as_view(),
        name="api-match-submissions",
    ),
    path(
        "matches/<int:pk>/analysis/",
        analysis_views.MatchAnalysisView.as_view(),
        name="api-match-analysis",
    ),
    path(
        "matches/<int:pk>/analysis/rerun/",
        analysis_views.MatchAnalysisRerunView.as_view(),
        name="api-match-analysis-rerun",
    ),
    path(
        "events/<int:pk>/analysis/",
        analysis_views.EventAnalysisView.as_view(),
        name="api-event-analysis",
    ),
    path(
        "tournaments/<slug:slug>/analysis/",
        analysis_views.TournamentAnalysisView.as_view(),
        name="api-tournament-analysis",
    ),
    path(
        "tournaments/<slug:slug>/analysis.csv",
        analysis_views.TournamentAnalysisCsvView.as_view(),
        name="api-tournament-analysis-csv",
    ),
    path(
        "players/<int:pk>/analysis/",
        analysis_views.PlayerAnalysisView.as_view(),
        name="api-player-analysis",
    ),
]

if getattr(settings, "BENCH_ENDPOINTS", False):
    from matches.api import bench

    urlpatterns += bench.urlpatterns
