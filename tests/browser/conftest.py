"""Headless Chromium (Debian's) for the public pages' browser tests, and a small API client.

Screenshots go to ``test-artifacts/public/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "public"


@dataclass
class Tab:
    """A browser page that remembers its console errors, failed requests and uncaught exceptions."""

    page: Any
    base: str
    errors: list[str] = field(default_factory=list)

    def open(self, path: str) -> Any:
        response = self.page.goto(self.base + path)
        self.page.wait_for_load_state("networkidle")
        return response

    def shot(self, name: str, *, full_page: bool = True) -> Path:
        """Save a screenshot as ``test-artifacts/public/<name>.png``."""
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Each test's database reuses ids: pages cached by an earlier test must not show."""
    from tournament.pages.caching import clear_caches

    clear_caches()
    yield
    clear_caches()


@pytest.fixture
def tab(chromium: Any, live_server: Any) -> Iterator[Callable[..., Tab]]:
    """``tab(width=1366)``: a fresh page on the live server that records console errors."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    opened: list[Any] = []

    def make(width: int = 1366, height: int = 900) -> Tab:
        context = chromium.new_context(viewport={"width": width, "height": height})
        opened.append(context)
        page = context.new_page()
        tab = Tab(page, live_server.url)
        page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: tab.errors.append(str(e)))
        page.on(
            "response",
            lambda r: tab.errors.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )
        return tab

    yield make
    for context in opened:
        context.close()


@pytest.fixture
def api(live_server: Any) -> Callable[..., tuple[int, Any]]:
    """``api("POST", "/api/...", body, key=report_key)`` -> (status, decoded JSON)."""

    def call(method: str, path: str, body: dict[str, Any] | None = None, key: str = "") -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(live_server.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if key:
            request.add_header("X-Report-Key", key)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    return call
