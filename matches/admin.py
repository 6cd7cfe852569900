from django.contrib import admin

from matches import models


class GameInline(admin.TabularInline):
    model = models.Game
    extra = 0


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
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
    raw_id_fields = ["entry1", "entry2", "winner", "reported_by", "round", "event"]
    inlines = [GameInline]


@admin.register(models.Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ["match", "version", "kind", "status", "error_code", "created_at"]
    list_filter = ["kind", "status"]
    readonly_fields = [f.name for f in models.Submission._meta.fields]
