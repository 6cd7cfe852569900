"""``POST /api/auth/token/``: a token for a username and password (throttled).

Two limits: DRF's per-address rate (10 a minute, the address read behind
``NUM_PROXIES`` trusted proxies, an IPv6 address as its /64) and the login backoff per address and username
shared with the HTML and admin logins (tournament/web/login_throttle.py).
"""

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from tournament.web import login_throttle


class LoginThrottle(AnonRateThrottle):
    scope = "login"

    def get_ident(self, request: Request) -> str:
        return login_throttle.address_group(request)


class TokenView(ObtainAuthToken):
    throttle_classes = [LoginThrottle]

    @extend_schema(
        responses={
            200: inline_serializer("Token", {"token": serializers.CharField()}),
            400: OpenApiResponse(description="Missing fields, or a wrong username or password"),
            429: OpenApiResponse(description="Too many attempts: wait (see Retry-After)"),
        },
        operation_id="auth_token_create",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = request.data.get("username", "") if hasattr(request.data, "get") else ""
        wait = login_throttle.refusal(request, username)
        if wait is not None:
            raise Throttled(wait=wait)
        slowed = login_throttle.address_slowed(request, username)
        if slowed:
            login_throttle.slow_down()
        try:
            response = super().post(request, *args, **kwargs)
        except ValidationError:
            login_throttle.failure_record(request, username)
            if slowed:  # a wrong password and an unknown name alike
                raise Throttled(wait=login_throttle.ADDRESS_WINDOW_SECONDS) from None
            raise
        login_throttle.success_record(username, request)
        return response
