"""What every game says of a game, in one shape: where it stands (`Progress`), the line the
saved-games list shows (`Summary`), and its standings and result (`Report`).

The shared screens, the league and the command line read these fields and nothing else; a
game's own figures (a Struggle of Empires power's gold, a Risk player's continents) ride in
`Standing.details` under their session-file names, for the tables and files that show them
column by column.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rules.progress import FINISHED, IMPORTED, IN_PROGRESS, Progress, Summary

__all__ = ["FINISHED", "IMPORTED", "IN_PROGRESS", "Placing", "Progress", "Report", "Standing",
           "Summary", "ranks"]


@dataclass(frozen=True)
class Standing:
    """One player's place in a game."""

    player: str
    rank: int  # where they finished, as `ranks` puts them: tied players share a rank
    # Out of the game before its end (eliminated, conceded, in revolution): in a drawn
    # game everyone else draws and they lose.
    out: bool
    score: int | None  # what the game ranks by (final VP, a Risk score); None if it has none
    # The game's own figures, under their session-file names, in the order files list them.
    details: Mapping[str, Any] = field(default_factory=dict)
    # What they played as, by its stored id: a Struggle of Empires power, a Risk colour.
    side: str | None = None
    # When they went out: 0 if still in at the end, else 1 for the first out, 2 for the
    # next; players who went out together share a number. `ranks` puts the later out higher.
    went_out: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, **self.details, "rank": self.rank}


class Placing(NamedTuple):
    """What places a player in a game: whether they are among its winners, when they went
    out (Standing.went_out) and, among the others still in, the game's own order of them
    (final VP, the Risk chain, a score): a higher `ahead` is better, equal is level."""

    player: str
    won: bool
    went_out: int
    ahead: tuple[Any, ...]


def ranks(placings: Iterable[Placing], drawn: bool) -> dict[str, int]:
    """The one ranking of a game, finished or not: each player's rank, 1 + the number of
    players strictly ahead, so players level share a rank. Every standing, the results
    screen, the files written (CSV, JSON, BoardGameGeek, BG Stats), the league's places and
    the ratings read it from here (RULES.md A.5, README "Ratings").

    The winners come first (a shared win is a tie for first); in a drawn game everyone
    still in ties for first. The others still in follow in the game's own order (`ahead`).
    Players who went out before the end come below everyone still in, the last out
    highest: eliminated or conceded Risk players in the reverse of the order they went
    out, Struggle of Empires players in revolution together at the bottom.
    """
    placings = list(placings)

    def key(p: Placing) -> tuple[Any, ...]:
        if p.went_out:
            return (0, p.went_out)
        if p.won or drawn:
            return (2, ())
        return (1, p.ahead)

    keys = {p.player: key(p) for p in placings}
    return {player: 1 + sum(other > mine for other in keys.values())
            for player, mine in keys.items()}


@dataclass(frozen=True)
class Report:
    """A game's standings and result; `replay --json` prints `to_json()` (DESIGN.md)."""

    game: str  # the rules' tag
    status: str  # FINISHED or IN_PROGRESS
    result: str | None  # "win", "shared" or "draw" once finished
    format: str | None  # how it was decided (RULES.md A.5) once finished
    rounds: int  # how many of `unit` the game has gone
    unit: str  # what `rounds` counts: "war", "round"
    winners: tuple[str, ...]
    standings: tuple[Standing, ...]  # ranked, best first
    progress: Progress | None  # where it stands while in progress; None once finished
    # The game's own keys of the JSON while in progress (the war, the rounds completed).
    more: Mapping[str, Any] = field(default_factory=dict)
    # It ended in a stalemate (RULES.md A.4), which `format` does not say when the position
    # was scored (fixed_round); the screens and printed results name it. Not in the JSON.
    stalemate: bool = False

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game, "status": self.status, "result": self.result,
            "format": self.format, "rounds": self.rounds, "winners": list(self.winners),
            "standings": [s.to_json() for s in self.standings],
        }
        if self.progress is not None:
            out["phase"] = self.progress.phase
            out.update(self.more)
        return out
