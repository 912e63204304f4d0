"""What the reliability tests run in real child processes (forked from a server that has
already imported warledger, so a child starts in milliseconds and can be killed anywhere).

A child tells the test what it knows to be confirmed by appending lines to a file with one
unbuffered write each, after the ledger call returned: a SIGKILL cannot take back a line.

Also runnable as a script: `python tests/reliability/workers.py record DB GAME PLAN OUT`.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRELOAD = ["storage.service", "storage.ledger", "storage.migrate", "rules.soe", "rules.risk",
           "tui.cli.typer_app", "alembic.command", "alembic.runtime.migration", "alembic.script",
           "sqlalchemy.dialects.sqlite", "sqlalchemy.dialects.postgresql", "psycopg"]


def tell(out: int, **what: Any) -> None:
    os.write(out, (json.dumps(what) + "\n").encode())


def planned_step(plan: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    """The step numbered `seq` (from 1): the plan's steps, then undo and redo taking turns,
    so the game keeps finishing and reopening (its result row written and removed)."""
    if seq <= len(plan):
        return plan[seq - 1]
    return {"kind": "undo" if (seq - len(plan)) % 2 else "redo"}


def wait_out_busy(error: Exception, out: int) -> None:
    """A busy database is told and waited out a moment (the player enters the step again);
    any other failure is raised."""
    import time

    from storage.service import BUSY, explain

    line = explain(error)
    tell(out, busy=line)
    if line != BUSY:
        raise error
    time.sleep(0.05)


def load_again(ledger, game_id: int, out: int):
    """The game as stored, read again after a busy database: the read may meet one too (a
    run of the suite under py-spy, which pauses the processes it samples, saw a recorder die
    of one there), and is waited out as the write was."""
    while True:
        try:
            return ledger.load(game_id)
        except Exception as e:  # noqa: BLE001 - only a busy database may be retried
            wait_out_busy(e, out)


def record_loop(db: str, game_id: int, plan: list[dict[str, Any]], out_path: str,
                limit: int = 10**9) -> None:
    """Record the planned steps one by one until killed (or `limit` steps were added). A busy
    database (the other recorder held the write lock past the busy timeout: two loops that
    never pause can starve one another on a loaded machine) is what a player is told; the
    step is entered again, as they would."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from storage.service import open_ledger

    out = os.open(out_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    ledger = open_ledger(db)
    game = ledger.load(game_id)
    tell(out, started=game.seq)
    for _ in range(limit):
        step = planned_step(plan, game.seq + 1)
        try:
            game = ledger.record(game_id, step, expected_seq=game.seq)
        except Exception as e:  # noqa: BLE001 - only a busy database may be retried
            wait_out_busy(e, out)
            game = load_again(ledger, game_id, out)
            continue
        tell(out, seq=game.seq)


def race(db: str, game_id: int | None, author: str, count: int, out_path: str, go,
         create: dict[str, Any] | None = None, busy_ms: int | None = None) -> None:
    """Record `count` corrections, each knowing the sequence it expects; a StaleGame (another
    process was first) is retried from the game it hands back, a busy database after a pause.
    With `create`, first make a game of one's own from that session file's start."""
    if busy_ms is not None:
        os.environ["WARLEDGER_BUSY_TIMEOUT_MS"] = str(busy_ms)
    from storage.ledger import StaleGame
    from storage.service import open_ledger

    out = os.open(out_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    ledger = open_ledger(db)
    go.wait(60)
    if create is not None:
        game = ledger.create_game(create["game"], f"{author}'s game", create["settings"],
                                  create["players"])
        game_id = game.id
        tell(out, created=game_id)
    else:
        game = ledger.load(game_id)
    power = game.seats[0].power
    for i in range(count):
        step = {"kind": "adjust", "power": power, "gold": 1, "note": f"{author}:{i}"}
        while True:
            try:
                game = ledger.record(game_id, step, expected_seq=game.seq, author=author)
            except StaleGame as e:
                tell(out, stale=str(e), expected=game.seq, now=e.game.seq)
                game = e.game  # shown the new state, the player enters it again
                continue
            except Exception as e:  # noqa: BLE001 - only a busy database may be retried
                wait_out_busy(e, out)
                game = load_again(ledger, game_id, out)
                continue
            break
        tell(out, seq=game.seq, note=step["note"], game=game_id)


def migrate(db: str, go, busy_ms: int, out) -> None:
    """Start on `db` the moment `go` is set, as a terminal does (the engine factory brings
    the schema to head), waiting `busy_ms` at most in one try for another's lock; put
    ("ok", revision) or ("failed", what the player would read) on `out`."""
    os.environ["WARLEDGER_BUSY_TIMEOUT_MS"] = str(busy_ms)
    from storage.engine import make_engine
    from storage.migrate import current_revision
    from storage.service import explain

    go.wait(60)
    try:
        engine = make_engine(db)
        try:
            out.put(("ok", current_revision(engine)))
        finally:
            engine.dispose()
    except Exception as e:  # noqa: BLE001 - reported to the test, which shows it
        out.put(("failed", explain(e)))


def cli(argv: list[str], env: dict[str, str] | None = None) -> None:
    """The real `warledger` command line in this process (exit status as a real run's)."""
    os.environ.update(env or {})
    sys.argv = ["warledger", *argv]
    from tui.cli.start import main

    main()
    sys.exit(0)


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    if command == "record":
        db, game, plan, out = args
        with open(plan, encoding="utf-8") as f:
            record_loop(db, int(game), json.load(f)["steps"], out)
    else:
        raise SystemExit(f"unknown command {command}")
