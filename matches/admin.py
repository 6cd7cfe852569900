"""The Django admin shows matches, games and reports but does not change them.

Scores, winners, statuses and games change only through the services (the console
and the API), which store every change as a submission; an edit in the admin would
leave no audit record. The admin is for looking, and for what is not a result.
"""

from typing import Any

from django.contrib import admin

from matches import models


class ReadOnlyAdmin(admin.ModelAdmin):
    """Every field read-only; nothing added or deleted here."""

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    """An inline shown, never edited."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class GameInline(ReadOnlyInline):
    model = models.Game


@admin.register(models.Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "event",
        "round",
        "slot",
        "entry1",
        "entry2",
        "score1",
        "score2",
        "status",
    ]
    list_filter = ["status"]
    inlines = [GameInline]


@admin.register(models.Submission)
class SubmissionAdmin(ReadOnlyAdmin):
    list_display = ["match", "version", "kind", "status", "error_code", "created_at"]
    list_filter = ["kind", "status"]
