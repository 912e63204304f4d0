"""Risk standings: the ranking, the `replay --json` report and summary, and how a
fixed-round score and its tie-break are explained to the players (RULES.md A.2-A.3)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from i18n import N_, _, ngettext, pgettext
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
from rules.risk.board import (
    Position,
    armies_counted,
    bonus,
    continents_counted,
    joined,
    one_and_another,
    shown,
    territories_counted,
)
from rules.risk.state import RiskState


def went_out(state: RiskState) -> dict[str, int]:
    """The eliminated (conceding is going out too) by when they went out: 1 for the first."""
    return {name: i for i, name in enumerate(state.eliminated, 1)}


def ranked(state: RiskState) -> list[tuple[str, int]]:
    """(player, rank) in rank order, ties in seat order, as rules.outcome.ranks ranks: the
    winners, the others still in by the whole chain (those with no position entered after
    them), then the eliminated, the last out highest."""
    out = went_out(state)
    positions = state.positions
    placed = ranks((Placing(s.name, s.name in state.winners, out.get(s.name, 0),
                            (1, positions[s.name].chain) if s.name in positions else (0,))
                    for s in state.seats), drawn=state.result == "draw")
    order = sorted(range(len(state.seats)), key=lambda i: (placed[state.seats[i].name], i))
    return [(state.seats[i].name, placed[state.seats[i].name]) for i in order]


def progress_of(state: RiskState) -> Progress:
    """The round the table is at: the one in play, or the last one closed while a tie waits
    to be settled and once the game is over. Playing on is not worth naming beside it."""
    number = state.round if state.phase != "round" else state.round + 1
    return Progress("round", max(number, 1), state.phase, named=state.phase != "round")


def report(state: RiskState) -> Report:
    """Standings ranked by the whole chain; `replay --json` prints it (DESIGN.md)."""
    standings = []
    out_order = went_out(state)
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
        }, side=seat.color, went_out=out_order.get(name, 0)))
    return Report(
        game="risk",
        status=FINISHED if state.finished else IN_PROGRESS,
        result=state.result, format=state.format,
        rounds=state.rounds_played, unit="round",
        winners=tuple(state.winners), standings=tuple(standings),
        progress=None if state.finished else progress_of(state),
        more={} if state.finished else {"round": state.round}, stalemate=state.stalemate)


def column_heading(column: str) -> str | None:
    """A column of the printed standings, by its session-file name ('territories'), as the
    reader's language heads it (English keeps the name)."""
    headings = {
        "color": pgettext("standings column", "color"),
        "territories": pgettext("standings column", "territories"),
        "continents": pgettext("standings column", "continents"),
        "armies": pgettext("standings column", "armies"),
        "eliminated": pgettext("standings column", "eliminated"),
        "mission": pgettext("standings column", "mission"),
    }
    return headings.get(column)


def value_shown(column: str, value: str) -> str:
    """A colour or a continent (stored by its id) as the reader's language names it."""
    return shown(value) if column in ("color", "continents") else value


def summary(state: RiskState) -> Summary:
    """Where the game stands, and the leader (winners, else the top of the ranking)."""
    leader = None
    # The summary is stored with the game: its names are joined the same in every language.
    if state.winners:
        leader = names_stored(state.winners)
    elif state.positions:
        leader = names_stored(p for p, r in ranked(state)
                              if r == 1 and p not in state.eliminated)
    return Summary(progress_of(state), leader, stalemate=state.stalemate)


def names_stored(names: Iterable[str]) -> str:
    """'Ana', 'Ana and Bo', 'Ana, Bo and Cy', as the database keeps them (in English)."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def explain_scores(positions: Mapping[str, Position]) -> dict[str, str]:
    """Per player, how the fixed-round score adds up, e.g.
    '16 territories + 4 (Australia 2, South America 2) + 40/5 = 8 -> 28'."""
    out = {}
    for name, pos in positions.items():
        held = ", ".join(f"{shown(c)} {bonus(c)}" for c in pos.continents)
        bonuses = f"{pos.bonus} ({held})" if held else "0"
        # TRANSLATORS: the fixed-round score: territories + continent bonuses + armies / 5,
        # e.g. "16 territories + 4 (Australia 2, South America 2) + 40/5 = 8 -> 28".
        out[name] = _("{territories} + {bonuses} + {armies}/5 = {fifth} -> {score}").format(
            territories=territories_counted(pos.territories), bonuses=bonuses,
            armies=pos.armies, fifth=pos.armies // 5, score=pos.score)
    return out


def _behind(player: str, count: int) -> str:
    # TRANSLATORS: a player behind the leader and their count: "Ana leads with 35 to Bo's
    # 20", "Ana holds 2 continents to Bo's 1".
    return _("{player}'s {count}").format(player=player, count=count)


def _lead(stage: str, players: list[str], count: int, others: str) -> str:
    """'Ana holds 2 continents to Bo's 1': the players ahead at a stage of the chain."""
    said = {"players": joined(players), "others": others}
    if stage == "territories":
        return ngettext("{players} holds {territories} to {others}",
                        "{players} hold {territories} to {others}", len(players)).format(
                            territories=territories_counted(count), **said)
    if stage == "continents":
        return ngettext("{players} holds {continents} to {others}",
                        "{players} hold {continents} to {others}", len(players)).format(
                            continents=continents_counted(count), **said)
    return ngettext("{players} has {armies} to {others}",
                    "{players} have {armies} to {others}", len(players)).format(
                        armies=armies_counted(count), **said)


# The tie-break chain after the score: (stage, count, what equal counts say).
_STAGES = (
    ("territories", lambda p: p.territories, N_("equal territories")),
    ("continents", lambda p: len(p.continents), N_("equal continents")),
    ("armies", lambda p: p.armies, N_("equal armies")),
)


def explain_tiebreak(positions: Mapping[str, Position]) -> str:
    """How the top of a fixed-round ranking is decided, e.g.
    'Ana and Bo 24 each; equal territories; Ana holds 2 continents to Bo's 1'."""
    if not positions:
        return ""
    items = list(positions.items())
    best = max(p.score for _n, p in items)
    group = [(n, p) for n, p in items if p.score == best]
    if len(group) == 1:
        rest = sorted((x for x in items if x[0] != group[0][0]), key=lambda x: -x[1].score)
        if not rest:
            return _("{player} scores {score}").format(player=group[0][0], score=best)
        others = one_and_another(_behind(n, p.score) for n, p in rest)
        return _("{player} leads with {score} to {others}").format(
            player=group[0][0], score=best, others=others)
    # TRANSLATORS: the players tied at the top and the score each has: "Ana and Bo 24 each".
    parts = [_("{players} {score} each").format(players=joined(n for n, _p in group),
                                                score=best)]
    for stage, get, equal in _STAGES:
        top = max(get(p) for _n, p in group)
        lead = [(n, p) for n, p in group if get(p) == top]
        if len(lead) == len(group):
            parts.append(_(equal))
            continue
        behind = sorted((x for x in group if get(x[1]) != top), key=lambda x: -get(x[1]))
        others = one_and_another(_behind(n, get(p)) for n, p in behind)
        parts.append(_lead(stage, [n for n, _p in lead], top, others))
        group = lead
        if len(group) == 1:
            break
    else:
        parts.append(_("still tied"))
    return "; ".join(parts)
