"""The steps of Risk, each with its reading, writing and rule in one place.

A `round` closes each complete round; the others happen during play (an elimination, a
concession, a stalemate, a mission claim) or settle a tied score. A new kind of step is one
more class here with `@STEPS.register` (rules/ruleset.py says what it needs).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from i18n import _
from rules.errors import RuleError
from rules.fields import choice, flag, listing, mapping, obj, reading_stored, text
from rules.risk.board import shown
from rules.risk.missions import (
    DESTROYED,
    OCCUPY_24,
    check_counts,
    counts_short,
    mission_text,
    target_colour,
)
from rules.risk.positions import Positions, check_positions, positions_json, read_positions
from rules.risk.state import STEPS, Announcement, Concession, Handover, RiskState


def read_step(data: Any) -> Any:
    """One Risk step from its JSON object; shape only, the rules are checked by `apply`."""
    kind = choice(mapping(data, _("a step")).get("kind"), _("The step kind"), STEPS.kinds)
    step_type = STEPS.get(kind)
    assert step_type is not None  # choice() took only a registered kind
    return step_type.from_json(data)


def step_label(kind: str) -> str:
    """'a round step', as a refusal of its JSON names it."""
    # TRANSLATORS: {kind} is the session file's name of a step (round, eliminate...).
    return _("a {kind} step").format(kind=kind)


# ---------------------------------------------------------------- how a game ends

def finish(state: RiskState, result: str, fmt: str, winners: tuple[str, ...],
           **changes: Any) -> RiskState:
    """The game over: its result, format (RULES.md A.5) and winners; its rounds are the
    rounds closed, with the one play stopped in (`stopped`)."""
    return replace(state, phase="finished", finished=True, result=result, format=fmt,
                   winners=winners, tied=(), **changes)


def stopped(state: RiskState) -> RiskState:
    """Play stops during the round in progress (a win during play, or a stalemate): that
    round ends there and counts as played, whatever stopped it. A game that ends during
    round 4 records 4 rounds, as the table saw 'Round 4' when it ended, just as a game
    scored at the close of round 10 records 10; a stalemate scored to a tie is tied after
    round 4, and its extra round is round 5. The one place the rounds of a game stopped
    during play are counted."""
    return replace(state, round=state.round + 1)


def scored(state: RiskState) -> RiskState:
    """Fixed-round scoring of the latest positions: a unique leader wins, else a tie-break."""
    chains = {p: state.positions[p].chain for p in state.in_game}
    top = max(chains.values())
    leaders = tuple(p for p in state.in_game if chains[p] == top)
    if len(leaders) == 1:
        return finish(state, "win", "fixed_round", leaders)
    return replace(state, phase="tiebreak", tied=leaders)


def eliminated(state: RiskState, who: str, by: str, conceded: bool) -> RiskState:
    """`who` is out, eliminated by `by`; destroy missions and the last player standing follow."""
    out = dict(state.eliminated) | {who: by}
    positions = {p: pos for p, pos in state.positions.items() if p != who}
    # The territories changed hands: the latest positions are no longer the current one.
    event = Handover(who, by, conceded)
    new = replace(state, eliminated=out, positions=positions, positions_predate=event)
    colour = state.seat(who).color
    missions = dict(state.missions)
    notes = []
    for holder in new.in_game:
        card = missions.get(holder)
        if card is None or target_colour(card) != colour:
            continue
        if holder == by or state.settings.mission_deck == "us1993":
            # By the holder: mission done. us1993: a target destroyed by another also counts.
            return finish(stopped(new), "win", "secret_mission", (holder,))
        missions[holder] = OCCUPY_24
        notes.append(Announcement(holder, card, DESTROYED, by, who))
    new = replace(new, missions=missions, announcements=tuple(notes))
    if len(new.in_game) == 1:
        fmt = "concession" if conceded else "world_conquest"
        return finish(stopped(new), "win", fmt, new.in_game)
    return new


# ---------------------------------------------------------------- the steps

@STEPS.register
@dataclass(frozen=True)
class RoundStep:
    """One complete round closed, with every player's position (needed when it is scored).
    `missing` names the players who had not marked their own position ready when the round
    was recorded from the seats' parts (their position as the form showed it)."""

    kind: ClassVar[str] = "round"
    positions: Positions | None = None
    missing: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Any) -> RoundStep:
        raw = obj(data, step_label(cls.kind), {"kind"}, {"positions", "missing"})
        # TRANSLATORS: the session file's "missing": the players whose part was not ready.
        missing = tuple(dict.fromkeys(text(n, _("a player whose part is missing"))
                                      for n in listing(raw.get("missing", []),
                                                       _("the parts missing"))))
        return cls(read_positions(raw["positions"]) if "positions" in raw else None, missing)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.positions is not None:
            out["positions"] = positions_json(self.positions)
        if self.missing:  # written only when there is one: older files stay as they were
            out["missing"] = list(self.missing)
        return out

    def apply(self, state: RiskState) -> RiskState:
        for name in self.missing:
            state.player_named(name)  # a player of this game, or refused in words
        number = state.round + 1
        scores = state.scores_this_round
        if scores and self.positions is None:
            if number > state.settings.rounds:
                said = _("Round {round} is an extra round: enter every player's territories, "
                         "armies and continents to score it")
            else:
                said = _("Round {round} is the last agreed round: enter every player's "
                         "territories, armies and continents to score it")
            raise RuleError(said.format(round=number))
        new = replace(state, round=number)
        if self.positions is not None:
            new = replace(new, positions=check_positions(state, self.positions),
                          positions_predate=None)
        return scored(new) if scores else new


@STEPS.register
@dataclass(frozen=True)
class Eliminate:
    """`player` lost their last territory to `by`."""

    kind: ClassVar[str] = "eliminate"
    player: str
    by: str

    @classmethod
    def from_json(cls, data: Any) -> Eliminate:
        raw = obj(data, step_label(cls.kind), {"kind", "player", "by"})
        return cls(text(raw["player"], _("The eliminated player")),
                   text(raw["by"], _("The eliminating player")))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "by": self.by}

    def apply(self, state: RiskState) -> RiskState:
        who = state.playing(self.player, "be eliminated again")
        by = state.playing(self.by, "eliminate", other=who)
        if by == who:
            raise RuleError(_("{player} cannot be eliminated by {player}").format(player=who))
        return eliminated(state, who, by, conceded=False)


@STEPS.register
@dataclass(frozen=True)
class Concede:
    """`player` offers to concede; if the group accepts, their territories go `to` a player."""

    kind: ClassVar[str] = "concede"
    player: str
    accepted: bool
    to: str | None = None

    @classmethod
    def from_json(cls, data: Any) -> Concede:
        raw = obj(data, step_label(cls.kind), {"kind", "player", "accepted"}, {"to"})
        player = text(raw["player"], _("The conceding player"))
        accepted = flag(raw["accepted"],
                        _("Whether {player}'s concession is accepted").format(player=player))
        to = (text(raw["to"], _("Who receives {player}'s territories").format(player=player))
              if "to" in raw else None)
        if accepted and to is None:
            # TRANSLATORS: 'to' is the session file's key, kept as it is.
            raise RuleError(_("{player}'s accepted concession must say who receives "
                              "{player}'s territories ('to')").format(player=player))
        return cls(player, accepted, to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player,
                               "accepted": self.accepted}
        if self.to is not None:
            out["to"] = self.to
        return out

    def apply(self, state: RiskState) -> RiskState:
        who = state.playing(self.player, "concede")
        to = None
        if self.to is not None:
            to = state.playing(self.to, "receive", other=who)
            if to == who:
                raise RuleError(_("{player}'s territories cannot go to {player}").format(
                    player=who))
        new = replace(state, concessions=state.concessions + (Concession(who, self.accepted, to),))
        if not self.accepted:
            return new  # a refused concession changes nothing but stays in the history
        if to is None:
            raise RuleError(_("{player}'s accepted concession must say who receives "
                              "{player}'s territories").format(player=who))
        return eliminated(new, who, to, conceded=True)


@STEPS.register
@dataclass(frozen=True)
class Stalemate:
    """Every remaining player agrees the game is stalled: draw, score it, or name a winner.

    Scored, it scores the current position (RULES.md A.4): the one given with the step, else
    the latest entered, which must not predate an elimination or a concession."""

    kind: ClassVar[str] = "stalemate"
    RESOLUTIONS: ClassVar[tuple[str, ...]] = ("draw", "fixed_round", "agreed")
    resolution: str
    winner: str | None = None
    positions: Positions | None = None

    @classmethod
    def from_json(cls, data: Any) -> Stalemate:
        raw = obj(data, step_label(cls.kind), {"kind", "resolution"},
                  {"winner", "positions"})
        resolution = choice(raw["resolution"], _("The stalemate resolution"), cls.RESOLUTIONS)
        winner = text(raw["winner"], _("The agreed winner")) if "winner" in raw else None
        if resolution == "agreed" and winner is None:
            raise RuleError(_("An agreed stalemate must name the winner the group agreed on"))
        if resolution != "agreed" and winner is not None:
            # TRANSLATORS: {resolution} is the session file's word (draw, fixed_round).
            raise RuleError(_("A {resolution} stalemate names no winner; only an agreed one "
                              "does").format(resolution=resolution))
        positions = read_positions(raw["positions"]) if "positions" in raw else None
        if positions is not None and resolution != "fixed_round":
            # TRANSLATORS: {resolution} is the session file's word (draw, agreed).
            raise RuleError(_("A {resolution} stalemate scores nothing, so it takes no "
                              "positions; only a fixed_round one does").format(
                                  resolution=resolution))
        return cls(resolution, winner, positions)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "resolution": self.resolution}
        if self.winner is not None:
            out["winner"] = self.winner
        if self.positions is not None:
            out["positions"] = positions_json(self.positions)
        return out

    def apply(self, state: RiskState) -> RiskState:
        state = replace(stopped(state), stalemate=True)
        if self.resolution == "draw":
            return finish(state, "draw", "draw", ())
        if self.resolution == "agreed":
            assert self.winner is not None  # from_json: an agreed end names its winner
            winner = state.playing(self.winner, "be named the winner")
            return finish(state, "win", "agreed", (winner,))
        if self.positions is not None:
            return scored(replace(state, positions=check_positions(state, self.positions),
                                  positions_predate=None))
        if not state.positions:
            raise RuleError(_("No position has been recorded yet: enter every player's "
                              "territories, armies and continents as they stand now to score "
                              "the stalemate"))
        # An earlier version scored the older position: its stored stalemates stay as played.
        if state.positions_predate and not reading_stored():
            # TRANSLATORS: {event} is "Cy's elimination by Bo" or "Cy's concession to Bo".
            raise RuleError(_("The latest position was entered before {event}: enter every "
                              "player's territories, armies and continents as they stand now "
                              "to score the stalemate").format(event=state.positions_predate))
        return scored(state)


@STEPS.register
@dataclass(frozen=True)
class MissionComplete:
    """`player` reveals a completed secret mission (positions, if given, are checked)."""

    kind: ClassVar[str] = "mission_complete"
    player: str
    positions: Positions | None = None

    @classmethod
    def from_json(cls, data: Any) -> MissionComplete:
        raw = obj(data, step_label(cls.kind), {"kind", "player"}, {"positions"})
        pos = read_positions(raw["positions"]) if "positions" in raw else None
        return cls(text(raw["player"], _("The player completing a mission")), pos)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.positions is not None:
            out["positions"] = positions_json(self.positions)
        return out

    def apply(self, state: RiskState) -> RiskState:
        if state.settings.mode != "missions":
            # TRANSLATORS: {mode} is the session file's word (fixed_rounds, conquest).
            raise RuleError(_("This game is played in {mode} mode: there are no secret "
                              "missions to complete").format(mode=state.settings.mode))
        who = state.playing(self.player, "complete a mission")
        new = state
        if self.positions is not None:
            new = replace(state, positions=check_positions(state, self.positions))
        mission = state.missions[who]
        assert mission is not None  # read_players: in missions mode every seat holds one
        colour = target_colour(mission)
        if colour is not None:
            target = next(s.name for s in state.seats if s.color == colour)
            by = state.eliminated.get(target)
            said = {"player": who, "mission": mission_text(mission), "colour": shown(colour),
                    "target": target}
            if by is None:
                # TRANSLATORS: {target} is the player who plays {colour}.
                raise RuleError(_("{player}'s mission '{mission}' is not complete: {colour} "
                                  "({target}) is still in the game").format(**said))
            if by != who:
                raise RuleError(_("{player}'s mission '{mission}' is not complete: {colour} "
                                  "({target}) was eliminated by {by}, not {player}").format(
                                      by=by, **said))
        elif self.positions is not None:
            check_counts(who, mission, new.positions[who])
        return finish(stopped(new), "win", "secret_mission", (who,))


def unproven_claim(state: RiskState, player: str) -> str:
    """Why the tracker cannot confirm `player`'s mission claim made without a position, for
    the table to vouch for it or enter the position: 'No positions were entered', or where
    the latest position entered falls short of the mission. '' when there is nothing to
    vouch for: a destroy mission (the eliminations prove it) or a latest position that
    fulfils the mission."""
    who = state.player_named(player)
    mission = state.missions.get(who)
    if mission is None or target_colour(mission) is not None:
        return ""
    latest = state.positions.get(who)
    if latest is None:
        return _("No positions were entered")
    short = counts_short(who, mission, latest)
    # TRANSLATORS: {short} says where the counts fall short ("Ana holds 20 territories and
    # needs 24").
    return _("The latest position entered says otherwise ({short})").format(
        short=short) if short else ""


@STEPS.register
@dataclass(frozen=True)
class Tiebreak:
    """The group's choice for a fixed-round tie: share the victory or play one more round."""

    kind: ClassVar[str] = "tiebreak"
    RESOLUTIONS: ClassVar[tuple[str, ...]] = ("shared", "extra_round")
    resolution: str

    @classmethod
    def from_json(cls, data: Any) -> Tiebreak:
        raw = obj(data, step_label(cls.kind), {"kind", "resolution"})
        return cls(choice(raw["resolution"], _("The tie-break"), cls.RESOLUTIONS))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "resolution": self.resolution}

    def apply(self, state: RiskState) -> RiskState:
        if state.phase != "tiebreak":
            raise RuleError(_("There is no tie to break: a tie-break follows a tied "
                              "fixed-round score"))
        if self.resolution == "shared":
            return finish(state, "shared", "fixed_round", state.tied)
        # One more complete round, then score again; it counts in the rounds played.
        return replace(state, phase="round", tied=(), rounds_target=state.round + 1)

