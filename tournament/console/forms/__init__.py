"""The console's forms: they parse and check the shape of what a director typed, nothing more.

Business rules (may this event be drawn, is this score a finished match...) belong to
the services, whose refusals the views show next to the field they name. The views use
them as ``forms.X``: ``__all__`` says what the package exports (mypy --strict reads it).
"""

from tournament.console.forms.events import (
    DrawForm,
    EventForm,
    EventSettingsForm,
    MatchLengthsForm,
    SidePoolForm,
    TournamentForm,
    TournamentSettingsForm,
)
from tournament.console.forms.fields import (
    MAX_CSV_BYTES,
    AskToConfirm,
    ConfirmForm,
    DateInput,
    IntListField,
    LockedBoundField,
    LockedFieldsForm,
    NumberListField,
    TiebreaksField,
)
from tournament.console.forms.matches import (
    BaseGamesFormSet,
    ConfirmScoreMixin,
    CorrectionForm,
    FinalScoreForm,
    ForfeitForm,
    GameRowForm,
    GridFilterForm,
    PenaltyForm,
    SideForm,
    TableForm,
    games_formset,
)
from tournament.console.forms.players import (
    DirectorAddForm,
    PlayerEditForm,
    PlayersCsvForm,
    RegisterForm,
)

__all__ = [
    "MAX_CSV_BYTES",
    "AskToConfirm",
    "BaseGamesFormSet",
    "ConfirmForm",
    "ConfirmScoreMixin",
    "CorrectionForm",
    "DateInput",
    "DirectorAddForm",
    "DrawForm",
    "EventForm",
    "EventSettingsForm",
    "FinalScoreForm",
    "ForfeitForm",
    "GameRowForm",
    "GridFilterForm",
    "IntListField",
    "LockedBoundField",
    "LockedFieldsForm",
    "MatchLengthsForm",
    "NumberListField",
    "PenaltyForm",
    "PlayerEditForm",
    "PlayersCsvForm",
    "RegisterForm",
    "SideForm",
    "SidePoolForm",
    "TableForm",
    "TiebreaksField",
    "TournamentForm",
    "TournamentSettingsForm",
    "games_formset",
]
