"""Ratings move forward (issue 48): a game finished after the last one counted is counted
alone, on top of the cached statistics and standings; a change in the middle of history
(an undo past an end, a delete, a move to another group, a late import) works them out
again. Derived data stays derived: over random histories, what goes forward is what
working everything out again from the result entries gives."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import storage.ratings_store
from storage.groups import scope
from storage.league import league_parameters
from storage.records import LeagueRow
from storage.service import open_ledger
from tests.short_games import risk_night, soe_war

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")
GROUPS = ("Fridays", "Mondays")
START = datetime(2026, 1, 5, 19, tzinfo=UTC)
# (group, season): every group's all time, each group's, and a season of each (one whose
# ratings start afresh, one whose ratings carry over), where the games fall.
SCOPES = ((None, None), ("Fridays", None), ("Mondays", None), ("Fridays", "Spring"),
          ("Mondays", "Long"))


def a_game(pick: int, when: datetime) -> dict:
    names = [NAMES[(pick + k) % len(NAMES)] for k in range(4)]
    if pick % 3 == 0:
        data = soe_war(names, pick % 4)
    else:
        data = risk_night(names[:3 + pick % 2], shared=pick % 5 == 1)
    data.update(created_at=(when - timedelta(hours=2)).isoformat(),
                finished_at=when.isoformat())
    return data


def fresh(ledger, group: str | None, season: str | None) -> tuple[dict, list[LeagueRow]]:
    """The statistics and standings worked out from the result entries, no cache read."""
    with ledger.engine.connect() as conn:
        found = scope(conn, group, season)
        stats, _besides = storage.ratings_store.worked_out(conn, found)
        query, values = league_parameters(None, found)
        rows = [LeagueRow(name, *(int(x) for x in figures))
                for name, *figures in conn.execute(query, values).all()]
    return stats.to_json(), rows


def same_as_worked_out(ledger) -> None:
    for group, season in SCOPES:
        got = ledger.stats(group, season).to_json()
        standings = ledger.league(group=group, season=season) if group or season else \
            ledger.league()
        expected, rows = fresh(ledger, group, season)
        assert got == expected, (group, season)
        assert standings == rows, (group, season)


def a_ledger(folder: Path):
    ledger = open_ledger(str(folder / "history.db"))
    for group in GROUPS:
        ledger.add_group(group)
    ledger.add_season("Fridays", "Spring", "2026-01-01", "2026-06-30")
    ledger.add_season("Mondays", "Long", "2026-02-01", "2026-12-31", carry_over=True)
    return ledger


STEPS = st.lists(st.tuples(
    st.sampled_from(["finish", "finish", "finish", "late", "undo", "redo", "delete", "move"]),
    st.integers(0, 1_000), st.sampled_from(GROUPS)), min_size=1, max_size=10)


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=STEPS)
def test_going_forward_gives_what_working_out_again_gives(steps):
    with tempfile.TemporaryDirectory() as name:
        ledger = a_ledger(Path(name))
        games: list[int] = []
        latest = START
        for n in range(3):  # a history to begin with
            latest += timedelta(days=3)
            games.append(ledger.replay(a_game(n, latest), group=GROUPS[n % 2]).id)
        same_as_worked_out(ledger)
        for kind, pick, group in steps:
            chosen = games[pick % len(games)] if games else None
            if kind == "finish":  # after every game so far
                latest += timedelta(days=1 + pick % 20)
                games.append(ledger.replay(a_game(pick, latest), group=group).id)
            elif kind == "late":  # an import dated before the last games
                when = START + (latest - START) * (pick % 97) / 97 + timedelta(minutes=7)
                games.append(ledger.replay(a_game(pick, when), group=group).id)
            elif chosen is None:
                continue
            elif kind == "undo" and ledger.load(chosen).state.finished:
                ledger.undo(chosen)  # its end taken back
            elif kind == "redo" and not ledger.load(chosen).state.finished \
                    and ledger.load(chosen).timeline.can_redo:
                ledger.redo(chosen)  # finished again, now
            elif kind == "delete":
                ledger.delete_game(chosen)
                games.remove(chosen)
            elif kind == "move":
                ledger.move_game(chosen, group)
            same_as_worked_out(ledger)
        ledger.engine.dispose()


def test_one_more_game_is_counted_alone(ledger, monkeypatch):
    """A game finished after the last one counted is read and rated alone: the whole
    history is not read again (it was, at every change, before)."""
    ledger.replay(risk_night(["Ana", "Bo", "Cy"]))
    ledger.replay(soe_war(["Ana", "Bo", "Cy", "Di"], 1))
    ledger.stats()
    ledger.league()
    ledger.replay(risk_night(["Cy", "Di", "Ana"]))
    read = []
    real = storage.ratings_store.finished_games

    def counted(conn, found, **how):
        got = real(conn, found, **how)
        read.append((how.get("after") is not None, len(got)))
        return got

    monkeypatch.setattr(storage.ratings_store, "finished_games", counted)
    monkeypatch.setattr(storage.ratings_store, "worked_out", None)  # never called
    stats = ledger.stats()
    assert read == [(True, 1)]  # the new game alone
    assert stats.games == 3 and stats.rating("Di").games == 2
    league = ledger.league()
    monkeypatch.undo()
    assert [(r.player, r.played) for r in league] == [(r.player, r.played) for r in
                                                      fresh(ledger, None, None)[1]]


def test_a_change_in_the_middle_works_everything_out_again(ledger, monkeypatch):
    first = ledger.replay(risk_night(["Ana", "Bo", "Cy"])).id
    ledger.replay(risk_night(["Bo", "Cy", "Ana"]))
    ledger.stats()
    ledger.delete_game(first)
    monkeypatch.setattr(storage.ratings_store, "_forward", None)  # never called
    assert ledger.stats().games == 1

