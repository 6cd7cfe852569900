from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from tournament import models


@admin.register(models.User)
class SiteUserAdmin(UserAdmin):
    pass


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "country", "rating", "experience"]
    search_fields = ["name", "email", "club"]


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "starts_on", "venue", "is_public"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]


class RoundInline(admin.TabularInline):
    model = models.Round
    extra = 0


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "kind", "format", "status"]
    list_filter = ["format", "kind", "status"]
    inlines = [RoundInline]


@admin.register(models.Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "seed", "status"]
    list_filter = ["status"]
    raw_id_fields = ["player", "event"]


admin.site.register(models.Series)
admin.site.register(models.Draw)
admin.site.register(models.RatingChange)
