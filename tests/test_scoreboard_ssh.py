"""A key line with `spectator` over SSH (issue 26), with a real SSH client on loopback: the
key gets the scoreboard only, the host's console says so, the board follows a step another
terminal records, and the keys that record in the full app record nothing."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from scenes import SOE_UPKEEP

from storage.engine import make_engine
from storage.ledger import Ledger
from tests.test_hosting import sit_down
from tui.games.soe.demo import soe_demo
from tui.hosting.ssh import Table, open_table

# Keys a player presses on a game screen to record, take back or leave: Enter (confirm),
# ctrl+z (undo), ctrl+y (redo), ctrl+r (mine instead), ctrl+s, ctrl+o (saved games), n r d
# (new games, demo), digits and = in a form, Tab, the arrows, Delete.
RECORDING_KEYS = b"\r\x1a\x19\x12\x13\x0fnrdb12=3\t\x1b[A\x1b[B\x1b[3~ x\r"
F1 = b"\x1bOP"
CTRL_Q = b"\x11"


@pytest.mark.slow
async def test_a_spectator_key_gets_the_scoreboard_and_records_nothing(tmp_path):
    db = str(tmp_path / "table.db")
    ledger = Ledger(make_engine(db))
    game = ledger.replay(soe_demo()).id
    before = ledger.head(game)
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="cy@laptop")
    keys_path = folder / "authorized_keys"
    keys_path.write_text(f'player="Cy",spectator {key.export_public_key().decode().strip()}\n')
    keys_path.chmod(0o600)
    said: list[str] = []
    table = Table(db, keys_path, port=0, say=said.append)
    acceptor, _fingerprint = await open_table(table, "127.0.0.1", folder)
    try:
        conn, chan, terminal = await sit_down(table.port, key, size=(100, 30))
        await terminal.wait_for("Scoreboard", "Leader: Bo", "VP", "Britain", "Cy watching")
        assert "Cy sat down from 127.0.0.1 (spectator: the scoreboard only)" in said
        terminal.forget()
        chan.write(RECORDING_KEYS)
        chan.write(F1)  # once the help is drawn, every key before it has been handled
        await terminal.wait_for("records nothing", "Close this help")
        assert ledger.head(game) == before  # nothing recorded, nothing taken back
        assert ledger.draft(game) is None
        terminal.forget()
        chan.write(b"q")  # the help closes; another terminal records a step
        at = ledger.load(game)
        ledger.record(game, SOE_UPKEEP, expected_seq=at.seq, author="Ana")
        await terminal.wait_for("Last step, by Ana")
        chan.write(CTRL_Q)
        await asyncio.wait_for(terminal.closed.wait(), 20)
        assert terminal.exit_status == 0
        assert [author for _seq, _kind, author in ledger.authors(game)][-1] == "Ana"
        assert "Cy" not in {author for _seq, _kind, author in ledger.authors(game)}
        assert ledger.head(game) == before + 1
        conn.close()
    finally:
        acceptor.close()
        await asyncio.wait_for(table.clear(), 10)



@pytest.mark.slow
def test_the_scoreboard_command_runs_as_a_terminal_or_a_tab_runs_it(tmp_path):
    """`python -m tui --db DB scoreboard`, as the web's spectator link starts it (there
    with textual-serve's driver; here a terminal's), in a pseudo-terminal: the board of the
    game played last, no key records, ctrl+q ends it."""
    import fcntl
    import os
    import select
    import signal
    import struct
    import subprocess
    import sys
    import termios
    import time

    db = str(tmp_path / "table.db")
    ledger = Ledger(make_engine(db))
    game = ledger.replay(soe_demo()).id
    before = ledger.head(game)
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    env.pop("TEXTUAL_DRIVER", None)
    proc = subprocess.Popen([sys.executable, "-m", "tui", "--db", db, "scoreboard"],
                            stdin=slave, stdout=slave, stderr=slave, env=env,
                            start_new_session=True, close_fds=True)
    os.close(slave)
    seen = bytearray()

    def read_until(condition, seconds: float = 30.0) -> None:
        end = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < end, f"never got there: {bytes(seen[-600:])!r}"
            if select.select([master], [], [], 0.1)[0]:
                try:
                    seen.extend(os.read(master, 1 << 16))
                except OSError:
                    return

    try:
        read_until(lambda: b"Scoreboard" in seen and b"Leader:" in seen)
        os.write(master, RECORDING_KEYS + F1)
        read_until(lambda: b"records nothing" in seen)
        os.write(master, b"q" + CTRL_Q)  # the help closes, then the scoreboard
        read_until(lambda: proc.poll() is not None)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    assert ledger.head(game) == before
