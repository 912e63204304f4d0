"""The shape both games' rules share: a registry of step types, and one `GameRules` value.

A game is a package (rules/soe, rules/risk) of modules named in its own words: its board,
settings and seats, steps, state and fold, scoring. Its `__init__` gathers the module
functions into one `GameRules`, so the ledger, the session file and the screens treat every
game alike.

A step type is a small frozen dataclass that keeps everything about one kind of step in
one place: its JSON tag (`kind`), its reading (`from_json`), its writing (`to_json`) and
its rule (`apply`, which checks the step against the state and returns the next state).
It joins its game with the game's `@STEPS.register` decorator::

    @STEPS.register
    @dataclass(frozen=True)
    class Truce:
        kind: ClassVar[str] = "truce"
        ...
        @classmethod
        def from_json(cls, data: Any) -> Truce: ...
        def to_json(self) -> dict[str, Any]: ...
        def apply(self, state: SoeState) -> SoeState: ...

A step that is nothing but its kind (population, end_war, undo) takes its reading and
writing from `BareStep` and writes only `apply`.

The decorator is the whole of adding a step kind to the code: the game's `read_step` looks
the kind up in the registry, its fold calls `apply`. tests/test_rules_reference.py asks the
registries for every kind and fails until the new one has its line in rules/README.md and
a worked example there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from i18n import _
from rules.fields import obj
from rules.outcome import Report, Summary


class Step(Protocol):
    """One confirmed entry. `kind` is its JSON tag; `to_json` gives the session-file object."""

    kind: ClassVar[str]

    def to_json(self) -> dict[str, Any]: ...


class State(Protocol):
    """A game's state after some steps. `phase` names the step the table is at."""

    @property
    def phase(self) -> str: ...

    @property
    def finished(self) -> bool: ...


StepType = TypeVar("StepType", bound=type)


class StepKinds:
    """The step types of one game (or of the timeline: undo, redo), by their `kind`."""

    def __init__(self, owner: str) -> None:
        self.owner = owner  # "Struggle of Empires", "Risk", "the timeline": for messages
        self._types: dict[str, type[Any]] = {}

    def register(self, step_type: StepType) -> StepType:
        """Class decorator: `step_type` becomes a step of this registry, under its `kind`.

        The kinds keep the order they are registered in (the order messages list them in)."""
        kind = getattr(step_type, "kind", None)
        if not isinstance(kind, str) or kind in self._types:
            raise TypeError(f"{step_type.__name__}: every {self.owner} step type needs a kind "
                            f"of its own, not {kind!r}")
        for part in ("from_json", "to_json", "apply"):
            if not callable(getattr(step_type, part, None)):
                raise TypeError(f"{step_type.__name__}: a step type needs {part}")
        self._types[kind] = step_type
        return step_type

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every kind registered, in the order registered."""
        return tuple(self._types)

    def get(self, kind: object) -> type[Any] | None:
        """The step type of `kind`, or None (also for a kind that is not even a text)."""
        return self._types.get(kind) if isinstance(kind, str) else None

    def holds(self, step: object) -> bool:
        """Whether `step` is a value of one of the types registered here."""
        return self.get(getattr(step, "kind", None)) is type(step)

    def __iter__(self) -> Iterator[type[Any]]:
        return iter(self._types.values())

    def __repr__(self) -> str:
        return f"StepKinds({self.owner!r}: {', '.join(self._types)})"


class BareStep:
    """The reading and writing of a step that is nothing but its kind ({"kind": "undo"});
    a frozen dataclass with a `kind` takes them from here and adds its `apply`."""

    kind: ClassVar[str]

    @classmethod
    def from_json(cls, data: Any) -> Any:
        """The step from its JSON object, which holds no key but 'kind'."""
        # TRANSLATORS: a step of the session file, by its kind as the file writes it
        # ("undo step", "population step").
        obj(data, _("{kind} step").format(kind=cls.kind), {"kind"})
        return cls()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


def no_heading(column: str) -> str | None:
    """A game with no columns of its own in the printed standings."""
    return None


def as_stored(column: str, value: str) -> str:
    """A game whose standings show their values as they are stored."""
    return value


def no_word(word: str) -> str | None:
    """A word that is not the game's own: the shared code says it, or shows it as it is."""
    return None


@dataclass(frozen=True)
class Words:
    """A game's own words for what the shared screens and the command line show of its
    games: each takes the session file's word and gives it in the reader's language, or
    None where the word is not the game's."""

    step: Callable[[str], str | None] = no_word  # a step kind as a sentence names it
    decided: Callable[[str], str | None] = no_word  # how a game was decided: "world conquest"
    # How a game ended in a stalemate was decided: "stalemate, scored".
    stalemate: Callable[[str], str | None] = no_word
    # How a game was decided as the command line prints it: the session file's word, which
    # English shows as it is ("victory_points").
    printed: Callable[[str], str | None] = no_word


def no_side(value: str, player: str) -> str | None:
    """A game without sides: what a file says a player played as is kept as written."""
    return None


@dataclass(frozen=True)
class Listed:
    """A game as BoardGameGeek and BG Stats list it, for the plays files (rules/plays): its
    name there, its BoardGameGeek id (None where it is not known for certain: its plays
    are matched by name) and where that id came from; how its side and its score are named
    in its standings, and what its rounds count."""

    name: str
    bgg_id: int | None
    bgg_id_from: str
    side: str | None  # the standings' key of what a player played as (None: no sides)
    score: str  # the standings' key of the score the game ranks by
    unit: str  # what its rounds count
    # What a player played as, from the file's text (BoardGameGeek's color, BG Stats'
    # role) and the player's name (for a message): its stored id, or None where the text
    # names no side of the game (it is kept as written).
    side_named: Callable[[str, str], str | None] = no_side

    def details(self, side: str | None, score: int | None) -> dict[str, Any]:
        """A standing's details of a play: its side (where the game has sides) and score."""
        return {self.side: side, self.score: score} if self.side else {self.score: score}


@dataclass(frozen=True, repr=False)
class GameRules:
    """The rules of one game, as pure functions over small frozen values.

    Settings and seats are read from the session file's JSON, steps are read one at a time,
    and the state is a fold of the steps over the start state (`apply`)."""

    game: str  # the tag in the session file
    name: str  # shown to players
    players: tuple[int, int]  # the fewest and the most players the game takes
    phase_names: Mapping[str, str]  # each phase as the screens name it: "End of war"
    steps: StepKinds
    # Settings from JSON (missing keys take their defaults); `.to_json()` gives them back.
    read_settings: Callable[[Any], Any]
    # The seats, in table order, from JSON and the settings; each has `name` and `.to_json()`.
    read_players: Callable[[Any, Any], tuple[Any, ...]]
    # One step from its JSON object; raises RuleError on a malformed object.
    read_step: Callable[[Any], Step]
    # The state before any step, from the settings and seats.
    start: Callable[[Any, tuple[Any, ...]], State]
    # The state after a step; raises RuleError, naming player and number, if it breaks a rule.
    apply: Callable[[Any, Any], State]
    # The standings and result (rules/outcome.py); `replay --json` prints its JSON.
    report: Callable[[Any], Report]
    # Where the game stands and who leads, for the saved-games list.
    summary: Callable[[Any], Summary]
    # What a step did, in one line of the players' words, from the states before and after
    # it (the history). Undo and redo too: where the game now stands and what they changed.
    describe: Callable[[Any, Any, Any], str]
    # Its own words for steps and results (step kinds, how a game was decided).
    words: Words = Words()
    # The printed standings (`replay`): a column of its report's standings as the reader's
    # language heads it (None: not a column of its own, headed by its name); and a value
    # of a column stored by its id (a power, a colour) as the reader's language names it.
    column_heading: Callable[[str], str | None] = no_heading
    value_shown: Callable[[str, str], str] = as_stored
    # A board profile of its own (Struggle of Empires' printed VP values), checked: from
    # its name and regions, its name as stored and its regions. None: it keeps none.
    read_board: Callable[[Any, Any], tuple[str, dict[str, list[int]]]] | None = None
    # How BoardGameGeek and BG Stats list it: None for a game their files do not know (its
    # plays are neither written to them nor read from them).
    elsewhere: Listed | None = None

    def __repr__(self) -> str:
        return f"GameRules({self.game!r}: {self.name})"
