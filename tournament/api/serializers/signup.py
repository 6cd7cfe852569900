"""Players' own sign-up, and the director's bulk actions on entries (paid, check-in, approve)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from matches.api.serializers import IdField
from tournament.models import Entry


class SignupSerializer(serializers.Serializer[Any]):
    """A player's own sign-up (as the public form)."""

    name = serializers.CharField(max_length=120)
    email = serializers.EmailField(max_length=254)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="")


class SignupAskedSerializer(serializers.Serializer[Any]):
    """A sign-up asked: a mail went to the address with the link that takes it. The same
    answer whether or not the address is signed up for the event already."""

    status = serializers.CharField(help_text='Always "confirmation-sent"')
    email = serializers.EmailField()
    message = serializers.CharField()
    expires_in_hours = serializers.IntegerField(help_text="How long the mailed link works")


class SignupConfirmSerializer(serializers.Serializer[Any]):
    """The token of the link mailed to a sign-up's address (``/signup/confirm/<token>/``)."""

    token = serializers.CharField(max_length=40)


class SignedUpSerializer(serializers.Serializer[Any]):
    """A sign-up taken: the entry's status, its waiting-list place and the private link.

    An email that is already a player's enters that player (one player, and one private
    link, per person and tournament): then ``known`` is true, and ``entry``, ``player``,
    ``link`` and ``link_key`` are null: the link, which lists every entry of theirs, is
    emailed to them, and the caller is told nothing about that player."""

    entry = serializers.IntegerField(allow_null=True)
    player = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    waiting_position = serializers.IntegerField(allow_null=True)
    known = serializers.BooleanField(
        help_text="The email was already a player's: their link was emailed to it."
    )
    link = serializers.URLField(
        allow_null=True, help_text="The player's private link (also emailed); null when known."
    )
    link_key = serializers.CharField(allow_null=True)


class EntriesPickSerializer(serializers.Serializer[Any]):
    entries = serializers.ListField(child=IdField(), min_length=1, max_length=10_000)


class EntriesPaidSerializer(EntriesPickSerializer):
    paid = serializers.ChoiceField(
        choices=[("", "Unpaid"), *Entry.Payment.choices],
        allow_blank=True,
        help_text='How they paid; `""` marks them unpaid.',
    )


class CountSerializer(serializers.Serializer[Any]):
    changed = serializers.IntegerField()
