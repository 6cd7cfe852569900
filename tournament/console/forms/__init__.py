"""The console's forms: they parse and check the shape of what a director typed, nothing more.

Business rules (may this event be drawn, is this score a finished match...) belong to
the services, whose refusals the views show next to the field they name.
"""

from tournament.console.forms.events import (  # noqa: F401
    DrawForm,
    EventForm,
    EventSettingsForm,
    MatchLengthsForm,
    SidePoolForm,
    TournamentForm,
    TournamentSettingsForm,
)
from tournament.console.forms.fields import (  # noqa: F401
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
from tournament.console.forms.matches import (  # noqa: F401
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
from tournament.console.forms.players import (  # noqa: F401
    DirectorAddForm,
    PlayerEditForm,
    PlayersCsvForm,
    RegisterForm,
)
