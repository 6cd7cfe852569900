"""The player's and the director's reporting forms (HTML); the services do the checking."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from matches.models import Match
from matches.names import distinct_names
from matches.services.reporting import GameInput

CUBE_CHOICES = [(v, str(v)) for v in (1, 2, 4, 8, 16, 32, 64, 128, 256)]
RESULT_CHOICES = [("single", _("Single")), ("gammon", _("Gammon")), ("backgammon", _("Backgammon"))]
ENDED_CHOICES = [
    ("play", _("Played out")),
    ("drop", _("Double dropped")),
    ("resign", _("Resigned")),
]


def player_choices(match: Match, me: Any = None) -> list[tuple[int, str]]:
    """The match's two players, as (player id, name): two of the same name told apart
    (by club, country or seed; ``me``, the entry whose page it is, as "you")."""
    entries = [entry for entry in (match.entry1, match.entry2) if entry is not None]
    return list(zip([e.player_id for e in entries], distinct_names(entries, me=me), strict=True))


class GameForm(forms.Form):
    """One game as it ends. The Crawford game is the engine's to know, not the player's."""

    winner = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect, label=_("Who won?"))
    cube = forms.TypedChoiceField(
        coerce=int,
        choices=CUBE_CHOICES,
        initial=1,
        label=_("Cube"),
        help_text=_("Its value when the game ended; for a dropped double, before the double."),
    )
    result = forms.ChoiceField(
        choices=RESULT_CHOICES, initial="single", widget=forms.RadioSelect, label=_("Result")
    )
    ended_by = forms.ChoiceField(
        choices=ENDED_CHOICES, initial="play", widget=forms.RadioSelect, label=_("How it ended")
    )
    game_number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=32767)

    def __init__(
        self, *args: Any, match: Match, crawford: bool = False, me: Any = None, **kwargs: Any
    ) -> None:
        """``crawford``: the game to report is the Crawford game, where nobody may double:
        the cube is shown at 1 and cannot be changed (a posted value is ignored). ``me``:
        the entry whose page shows the form."""
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["winner"]).choices = player_choices(match, me)
        if crawford:
            cube = cast(forms.ChoiceField, self.fields["cube"])
            cube.choices = [(1, "1")]
            cube.initial = 1
            cube.disabled = True
            cube.help_text = _("The Crawford game: no doubling, the cube stays at 1.")

    def game(self) -> GameInput:
        data = self.cleaned_data
        return GameInput(
            winner=data["winner"],
            cube=data["cube"],
            result=data["result"],
            ended_by=data["ended_by"],
            game_number=data["game_number"],
        )


class DisputeForm(forms.Form):
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("What is wrong?"),
    )


class RecordForm(forms.Form):
    """A whole match by its file."""

    file = forms.FileField(label=_("Match file (.mat or .sgf)"))
    first_is = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        label=_("The file's first player is"),
        help_text=_("Only needed when the names in the file are not your names here."),
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["first_is"]).choices = [
            ("", _("Match the names")),
            *player_choices(match),
        ]


class ResolveForm(forms.Form):
    """A director's decision: uphold the games, adopt a report's games, or enter them."""

    decision = forms.ChoiceField(
        label=_("Decision"),
        choices=[
            ("uphold", _("Uphold the recorded games")),
            ("adopt", _("Adopt the games of a whole-match report or file")),
            ("enter", _("Replace the games with these")),
        ],
        widget=forms.RadioSelect,
        initial="uphold",
    )
    submission = forms.IntegerField(required=False, min_value=1, label=_("Report version"))
    games = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        label=_("Games, one a line"),
        help_text=_(
            "Winner (1 or 2), cube, then optionally gammon/backgammon "
            "and drop/resign: '1 2 gammon', '2 1', '1 1 drop'."
        ),
    )
    note = forms.CharField(required=False, max_length=2000, label=_("Note for the record"))

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        decision = data.get("decision")
        if decision == "adopt" and not data.get("submission"):
            self.add_error("submission", _("Say which report's games to adopt."))
        if decision == "enter":
            try:
                data["game_inputs"] = parse_game_lines(self.match, data.get("games") or "")
            except ValueError as exc:
                self.add_error("games", str(exc))
        return data


def parse_game_lines(match: Match, text: str) -> list[GameInput]:
    """Games written one a line as ``side cube [result] [ended_by]``.

    >>> from types import SimpleNamespace as NS
    >>> m = NS(entry1=NS(player_id=5), entry2=NS(player_id=9))
    >>> [(g.winner, g.cube, g.result, g.ended_by) for g in parse_game_lines(m, "1 2 gammon\\n2 1 drop")]
    [(5, 2, 'gammon', 'play'), (9, 1, 'single', 'drop')]
    """
    players = {"1": match.entry1.player_id, "2": match.entry2.player_id}  # type: ignore[union-attr]
    games = []
    for number, line in enumerate((ln for ln in text.splitlines() if ln.strip()), start=1):
        words = line.lower().split()
        if words[0] not in players:
            raise ValueError(f"Line {number}: start with the winner, 1 or 2.")
        if len(words) < 2 or not words[1].isdigit() or len(words[1]) > 7:
            raise ValueError(f"Line {number}: the cube value comes second.")
        result, ended_by = "single", "play"
        for word in words[2:]:
            if word in ("single", "gammon", "backgammon"):
                result = word
            elif word in ("play", "drop", "resign"):
                ended_by = word
            else:
                raise ValueError(f"Line {number}: {word!r} is not a result or a way to end.")
        games.append(
            GameInput(
                winner=players[words[0]], cube=int(words[1]), result=result, ended_by=ended_by
            )
        )
    if not games:
        raise ValueError("Enter at least one game.")
    return games
