"""What the tournament's services announce: the receivers beside the email tasks
(``tournament.tasks.notifications``) queue them, so the services import no task.

Each ``announce_*`` sends its signal inside the caller's transaction: the receivers write
the work to the outbox (``tournament.outbox``), which commits or rolls back with it.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Matches became ready to play. Keyword: ``match_ids``.
matches_ready = Signal()

#: Something was taken back in these events (a reopened walkover or forfeit, a corrected
#: winner, an undone withdrawal): a "your next match" notice may no longer hold.
#: Keyword: ``event_ids``.
notices_stale = Signal()

#: Open matches, whose players were already told, were put at a table (numbered after
#: the round started, or moved). Keyword: ``match_ids``.
tables_given = Signal()

#: A director asked to email players their private links. Keywords: ``link_ids``,
#: ``again`` (send a key that was sent before).
player_links_sent = Signal()

#: A new director should get the link to set their password. Keywords:
#: ``tournament_id``, ``user_id``, ``by_id`` (``None`` when nobody is named).
director_invited = Signal()

#: A sign-up's notice is due (entered, waiting with its place, pending, moved up).
#: Keywords: ``entry_id``, ``notice``, ``position``.
signup_notice = Signal()

#: A public sign-up was asked: its address gets the link to confirm it (or is told it is
#: signed up already). Keyword: ``request_id``.
signup_mail = Signal()


def announce_matches_ready(match_ids: list[int]) -> None:
    """Tell the players of ``match_ids`` that their match is ready, once the caller commits."""
    ids = list(match_ids)
    if ids:
        matches_ready.send(sender=None, match_ids=ids)


def announce_tables_given(match_ids: list[int]) -> None:
    """Tell the players of the open ``match_ids`` their table, once the caller commits."""
    ids = list(match_ids)
    if ids:
        tables_given.send(sender=None, match_ids=ids)


def announce_player_links(link_ids: list[int], *, again: bool = False) -> None:
    """Send the private links ``link_ids`` to their players, once the caller commits
    (``again``: even a key that was sent before)."""
    ids = list(link_ids)
    if ids:
        player_links_sent.send(sender=None, link_ids=ids, again=again)


def announce_director_invited(tournament_id: int, user_id: int, by_id: int | None) -> None:
    """Send a new director the link to set their password, once the caller commits."""
    director_invited.send(sender=None, tournament_id=tournament_id, user_id=user_id, by_id=by_id)


def announce_signup_notice(entry_id: int, notice: str, position: int | None = None) -> None:
    """Send a sign-up's notice (``notice``: entered, waiting, pending, moved up), once the
    caller commits."""
    signup_notice.send(sender=None, entry_id=entry_id, notice=notice, position=position)


def announce_signup_mail(request_id: int) -> None:
    """Mail a sign-up's address the link to confirm it, once the caller commits."""
    signup_mail.send(sender=None, request_id=request_id)


def announce_notices_stale(event_ids: list[int]) -> None:
    """Have every sent notice of ``event_ids`` that no longer holds corrected, once the
    caller commits (any service that takes back a match or a seat calls it)."""
    ids = list(event_ids)
    if ids:
        notices_stale.send(sender=None, event_ids=ids)
