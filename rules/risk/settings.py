"""Risk settings and seats: the victory mode, the agreed rounds, the mission deck; the
players with their colours and, in a missions game, the card each was dealt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from i18n import _
from rules.errors import RuleError
from rules.fields import (
    COLOUR_LIMIT,
    choice,
    distinct_name,
    listing,
    obj,
    player_name,
    reading_stored,
    text,
    whole,
)
from rules.risk.board import colour_named, shown
from rules.risk.missions import (
    DECKS,
    DESTROY,
    PLUS_ANY,
    deck,
    destroy_card,
    mission_text,
    target_colour,
)

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
    data = obj({} if data is None else data, _("Risk settings"), set(),
               {"mode", "rounds", "mission_deck"})
    return RiskSettings(
        mode=choice(data.get("mode", "fixed_rounds"), _("The Risk mode"), MODES),
        rounds=whole(data.get("rounds", 10), _("Rounds"), low=1, high=50),  # the setup's label
        mission_deck=choice(data.get("mission_deck", "european"), _("The mission deck"),
                            DECKS),
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
    items = listing(data, _("players"))
    if not MIN_PLAYERS <= len(items) <= MAX_PLAYERS:
        raise RuleError(_("Risk needs {low} to {high} players, not {n}").format(
            low=MIN_PLAYERS, high=MAX_PLAYERS, n=len(items)))
    seats: list[RiskSeat] = []
    for i, item in enumerate(items, 1):
        raw = obj(item, _("player {number}").format(number=i), {"name", "color"}, {"mission"})
        name = player_name(raw["name"], _("player {number}'s name").format(number=i))
        # Colours compare as words; a colour of the box is stored by its id.
        color = text(raw["color"], _("{player}'s colour").format(player=name), COLOUR_LIMIT)
        color = color.casefold() if reading_stored() else colour_named(color)
        mission = raw.get("mission")
        if mission is not None:
            mission = text(mission, _("{player}'s mission").format(player=name),
                           MISSION_LIMIT).casefold()
            if mission.startswith(DESTROY) and not reading_stored():
                mission = destroy_card(colour_named(mission[len(DESTROY):]))
        distinct_name(name, (seat.name for seat in seats))
        for seat in seats:
            if seat.color == color:
                raise RuleError(_("{first} and {second} both play {colour}: every player "
                                  "needs a colour of their own").format(
                                      first=seat.name, second=name, colour=shown(color)))
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
                # TRANSLATORS: {mode} is the session file's word (fixed_rounds, conquest).
                raise RuleError(_("{player} has a mission, but missions are only dealt in a "
                                  "missions game (this game is {mode})").format(
                                      player=seat.name, mode=settings.mode))
            continue
        if seat.mission is None:
            raise RuleError(_("{player} needs a mission card in a missions game").format(
                player=seat.name))
        if seat.mission not in cards:
            colour = target_colour(seat.mission)
            if colour and settings.mission_deck == "us1993" and colour not in colours:
                raise RuleError(_("{player}'s mission '{mission}' is not in the us1993 deck: "
                                  "the cards of colours not in the game are removed before "
                                  "dealing").format(player=seat.name,
                                                    mission=mission_text(seat.mission)))
            if seat.mission in PLUS_ANY:
                raise RuleError(_("{player}'s mission '{mission}' is only in the european "
                                  "deck, not in us1993").format(
                                      player=seat.name, mission=mission_text(seat.mission)))
            # TRANSLATORS: {card} is the card's id as written, quoted; {deck} the deck's id
            # (european, us1993); {cards} the ids of its cards.
            raise RuleError(_("{player}'s mission {card} is not a card of the {deck} deck: "
                              "the cards are {cards}").format(
                                  player=seat.name, card=repr(seat.mission),
                                  deck=settings.mission_deck, cards=", ".join(cards)))
        if seat.mission in holder:
            raise RuleError(_("{first} and {second} both hold the card '{mission}': each card "
                              "is dealt once").format(first=holder[seat.mission],
                                                       second=seat.name,
                                                       mission=mission_text(seat.mission)))
        holder[seat.mission] = seat.name
