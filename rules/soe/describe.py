"""Each Struggle of Empires step told as the table would say it, for the game's history:
"War 2 upkeep: Ana (France) paid 7 and taxed twice (+3 unrest): gold 3 → 0, unrest 2 → 5".

A line names the war, each power with its player, and the figures the step changed, read
from the states before and after it (the fold), never worked out again here. It is told in
the reader's language when the history is read: powers and regions with `shown`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import _, ngettext, pgettext
from rules.names import phase_named
from rules.ruleset import Words
from rules.soe.regions import shown
from rules.soe.settings import MAX_POPULATION
from rules.soe.state import WARS, Empire, SoeState, Units
from rules.soe.steps import POPULATION_GROWTH

FIGURES = ("gold", "population", "unrest", "vp")


def describe(before: SoeState, step: Any, after: SoeState) -> str:
    """What `step` did, in one line of the players' words, from the states around it.

    An undo or a redo is told by where the game now stands and the totals it changed."""
    return TELLERS[step.kind](before, step, after)


def figure(name: str) -> str:
    """A power's figure as a line names it: 'gold', 'VP'."""
    said = {"gold": pgettext("figure", "gold"), "population": pgettext("figure", "population"),
            "unrest": pgettext("figure", "unrest"), "vp": pgettext("figure", "VP")}
    return said.get(name, name)


def seat(state: SoeState, power: str) -> str:
    """'Ana (France)': the player, then the power they play."""
    return f"{state.seat_of(power).name} ({shown(power)})"


def moved(before: Empire, after: Empire, figures: tuple[str, ...] = FIGURES) -> str:
    """'gold 9 → 6, unrest 2 → 5': the figures that changed, from before to after."""
    return ", ".join(f"{figure(f)} {getattr(before, f)} → {getattr(after, f)}"
                     for f in figures if getattr(before, f) != getattr(after, f))


def times(n: int) -> str:
    """'once', 'twice', '3 times'."""
    if n == 1:
        return _("once")
    if n == 2:
        return _("twice")
    # TRANSLATORS: how many times a power taxed; 1 and 2 are said as "once" and "twice".
    return ngettext("{n} time", "{n} times", n).format(n=n)


def values(printed: tuple[int, ...]) -> str:
    """'8/5/3', or 'none' for a region whose values are not entered."""
    return "/".join(map(str, printed)) or pgettext("printed values", "none")


def where(state: SoeState) -> str:
    """'war 2 at upkeep', or 'the game is over'."""
    if state.finished:
        return _("the game is over")
    # TRANSLATORS: where the game stands; {phase} is the phase in lower case ("upkeep").
    return _("war {war} at {phase}").format(
        war=state.war, phase=phase_named("soe", state.phase).lower())


# ---------------------------------------------------------------- at any time of a war

def tax(before: SoeState, step: Any, after: SoeState) -> str:
    was, now = before.empires[step.power], after.empires[step.power]
    # TRANSLATORS: {seat} is "Ana (France)", {gold} the gold won ("+2"), {token} the unrest
    # token drawn, {changes} the figures that changed ("gold 10 → 12, unrest 0 → 3").
    return _("War {war} taxation: {seat} {gold} gold, unrest token {token} "
             "({changes})").format(war=before.war, seat=seat(before, step.power),
                                  gold=f"{now.gold - was.gold:+d}", token=step.unrest,
                                  changes=moved(was, now))


def adjust(before: SoeState, step: Any, after: SoeState) -> str:
    was, now = before.empires[step.power], after.empires[step.power]
    changes = ", ".join(f"{figure(f)} {getattr(now, f) - getattr(was, f):+d} "
                        f"({getattr(was, f)} → {getattr(now, f)})"
                        for f in ("gold", "population", "unrest")
                        if getattr(was, f) != getattr(now, f))
    said = dict(war=before.war, seat=seat(before, step.power),
                changes=changes or _("no change"))
    if step.note:
        # TRANSLATORS: {changes} is "gold -3 (10 → 7)", {note} the reason the table gave.
        return _("War {war} correction for {seat}: {changes} — {note}").format(
            note=step.note, **said)
    return _("War {war} correction for {seat}: {changes}").format(**said)


def board(before: SoeState, step: Any, after: SoeState) -> str:
    said = []
    for region, printed in step.regions.items():
        old = before.settings.regions.get(region, ())
        if old and tuple(old) != tuple(printed):
            # TRANSLATORS: a region's printed values corrected: "Baltic 6/3 (was 5/3)".
            said.append(_("{region} {values} (was {old})").format(
                region=shown(region), values=values(printed), old=values(old)))
        else:
            said.append(f"{shown(region)} {values(printed)}")
    return _("War {war} region values: {regions}").format(war=before.war,
                                                         regions=", ".join(said))


# ---------------------------------------------------------------- the end of a war, in order

def income(before: SoeState, step: Any, after: SoeState) -> str:
    if step.regions is not None:
        markers = {p: sum(row.get(p, 0) for row in step.regions.values())
                   for p in before.powers}
    else:
        markers = dict(step.markers or {})
    said = []
    for power in before.powers:
        was, now = before.empires[power], after.empires[power]
        n = markers.get(power, 0)
        # TRANSLATORS: {gold} is the gold won ("+4"), {n} the power's control markers.
        said.append(ngettext(
            "{seat} {gold} gold (population {population} + {n} marker, {before} → {after})",
            "{seat} {gold} gold (population {population} + {n} markers, {before} → {after})",
            n).format(seat=seat(before, power), gold=f"{now.gold - was.gold:+d}",
                      population=was.population, n=n, before=was.gold, after=now.gold))
    if step.regions is not None:
        return _("War {war} income (region grid): {powers}").format(
            war=before.war, powers="; ".join(said))
    return _("War {war} income (markers per power): {powers}").format(
        war=before.war, powers="; ".join(said)) + without_parts(before, step.missing)


def upkeep(before: SoeState, step: Any, after: SoeState) -> str:
    said = []
    for power in before.powers:
        cost = step.units.get(power, Units()).upkeep
        tokens = step.taxes.get(power, ())
        who = seat(before, power)
        if tokens:
            # TRANSLATORS: {times} is "once", "twice", "3 times"; {unrest} the tokens' sum.
            what = (_("{seat} paid {cost} and taxed {times} (+{unrest} unrest)") if cost
                    else _("{seat} paid nothing and taxed {times} (+{unrest} unrest)")).format(
                seat=who, cost=cost, times=times(len(tokens)), unrest=sum(tokens))
        else:
            what = (_("{seat} paid {cost}") if cost else _("{seat} paid nothing")).format(
                seat=who, cost=cost)
        changed = moved(before.empires[power], after.empires[power])
        said.append(what + (f": {changed}" if changed else ""))
    return _("War {war} upkeep: {powers}").format(
        war=before.war, powers="; ".join(said)) + without_parts(before, step.missing)


def without_parts(before: SoeState, missing: tuple[str, ...]) -> str:
    """' (recorded without the part of Bo (Spain))' after a step recorded from the seats'
    parts with some not ready; '' when none was missing."""
    if not missing:
        return ""
    # TRANSLATORS: after a step recorded without some players' own parts; {seats} names
    # them ("Bo (Spain)"), {count} how many.
    return " " + ngettext("(recorded without the part of {seats})",
                          "(recorded without the parts of {seats})", len(missing)).format(
        seats=", ".join(seat(before, p) for p in missing), count=len(missing))


def population(before: SoeState, step: Any, after: SoeState) -> str:
    grown = [f"{seat(before, p)} {before.empires[p].population} → "
             f"{after.empires[p].population}" for p in before.powers
             if before.empires[p].population != after.empires[p].population]
    said = dict(war=before.war, growth=POPULATION_GROWTH, most=MAX_POPULATION)
    if grown:
        # TRANSLATORS: {growth} is what each population rises by, {most} its highest.
        return _("War {war} population (+{growth}, at most {most}): {powers}").format(
            powers=", ".join(grown), **said)
    return _("War {war} population (+{growth}, at most {most}): every population already "
             "at {most}").format(**said)


def scoring(before: SoeState, step: Any, after: SoeState) -> str:
    won, nothing = [], []
    for power in before.powers:
        was, now = before.empires[power].vp, after.empires[power].vp
        if now == was:
            nothing.append(seat(before, power))
        else:
            # TRANSLATORS: the VP a power won at a scoring: "Ana (France) +8 VP (0 → 8)".
            won.append(_("{seat} {vp} VP ({before} → {after})").format(
                seat=seat(before, power), vp=f"{now - was:+d}", before=was, after=now))
    said = ", ".join(won) or _("no VP won")
    if won and nothing:
        # TRANSLATORS: {won} is the VP won by some powers, {seats} the powers that won none.
        said = _("{won}; no VP for {seats}").format(won=said, seats=", ".join(nothing))
    if step.regions is not None:
        return _("War {war} scoring (a new region grid): {said}").format(war=before.war,
                                                                        said=said)
    return _("War {war} scoring (the income grid): {said}").format(war=before.war, said=said)


def end_war(before: SoeState, step: Any, after: SoeState) -> str:
    vp = ", ".join(_("{seat} {vp} VP").format(seat=seat(before, p), vp=before.empires[p].vp)
                   for p in before.powers)
    # TRANSLATORS: {standings} is each power's VP: "Ana (France) 8 VP, Bo (Spain) 3 VP".
    return _("End of war {war}: {standings}; war {next} begins").format(
        war=before.war, standings=vp, next=after.war)


def end_game(before: SoeState, step: Any, after: SoeState) -> str:
    ending = after.ending
    assert ending is not None  # the end_game step ends the game
    winners = ", ".join(seat(after, p) for p in ending.winners)
    best = max((ending.final_vp[p] for p in ending.winners), default=0)
    if ending.result == "win":
        result = _("{winners} wins with {vp} VP").format(winners=winners, vp=best)
    elif ending.result == "shared":
        result = _("{winners} share the victory with {vp} VP each").format(winners=winners,
                                                                          vp=best)
    else:
        result = _("a draw: every power is in revolution")
    final = []
    for power in after.powers:
        e, vp = after.empires[power], ending.final_vp[power]
        if power in ending.revolution:
            final.append(_("{seat} {vp} (revolution: unrest {unrest})").format(
                seat=seat(after, power), vp=vp, unrest=e.unrest))
        elif ending.penalty[power]:
            # TRANSLATORS: final VP after the unrest penalty: "Bo (Spain) 5 (12 - 7 for
            # unrest 9)".
            final.append(_("{seat} {vp} ({before} - {penalty} for unrest {unrest})").format(
                seat=seat(after, power), vp=vp, before=e.vp, penalty=ending.penalty[power],
                unrest=e.unrest))
        else:
            final.append(f"{seat(after, power)} {vp}")
    # TRANSLATORS: {result} is who won, {standings} each power's final VP.
    return _("End of the game after war {war}: {result}; final VP {standings}").format(
        war=WARS, result=result, standings=", ".join(final))


# ---------------------------------------------------------------- undo and redo

def turned(before: SoeState, step: Any, after: SoeState) -> str:
    """Where an undo or redo leaves the game, and every total and region value it moved."""
    said = [f"{seat(after, p)} {moved(before.empires[p], after.empires[p])}"
            for p in after.powers if before.empires[p] != after.empires[p]]
    said += [f"{shown(region)} {values(before.settings.regions.get(region, ()))} → "
             f"{values(printed)}"
             for region, printed in after.settings.regions.items()
             if tuple(before.settings.regions.get(region, ())) != tuple(printed)]
    return f"{where(after)}; {'; '.join(said) or _('no totals change')}"


TELLERS: dict[str, Callable[[SoeState, Any, SoeState], str]] = {
    "tax": tax, "adjust": adjust, "board": board, "income": income, "upkeep": upkeep,
    "population": population, "scoring": scoring, "end_war": end_war,
    "end_game": end_game, "undo": turned, "redo": turned,
}


def step_named(kind: str) -> str | None:
    """A kind of step as a sentence names it ("Recorded: upkeep."): 'end war'."""
    names = {
        "tax": pgettext("step", "tax"), "adjust": pgettext("step", "adjust"),
        "board": pgettext("step", "board"), "income": pgettext("step", "income"),
        "upkeep": pgettext("step", "upkeep"), "population": pgettext("step", "population"),
        "scoring": pgettext("step", "scoring"), "end_war": pgettext("step", "end war"),
        "end_game": pgettext("step", "end game"),
    }
    return names.get(kind)


def decided(fmt: str) -> str | None:
    """How a game was decided (Report.format), in words."""
    return pgettext("how a game was decided", "victory points") \
        if fmt == "victory_points" else None


def printed(fmt: str) -> str | None:
    """How a game was decided as the command line prints it (the session file's word)."""
    return pgettext("result format", "victory_points") if fmt == "victory_points" else None


WORDS = Words(step=step_named, decided=decided, printed=printed)
