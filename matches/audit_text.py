"""The audit page's sentences: each stored report said in words, with the players' names
(a submission's payload keeps ids and codes, for the machines), in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from matches.models import Match, Submission

_RESULTS = {
    "single": gettext_lazy("a single game"),
    "gammon": gettext_lazy("a gammon"),
    "backgammon": gettext_lazy("a backgammon"),
}
_ENDINGS = {
    "drop": gettext_lazy(", the double dropped"),
    "resign": gettext_lazy(", by resignation"),
}
_DECISIONS = {
    "forfeit": gettext_lazy("forfeit"),
    "walkover": gettext_lazy("walkover"),
    "score": gettext_lazy("final score"),
}


class _Names:
    def __init__(self, match: Match) -> None:
        entries = [e for e in (match.entry1, match.entry2) if e is not None]
        self.by_player = {e.player_id: e.player.name for e in entries}
        self.by_entry = {e.pk: e.player.name for e in entries}

    @staticmethod
    def _get(table: dict[int, str], value: Any) -> str:
        try:
            return table.get(int(value), _("a player not in this match"))
        except (TypeError, ValueError):
            return _("nobody named")

    def player(self, value: Any) -> str:
        return self._get(self.by_player, value)

    def entry(self, value: Any) -> str:
        return self._get(self.by_entry, value)


def _score(value: Any) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"{value[0]}\u2013{value[1]}"
    return ""


def _why(payload: dict[str, Any]) -> str:
    reason = str(payload.get("reason") or payload.get("note") or "").strip()
    return _(" (“{reason}”)").format(reason=reason) if reason else ""


def _game(names: _Names, game: dict[str, Any]) -> str:
    number = game.get("game_number")
    cube = game.get("cube", 1)
    result = _RESULTS.get(game.get("result", ""))
    text = _("{player} won {result}").format(
        player=names.player(game.get("winner")), result=result if result else _("the game")
    )
    if number:
        text = _("Game {number}: {text}").format(number=number, text=text)
    if cube and cube != 1:
        text += _(", cube {cube}").format(cube=cube)
    return text + str(_ENDINGS.get(str(game.get("ended_by", "")), ""))


def submission_sentence(match: Match, submission: Submission) -> str:
    """What ``submission`` asked for, in a sentence with names."""
    names = _Names(match)
    p: dict[str, Any] = submission.payload if isinstance(submission.payload, dict) else {}
    kind = submission.kind
    if p.get("reopen"):
        was = _DECISIONS.get(str(p.get("previous_decision", "")), _("decision"))
        winner = p.get("previous_winner")
        if winner:
            return _(
                "Reopened the {decision}, which {player} had won: the match is to be played{why}."
            ).format(decision=was, player=names.player(winner), why=_why(p))
        return _("Reopened the {decision}: the match is to be played{why}.").format(
            decision=was, why=_why(p)
        )
    if "correct_winner_entry" in p:
        score = _score(p.get("final_score"))
        return (
            _("Winner corrected to {player}").format(player=names.entry(p["correct_winner_entry"]))
            + (_(", final score {score}").format(score=score) if score else "")
            + (_(", later matches reset") if p.get("cascade") else "")
            + _("{why}.").format(why=_why(p))
        )
    if "penalty" in p:
        points = p["penalty"]
        text = ngettext(
            "{points} penalty point against {player}",
            "{points} penalty points against {player}",
            points if isinstance(points, int) else 2,
        ).format(points=points, player=names.entry(p.get("against_entry")))
        forfeit = _(": forfeit, {forfeit}").format(forfeit=p["forfeit"]) if p.get("forfeit") else ""
        return text + forfeit + _("{why}.").format(why=_why(p))
    if kind == Submission.Kind.FORFEIT:
        decision = str(_DECISIONS.get(str(p.get("decision", "")), _("decision")))
        winner = names.player(p["winner"]) if "winner" in p else names.entry(p.get("winner_entry"))
        return _("{decision} to {player}{why}.").format(
            decision=decision[:1].upper() + decision[1:], player=winner, why=_why(p)
        )
    if kind == Submission.Kind.SCORE or "final_score" in p:
        return _("Final score {score} entered{why}.").format(
            score=_score(p.get("final_score")), why=_why(p)
        )
    if kind == Submission.Kind.GAME:
        return _game(names, p) + "."
    if kind == Submission.Kind.CONFIRM:
        return _("Confirmed the result.")
    if kind == Submission.Kind.DISPUTE:
        return _("Disputed the result{why}.").format(why=_why(p))
    games = p.get("games") if isinstance(p.get("games"), list) else None
    if kind == Submission.Kind.RECORD:
        text = (
            _("Match file {name}").format(name=submission.file_name)
            if submission.file_name
            else _("Match file")
        )
        score = _score(p.get("score"))
        if games is not None:
            text += ngettext(": {count} game", ": {count} games", len(games)).format(
                count=len(games)
            )
        return text + (f", {score}" if score else "") + "."
    if kind == Submission.Kind.RESOLVE:
        if p.get("from_submission"):
            return _("Decided: the games of report v{version} adopted{why}.").format(
                version=p["from_submission"], why=_why(p)
            )
        if games is not None:
            return _("Decided: the games replaced by {count} entered{why}.").format(
                count=len(games), why=_why(p)
            )
        return _("Decided: the recorded games stand{why}.").format(why=_why(p))
    if kind == Submission.Kind.MATCH and games is not None:
        listed = "; ".join(_game(names, g) for g in games[:20] if isinstance(g, dict))
        return ngettext(
            "The whole match, {count} game: {games}.",
            "The whole match, {count} games: {games}.",
            len(games),
        ).format(count=len(games), games=listed)
    return _("{kind}.").format(kind=submission.get_kind_display())
