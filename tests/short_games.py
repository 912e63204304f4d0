"""Short finished games as session files, for the tests of groups, seasons, ratings and the
group's statistics: replayed through the ledger, each is a finished game in a few steps.

- `risk_night`: fixed-round Risk of one round; each player's territories say the order
  (distinct counts: no tie to settle), `out` players are eliminated first (in that order),
  and `shared` makes the top two tie and share the win.
- `soe_war`: Struggle of Empires over three wars for four players; the player given leads
  every war, so wins.
"""

from __future__ import annotations

from typing import Any

COLOURS = ("red", "blue", "green", "yellow", "black", "purple")
POWERS = ("France", "Britain", "Austria", "Russia")


def risk_night(order: list[str], *, out: tuple[str, ...] = (), shared: bool = False,
               title: str = "Risk night") -> dict[str, Any]:
    """A one-round Risk game: `order` best first among those still in at the end, `out`
    (also seated, after them) eliminated before the round, the first out first."""
    seated = [*order, *out]
    steps: list[dict[str, Any]] = [
        {"kind": "eliminate", "player": name, "by": order[0]} for name in out]
    positions = {name: {"territories": t, "armies": t + 5, "continents": []}
                 for name, t in zip(order, held(len(order), shared), strict=True)}
    steps.append({"kind": "round", "positions": positions})
    if shared:
        steps.append({"kind": "tiebreak", "resolution": "shared"})
    return {"format": "warledger/1", "game": "risk", "title": title,
            "settings": {"mode": "fixed_rounds", "rounds": 1},
            "players": [{"name": name, "color": COLOURS[n]} for n, name in enumerate(seated)],
            "steps": steps}


def held(players: int, shared: bool) -> list[int]:
    """Territories for `players` still in, best first, all 42 held: distinct counts, or the
    top two level when `shared`."""
    level = 2 if shared else 1
    others = list(range(players - level, 0, -1))
    rest = 42 - sum(others)
    if shared and rest % 2:
        others[0] += 1
        rest -= 1
    return [rest // level] * level + others


def soe_war(players: list[str], leader: int, *, title: str = "SoE night") -> dict[str, Any]:
    """Three wars of Struggle of Empires for four players (France, Britain, Austria, Russia
    in seat order); `players[leader]`'s power holds the most every war."""
    from tui.games.soe.demo import DEMO_REGIONS

    first = POWERS[leader]
    second = POWERS[(leader + 1) % 4]
    steps: list[dict[str, Any]] = []
    for war in range(3):
        grid = {"German States": {first: 3, second: 1}, "India": {first: 2},
                "Baltic": {second: 2}}
        steps += [{"kind": "income", "regions": grid}, {"kind": "upkeep"},
                  {"kind": "population"}, {"kind": "scoring"},
                  {"kind": "end_war" if war < 2 else "end_game"}]
    return {"format": "warledger/1", "game": "soe", "title": title,
            "settings": {"regions": DEMO_REGIONS},
            "players": [{"name": n, "power": p} for n, p in zip(players, POWERS, strict=True)],
            "steps": steps}
