"""The public sign-up is confirmed from its mail: helpers that play the address' owner."""

from __future__ import annotations

from typing import Any

from tournament.models import SignupRequest


def confirm_token(email: str) -> str:
    """The token of the last confirmation link mailed to ``email``."""
    asked = SignupRequest.objects.filter(email__iexact=email, kind="confirm").latest("pk")
    return asked.token


def confirm(client: Any, email: str) -> Any:
    """Press the button behind the link mailed to ``email``: the sign-up's answer page."""
    return client.post(f"/signup/confirm/{confirm_token(email)}/")


def signup_and_confirm(client: Any, url: str, data: dict[str, Any]) -> Any:
    """Sign up on the form at ``url``, then confirm from the mail; a refusal of the form
    is answered as it is."""
    asked = client.post(url, data)
    if asked.status_code != 200 or "Check your mail" not in asked.content.decode():
        return asked
    return confirm(client, data["email"])


def api_signup_and_confirm(client: Any, event_id: int, data: dict[str, Any], **kwargs: Any) -> Any:
    """Ask over the API (202), then confirm with the mailed token: the sign-up's answer
    (a refusal of the ask is answered as it is)."""
    asked = client.post(f"/api/events/{event_id}/signup/", data, **kwargs)
    if asked.status_code != 202:
        return asked
    return client.post("/api/signup/confirm/", {"token": confirm_token(data["email"])})
