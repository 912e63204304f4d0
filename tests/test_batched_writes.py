"""Bulk writes on PostgreSQL make no round trip per row (issue 48): replaying a session file
and importing plays wait on PostgreSQL as many times for a long file as for a short one,
for many plays as for a few, and for many new players as for a few; still one transaction
per file.

A round trip is a statement SQLAlchemy hands psycopg (`before_cursor_execute`): psycopg 3
sends an executemany's rows in one pipeline and waits once, so a file's 2,000 steps are one
round trip, though PostgreSQL runs an INSERT per step. What did cost a round trip per row:
an INSERT ... RETURNING per imported play (its game, its result) and a savepoint, an INSERT
and a release per new player; each is now one multi-row INSERT ... RETURNING
(SQLAlchemy's "insertmanyvalues") per table."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from rules.plays import Play, Player

COLOURS = ("red", "blue", "green", "yellow", "black", "pink")
NAMES = ("Ana", "Bo", "Cy", "Di")
ONLY_PG = pytest.mark.parametrize("empty_db_url", ["postgresql"], indirect=True)


@dataclass
class Sent:
    """What SQLAlchemy handed the driver: its calls (the round trips), those that were
    executemany, and the statements the server runs (an executemany of N parameter sets is
    N of them; a page of SQLAlchemy's multi-row VALUES is one)."""

    calls: int = 0
    executemany: int = 0
    statements: int = 0
    tables: list[str] = field(default_factory=list)  # an INSERT's table per round trip

@contextlib.contextmanager
def counted(engine: Any) -> Iterator[Sent]:
    """Count what `engine` sends while the block runs (see Sent)."""
    from sqlalchemy import event

    sent = Sent()

    def before(_conn, _cursor, statement, parameters, _context, executemany) -> None:
        many = (executemany and isinstance(parameters, list | tuple) and bool(parameters)
                and isinstance(parameters[0], dict | list | tuple))
        runs = len(parameters) if many else 1
        sent.calls += 1
        sent.executemany += bool(executemany)
        sent.statements += runs
        words = statement.split(None, 3)
        if words[:2] == ["INSERT", "INTO"]:
            sent.tables.append(words[2])

    event.listen(engine, "before_cursor_execute", before)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", before)


def long_risk_game(steps: int, names: tuple[str, ...] = NAMES) -> dict[str, Any]:
    """A conquest game of `steps` rounds, still being played (two to six players)."""
    even = 42 // len(names)

    def position(r: int) -> dict[str, Any]:
        held = [even] * len(names)
        held[0] += 42 - even * len(names) + r % 3
        held[1] -= r % 3
        return {n: {"territories": held[i], "armies": held[i] + 5, "continents": []}
                for i, n in enumerate(names)}

    return {"format": "warledger/1", "game": "risk", "title": f"{steps} rounds",
            "settings": {"mode": "conquest"},
            "players": [{"name": n, "color": c} for n, c in zip(names, COLOURS, strict=False)],
            "steps": [{"kind": "round", "positions": position(r)} for r in range(steps)]}


def plays_of(count: int, people: int | None = None) -> list[Play]:
    """`count` finished Risk plays of six of `people` players each (None: the more plays,
    the more players, a new one every play, so new players are added in bulk too)."""
    start = datetime(2024, 1, 1, 19, tzinfo=UTC)
    people = people or max(count, 6)
    return [Play("risk", start + timedelta(hours=i), 120, True,
                 tuple(Player(f"Player {(i + k) % people:03d}", k, COLOURS[k], 10 + k, k == 0)
                       for k in range(6)), None, 0, None, f"bgg:{count}-{i}")
            for i in range(count)]


def settled(ledger: Any) -> Any:
    """The ledger after its first game: its connection made, the default group added (a
    first write adds it, once)."""
    ledger.replay(long_risk_game(1, ("Zoe", "Yan", "Xi", "Wu")))
    return ledger


def pipelined() -> None:
    """psycopg sends an executemany's rows in one pipeline (libpq 14 or later)."""
    import psycopg

    assert psycopg.Pipeline.is_supported()


@ONLY_PG
def test_a_long_file_is_replayed_in_as_many_round_trips_as_a_short_one(make_ledger):
    pipelined()
    ledger = settled(make_ledger())
    with counted(ledger.engine) as short:  # 20 steps, 4 new players
        ledger.replay(long_risk_game(20))
    with counted(ledger.engine) as long:  # 2,000 steps, 6 new players
        stored = ledger.replay(long_risk_game(2000, ("Ed", "Flo", "Gus", "Hal", "Ida", "Jo")))
    assert long.calls == short.calls, (short, long)
    assert long.calls <= 12, long  # 13 before the group was found with its id in one look
    with counted(ledger.engine) as loaded:
        assert ledger.load(stored.id).seq == 2000
    assert loaded.calls == 1, loaded  # the fold kept at the replay: no step read again
    assert ledger.player_names() == sorted(
        ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Wu", "Xi", "Yan", "Zoe"])


@ONLY_PG
def test_many_plays_are_imported_in_as_many_round_trips_as_a_few(make_ledger):
    pipelined()
    ledger = settled(make_ledger())
    with counted(ledger.engine) as few:  # 10 plays, 10 new players
        got = ledger.import_plays(plays_of(10))
    assert len(got.stored) == 10
    with counted(ledger.engine) as many:  # 200 plays, 190 new players
        got = ledger.import_plays(plays_of(200))
    assert len(got.stored) == 200
    assert many.calls == few.calls, (few, many)
    assert many.calls <= 25, many
    # Each play whole, in its own game: its seats, totals, result and the result's entries.
    first, last = ledger.load(got.stored[0]), ledger.load(got.stored[-1])
    assert first.seated == tuple(f"Player {k:03d}" for k in range(6))
    assert last.seated == tuple(f"Player {(199 + k) % 200:03d}" for k in range(6))
    assert last.winners == ("Player 199",)
    assert {s.player: s.score for s in last.standings}["Player 199"] == 10
    assert len(ledger.player_names()) == 4 + 200


@pytest.mark.parametrize("empty_db_url", ["sqlite"], indirect=True)
def test_where_ids_cannot_come_back_in_order_each_row_is_inserted_alone(ledger):
    """A SQLite older than 3.35 has no RETURNING: each new game, result and player is
    inserted alone, and every play is stored whole."""
    ledger.engine.dialect.insert_executemany_returning_sort_by_parameter_order = False
    got = ledger.import_plays(plays_of(12))
    assert len(got.stored) == 12 and len(ledger.player_names()) == 12
    for n, game in enumerate(got.stored):
        play = ledger.load(game)
        assert play.seated == tuple(f"Player {(n + k) % 12:03d}" for k in range(6))
        assert play.winners == (f"Player {n:03d}",)


@ONLY_PG
def test_files_replayed_at_once_wait_for_the_disk_once(empty_db_url, tmp_path, capsys):
    """`warledger replay` of many files: each file is still its own transaction, but its
    commit does not wait for PostgreSQL's WAL flush (4.5 ms of a file's 10-12 here): the
    command's connections are made so, with no statement a file; one commit that waits,
    after the last, makes them all durable. A single file waits, as a step recorded at the
    table always does."""
    import json

    from sqlalchemy import Engine, event

    from storage.service import open_ledger
    from tui.cli.commands import replay

    files = []
    for n in range(3):
        game = long_risk_game(5 + n)
        game["title"] = f"Game {n} of [b]Ana[/b]"
        files.append(tmp_path / f"game-{n}.json")
        files[-1].write_text(json.dumps(game))
    sent: list[str] = []

    def before(_conn, _cursor, statement, *_rest) -> None:
        if any(w in statement for w in ("synchronous_commit", "txid_current", "pg_notify")):
            sent.append(statement.split("(")[0])

    event.listen(Engine, "before_cursor_execute", before)
    try:
        replay(empty_db_url, files)
        # The other terminals are told once too, as the last commit makes them durable.
        assert sent == ["SET LOCAL synchronous_commit TO ON", "SELECT txid_current",
                        "SELECT pg_notify"]
        sent.clear()
        replay(empty_db_url, files[:1], copy=True)  # one file: its commit waits
        assert sent == ["SELECT pg_notify"]
    finally:
        event.remove(Engine, "before_cursor_execute", before)
    assert "3 stored, 0 refused" in capsys.readouterr().out
    for bulk, waits in ((True, "off"), (False, "on")):
        opened = open_ledger(empty_db_url, bulk=bulk)
        try:
            with opened.engine.connect() as conn:
                assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == waits
        finally:
            opened.engine.dispose()
    ledger = open_ledger(empty_db_url)
    try:
        titles = sorted(g.title for g in ledger.games())
        assert titles == ["Game 0 of [b]Ana[/b]", "Game 0 of [b]Ana[/b]",
                          "Game 1 of [b]Ana[/b]", "Game 2 of [b]Ana[/b]"]
    finally:
        ledger.engine.dispose()
