"""The plain application error and the edges that answer it (api.md's error shape)."""

from __future__ import annotations

import json

from django.test import RequestFactory

from matches.errors import Conflict, Forbidden, Invalid, NotFound, invalid_input
from tournament.api import errors as api_errors
from tournament.web.error_pages import AppErrorMiddleware


def test_the_plain_errors_carry_code_message_detail_and_status() -> None:
    assert [cls("x").status for cls in (Invalid, Forbidden, NotFound, Conflict)] == [
        400,
        403,
        404,
        409,
    ]
    error = Invalid("No.", code="no-way", field="score")
    assert error.as_dict() == {"code": "no-way", "message": "No.", "detail": {"field": "score"}}
    assert not isinstance(error, api_errors.exceptions.APIException)  # no HTTP framework


def test_a_status_other_than_the_class_default_is_given_by_name() -> None:
    big = Invalid("Too big.", code="file-too-large", status=413, limit=1)
    assert (big.status, big.code, big.detail) == (413, "file-too-large", {"limit": 1})


def test_the_api_handler_answers_an_app_error_in_the_api_shape() -> None:
    response = api_errors.exception_handler(Conflict("Changed.", code="slot-taken", match=3), {})
    assert response is not None
    assert response.status_code == 409
    assert response.data == {"code": "slot-taken", "message": "Changed.", "detail": {"match": 3}}
    fields = invalid_input({"score": ["Too many."], "note": ["Too long."]})
    assert (fields.message, fields.detail["note"]) == ("score: Too many.", ["Too long."])


def test_a_refusal_no_html_view_caught_is_a_4xx_not_a_500() -> None:
    middleware = AppErrorMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]
    page = middleware.process_exception(
        RequestFactory().get("/t/x/"), Forbidden("Not <yours>.", code="no")
    )
    assert page is not None
    assert page.status_code == 403
    assert "Not &lt;yours&gt;." in page.content.decode()
    api = middleware.process_exception(RequestFactory().get("/api/x/"), NotFound("Gone."))
    assert api is not None
    assert (api.status_code, json.loads(api.content)["code"]) == (404, "not-found")
    assert middleware.process_exception(RequestFactory().get("/"), ValueError("bug")) is None


def test_the_api_handler_keeps_the_message_of_django_s_permission_denied() -> None:
    from django.core.exceptions import PermissionDenied

    said = api_errors.exception_handler(PermissionDenied("Only this tournament's directors."), {})
    assert said is not None
    assert said.status_code == 403
    assert said.data["message"] == "Only this tournament's directors."
    bare = api_errors.exception_handler(PermissionDenied(), {})
    assert bare is not None
    assert bare.data["message"] == "You do not have permission to perform this action."
