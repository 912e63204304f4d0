"""Ratings and the group's statistics from the ledger (issue 25): the ratings are openskill's
Plackett-Luce on the finished games' rankings in date order; undoing a game's end or deleting
the game gives the statistics of a history that never had it, and moving it to another group
changes both groups' (Hypothesis, over random histories of short finished games); the cache
is believed only at the history's version; an older database (schema 0004) migrates with its
games in one group and each finish filled from its game's report.

Every test runs on a temporary SQLite file and, with WARLEDGER_TEST_PG set, on PostgreSQL,
except the migration from the schema-0004 file, which is SQLite's."""

from __future__ import annotations

import itertools
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from sqlalchemy import delete, func, inspect, select, text, update

import storage.ledger
import storage.ratings_store
import storage.standings
import storage.stats_cache
from rules.played import finishes_of
from rules.ratings import rate
from rules.stats import GroupStats
from storage.core import ENTRY_T, SNAPSHOT_T, STATS_T, VERSION_T
from storage.engine import make_engine
from storage.ledger import DEFAULT_GROUP, GroupRow, Ledger
from storage.migrate import current_revision, downgrade, head_revision, upgrade
from tests.short_games import risk_night, soe_war

DATA = Path(__file__).parent / "data"
PLAYERS = ("Ana", "Bo", "Cy", "Di", "Ed")
_examples = itertools.count(1)


@pytest.fixture
def clock(monkeypatch):
    """The ledger's clock: each game stored after `clock(datetime)` finishes at it."""

    def at(moment: datetime) -> None:
        monkeypatch.setattr(storage.ledger, "now", lambda: moment)

    return at


def comparable(stats: GroupStats) -> dict[str, Any]:
    """The statistics as JSON, the rating courses without their moments (two groups played
    at different moments can still have had the same history)."""
    out = stats.to_json()
    out["rating_history"] = {scope: {p: [x for _, x in course] for p, course in courses.items()}
                             for scope, courses in out["rating_history"].items()}
    return out


def version(ledger: Ledger) -> int:
    with ledger.engine.connect() as conn:
        return conn.execute(select(VERSION_T.c.version)).scalar_one()


# ---------------------------------------------------------------- openskill itself

def test_ratings_are_openskills_plackett_luce_on_the_same_rankings_in_date_order(ledger,
                                                                                  clock):
    start = datetime(2026, 1, 5, 20, tzinfo=UTC)
    # (the session file, its places in seat order, the day it finished): stored in this
    # order, rated by date (the third game finished before the second).
    played = [
        (risk_night(["Ana", "Bo", "Cy"]), {"Ana": 1, "Bo": 2, "Cy": 3}, 0),
        (risk_night(["Bo", "Ana"], shared=True), {"Bo": 1, "Ana": 1}, 9),
        (risk_night(["Cy", "Di"], out=("Ana", "Bo")), {"Cy": 1, "Di": 2, "Ana": 4, "Bo": 3}, 3),
        (soe_war(["Ana", "Bo", "Cy", "Di"], 2), {"Ana": 3, "Bo": 3, "Cy": 1, "Di": 2}, 5),
        (soe_war(["Di", "Cy", "Bo", "Ana"], 0), {"Di": 1, "Cy": 2, "Bo": 3, "Ana": 3}, 7),
        (risk_night(["Di", "Ana", "Bo", "Cy"], shared=True),
         {"Di": 1, "Ana": 1, "Bo": 3, "Cy": 4}, 8),
    ]
    for data, _, day in played:
        clock(start + timedelta(days=day))
        ledger.replay(data)
    model = PlackettLuce()
    expected: dict[str, dict] = {}
    for data, places, _ in sorted(played, key=lambda p: p[2]):
        for scope in (data["game"], "all"):
            now = expected.setdefault(scope, {})
            teams = [[now.get(name) or model.rating()] for name in places]
            rated = model.rate(teams, ranks=list(places.values()))
            for name, (rating,) in zip(places, rated, strict=True):
                now[name] = rating
    stats = ledger.stats()
    assert stats.games == len(played)
    assert set(stats.ratings) == {"risk", "soe", "all"}
    for scope, now in expected.items():
        assert set(stats.ratings[scope]) == set(now)
        for name, rating in now.items():
            ours = stats.ratings[scope][name]
            assert (ours.mu, ours.sigma) == pytest.approx((rating.mu, rating.sigma), rel=1e-12)
            assert ours.conservative == pytest.approx(rating.mu - 3 * rating.sigma, rel=1e-12)
    assert stats.rating("Ana").games == 6 and not stats.rating("Ana").provisional
    assert stats.rating("Di", "soe").games == 2 and stats.rating("Di", "soe").provisional
    # the course of a rating, game after game, in date order
    assert [when for when, _ in stats.history["all"]["Cy"]] == [
        start + timedelta(days=d) for d in (0, 3, 5, 7, 8)]
    assert stats.history["all"]["Cy"][-1][1] == pytest.approx(
        expected["all"]["Cy"].mu - 3 * expected["all"]["Cy"].sigma)
    # the other figures, from the places as stored
    assert stats.head_to_head["Ana"]["Bo"].to_json() == {"ahead": 2, "behind": 1, "level": 3}
    assert stats.players["Ana"].wins == 3  # two shared wins count
    assert stats.balance["soe"].sides["Austria"].to_json()["wins"] == 1
    assert stats.balance["risk"].seats[0].games == 4


def test_finished_games_carry_each_finish_as_the_report_says(ledger):
    game = ledger.replay(risk_night(["Cy", "Di"], out=("Ana", "Bo")))
    (finished,) = ledger.finished_games()
    assert finished.key == game.id and finished.game == "risk"
    assert finished.finishes == finishes_of(game.report(), {"Cy": 0, "Di": 1, "Ana": 2, "Bo": 3})
    assert [(f.player, f.seat, f.side, f.place, f.outcome, f.won) for f in finished.finishes] == [
        ("Cy", 0, "red", 1, "win", True), ("Di", 1, "blue", 2, "loss", False),
        ("Ana", 2, "green", 4, "loss", False), ("Bo", 3, "yellow", 3, "loss", False)]


# ---------------------------------------------------------------- history changes

@st.composite
def short_game(draw) -> dict[str, Any]:
    """A short finished game: Struggle of Empires for four, or Risk for two to five with
    players out before the end and a shared win now and then."""
    seated = list(draw(st.permutations(PLAYERS)))
    if draw(st.booleans()):
        return soe_war(seated[:4], draw(st.integers(0, 3)))
    seated = seated[:draw(st.integers(2, 5))]
    out = draw(st.integers(0, len(seated) - 2))
    order, gone = seated[:len(seated) - out], tuple(seated[len(seated) - out:])
    return risk_night(order, out=gone, shared=draw(st.booleans()))


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games=st.lists(short_game(), min_size=1, max_size=5), data=st.data())
def test_undoing_an_end_deleting_or_moving_a_game_is_as_if_it_was_never_played(ledger, games,
                                                                             data):
    gone = data.draw(st.integers(0, len(games) - 1), label="the game changed")
    change = data.draw(st.sampled_from(["undo", "delete", "move", "replay"]),
                       label="change")
    n = next(_examples)
    full, without, moved, alone = (f"{what} {n}" for what in (
        "Full", "Without", "Moved", "Alone"))
    ledger.add_group(without)  # with no game in it when there was only the one
    ids = []
    for i, game in enumerate(games):
        ids.append(ledger.replay(game, group=full).id)
        ledger.replay(game, group=without if i != gone else alone)
    before = ledger.stats(full)  # worked out, and cached, before the change
    assert before.games == len(games)
    if change == "undo":
        ledger.undo(ids[gone])
    elif change == "delete":
        ledger.delete_game(ids[gone])
    elif change == "move":
        ledger.move_game(ids[gone], moved)
        assert comparable(ledger.stats(moved)) == comparable(ledger.stats(alone))
        assert ledger.league(group=moved) == ledger.league(group=alone)
    else:  # deleted, then its exported file replayed: back in its place, by its own dates
        exported = ledger.export(ids[gone])
        ledger.delete_game(ids[gone])
        assert comparable(ledger.stats(full)) == comparable(ledger.stats(without))
        ledger.replay(exported, group=full)
        assert comparable(ledger.stats(full)) == comparable(before)
        return
    assert comparable(ledger.stats(full)) == comparable(ledger.stats(without))
    assert ledger.league(group=full) == ledger.league(group=without)
    # and the ratings are those of the games left, rated afresh
    assert ledger.stats(full).ratings == rate(ledger.finished_games(without)).ratings


def test_every_change_to_the_history_bumps_its_version(ledger):
    seen = [version(ledger)]

    def bumped() -> bool:
        seen.append(version(ledger))
        return seen[-1] > seen[-2]

    data = risk_night(["Ana", "Bo"])
    game = ledger.create_game("risk", "Night", data["settings"], data["players"])
    assert not bumped()  # a game begun changes no statistics
    ledger.record(game.id, data["steps"][0])
    assert bumped()  # finished
    ledger.undo(game.id)
    assert bumped()  # its end taken back
    ledger.redo(game.id)
    assert bumped()
    ledger.replay(risk_night(["Bo", "Ana"]))
    assert bumped()  # a finished game stored
    ledger.move_game(game.id, "Elsewhere")
    assert bumped()
    ledger.add_season("Elsewhere", "Spring", "2026-03-01", "2026-05-31")
    assert bumped()
    ledger.remove_season("Elsewhere", "Spring")
    assert bumped()
    ledger.delete_game(game.id)
    assert bumped()
    ledger.rename_group("Elsewhere", "Away")
    assert not bumped()  # the statistics do not hold group names


def test_a_valid_cache_is_read_without_reading_any_result(make_ledger, monkeypatch):
    ledger, other = make_ledger(), make_ledger()  # two terminals on one database
    ledger.replay(risk_night(["Ana", "Bo", "Cy"]))
    ledger.replay(soe_war(["Ana", "Bo", "Cy", "Di"], 1))
    first = ledger.stats()
    with ledger.engine.connect() as conn:
        # (besides the notes of what changed: storage/ratings_store.py)
        assert conn.execute(select(STATS_T.c.games, STATS_T.c.version).where(
            STATS_T.c.key.not_like("changed/%"))).all() == [(2, version(ledger))]
    standings = ledger.league(group=DEFAULT_GROUP)

    def no_results(*args, **kwargs):
        raise AssertionError("the results were read")

    monkeypatch.setattr(storage.ratings_store, "finished_games", no_results)
    monkeypatch.setattr(storage.standings, "league_parameters", no_results)
    again = ledger.stats()
    assert again.to_json() == first.to_json()
    assert other.stats().to_json() == first.to_json()
    # the ratings' courses are read from the cache when first looked at
    assert [x for _, x in again.history["all"]["Ana"]] == [
        x for _, x in first.history["all"]["Ana"]]
    assert again.history.get("soe", {}).keys() == first.history["soe"].keys()
    assert set(again.history) == {"risk", "soe", "all"}
    assert ledger.league(group=DEFAULT_GROUP) == other.league(group="our table") == standings
    other.replay(risk_night(["Cy", "Ana"]))  # the history changed in the other terminal
    with pytest.raises(AssertionError, match="the results were read"):
        ledger.stats()
    with pytest.raises(AssertionError, match="the results were read"):
        ledger.league(group=DEFAULT_GROUP)
    monkeypatch.undo()
    assert ledger.stats().games == 3
    assert [(r.player, r.played) for r in ledger.league(group=DEFAULT_GROUP)] == [
        ("Ana", 3), ("Bo", 2), ("Cy", 3), ("Di", 1)]
    assert ledger.stats(season=None, group=DEFAULT_GROUP).games == 3


def test_the_cache_is_never_the_only_copy(ledger, monkeypatch):
    ledger.replay(risk_night(["Ana", "Bo", "Cy"]))
    ledger.replay(risk_night(["Bo", "Cy"], shared=True))
    fresh = comparable(ledger.stats())
    with ledger.engine.begin() as conn:  # a copy that cannot be read is worked out again
        conn.execute(update(STATS_T).values(payload={"games": "two"}))
    assert comparable(ledger.stats()) == fresh
    with ledger.engine.begin() as conn:  # and a copy gone is worked out again
        conn.execute(delete(STATS_T))
    assert comparable(ledger.stats()) == fresh

    def broken():
        raise OSError("disk full")

    monkeypatch.setattr(storage.stats_cache, "now", broken)  # a failed write is ignored
    with ledger.engine.begin() as conn:
        conn.execute(delete(STATS_T))
    assert comparable(ledger.stats()) == fresh
    with ledger.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(STATS_T)).scalar_one() == 0


# ---------------------------------------------------------------- migrations

ENTRIES = ("SELECT result_id, player_id, outcome, points, seat, side, place, won, score "
           "FROM result_entry ORDER BY result_id, player_id")


def test_migration_0005_down_and_up_fills_the_same_finishes(ledger):
    ledger.replay(risk_night(["Ana", "Bo", "Cy"], out=("Di",)), group="Fridays")
    ledger.replay(soe_war(["Ana", "Bo", "Cy", "Di"], 3))
    ledger.replay(risk_night(["Bo", "Ana"], shared=True))
    undone = ledger.replay(soe_war(["Di", "Cy", "Bo", "Ana"], 0))
    ledger.undo(undone.id)
    ledger.add_season("Fridays", "Spring", "2026-03-01", "2026-05-31")
    engine = ledger.engine
    with engine.connect() as conn:
        before = conn.execute(text(ENTRIES)).all()
        steps = conn.execute(text("SELECT count(*) FROM step")).scalar_one()
    ratings = ledger.stats().ratings
    downgrade(engine, "0004")
    assert current_revision(engine) == "0004"
    with engine.connect() as conn:
        tables = set(inspect(conn).get_table_names())
        assert "step" in tables
        assert not tables & {"game_group", "season", "stats_cache", "history_version"}
        assert conn.execute(text("SELECT count(*) FROM step")).scalar_one() == steps  # kept
        assert "group_id" not in {c["name"] for c in inspect(conn).get_columns("game_session")}
        assert "place" not in {c["name"] for c in inspect(conn).get_columns("result_entry")}
    with engine.begin() as conn:  # one game's fold snapshot gone: its steps are folded
        conn.execute(delete(SNAPSHOT_T).where(SNAPSHOT_T.c.session_id == 2))
    upgrade(engine)
    assert current_revision(engine) == head_revision()
    with engine.connect() as conn:
        assert conn.execute(text(ENTRIES)).all() == before
    fresh = Ledger(engine)
    assert fresh.groups() == [GroupRow(DEFAULT_GROUP, 4)]  # groups went with 0005
    assert fresh.seasons() == []
    assert fresh.stats().ratings == ratings


def test_a_database_of_schema_0004_migrates_with_its_games_in_our_table(tmp_path):
    """tests/data/schema_0004.sqlite was written by warledger at commit c837653 (schema
    0004): `git worktree add /tmp/wt0004 c837653`, then in it `uv run python make.py db`
    with a script that replayed, through that version's Ledger: 1 tests/data/
    soe_full_game.json (finished), 2 risk_fixed_rounds.json (finished, Di eliminated),
    3 the SoE file's first 9 steps (in progress), 4 a conquest Risk game of one round (in
    progress), 5 a one-round Risk game of Ana and Bo tied and sharing the win, 6 a conquest
    Risk game for three, Cy's concession refused, then a stalemate draw, 7 the SoE file again
    with its end undone (in progress), 8 and 9 tests/benchmarks/run.py's finished_game(0)
    (SoE, three wars) and finished_game(1) (Risk, one round)."""
    path = tmp_path / "warledger.db"
    shutil.copy(DATA / "schema_0004.sqlite", path)
    con = sqlite3.connect(path)
    old = con.execute("SELECT result_id, player_id, outcome, points FROM result_entry "
                      "ORDER BY id").fetchall()
    assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [("0004",)]
    con.close()
    engine = make_engine(str(path))
    try:
        assert current_revision(engine) == head_revision()
        assert list(tmp_path.glob("warledger.db.backup-0004-*"))  # copied before migrating
        ledger = Ledger(engine)
        assert ledger.groups() == [GroupRow(DEFAULT_GROUP, 9)]
        assert ledger.default_group() == DEFAULT_GROUP
        with engine.connect() as conn:  # the league's outcomes and points as they were
            assert conn.execute(select(ENTRY_T.c.result_id, ENTRY_T.c.player_id,
                                       ENTRY_T.c.outcome, ENTRY_T.c.points)
                                .order_by(ENTRY_T.c.id)).all() == old
        finished = ledger.finished_games()
        assert [g.key for g in finished] == [1, 2, 5, 6, 8, 9]
        for game in finished:  # each finish as this version's rules fold the game
            loaded = ledger.load(game.key)
            seats = {seat.name: n for n, seat in enumerate(loaded.seats)}
            assert game.finishes == finishes_of(loaded.report(), seats), game.key
        places = {g.key: {f.player: (f.place, f.won, f.side) for f in g.finishes}
                  for g in finished}
        assert places[2]["Di"] == (4, False, "yellow")  # eliminated: last
        assert places[5] == {"Ana": (1, True, "red"), "Bo": (1, True, "blue")}  # shared
        assert places[1]["Bo"][2] == "Britain"
        stats = ledger.stats()
        assert stats.games == 6
        assert stats.ratings == rate(finished).ratings
        assert stats.rating("Ana").games == 5
        # and the games go on: the undone end again, a new game in the group
        ledger.redo(7)
        assert ledger.stats().games == 7
        assert ledger.replay(risk_night(["Bo", "Ana"])).id == 10
        assert ledger.groups() == [GroupRow(DEFAULT_GROUP, 10)]
    finally:
        engine.dispose()
