"""Pairing a round in the background, with its progress, for fields too large to pair
inside a request (``tournament.services.pairing_jobs``): the outbox runs it."""

from __future__ import annotations

from matches.errors import AppError
from tournament import outbox
from tournament.models import Event, User
from tournament.services.pairing_jobs import JOB_LEASE, pairing_job_current, pairing_job_save
from tournament.services.rounds import event_next_round
from tournament.tasks.typed import task

outbox.long_task(outbox.PAIR_TASK, first_lease=JOB_LEASE)


@task(name="tournament.tasks.pair_next_round")
def pair_next_round(
    event_id: int,
    relax: list[int],
    user_id: int | None = None,
    job: str | None = None,
    keep: list[int] | None = None,
) -> str:
    """Pair and start the next round of ``event_id``; the progress and the answer (the
    round, or the refusal with its detail) go to the cache for the API to show.

    ``job``: the token of the job the outbox row carries; a run of a job that finished or
    that a newer one replaced does nothing (the outbox may run a row twice)."""
    if job is not None and not pairing_job_current(event_id, job):
        return "done already"
    messages: list[str] = []

    def progress(message: str) -> None:
        messages.append(message)
        pairing_job_save(event_id, {"state": "running", "messages": messages[-20:]})

    progress("queued job started")
    event = Event.objects.get(pk=event_id)
    by = User.objects.filter(pk=user_id).first() if user_id else None
    try:
        round_ = event_next_round(
            event=event, by=by, relax=relax, keep=keep or [], progress=progress
        )
    except AppError as err:
        pairing_job_save(
            event_id,
            {
                "state": "refused",
                "messages": messages[-20:],
                "error": {"code": err.code, "message": str(err), "detail": err.detail},
            },
        )
        return "refused"
    pairing_job_save(
        event_id,
        {
            "state": "done",
            "messages": messages[-20:],
            "round": round_.number,
            "round_id": round_.pk,
        },
    )
    return "done"
