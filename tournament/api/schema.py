"""OpenAPI schema post-processing: answers every body-taking operation may give."""

from __future__ import annotations

from typing import Any

UNPARSABLE = {
    "description": "The body could not be read in the Content-Type sent (or none was sent)"
}


def document_unparsable_bodies(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Add 415 to every operation that takes a request body (DRF answers it for a body
    no parser of the view accepts, e.g. a broken multipart envelope)."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                operation.setdefault("responses", {}).setdefault("415", UNPARSABLE)
    return result
