"""The end of a Struggle of Empires game (RULES.md B.6): revolutions, unrest penalties,
final VP and the winners; and the standings the report and the lists show."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import _, pgettext
from rules.outcome import (
    FINISHED,
    IN_PROGRESS,
    Placing,
    Progress,
    Report,
    Standing,
    Summary,
    ranks,
)
from rules.soe.regions import shown
from rules.soe.state import WARS, Ending, SoeState

REVOLUTION_AT = 20
# The threshold as the players say it: "unrest 20 or more" (in English; `revolution_words`
# says it in the reader's language).
REVOLUTION_WORDS = f"{REVOLUTION_AT} or more"


def revolution_words() -> str:
    """The threshold of a revolution in the reader's language: '20 or more'."""
    # TRANSLATORS: the unrest that puts a power in revolution: "unrest 20 or more".
    return _("{n} or more").format(n=REVOLUTION_AT)


def in_revolution(unrest: int) -> bool:
    """Whether a power with this unrest at the end of the game is in revolution."""
    return unrest >= REVOLUTION_AT


def unrest_penalties(unrest: Mapping[str, int], started: int,
                     ranking: str = "distinct") -> tuple[dict[str, int], set[str]]:
    """VP penalties for unrest at the end of the game (RULES.md B.6), and who is in revolution.

    With 2 players only the one with more unrest loses 7 (a tie costs nobody anything);
    with 3 or more, the highest unrest loses 7 and the second highest 4, all tied players
    losing the full amount. `distinct` takes the next lower unrest value as second highest
    even after a tie for highest; `competition` lets that tie use up the -4 place.
    A player with 0 unrest is never penalised, nor anyone when fewer than 2 are left.
    """
    revolution = {p for p, u in unrest.items() if in_revolution(u)}
    penalty = {p: 0 for p in unrest}
    rest = {p: u for p, u in unrest.items() if p not in revolution}
    if len(rest) < 2:
        return penalty, revolution
    levels = sorted({u for u in rest.values() if u > 0}, reverse=True)
    if not levels:
        return penalty, revolution
    at_top = [p for p, u in rest.items() if u == levels[0]]
    if started == 2:
        if len(at_top) == 1:
            penalty[at_top[0]] = 7
        return penalty, revolution
    for p in at_top:
        penalty[p] = 7
    if len(levels) > 1 and not (ranking == "competition" and len(at_top) > 1):
        for p, u in rest.items():
            if u == levels[1]:
                penalty[p] = 4
    return penalty, revolution


def ending_of(state: SoeState) -> Ending:
    """Revolutions, penalties, final VP (never below 0) and the winners, from the totals now.

    Equal final VP is a shared victory; with everyone in revolution the game is a draw."""
    unrest = {p: e.unrest for p, e in state.empires.items()}
    penalty, revolution = unrest_penalties(unrest, len(state.seats),
                                           state.settings.unrest_ranking)
    final = {p: 0 if p in revolution else max(0, e.vp - penalty[p])
             for p, e in state.empires.items()}
    standing = [p for p in state.powers if p not in revolution]
    winners: tuple[str, ...]
    if not standing:
        winners, result = (), "draw"
    else:
        best = max(final[p] for p in standing)
        winners = tuple(p for p in standing if final[p] == best)
        result = "win" if len(winners) == 1 else "shared"
    return Ending(penalty, frozenset(revolution), final, winners, result)


def progress_of(state: SoeState) -> Progress:
    """The war being played (the last, once over) and its phase."""
    return Progress("war", state.war, state.phase)


def report(state: SoeState) -> Report:
    """Standings ranked by final VP, players in revolution level after everyone else
    (rules.outcome.ranks); `replay --json` prints it (DESIGN.md)."""
    ending = state.ending
    rows: list[dict[str, Any]] = []
    for seat in state.seats:
        e = state.empires[seat.power]
        revolution = bool(ending and seat.power in ending.revolution)
        penalty = ending.penalty[seat.power] if ending else 0
        final = ending.final_vp[seat.power] if ending else e.vp
        rows.append({"player": seat.name, "power": seat.power, "gold": e.gold,
                     "population": e.population, "unrest": e.unrest, "vp": e.vp,
                     "penalty": penalty, "final_vp": final, "revolution": revolution})
    winners = {state.seat_of(p).name for p in ending.winners} if ending else set()
    # Revolution strikes at the end of the game, every empire in it at once.
    placed = ranks((Placing(row["player"], row["player"] in winners, int(row["revolution"]),
                            (row["final_vp"],)) for row in rows),
                   drawn=ending is not None and ending.result == "draw")
    ranked = sorted(rows, key=lambda row: placed[row["player"]])  # ties in seat order
    return Report(
        game="soe",
        status=FINISHED if ending else IN_PROGRESS,
        result=ending.result if ending else None,
        format="victory_points" if ending else None,
        rounds=WARS if ending else state.war, unit="war",
        winners=tuple(state.seat_of(p).name for p in ending.winners) if ending else (),
        standings=tuple(Standing(row["player"], placed[row["player"]], row["revolution"],
                                 row["final_vp"],
                                 {k: v for k, v in row.items() if k != "player"},
                                 side=row["power"], went_out=int(row["revolution"]))
                        for row in ranked),
        progress=None if ending else progress_of(state),
        more={} if ending else {"war": state.war})


def column_heading(column: str) -> str | None:
    """A column of the printed standings, by its session-file name ('final_vp'), as the
    reader's language heads it (English keeps the name)."""
    headings = {
        "power": pgettext("standings column", "power"),
        "gold": pgettext("standings column", "gold"),
        "population": pgettext("standings column", "population"),
        "unrest": pgettext("standings column", "unrest"),
        "vp": pgettext("standings column", "vp"),
        "penalty": pgettext("standings column", "penalty"),
        "final_vp": pgettext("standings column", "final_vp"),
        "revolution": pgettext("standings column", "revolution"),
    }
    return headings.get(column)


def value_shown(column: str, value: str) -> str:
    """A power (stored by its id) as the reader's language names it."""
    return shown(value) if column == "power" else value


def summary(state: SoeState) -> Summary:
    """Where the game stands, and the leader (the winners, else the most VP if anyone has
    some)."""
    if state.ending:
        leader = ", ".join(state.seat_of(p).name for p in state.ending.winners) or None
    else:
        top = max(state.seats, key=lambda s: state.empires[s.power].vp)
        leader = top.name if state.empires[top.power].vp > 0 else None
    return Summary(progress_of(state), leader)
