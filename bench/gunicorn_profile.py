"""gunicorn settings for ``bench/profile_reports.py``: the worker's requests run under
cProfile counting CPU time (waits for the database do not count), the first
``PROFILE_SKIP`` requests (imports, first connections) left out; the worker writes the
profile to ``$PROFILE_OUT`` when it exits."""

from __future__ import annotations

import cProfile
import os
import time
from typing import Any

worker_class = "sync"
_profile = cProfile.Profile(time.process_time)
_skip = int(os.environ.get("PROFILE_SKIP", "30"))
_seen = 0


def pre_request(worker: Any, req: Any) -> None:
    global _seen
    _seen += 1
    if _seen > _skip:
        _profile.enable()


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    _profile.disable()


def worker_exit(server: Any, worker: Any) -> None:
    _profile.dump_stats(os.environ["PROFILE_OUT"])
