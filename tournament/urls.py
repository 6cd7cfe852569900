"""URLs, split by audience: public pages, players, directors, the API."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournament.public import link_results, signup
from tournament.web import health, language
from tournament.web.login_throttle import ThrottledLoginView, throttled_login

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("i18n/setlang/", language.set_language, name="set-language"),
    path("jsi18n/<str:lang>/", language.javascript_catalog, name="javascript-catalog"),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # A new director's set-password link (made by tournament.services.directors).
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("director/", include("tournament.console.urls")),
    path("api/", include("tournament.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Split view: the page and its start-up script are two responses (no inline script).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("r/<slug:key>/results/", link_results.link_results, name="link-results"),
    path("r/<slug:key>/entries/", signup.link_entries, name="link-entries"),
    path(
        "r/<slug:key>/entries/<int:entry_id>/withdraw/",
        signup.link_entry_withdraw,
        name="link-entry-withdraw",
    ),
    path(
        "r/<slug:key>/entries/<int:entry_id>/undo/",
        signup.link_entry_undo,
        name="link-entry-undo",
    ),
    path("r/<slug:key>/entries/signup/", signup.link_signup, name="link-signup"),
    path("", include("matches.urls")),  # /r/<key>/, /me/, /director/disputes/, audit
    path("", include("tournament.league.urls")),  # CSV, match zip, .ics, series pages
    path("", include("tournament.public.urls")),
]

if settings.ADMIN_PATH:  # the admin's path is a setting (ADMIN_PATH)
    urlpatterns[1:1] = [
        path(f"{settings.ADMIN_PATH}login/", throttled_login(admin.site.login)),
        path(settings.ADMIN_PATH, admin.site.urls),
    ]

handler400 = "tournament.web.error_pages.bad_request"
handler403 = "tournament.web.error_pages.forbidden"
handler404 = "tournament.web.error_pages.not_found"
handler500 = "tournament.web.error_pages.server_error"
