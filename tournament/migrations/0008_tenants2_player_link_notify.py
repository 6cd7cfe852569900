"""Email notices on or off per tournament (``PlayerLink.notify``): the switch behind a
player's private link touched ``Player.notify``, every tournament's at once, so that the
director of one tournament holding the link could silence another's. A player who had
turned emails off keeps them off in each tournament they are in, and can turn one back
on through that tournament's link."""

from django.db import migrations, models


def per_tournament(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    PlayerLink = apps.get_model("tournament", "PlayerLink")
    silent = Player.objects.filter(notify=False)
    PlayerLink.objects.filter(player__in=silent).update(notify=False)
    silent.filter(links__isnull=False).update(notify=True)


def back(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    PlayerLink = apps.get_model("tournament", "PlayerLink")
    Player.objects.filter(pk__in=PlayerLink.objects.filter(notify=False).values("player")).update(
        notify=False
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0007_merge"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerlink",
            name="notify",
            field=models.BooleanField(
                default=True,
                help_text="Send this tournament's notices to the player (their choice through "
                "the link's email page; it touches no other tournament).",
            ),
        ),
        migrations.RunPython(per_tournament, back),
    ]
