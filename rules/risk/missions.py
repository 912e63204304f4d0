"""Risk secret missions: the two decks, their texts, dealing, and what counts can prove."""

from __future__ import annotations

import random
from typing import Any

from rules.errors import RuleError
from rules.risk.board import DEFAULT_COLOURS, Position, continent_named

DECKS = ("european", "us1993")
TWO_CONTINENTS = ("asia+south-america", "asia+africa", "north-america+africa",
                  "north-america+australia")
PLUS_ANY = ("europe+south-america+any", "europe+australia+any")  # european only
OCCUPY_18X2 = "18x2"
OCCUPY_24 = "24"
DESTROY = "destroy:"


def destroy_card(colour: str) -> str:
    """The id of the card 'destroy all <colour> armies'."""
    return DESTROY + colour.casefold()


def target_colour(mission: str | None) -> str | None:
    """The colour a destroy mission names, or None for any other mission."""
    if mission and mission.startswith(DESTROY):
        return mission[len(DESTROY):]
    return None


def deck_colours(colours: Any) -> tuple[str, ...]:
    """The colours with a destroy card: the six printed ones, plus any colour a group added."""
    extra = [c.casefold() for c in colours if c.casefold() not in DEFAULT_COLOURS]
    return DEFAULT_COLOURS + tuple(dict.fromkeys(extra))


def deck(settings: Any, colours: Any) -> list[str]:
    """The mission cards of the chosen deck for a game with these colours.

    european: 14 cards, destroy cards for every colour (absent ones are replaced at start);
    us1993: 12 cards, the destroy cards of colours not in the game are removed before dealing.
    """
    in_game = [c.casefold() for c in colours]
    cards = list(TWO_CONTINENTS)
    if settings.mission_deck == "european":
        cards += PLUS_ANY
    cards += [OCCUPY_18X2, OCCUPY_24]
    for colour in deck_colours(in_game):
        if settings.mission_deck == "european" or colour in in_game:
            cards.append(destroy_card(colour))
    return cards


def deal(settings: Any, seats_colours: Any, rng: random.Random) -> list[str]:
    """One random card per seat (in seat order), each card at most once."""
    colours = list(seats_colours)
    return rng.sample(deck(settings, colours), len(colours))


def continents_of(mission: str) -> tuple[tuple[str, ...], bool] | None:
    """For a conquer mission: the continents named and whether one more (any) is needed."""
    if mission in TWO_CONTINENTS or mission in PLUS_ANY:
        parts = mission.split("+")
        extra = parts[-1] == "any"
        names = tuple(continent_named(p) for p in parts if p != "any")
        return names, extra
    return None


def mission_text(mission: str) -> str:
    """The mission in plain English, as printed on its card."""
    conquer = continents_of(mission)
    if conquer:
        names, extra = conquer
        if extra:
            return f"Conquer {names[0]}, {names[1]} and one more continent of your choice"
        return f"Conquer {names[0]} and {names[1]}"
    if mission == OCCUPY_18X2:
        return "Occupy 18 territories with at least 2 armies on each"
    if mission == OCCUPY_24:
        return "Occupy 24 territories"
    colour = target_colour(mission)
    if colour:
        return f"Destroy all {colour} armies"
    raise RuleError(f"{mission!r} is not a mission card")


def replacement_notice(player: str, card: str, why: str) -> str:
    """What `player` is told when their mission card cannot be played and becomes '24'."""
    return (f"{player}'s mission '{mission_text(card)}' {why}: "
            f"it becomes '{mission_text(OCCUPY_24)}'")


def check_counts(player: str, mission: str, position: Position) -> None:
    """Refuse a claim that the player's counts show to be false (destroy is checked elsewhere)."""
    short = counts_short(player, mission, position)
    if short:
        raise RuleError(f"{player}'s mission '{mission_text(mission)}' is not complete: {short}")


def counts_short(player: str, mission: str, position: Position) -> str:
    """Where the counts fall short of the mission, e.g. 'Ana holds 20 territories and needs
    24'; '' when they fulfil it (or it is a destroy mission, which counts cannot show)."""
    conquer = continents_of(mission)
    if conquer:
        names, extra = conquer
        missing = [c for c in names if c not in position.continents]
        if missing:
            return f"{player} does not hold {' and '.join(missing)}"
        if extra and len(position.continents) < 3:
            return f"{player} holds {' and '.join(names)} but no third continent"
    elif mission == OCCUPY_24:
        if position.territories < 24:
            return f"{player} holds {position.territories} territories and needs 24"
    elif mission == OCCUPY_18X2:
        if position.territories < 18:
            return f"{player} holds {position.territories} territories and needs 18"
        # 18 territories with 2 armies each, and at least 1 on every other territory held.
        need = 36 + (position.territories - 18)
        if position.armies < need:
            return (f"{player} has {position.armies} armies on {position.territories} "
                    f"territories, and 2 on each of 18 with 1 on the others needs {need}")
    return ""
