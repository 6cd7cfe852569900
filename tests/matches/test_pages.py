"""The phone pages (private link, /me/) and the director's dispute queue and audit."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from matches.models import Match
from matches.services.confirmation import match_dispute
from matches.services.reporting import GameInput, game_report
from tests.factories import EventFactory, UserFactory
from tests.matches.conftest import META, Table, make_table

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "data" / "reporting"


def page(client: Client, t: Table, side: int = 1) -> str:
    return f"/r/{(t.match.entry1 if side == 1 else t.match.entry2).report_key}/"


def post_game(client: Client, t: Table, side: int, winner: int, number: int, **kw: object):  # type: ignore[no-untyped-def]
    url = f"{page(client, t, side)}matches/{t.match.pk}/game/"
    data = {"winner": winner, "cube": 1, "result": "single", "ended_by": "play"}
    data.update(kw)
    data["game_number"] = number
    return client.post(url, data, HTTP_USER_AGENT="phone", REMOTE_ADDR="198.51.100.4")


def test_a_player_reports_games_on_the_private_page_and_the_opponent_confirms(
    client: Client, table: Table
) -> None:
    home = client.get(page(client, table))
    assert home.status_code == 200
    body = home.content.decode()
    assert "Report game 1" in body
    assert "Bert van Dijk" in body
    assert 'name="robots" content="noindex"' in body
    response = post_game(client, table, 1, table.p1, 1, cube=2, result="gammon")
    assert response.status_code == 302
    response = post_game(client, table, 2, table.p1, 2, cube=2)  # 6-0
    assert client.get(page(client, table)).content.decode().count("Crawford game") >= 1
    refused = post_game(client, table, 2, table.p2, 3, cube=2)
    assert refused.status_code == 400
    assert "Crawford game" in refused.content.decode()
    assert "(game 3)" in refused.content.decode()
    repeated = post_game(client, table, 1, table.p1, 2, cube=2)
    assert repeated.status_code == 409
    assert "already recorded" in repeated.content.decode()
    post_game(client, table, 1, table.p1, 3)  # 7-0, reported by Anna
    mine = client.get(page(client, table)).content.decode()
    assert "waiting for Bert van Dijk to confirm" in mine
    theirs = client.get(page(client, table, 2)).content.decode()
    assert "Confirm the result" in theirs
    confirmed = client.post(f"{page(client, table, 2)}matches/{table.match.pk}/confirm/")
    assert confirmed.status_code == 302
    match = table.refresh()
    assert match.status == Match.Status.COMPLETE
    submission = match.submissions.filter(kind="game", status="accepted").first()
    assert (submission.ip_address, submission.user_agent) == ("198.51.100.4", "phone")
    # Until the bracket moves on (the task after the commit), the page says the next
    # match is being placed and reloads; then that there is none (the final was played).
    placing = client.get(page(client, table)).content.decode()
    assert "Your next match is being placed" in placing
    assert 'http-equiv="refresh"' in placing
    assert "no match to play right now" not in placing
    from django.utils import timezone

    Match.objects.filter(pk=match.pk).update(advanced_at=timezone.now())  # what the task does
    after = client.get(page(client, table)).content.decode()
    assert "no match to play right now" in after
    assert "being placed" not in after


def test_a_match_file_and_a_dispute_from_the_page(client: Client) -> None:
    t = make_table(round__event__match_lengths=[25])
    with (DATA / "anna_bert_25pt_illegal.mat").open("rb") as f:
        bad = client.post(f"{page(client, t)}matches/{t.match.pk}/record/", {"file": f})
    assert bad.status_code == 400
    assert "(game 3, move 6)" in bad.content.decode()
    with (DATA / "anna_bert_25pt.mat").open("rb") as f:
        good = client.post(f"{page(client, t)}matches/{t.match.pk}/record/", {"file": f})
    assert good.status_code == 302
    assert t.refresh().status == "reported"
    disputed = client.post(
        f"{page(client, t, 2)}matches/{t.match.pk}/dispute/", {"reason": "We stopped at 20-16."}
    )
    assert disputed.status_code == 302
    assert t.refresh().status == "disputed"


def test_private_links_give_nothing_to_others(client: Client, table: Table) -> None:
    assert client.get("/r/not-a-key/").status_code == 404  # no such link: not found
    tampered = client.post(
        f"{page(client, table)}matches/{table.match.pk}/game/",
        {"winner": 10**9, "cube": 1, "result": "single", "ended_by": "play", "game_number": 1},
    )
    assert tampered.status_code == 400
    assert table.match.submissions.get().error_code == "invalid"
    other = make_table()
    stranger = f"/r/{other.match.entry1.report_key}/matches/{table.match.pk}/game/"
    assert client.post(stranger, {"winner": table.p1, "game_number": 1}).status_code == 404
    assert table.refresh().games.count() == 0


def test_me_lists_a_players_next_matches(client: Client, table: Table) -> None:
    assert client.get("/me/").status_code == 302
    user = UserFactory()
    player = table.match.entry1.player
    player.user = user
    player.save()
    client.force_login(user)
    body = client.get("/me/").content.decode()
    assert "Bert van Dijk" in body
    assert f"/r/{table.match.entry1.report_key}/" in body


def test_the_dispute_queue_and_audit_belong_to_the_tournaments_directors(
    client: Client, table: Table, django_assert_max_num_queries
) -> None:
    game_report(
        match_id=table.match.pk, actor=table.link1, game=GameInput(winner=table.p1), meta=META
    )
    match_dispute(match_id=table.match.pk, actor=table.link2, reason="I won that game", meta=META)
    for _ in range(3):  # more disputed matches must not cost more queries
        extra = make_table(round__event__tournament=table.match.event.tournament)
        game_report(
            match_id=extra.match.pk, actor=extra.link1, game=GameInput(winner=extra.p1), meta=META
        )
        match_dispute(match_id=extra.match.pk, actor=extra.link2, reason="no", meta=META)
    outsider = UserFactory()
    EventFactory(tournament__director=outsider)
    client.force_login(outsider)
    assert "I won that game" not in client.get("/director/disputes/").content.decode()
    assert client.get(f"/director/matches/{table.match.pk}/audit/").status_code == 403
    client.force_login(table.director)
    with django_assert_max_num_queries(8):
        queue = client.get("/director/disputes/")
    assert "I won that game" in queue.content.decode()
    audit = client.get(f"/director/matches/{table.match.pk}/audit/")
    assert audit.status_code == 200
    assert "192.0.2.7" in audit.content.decode()
    settled = client.post(
        f"/director/matches/{table.match.pk}/audit/",
        {"decision": "enter", "games": "2 8\n", "note": "Bert won it with a cube of 8"},
    )
    assert settled.status_code == 302
    match = table.refresh()
    assert (match.status, match.score2, match.winner_id) == ("complete", 8, match.entry2_id)
    assert match.games.filter(voided=True).count() == 1
    bad = client.post(
        f"/director/matches/{table.match.pk}/audit/", {"decision": "enter", "games": "3 1"}
    )
    assert bad.status_code == 400


def test_players_do_not_see_the_queue(client: Client, table: Table) -> None:
    client.force_login(UserFactory())
    assert client.get("/director/disputes/").status_code == 403
