"""The step log folded into states, with undo and redo as steps of their own.

History is never rewritten: an `undo` step sets aside the last effective step, a `redo`
step brings back the most recently undone one, and any other step forgets what could
be redone. Every state along the way is kept, so undo costs nothing to compute. Undo and
redo are step types like the games' own (rules/ruleset.py), registered in TIMELINE_STEPS.

Timelines share what they have in common: each effective step is an entry linked to the
one before it, so `then` costs one `apply` however long the game, and the timeline before a
step stays valid. A timeline resumed from a saved state (`Timeline.resume`) folds what came
before it only when someone needs it: an undo past that point, `steps` or `states`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from i18n import _
from rules.errors import RuleError
from rules.ruleset import BareStep, GameRules, State, Step, StepKinds

# Undo and redo, the steps of both games that act on the timeline rather than the state.
TIMELINE_STEPS = StepKinds("timeline")


@TIMELINE_STEPS.register
@dataclass(frozen=True)
class Undo(BareStep):
    """Take back the last effective step."""

    kind: ClassVar[str] = "undo"

    def apply(self, timeline: Timeline) -> Timeline:
        top = timeline._top
        if not top.depth:
            raise RuleError(_("There is nothing to undo"))
        top = top.known()
        before = top.before
        assert isinstance(before, _Entry)  # known() folded the past; depth > 0 has one
        return timeline._made(timeline.rules, before, (top, timeline._undone),
                              timeline.count + 1)


@TIMELINE_STEPS.register
@dataclass(frozen=True)
class Redo(BareStep):
    """Bring back the step most recently taken back."""

    kind: ClassVar[str] = "redo"

    def apply(self, timeline: Timeline) -> Timeline:
        undone = timeline._undone
        while isinstance(undone, _Earlier):
            undone = undone.timeline()._undone
        if undone is None:
            raise RuleError(_("There is nothing to redo"))
        again, rest = undone
        return timeline._made(timeline.rules, again, rest, timeline.count + 1)


def read_step(rules: GameRules, data: Any) -> Step:
    """A game step, or undo/redo, from its JSON object."""
    step_type = TIMELINE_STEPS.get(data.get("kind")) if isinstance(data, dict) else None
    if step_type is not None:
        step: Step = step_type.from_json(data)
        return step
    return rules.read_step(data)


class _Entry:
    """One effective step and the state after it, linked to the entry before it."""

    __slots__ = ("state", "step", "before", "depth")

    def __init__(self, state: State, step: Step | None, before: _Entry | _Earlier | None,
                 depth: int) -> None:
        self.state = state
        self.step = step
        self.before = before  # None at the start; _Earlier until a resumed past is folded
        self.depth = depth  # effective steps up to here

    def known(self) -> _Entry:
        """This entry, with its step and the entry before it folded if they were not yet."""
        if isinstance(self.before, _Earlier):
            full = self.before.timeline()._top
            if full.depth != self.depth or full.state != self.state:
                raise RuntimeError("the saved state does not match the fold of the steps")
            self.step, self.before = full.step, full.before
        return self


class _Earlier:
    """The past of a resumed timeline: folded once, the first time it is needed."""

    __slots__ = ("fold", "_timeline")

    def __init__(self, fold: Callable[[], Timeline]) -> None:
        self.fold = fold
        self._timeline: Timeline | None = None

    def timeline(self) -> Timeline:
        if self._timeline is None:
            self._timeline = self.fold()
        return self._timeline


# What redo can bring back: (entry, the rest) with the most recently undone on top; None when
# empty; _Earlier for a resumed timeline's own redo stack, not folded yet.
Undone = tuple[_Entry, "Undone"] | _Earlier | None


class Timeline:
    """The states of one game, step by step. `then` returns a new timeline; self is unchanged."""

    __slots__ = ("rules", "_top", "_undone", "count")

    def __init__(self, rules: GameRules, start: State) -> None:
        self.rules = rules
        self._top = _Entry(start, None, None, 0)
        self._undone: Undone = None
        self.count = 0  # every step recorded, undo and redo included

    @classmethod
    def resume(cls, rules: GameRules, state: State, *, count: int, depth: int,
               can_redo: bool, earlier: Callable[[], Timeline]) -> Timeline:
        """The timeline of a saved `state`, reached by `count` steps of which `depth` are
        effective. `earlier()` must give the same timeline folded from the start; it is
        called only if something needs the past (undo past this point, redo of a step
        undone before it, `steps`, `states`)."""
        past = _Earlier(earlier)
        return cls._made(rules, _Entry(state, None, past if depth else None, depth),
                         past if can_redo else None, count)

    @classmethod
    def _made(cls, rules: GameRules, top: _Entry, undone: Undone, count: int) -> Timeline:
        new = cls.__new__(cls)
        new.rules, new._top, new._undone, new.count = rules, top, undone, count
        return new

    @property
    def state(self) -> State:
        return self._top.state

    @property
    def can_undo(self) -> bool:
        return self._top.depth > 0

    @property
    def depth(self) -> int:
        """How many effective steps there are (what undo can take back), without folding."""
        return self._top.depth

    @property
    def can_redo(self) -> bool:
        return self._undone is not None

    @property
    def last_step(self) -> Step | None:
        """The last effective step (what undo takes back), None at the start."""
        return self._top.known().step if self._top.depth else None

    @property
    def steps(self) -> list[Step]:
        """The effective steps, oldest first."""
        return [entry.step for entry in self._entries()[1:] if entry.step is not None]

    @property
    def states(self) -> list[State]:
        """states[i] is the state after steps[:i]."""
        return [entry.state for entry in self._entries()]

    def then(self, step: Step) -> Timeline:
        """The timeline with `step` recorded; raises RuleError and changes nothing if it is refused."""
        if isinstance(step, Undo | Redo):
            return step.apply(self)
        top = self._top
        if top.state.finished:
            raise RuleError(_("The game is over: undo the last step to change it"))
        entry = _Entry(self.rules.apply(top.state, step), step, top, top.depth + 1)
        return self._made(self.rules, entry, None, self.count + 1)

    def _entries(self) -> list[_Entry]:
        entries: list[_Entry] = []
        entry: _Entry | _Earlier | None = self._top
        while isinstance(entry, _Entry):
            entry = entry.known()
            entries.append(entry)
            entry = entry.before  # never an _Earlier once known
        entries.reverse()
        return entries
