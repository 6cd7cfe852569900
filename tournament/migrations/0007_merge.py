"""Joins the branches that each added migrations after 0003: the outbox, sign-up and
prizes, round times, analysis settings, and per-tournament contacts with unique emails."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0004_cluster_outbox"),
        ("tournament", "0004_signup_places_prizes"),
        ("tournament", "0004_venue_round_minutes"),
        ("tournament", "0004_analysis_settings"),
        ("tournament", "0006_tenants_player_email_unique"),
    ]

    operations = []
