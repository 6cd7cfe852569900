"""The REST API's routes (shape fixed by api.md)."""

from django.urls import path

from tournament.api import auth

urlpatterns = [
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
]
