"""Bench-only route (``BENCH_ENDPOINTS=1``): the trivial Django view ``bench_pages`` compares with.

It goes through the same middleware as every page and returns a few bytes, with no
query and no template: the most a page of this site could ever do per second.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path


def trivial(request: HttpRequest) -> HttpResponse:
    """A constant, tiny HTML answer."""
    return HttpResponse("<!doctype html><title>ok</title><p>ok</p>")


urlpatterns = [path("bench/trivial/", trivial, name="bench-trivial")]
