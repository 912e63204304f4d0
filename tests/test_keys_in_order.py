"""Every key lands where it was aimed (issue 21): keys written to a real pseudo-terminal in
one burst give the same cells and the same ledger as the same keys typed one at a time, the
keys typed while a game opens are kept, and one grammar holds in every grid."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_tui_soe import drafted, new_game, session_file

from storage.engine import make_engine
from storage.ledger import Ledger
from tests.at_head import new_database

pytestmark = pytest.mark.slow

ARROWS = {"up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D"}


class Terminal:
    """warledger started as a user starts it (`python -m tui --db FILE`) in a pseudo-terminal
    of 100x32; `write` sends bytes in one os.write, as an SSH link or a paste delivers them."""

    def __init__(self, db: Path, size: tuple[int, int] = (100, 32)) -> None:
        import fcntl
        import struct
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "WARLEDGER_DB": f"sqlite:///{db}"}
        self.proc = subprocess.Popen([sys.executable, "-m", "tui", "--db", f"sqlite:///{db}"],
                                     stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.seen = b""

    def read(self, seconds: float = 0.05) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if select.select([self.master], [], [], left)[0]:
                try:
                    self.seen += os.read(self.master, 1 << 16)
                except OSError:
                    return

    def wait_for(self, text: bytes, seconds: float = 30) -> None:
        end = time.monotonic() + seconds
        while text not in self.seen:
            assert time.monotonic() < end, f"never drew {text!r}: {self.seen[-400:]!r}"
            self.read(0.1)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def until(self, condition, seconds: float = 30.0):
        """condition()'s value once it is truthy (it polls the database), reading what the
        app draws meanwhile (an app whose terminal is not read stops); fails after
        `seconds`."""
        end = time.monotonic() + seconds
        while not (value := condition()):
            assert time.monotonic() < end, "the terminal never got there"
            self.read(0.05)
        return value

    def stable(self, read, seconds: float = 1.0):
        """read()'s value if it is the same `seconds` later, else None."""
        first = read()
        self.read(seconds)
        return first if read() == first else None

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                self.write(b"\x11")  # ctrl+q
            end = time.monotonic() + 5
            while self.proc.poll() is None and time.monotonic() < end:
                self.read(0.1)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            os.close(self.master)


def key_bytes(key: str) -> bytes:
    return {"tab": b"\t", "enter": b"\r", "backspace": b"\x7f", **ARROWS}.get(
        key, key.encode())


def soe_game(path: Path, steps: int) -> tuple[Ledger, int]:
    ledger = Ledger(make_engine(f"sqlite:///{new_database(path)}"))

    class AtTable:
        def ledger(self):
            return ledger

    return ledger, new_game(AtTable(), steps=steps)


def test_a_burst_opens_the_game_and_fills_upkeep_cell_by_cell(tmp_path):
    """Enter opens the game, and the keys behind it (written in the same write) land in the
    upkeep grid: `=` numbers end at Space, quick cells move on, `.` ends a row, Tab skips."""
    ledger, game_id = soe_game(tmp_path / "t.db", steps=1)  # income of war 1: upkeep next
    terminal = Terminal(tmp_path / "t.db")
    try:
        terminal.wait_for(b"Friday")
        terminal.write(b"\r" + b"=3 10." + b"241." + b"501\t" + b"400" + b"\r")
        terminal.until(lambda: ledger.head(game_id) >= 2)
    finally:
        terminal.close()
    upkeep = ledger.export(game_id)["steps"][1]
    assert upkeep["kind"] == "upkeep"
    assert upkeep["units"] == session_file()["steps"][1]["units"]


def at_upkeep(tmp_path: Path, opened_in: type[Terminal] | None = None
              ) -> tuple[Ledger, int, Terminal]:
    """A game at war 1's upkeep, opened in a terminal (a Terminal, or `opened_in`): its
    upkeep grid drawn."""
    ledger, game_id = soe_game(tmp_path / "t.db", steps=1)
    terminal = (opened_in or Terminal)(tmp_path / "t.db")
    try:
        terminal.wait_for(b"Friday")
        terminal.write(b"\r")
        terminal.wait_for(b"Upkeep:")
    except BaseException:
        terminal.close()
        raise
    return ledger, game_id, terminal


def test_tab_never_overtakes_the_digit_typed_before_it(tmp_path):
    """The burst the table met: 5, Tab, 3 on France's armies put 5 under fleets."""
    ledger, game_id, terminal = at_upkeep(tmp_path)
    try:
        terminal.write(b"=5\t3")
        # A draft is written at each key: the burst is in once France has two cells typed.
        draft = terminal.until(lambda: len(drafted(ledger, game_id).get("values", {})
                                           .get("France", {})) >= 2 and drafted(ledger, game_id)["values"])
    finally:
        terminal.close()
    assert draft["France"] == {"armies": 5, "fleets": 3}


# The keys of the random bursts: digits, the grid's own keys, moves and letters that jump.
ALPHABET = (list("0123456789") * 3 + ["tab", "tab", " ", " ", ".", "=", "+", "-",
                                       "backspace", "up", "down", "left", "right",
                                       "g", "i", "b", "F", "B", "A"])


def risk_game(path: Path) -> tuple[Ledger, int]:
    ledger = Ledger(make_engine(f"sqlite:///{new_database(path)}"))
    players = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
               {"name": "Cy", "color": "green"}]
    return ledger, ledger.create_game("risk", "Friday", {"mode": "fixed_rounds", "rounds": 3},
                                      players).id


GAMES = {"soe": (lambda path: soe_game(path, steps=0), b"Actions"),  # war 1's income grid
         "risk": (risk_game, b"Close round 1")}


def play(path: Path, keys: list[str], *, burst: bool, game: str = "soe",
         made: tuple[Ledger, int] | None = None) -> tuple[dict, list]:
    """Open the only game (`made` already, or made here), type `keys` (in one write, or one
    at a time 30 ms apart), leave it and open it again, then Enter; the draft kept on leaving
    and the steps after Enter."""
    make, shown = GAMES[game]
    ledger, game_id = made or make(path)
    terminal = Terminal(path)
    try:
        terminal.wait_for(b"Friday")
        terminal.write(b"\r")
        terminal.wait_for(shown)
        typed = [key_bytes(k) for k in keys]
        if burst:
            terminal.write(b"".join(typed))
        else:
            for key in typed:
                terminal.write(key)
                terminal.read(0.03)
        # Back to the saved games (ctrl+o), which keeps the draft as the game goes: the key
        # waits its turn, so once the list is drawn every key before it has been handled and
        # no timer of the game's is left to save a draft of half the keys.
        terminal.seen = b""
        terminal.write(b"\x0f")
        terminal.wait_for(b"League")
        draft = terminal.until(lambda: drafted(ledger, game_id).get("cursor")
                               and terminal.stable(lambda: drafted(ledger, game_id)))
        terminal.seen = b""
        terminal.write(b"\r")  # the game again, with its draft
        terminal.wait_for(shown)
        before = ledger.head(game_id)
        terminal.write(b"\r")  # income recorded, or refused by the rules: the same in both
        end = time.monotonic() + 3
        while ledger.head(game_id) == before and time.monotonic() < end:
            terminal.read(0.1)
    finally:
        terminal.close()
    return draft, ledger.export(game_id)["steps"]


def side_by_side(tmp_path: Path, keys: list[str], game: str = "soe") -> tuple[tuple, tuple]:
    """`play` the keys in one write and one at a time, each in a terminal of its own, at the
    same time: two processes, two databases (made first, one after the other: a migration
    runs in one thread at a time); mostly each waits on its own clock."""
    paths = {way: tmp_path / f"{way}.db" for way in ("burst", "slow")}
    made = {way: GAMES[game][0](path) for way, path in paths.items()}
    with ThreadPoolExecutor(2) as both:
        burst, slow = (both.submit(play, paths[way], keys, burst=way == "burst", game=game,
                                   made=made[way]) for way in ("burst", "slow"))
        return burst.result(), slow.result()


def test_two_hundred_keys_in_one_write_leave_what_they_leave_one_at_a_time(tmp_path):
    keys = random.Random(21).choices(ALPHABET, k=200)
    burst, slow = side_by_side(tmp_path, keys)
    assert burst == slow


# The Risk round grid: several-digit territories and armies, continents marked with x.
RISK_ALPHABET = (list("0123456789") * 3 + ["tab", "tab", " ", " ", ".", "=", "+", "-", "x",
                                            "x", "backspace", "up", "down", "left", "right",
                                            "a", "b", "c", "T", "A"])


def test_two_hundred_keys_in_the_risk_round_grid_in_one_write(tmp_path):
    keys = random.Random(22).choices(RISK_ALPHABET, k=200)
    burst, slow = side_by_side(tmp_path, keys, game="risk")
    assert burst == slow


def test_quitting_right_behind_the_typing_keeps_it(tmp_path):
    """ctrl+q in the same write as a grid's keys waits its turn: the keys land, and the app
    keeps them in the draft as it quits."""
    ledger, game_id, terminal = at_upkeep(tmp_path)
    try:
        terminal.write(b"=5\t3\x11")
        terminal.until(lambda: terminal.proc.poll() is not None)
    finally:
        terminal.close()
    assert terminal.proc.returncode == 0
    assert drafted(ledger, game_id)["values"]["France"] == {"armies": 5, "fleets": 3}


def test_a_whole_missions_setup_in_one_write_deals_each_card_to_its_player(tmp_path):
    """A field that a key shows (the mission cards once they are dealt by hand) has its
    place before the Tab behind that key moves on: Textual orders Tab by the places it gave
    at its last refresh, and a burst faster than one refresh put each player's card search
    into another field (a player left with another's card)."""
    ledger = Ledger(make_engine(f"sqlite:///{tmp_path / 't.db'}"))
    terminal = Terminal(tmp_path / "t.db")

    def choose(search: str) -> bytes:
        return b"\r" + search.encode() + b"\r"

    keys = b"r" + b"\t" + choose("secret") + b"\t\t" + choose("hand") + b"\t"
    for name, search in (("Ana", "green"), ("Bo", "Asia and Africa"), ("Cy", "18")):
        keys += name.encode() + b"\t\t" + choose(search) + b"\t"
    try:
        terminal.wait_for(b"New Risk")
        terminal.write(keys + b"\x13")  # ctrl+s: start the game
        game = terminal.until(lambda: ledger.games())
    finally:
        terminal.close()
    players = ledger.export(game[0].id)["players"]
    assert {p["name"]: p["mission"] for p in players} == {
        "Ana": "destroy:green", "Bo": "asia+africa", "Cy": "18x2"}
