"""Each Struggle of Empires step told as the table would say it, for the game's history:
"War 2 upkeep: Ana (France) paid 7 and taxed twice (+3 unrest): gold 3 → 0, unrest 2 → 5".

A line names the war, each power with its player, and the figures the step changed, read
from the states before and after it (the fold), never worked out again here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.soe.settings import MAX_POPULATION
from rules.soe.state import PHASE_NAMES, WARS, Empire, SoeState, Units
from rules.soe.steps import POPULATION_GROWTH

FIGURES = ("gold", "population", "unrest", "vp")
SAID_AS = {"vp": "VP"}  # a figure's name in a line; the others are said as they are


def describe(before: SoeState, step: Any, after: SoeState) -> str:
    """What `step` did, in one line of the players' words, from the states around it.

    An undo or a redo is told by where the game now stands and the totals it changed."""
    return TELLERS[step.kind](before, step, after)


def seat(state: SoeState, power: str) -> str:
    """'Ana (France)': the player, then the power they play."""
    return f"{state.seat_of(power).name} ({power})"


def moved(before: Empire, after: Empire, figures: tuple[str, ...] = FIGURES) -> str:
    """'gold 9 → 6, unrest 2 → 5': the figures that changed, from before to after."""
    return ", ".join(f"{SAID_AS.get(f, f)} {getattr(before, f)} → {getattr(after, f)}"
                     for f in figures if getattr(before, f) != getattr(after, f))


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def values(printed: tuple[int, ...]) -> str:
    return "/".join(map(str, printed)) or "none"


def where(state: SoeState) -> str:
    """'war 2 at upkeep', or 'the game is over'."""
    if state.finished:
        return "the game is over"
    return f"war {state.war} at {PHASE_NAMES[state.phase].lower()}"


# ---------------------------------------------------------------- at any time of a war

def tax(before: SoeState, step: Any, after: SoeState) -> str:
    was, now = before.empires[step.power], after.empires[step.power]
    return (f"War {before.war} taxation: {seat(before, step.power)} "
            f"{now.gold - was.gold:+d} gold, unrest token {step.unrest} ({moved(was, now)})")


def adjust(before: SoeState, step: Any, after: SoeState) -> str:
    was, now = before.empires[step.power], after.empires[step.power]
    changes = ", ".join(f"{f} {getattr(now, f) - getattr(was, f):+d} "
                        f"({getattr(was, f)} → {getattr(now, f)})"
                        for f in ("gold", "population", "unrest")
                        if getattr(was, f) != getattr(now, f))
    reason = f" — {step.note}" if step.note else ""
    return (f"War {before.war} correction for {seat(before, step.power)}: "
            f"{changes or 'no change'}{reason}")


def board(before: SoeState, step: Any, after: SoeState) -> str:
    said = []
    for region, printed in step.regions.items():
        old = before.settings.regions.get(region, ())
        said.append(f"{region} {values(printed)}"
                    + (f" (was {values(old)})" if old and tuple(old) != tuple(printed) else ""))
    return f"War {before.war} region values: {', '.join(said)}"


# ---------------------------------------------------------------- the end of a war, in order

def income(before: SoeState, step: Any, after: SoeState) -> str:
    if step.regions is not None:
        how = "region grid"
        markers = {p: sum(row.get(p, 0) for row in step.regions.values())
                   for p in before.powers}
    else:
        how, markers = "markers per power", dict(step.markers or {})
    said = []
    for power in before.powers:
        was, now = before.empires[power], after.empires[power]
        n = markers.get(power, 0)
        said.append(f"{seat(before, power)} {now.gold - was.gold:+d} gold (population "
                    f"{was.population} + {n} marker{'' if n == 1 else 's'}, "
                    f"{was.gold} → {now.gold})")
    return f"War {before.war} income ({how}): {'; '.join(said)}"


def upkeep(before: SoeState, step: Any, after: SoeState) -> str:
    said = []
    for power in before.powers:
        cost = step.units.get(power, Units()).upkeep
        tokens = step.taxes.get(power, ())
        what = f"paid {cost}" if cost else "paid nothing"
        if tokens:
            what += f" and taxed {times(len(tokens))} (+{sum(tokens)} unrest)"
        changed = moved(before.empires[power], after.empires[power])
        said.append(f"{seat(before, power)} {what}" + (f": {changed}" if changed else ""))
    return f"War {before.war} upkeep: {'; '.join(said)}"


def population(before: SoeState, step: Any, after: SoeState) -> str:
    grown = [f"{seat(before, p)} {before.empires[p].population} → "
             f"{after.empires[p].population}" for p in before.powers
             if before.empires[p].population != after.empires[p].population]
    return (f"War {before.war} population (+{POPULATION_GROWTH}, at most {MAX_POPULATION}): "
            + (", ".join(grown) or f"every population already at {MAX_POPULATION}"))


def scoring(before: SoeState, step: Any, after: SoeState) -> str:
    grid = "a new region grid" if step.regions is not None else "the income grid"
    won, nothing = [], []
    for power in before.powers:
        was, now = before.empires[power].vp, after.empires[power].vp
        if now == was:
            nothing.append(seat(before, power))
        else:
            won.append(f"{seat(before, power)} {now - was:+d} VP ({was} → {now})")
    said = ", ".join(won) or "no VP won"
    if won and nothing:
        said += f"; no VP for {', '.join(nothing)}"
    return f"War {before.war} scoring ({grid}): {said}"


def end_war(before: SoeState, step: Any, after: SoeState) -> str:
    vp = ", ".join(f"{seat(before, p)} {before.empires[p].vp} VP" for p in before.powers)
    return f"End of war {before.war}: {vp}; war {after.war} begins"


def end_game(before: SoeState, step: Any, after: SoeState) -> str:
    ending = after.ending
    winners = ", ".join(seat(after, p) for p in ending.winners)
    best = max((ending.final_vp[p] for p in ending.winners), default=0)
    result = {"win": f"{winners} wins with {best} VP",
              "shared": f"{winners} share the victory with {best} VP each",
              "draw": "a draw: every power is in revolution"}[ending.result]
    final = []
    for power in after.powers:
        why = ""
        if power in ending.revolution:
            why = f" (revolution: unrest {after.empires[power].unrest})"
        elif ending.penalty[power]:
            why = (f" ({after.empires[power].vp} - {ending.penalty[power]} for unrest "
                   f"{after.empires[power].unrest})")
        final.append(f"{seat(after, power)} {ending.final_vp[power]}{why}")
    return f"End of the game after war {WARS}: {result}; final VP {', '.join(final)}"


# ---------------------------------------------------------------- undo and redo

def turned(before: SoeState, step: Any, after: SoeState) -> str:
    """Where an undo or redo leaves the game, and every total and region value it moved."""
    said = [f"{seat(after, p)} {moved(before.empires[p], after.empires[p])}"
            for p in after.powers if before.empires[p] != after.empires[p]]
    said += [f"{region} {values(before.settings.regions.get(region, ()))} → {values(printed)}"
             for region, printed in after.settings.regions.items()
             if tuple(before.settings.regions.get(region, ())) != tuple(printed)]
    return f"{where(after)}; {'; '.join(said) or 'no totals change'}"


TELLERS: dict[str, Callable[[SoeState, Any, SoeState], str]] = {
    "tax": tax, "adjust": adjust, "board": board, "income": income, "upkeep": upkeep,
    "population": population, "scoring": scoring, "end_war": end_war,
    "end_game": end_game, "undo": turned, "redo": turned,
}
