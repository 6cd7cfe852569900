"""``/healthz``: database, cache and broker status as JSON; 503 when one is down.

Anonymous callers (load balancers, uptime probes) see only ``ok``/``down`` per
component; staff also see the backend, the time taken and the error, which may name
hosts and ports.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse

from tournament.celery import app as celery_app


def _check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def _check_cache() -> str:
    key = "healthz:probe"
    cache.set(key, "ok", 10)
    if cache.get(key) != "ok":
        raise RuntimeError("cache did not return the value just written")
    return str(settings.CACHES["default"]["BACKEND"]).rsplit(".", 1)[-1]


def _check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    with celery_app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
        conn.ensure_connection(max_retries=1, timeout=1)
    return "redis"


CHECKS: dict[str, Callable[[], str]] = {
    "database": _check_database,
    "cache": _check_cache,
    "broker": _check_broker,
}


def healthz(request: HttpRequest) -> JsonResponse:
    """Run each check; report its status (to staff: also backend, error and time taken)."""
    report: dict[str, dict[str, object]] = {}
    healthy = True
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            report[name] = {"status": "ok", "backend": check()}
        except Exception as exc:
            healthy = False
            report[name] = {"status": "down", "error": f"{type(exc).__name__}: {exc}"[:300]}
        report[name]["ms"] = round((time.perf_counter() - started) * 1000, 1)
    user = getattr(request, "user", None)
    if not (user is not None and user.is_authenticated and user.is_staff):
        report = {name: {"status": row["status"]} for name, row in report.items()}
    return JsonResponse(
        {"status": "ok" if healthy else "down", "services": report}, status=200 if healthy else 503
    )
