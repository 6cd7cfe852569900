"""Players and directors: CSV import, registration, a player's details, a co-director."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from matches.names import players_told_apart
from tournament.console.forms.fields import MAX_CSV_BYTES, AskToConfirm, LocalFloatField
from tournament.models import Event, Player
from tournament.services.entries import MAX_SEED


class PlayersCsvForm(forms.Form):
    """A CSV of players (name, email, rating, club), uploaded or pasted, and where to enter them."""

    file = forms.FileField(required=False, label=_("CSV file"))
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
        label=_("…or paste the CSV"),
        help_text=_(
            "A header row name,email,rating,club (country too); email, "
            "rating and club may be empty. Fix any line here and preview "
            "again."
        ),
    )
    event = forms.ModelChoiceField(
        queryset=Event.objects.none(),
        required=False,
        label=_("Enter them in"),
        empty_label=_("No event (players only)"),
    )

    def __init__(self, *args: Any, events: QuerySet[Event] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if events is not None:
            cast("forms.ModelChoiceField[Event]", self.fields["event"]).queryset = events

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_CSV_BYTES:
                self.add_error("file", _("The file is over 1 MB; split it."))
                return data
            raw = upload.read()
            try:
                data["csv_text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", _("The file is not UTF-8 text; save it as CSV UTF-8."))
                return data
        else:
            data["csv_text"] = data.get("text") or ""
        if not data["csv_text"].strip() and not self.errors:
            self.add_error("text", _("Upload a CSV file or paste its text."))
        return data


if TYPE_CHECKING:
    _PlayerField = forms.ModelChoiceField[Player]
else:  # not subscriptable at run time
    _PlayerField = forms.ModelChoiceField


class PlayerChoiceField(_PlayerField):
    """A select of players that tells namesakes apart ("Hans Meier (Club Nord)")."""

    names: dict[int, str] = {}  # replaced per form (fields are copied per form), never changed

    def label_from_instance(self, obj: Player) -> str:
        return self.names.get(obj.pk, obj.name)


class RegisterForm(forms.Form):
    """Enter an existing player of the tournament, or a new one, in an event."""

    player = PlayerChoiceField(
        queryset=Player.objects.none(),
        required=False,
        label=_("A player of this tournament"),
        empty_label="—",
    )
    name = forms.CharField(max_length=120, required=False, label=_("…or a new player"))
    email = forms.EmailField(label=_("Email"), required=False)
    rating = LocalFloatField(label=_("Rating"), required=False, min_value=1)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=1, max_value=MAX_SEED)
    confirm_new = forms.BooleanField(
        required=False,
        label=_("Yes, this is a new player"),
        help_text=_("Only when a player of the same name already exists and this is someone else."),
    )

    def __init__(self, *args: Any, players: QuerySet[Player] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if players is not None:
            field = cast("PlayerChoiceField", self.fields["player"])
            field.queryset = players
            field.names = players_told_apart(players)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not data.get("name"):
            self.add_error("name", _("Choose a player or type a new player's name."))
        if data.get("player") and data.get("name"):
            self.add_error("name", _("Either choose a player or type a new one, not both."))
        return data


class PlayerEditForm(AskToConfirm):
    """A player's name, email, club and country, to correct; the rating is computed.

    ``confirm_new`` stays hidden until the service warns that another player has the
    new name (``ask_to_confirm``), as the score forms ask about an unlikely score.
    """

    name = forms.CharField(label=_("Name"), max_length=120)
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_(
            "Where this tournament's notices go (their private link, "
            "match ready, reminders). For a player also in tournaments "
            "you do not direct, it is this tournament's contact only: "
            "their own email stays as it is."
        ),
    )
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    country = forms.CharField(
        label=_("Country"),
        max_length=2,
        required=False,
        help_text=_("Two-letter ISO code, e.g. NO or DE."),
    )
    confirm_new = forms.BooleanField(required=False, widget=forms.HiddenInput)
    confirm_field = "confirm_new"
    confirm_label = _("Yes, this is another person of that name")
    confirm_help = _("Tick it if they are different people, and save again.")

    def __init__(
        self,
        *args: Any,
        player: Player,
        email: str | None = None,
        identity_locked: str = "",
        **kwargs: Any,
    ) -> None:
        """``identity_locked``: why the name, club and country are not this director's to
        change (the page shows it; the fields are read-only); empty when they are."""
        kwargs["initial"] = {
            "name": player.name,
            "email": player.email if email is None else email,
            "club": player.club,
            "country": player.country,
        }
        super().__init__(*args, **kwargs)
        if identity_locked:
            for field in ("name", "club", "country"):
                self.fields[field].disabled = True
            self.fields["name"].help_text = _("Read-only here: see why above.")
        if self.is_bound and self.fields["confirm_new"].clean(self.data.get("confirm_new")):
            self.ask_to_confirm()  # ticked once: stays in sight, never silently kept


class DirectorAddForm(forms.Form):
    """Who to make a director: an existing account, or the username of a new one."""

    username = forms.CharField(
        label=_("Username or email"),
        max_length=254,
        help_text=_("An account's username or email address; a new username makes a new account."),
    )
    email = forms.EmailField(
        label=_("Email (new account only)"),
        required=False,
        max_length=254,
        help_text=_("The set-password link is emailed here."),
    )
