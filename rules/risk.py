"""Risk (RULES.md part A): settings, seats, steps, the state fold, scoring and the report.

Everything here is pure: values in, values out. A step is checked against the state it
is applied to and refused with a RuleError in the players' words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from rules import missions as m
from rules.errors import RuleError
from rules.fields import COLOUR_LIMIT, choice, flag, listing, mapping, obj, text, whole
from rules.risk_board import (
    CONTINENTS,
    DEFAULT_COLOURS,
    TERRITORY_COUNT,
    Position,
    board_order,
    bonus,
    continent_named,
    size,
)

__all__ = [
    "CONTINENTS", "DEFAULT_COLOURS", "RISK", "Announcement", "Concede", "Concession",
    "Eliminate", "MissionComplete", "Position", "RiskRules", "RiskSeat", "RiskSettings",
    "RiskState", "RoundStep", "Stalemate", "Tiebreak", "continent_named", "deal", "deck",
    "explain_scores", "explain_tiebreak", "mission_text", "read_players", "read_settings",
    "read_step", "report", "start", "apply", "summary",
]

MODES = ("fixed_rounds", "conquest", "missions")
MAX_ARMIES = 9_999  # armies of one player on the board: far above any real game
MISSION_LIMIT = 40  # a mission card's id, destroy:<colour> with the longest colour
deck = m.deck
deal = m.deal
mission_text = m.mission_text


# --- settings and seats -------------------------------------------------------------------


@dataclass(frozen=True)
class RiskSettings:
    """How this group plays: victory mode, agreed rounds (fixed_rounds), mission deck."""

    mode: str = "fixed_rounds"
    rounds: int = 10
    mission_deck: str = "european"

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "rounds": self.rounds, "mission_deck": self.mission_deck}


def read_settings(data: Any) -> RiskSettings:
    """Settings from JSON; None or {} gives the defaults."""
    data = obj({} if data is None else data, "Risk settings", set(),
               {"mode", "rounds", "mission_deck"})
    return RiskSettings(
        mode=choice(data.get("mode", "fixed_rounds"), "The Risk mode", MODES),
        rounds=whole(data.get("rounds", 10), "The number of rounds", low=1, high=50),
        mission_deck=choice(data.get("mission_deck", "european"), "The mission deck", m.DECKS),
    )


@dataclass(frozen=True)
class RiskSeat:
    """One player: name, colour, and the mission card dealt (missions mode only)."""

    name: str
    color: str
    mission: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "color": self.color}
        if self.mission is not None:
            out["mission"] = self.mission
        return out


def read_players(data: Any, settings: RiskSettings) -> tuple[RiskSeat, ...]:
    """The seats in table order: 2 to 6 players, distinct names and colours, missions checked."""
    items = listing(data, "players")
    if not 2 <= len(items) <= 6:
        raise RuleError(f"Risk needs 2 to 6 players, not {len(items)}")
    seats: list[RiskSeat] = []
    for i, item in enumerate(items, 1):
        raw = obj(item, f"player {i}", {"name", "color"}, {"mission"})
        name = text(raw["name"], f"player {i}'s name")
        # Colours compare as words.
        color = text(raw["color"], f"{name}'s colour", COLOUR_LIMIT).casefold()
        mission = raw.get("mission")
        if mission is not None:
            mission = text(mission, f"{name}'s mission", MISSION_LIMIT).casefold()
        for seat in seats:
            if seat.name.casefold() == name.casefold():
                raise RuleError(f"Two players are called {name}: every name must differ")
            if seat.color == color:
                raise RuleError(f"{seat.name} and {name} both play {color}: "
                                "every player needs a colour of their own")
        seats.append(RiskSeat(name, color, mission))
    _check_missions(seats, settings)
    return tuple(seats)


def _check_missions(seats: list[RiskSeat], settings: RiskSettings) -> None:
    colours = [s.color for s in seats]
    cards = m.deck(settings, colours)
    holder: dict[str, str] = {}
    for seat in seats:
        if settings.mode != "missions":
            if seat.mission is not None:
                raise RuleError(f"{seat.name} has a mission, but missions are only dealt "
                                f"in a missions game (this game is {settings.mode})")
            continue
        if seat.mission is None:
            raise RuleError(f"{seat.name} needs a mission card in a missions game")
        if seat.mission not in cards:
            colour = m.target_colour(seat.mission)
            if colour and settings.mission_deck == "us1993" and colour not in colours:
                raise RuleError(f"{seat.name}'s mission '{m.mission_text(seat.mission)}' is not "
                                "in the us1993 deck: the cards of colours not in the game "
                                "are removed before dealing")
            if seat.mission in m.PLUS_ANY:
                raise RuleError(f"{seat.name}'s mission '{m.mission_text(seat.mission)}' is "
                                "only in the european deck, not in us1993")
            raise RuleError(f"{seat.name}'s mission {seat.mission!r} is not a card of the "
                            f"{settings.mission_deck} deck: the cards are {', '.join(cards)}")
        if seat.mission in holder:
            raise RuleError(f"{holder[seat.mission]} and {seat.name} both hold the card "
                            f"'{m.mission_text(seat.mission)}': each card is dealt once")
        holder[seat.mission] = seat.name


# --- steps --------------------------------------------------------------------------------

Positions = tuple[tuple[str, Position], ...]  # (player name as written, position), in order


def _positions_json(positions: Positions) -> dict[str, Any]:
    return {name: pos.to_json() for name, pos in positions}


@dataclass(frozen=True)
class RoundStep:
    """One complete round closed, with every player's position (needed when it is scored)."""

    kind: ClassVar[str] = "round"
    positions: Positions | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.positions is not None:
            out["positions"] = _positions_json(self.positions)
        return out


@dataclass(frozen=True)
class Eliminate:
    """`player` lost their last territory to `by`."""

    kind: ClassVar[str] = "eliminate"
    player: str
    by: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "by": self.by}


@dataclass(frozen=True)
class Concede:
    """`player` offers to concede; if the group accepts, their territories go `to` a player."""

    kind: ClassVar[str] = "concede"
    player: str
    accepted: bool
    to: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player,
                               "accepted": self.accepted}
        if self.to is not None:
            out["to"] = self.to
        return out


@dataclass(frozen=True)
class Stalemate:
    """Every remaining player agrees the game is stalled: draw, score it, or name a winner."""

    kind: ClassVar[str] = "stalemate"
    resolution: str
    winner: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "resolution": self.resolution}
        if self.winner is not None:
            out["winner"] = self.winner
        return out


@dataclass(frozen=True)
class MissionComplete:
    """`player` reveals a completed secret mission (positions, if given, are checked)."""

    kind: ClassVar[str] = "mission_complete"
    player: str
    positions: Positions | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.positions is not None:
            out["positions"] = _positions_json(self.positions)
        return out


@dataclass(frozen=True)
class Tiebreak:
    """The group's choice for a fixed-round tie: share the victory or play one more round."""

    kind: ClassVar[str] = "tiebreak"
    resolution: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "resolution": self.resolution}


STEPS = (RoundStep, Eliminate, Concede, Stalemate, MissionComplete, Tiebreak)
KINDS = tuple(s.kind for s in STEPS)


def read_position(data: Any, player: str) -> Position:
    """One player's counts from {territories, armies, continents?}."""
    raw = obj(data, f"{player}'s position", {"territories", "armies"}, {"continents"})
    territories = whole(raw["territories"], f"{player}'s territories",
                        low=0, high=TERRITORY_COUNT)
    armies = whole(raw["armies"], f"{player}'s armies", low=0, high=MAX_ARMIES)
    held: list[str] = []
    for item in listing(raw.get("continents", []), f"{player}'s continents"):
        name = continent_named(item)
        if name in held:
            raise RuleError(f"{player}'s continents list {name} twice")
        held.append(name)
    return Position(territories, armies, board_order(held))


def read_positions(data: Any) -> Positions:
    """{player name: position} in the order written."""
    out = []
    for name, pos in mapping(data, "positions").items():
        who = text(name, "a player's name in positions")
        out.append((who, read_position(pos, who)))
    return tuple(out)


def read_step(data: Any) -> Any:
    """One Risk step from its JSON object; shape only, the rules are checked by `apply`."""
    kind = choice(mapping(data, "a step").get("kind"), "The step kind", KINDS)
    what = f"a {kind} step"
    if kind == "round":
        raw = obj(data, what, {"kind"}, {"positions"})
        pos = read_positions(raw["positions"]) if "positions" in raw else None
        return RoundStep(pos)
    if kind == "eliminate":
        raw = obj(data, what, {"kind", "player", "by"})
        return Eliminate(text(raw["player"], "The eliminated player"),
                         text(raw["by"], "The eliminating player"))
    if kind == "concede":
        raw = obj(data, what, {"kind", "player", "accepted"}, {"to"})
        player = text(raw["player"], "The conceding player")
        accepted = flag(raw["accepted"], f"Whether {player}'s concession is accepted")
        to = text(raw["to"], f"Who receives {player}'s territories") if "to" in raw else None
        if accepted and to is None:
            raise RuleError(f"{player}'s accepted concession must say who receives "
                            f"{player}'s territories ('to')")
        return Concede(player, accepted, to)
    if kind == "stalemate":
        raw = obj(data, what, {"kind", "resolution"}, {"winner"})
        resolution = choice(raw["resolution"], "The stalemate resolution",
                            ("draw", "fixed_round", "agreed"))
        winner = text(raw["winner"], "The agreed winner") if "winner" in raw else None
        if resolution == "agreed" and winner is None:
            raise RuleError("An agreed stalemate must name the winner the group agreed on")
        if resolution != "agreed" and winner is not None:
            raise RuleError(f"A {resolution} stalemate names no winner; only an agreed one does")
        return Stalemate(resolution, winner)
    if kind == "mission_complete":
        raw = obj(data, what, {"kind", "player"}, {"positions"})
        pos = read_positions(raw["positions"]) if "positions" in raw else None
        return MissionComplete(text(raw["player"], "The player completing a mission"), pos)
    raw = obj(data, what, {"kind", "resolution"})
    return Tiebreak(choice(raw["resolution"], "The tie-break", ("shared", "extra_round")))


# --- state --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Concession:
    """A concession as offered, accepted or refused (refused ones are kept as history)."""

    player: str
    accepted: bool
    to: str | None


@dataclass(frozen=True)
class Announcement:
    """A message for one player, e.g. that their mission was replaced."""

    player: str
    text: str


@dataclass(frozen=True)
class RiskState:
    """A Risk game after some steps. Dicts inside are never mutated: each step makes new ones."""

    settings: RiskSettings
    seats: tuple[RiskSeat, ...]
    phase: str = "round"  # "round" | "tiebreak" | "finished"
    finished: bool = False
    round: int = 0  # completed rounds
    rounds_target: int | None = None  # rounds to play before scoring (None: not scored)
    positions: dict[str, Position] = field(default_factory=dict)  # latest, players in game
    eliminated: dict[str, str] = field(default_factory=dict)  # player -> eliminated by
    concessions: tuple[Concession, ...] = ()
    missions: dict[str, str | None] = field(default_factory=dict)  # current objective
    announcements: tuple[Announcement, ...] = ()  # made by the latest step (or the start)
    result: str | None = None  # "win" | "shared" | "draw"
    format: str | None = None
    winners: tuple[str, ...] = ()
    rounds_played: int = 0
    tied: tuple[str, ...] = ()  # players tied at the top while phase is "tiebreak"

    @property
    def in_game(self) -> tuple[str, ...]:
        """Players not eliminated, in seat order."""
        return tuple(s.name for s in self.seats if s.name not in self.eliminated)

    def seat(self, name: str) -> RiskSeat:
        """The seat of a player by exact name."""
        return next(s for s in self.seats if s.name == name)


def start(settings: RiskSettings, seats: tuple[RiskSeat, ...]) -> RiskState:
    """The state before any step; destroy missions that cannot be played become '24'."""
    colours = {s.color for s in seats}
    current: dict[str, str | None] = {}
    notes = []
    for seat in seats:
        current[seat.name] = seat.mission
        colour = m.target_colour(seat.mission)
        if colour is None:
            continue
        if colour == seat.color:
            why = f"names {seat.name}'s own colour"
        elif colour not in colours:
            why = "names a colour not in the game"
        else:
            continue
        current[seat.name] = m.OCCUPY_24
        notes.append(Announcement(seat.name, _replaced(seat.name, seat.mission, why)))
    target = settings.rounds if settings.mode == "fixed_rounds" else None
    return RiskState(settings, tuple(seats), rounds_target=target, missions=current,
                     announcements=tuple(notes))


def _replaced(name: str, card: str, why: str) -> str:
    return (f"{name}'s mission '{m.mission_text(card)}' {why}: "
            f"it becomes '{m.mission_text(m.OCCUPY_24)}'")


def _names(names: Any) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_SINGULAR = {"territories": "territory", "continents": "continent", "armies": "army"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n != 1 else f"{n} {_SINGULAR.get(word, word)}"


def _resolve(state: RiskState, name: str) -> str:
    """The seat name meant by `name` (exact, else case-insensitive)."""
    for seat in state.seats:
        if seat.name == name:
            return seat.name
    for seat in state.seats:
        if seat.name.casefold() == name.casefold():
            return seat.name
    raise RuleError(f"{name} is not a player in this game (the players are "
                    f"{_names(s.name for s in state.seats)})")


def _playing(state: RiskState, name: str, doing: str) -> str:
    """A player still in the game, or an error saying who put them out."""
    who = _resolve(state, name)
    if who in state.eliminated:
        raise RuleError(f"{who} is out of the game (eliminated by {state.eliminated[who]}) "
                        f"and cannot {doing}")
    return who


def check_positions(state: RiskState, given: Positions) -> dict[str, Position]:
    """The positions by seat name, after every consistency check of RULES.md A.1."""
    found: dict[str, Position] = {}
    for name, pos in given:
        who = _resolve(state, name)
        if who in state.eliminated:
            raise RuleError(f"{who} is out of the game (eliminated by {state.eliminated[who]}): "
                            f"leave {who} out of the positions")
        if who in found:
            raise RuleError(f"The positions list {who} twice")
        found[who] = pos
    missing = [p for p in state.in_game if p not in found]
    if missing:
        are = "is" if len(missing) == 1 else "are"
        raise RuleError(f"The positions leave out {_names(missing)}, who {are} still in the "
                        "game: enter every player's territories and armies")
    ordered = {p: found[p] for p in state.in_game}
    holder: dict[str, str] = {}
    for who, pos in ordered.items():
        if pos.armies < pos.territories:
            raise RuleError(f"{who} has {pos.armies} armies on {pos.territories} territories: "
                            "every territory needs at least one army")
        need = sum(size(c) for c in pos.continents)
        if need > pos.territories:
            if len(pos.continents) == 1:
                c = pos.continents[0]
                raise RuleError(f"{who} cannot hold {c} with {pos.territories} territories: "
                                f"{c} has {need}")
            raise RuleError(f"{who} cannot hold {_names(pos.continents)} with "
                            f"{pos.territories} territories: they have {need} between them")
        for c in pos.continents:
            if c in holder:
                raise RuleError(f"{c} cannot be held by both {holder[c]} and {who}: "
                                "a continent held completely has one holder")
            holder[c] = who
    total = sum(pos.territories for pos in ordered.values())
    if total != TERRITORY_COUNT:
        first, *rest = ordered.items()
        listed = " and ".join([f"{first[0]} holds {first[1].territories} territories"]
                              + [f"{w} {p.territories}" for w, p in rest])
        why = ("every one of the 42 territories is held by someone" if total < TERRITORY_COUNT
               else "the board has only 42 territories")
        raise RuleError(f"{listed}: {total} in all, but {why}")
    for who, pos in ordered.items():
        others = [p for p in ordered if p != who]
        if pos.territories == TERRITORY_COUNT and others:
            raise RuleError(f"{who} holds all 42 territories: record the elimination of "
                            f"{_names(others)} first")
    return ordered


def _finish(state: RiskState, result: str, fmt: str, winners: tuple[str, ...],
            rounds: int, **changes: Any) -> RiskState:
    return replace(state, phase="finished", finished=True, result=result, format=fmt,
                   winners=winners, rounds_played=rounds, tied=(), **changes)


def _score(state: RiskState) -> RiskState:
    """Fixed-round scoring of the latest positions: a unique leader wins, else a tie-break."""
    chains = {p: state.positions[p].chain for p in state.in_game}
    top = max(chains.values())
    leaders = tuple(p for p in state.in_game if chains[p] == top)
    if len(leaders) == 1:
        return _finish(state, "win", "fixed_round", leaders, state.round)
    return replace(state, phase="tiebreak", tied=leaders)


def apply(state: RiskState, step: Any) -> RiskState:
    """The state after `step`, or a RuleError naming the player and number at fault."""
    if state.finished:
        raise RuleError("The game is over: undo the last step to change it")
    if state.phase == "tiebreak" and not isinstance(step, Tiebreak):
        raise RuleError(f"{_names(state.tied)} are tied after round {state.round}: the group "
                        "first chooses a shared victory or one extra round")
    state = replace(state, announcements=())
    if isinstance(step, RoundStep):
        return _round(state, step)
    if isinstance(step, Eliminate):
        who = _playing(state, step.player, "be eliminated again")
        by = _playing(state, step.by, f"eliminate {who}")
        if by == who:
            raise RuleError(f"{who} cannot be eliminated by {who}")
        return _eliminate(state, who, by, conceded=False)
    if isinstance(step, Concede):
        return _concede(state, step)
    if isinstance(step, Stalemate):
        return _stalemate(state, step)
    if isinstance(step, MissionComplete):
        return _mission(state, step)
    if isinstance(step, Tiebreak):
        if state.phase != "tiebreak":
            raise RuleError("There is no tie to break: a tie-break follows a tied "
                            "fixed-round score")
        if step.resolution == "shared":
            return _finish(state, "shared", "fixed_round", state.tied, state.round)
        # One more complete round, then score again; it counts in the rounds played.
        return replace(state, phase="round", tied=(), rounds_target=state.round + 1)
    raise RuleError(f"{type(step).__name__} is not a Risk step")


def _round(state: RiskState, step: RoundStep) -> RiskState:
    number = state.round + 1
    scored = state.rounds_target is not None and number >= state.rounds_target
    if scored and step.positions is None:
        raise RuleError(f"Round {number} is the last agreed round: enter every player's "
                        "territories, armies and continents to score it")
    new = replace(state, round=number, rounds_played=number)
    if step.positions is not None:
        new = replace(new, positions=check_positions(state, step.positions))
    return _score(new) if scored else new


def _eliminate(state: RiskState, who: str, by: str, conceded: bool) -> RiskState:
    """`who` is out, eliminated by `by`; destroy missions and the last player standing follow."""
    eliminated = dict(state.eliminated) | {who: by}
    positions = {p: pos for p, pos in state.positions.items() if p != who}
    new = replace(state, eliminated=eliminated, positions=positions)
    rounds = state.round + 1  # a game won during play counts the round in progress
    colour = state.seat(who).color
    missions = dict(state.missions)
    notes = []
    for holder in new.in_game:
        if m.target_colour(missions.get(holder)) != colour:
            continue
        card = missions[holder]
        if holder == by or state.settings.mission_deck == "us1993":
            # By the holder: mission done. us1993: a target destroyed by another also counts.
            return _finish(new, "win", "secret_mission", (holder,), rounds)
        missions[holder] = m.OCCUPY_24
        why = f"can no longer be completed: {by} eliminated {colour} ({who})"
        notes.append(Announcement(holder, _replaced(holder, card, why)))
    new = replace(new, missions=missions, announcements=tuple(notes))
    if len(new.in_game) == 1:
        fmt = "concession" if conceded else "world_conquest"
        return _finish(new, "win", fmt, new.in_game, rounds)
    return new


def _concede(state: RiskState, step: Concede) -> RiskState:
    who = _playing(state, step.player, "concede")
    to = None
    if step.to is not None:
        to = _playing(state, step.to, f"receive {who}'s territories")
        if to == who:
            raise RuleError(f"{who}'s territories cannot go to {who}")
    new = replace(state, concessions=state.concessions + (Concession(who, step.accepted, to),))
    if not step.accepted:
        return new  # a refused concession changes nothing but stays in the history
    if to is None:
        raise RuleError(f"{who}'s accepted concession must say who receives {who}'s territories")
    return _eliminate(new, who, to, conceded=True)


def _stalemate(state: RiskState, step: Stalemate) -> RiskState:
    if step.resolution == "draw":
        return _finish(state, "draw", "draw", (), state.round)
    if step.resolution == "agreed":
        winner = _playing(state, step.winner, "be named the winner")
        return _finish(state, "win", "agreed", (winner,), state.round)
    if not state.positions:
        raise RuleError("No position has been recorded yet: a stalemate can be scored only "
                        "after a round with every player's territories and armies")
    return _score(state)


def _mission(state: RiskState, step: MissionComplete) -> RiskState:
    if state.settings.mode != "missions":
        raise RuleError(f"This game is played in {state.settings.mode} mode: there are no "
                        "secret missions to complete")
    who = _playing(state, step.player, "complete a mission")
    new = state
    if step.positions is not None:
        new = replace(state, positions=check_positions(state, step.positions))
    mission = state.missions[who]
    colour = m.target_colour(mission)
    if colour is not None:
        target = next(s.name for s in state.seats if s.color == colour)
        by = state.eliminated.get(target)
        card = f"{who}'s mission '{m.mission_text(mission)}' is not complete"
        if by is None:
            raise RuleError(f"{card}: {colour} ({target}) is still in the game")
        if by != who:
            raise RuleError(f"{card}: {colour} ({target}) was eliminated by {by}, not {who}")
    elif step.positions is not None:
        m.check_counts(who, mission, new.positions[who])
    return _finish(new, "win", "secret_mission", (who,), state.round + 1)


# --- reading the state --------------------------------------------------------------------


def _ranked(state: RiskState) -> list[tuple[str, int]]:
    """(player, rank) in rank order, ties in seat order; rank = 1 + players strictly ahead."""
    def key(name: str) -> tuple:
        if name in state.winners:
            return (2, ())
        if name in state.eliminated:
            return (0, ())
        pos = state.positions.get(name)
        return (1, pos.chain if pos else ())

    keys = {s.name: key(s.name) for s in state.seats}
    ranks = {p: 1 + sum(1 for q in keys if keys[q] > keys[p]) for p in keys}
    order = sorted(range(len(state.seats)), key=lambda i: (ranks[state.seats[i].name], i))
    return [(state.seats[i].name, ranks[state.seats[i].name]) for i in order]


def report(state: RiskState) -> dict[str, Any]:
    """The `replay --json` object (DESIGN.md)."""
    standings = []
    for name, rank in _ranked(state):
        seat = state.seat(name)
        out = name in state.eliminated
        pos = state.positions.get(name)
        standings.append({
            "player": name,
            "color": seat.color,
            "territories": 0 if out else (pos.territories if pos else None),
            "continents": [] if out or not pos else list(pos.continents),
            "armies": 0 if out else (pos.armies if pos else None),
            "score": 0 if out else (pos.score if pos else None),  # the eliminated score 0
            "eliminated": out,
            "mission": state.missions.get(name),
            "rank": rank,
        })
    data: dict[str, Any] = {
        "game": "risk",
        "status": "finished" if state.finished else "in_progress",
        "result": state.result,
        "format": state.format,
        "rounds": state.rounds_played,
        "winners": list(state.winners),
        "standings": standings,
    }
    if not state.finished:
        data["phase"] = state.phase
        data["round"] = state.round
    return data


def summary(state: RiskState) -> dict[str, Any]:
    """Phase, completed rounds, and the leader (winners, else the top of the ranking)."""
    leader = None
    if state.winners:
        leader = _names(state.winners)
    elif state.positions:
        ranked = _ranked(state)
        leader = _names(p for p, r in ranked if r == 1 and p not in state.eliminated)
    return {"phase": state.phase, "round": state.round, "leader": leader}


def explain_scores(positions: Mapping[str, Position]) -> dict[str, str]:
    """Per player, how the fixed-round score adds up, e.g.
    '16 territories + 4 (Australia 2, South America 2) + 40/5 = 8 -> 28'."""
    out = {}
    for name, pos in positions.items():
        held = ", ".join(f"{c} {bonus(c)}" for c in pos.continents)
        bonuses = f"{pos.bonus} ({held})" if held else "0"
        out[name] = (f"{pos.territories} territories + {bonuses} + {pos.armies}/5 = "
                     f"{pos.armies // 5} -> {pos.score}")
    return out


_STAGES = (
    ("territories", lambda p: p.territories, ("holds", "hold"), "territories"),
    ("continents", lambda p: len(p.continents), ("holds", "hold"), "continents"),
    ("armies", lambda p: p.armies, ("has", "have"), "armies"),
)


def explain_tiebreak(positions: Mapping[str, Position]) -> str:
    """How the top of a fixed-round ranking is decided, e.g.
    'Ana and Bo 24 each; equal territories; Ana holds 2 continents to Bo's 1'."""
    if not positions:
        return ""
    items = list(positions.items())
    best = max(p.score for _, p in items)
    group = [(n, p) for n, p in items if p.score == best]
    if len(group) == 1:
        rest = sorted((x for x in items if x[0] != group[0][0]), key=lambda x: -x[1].score)
        if not rest:
            return f"{group[0][0]} scores {best}"
        others = " and ".join(f"{n}'s {p.score}" for n, p in rest)
        return f"{group[0][0]} leads with {best} to {others}"
    parts = [f"{_names(n for n, _ in group)} {best} each"]
    for label, get, verbs, unit in _STAGES:
        top = max(get(p) for _, p in group)
        lead = [(n, p) for n, p in group if get(p) == top]
        if len(lead) == len(group):
            parts.append(f"equal {label}")
            continue
        behind = sorted((x for x in group if get(x[1]) != top), key=lambda x: -get(x[1]))
        others = " and ".join(f"{n}'s {get(p)}" for n, p in behind)
        verb = verbs[0] if len(lead) == 1 else verbs[1]
        parts.append(f"{_names(n for n, _ in lead)} {verb} {_plural(top, unit)} to {others}")
        group = lead
        if len(group) == 1:
            break
    else:
        parts.append("still tied")
    return "; ".join(parts)


# --- the GameRules object -----------------------------------------------------------------


class RiskRules:
    """Risk as a GameRules (rules/game.py)."""

    game = "risk"
    name = "Risk"

    def read_settings(self, data: Any) -> RiskSettings:
        return read_settings(data)

    def read_players(self, data: Any, settings: RiskSettings) -> tuple[RiskSeat, ...]:
        return read_players(data, settings)

    def read_step(self, data: Any) -> Any:
        return read_step(data)

    def start(self, settings: RiskSettings, seats: tuple[RiskSeat, ...]) -> RiskState:
        return start(settings, seats)

    def apply(self, state: RiskState, step: Any) -> RiskState:
        return apply(state, step)

    def report(self, state: RiskState) -> dict[str, Any]:
        return report(state)

    def summary(self, state: RiskState) -> dict[str, Any]:
        return summary(state)


RISK = RiskRules()
