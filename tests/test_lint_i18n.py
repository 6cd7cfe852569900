"""``make lint`` finds unmarked text in templates (tools/lint_i18n.py): between tags, in
the attributes a reader meets and in the strings given to template filters."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tools.lint_i18n import findings_in

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "lint_i18n.py"


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True, check=False
    )


def test_the_repository_passes() -> None:
    run = _lint(ROOT)
    assert run.returncode == 0, run.stdout


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ('<input type="submit" value="Save changes">', 'value="Save changes"'),
        ('<input name="q" value="Type a name">', 'value="Type a name"'),
        (
            '<button hx-post="/x/" hx-confirm="Delete it?">{% translate "Go" %}</button>',
            "hx-confirm",
        ),
        ('<p data-empty-text="none ticked yet">{{ n }}</p>', "data-empty-text"),
        ('<p data-label="Score">{{ n }}</p>', "data-label"),
        ('<nav aria-label="Pages">{{ n }}</nav>', "aria-label"),
        ('<p aria-description="The full table">{{ n }}</p>', "aria-description"),
        ('<p aria-roledescription="slide">{{ n }}</p>', "aria-roledescription"),
        ('<td>{{ name|default:"to be decided" }}</td>', "default:'to be decided'"),
        ("<td>{{ name|default_if_none:'nobody' }}</td>", "default_if_none:'nobody'"),
        (
            '{% blocktranslate with n=name|default:"A player" %}{{ n }} won{% endblocktranslate %}',
            "default:'A player'",
        ),
        ("<td>{{ n }}{{ n|pluralize:'s' }}</td>", "pluralize:'s'"),
    ],
)
def test_unmarked_attribute_or_filter_text_is_found(line: str, shown: str) -> None:
    found = findings_in("{% load i18n %}\n" + line + "\n")
    assert [n for n, _text in found] == [2], found
    assert shown in found[0][1], found


@pytest.mark.parametrize(
    "line",
    [
        '<input type="hidden" name="action" value="approve">',
        '<input type="radio" name="notify" value="on">',
        '<button name="action" value="check-in">{% translate "Check in" %}</button>',
        '<option value="paid-cash">{% translate "Cash" %}</option>',
        '<p aria-live="polite" aria-hidden="true" aria-current="page">{{ n }}</p>',
        '<p aria-describedby="rerun-limits" aria-controls="player-results">{{ n }}</p>',
        '<input type="submit" value="{% translate "Save" %}">',
        '<p data-label="{% translate "Score" %}" data-ends="{{ t|date:"c" }}">{{ n }}</p>',
        '<td>{{ name|default:_("to be decided") }}</td>',
        '<td>{{ d|date:"D j M, H:i" }} {{ xs|join:", " }} {{ r|cut:"analysis: " }}</td>',
        '<td>{{ v|default:"—" }} {{ v|yesno:"1,0" }}</td>',
        '<p title="{% blocktranslate with n=x %}About {{ n }}{% endblocktranslate %}">{{ x }}</p>',
    ],
)
def test_marked_text_and_codes_pass(line: str) -> None:
    assert findings_in("{% load i18n %}\n" + line + "\n") == []


def test_an_injected_unmarked_string_fails_the_lint(tmp_path: Path) -> None:
    (tmp_path / "templates" / "public").mkdir(parents=True)
    (tmp_path / "locale").mkdir()
    page = tmp_path / "templates" / "public" / "page.html"
    page.write_text(
        '{% load i18n %}<p>{% translate "Fine" %}</p>\n<p title="{% translate "Ok" %}">{{ x }}</p>\n'
    )
    assert _lint(tmp_path).returncode == 0
    page.write_text(page.read_text() + '<td>{{ m.winner|default:"to be decided" }}</td>\n')
    run = _lint(tmp_path)
    assert run.returncode == 1
    assert "templates/public/page.html:3: unmarked text" in run.stdout
    assert "to be decided" in run.stdout
