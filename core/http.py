"""HTTP helpers both apps share: the client's address, a request's origin as stored with
what it changed, and the length an upload declares.

``REMOTE_ADDR`` is the nearest hop. Behind ``settings.NUM_PROXIES`` trusted reverse
proxies (the compose nginx: 1) it is the proxy, and each proxy appends the address
it saw to ``X-Forwarded-For``; whatever a client writes there itself is on the left.
So the ``NUM_PROXIES``-th entry from the right is the client, and nothing else is.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest

#: Room for the multipart envelope and the other fields around an uploaded file.
UPLOAD_ENVELOPE = 64 * 1024


@dataclass(frozen=True, slots=True)
class RequestMeta:
    """Where a report came from."""

    ip: str | None = None
    user_agent: str = ""


def client_address(request: HttpRequest) -> str:
    """The client's address, trusting ``settings.NUM_PROXIES`` proxies in front of us.

    Each trusted proxy appends the address it saw to ``X-Forwarded-For``; what a client
    sends itself is on the left, so only the ``NUM_PROXIES``-th entry from the right
    can be believed.
    """
    remote = str(request.META.get("REMOTE_ADDR", ""))
    proxies = settings.NUM_PROXIES
    if proxies <= 0:
        return remote
    forwarded = [a.strip() for a in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    forwarded = [a for a in forwarded if a]
    if not forwarded:
        return remote
    address = forwarded[-min(proxies, len(forwarded))]
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:  # not written by a proxy of ours
        return remote


def request_meta(request: HttpRequest) -> RequestMeta:
    """Where a report came from, as stored with its submission: the client's address (or
    ``None`` when it is not an IP address) and browser."""
    address = client_address(request) or None
    if address is not None:
        try:
            ipaddress.ip_address(address)
        except ValueError:
            address = None
    return RequestMeta(ip=address, user_agent=request.META.get("HTTP_USER_AGENT", "")[:300])


def declared_length(request: HttpRequest) -> int:
    """The body's length as its ``Content-Length`` declares it; 0 when absent or not a
    number (the body is then read, and its own size checked, as for any upload)."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def declares_too_much(request: HttpRequest, limit: int) -> bool:
    """Whether the body declares more than a file of ``limit`` bytes in its envelope."""
    return declared_length(request) > limit + UPLOAD_ENVELOPE
