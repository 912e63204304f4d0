"""The state of a Risk game, and the fold: the state before any step (`start`) and after
each one (`apply`). Dicts inside a state are never mutated: each step makes new ones."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from i18n import N_, _
from rules import names
from rules.errors import RuleError
from rules.risk.board import Position, joined
from rules.risk.missions import (
    ABSENT_COLOUR,
    OCCUPY_24,
    OWN_COLOUR,
    replacement_notice,
    target_colour,
)
from rules.risk.settings import RiskSeat, RiskSettings
from rules.ruleset import StepKinds

PHASE_NAMES = names.PHASE_NAMES["risk"]

# Every Risk step type, by kind (rules/risk/steps.py registers them).
STEPS = StepKinds("Risk")


@dataclass(frozen=True)
class Concession:
    """A concession as offered, accepted or refused (refused ones are kept as history)."""

    player: str
    accepted: bool
    to: str | None


@dataclass(frozen=True)
class Announcement:
    """A message for one player: their mission `card` was replaced by '24', for `reason`
    (rules/risk/missions.py: OWN_COLOUR, ABSENT_COLOUR, DESTROYED by `by`, who put
    `target` out). Its `text` is said in the reader's language when it is shown."""

    player: str
    card: str
    reason: str
    by: str | None = None
    target: str | None = None

    @property
    def text(self) -> str:
        return replacement_notice(self.player, self.card, self.reason, self.by, self.target)


@dataclass(frozen=True)
class Handover:
    """What changed who holds what since the latest positions were entered: `player`'s
    elimination by `by`, or their concession to `by`; said in the reader's language."""

    player: str
    by: str
    conceded: bool = False

    def __str__(self) -> str:
        if self.conceded:
            return _("{player}'s concession to {by}").format(player=self.player, by=self.by)
        return _("{player}'s elimination by {by}").format(player=self.player, by=self.by)


@dataclass(frozen=True)
class RiskState:
    """A Risk game after some steps. Dicts inside are never mutated: each step makes new ones."""

    settings: RiskSettings
    seats: tuple[RiskSeat, ...]
    phase: str = "round"  # "round" | "tiebreak" | "finished"
    finished: bool = False
    round: int = 0  # rounds closed, or ended when play stopped in them (steps.stopped)
    rounds_target: int | None = None  # rounds to play before scoring (None: not scored)
    positions: dict[str, Position] = field(default_factory=dict)  # latest, players in game
    # What changed who holds what since the latest positions were entered ("Cy's
    # elimination by Bo"); None while they are the current position (RULES.md A.4).
    positions_predate: Handover | None = None
    eliminated: dict[str, str] = field(default_factory=dict)  # player -> eliminated by
    concessions: tuple[Concession, ...] = ()
    missions: dict[str, str | None] = field(default_factory=dict)  # current objective
    announcements: tuple[Announcement, ...] = ()  # made by the latest step (or the start)
    result: str | None = None  # "win" | "shared" | "draw"
    format: str | None = None
    stalemate: bool = False  # a stalemate was declared: it ended, or ends, the game
    winners: tuple[str, ...] = ()
    tied: tuple[str, ...] = ()  # players tied at the top while phase is "tiebreak"

    @property
    def in_game(self) -> tuple[str, ...]:
        """Players not eliminated, in seat order."""
        return tuple(s.name for s in self.seats if s.name not in self.eliminated)

    @property
    def rounds_played(self) -> int:
        """The rounds the result records (RULES.md A.5): every round closed, and the one play
        stopped in when something ended the game during play (steps.stopped)."""
        return self.round

    @property
    def scores_this_round(self) -> bool:
        """Whether the round being closed is scored (the last agreed round, or an extra one)."""
        return self.rounds_target is not None and self.round + 1 >= self.rounds_target

    def seat(self, name: str) -> RiskSeat:
        """The seat of a player by exact name."""
        return next(s for s in self.seats if s.name == name)

    def next_in_seat_order(self, player: str) -> str | None:
        """The player who would next attack `player`: the next seat still in the game."""
        names = [s.name for s in self.seats]
        start = names.index(player)
        for name in names[start + 1:] + names[:start]:
            if name in self.in_game:
                return name
        return None

    def player_named(self, name: str) -> str:
        """The seat name meant by `name` (exact, else case-insensitive)."""
        for seat in self.seats:
            if seat.name == name:
                return seat.name
        for seat in self.seats:
            if seat.name.casefold() == name.casefold():
                return seat.name
        raise RuleError(_("{name} is not a player in this game (the players are "
                          "{players})").format(name=name,
                                               players=joined(s.name for s in self.seats)))

    def playing(self, name: str, doing: str, **more: str) -> str:
        """A player still in the game, or an error saying who put them out: `doing` is one
        of OUT_AND_CANNOT (what they cannot do), `more` its other placeholders."""
        who = self.player_named(name)
        if who in self.eliminated:
            raise RuleError(_(OUT_AND_CANNOT[doing]).format(
                player=who, by=self.eliminated[who], **more))
        return who


# What a player out of the game cannot do (RiskState.playing), by what the step asked.
OUT_AND_CANNOT = {
    "be eliminated again": N_("{player} is out of the game (eliminated by {by}) and cannot "
                              "be eliminated again"),
    # TRANSLATORS: {other} is the player {player} was to eliminate.
    "eliminate": N_("{player} is out of the game (eliminated by {by}) and cannot eliminate "
                    "{other}"),
    "concede": N_("{player} is out of the game (eliminated by {by}) and cannot concede"),
    # TRANSLATORS: {other} is the player conceding their territories to {player}.
    "receive": N_("{player} is out of the game (eliminated by {by}) and cannot receive "
                  "{other}'s territories"),
    "be named the winner": N_("{player} is out of the game (eliminated by {by}) and cannot "
                              "be named the winner"),
    "complete a mission": N_("{player} is out of the game (eliminated by {by}) and cannot "
                             "complete a mission"),
}


def start(settings: RiskSettings, seats: tuple[RiskSeat, ...]) -> RiskState:
    """The state before any step; destroy missions that cannot be played become '24'."""
    colours = {s.color for s in seats}
    current: dict[str, str | None] = {}
    notes = []
    for seat in seats:
        current[seat.name] = seat.mission
        colour = target_colour(seat.mission)
        if seat.mission is None or colour is None:
            continue
        if colour == seat.color:
            why = OWN_COLOUR
        elif colour not in colours:
            why = ABSENT_COLOUR
        else:
            continue
        current[seat.name] = OCCUPY_24
        notes.append(Announcement(seat.name, seat.mission, why))
    target = settings.rounds if settings.mode == "fixed_rounds" else None
    return RiskState(settings, tuple(seats), rounds_target=target, missions=current,
                     announcements=tuple(notes))


def apply(state: RiskState, step: Any) -> RiskState:
    """The state after `step`, or a RuleError naming the player and number at fault.

    A tied fixed-round score waits for the tie-break; the step's own rule (its `apply`)
    does the rest, and its announcements replace the previous step's."""
    if state.finished:
        raise RuleError(_("The game is over: undo the last step to change it"))
    if state.phase == "tiebreak" and getattr(step, "kind", None) != "tiebreak":
        raise RuleError(_("{players} are tied after round {round}: the group first chooses "
                          "a shared victory or one extra round").format(
                              players=joined(state.tied), round=state.round))
    if not STEPS.holds(step):
        # TRANSLATORS: {step} is the name of a class in the code.
        raise RuleError(_("{step} is not a Risk step").format(step=type(step).__name__))
    after: RiskState = step.apply(replace(state, announcements=()))
    return after
