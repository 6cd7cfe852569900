"""Outbox rows waiting under a task's former name take its name now (issue 27).

A frozen copy of ``tournament.tasks.renamed.RENAMED``: that module goes in the next
release, this migration stays. Rows written under a former name after it ran (a web
node still on the old code, during the deploy) run through those aliases.
"""

from django.db import migrations

RENAMED = {
    "tournament.tasks.match_completed": "tournament.tasks.advance_match",
    "tournament.tasks_scheduled.rate_match": "tournament.tasks.rate_match",
    "tournament.tasks_scheduled.sweep_unrated_matches": "tournament.tasks.sweep_unrated_matches",
    "tournament.tasks_scheduled.send_deadline_reminders": "tournament.tasks.send_deadline_reminders",
    "tournament.tasks_scheduled.apply_deadlines": "tournament.tasks.apply_deadlines",
    "tournament.notifications.notify_match_ready": "tournament.tasks.notify_match_ready",
    "tournament.notifications.notify_table_given": "tournament.tasks.notify_table_given",
    "tournament.notifications.notify_player_link": "tournament.tasks.notify_player_link",
    "tournament.notifications.notify_director_invite": "tournament.tasks.notify_director_invite",
    "tournament.notifications.notify_signup": "tournament.tasks.notify_signup",
    "tournament.notifications.notify_signup_request": "tournament.tasks.notify_signup_request",
    "tournament.notifications.notify_corrections": "tournament.tasks.notify_corrections",
}


def rename(apps, schema_editor, names=RENAMED):
    OutboxTask = apps.get_model("tournament", "OutboxTask")
    for old, new in names.items():
        OutboxTask.objects.filter(task=old).update(task=new)


def rename_back(apps, schema_editor):
    rename(apps, schema_editor, {new: old for old, new in RENAMED.items()})


class Migration(migrations.Migration):
    dependencies = [("tournament", "0015_languages")]

    operations = [migrations.RunPython(rename, rename_back, elidable=True)]
