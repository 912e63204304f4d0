"""How a Risk game went, round by round: each player's fixed-round score, or territories,
after every round whose positions were entered (RULES.md A.2.3). The state keeps only
the latest positions, so the rounds are read back from the timeline of states."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from rules.risk.board import Position
from rules.risk.state import RiskState
from rules.risk.steps import RoundStep
from rules.timeline import Timeline


@dataclass(frozen=True)
class ByRound:
    """`rounds` are the round numbers with positions; `values[player][i]` is the player's
    figure after `rounds[i]` (0 once out of the game), players in seat order."""

    rounds: tuple[int, ...]
    values: dict[str, tuple[int, ...]]


def score_by_round(timeline: Timeline) -> ByRound:
    """Each player's score (territories + continent bonuses + armies // 5) by round."""
    return by_round(timeline, lambda pos: pos.score)


def territories_by_round(timeline: Timeline) -> ByRound:
    """Each player's territories by round."""
    return by_round(timeline, lambda pos: pos.territories)


def by_round(timeline: Timeline, figure: Callable[[Position], int]) -> ByRound:
    """`figure` of each player's position after every round step that carried positions
    (a round closed without them says nothing about the board). Undone steps are not
    in the timeline, so they are not counted. Reading the past of a resumed timeline may
    fold the game from its steps: call it off the event loop."""
    states = cast("list[RiskState]", timeline.states)  # a Risk game's timeline
    seats = [seat.name for seat in states[0].seats]
    rounds: list[int] = []
    values: dict[str, list[int]] = {name: [] for name in seats}
    for step, after in zip(timeline.steps, states[1:], strict=True):
        if not isinstance(step, RoundStep) or step.positions is None:
            continue
        rounds.append(after.round)
        for name in seats:
            pos = after.positions.get(name)
            values[name].append(figure(pos) if pos is not None else 0)
    return ByRound(tuple(rounds), {name: tuple(v) for name, v in values.items()})
