"""Refusals and emails in the reader's language (issue 30): the rules engine's messages
translated at the door with their code kept, the API's own texts, and every notice
written in its recipient's language."""

from __future__ import annotations

import ast
import datetime as dt
import re
from pathlib import Path

import pytest
from django.core import mail
from django.utils import timezone, translation

from matches.errors import refusal_text
from matches.rules.errors import DoubleNotOwner, IllegalMove
from matches.rules_text import TEMPLATES, template_of, translated
from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tests.i18n.test_languages import translations
from tests.matches.test_api import make_bracket
from tournament.models import Notice
from tournament.services.deadlines import match_remind, round_deadline_set
from tournament.tasks.notifications import correction_message, table_message

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "matches" / "rules"
#: The engine's modules whose messages never reach a report (a command line, Match IDs).
NOT_REPORTED = {"check.py", "matchid.py"}
FIELD = re.compile(r"\{\w+\}")
#: Messages whose middle is chosen before they are written: each variant has its template.
COMPOSED = {
    ("the cube is reported at ", ", but ", " it at ", ""): [
        "the cube is reported at {cube}, but the reported doubles leave it at {value}",
        "the cube is reported at {cube}, but no double was reported: that leaves it at {value}",
    ],
    ("game ", " is not backgammon: ", " (backgammon is GM[6])"): [
        "game {game} is not backgammon: GM[{gm}] (backgammon is GM[6])",
        "game {game} is not backgammon: no GM property (backgammon is GM[6])",
    ],
}


def _joined(parts: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Fields side by side (``{a}{b}``) read as one: a template may name them so."""
    return tuple(p for k, p in enumerate(parts) if p or k in (0, len(parts) - 1))


def _error_classes() -> set[str]:
    tree = ast.parse((RULES / "errors.py").read_text())
    return {node.name for node in tree.body if isinstance(node, ast.ClassDef)} | {"Truncated"}


def _skeleton(node: ast.expr) -> tuple[str, ...] | None:
    """The fixed text of a message around its values (``None``: not a plain f-string)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if not isinstance(node, ast.JoinedStr):
        return None
    parts = [""]
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts[-1] += str(value.value)
        elif isinstance(value, ast.FormattedValue) and not isinstance(value.value, ast.IfExp):
            parts.append("")
        else:
            return None  # a value chosen inline: its templates are listed one by one
    return _joined(parts)


def test_every_message_the_engine_raises_has_a_template() -> None:
    """A new or changed message in matches/rules needs its template in matches.rules_text
    (and its translations), or a report refused with it would be answered in English."""
    classes = _error_classes()
    known = {_joined(FIELD.split(t)) for t in TEMPLATES}
    for variants in COMPOSED.values():
        assert set(variants) <= set(TEMPLATES), variants
    known |= set(COMPOSED)
    found, missing = 0, []
    for path in sorted(RULES.glob("*.py")):
        if path.name in NOT_REPORTED:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in classes:
                continue
            skeleton = _skeleton(node.args[0])
            if skeleton is None:
                continue
            found += 1
            if skeleton not in known:
                missing.append(f"{path.name}:{node.lineno}: {'{}'.join(skeleton)}")
    assert found > 100
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize(
    "message",
    [
        "side 1 cannot double: side 0 owns the cube",
        "3 points reported, but a gammon with the cube at 2 under the Jacoby rule is worth 4",
        "'13/9 8/x' is not a play: cannot read '8/x'",
        "6/off is not legal: cannot bear off while checkers are outside the home board",
        "line 12: expected ' Game N', found 'x'",
        "must play the larger die (6): 24/18 is possible",
    ],
)
def test_engine_messages_are_translated_with_their_values(message: str) -> None:
    template, params = template_of(message) or ("", {})
    assert template, message
    for lang in ("da", "de", "ja", "tr"):
        with translation.override(lang):
            text = translated(message)
        assert text != message, (lang, text)
        for value in params.values():
            if value.isdigit():
                assert value in text, (lang, text)


def test_refusal_text_translates_the_message_and_where_it_was() -> None:
    error = DoubleNotOwner("side 1 cannot double: side 0 owns the cube", game=3, move=7)
    with translation.override("de"):
        text = refusal_text(error)
    assert (
        text == "Seite 1 kann nicht doppeln: Seite 0 besitzt den Doppelwürfel (Spiel 3, Zug 7)."
    ), text
    assert error.code == "double-not-owner"
    with translation.override("en"):
        assert refusal_text(IllegalMove("24/18 is not legal")) == "24/18 is not legal."


def test_the_api_answers_a_rules_refusal_in_the_request_language_with_its_code() -> None:
    bracket = make_bracket()
    match = bracket.first
    client = bracket.link_client(match, 1)
    url = f"/api/matches/{match.pk}/games/"
    answer = client.post(
        url,
        {"winner": match.entry1.player_id, "cube": 2, "doubles": []},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "bad-cube-value"
    japanese = translations("ja")[
        "the cube is reported at {cube}, but no double was reported: that leaves it at {value}"
    ].format(cube=2, value=1)
    assert body["message"] == japanese
    assert body["detail"]["message"] == japanese
    assert body["detail"]["code"] == "bad-cube-value"
    assert body["detail"]["game"] == 1


def test_the_apis_own_refusals_follow_accept_language(client) -> None:
    bracket = make_bracket()
    response = client.get(
        f"/api/events/{bracket.first.event_id}/forbidden-pairs/", HTTP_ACCEPT_LANGUAGE="tr"
    )
    assert response.status_code == 401, response.content
    assert (
        response.json()["message"]
        == translations("tr")["Log in as a director to see the forbidden pairs."]
    )


def _told(match, lang1: str, lang2: str) -> None:
    for entry, lang in ((match.entry1, lang1), (match.entry2, lang2)):
        entry.player.language = lang
        entry.player.save(update_fields=["language"])


def test_the_table_notice_is_in_each_players_language() -> None:
    match = MatchFactory(table=7, status="ready")
    _told(match, "ja", "de")
    japanese = table_message(match, match.entry1, match.entry2, "a@example.org")
    german = table_message(match, match.entry2, match.entry1, "b@example.org")
    assert japanese.extra_headers["Content-Language"] == "ja"
    assert german.extra_headers["Content-Language"] == "de"
    with translation.override("ja"):
        round_name = str(match.round)
    assert japanese.subject == translations("ja")[
        "Table {table}: your match against {opponent} ({event}, {round})"
    ].format(table=7, opponent=match.entry2.player.name, event=match.event.name, round=round_name)
    assert translations("de")["is at table {table}."].format(table=7) in german.body
    assert "Your match in" not in german.body


def test_the_correction_notice_is_in_the_players_language() -> None:
    match = MatchFactory(status="ready")
    _told(match, "tr", "da")
    notice = Notice.objects.create(
        match=match,
        player=match.entry1.player,
        entry_id_sent=match.entry1_id,
        opponent_entry_id=match.entry2_id + 1000,  # no longer stands: another opponent
        opponent_name="Someone Else",
        round_name="Main, Round 1",
        sent_at=timezone.now(),
    )
    message = correction_message(
        notice, "t@example.org", "https://x/r/k/", match.event.tournament_id
    )
    turkish = translations("tr")
    assert message.extra_headers["Content-Language"] == "tr"
    assert message.subject.startswith(
        turkish["Correction: your match against {opponent} is off ({round})"].split("{")[0]
    )
    assert turkish["Your private link always shows the current state:"] in message.body
    assert turkish["Hello {name},"].format(name=match.entry1.player.name) in message.body
    assert "What stands now" not in message.body


def test_deadline_reminders_are_in_each_recipients_language() -> None:
    tournament = TournamentFactory(language="en", director=UserFactory())
    match = MatchFactory(round__event__tournament=tournament)
    _told(match, "da", "ja")
    deadline = dt.datetime(2030, 11, 3, 19, 0, tzinfo=dt.UTC)
    round_deadline_set(round=match.round, deadline=deadline)
    mail.outbox.clear()
    assert match_remind(match_id=match.pk, now=deadline - dt.timedelta(hours=20)) == 2
    by_to = {m.to[0]: m for m in mail.outbox}
    danish = by_to[match.entry1.player.email]
    japanese = by_to[match.entry2.player.email]
    assert danish.extra_headers["Content-Language"] == "da"
    assert japanese.extra_headers["Content-Language"] == "ja"
    assert "søndag 3. november 2030, 19:00 UTC" in danish.subject, danish.subject
    assert "2030年11月3日(日) 19:00 UTC" in japanese.subject, japanese.subject
    assert "your match against" not in danish.subject + japanese.subject
