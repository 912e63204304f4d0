"""Risk standings: the ranking, the `replay --json` report and summary, and how a
fixed-round score and its tie-break are explained to the players (RULES.md A.2-A.3)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.outcome import FINISHED, IN_PROGRESS, Progress, Report, Standing, Summary
from rules.risk.board import Position, bonus
from rules.risk.state import RiskState, joined


def ranked(state: RiskState) -> list[tuple[str, int]]:
    """(player, rank) in rank order, ties in seat order; rank = 1 + players strictly ahead."""
    def key(name: str) -> tuple:
        if name in state.winners:
            return (2, ())
        if name in state.eliminated:
            return (0, ())
        pos = state.positions.get(name)
        return (1, pos.chain if pos else ())

    keys = {s.name: key(s.name) for s in state.seats}
    ranks = {p: 1 + sum(1 for q in keys if keys[q] > keys[p]) for p in keys}
    order = sorted(range(len(state.seats)), key=lambda i: (ranks[state.seats[i].name], i))
    return [(state.seats[i].name, ranks[state.seats[i].name]) for i in order]


def progress_of(state: RiskState) -> Progress:
    """The round the table is at: the one in play, or the last one closed while a tie waits
    to be settled and once the game is over. Playing on is not worth naming beside it."""
    number = state.round if state.phase != "round" else state.round + 1
    return Progress("round", max(number, 1), state.phase, named=state.phase != "round")


def report(state: RiskState) -> Report:
    """Standings ranked by the whole chain; `replay --json` prints it (DESIGN.md)."""
    standings = []
    for name, rank in ranked(state):
        seat = state.seat(name)
        out = name in state.eliminated
        pos = state.positions.get(name)
        score = 0 if out else (pos.score if pos else None)  # the eliminated score 0
        standings.append(Standing(name, rank, out, score, {
            "color": seat.color,
            "territories": 0 if out else (pos.territories if pos else None),
            "continents": [] if out or not pos else list(pos.continents),
            "armies": 0 if out else (pos.armies if pos else None),
            "score": score,
            "eliminated": out,
            "mission": state.missions.get(name),
        }))
    return Report(
        game="risk",
        status=FINISHED if state.finished else IN_PROGRESS,
        result=state.result, format=state.format,
        rounds=state.rounds_played, unit="round",
        winners=tuple(state.winners), standings=tuple(standings),
        progress=None if state.finished else progress_of(state),
        more={} if state.finished else {"round": state.round})


def summary(state: RiskState) -> Summary:
    """Where the game stands, and the leader (winners, else the top of the ranking)."""
    leader = None
    if state.winners:
        leader = joined(state.winners)
    elif state.positions:
        leader = joined(p for p, r in ranked(state) if r == 1 and p not in state.eliminated)
    return Summary(progress_of(state), leader)


def explain_scores(positions: Mapping[str, Position]) -> dict[str, str]:
    """Per player, how the fixed-round score adds up, e.g.
    '16 territories + 4 (Australia 2, South America 2) + 40/5 = 8 -> 28'."""
    out = {}
    for name, pos in positions.items():
        held = ", ".join(f"{c} {bonus(c)}" for c in pos.continents)
        bonuses = f"{pos.bonus} ({held})" if held else "0"
        out[name] = (f"{pos.territories} territories + {bonuses} + {pos.armies}/5 = "
                     f"{pos.armies // 5} -> {pos.score}")
    return out


_SINGULAR = {"territories": "territory", "continents": "continent", "armies": "army"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n != 1 else f"{n} {_SINGULAR.get(word, word)}"


# The tie-break chain after the score: (label, count, verbs for one and several, unit).
_STAGES = (
    ("territories", lambda p: p.territories, ("holds", "hold"), "territories"),
    ("continents", lambda p: len(p.continents), ("holds", "hold"), "continents"),
    ("armies", lambda p: p.armies, ("has", "have"), "armies"),
)


def explain_tiebreak(positions: Mapping[str, Position]) -> str:
    """How the top of a fixed-round ranking is decided, e.g.
    'Ana and Bo 24 each; equal territories; Ana holds 2 continents to Bo's 1'."""
    if not positions:
        return ""
    items = list(positions.items())
    best = max(p.score for _, p in items)
    group = [(n, p) for n, p in items if p.score == best]
    if len(group) == 1:
        rest = sorted((x for x in items if x[0] != group[0][0]), key=lambda x: -x[1].score)
        if not rest:
            return f"{group[0][0]} scores {best}"
        others = " and ".join(f"{n}'s {p.score}" for n, p in rest)
        return f"{group[0][0]} leads with {best} to {others}"
    parts = [f"{joined(n for n, _ in group)} {best} each"]
    for label, get, verbs, unit in _STAGES:
        top = max(get(p) for _, p in group)
        lead = [(n, p) for n, p in group if get(p) == top]
        if len(lead) == len(group):
            parts.append(f"equal {label}")
            continue
        behind = sorted((x for x in group if get(x[1]) != top), key=lambda x: -get(x[1]))
        others = " and ".join(f"{n}'s {get(p)}" for n, p in behind)
        verb = verbs[0] if len(lead) == 1 else verbs[1]
        parts.append(f"{joined(n for n, _ in lead)} {verb} {_plural(top, unit)} to {others}")
        group = lead
        if len(group) == 1:
            break
    else:
        parts.append("still tied")
    return "; ".join(parts)
