"""The page cache: versioned keys, one build at a time, and pages when the cache is down."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache

from tournament import page_cache
from tournament.pages import caching
from tournament.pages.caching import cached_page, clear_caches
from tournament.pages.delivery import pack


@pytest.fixture(autouse=True)
def _empty_cache():
    clear_caches()
    yield
    clear_caches()


def _builder(calls: list[str]):
    def build(token: str) -> dict[str, str]:
        calls.append(token)
        return {"title": "Probe", "content": f"<p>built for {token}</p>"}

    return build


def test_built_once_per_version_then_again_after_a_bump():
    calls: list[str] = []
    first, token = cached_page("probe", "event", 7, _builder(calls))
    again, same = cached_page("probe", "event", 7, _builder(calls))
    assert (token, same, calls) == ("1", "1", ["1"])
    assert again == first
    page_cache.bump("event", 7)
    _, bumped = cached_page("probe", "event", 7, _builder(calls))
    assert (bumped, calls) == ("2", ["1", "2"])


def test_a_companion_bump_rebuilds_the_page_too():
    calls: list[str] = []
    cached_page("probe", "event", 7, _builder(calls), also=[("event", 8)])
    page_cache.bump("event", 8)
    _, token = cached_page("probe", "event", 7, _builder(calls), also=[("event", 8)])
    assert token == "1-2"
    assert calls == ["1-1", "1-2"]


def test_an_up_to_date_poller_gets_the_page_whose_facts_decide_who_sees_it():
    # the caller compares the token itself, after checking the page's visibility
    page, token = cached_page("probe", "event", 7, _builder([]))
    assert token == "1"
    assert page is not None


def test_a_page_being_built_by_another_worker_is_waited_for_not_built_again():
    calls: list[str] = []
    token = "1"
    page_cache.version("event", 7)
    key = f"page:probe:event:7:{token}:en:"  # one copy per language
    cache.add(f"{key}:building", 1, 10)  # another worker is building it
    theirs = pack({"title": "Probe", "content": "<p>theirs</p>"})
    threading.Timer(0.2, lambda: cache.set(key, theirs)).start()
    page, _ = cached_page("probe", "event", 7, _builder(calls))
    assert calls == []
    assert page == theirs


def test_pages_are_built_when_the_cache_is_down(monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(caching.cache, "get_many", down)
    calls: list[str] = []
    page, token = cached_page("probe", "event", 7, _builder(calls))
    assert token == ""
    assert calls == [""]
    assert page is not None
    assert page["head"] == "<p>built for </p>"
