from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest

from matches.admin import ReadOnlyAdmin
from tournament import models


@admin.register(models.User)
class SiteUserAdmin(UserAdmin):
    pass


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "country", "rating", "experience"]
    search_fields = ["name", "email", "club"]
    # Ratings come from rated matches (recompute_ratings); an account is linked by the
    # services. Names and clubs are checked by the model's validators.
    readonly_fields = ["rating", "experience", "user"]


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "starts_on", "venue", "is_public"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]


class RoundInline(admin.TabularInline):
    model = models.Round
    extra = 0
    can_delete = False
    readonly_fields = ["status", "started_at"]  # rounds start through the services

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "kind", "format", "status"]
    list_filter = ["format", "kind", "status"]
    readonly_fields = ["status", "champion"]  # results decide them, through the services
    inlines = [RoundInline]


@admin.register(models.Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "seed", "status"]
    list_filter = ["status"]
    raw_id_fields = ["player", "event"]
    # Check-in and withdrawal go through the services; the report key is the player's
    # private link: replaced only by the console's "new link" (which also retires it).
    readonly_fields = ["status", "checked_in_at", "report_key"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # Another player or event on an existing entry would hand its matches (and
        # wins) to somebody else: entries move only through the services.
        fields = list(super().get_readonly_fields(request, obj))
        return [*fields, "player", "event"] if obj is not None else fields


admin.site.register(models.Series)
admin.site.register(models.Draw, ReadOnlyAdmin)
admin.site.register(models.RatingChange, ReadOnlyAdmin)
