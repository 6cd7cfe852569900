"""Tables (boards): the director puts matches at tables, in the console and through the API;
players, spectators and slips see them; a change refreshes the cached public pages."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.errors import Invalid
from matches.models import Match
from tests.public.builders import elimination, play_game
from tournament.models import Round
from tournament.pages.caching import clear_caches
from tournament.services.tables import match_table_set, round_tables_assign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_caches()
    yield
    clear_caches()


def _ready(event) -> list[Match]:
    return list(
        Match.objects.filter(event=event, status=Match.Status.READY, round__number=1)
        .select_related("round", "entry1__player", "entry2__player")
        .order_by("slot")
    )


def test_number_the_tables_gives_a_round_its_tables_in_bracket_order_skipping_those_in_use():
    main = elimination(16)
    first, second, *rest = _ready(main)
    match_table_set(match=second, table=2)
    given = round_tables_assign(round_=first.round)
    assert [m.pk for m in given] == [first.pk, *(m.pk for m in rest)]
    assert [m.table for m in given] == [1, 3, 4, 5, 6, 7, 8]
    assert Match.objects.get(pk=second.pk).table == 2
    assert round_tables_assign(round_=first.round) == []  # again: nothing left to number


def test_a_finished_match_frees_its_table():
    main = elimination(4)
    a, b = _ready(main)
    match_table_set(match=a, table=5)
    with pytest.raises(Invalid) as refused:
        match_table_set(match=b, table=5)
    assert refused.value.status == 400
    assert "Table 5 is in use" in refused.value.message
    Match.objects.filter(pk=a.pk).update(status=Match.Status.COMPLETE)
    assert match_table_set(match=b, table=5).table == 5


def test_table_must_be_a_number_from_1_to_999_and_none_clears_it():
    main = elimination(4)
    match = _ready(main)[0]
    for bad in (0, 1000, -1, True):
        with pytest.raises(Invalid):
            match_table_set(match=match, table=bad)
    match_table_set(match=match, table=7)
    assert match_table_set(match=match, table=None).table is None


def _director_client(client, event):
    client.force_login(event.tournament.directors.first())
    return client


def test_console_sets_a_table_and_numbers_a_round(client):
    main = elimination(8)
    t = main.tournament
    first, second, *_ = _ready(main)
    _director_client(client, main)
    page = client.get(f"/director/t/{t.slug}/matches/{first.pk}/")
    assert b'name="table"' in page.content
    answer = client.post(f"/director/t/{t.slug}/matches/{first.pk}/table/", {"table": "12"})
    assert answer.status_code == 302
    assert Match.objects.get(pk=first.pk).table == 12
    refused = client.post(f"/director/t/{t.slug}/matches/{second.pk}/table/", {"table": "12"})
    assert refused.status_code == 400
    assert b"Table 12 is in use" in refused.content
    bad = client.post(f"/director/t/{t.slug}/matches/{second.pk}/table/", {"table": "abc"})
    assert bad.status_code == 400
    grid = client.get(f"/director/t/{t.slug}/events/{main.slug}/matches/")
    assert b"Number the tables" in grid.content
    assert b"Table 12" in grid.content
    rnd = first.round
    client.post(f"/director/t/{t.slug}/events/{main.slug}/rounds/{rnd.pk}/tables/")
    tables = list(
        Match.objects.filter(round=rnd, status="ready")
        .order_by("slot")
        .values_list("table", flat=True)
    )
    assert tables == [12, 1, 2, 3]


def test_api_patches_a_table_and_numbers_a_round():
    main = elimination(8)
    first, second, *_ = _ready(main)
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=main.tournament.directors.first())
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    answer = client.patch(f"/api/matches/{first.pk}/", {"table": 4}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["table"] == 4
    bad = client.patch(f"/api/matches/{second.pk}/", {"table": 0}, format="json")
    assert bad.status_code == 400
    assert "table" in bad.json()["detail"]
    taken = client.patch(f"/api/matches/{second.pk}/", {"table": 4}, format="json")
    assert taken.status_code == 400
    assert taken.json()["code"] == "table-in-use"
    numbered = client.post(f"/api/rounds/{first.round_id}/tables/", format="json")
    assert numbered.status_code == 200
    assert [m["table"] for m in numbered.json() if m["status"] == "ready"] == [4, 1, 2, 3]
    listed = client.get(f"/api/matches/?event={main.pk}&round=1").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert {"table"} <= set(rows[0])
    anonymous = APIClient().patch(f"/api/matches/{first.pk}/", {"table": 9}, format="json")
    assert anonymous.status_code in (401, 403)
    schema = client.get("/api/schema/?format=json").json()
    assert "/api/rounds/{id}/tables/" in schema["paths"]
    assert "patch" in schema["paths"]["/api/matches/{id}/"]


def test_tables_show_on_slips_bracket_scoreboard_and_the_players_page(
    client, django_capture_on_commit_callbacks
):
    main = elimination(8)
    t = main.tournament
    first, second, *_ = _ready(main)
    play_game(second, winner_side=1)  # in play: on the scoreboard
    second.refresh_from_db()
    assert client.get(f"/t/{t.slug}/main/").status_code == 200  # cached before the change
    assert client.get(f"/t/{t.slug}/scoreboard/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):  # as a request's commit would
        match_table_set(match=first, table=31)
        match_table_set(match=second, table=32)
    bracket = client.get(f"/t/{t.slug}/main/").content.decode()
    assert "Table 31" in bracket
    assert "Table 32" in bracket
    assert "Table 31" in client.get(f"/t/{t.slug}/main/print/").content.decode()
    slips = client.get(f"/t/{t.slug}/main/slips/").content.decode()
    assert '<td class="blank slip-table">31</td>' in slips
    assert "Table 32" in client.get(f"/t/{t.slug}/scoreboard/").content.decode()
    assert "Table 32" in client.get(f"/t/{t.slug}/").content.decode()
    mine = client.get(f"/r/{first.entry1.report_key}/").content.decode()
    assert "Table <strong>31</strong>" in mine


def test_a_bye_gets_no_table():
    main = elimination(6)
    bye = Match.objects.filter(event=main, is_bye=True).first()
    with pytest.raises(Invalid):
        match_table_set(match=bye, table=1)
    assert Round.objects.filter(event=main).exists()


def test_a_match_that_opens_by_itself_gets_the_lowest_free_table(
    django_capture_on_commit_callbacks, eager_tasks
):
    """Auto-start: once the director has numbered round 1, a round-2 match that opens
    when its second player arrives is given the lowest table no unfinished match holds;
    the Consolation match of the two losers too."""
    from tests.browser.scenario import decide
    from tests.console.test_player_links import make_weekend

    with django_capture_on_commit_callbacks(execute=True):
        weekend = make_weekend(start_matches="auto")
    first, second, third, fourth = _ready(weekend.main)
    round_tables_assign(round_=first.round)
    with django_capture_on_commit_callbacks(execute=True):
        decide(first, 1, seed=1, director=weekend.director)
        decide(second, 2, seed=2, director=weekend.director)
    semi = Match.objects.get(event=weekend.main, round__number=2, slot=0)
    losers = Match.objects.get(event=weekend.consolation, round__number=1, slot=0)
    assert semi.status == losers.status == Match.Status.READY
    # Tables 1 and 2 are free again (their matches finished); 3 and 4 are in use.
    assert sorted([semi.table, losers.table]) == [1, 2]
    assert {third.pk: 3, fourth.pk: 4} == dict(
        Match.objects.filter(pk__in=[third.pk, fourth.pk]).values_list("pk", "table")
    )


def test_a_tournament_that_never_numbers_tables_gets_none(
    django_capture_on_commit_callbacks, eager_tasks
):
    from tests.browser.scenario import decide
    from tests.console.test_player_links import make_weekend

    with django_capture_on_commit_callbacks(execute=True):
        weekend = make_weekend(start_matches="auto")
    first, second, *_ = _ready(weekend.main)
    with django_capture_on_commit_callbacks(execute=True):
        decide(first, 1, seed=1, director=weekend.director)
        decide(second, 2, seed=2, director=weekend.director)
    assert not Match.objects.filter(event__tournament=weekend.main.tournament_id).exclude(
        table=None
    )


def test_a_match_under_way_before_its_seating_ran_keeps_no_table_and_says_so(caplog):
    """The seating of matches that opened by themselves, held up (a node died after the
    commit), finds one already in play: it gives the waiting one a table, leaves the
    other where its players sit, and says so in the log."""
    from tournament.services.tables import opened_tables_assign

    main = elimination(8)
    first, playing, waiting, *_ = _ready(main)
    match_table_set(match=first, table=1)  # the tournament numbers its tables
    Match.objects.filter(pk=playing.pk).update(status=Match.Status.PLAYING)
    with caplog.at_level("WARNING", logger="tournament.services.tables"):
        seated = opened_tables_assign(match_ids=[playing.pk, waiting.pk])
    assert [m.pk for m in seated] == [waiting.pk]
    assert Match.objects.get(pk=playing.pk).table is None
    assert f"match {playing.pk} was under way before its table" in caplog.text
