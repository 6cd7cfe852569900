"""Analyses held in the database for a fair share of the analysis queue across tournaments.

Analyses that exist already were sent to the queue (``held`` false); new ones start held
and are released by ``analysis_release``."""

from django.db import migrations, models

HELP = (
    "Queued in the database until one of its tournament's slots on the analysis queue "
    "frees (a fair share across tournaments)"
)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0005_analysis_models"),
    ]

    operations = [
        migrations.AddField(
            model_name="analysis",
            name="held",
            field=models.BooleanField(default=False, help_text=HELP),
        ),
        migrations.AlterField(
            model_name="analysis",
            name="held",
            field=models.BooleanField(default=True, help_text=HELP),
        ),
    ]
