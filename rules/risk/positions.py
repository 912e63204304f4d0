"""Players' positions on the Risk board: read from a step, worked out from who holds each
territory, and checked against the board (RULES.md A.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import _, ngettext
from rules.errors import RuleError
from rules.fields import listing, mapping, obj, text, whole
from rules.risk.board import (
    CONTINENTS,
    TERRITORIES,
    TERRITORY_COUNT,
    Position,
    armies_counted,
    board_order,
    continent_named,
    joined,
    one_and_another,
    shown,
    size,
    territories_counted,
    territory_named,
)
from rules.risk.state import RiskState

MAX_ARMIES = 9_999  # armies of one player on the board: far above any real game

Positions = tuple[tuple[str, Position], ...]  # (player name as written, position), in order


def read_position(data: Any, player: str) -> Position:
    """One player's counts from {territories, armies, continents?}."""
    raw = obj(data, _("{player}'s position").format(player=player),
              {"territories", "armies"}, {"continents"})
    territories = whole(raw["territories"], _("{player}'s territories").format(player=player),
                        low=0, high=TERRITORY_COUNT)
    armies = whole(raw["armies"], _("{player}'s armies").format(player=player),
                   low=0, high=MAX_ARMIES)
    held: list[str] = []
    for item in listing(raw.get("continents", []),
                        _("{player}'s continents").format(player=player)):
        name = continent_named(item)
        if name in held:
            raise RuleError(_("{player}'s continents list {continent} twice").format(
                player=player, continent=shown(name)))
        held.append(name)
    return Position(territories, armies, board_order(held))


def read_positions(data: Any) -> Positions:
    """{player name: position} in the order written."""
    out = []
    for name, pos in mapping(data, _("positions")).items():
        who = text(name, _("a player's name in positions"))
        out.append((who, read_position(pos, who)))
    return tuple(out)


def positions_json(positions: Positions) -> dict[str, Any]:
    """Positions as the session file writes them."""
    return {name: pos.to_json() for name, pos in positions}


def positions_from_owners(state: RiskState, owners: Mapping[str, int | str | None],
                          armies: Mapping[str, int], *,
                          so_far: bool = False) -> dict[str, Position]:
    """Each player still in the game's position, from who holds each territory.

    `owners` maps a territory to its holder, by seat number (1 to the number of seats) or
    by name; 0 or None is nobody yet. Armies left at 0 on a held territory count as 1:
    every territory holds at least one army. A continent is held by the player holding
    all its territories. Refused in the players' words: a territory not on the board, a
    seat not at the table, a player out of the game, armies out of bounds, and (unless
    counting `so_far`, while the table is still typing) a territory held by nobody.
    A territory is named by its id or as the reader's language names it."""
    n = len(state.seats)
    owners = {territory_named(t): owner for t, owner in owners.items()}
    armies = {territory_named(t): on for t, on in armies.items()}

    def holder(territory: str, owner: int | str | None) -> str | None:
        place = shown(territory)
        if owner is None or owner == 0:
            return None
        if isinstance(owner, bool) or not isinstance(owner, int | str):
            # TRANSLATORS: {owner} is what was given, as the code writes it.
            raise RuleError(_("{territory}: the owner is a seat number, not {owner}").format(
                territory=place, owner=repr(owner)))
        if isinstance(owner, int):
            if not 1 <= owner <= n:
                raise RuleError(_("{territory}: there is no seat {seat} (the seats are 1 to "
                                  "{n})").format(territory=place, seat=owner, n=n))
            who = state.seats[owner - 1].name
        else:
            who = state.player_named(owner)
        if who in state.eliminated:
            seat = 1 + [s.name for s in state.seats].index(who)
            raise RuleError(_("{territory}: {player} (seat {seat}) is out of the game and "
                              "holds no territory").format(territory=place, player=who,
                                                            seat=seat))
        return who

    held = {territory: holder(territory, owners.get(territory)) for territory in TERRITORIES}
    empty = [territory for territory, who in held.items() if who is None]
    if empty and not so_far:
        some = ", ".join(shown(t) for t in empty[:4]) + (", …" if len(empty) > 4 else "")
        # TRANSLATORS: {some} names the first territories with no owner; {n} is the number
        # of seats.
        raise RuleError(ngettext(
            "{count} of the {total} territories has no owner yet ({some}): type the owner's "
            "seat number, 1 to {n}",
            "{count} of the {total} territories have no owner yet ({some}): type the owner's "
            "seat number, 1 to {n}", len(empty)).format(
                count=len(empty), total=TERRITORY_COUNT, some=some, n=n))
    counts = {name: [0, 0] for name in state.in_game}  # territories, armies
    for territory, who in held.items():
        if who is not None:
            on = whole(armies.get(territory, 0),
                       _("The armies on {territory}").format(territory=shown(territory)),
                       low=0, high=MAX_ARMIES)
            counts[who][0] += 1
            counts[who][1] += max(1, on)
    continents: dict[str, list[str]] = {name: [] for name in state.in_game}
    for continent, (names, _bonus) in CONTINENTS.items():
        holders = {held[t] for t in names}
        if len(holders) == 1 and (one := holders.pop()) is not None:
            continents[one].append(continent)
    return {name: Position(t, a, tuple(continents[name])) for name, (t, a) in counts.items()}


def check_position(who: str, pos: Position) -> None:
    """The checks of RULES.md A.1 that one player's own position answers alone (armies on
    every territory, continents that fit the territories held); the rest needs everyone's.
    A seat's part is refused by these as soon as it is marked ready."""
    if pos.armies < pos.territories:
        raise RuleError(_("{player} has {armies} on {territories}: every territory needs "
                          "at least one army").format(
                              player=who, armies=armies_counted(pos.armies),
                              territories=territories_counted(pos.territories)))
    need = sum(size(c) for c in pos.continents)
    if need > pos.territories:
        if len(pos.continents) == 1:
            c = pos.continents[0]
            # TRANSLATORS: {need} is how many territories {continent} has.
            raise RuleError(_("{player} cannot hold {continent} with {territories}: "
                              "{continent} has {need}").format(
                                  player=who, continent=shown(c), need=need,
                                  territories=territories_counted(pos.territories)))
        # TRANSLATORS: {need} is how many territories the continents have in all.
        raise RuleError(_("{player} cannot hold {continents} with {territories}: they "
                          "have {need} between them").format(
                              player=who, continents=joined(map(shown, pos.continents)),
                              territories=territories_counted(pos.territories), need=need))


def check_positions(state: RiskState, given: Positions) -> dict[str, Position]:
    """The positions by seat name, after every consistency check of RULES.md A.1."""
    found: dict[str, Position] = {}
    for name, pos in given:
        who = state.player_named(name)
        if who in state.eliminated:
            raise RuleError(_("{player} is out of the game (eliminated by {by}): leave "
                              "{player} out of the positions").format(
                                  player=who, by=state.eliminated[who]))
        if who in found:
            raise RuleError(_("The positions list {player} twice").format(player=who))
        found[who] = pos
    missing = [p for p in state.in_game if p not in found]
    if missing:
        raise RuleError(ngettext(
            "The positions leave out {players}, who is still in the game: enter every "
            "player's territories and armies",
            "The positions leave out {players}, who are still in the game: enter every "
            "player's territories and armies", len(missing)).format(players=joined(missing)))
    ordered = {p: found[p] for p in state.in_game}
    holder: dict[str, str] = {}
    for who, pos in ordered.items():
        check_position(who, pos)
        for c in pos.continents:
            if c in holder:
                raise RuleError(_("{continent} cannot be held by both {first} and {second}: "
                                  "a continent held completely has one holder").format(
                                      continent=shown(c), first=holder[c], second=who))
            holder[c] = who
    total = sum(pos.territories for pos in ordered.values())
    if total != TERRITORY_COUNT:
        (first, held_first), *rest = ordered.items()
        listed = one_and_another(
            [_("{player} holds {territories}").format(
                player=first, territories=territories_counted(held_first.territories))]
            # TRANSLATORS: a player and the territories they hold, after the first of a
            # list ("Ana holds 20 territories and Bo 12").
            + [_("{player} {count}").format(player=w, count=p.territories) for w, p in rest])
        if total < TERRITORY_COUNT:
            # TRANSLATORS: {listed} is "Ana holds 20 territories and Bo 12".
            said = _("{listed}: {sum} in all, but every one of the {total} territories is "
                     "held by someone")
        else:
            said = _("{listed}: {sum} in all, but the board has only {total} territories")
        raise RuleError(said.format(listed=listed, sum=total, total=TERRITORY_COUNT))
    for who, pos in ordered.items():
        others = [p for p in ordered if p != who]
        if pos.territories == TERRITORY_COUNT and others:
            raise RuleError(_("{player} holds all {total} territories: record the elimination "
                              "of {players} first").format(player=who, total=TERRITORY_COUNT,
                                                            players=joined(others)))
    return ordered
