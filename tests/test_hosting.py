"""Hosting over SSH, with a real asyncssh client on loopback: who may connect, what a
player sees, resizes, a full table, two players on one game, and a clean SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

import asyncssh
import pytest

from storage.engine import make_engine
from storage.ledger import Ledger
from tests.test_tui_soe import session_file
from tui.hosting.keys import HOST_KEY_NAME, HostingError, read_players
from tui.hosting.ssh import TABLE_CLOSED, Table, open_table
from tui.screens.soe_game import STEP_TITLES

PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
SCREEN_WAIT = 30.0  # seconds for a child's first frame, several children starting at once
ANSI = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\-_])")


def strip_ansi(raw: bytes) -> str:
    return ANSI.sub(b"", raw).decode("utf-8", "replace")


# ---------------------------------------------------------------- the players' side

class Terminal(asyncssh.SSHClientSession):
    """A player's terminal as the test sees it: what the server sent, escapes stripped."""

    def __init__(self) -> None:
        self.raw = bytearray()
        self.seen = 0  # where `wait_for` starts looking
        self.changed = asyncio.Event()
        self.exit_status: int | None = None
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype) -> None:
        self.raw += data
        self.changed.set()

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    @property
    def text(self) -> str:
        return strip_ansi(bytes(self.raw[self.seen:]))

    def forget(self) -> None:
        """Look only at what comes next."""
        self.seen = len(self.raw)

    async def wait_for(self, *texts: str, timeout: float = SCREEN_WAIT) -> str:
        """Wait until every text has been drawn since the last `forget`."""
        try:
            async with asyncio.timeout(timeout):
                while not all(t in self.text for t in texts):
                    self.changed.clear()
                    if self.closed.is_set():
                        break
                    await self.changed.wait()
        except TimeoutError:
            pass
        missing = [t for t in texts if t not in self.text]
        assert not missing, f"never drawn: {missing}; the screen said:\n{self.text[-2000:]}"
        return self.text


async def connect(port: int, key: asyncssh.SSHKey | None, **options) -> asyncssh.SSHClientConnection:
    return await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username="player", known_hosts=None, agent_path=None,
        client_keys=[key] if key else None, **options), 10)


async def sit_down(port: int, key: asyncssh.SSHKey, size=(100, 30)):
    """Connect with a pty, as `ssh -p PORT host` does."""
    conn = await connect(port, key)
    chan, terminal = await conn.create_session(
        Terminal, term_type="xterm-256color", term_size=size, encoding=None,
        env={"COLORTERM": "truecolor"})
    return conn, chan, terminal


async def home_screen(terminal: Terminal, player: str) -> None:
    """The home screen, the saved game (Friday) listed and highlighted."""
    await terminal.wait_for("warledger", f"you are {player}", "New Struggle of Empires", "Friday")


# ---------------------------------------------------------------- the host's side

@pytest.fixture(scope="module")
def keys() -> dict[str, asyncssh.SSHKey]:
    """A key per player, and one a stranger holds."""
    return {name: asyncssh.generate_private_key("ssh-ed25519", comment=f"{name.lower()}@laptop")
            for name in [*PLAYERS, "stranger"]}


def write_authorized_keys(path: Path, keys: dict[str, asyncssh.SSHKey]) -> None:
    # Ana is named by her key's comment (plain `ssh-keygen -C Ana`), the rest by player=.
    lines = [keys["Ana"].export_public_key().decode().replace("ana@laptop", "Ana").strip()]
    lines += [f'player="{name}" {keys[name].export_public_key().decode().strip()}'
              for name in PLAYERS[1:]]
    path.write_text("# the Friday table\n" + "\n".join(lines) + "\n")


@pytest.fixture
def data_dir(tmp_path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "table.db")


@pytest.fixture
def game(db) -> int:
    """A Struggle of Empires game at war 1's population step (income and upkeep done)."""
    data = session_file()
    data["steps"] = data["steps"][:2]
    return Ledger(make_engine(db)).replay(data).id


@pytest.fixture
async def open_host(db, data_dir, keys, game):
    """Opens tables served in this process on free ports (the host key in `data_dir`);
    every child of theirs is ended afterwards."""
    opened: list[tuple[Table, asyncssh.SSHAcceptor]] = []
    write_authorized_keys(data_dir / "authorized_keys", keys)

    async def open_(**settings) -> tuple[Table, str]:
        table = Table(db, data_dir / "authorized_keys", port=0, say=lambda line: None,
                      **settings)
        acceptor, fingerprint = await open_table(table, "127.0.0.1", data_dir)
        opened.append((table, acceptor))
        return table, fingerprint

    yield open_
    for table, acceptor in opened:
        acceptor.close()
        await asyncio.wait_for(table.clear(), 10)


@pytest.fixture
async def host(open_host) -> Table:
    """A table with the six players' keys and the Friday game."""
    table, _ = await open_host()
    return table


def window_size(fd: int) -> tuple[int, int]:
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return cols, rows


def alive(pid: int) -> bool:
    """Running, and not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


async def until(condition, timeout: float = 5.0) -> bool:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)
    return True


# ---------------------------------------------------------------- who may sit down

def test_players_are_named_by_comment_or_option(tmp_path, keys):
    path = tmp_path / "authorized_keys"
    write_authorized_keys(path, keys)
    players = read_players(path)
    assert [line.player for line in players.lines] == PLAYERS
    assert players.warnings == []


def public(key: asyncssh.SSHKey, comment: str | None = None) -> str:
    line = key.export_public_key().decode().strip()
    return line if comment is None else " ".join(line.split()[:2] + [comment])


def bad_lines_file(path: Path, keys: dict[str, asyncssh.SSHKey]) -> None:
    """Good lines for Ana and Bo around four bad ones (lines 2 to 5)."""
    path.write_text("\n".join([
        f'player="Ana" {public(keys["Ana"])}',
        f'player="Ed\x1b[2J" {public(keys["Ed"])}',  # a control character in player=
        public(keys["Flo"], "F" * 30),  # a comment too long to be a name
        f'player="Cy\u202e" {public(keys["Cy"])}',  # a text-direction override
        "ssh-ed25519 not-a-key Di",
        "",
        f'player="  Bo  " {public(keys["Bo"])}',  # trimmed
    ]) + "\n")


def test_a_line_with_a_refused_name_is_skipped_with_a_warning(tmp_path, keys):
    path = tmp_path / "authorized_keys"
    bad_lines_file(path, keys)
    players = read_players(path)
    assert [line.player for line in players.lines] == ["Ana", "Bo"]
    assert len(players.warnings) == 4
    for number, (warning, reason) in enumerate(zip(players.warnings, (
            "control character (\\x1b)", "30 characters long: at most 24",
            "text-direction override", "not a public key"), strict=True), 2):
        assert warning.startswith(f"{path}, line {number}: ") and reason in warning
        assert warning.endswith("the line is skipped")


async def test_skipped_lines_are_told_once_and_their_keys_refused(open_host, data_dir, keys):
    table, _ = await open_host()
    said: list[str] = []
    table.say = said.append
    bad_lines_file(data_dir / "authorized_keys", keys)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(table.port, keys["Ed"])  # his line is skipped
    warnings = [line for line in said if line.startswith("warning: ")]
    assert len(warnings) == 4 and "line 2: " in warnings[0]
    assert not any("\x1b" in line or "\u202e" in line for line in said)  # escaped
    assert "holds a control character (\\x1b)" in warnings[0]
    conn = await connect(table.port, keys["Bo"])  # a good line after the bad ones
    conn.close()
    assert len([line for line in said if line.startswith("warning: ")]) == 4  # once each


def test_a_key_without_a_name_or_no_file_stops_the_host(tmp_path, keys):
    path = tmp_path / "authorized_keys"
    with pytest.raises(HostingError, match="no players' keys yet"):
        read_players(path)
    blob = keys["Ana"].export_public_key().decode().split()[:2]
    path.write_text(" ".join(blob) + "\n")
    with pytest.raises(HostingError, match="line 1: whose key is it"):
        read_players(path)


async def test_host_key_is_made_once_and_kept_private(open_host, data_dir, keys):
    first, printed = await open_host()
    conn = await connect(first.port, keys["Ana"])
    assert conn.get_server_host_key().get_fingerprint() == printed  # what the host shows
    conn.close()
    assert (data_dir / HOST_KEY_NAME).stat().st_mode & 0o777 == 0o600
    _, again = await open_host()
    assert again == printed  # kept, not made again


async def test_unknown_key_is_refused(host, keys):
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(host.port, keys["stranger"])


async def test_password_and_keyboard_interactive_are_refused(host):
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(host.port, None, password="hunter2",
                      preferred_auth="password,keyboard-interactive")


@pytest.mark.parametrize("pty", [False, True], ids=["no-pty", "pty"])
async def test_a_command_is_refused_and_runs_nothing(host, keys, pty):
    conn = await connect(host.port, keys["Bo"])
    async with conn:
        result = await asyncio.wait_for(conn.run(
            "warledger sessions", term_type="xterm" if pty else None), 10)
    assert result.exit_status == 1
    message = f"{result.stderr}{result.stdout}"
    assert f"needs a terminal: connect with `ssh -p {host.port} HOST`" in message
    assert not host.seats


# ---------------------------------------------------------------- at the table

async def test_known_key_sees_home_and_a_resize_redraws(host, keys):
    conn, chan, terminal = await sit_down(host.port, keys["Ana"], size=(100, 30))
    await home_screen(terminal, "Ana")
    (seat,) = host.seats
    assert window_size(seat.master) == (100, 30)  # set before the child started
    env = dict(item.split("=", 1) for item in Path(f"/proc/{seat.process.pid}/environ")
               .read_text().split("\0") if "=" in item)
    assert (env["TERM"], env["COLORTERM"], env["ESCDELAY"]) == ("xterm-256color", "truecolor",
                                                                 "250")
    assert b"\x1b[?1000h" not in terminal.raw  # no mouse reports asked of the terminal
    await asyncio.sleep(0.3)
    terminal.forget()
    chan.change_terminal_size(120, 40)
    await terminal.wait_for("warledger", "New Struggle of Empires", timeout=10)
    assert window_size(seat.master) == (120, 40)
    conn.close()


@pytest.mark.slow
async def test_six_players_at_once_then_quit_or_drop(host, keys):
    seated = await asyncio.gather(*(sit_down(host.port, keys[name]) for name in PLAYERS))
    await asyncio.gather(*(home_screen(terminal, name)
                           for name, (_, _, terminal) in zip(PLAYERS, seated, strict=True)))
    children = [seat.process.pid for seat in host.seats]
    assert len(children) == 6
    _, ana_chan, ana_sees = seated[0]
    ana_chan.write(b"\x11")  # ctrl+q: Ana quits, her session ends with the TUI's status
    await asyncio.wait_for(ana_sees.closed.wait(), 10)
    assert ana_sees.exit_status == 0
    for conn, _, _ in seated:
        conn.close()  # the others drop: no quit, no goodbye
    await until(lambda: not host.seats and not any(alive(pid) for pid in children))


async def test_a_full_table_turns_the_newcomer_away(open_host, keys):
    table, _ = await open_host(max_sessions=1)
    conn, _, terminal = await sit_down(table.port, keys["Ana"])
    await home_screen(terminal, "Ana")
    late, _, turned_away = await sit_down(table.port, keys["Bo"])
    await turned_away.wait_for("The table is full (1 players): try again later", timeout=10)
    await asyncio.wait_for(turned_away.closed.wait(), 10)
    assert turned_away.exit_status == 1
    assert len(table.seats) == 1
    late.close()
    conn.close()


@pytest.mark.slow
async def test_a_step_recorded_in_one_terminal_appears_in_another(host, keys, db, game):
    (ana, ana_chan, ana_sees), (bo, bo_chan, bo_sees) = await asyncio.gather(
        sit_down(host.port, keys["Ana"], size=(120, 40)),
        sit_down(host.port, keys["Bo"], size=(120, 40)))
    await asyncio.gather(home_screen(ana_sees, "Ana"), home_screen(bo_sees, "Bo"))
    for chan, terminal in ((ana_chan, ana_sees), (bo_chan, bo_sees)):
        terminal.forget()
        chan.write(b"\r")  # open the highlighted game, the only one
    await asyncio.gather(*(terminal.wait_for(STEP_TITLES["population"], timeout=10)
                           for terminal in (ana_sees, bo_sees)))
    await asyncio.sleep(0.3)
    bo_sees.forget()
    ana_chan.write(b"\r")  # Ana confirms the population step
    await bo_sees.wait_for(STEP_TITLES["scoring"], timeout=3)  # Bo's screen follows
    assert Ledger(make_engine(db)).authors(game)[-1] == (3, "population", "Ana")
    ana.close()
    bo.close()


@pytest.mark.slow
def test_sigterm_closes_the_table(tmp_path, db, data_dir, keys, game):
    """The real command in a process of its own: SIGTERM ends it, and its children."""
    write_authorized_keys(data_dir / "authorized_keys", keys)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    (tmp_path / "xdg" / "warledger").mkdir(parents=True)
    server = subprocess.Popen(
        [sys.executable, "-m", "tui", "--db", db, "serve", "ssh", "--port", "0",
         "--authorized-keys", str(data_dir / "authorized_keys")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    try:
        port = fingerprint = None
        for line in server.stdout:
            if match := re.search(r"table open on 127\.0\.0\.1:(\d+)", line):
                port = int(match[1])
            if match := re.search(r"fingerprint: (SHA256:\S+)", line):
                fingerprint = match[1]
                break
        assert port and fingerprint, "the server never said where it listens"
        assert (tmp_path / "xdg" / "warledger" / HOST_KEY_NAME).exists()
        asyncio.run(_sigterm_while_seated(server, port, fingerprint, keys))
        assert server.wait(timeout=5) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert not [pid for pid in children_of(server.pid) if alive(pid)]


async def _sigterm_while_seated(server: subprocess.Popen, port: int, fingerprint: str, keys):
    conn, _, terminal = await sit_down(port, keys["Di"])
    assert conn.get_server_host_key().get_fingerprint() == fingerprint
    await home_screen(terminal, "Di")
    children = children_of(server.pid)
    assert len(children) == 1
    server.send_signal(signal.SIGTERM)
    await asyncio.wait_for(terminal.closed.wait(), 5)
    assert TABLE_CLOSED in terminal.text
    await until(lambda: not any(alive(pid) for pid in children))
    conn.close()


def children_of(pid: int) -> list[int]:
    """Processes whose parent is `pid` (the server's children)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found
