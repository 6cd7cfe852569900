"""Players who share an address (any case) before it becomes unique: the oldest keeps it
(and the case it has); each other one gives it up as their own email, and every
tournament they are in keeps it as its contact for them, so no notice goes elsewhere."""

from collections import defaultdict

from django.db import migrations


def forwards(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    PlayerLink = apps.get_model("tournament", "PlayerLink")
    Entry = apps.get_model("tournament", "Entry")
    by_address = defaultdict(list)
    for pk, email in Player.objects.exclude(email="").order_by("pk").values_list("pk", "email"):
        by_address[email.lower()].append((pk, email))
    for sharers in by_address.values():
        for pk, email in sharers[1:]:
            tournaments = set(
                Entry.objects.filter(player_id=pk).values_list("event__tournament_id", flat=True)
            )
            for tournament_id in tournaments:
                link, _ = PlayerLink.objects.get_or_create(
                    tournament_id=tournament_id,
                    player_id=pk,
                    defaults={"key": _first_key(Entry, tournament_id, pk)},
                )
                if not link.email:
                    link.email = email
                    link.save(update_fields=["email"])
            Player.objects.filter(pk=pk).update(email="")


def _first_key(Entry, tournament_id, player_id):
    import secrets

    key = (
        Entry.objects.filter(event__tournament_id=tournament_id, player_id=player_id)
        .order_by("pk")
        .values_list("report_key", flat=True)
        .first()
    )
    return key or secrets.token_urlsafe(18)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0004_tenants_player_link_email"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
