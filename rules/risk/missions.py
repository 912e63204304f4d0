"""Risk secret missions: the two decks, their texts, dealing, and what counts can prove."""

from __future__ import annotations

import random
from typing import Any

from i18n import _
from rules.errors import RuleError
from rules.risk.board import (
    DEFAULT_COLOURS,
    Position,
    armies_colour,
    armies_counted,
    continent_named,
    joined,
    shown,
    territories_counted,
)

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
    """The mission as printed on its card, in the reader's language."""
    conquer = continents_of(mission)
    if conquer:
        names, extra = conquer
        first, second = (shown(name) for name in names)
        if extra:
            return _("Conquer {first}, {second} and one more continent of your "
                     "choice").format(first=first, second=second)
        return _("Conquer {first} and {second}").format(first=first, second=second)
    if mission == OCCUPY_18X2:
        return _("Occupy 18 territories with at least 2 armies on each")
    if mission == OCCUPY_24:
        return _("Occupy 24 territories")
    colour = target_colour(mission)
    if colour:
        # TRANSLATORS: {colour} is a colour describing the armies ("red").
        return _("Destroy all {colour} armies").format(colour=armies_colour(colour))
    # TRANSLATORS: {card} is a mission card's id as written, quoted.
    raise RuleError(_("{card} is not a mission card").format(card=repr(mission)))


# Why a mission card cannot be played and becomes '24' (an Announcement's `reason`).
OWN_COLOUR = "own_colour"  # a destroy card names its holder's own colour
ABSENT_COLOUR = "absent_colour"  # it names a colour not in the game (european deck)
DESTROYED = "destroyed"  # another player eliminated its target


def replacement_notice(player: str, card: str, reason: str, by: str | None = None,
                       target: str | None = None) -> str:
    """What `player` is told when their mission card cannot be played and becomes '24',
    for `reason` (OWN_COLOUR, ABSENT_COLOUR, or DESTROYED by `by`, who put `target` out)."""
    said = {"player": player, "mission": mission_text(card),
            "replacement": mission_text(OCCUPY_24)}
    if reason == OWN_COLOUR:
        # TRANSLATORS: {mission} and {replacement} are the texts of two mission cards.
        return _("{player}'s mission '{mission}' names {player}'s own colour: "
                 "it becomes '{replacement}'").format(**said)
    if reason == ABSENT_COLOUR:
        return _("{player}'s mission '{mission}' names a colour not in the game: "
                 "it becomes '{replacement}'").format(**said)
    # TRANSLATORS: {by} eliminated the player {target}, who played {colour}.
    return _("{player}'s mission '{mission}' can no longer be completed: {by} eliminated "
             "{colour} ({target}): it becomes '{replacement}'").format(
                 by=by, colour=shown(target_colour(card) or ""), target=target, **said)


def check_counts(player: str, mission: str, position: Position) -> None:
    """Refuse a claim that the player's counts show to be false (destroy is checked elsewhere)."""
    short = counts_short(player, mission, position)
    if short:
        # TRANSLATORS: {short} says where the counts fall short ("Ana holds 20 territories
        # and needs 24").
        raise RuleError(_("{player}'s mission '{mission}' is not complete: {short}").format(
            player=player, mission=mission_text(mission), short=short))


def counts_short(player: str, mission: str, position: Position) -> str:
    """Where the counts fall short of the mission, e.g. 'Ana holds 20 territories and needs
    24'; '' when they fulfil it (or it is a destroy mission, which counts cannot show)."""
    conquer = continents_of(mission)
    if conquer:
        names, extra = conquer
        missing = [c for c in names if c not in position.continents]
        if missing:
            return _("{player} does not hold {continents}").format(
                player=player, continents=joined(shown(c) for c in missing))
        if extra and len(position.continents) < 3:
            return _("{player} holds {continents} but no third continent").format(
                player=player, continents=joined(shown(c) for c in names))
    elif mission == OCCUPY_24:
        if position.territories < 24:
            return _("{player} holds {territories} and needs 24").format(
                player=player, territories=territories_counted(position.territories))
    elif mission == OCCUPY_18X2:
        if position.territories < 18:
            return _("{player} holds {territories} and needs 18").format(
                player=player, territories=territories_counted(position.territories))
        # 18 territories with 2 armies each, and at least 1 on every other territory held.
        need = 36 + (position.territories - 18)
        if position.armies < need:
            # TRANSLATORS: {need} is the number of armies needed.
            return _("{player} has {armies} on {territories}, and 2 on each of 18 with 1 on "
                     "the others needs {need}").format(
                         player=player, armies=armies_counted(position.armies),
                         territories=territories_counted(position.territories), need=need)
    return ""
