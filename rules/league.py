"""League points across finished games (RULES.md A.5): win 3, draw 1, loss 0."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from itertools import accumulate
from typing import Any, TypeVar

from rules.outcome import Report

T = TypeVar("T")

POINTS = {"win": 3, "draw": 1, "loss": 0}


def outcomes(report: Report) -> dict[str, str]:
    """Each player's league outcome in a finished game, from its `report`.

    A shared victory is a draw for each sharer and a loss for the others; a drawn game
    (Risk stalemate) is a draw for every player still in the game. League points never
    change the result of the game itself.
    """
    winners = set(report.winners)
    out: dict[str, str] = {}
    for standing in report.standings:
        player = standing.player
        if report.result == "win":
            out[player] = "win" if player in winners else "loss"
        elif report.result == "shared":
            out[player] = "draw" if player in winners else "loss"
        else:
            out[player] = "loss" if standing.out else "draw"
    return out


def placings(report: Report) -> dict[str, int]:
    """Each player's place in a finished game as ratings read it: their rank in its
    standings, which rules.outcome.ranks gave (1 for the best, players level share it)."""
    return {standing.player: standing.rank for standing in report.standings}


def points_over_time(histories: Mapping[str, Iterable[Any]], most: int | None = None
                     ) -> tuple[list[datetime], dict[str, list[int]]]:
    """The games these players finished, oldest first (when each finished), and each
    player's league points after each of them: a game a player was not in leaves their
    points as they were. Each player's games have `finished_at`, `session_id` and `points`.
    With `most`, at most that many of the moments are kept, evenly spaced, the first and
    the last among them (a chart is never wider than a screen)."""
    games = sorted({(g.finished_at, g.session_id) for played in histories.values()
                    for g in played})
    at = {game: i for i, game in enumerate(games)}
    lines = {}
    for player, played in histories.items():
        gained = [0] * len(games)
        for g in played:
            gained[at[g.finished_at, g.session_id]] += g.points
        lines[player] = list(accumulate(gained))
    dates = [when for when, _session in games]
    if most is not None and len(dates) > most:
        kept = thinned(range(len(dates)), most)
        dates = [dates[i] for i in kept]
        lines = {player: [line[i] for i in kept] for player, line in lines.items()}
    return dates, lines


def thinned(course: Sequence[T], most: int) -> list[T]:
    """At most `most` points of `course`, evenly spaced, its first and last kept (a chart
    is never wider than a screen)."""
    if len(course) <= most:
        return list(course)
    step = (len(course) - 1) / (most - 1)
    return [course[round(i * step)] for i in range(most)]
