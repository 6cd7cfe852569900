"""``POST /api/auth/token/``: a token for a username and password (throttled)."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.throttling import AnonRateThrottle


class LoginThrottle(AnonRateThrottle):
    scope = "login"


class TokenView(ObtainAuthToken):
    throttle_classes = [LoginThrottle]

    @extend_schema(
        responses={
            200: inline_serializer("Token", {"token": serializers.CharField()}),
            400: OpenApiResponse(description="Missing fields, or a wrong username or password"),
            429: OpenApiResponse(description="Too many attempts: wait a minute"),
        },
        operation_id="auth_token_create",
    )
    def post(self, request, *args, **kwargs):  # type: ignore[no-untyped-def]
        return super().post(request, *args, **kwargs)
