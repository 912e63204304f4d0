"""A finished game as the group's statistics read it: who sat where, as what, where they
finished and with what score. The ledger reads these from its results (storage), the
ratings (rules/ratings.py) and the group's statistics (rules/stats.py) fold them; nothing
here knows a database or a screen."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple

from rules.league import outcomes, placings
from rules.outcome import Report


class Finish(NamedTuple):
    """One player's finish in one finished game. (Tuples: a year of games is read into
    tens of thousands of these, and a tuple is made several times faster than a frozen
    dataclass.)"""

    player: str
    seat: int  # 0 for the first seat, in table order
    side: str | None  # what they played as (a power, a colour), by its stored id
    place: int  # 1 for the best; players level share a place (rules.league.placings)
    outcome: str  # the league's: win, draw or loss
    won: bool  # among the winners (a shared win too)
    score: int | None  # final VP, a Risk score; None where the game has none


class FinishedGame(NamedTuple):
    """A finished game, as statistics need it. `key` tells games apart (the game's number
    in its database); games are taken in the order (finished_at, key)."""

    key: int
    game: str  # the rules' tag
    finished_at: datetime
    finishes: tuple[Finish, ...]  # in seat order

    @property
    def order(self) -> tuple[datetime, int]:
        return (self.finished_at, self.key)


def finishes_of(report: Report, seats: Mapping[str, int]) -> tuple[Finish, ...]:
    """Each player's finish from a finished game's report and each player's seat number."""
    places, got, winners = placings(report), outcomes(report), set(report.winners)
    rows = [Finish(s.player, seats[s.player], s.side, places[s.player], got[s.player],
                   s.player in winners, s.score) for s in report.standings]
    return tuple(sorted(rows, key=lambda f: f.seat))


def finish_json(finish: Finish) -> dict[str, Any]:
    return {"player": finish.player, "seat": finish.seat, "side": finish.side,
            "place": finish.place, "outcome": finish.outcome, "won": finish.won,
            "score": finish.score}
