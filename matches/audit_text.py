"""The audit page's sentences: each stored report said in words, with the players' names
(a submission's payload keeps ids and codes, for the machines)."""

from __future__ import annotations

from typing import Any

from matches.models import Match, Submission

_RESULTS = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}
_ENDINGS = {"drop": ", the double dropped", "resign": ", by resignation"}
_DECISIONS = {"forfeit": "forfeit", "walkover": "walkover", "score": "final score"}


class _Names:
    def __init__(self, match: Match) -> None:
        entries = [e for e in (match.entry1, match.entry2) if e is not None]
        self.by_player = {e.player_id: e.player.name for e in entries}
        self.by_entry = {e.pk: e.player.name for e in entries}

    @staticmethod
    def _get(table: dict[int, str], value: Any) -> str:
        try:
            return table.get(int(value), "a player not in this match")
        except (TypeError, ValueError):
            return "nobody named"

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
    return f" (\u201c{reason}\u201d)" if reason else ""


def _game(names: _Names, game: dict[str, Any]) -> str:
    number = game.get("game_number")
    cube = game.get("cube", 1)
    text = f"Game {number}: " if number else ""
    text += (
        f"{names.player(game.get('winner'))} won {_RESULTS.get(game.get('result', ''), 'the game')}"
    )
    if cube and cube != 1:
        text += f", cube {cube}"
    return text + _ENDINGS.get(str(game.get("ended_by", "")), "")


def submission_sentence(match: Match, submission: Submission) -> str:
    """What ``submission`` asked for, in a sentence with names."""
    names = _Names(match)
    p: dict[str, Any] = submission.payload if isinstance(submission.payload, dict) else {}
    kind = submission.kind
    if p.get("reopen"):
        was = _DECISIONS.get(str(p.get("previous_decision", "")), "decision")
        winner = p.get("previous_winner")
        given = f", which {names.player(winner)} had won" if winner else ""
        return f"Reopened the {was}{given}: the match is to be played{_why(p)}."
    if "correct_winner_entry" in p:
        score = _score(p.get("final_score"))
        return (
            f"Winner corrected to {names.entry(p['correct_winner_entry'])}"
            + (f", final score {score}" if score else "")
            + (", later matches reset" if p.get("cascade") else "")
            + f"{_why(p)}."
        )
    if "penalty" in p:
        points = p["penalty"]
        text = (
            f"{points} penalty point{'s' if points != 1 else ''} against "
            f"{names.entry(p.get('against_entry'))}"
        )
        return text + (f": forfeit, {p['forfeit']}" if p.get("forfeit") else "") + f"{_why(p)}."
    if kind == Submission.Kind.FORFEIT:
        decision = _DECISIONS.get(str(p.get("decision", "")), "decision")
        winner = names.player(p["winner"]) if "winner" in p else names.entry(p.get("winner_entry"))
        return f"{decision.capitalize()} to {winner}{_why(p)}."
    if kind == Submission.Kind.SCORE or "final_score" in p:
        return f"Final score {_score(p.get('final_score'))} entered{_why(p)}."
    if kind == Submission.Kind.GAME:
        return _game(names, p) + "."
    if kind == Submission.Kind.CONFIRM:
        return "Confirmed the result."
    if kind == Submission.Kind.DISPUTE:
        return f"Disputed the result{_why(p)}."
    games = p.get("games") if isinstance(p.get("games"), list) else None
    if kind == Submission.Kind.RECORD:
        text = f"Match file {submission.file_name}" if submission.file_name else "Match file"
        score = _score(p.get("score"))
        if games is not None:
            text += f": {len(games)} game{'s' if len(games) != 1 else ''}"
        return text + (f", {score}" if score else "") + "."
    if kind == Submission.Kind.RESOLVE:
        if p.get("from_submission"):
            return f"Decided: the games of report v{p['from_submission']} adopted{_why(p)}."
        if games is not None:
            return f"Decided: the games replaced by {len(games)} entered{_why(p)}."
        return f"Decided: the recorded games stand{_why(p)}."
    if kind == Submission.Kind.MATCH and games is not None:
        listed = "; ".join(_game(names, g) for g in games[:20] if isinstance(g, dict))
        return f"The whole match, {len(games)} game{'s' if len(games) != 1 else ''}: {listed}."
    return submission.get_kind_display() + "."
