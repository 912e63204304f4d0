"""What every game's rules provide, and the registry of the two games.

A game is a set of pure functions over small frozen values:
settings and seats are read from the session file's JSON, steps are read one at a time,
and the state is a fold of the steps over the start state (`apply`).
"""

from __future__ import annotations

from typing import Any, Protocol

from rules.errors import RuleError


class Step(Protocol):
    """One confirmed entry. `kind` is its JSON tag; `to_json` gives the session-file object."""

    kind: str

    def to_json(self) -> dict[str, Any]: ...


class State(Protocol):
    """A game's state after some steps. `phase` names the step the table is at."""

    phase: str
    finished: bool


class GameRules(Protocol):
    """The rules of one game, as pure functions."""

    game: str  # "soe" or "risk": the tag in the session file
    name: str  # shown to players

    def read_settings(self, data: Any) -> Any:
        """Settings from JSON (missing keys take their defaults); `.to_json()` gives them back."""

    def read_players(self, data: Any, settings: Any) -> tuple:
        """The seats, in table order; each seat has `name` and `.to_json()`."""

    def read_step(self, data: Any) -> Step:
        """One step from its JSON object; raises RuleError on a malformed object."""

    def start(self, settings: Any, seats: tuple) -> State:
        """The state before any step."""

    def apply(self, state: State, step: Step) -> State:
        """The state after `step`; raises RuleError, naming player and number, if it breaks a rule."""

    def report(self, state: State) -> dict[str, Any]:
        """The `replay --json` object: status, result, format, rounds, winners, standings."""

    def summary(self, state: State) -> dict[str, Any]:
        """A short description for lists: phase, war or round, leader."""


def rules_for(game: Any) -> GameRules:
    """The rules of the game tagged `game` ("soe" or "risk")."""
    if game == "soe":
        from rules.soe import SOE

        return SOE
    if game == "risk":
        from rules.risk import RISK

        return RISK
    raise RuleError(f"game must be soe or risk, not {game!r}")
