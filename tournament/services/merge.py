"""A directors' "these two are one person": two player records of a tournament become one.

The one kept (``keep``) takes the other's entries (with their matches and results), its
private links (a tournament where both have one keeps the kept player's link; the other
link's key still opens it, as an entry's older key does), its account, the audit of
earlier merges into it, its notices and its forbidden pairs; ratings are recomputed from
the results; the other record is removed. One transaction, written to ``PlayerMerge``
(who, when, what moved). Refused, and nothing changes, when:

- it is one record (``same-player``), the record that goes is not in the tournament, or
  the one kept is not one the director may see (404; it may be a returning player of
  another tournament);
- the director does not direct every tournament of the record that goes
  (``player-not-yours``: staff, or those directors, merge it);
- both have an account (``two-accounts``);
- both are drawn in one event (``both-drawn``: each has matches in it, and a person
  cannot be both sides of a bracket; correct the draw or withdraw one first) or are both
  entered in one event that is drawn.

Both entered in one event before its draw: the one with fewer rights is dropped (an
entry withdrawn or waiting before one that holds a place), and the waiting list moves up
if a place was freed.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from matches.errors import Forbidden, NotFound, refuse
from matches.models import AnalysisFigures, Match
from tournament import page_cache
from tournament.models import (
    Entry,
    Event,
    ForbiddenPair,
    Notice,
    Player,
    PlayerLink,
    PlayerMerge,
    Tournament,
    User,
)
from tournament.services.common import ACTIVE, event_lock
from tournament.services.players import players_seen_by
from tournament.services.ratings import ratings_recompute
from tournament.services.waiting_list import waiting_promote

log = logging.getLogger(__name__)

#: Which of two entries of one event before its draw is kept: the lower rank.
_RANK = {
    Entry.Status.CHECKED_IN: 0,
    Entry.Status.REGISTERED: 1,
    Entry.Status.PENDING: 2,
    Entry.Status.WAITING: 3,
    Entry.Status.ELIMINATED: 4,
    Entry.Status.WITHDRAWN: 5,
}


def players_merge(
    *, tournament: Tournament, keep: Player, other: Player, by: User | None = None
) -> PlayerMerge:
    """Make ``other`` part of ``keep`` (see the module); the audit record."""
    from tournament.selectors import user_may_change_player_identity

    if keep.pk == other.pk:
        raise refuse(_("That is the same player: choose another one."), code="same-player")
    with transaction.atomic():
        if not Entry.objects.filter(event__tournament=tournament, player_id=other.pk).exists():
            raise NotFound(
                _("No player record {other_pk} in {tournament_name}.").format(
                    other_pk=other.pk, tournament_name=tournament.name
                )
            )
        if not players_seen_by(by).filter(pk=keep.pk).exists():
            raise NotFound(_("No player record {keep_pk}.").format(keep_pk=keep.pk))
        if by is not None and not user_may_change_player_identity(by, other):
            raise Forbidden(
                _(
                    "{other_name} (record {other_pk}) also plays in tournaments you "
                    "do not direct: only staff or the directors of every "
                    "tournament they are in merge that record. Merge the other "
                    "way round (keep {other_name}), or ask staff."
                ).format(other_name=other.name, other_pk=other.pk),
                code="player-not-yours",
            )
        event_ids = sorted(
            set(
                Entry.objects.filter(player__in=(keep.pk, other.pk)).values_list(
                    "event_id", flat=True
                )
            )
        )
        for event_id in event_ids:  # events first, by id (see event_lock)
            event_lock(event_id)
        players = {
            p.pk: p
            for p in Player.objects.select_for_update(no_key=True).filter(
                pk__in=(keep.pk, other.pk)
            )
        }
        keep, other = players[keep.pk], players[other.pk]
        if keep.user_id and other.user_id:
            raise refuse(
                _("{keep_name} and {other_name} each have an account: staff merge those.").format(
                    keep_name=keep.name, other_name=other.name
                ),
                code="two-accounts",
            )
        dropped, freed = _shared_events(keep, other)
        moved = list(Entry.objects.filter(player=other).order_by("pk").values_list("pk", flat=True))
        Entry.objects.filter(pk__in=moved).update(player=keep)
        links = _links(keep, other)
        AnalysisFigures.objects.filter(player=other).update(player=keep)
        # What else names the record that goes follows it, rather than going with it: the
        # audit of earlier merges into it, the notices sent to it (their corrections are
        # still owed) and the pairs a director keeps apart.
        PlayerMerge.objects.filter(kept=other).update(kept=keep)
        Notice.objects.filter(player=other).update(player=keep)
        _forbidden_pairs(keep, other)
        if other.user_id:
            user_id, other.user = other.user_id, None
            other.save(update_fields=["user"])
            keep.user_id = user_id
            keep.save(update_fields=["user"])
        record = PlayerMerge.objects.create(
            tournament=tournament,
            kept=keep,
            removed_id=other.pk,
            removed_name=other.name,
            removed_email=other.email,
            moved={"entries": moved, "dropped": dropped, "links": links},
            by=by if by is not None and by.is_authenticated else None,
        )
        other.delete()
        record.moved["rated_matches"] = ratings_recompute()
        record.save(update_fields=["moved"])
        for event in Event.objects.filter(pk__in=freed).order_by("pk"):
            waiting_promote(event=event)
        for tournament_id, ids in _events_by_tournament(event_ids).items():
            page_cache.invalidate_tournament_on_commit(tournament_id, ids)
    log.warning(
        "players merged: %s (record %s) into record %s in tournament %s by user %s",
        record.removed_name,
        record.removed_id,
        keep.pk,
        tournament.pk,
        getattr(by, "pk", None),
    )
    return record


def _shared_events(keep: Player, other: Player) -> tuple[list[int], list[int]]:
    """Settle the events both are entered in (or refuse): the entries dropped, and the
    events where a place was freed."""
    mine = {e.event_id: e for e in Entry.objects.select_related("event").filter(player=keep)}
    dropped: list[int] = []
    freed: list[int] = []
    for theirs in (
        Entry.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .filter(player=other, event_id__in=list(mine))
        .order_by("event_id")
    ):
        own = mine[theirs.event_id]
        event = theirs.event
        played = {
            e.pk for e in (own, theirs) if Match.objects.filter(Q(entry1=e) | Q(entry2=e)).exists()
        }
        if len(played) == 2:
            raise refuse(
                _(
                    "{keep_name} and {other_name} are both drawn in {event_name} "
                    "(each has matches there): one person cannot be both. "
                    "Withdraw one of them there (or correct the draw) before "
                    "merging."
                ).format(keep_name=keep.name, other_name=other.name, event_name=event.name),
                code="both-drawn",
                event=event.pk,
            )
        if not played and event.status != Event.Status.REGISTRATION:
            raise refuse(
                _(
                    "{keep_name} and {other_name} are both entered in "
                    "{event_name}, which is drawn: withdraw one of them there "
                    "before merging."
                ).format(keep_name=keep.name, other_name=other.name, event_name=event.name),
                code="both-drawn",
                event=event.pk,
            )
        if played:
            drop = theirs if own.pk in played else own
        else:
            drop = (
                own
                if _RANK.get(Entry.Status(own.status), 9)
                > _RANK.get(Entry.Status(theirs.status), 9)
                else theirs
            )
        if drop.status in ACTIVE:
            freed.append(event.pk)
        dropped.append(drop.pk)
        drop.delete()  # if it is the kept player's, theirs moves with the others
    return dropped, freed


#: How strict a forbidden pair is, per setting: the stricter of two merged pairs stays.
_STRICT = {
    ForbiddenPair.Strength.AVOID: 0,
    ForbiddenPair.Strength.ABSOLUTE: 1,
    ForbiddenPair.Rounds.FIRST: 0,
    ForbiddenPair.Rounds.ALL: 1,
}


def _forbidden_pairs(keep: Player, other: Player) -> None:
    """``other``'s forbidden pairs become ``keep``'s: one that paired the two records goes
    (one person is not kept apart from themselves), and where ``keep`` already has that
    pair in that event the stricter settings of the two stay on it."""
    pairs = ForbiddenPair.objects.select_for_update(no_key=True)
    for pair in pairs.filter(Q(player_a=other) | Q(player_b=other)).order_by("pk"):
        mate = pair.player_b_id if pair.player_a_id == other.pk else pair.player_a_id
        if mate == keep.pk:
            pair.delete()
            continue
        low, high = sorted((keep.pk, mate))
        existing = pairs.filter(event_id=pair.event_id, player_a_id=low, player_b_id=high).first()
        if existing is None:
            pair.player_a_id, pair.player_b_id = low, high
            pair.save(update_fields=["player_a", "player_b"])
            continue
        for name in ("strength", "rounds"):
            if _STRICT[getattr(pair, name)] > _STRICT[getattr(existing, name)]:
                setattr(existing, name, getattr(pair, name))
        existing.save(update_fields=["strength", "rounds"])
        pair.delete()


def _links(keep: Player, other: Player) -> list[int]:
    """Move ``other``'s private links to ``keep``: where both have one, the kept one
    stays, with the other's contact if it had none, and notices off if either turned
    them off. The tournaments whose link moved or merged."""
    done = []
    kept = {link.tournament_id: link for link in PlayerLink.objects.filter(player=keep)}
    for link in PlayerLink.objects.select_for_update(no_key=True).filter(player=other):
        contact = link.email or other.email
        contact = "" if contact.casefold() == keep.email.casefold() else contact
        mine = kept.get(link.tournament_id)
        if mine is None:
            link.player = keep
            link.email = contact
            link.save(update_fields=["player", "email"])
        else:
            mine.email = mine.email or contact
            mine.notify = mine.notify and link.notify
            mine.save(update_fields=["email", "notify"])
            link.delete()
        done.append(link.tournament_id)
    return done


def _events_by_tournament(event_ids: list[int]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for pk, tournament_id in Event.objects.filter(pk__in=event_ids).values_list(
        "pk", "tournament_id"
    ):
        found.setdefault(tournament_id, []).append(pk)
    return found
