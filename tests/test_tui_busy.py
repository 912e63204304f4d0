"""The database never holds up the keys: while another process holds the write lock, the
game screen keeps answering, says it is waiting, and records the step once the lock goes.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys

from textual.widgets import Static

from storage.engine import make_engine
from storage.ledger import Ledger
from tests.test_tui_soe import pause_until, session_file
from tui.app import WarledgerApp
from tui.games.soe.game import SoeGameScreen
from tui.screens.help import HelpScreen

# Another process takes SQLite's write lock (BEGIN IMMEDIATE), says so, keeps it until the
# test has looked (its standard input closes), lets go.
HOLD_LOCK = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
con.execute("COMMIT")
"""


def soon(pilot, condition, seconds: float = 10.0):
    """Whether `condition()` holds within `seconds`, the app running meanwhile (asyncio.sleep,
    not pilot.pause(): that would wait for the write)."""
    return pause_until(pilot, condition, seconds, wait=lambda: asyncio.sleep(0.02))


async def test_keys_answer_while_another_process_holds_the_write_lock(tmp_path, monkeypatch):
    monkeypatch.setenv("WARLEDGER_BUSY_TIMEOUT_MS", "1000")  # several tries while it waits
    db = str(tmp_path / "table.db")
    ledger = Ledger(make_engine(db))
    data = session_file()
    data["steps"] = data["steps"][:2]  # war 1 at population: Enter confirms it
    game = ledger.replay(data)
    app = WarledgerApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_game(game.id)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SoeGameScreen) and screen.state.phase == "population"

        holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, db],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout.readline().strip() == "locked"
            await pilot.press("enter")  # the population step: its write has to wait

            def message() -> str:
                return str(screen.query_one("#message", Static).render())

            # Slow at first; then the database's own "busy" says why.
            assert await soon(pilot, lambda: message() == "Waiting for the database…"), message()
            assert await soon(pilot, lambda: message() == "Waiting for the database: "
                              "another terminal is writing…"), message()
            await pilot.press("f1")  # the keys still answer: help opens while it waits
            assert await soon(pilot, lambda: isinstance(app.screen, HelpScreen)), app.screen
            assert holder.poll() is None, "the lock was let go before the test looked"
            assert ledger.head(game.id) == game.seq  # nothing written yet
            await pilot.press("escape")
            assert await soon(pilot, lambda: app.screen is screen), app.screen
        finally:
            holder.stdin.close()  # the holder lets go
            holder.wait(timeout=10)
        await pilot.pause()  # the write goes through once the lock is let go
        # Population, then scoring by itself (nothing to type in it), each its own write.
        assert ledger.head(game.id) == game.seq + 2
        assert ledger.load(game.id).state.phase == "end_war"
        assert screen.state.phase == "end_war"
        assert "Recorded: population; then by itself: scoring" in str(
            screen.query_one("#message", Static).render())
