"""Risk settings and seats: the victory mode, the agreed rounds, the mission deck; the
players with their colours and, in a missions game, the card each was dealt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import RuleError
from rules.fields import (
    COLOUR_LIMIT,
    choice,
    distinct_name,
    listing,
    obj,
    player_name,
    text,
    whole,
)
from rules.risk.missions import DECKS, PLUS_ANY, deck, mission_text, target_colour

MODES = ("fixed_rounds", "conquest", "missions")
MIN_PLAYERS = 2
MAX_PLAYERS = 6  # one per colour of the box
MISSION_LIMIT = 40  # a mission card's id, destroy:<colour> with the longest colour


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
        rounds=whole(data.get("rounds", 10), "Rounds", low=1, high=50),  # the setup's label
        mission_deck=choice(data.get("mission_deck", "european"), "The mission deck", DECKS),
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
    if not MIN_PLAYERS <= len(items) <= MAX_PLAYERS:
        raise RuleError(f"Risk needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(items)}")
    seats: list[RiskSeat] = []
    for i, item in enumerate(items, 1):
        raw = obj(item, f"player {i}", {"name", "color"}, {"mission"})
        name = player_name(raw["name"], f"player {i}'s name")
        # Colours compare as words.
        color = text(raw["color"], f"{name}'s colour", COLOUR_LIMIT).casefold()
        mission = raw.get("mission")
        if mission is not None:
            mission = text(mission, f"{name}'s mission", MISSION_LIMIT).casefold()
        distinct_name(name, (seat.name for seat in seats))
        for seat in seats:
            if seat.color == color:
                raise RuleError(f"{seat.name} and {name} both play {color}: "
                                "every player needs a colour of their own")
        seats.append(RiskSeat(name, color, mission))
    check_missions(seats, settings)
    return tuple(seats)


def check_missions(seats: list[RiskSeat], settings: RiskSettings) -> None:
    """Missions only in a missions game, one card each, every card from the chosen deck."""
    colours = [s.color for s in seats]
    cards = deck(settings, colours)
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
            colour = target_colour(seat.mission)
            if colour and settings.mission_deck == "us1993" and colour not in colours:
                raise RuleError(f"{seat.name}'s mission '{mission_text(seat.mission)}' is not "
                                "in the us1993 deck: the cards of colours not in the game "
                                "are removed before dealing")
            if seat.mission in PLUS_ANY:
                raise RuleError(f"{seat.name}'s mission '{mission_text(seat.mission)}' is "
                                "only in the european deck, not in us1993")
            raise RuleError(f"{seat.name}'s mission {seat.mission!r} is not a card of the "
                            f"{settings.mission_deck} deck: the cards are {', '.join(cards)}")
        if seat.mission in holder:
            raise RuleError(f"{holder[seat.mission]} and {seat.name} both hold the card "
                            f"'{mission_text(seat.mission)}': each card is dealt once")
        holder[seat.mission] = seat.name
