"""The games, by the tag the session file gives them: the rules' registry.

Each game's rules are one `GameRules` value of the same shape (rules/ruleset.py): read its
settings, seats and steps from JSON, fold the steps over the start state, report. A game
joins with `register` (its names, for what lists games without loading their rules, go to
rules/names.py with it); its screens join tui/games the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from i18n import _
from rules.errors import RuleError
from rules.fields import or_list
from rules.names import GAME_NAMES, PHASE_NAMES, SHORT_NAMES, game_name
from rules.risk import RISK
from rules.ruleset import GameRules, State, Step
from rules.soe import SOE
from rules.timeline import Timeline

GAMES: dict[str, GameRules] = {rules.game: rules for rules in (SOE, RISK)}

__all__ = ["GAMES", "GameRules", "State", "Step", "describe_history", "game_name", "read_board",
           "register",
           "rules_for", "unregister"]


def register(rules: GameRules, *, short_name: str | None = None) -> GameRules:
    """`rules` become a game of this registry, under their tag; `short_name` is how players
    write its name where room is short (its name, if not given)."""
    GAMES[rules.game] = rules
    GAME_NAMES[rules.game] = rules.name
    SHORT_NAMES[rules.game] = short_name or rules.name
    PHASE_NAMES[rules.game] = dict(rules.phase_names)
    return rules


def unregister(game: str) -> None:
    """The game tagged `game` leaves the registry (a test's own game)."""
    for known in (GAMES, GAME_NAMES, SHORT_NAMES, PHASE_NAMES):
        known.pop(game, None)


def rules_for(game: Any) -> GameRules:
    """The rules of the game tagged `game`."""
    rules = GAMES.get(game) if isinstance(game, str) else None
    if rules is None:
        raise RuleError(_("game must be {games}, not {value}").format(
            games=or_list(GAMES), value=repr(game)))
    return rules


def read_board(name: Any, regions: Any) -> tuple[str, dict[str, list[int]]]:
    """A board profile checked by the game that keeps them (its `read_board`): its name as
    stored and its regions; RuleError where none does."""
    for rules in GAMES.values():
        if rules.read_board is not None:
            return rules.read_board(name, regions)
    raise RuleError(_("no game here keeps board profiles"))


def describe_history(rules: GameRules, settings: Any, seats: tuple[Any, ...],
                     steps: Iterable[Step]) -> list[str]:
    """One line per recorded step (undo and redo included), in the players' words: the
    steps are folded from the start and each is told from the states before and after it.
    An undo or redo line begins with the number of the step it takes back or brings back
    ("Undo of #7: war 2 at upkeep; ..."), numbered from 1 like the recorded steps."""
    timeline = Timeline(rules, rules.start(settings, seats))
    done: list[int] = []  # the numbers of the effective steps, latest last
    undone: list[int] = []  # the numbers of the steps taken back, latest last
    said = []
    for number, step in enumerate(steps, 1):
        before = timeline.state
        timeline = timeline.then(step)
        line = rules.describe(before, step, timeline.state)
        if step.kind == "undo":
            undone.append(done.pop())
            # TRANSLATORS: a history line: {number} is the step taken back, {line} where
            # the game now stands and what changed.
            line = _("Undo of #{number}: {line}").format(number=undone[-1], line=line)
        elif step.kind == "redo":
            done.append(undone.pop())
            # TRANSLATORS: a history line: {number} is the step brought back, {line} where
            # the game now stands and what changed.
            line = _("Redo of #{number}: {line}").format(number=done[-1], line=line)
        else:
            done.append(number)
            undone.clear()  # a new step forgets what could be redone, as the timeline does
        said.append(line)
    return said
