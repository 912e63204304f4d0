"""The step log folded into states, with undo and redo as steps of their own.

History is never rewritten: an `undo` step sets aside the last effective step, a `redo`
step brings back the most recently undone one, and any other step forgets what could
be redone. Every state along the way is kept, so undo costs nothing to compute.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.errors import RuleError
from rules.fields import obj
from rules.game import GameRules, State, Step


@dataclass(frozen=True)
class Undo:
    """Take back the last effective step."""

    kind: ClassVar[str] = "undo"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Redo:
    """Bring back the step most recently taken back."""

    kind: ClassVar[str] = "redo"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


def read_step(rules: GameRules, data: Any) -> Step:
    """A game step, or undo/redo, from its JSON object."""
    if isinstance(data, dict) and data.get("kind") in ("undo", "redo"):
        obj(data, f"{data['kind']} step", {"kind"})
        return Undo() if data["kind"] == "undo" else Redo()
    return rules.read_step(data)


class Timeline:
    """The states of one game, step by step. `then` returns a new timeline; self is unchanged."""

    __slots__ = ("rules", "states", "steps", "undone", "count")

    def __init__(self, rules: GameRules, start: State) -> None:
        self.rules = rules
        self.states: list[State] = [start]  # states[i] is the state after steps[:i]
        self.steps: list[Step] = []  # effective steps
        self.undone: list[tuple[Step, State]] = []  # what redo can bring back, last on top
        self.count = 0  # every step recorded, undo and redo included

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def can_undo(self) -> bool:
        return bool(self.steps)

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def then(self, step: Step) -> Timeline:
        """The timeline with `step` recorded; raises RuleError and changes nothing if it is refused."""
        new = self._copy()
        if isinstance(step, Undo):
            if not new.steps:
                raise RuleError("There is nothing to undo")
            new.undone.append((new.steps.pop(), new.states.pop()))
        elif isinstance(step, Redo):
            if not new.undone:
                raise RuleError("There is nothing to redo")
            again, state = new.undone.pop()
            new.steps.append(again)
            new.states.append(state)
        else:
            if self.state.finished:
                raise RuleError("The game is over: undo the last step to change it")
            new.states.append(self.rules.apply(self.state, step))
            new.steps.append(step)
            new.undone.clear()
        new.count += 1
        return new

    def _copy(self) -> Timeline:
        new = Timeline.__new__(Timeline)
        new.rules = self.rules
        new.states = list(self.states)
        new.steps = list(self.steps)
        new.undone = list(self.undone)
        new.count = self.count
        return new
