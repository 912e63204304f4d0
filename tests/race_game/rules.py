"""Race to 10: each turn the table types the points each player scored; the first turn that
takes someone to 10 or more ends the game, the most points winning (equal, a shared
victory). Pure rules of the same shape as rules/soe and rules/risk."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.errors import RuleError
from rules.fields import obj, player_name, whole
from rules.outcome import FINISHED, IN_PROGRESS, Progress, Report, Standing, Summary
from rules.ruleset import GameRules, Listed, StepKinds

GOAL = 10
MOST_A_TURN = 6  # a die's throw
PHASE_NAMES = {"race": "Racing", "finished": "Finished"}
STEPS = StepKinds("Race to 10")


@dataclass(frozen=True)
class RaceSettings:
    def to_json(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class Runner:
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name}


@dataclass(frozen=True)
class RaceState:
    settings: RaceSettings
    seats: tuple[Runner, ...]
    points: tuple[int, ...]
    turn: int = 1
    phase: str = "race"

    @property
    def finished(self) -> bool:
        return self.phase == "finished"

    @property
    def winners(self) -> tuple[str, ...]:
        if not self.finished:
            return ()
        best = max(self.points)
        return tuple(s.name for s, p in zip(self.seats, self.points, strict=True) if p == best)


@STEPS.register
@dataclass(frozen=True)
class Turn:
    kind: ClassVar[str] = "turn"
    points: tuple[tuple[str, int], ...]

    @classmethod
    def from_json(cls, data: Any) -> Turn:
        data = obj(data, "turn step", {"kind", "points"})
        points = data["points"]
        if not isinstance(points, dict):
            raise RuleError("a turn's points must be an object of names and points")
        return cls(tuple((str(name), whole(n, f"{name}'s points", low=0, high=MOST_A_TURN))
                         for name, n in points.items()))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "points": dict(self.points)}

    def apply(self, state: RaceState) -> RaceState:
        if state.finished:
            raise RuleError("The race is over")
        names = [s.name for s in state.seats]
        scored = dict(self.points)
        for name in scored:
            if name not in names:
                raise RuleError(f"{name} is not in this race")
        points = tuple(p + scored.get(n, 0) for n, p in zip(names, state.points, strict=True))
        over = max(points) >= GOAL
        return replace(state, points=points, turn=state.turn + (not over),
                       phase="finished" if over else "race")


def read_settings(data: Any) -> RaceSettings:
    obj(data if data is not None else {}, "settings", set())
    return RaceSettings()


def read_players(data: Any, settings: RaceSettings) -> tuple[Runner, ...]:
    if not isinstance(data, list) or len(data) != 2:
        raise RuleError("Race to 10 takes 2 players")
    seats = tuple(Runner(player_name(obj(p, "a player", {"name"}).get("name"), "a name"))
                  for p in data)
    if seats[0].name == seats[1].name:
        raise RuleError("The two players need different names")
    return seats


def read_step(data: Any) -> Any:
    kind = data.get("kind") if isinstance(data, dict) else None
    step_type = STEPS.get(kind)
    if step_type is None:
        raise RuleError(f"a Race to 10 step is a turn, not {kind!r}")
    return step_type.from_json(data)


def start(settings: RaceSettings, seats: tuple[Runner, ...]) -> RaceState:
    return RaceState(settings, seats, tuple(0 for _ in seats))


def apply(state: RaceState, step: Any) -> RaceState:
    return step.apply(state)


def progress(state: RaceState) -> Progress:
    return Progress("turn", state.turn, state.phase, named=False)


def report(state: RaceState) -> Report:
    order = sorted(range(len(state.seats)), key=lambda i: -state.points[i])
    standings = tuple(
        Standing(state.seats[i].name, 1 + sum(p > state.points[i] for p in state.points),
                 False, state.points[i], {"points": state.points[i]}) for i in order)
    winners = state.winners
    return Report(
        game="race", status=FINISHED if state.finished else IN_PROGRESS,
        result=("win" if len(winners) == 1 else "shared") if state.finished else None,
        format="points" if state.finished else None, rounds=state.turn, unit="turn",
        winners=winners, standings=standings,
        progress=None if state.finished else progress(state),
        more={} if state.finished else {"turn": state.turn})


def summary(state: RaceState) -> Summary:
    best = max(state.points)
    leader = ", ".join(s.name for s, p in zip(state.seats, state.points, strict=True)
                       if p == best) if best else None
    return Summary(progress(state), leader)


def describe(before: RaceState, step: Any, after: RaceState) -> str:
    if step.kind in ("undo", "redo"):
        return f"back at turn {after.turn}"
    scored = ", ".join(f"{name} {n}" for name, n in step.points if n) or "nobody scored"
    return f"Turn {before.turn}: {scored}"


RACE = GameRules(
    game="race", name="Race to 10", players=(2, 2), phase_names=PHASE_NAMES, steps=STEPS,
    read_settings=read_settings, read_players=read_players, read_step=read_step,
    start=start, apply=apply, report=report, summary=summary, describe=describe,
    # How BoardGameGeek and BG Stats list it: by name alone (no id is known for certain),
    # no sides, ranked by its points, counted in turns.
    elsewhere=Listed("Race to 10", None, "no id: a game of the tests", None, "points", "turn"),
)
