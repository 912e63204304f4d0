"""League points across finished games (RULES.md A.5): win 3, draw 1, loss 0."""

from __future__ import annotations

from rules.outcome import Report

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
