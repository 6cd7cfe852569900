"""``/healthz`` tells anonymous callers only ok/down per component: no hosts or ports."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_anonymous_callers_see_only_ok_or_down() -> None:
    body = Client().get("/healthz").json()
    assert body["status"] == "ok"
    assert body["services"] == {
        "database": {"status": "ok"},
        "cache": {"status": "ok"},
        "broker": {"status": "ok"},
    }


@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0", CELERY_TASK_ALWAYS_EAGER=False)
def test_a_failing_component_does_not_name_its_host_to_anonymous_callers() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["services"]["broker"] == {"status": "down"}
    assert "127.0.0.1" not in response.content.decode()
    staff = Client()
    staff.force_login(UserFactory(is_staff=True))
    detailed = staff.get("/healthz").json()["services"]["broker"]
    assert detailed["status"] == "down"
    assert "error" in detailed
