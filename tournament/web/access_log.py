"""Private report links are credentials: logs show ``/r/***/...``, never the key.

Used by gunicorn's access log (``logger_class`` in deploy/gunicorn.conf.py) and by the
site's own log handler (``LOGGING`` in settings: Django logs "Not Found: /r/<key>/"
and the like). deploy/nginx.conf masks its access log the same way.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger

PRIVATE_LINK = re.compile(r"/r/[^/?#\s\"']+")


def mask_private_links(text: str) -> str:
    """``text`` with the key of every ``/r/<key>`` replaced by ``***``."""
    return PRIVATE_LINK.sub("/r/***", text)


class MaskedKeyLogger(Logger):
    """gunicorn's logger, its access-log atoms (request line, path, referer...) masked."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        return {
            name: mask_private_links(value) if isinstance(value, str) else value
            for name, value in atoms.items()
        }


class MaskPrivateLinks(logging.Filter):
    """A logging filter that masks private links in a record's message."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_private_links(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True
