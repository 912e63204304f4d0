"""The two games, by the tag the session file gives them ("soe", "risk").

Each game's rules are one `GameRules` value of the same shape (rules/ruleset.py): read its
settings, seats and steps from JSON, fold the steps over the start state, report.
"""

from __future__ import annotations

from typing import Any

from rules.errors import RuleError
from rules.risk import RISK
from rules.ruleset import GameRules, State, Step
from rules.soe import SOE

GAMES: dict[str, GameRules] = {rules.game: rules for rules in (SOE, RISK)}

__all__ = ["GAMES", "GameRules", "State", "Step", "game_name", "rules_for"]


def rules_for(game: Any) -> GameRules:
    """The rules of the game tagged `game` ("soe" or "risk")."""
    rules = GAMES.get(game) if isinstance(game, str) else None
    if rules is None:
        raise RuleError(f"game must be soe or risk, not {game!r}")
    return rules


def game_name(game: str) -> str:
    """The game's name as players know it; a tag no rules know is shown as it is."""
    rules = GAMES.get(game)
    return rules.name if rules else game
