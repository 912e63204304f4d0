"""Players' positions on the Risk board: read from a step, worked out from who holds each
territory, and checked against the board (RULES.md A.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import RuleError
from rules.fields import listing, mapping, obj, text, whole
from rules.risk.board import (
    CONTINENTS,
    TERRITORIES,
    TERRITORY_COUNT,
    Position,
    board_order,
    continent_named,
    size,
)
from rules.risk.state import RiskState, joined

MAX_ARMIES = 9_999  # armies of one player on the board: far above any real game

Positions = tuple[tuple[str, Position], ...]  # (player name as written, position), in order


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
    counting `so_far`, while the table is still typing) a territory held by nobody."""
    n = len(state.seats)
    for territory in (*owners, *armies):
        if territory not in TERRITORIES:
            raise RuleError(f"{territory} is not a territory of the board")

    def holder(territory: str, owner: int | str | None) -> str | None:
        if owner is None or owner == 0:
            return None
        if isinstance(owner, bool) or not isinstance(owner, int | str):
            raise RuleError(f"{territory}: the owner is a seat number, not {owner!r}")
        if isinstance(owner, int):
            if not 1 <= owner <= n:
                raise RuleError(f"{territory}: there is no seat {owner} "
                                f"(the seats are 1 to {n})")
            who = state.seats[owner - 1].name
        else:
            who = state.player_named(owner)
        if who in state.eliminated:
            seat = 1 + [s.name for s in state.seats].index(who)
            raise RuleError(f"{territory}: {who} (seat {seat}) is out of the game and holds "
                            "no territory")
        return who

    held = {territory: holder(territory, owners.get(territory)) for territory in TERRITORIES}
    empty = [territory for territory, who in held.items() if who is None]
    if empty and not so_far:
        some = ", ".join(empty[:4]) + (", …" if len(empty) > 4 else "")
        have = "has" if len(empty) == 1 else "have"
        raise RuleError(f"{len(empty)} of the {TERRITORY_COUNT} territories {have} no owner "
                        f"yet ({some}): type the owner's seat number, 1 to {n}")
    counts = {name: [0, 0] for name in state.in_game}  # territories, armies
    for territory, who in held.items():
        if who is not None:
            on = whole(armies.get(territory, 0), f"The armies on {territory}",
                       low=0, high=MAX_ARMIES)
            counts[who][0] += 1
            counts[who][1] += max(1, on)
    continents: dict[str, list[str]] = {name: [] for name in state.in_game}
    for continent, (names, _) in CONTINENTS.items():
        who = {held[t] for t in names}
        if len(who) == 1 and (one := who.pop()) is not None:
            continents[one].append(continent)
    return {name: Position(t, a, tuple(continents[name])) for name, (t, a) in counts.items()}


def check_positions(state: RiskState, given: Positions) -> dict[str, Position]:
    """The positions by seat name, after every consistency check of RULES.md A.1."""
    found: dict[str, Position] = {}
    for name, pos in given:
        who = state.player_named(name)
        if who in state.eliminated:
            raise RuleError(f"{who} is out of the game (eliminated by {state.eliminated[who]}): "
                            f"leave {who} out of the positions")
        if who in found:
            raise RuleError(f"The positions list {who} twice")
        found[who] = pos
    missing = [p for p in state.in_game if p not in found]
    if missing:
        are = "is" if len(missing) == 1 else "are"
        raise RuleError(f"The positions leave out {joined(missing)}, who {are} still in the "
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
            raise RuleError(f"{who} cannot hold {joined(pos.continents)} with "
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
        why = (f"every one of the {TERRITORY_COUNT} territories is held by someone"
               if total < TERRITORY_COUNT else f"the board has only {TERRITORY_COUNT} territories")
        raise RuleError(f"{listed}: {total} in all, but {why}")
    for who, pos in ordered.items():
        others = [p for p in ordered if p != who]
        if pos.territories == TERRITORY_COUNT and others:
            raise RuleError(f"{who} holds all {TERRITORY_COUNT} territories: record the "
                            f"elimination of {joined(others)} first")
    return ordered
