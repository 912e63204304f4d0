"""The last keys before a terminal goes away are kept (issue 44): warledger in a real
pseudo-terminal that is its controlling terminal, as a login gives it; a key written, and
0.1 s later the terminal closed (the kernel's SIGHUP) or the process told to end (SIGTERM,
what the SSH server and the web server send); reopened, the typed cell is in the draft."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest
import test_keys_in_order as keys_in_order
from test_keys_in_order import Terminal
from test_tui_soe import session_file

from storage.engine import make_engine
from storage.ledger import Ledger
from tests import test_hosting
from tests.at_head import new_database
from tests.test_hosting import alive, home_screen, sit_down
from tests.waiting import until
from tui.hosting import ssh

pytestmark = pytest.mark.slow

AFTER_THE_LAST_KEY = 0.1  # seconds between the last key and the terminal going away


class LoginTerminal(Terminal):
    """Terminal (tests/test_keys_in_order.py), the pty made the app's controlling terminal:
    closing its master side hangs it up, and the kernel sends the app SIGHUP."""

    def __init__(self, db: Path, size: tuple[int, int] = (100, 32)) -> None:
        import fcntl
        import struct
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "WARLEDGER_DB": f"sqlite:///{db}"}

        def take_terminal() -> None:  # after setsid: the pty on stdin becomes ours
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen([sys.executable, "-m", "tui", "--db", f"sqlite:///{db}"],
                                     stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True, close_fds=True,
                                     preexec_fn=take_terminal)
        os.close(slave)
        self.seen = b""
        self.hung_up = False

    def hang_up(self) -> None:
        """The window closed: the pty's master side closed (tmux kill-session, a dropped
        SSH link's sshd)."""
        os.close(self.master)
        self.hung_up = True

    def ended(self, seconds: float = 30) -> int:
        """The app's exit status, once it has ended (fails after `seconds`)."""
        end = time.monotonic() + seconds
        while self.proc.poll() is None:
            assert time.monotonic() < end, "the app never ended"
            if self.hung_up:
                time.sleep(0.05)
            else:
                self.read(0.05)
        return self.proc.returncode

    def close(self) -> None:
        if not self.hung_up:
            super().close()
        elif self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def at_upkeep(tmp_path: Path):
    """A game at war 1's upkeep, opened in a login terminal: its upkeep grid drawn."""
    return keys_in_order.at_upkeep(tmp_path, LoginTerminal)


def typed_cells(ledger, game_id: int) -> dict:
    return ((ledger.draft(game_id) or {}).get("form") or {}).get("values") or {}


@contextmanager
def database_busy(path: Path):
    """Another process's write lock on the file: the app's draft waits for it."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


def typed_first(ledger, game_id: int, terminal: LoginTerminal) -> None:
    """France's armies typed, and kept: the game's screen is there and answering."""
    terminal.write(b"5")
    terminal.until(lambda: typed_cells(ledger, game_id) == {"France": {"armies": 5}})


def test_a_key_then_the_terminal_closed_is_in_the_draft(tmp_path):
    """The issue's steps: a digit, the terminal closed 0.1 s later; reopened, it is there
    (a draft was written only after 0.4 s without keys, and SIGHUP ended the app first)."""
    ledger, game_id, terminal = at_upkeep(tmp_path)
    try:
        typed_first(ledger, game_id, terminal)
        terminal.write(b"3")  # France's fleets: the last key
        terminal.read(AFTER_THE_LAST_KEY)
        terminal.hang_up()
        terminal.ended()
    finally:
        terminal.close()
    assert typed_cells(ledger, game_id) == {"France": {"armies": 5, "fleets": 3}}


@pytest.mark.parametrize("how", ["SIGHUP", "SIGTERM"])
def test_the_last_draft_is_written_before_the_app_ends_even_on_a_busy_database(tmp_path, how):
    """The draft of the last key is still on its way (another process holds the write lock)
    when the terminal goes: the app writes it before it ends, within its deadline, and ends
    by the signal that ended it. (On the code of the issue the app died with the signal.)"""
    ledger, game_id, terminal = at_upkeep(tmp_path)
    try:
        typed_first(ledger, game_id, terminal)
        with database_busy(tmp_path / "t.db"):
            terminal.write(b"3")
            terminal.read(AFTER_THE_LAST_KEY)
            if how == "SIGHUP":
                terminal.hang_up()
                time.sleep(0.3)
            else:
                os.kill(terminal.proc.pid, signal.SIGTERM)
                terminal.read(0.3)
        status = terminal.ended()
    finally:
        terminal.close()
    assert typed_cells(ledger, game_id) == {"France": {"armies": 5, "fleets": 3}}
    # Ended by the signal (or, had its exit stuck on a terminal that is not there, by its
    # own deadline, with the shell's status for it).
    assert status in (-getattr(signal, how), 128 + getattr(signal, how))


# ---------------------------------------------------------------- over SSH

# test_hosting's fixtures: a table on a free port with six players' keys (its `game`: below).
keys, data_dir, db = test_hosting.keys, test_hosting.data_dir, test_hosting.db
open_host, host = test_hosting.open_host, test_hosting.host

@pytest.fixture
def game(db) -> int:
    """A Struggle of Empires game at war 1's upkeep (for test_hosting's `host`)."""
    data = session_file()
    data["steps"] = data["steps"][:1]
    return Ledger(make_engine(new_database(db))).replay(data).id


@pytest.mark.parametrize("fork", [True, False])
async def test_a_key_then_the_ssh_link_dropped_is_in_the_draft(open_host, keys, db, game, fork,
                                                               monkeypatch):
    """A player's SSH connection drops 0.1 s after their last key, while another process
    holds the database's write lock: the server ends their process (SIGTERM), which writes
    the draft before it ends. A player started as a process of its own, and one forked from
    the warm parent (Linux's default)."""
    monkeypatch.setattr(ssh, "FORK_PLAYERS", fork)
    host, _ = await open_host()
    ledger = Ledger(make_engine(db))
    conn, chan, terminal = await sit_down(host.port, keys["Ana"], size=(100, 32))
    await home_screen(terminal, "Ana")
    terminal.forget()
    chan.write(b"\r")  # the game, the only one
    await terminal.wait_for("Upkeep:")
    chan.write(b"5")
    await terminal.wait_for("18 → 13")  # the totals: France pays upkeep for 5 armies
    (seat,) = host.seats
    pid = seat.process.pid
    with database_busy(Path(db)):
        chan.write(b"3")
        await asyncio.sleep(AFTER_THE_LAST_KEY)
        conn.close()
        await asyncio.sleep(0.3)
    await until(lambda: not alive(pid) and not host.seats)
    assert typed_cells(ledger, game) == {"France": {"armies": 5, "fleets": 3}}


# ---------------------------------------------------------------- in a browser

open_web = test_hosting.open_web


async def test_a_key_then_the_web_tab_closed_is_in_the_draft(open_web, db, game):
    """A browser tab closes 0.1 s after the last key, while another process holds the
    database's write lock: the server asks the tab's app to quit (then SIGTERM), and the app
    writes the draft before it ends."""
    from tests.test_hosting import screen_of, tab

    ledger = Ledger(make_engine(db))
    table, _ = await open_web()
    async with aiohttp.ClientSession() as session:
        ws = await tab(session, table)
        await screen_of(ws, "New Struggle of Empires", "Friday")
        (seat,) = table.seats
        pid = seat.pid
        await ws.send_str('["stdin", "\\r"]')  # the game, the only one
        await screen_of(ws, "Upkeep:")
        await ws.send_str('["stdin", "5"]')
        await screen_of(ws, "18 → 13")  # the totals: France pays upkeep for 5 armies
        with database_busy(Path(db)):
            await ws.send_str('["stdin", "3"]')
            await asyncio.sleep(AFTER_THE_LAST_KEY)
            await ws.close()
            await asyncio.sleep(0.3)
    await until(lambda: not alive(pid) and not table.seats, timeout=10)
    assert typed_cells(ledger, game) == {"France": {"armies": 5, "fleets": 3}}


async def test_a_signal_that_comes_as_the_app_ends_is_no_error(table, monkeypatch):
    """A web tab closed: the host asks its app to quit, and sends SIGTERM if it has not
    ended within half a second. On a busy machine the SIGTERM came as the app was ending,
    when Textual no longer starts a worker ("RuntimeError: App is not running", raised
    from the signal's handler onto the tab's error output and the host's console: 6 of 8
    closes with two cores busy, 0 of 12 after). The app ending already keeps the drafts as
    it ends (`WarledgerApp.run`): the handler only notes the signal, and starts no timer
    that would end the process."""
    import threading

    app = table.app()
    async with app.run_test():
        pass

    def not_running(*args, **kwargs):
        raise RuntimeError("App is not running")  # what Textual says once its loop is gone

    monkeypatch.setattr(app, "run_worker", not_running)
    threads = threading.active_count()
    app._terminal_gone(signal.SIGTERM)  # what the loop's handler calls
    assert app.gone_by == signal.SIGTERM
    assert threading.active_count() == threads  # no "gone-within" timer to os._exit
