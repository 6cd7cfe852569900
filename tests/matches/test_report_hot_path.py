"""The game report's hot path (issue 5's benchmark) keeps its behaviour while it gets cheaper.

Page invalidation after a report needs no query and one cache round trip; on both
cache backends (local memory in the SQLite run, Redis in the PostgreSQL run).
"""

from __future__ import annotations

import pytest
from django.core.cache import cache

from matches.services.reporting import GameInput, game_report
from tests.matches.conftest import META, Table
from tournament import page_cache

pytestmark = pytest.mark.django_db


def _versions(table: Table) -> tuple[int, int, int]:
    event = table.match.event
    return (
        page_cache.version("event", event.pk),
        page_cache.version("tournament", event.tournament_id),
        page_cache.version("site", 0),
    )


def test_a_report_bumps_its_event_tournament_and_site_pages_with_no_query_after_commit(
    table: Table, django_capture_on_commit_callbacks, django_assert_num_queries
) -> None:
    before = _versions(table)
    with django_capture_on_commit_callbacks() as callbacks:
        game_report(
            match_id=table.match.pk, actor=table.link1, game=GameInput(winner=table.p1), meta=META
        )
    assert _versions(table) == before  # nothing before the commit
    with django_assert_num_queries(0):
        for callback in callbacks:
            callback()
    assert _versions(table) == tuple(v + 1 for v in before)


def test_bump_many_increments_each_version_and_starts_a_missing_one_at_two() -> None:
    page_cache.version("event", 901)  # 1
    page_cache.bump("tournament", 902)  # missing: 2
    cache.delete(page_cache.version_key("site", 903))
    page_cache.bump_many(("event", 901), ("tournament", 902), ("site", 903))
    assert [
        cache.get(page_cache.version_key(s, i))
        for s, i in (("event", 901), ("tournament", 902), ("site", 903))
    ] == [2, 3, 2]
    assert page_cache.version("site", 903) == 2


def test_invalidate_event_without_its_tournament_bumps_the_event_and_the_site() -> None:
    before = [page_cache.version(s, i) for s, i in (("event", 911), ("tournament", 912))]
    site = page_cache.version("site", 0)
    page_cache.invalidate_event(911)
    after = [page_cache.version(s, i) for s, i in (("event", 911), ("tournament", 912))]
    assert after == [before[0] + 1, before[1]]
    assert page_cache.version("site", 0) == site + 1
