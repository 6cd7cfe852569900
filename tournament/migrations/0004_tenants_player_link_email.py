"""A tournament's own contact for a player (``PlayerLink.email``): its notices go there."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0003_player_name_validators"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerlink",
            name="email",
            field=models.EmailField(
                blank=True,
                help_text="Where this tournament's notices to the player go (their link, match "
                "ready, reminders); empty: the player's own email. Set by the tournament's "
                "directors; the player's own email is theirs (or staff's) to change.",
                max_length=254,
            ),
        ),
    ]
