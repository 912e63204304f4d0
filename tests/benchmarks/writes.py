"""What a replay and an import send PostgreSQL (issue 48): for a session file of 20 steps,
one of 2,000, and imports of 10, 200 and 500 plays (as many players as plays: most of them
new) and of 500 plays of a club of 30, each into an empty schema of its own:

- calls: the statements SQLAlchemy hands psycopg (`before_cursor_execute`), each a wait on
  the server (psycopg 3 pipelines an executemany's rows: one wait); many: of them
  executemany;
- server: the statements PostgreSQL runs (an executemany of N rows is N of them; a page of
  SQLAlchemy's multi-row VALUES one);
- trips: turns on the wire in libpq's own trace of the protocol (psycopg's `PGconn.trace`),
  from the client's messages to the server's (a pipeline reading answers while it still
  sends adds a few); Executes: the Execute messages sent;
- ms: the time it took.

    uv run python tests/benchmarks/writes.py [--pg URL]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.test_batched_writes import (  # noqa: E402
    Sent,
    counted,
    long_risk_game,
    plays_of,
)


def wire(trace: Path) -> tuple[int, int]:
    """(round trips, Execute messages) of a libpq trace: a round trip is a run of the
    client's messages (F) followed by the server's (B)."""
    trips = executes = 0
    last = ""
    for line in trace.read_text(errors="replace").splitlines():
        side, _length, message = (line.split("\t") + ["", ""])[:3]
        if side == "F" and message.startswith("Execute"):
            executes += 1
        if side == "F" and last == "B" or side == "F" and not last:
            trips += 1
        if side in ("F", "B"):
            last = side
    return trips, executes


def measure(base: str, what: str, work: Any) -> None:
    from sqlalchemy import create_engine, event

    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tests.benchmarks.records import pg_url

    schema = f"writes_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    engine = make_engine(pg_url(base, schema))
    ledger = Ledger(engine)
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "libpq.trace"
        traced = trace.open("w")
        import psycopg

        def start_trace(dbapi: Any, _record: Any) -> None:
            dbapi.pgconn.trace(traced.fileno())
            dbapi.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS
                                         | psycopg.pq.Trace.REGRESS_MODE)

        engine.dispose()  # new connections from here on, traced
        event.listen(engine, "connect", start_trace)
        ledger.player_names()  # a connection made (and its set-up traced) before the count
        traced.flush()
        trace.write_text("")
        try:
            with counted(engine) as sent:
                started = time.perf_counter()
                work(ledger)
                took = time.perf_counter() - started
        finally:
            engine.dispose()
            traced.close()
        trips, executes = wire(trace)
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
    admin.dispose()
    show(what, sent, trips, executes, took)


def show(what: str, sent: Sent, trips: int, executes: int, took: float) -> None:
    print(f"{what:<28} {sent.calls:>6} {sent.executemany:>5} {sent.statements:>7} "
          f"{trips:>6} {executes:>8} {took * 1000:>8.0f}")
    tables = Counter(sent.tables)
    print(" " * 29 + ", ".join(f"{t} {n}" for t, n in tables.most_common()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", default=os.environ.get("WARLEDGER_TEST_PG"))
    args = parser.parse_args()
    if not args.pg:
        print("no PostgreSQL: --pg URL or WARLEDGER_TEST_PG")
        return 1
    print(f"{'what':<28} {'calls':>6} {'many':>5} {'server':>7} {'trips':>6} "
          f"{'Executes':>8} {'ms':>8}")
    for steps in (20, 2000):
        game = long_risk_game(steps)
        measure(args.pg, f"replay, {steps:,} steps", lambda ledger, g=game: ledger.replay(g))
    for count, people in ((10, None), (200, None), (500, None), (500, 30)):
        plays = plays_of(count, people)
        measure(args.pg, f"import, {count} plays" + (f", {people} players" if people else ""),
                lambda ledger, p=plays: ledger.import_plays(p))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
