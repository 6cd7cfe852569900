"""A match's results: final score, forfeit, penalty, correction, table, the grid's filter, game-by-game entry."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from matches.models import Game, Match
from tournament.console.forms.fields import AskToConfirm
from tournament.models import Entry, Round


def _side_choices(match: Match) -> list[tuple[str, str]]:
    return [
        (str(entry.pk), entry.player.name)
        for entry in (match.entry1, match.entry2)
        if entry is not None
    ]


class SideForm(forms.Form):
    """A form that names one of the match's two entries."""

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match

    def entry_for(self, value: str) -> Entry:
        """The match's entry whose id is ``value``."""
        for entry in (self.match.entry1, self.match.entry2):
            if entry is not None and str(entry.pk) == value:
                return entry
        raise ValidationError(_("Choose one of the two players."))


class ConfirmScoreMixin(AskToConfirm):
    """A tick box to confirm an unlikely final score, shown once the score was warned about."""

    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)
    confirm_label = _("Confirm this unlikely score")
    confirm_help = _("Tick it if the score is right, and save again.")


class FinalScoreForm(ConfirmScoreMixin, SideForm):
    """The match's final score alone ("score only"), entered or corrected by the director."""

    field_order = ["score1", "score2", "confirm", "reason", "cascade"]

    score1 = forms.IntegerField(min_value=0, max_value=999)
    score2 = forms.IntegerField(min_value=0, max_value=999)
    reason = forms.CharField(max_length=300, required=False, label=_("Note"))
    cascade = forms.BooleanField(
        required=False,
        label=_("Cascade"),
        help_text=_("If the winner changes: also reset the later matches already played."),
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, match=match, **kwargs)
        if match.entry1 is not None:
            self.fields["score1"].label = match.entry1.player.name
        if match.entry2 is not None:
            self.fields["score2"].label = match.entry2.player.name
        if match.status != Match.Status.COMPLETE:
            del self.fields["cascade"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data.setdefault("cascade", False)
        return data


class ForfeitForm(SideForm):
    """A forfeit (a player did not play) or a walkover (the opponent never came)."""

    winner = forms.ChoiceField(label=_("Winner"), widget=forms.RadioSelect)
    decision = forms.ChoiceField(
        label=_("Decision"),
        choices=[(Match.Decision.FORFEIT, _("Forfeit")), (Match.Decision.WALKOVER, _("Walkover"))],
        widget=forms.RadioSelect,
        initial=Match.Decision.FORFEIT,
    )
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, match=match, **kwargs)
        cast(forms.ChoiceField, self.fields["winner"]).choices = _side_choices(match)

    def clean_winner(self) -> Entry:
        return self.entry_for(self.cleaned_data["winner"])


class PenaltyForm(SideForm):
    """Late-arrival penalty points: the late player's opponent starts with them."""

    late = forms.ChoiceField(widget=forms.RadioSelect, label=_("Late player"))
    points = forms.IntegerField(min_value=1, max_value=99, label=_("Penalty points"))
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, match=match, **kwargs)
        cast(forms.ChoiceField, self.fields["late"]).choices = _side_choices(match)

    def clean_late(self) -> Entry:
        return self.entry_for(self.cleaned_data["late"])


class CorrectionForm(ConfirmScoreMixin, SideForm):
    """Change a decided match's winner; ``cascade`` also undoes the next rounds' results.

    The score changes with the winner: swapped (the new winner gets the old winner's
    points) unless the director gives the final score.
    """

    field_order = ["winner", "score1", "score2", "confirm", "cascade", "reason"]

    winner = forms.ChoiceField(widget=forms.RadioSelect, label=_("Correct winner"))
    score1 = forms.IntegerField(min_value=0, max_value=999, required=False)
    score2 = forms.IntegerField(min_value=0, max_value=999, required=False)
    cascade = forms.BooleanField(
        required=False,
        label=_("Cascade"),
        help_text=_("Also reset the later matches this winner already played."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, match=match, **kwargs)
        cast(forms.ChoiceField, self.fields["winner"]).choices = _side_choices(match)
        for name, entry in (("score1", match.entry1), ("score2", match.entry2)):
            player = entry.player.name if entry is not None else name
            self.fields[name].label = gettext("Final score of {player}").format(player=player)
        self.fields["score1"].help_text = _("Leave both empty to swap the recorded score.")

    def clean_winner(self) -> Entry:
        return self.entry_for(self.cleaned_data["winner"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        s1, s2 = data.get("score1"), data.get("score2")
        if (s1 is None) != (s2 is None):
            self.add_error("score2" if s2 is None else "score1", _("Give both scores, or neither."))
        data["score"] = None if s1 is None or s2 is None else (s1, s2)
        return data


class TableForm(forms.Form):
    """The table (board) a match is played at; blank takes it off its table."""

    table = forms.IntegerField(
        min_value=1,
        max_value=999,
        required=False,
        label=_("Table"),
        help_text=_("Leave blank to take the match off its table."),
    )


class GridFilterForm(forms.Form):
    """The match grid's filters (GET)."""

    status = forms.ChoiceField(
        choices=[("", _("Every state")), *Match.Status.choices], required=False, label=_("State")
    )
    round = forms.TypedChoiceField(label=_("Round"), coerce=int, required=False, empty_value=None)
    byes = forms.BooleanField(required=False, label=_("Show byes"))

    def __init__(self, *args: Any, rounds: Iterable[Round] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["round"]).choices = [
            ("", _("Every round")),
            *(
                (
                    str(r.pk),
                    ("" if r.bracket == Round.Bracket.MAIN else f"{r.get_bracket_display()} · ")
                    + f"R{r.number} · {r}",
                )
                for r in rounds
            ),
        ]


class GameRowForm(forms.Form):
    """One game of a match entered game by game; a row without a winner is left out."""

    winner = forms.ChoiceField(required=False, label=_("Winner"))
    cube = forms.TypedChoiceField(
        choices=[(str(2**k), str(2**k)) for k in range(7)], coerce=int, initial="1", label=_("Cube")
    )
    result = forms.ChoiceField(
        label=_("Result"), choices=Game.Result.choices, initial=Game.Result.SINGLE
    )
    ended_by = forms.ChoiceField(
        label=_("Ended by"), choices=Game.EndedBy.choices, initial=Game.EndedBy.PLAY
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = [e.player.name if e is not None else "?" for e in (match.entry1, match.entry2)]
        cast(forms.ChoiceField, self.fields["winner"]).choices = [
            ("", "—"),
            ("1", names[0]),
            ("2", names[1]),
        ]


class BaseGamesFormSet(forms.BaseFormSet):
    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        self.match = match
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**super().get_form_kwargs(index), "match": self.match}

    def played(self) -> list[dict[str, Any]]:
        """The rows with a winner, in order."""
        return [f.cleaned_data for f in self.forms if f.cleaned_data.get("winner")]

    def clean(self) -> None:
        if any(self.errors):
            return
        rows = [bool(f.cleaned_data.get("winner")) for f in self.forms]
        if not any(rows):
            raise ValidationError(_("Enter at least one game."))
        last = max(i for i, filled in enumerate(rows) if filled)
        if not all(rows[: last + 1]):
            raise ValidationError(_("Leave no empty row between games."))


def games_formset(match: Match, data: Any = None) -> BaseGamesFormSet:
    """Rows for every game the match could take (twice its length less one, 25 at most)."""
    rows = min(max(2 * match.length - 1, 1), 25)
    formset_class = cast(
        type[BaseGamesFormSet],
        forms.formset_factory(
            GameRowForm, formset=BaseGamesFormSet, extra=rows, max_num=rows, absolute_max=rows
        ),
    )
    return formset_class(data, match=match, prefix="games")
