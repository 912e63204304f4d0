"""Hosting over SSH, with a real asyncssh client on loopback: who may connect, what a
player sees, resizes, a full table, two players on one game, and a clean SIGTERM. Then what
a hostile player or page tries: oversized windows, odd TERMs, the host's secrets, loose
files, foreign pages and too many browser tabs (a real aiohttp client), screenshots."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import termios
from pathlib import Path

import aiohttp
import asyncssh
import pytest
from yarl import URL

from rules.soe import MAX_POPULATION, POPULATION_GROWTH
from storage.engine import data_dir as warledger_data_dir
from storage.engine import make_engine
from storage.ledger import Ledger
from tests.at_head import new_database
from tests.test_tui_soe import session_file
from tests.waiting import until
from tui.games.soe.game import STEP_TITLES
from tui.hosting import ssh, ssh_terminal
from tui.hosting.child import DEFAULT_TERM, kept, terminal_name
from tui.hosting.keys import HOST_KEY_NAME, HostingError, read_players
from tui.hosting.ssh import Table, open_table
from tui.hosting.ssh_terminal import CANNOT_START, TABLE_CLOSED, TABLE_FULL
from tui.hosting.web import WebTable, web_command
from tui.hosting.web_addresses import NO_LOGIN

PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
# The population step's title as the game screen shows it (a message of the catalogs).
POPULATION = STEP_TITLES["population"].format(growth=POPULATION_GROWTH, most=MAX_POPULATION)
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
    return Ledger(make_engine(new_database(db))).replay(data).id


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


def environ_of(pid: int) -> dict[str, str]:
    """/proc/PID/environ: the environment the process was started with. A forked player
    shows its warm parent's; its own TERM and COLORTERM are in its os.environ only."""
    return dict(item.split("=", 1) for item in Path(f"/proc/{pid}/environ")
                .read_text().split("\0") if "=" in item)


def probe(monkeypatch, report: Path) -> None:
    """Players run tests/benchmarks/ssh_players.py's probe: the TUI, then (once it ends) a
    JSON report of the player's process, with its real os.environ."""
    monkeypatch.setattr(ssh_terminal, "child_command", lambda db, player: [
        sys.executable, "-m", "tests.benchmarks.ssh_players", "probe", str(report),
        "--player", player, *(["--db", db] if db else [])])


async def quit_for_report(chan, terminal: Terminal, report: Path) -> dict:
    """ctrl+q: the TUI ends and the probe reports."""
    chan.write(b"\x11")
    await asyncio.wait_for(terminal.closed.wait(), 10)
    assert terminal.exit_status == 0
    return json.loads(report.read_text())


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

async def test_known_key_sees_home_and_a_resize_redraws(host, keys, tmp_path, monkeypatch):
    report = tmp_path / "ana.json"
    probe(monkeypatch, report)
    conn, chan, terminal = await sit_down(host.port, keys["Ana"], size=(100, 30))
    await home_screen(terminal, "Ana")
    (seat,) = host.seats
    assert window_size(seat.master) == (100, 30)  # set before the child started
    assert b"\x1b[?1000h" not in terminal.raw  # no mouse reports asked of the terminal
    terminal.forget()
    chan.change_terminal_size(120, 40)
    await until(lambda: window_size(seat.master) == (120, 40))
    await terminal.wait_for("warledger", "New Struggle of Empires", timeout=10)
    seen = await quit_for_report(chan, terminal, report)
    assert seen["pid"] == seat.process.pid
    env = seen["environ"]  # what the TUI ran with
    assert (env["TERM"], env["COLORTERM"], env["ESCDELAY"]) == ("xterm-256color", "truecolor",
                                                                 "250")
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
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await sit_down(table.port, keys["Bo"])
    assert refused.value.code == asyncssh.DISC_TOO_MANY_CONNECTIONS
    assert "The table is full (1 players): try again later" in refused.value.reason
    assert len(table.seats) == 1 and len(table.authenticated) == 1
    conn.close()


async def test_a_connection_without_a_terminal_holds_a_place_then_is_closed(
        open_host, keys, monkeypatch):
    """`ssh -N` counts against --max-sessions, and gives its place up when it opens no
    terminal in time."""
    monkeypatch.setattr(ssh, "SESSION_GRACE", 0.5)
    table, _ = await open_host(max_sessions=1)
    idle = await connect(table.port, keys["Ana"])  # authenticated, no session: ssh -N
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await connect(table.port, keys["Bo"])
    assert refused.value.code == asyncssh.DISC_TOO_MANY_CONNECTIONS
    await asyncio.wait_for(idle.wait_closed(), 10)  # closed after the grace
    assert not table.authenticated
    conn, _, terminal = await sit_down(table.port, keys["Bo"])  # the place is free again
    await home_screen(terminal, "Bo")
    conn.close()


async def test_the_server_names_warledger_not_its_library(open_host):
    table, _ = await open_host()
    reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
    banner = (await asyncio.wait_for(reader.readline(), 10)).decode("ascii", "replace")
    writer.close()
    assert banner.strip() == "SSH-2.0-warledger"
    assert "asyncssh" not in banner.lower()


@pytest.mark.slow
async def test_a_step_recorded_in_one_terminal_appears_in_another(host, keys, db, game):
    (ana, ana_chan, ana_sees), (bo, bo_chan, bo_sees) = await asyncio.gather(
        sit_down(host.port, keys["Ana"], size=(120, 40)),
        sit_down(host.port, keys["Bo"], size=(120, 40)))
    await asyncio.gather(home_screen(ana_sees, "Ana"), home_screen(bo_sees, "Bo"))
    for chan, terminal in ((ana_chan, ana_sees), (bo_chan, bo_sees)):
        terminal.forget()
        chan.write(b"\r")  # open the highlighted game, the only one
    await asyncio.gather(*(terminal.wait_for(POPULATION, timeout=10)
                           for terminal in (ana_sees, bo_sees)))
    bo_sees.forget()
    ana_chan.write(b"\r")  # Ana confirms the population step; scoring follows by itself
    await bo_sees.wait_for(STEP_TITLES["end_war"], timeout=3)  # Bo's screen follows
    assert Ledger(make_engine(db)).authors(game)[-2:] == [(3, "population", "Ana"),
                                                          (4, "scoring", "Ana")]
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
    # The player's process, and the warm parent it was forked from where players are forked.
    children = descendants_of(server.pid)
    assert len(children) == 1 + ssh.FORK_PLAYERS
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


def descendants_of(pid: int) -> list[int]:
    """The processes under `pid`: its children, theirs, and so on."""
    found, frontier = [], [pid]
    while frontier:
        frontier = [child for parent in frontier for child in children_of(parent)]
        found += frontier
    return found


# ---------------------------------------------------------------- a hostile player, over SSH

def pty_fds() -> int:
    """Pseudo-terminal ends open in this process: the server's, in these tests."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/self/fd/{fd}")
            count += target == "/dev/ptmx" or target.startswith("/dev/pts/")
    return count


async def test_an_oversized_window_is_clamped_and_no_pty_leaks(host, keys):
    before = pty_fds()
    conn, chan, terminal = await sit_down(host.port, keys["Ana"], size=(70000, 70000))
    await terminal.wait_for("you are Ana", "New Struggle of Empires")
    assert "Your terminal said it was 70000x70000; warledger uses 1000x1000." in terminal.text
    (seat,) = host.seats
    assert window_size(seat.master) == (1000, 1000)
    chan.change_terminal_size(70000, 0)  # a resize is clamped too; 0 is "unknown"
    await until(lambda: window_size(seat.master) == (1000, 24))
    conn.close()
    # Ten more that drop while their terminal is being set up.
    for _ in range(10):
        conn = await connect(host.port, keys["Bo"])
        await conn.create_session(Terminal, term_type="xterm", term_size=(70000, 70000),
                                  encoding=None)
        conn.close()
    await until(lambda: not host.seats and pty_fds() == before, timeout=10)


async def test_a_terminal_that_cannot_start_is_told_and_released(host, keys, monkeypatch):
    monkeypatch.setattr("tui.hosting.ssh_terminal.child_command",
                        lambda db, player: ["/nonexistent/warledger"])
    said: list[str] = []
    host.say = said.append
    before = pty_fds()
    conn, _, terminal = await sit_down(host.port, keys["Bo"])
    await terminal.wait_for(CANNOT_START, timeout=10)
    await asyncio.wait_for(terminal.closed.wait(), 10)
    assert terminal.exit_status == 1 and not host.seats
    assert any(line.startswith("could not start a terminal for Bo: ") for line in said)
    conn.close()
    await until(lambda: pty_fds() == before)


@pytest.mark.parametrize(("sent", "used"), [
    ("xterm-256color", "xterm-256color"), ("screen.xterm-256color", "screen.xterm-256color"),
    ("xterm\nevil", DEFAULT_TERM), ("xterm\n", DEFAULT_TERM), ("../../bin/sh", DEFAULT_TERM),
    ("-xterm", DEFAULT_TERM), ("", DEFAULT_TERM), (None, DEFAULT_TERM), ("x" * 65, DEFAULT_TERM),
    ("xterm\x1b[2J", DEFAULT_TERM)])
def test_only_a_plain_terminal_name_is_taken(sent, used):
    assert terminal_name(sent) == used


async def test_a_child_gets_a_plain_term_and_none_of_the_hosts_secrets(
        host, keys, tmp_path, monkeypatch):
    monkeypatch.setenv("WARLEDGER_TEST_SECRET", "hunter2")
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")  # a Textual setting the host chose
    report = tmp_path / "cy.json"
    probe(monkeypatch, report)
    conn = await connect(host.port, keys["Cy"])
    chan, terminal = await conn.create_session(
        Terminal, term_type="xterm\nevil", term_size=(100, 30), encoding=None,
        env={"COLORTERM": "truecolor\x1b[2J", "LD_PRELOAD": "/tmp/evil.so"})
    await terminal.wait_for("you are Cy", "New Struggle of Empires")  # the TUI runs
    (seat,) = host.seats
    # What its process was started with (forked: its warm parent's): the allowlist only.
    started = environ_of(seat.process.pid)
    assert "WARLEDGER_TEST_SECRET" not in started and "LD_PRELOAD" not in started
    assert all(kept(name) for name in set(started) - {"TERM", "COLORTERM", "ESCDELAY"})
    seen = await quit_for_report(chan, terminal, report)
    assert seen["pid"] == seat.process.pid
    env = seen["environ"]  # what the TUI ran with
    assert env["TERM"] == DEFAULT_TERM and "COLORTERM" not in env
    assert "WARLEDGER_TEST_SECRET" not in env and "LD_PRELOAD" not in env
    assert env["TEXTUAL_ANIMATIONS"] == "none" and env["PATH"] == os.environ["PATH"]
    conn.close()


# ---------------------------------------------------------------- files the host keeps

def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_a_new_database_and_its_journal_are_private(tmp_path):
    path = tmp_path / "new.db"
    umask = os.umask(0)  # private whatever the host's umask
    try:
        engine = make_engine(str(path))
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT count(*) FROM sqlite_master")
            modes = {name: mode(tmp_path / name) for name in ("new.db", "new.db-wal",
                                                               "new.db-shm")}
        engine.dispose()
    finally:
        os.umask(umask)
    assert modes == {"new.db": 0o600, "new.db-wal": 0o600, "new.db-shm": 0o600}


def test_the_data_folder_is_private(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    umask = os.umask(0)
    try:
        folder = warledger_data_dir()
    finally:
        os.umask(umask)
    assert folder == tmp_path / "xdg" / "warledger" and mode(folder) == 0o700
    folder.chmod(0o755)  # made by an older warledger
    assert mode(warledger_data_dir()) == 0o700


@pytest.mark.parametrize(("loose", "bits"), [("file", 0o666), ("file", 0o664),
                                             ("folder", 0o777), ("folder", 0o775)])
def test_keys_others_can_change_are_refused(tmp_path, keys, loose, bits):
    folder = tmp_path / "keys"
    folder.mkdir(mode=0o700)
    path = folder / "authorized_keys"
    write_authorized_keys(path, keys)
    path.chmod(0o644)
    assert len(read_players(path).lines) == 6  # readable by others is fine
    (path if loose == "file" else folder).chmod(bits)
    checked = path if loose == "file" else folder
    with pytest.raises(HostingError) as refused:
        read_players(path)
    assert str(refused.value) == (
        f"refusing {path}: other users of this machine can change "
        f"{'the players' + chr(39) + ' keys file' if loose == 'file' else 'the folder'} "
        f"{checked} (mode {bits:04o}) and so seat anyone at the table; run "
        f"`chmod go-w {checked}` and start again")


async def test_a_table_whose_keys_file_turns_loose_refuses_players(open_host, data_dir, keys):
    table, _ = await open_host()
    said: list[str] = []
    table.say = said.append
    (data_dir / "authorized_keys").chmod(0o666)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(table.port, keys["Ana"])
    assert any(line.startswith("refused a key: refusing ") and "chmod go-w" in line
               for line in said)
    with pytest.raises(HostingError, match="other users of this machine can change"):
        await open_host()  # and a new table does not open


# ---------------------------------------------------------------- screenshots

async def test_a_player_over_ssh_is_not_offered_screenshots(db, game):
    from tui.app import WarledgerApp

    for player, offered in ((None, True), ("Ana", False)):
        app = WarledgerApp(db, player=player)
        async with app.run_test():
            titles = [command.title for command in app.get_system_commands(app.screen)]
        assert ("Screenshot" in titles) is offered


# ---------------------------------------------------------------- in a browser

@pytest.fixture
async def open_web(db, game):
    """Opens web tables in this process on free ports; their tabs are ended afterwards."""
    opened: list[tuple[WebTable, object]] = []

    async def open_(host: str = "127.0.0.1", **settings) -> tuple[WebTable, list[str]]:
        said: list[str] = []
        table = WebTable(web_command(db), host, 0, say=said.append, links=None, **settings)
        runner = await table.open()
        opened.append((table, runner))
        return table, said

    yield open_
    for table, runner in opened:
        await asyncio.wait_for(table.close(), 10)
        await runner.cleanup()


def page(table: WebTable) -> str:
    return f"http://127.0.0.1:{table.port}"


async def tab(session: aiohttp.ClientSession, table: WebTable, origin: str | None = None,
              **headers) -> aiohttp.ClientWebSocketResponse:
    """A browser tab's socket, from the table's own page unless `origin` says otherwise."""
    return await session.ws_connect(
        f"{page(table)}/ws?width=100&height=30",
        headers={"Origin": page(table) if origin is None else origin, **headers})


async def screen_of(ws: aiohttp.ClientWebSocketResponse, *texts: str,
                    timeout: float = SCREEN_WAIT) -> tuple[str, list]:
    """What the tab drew (escapes stripped) until every text showed, and the JSON messages
    it was sent meanwhile."""
    drawn, messages = bytearray(), []
    async with asyncio.timeout(timeout):
        while not all(t in strip_ansi(bytes(drawn)) for t in texts):
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                drawn += message.data
            elif message.type == aiohttp.WSMsgType.TEXT:
                messages.append(message.json())
            else:
                raise AssertionError(f"the socket ended: {message}; it drew "
                                     f"{strip_ansi(bytes(drawn))[-500:]}")
    return strip_ansi(bytes(drawn)), messages


SEARCHED = "scrnsht"  # what the palette is asked for: only Screenshot matches it


async def drawn_after(ws: aiohttp.ClientWebSocketResponse, first: str, then: str,
                      timeout: float = SCREEN_WAIT) -> None:
    """Read what the tab draws until `then` was drawn after `first`."""
    drawn = bytearray()
    async with asyncio.timeout(timeout):
        while then not in strip_ansi(bytes(drawn)).partition(first)[2]:
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.BINARY, message
            drawn += message.data


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"}, {"Origin": "null"}, {},
    {"Origin": "http://127.0.0.1:1"}, {"Origin": "https://127.0.0.1:{port}"},
    {"Origin": "http://evil.example:{port}", "Host": "evil.example:{port}"}],
    ids=["foreign", "null", "none", "other-port", "https", "rebound"])
async def test_a_socket_from_another_page_is_refused_and_starts_nothing(open_web, headers):
    table, said = await open_web()
    headers = {name: value.format(port=table.port) for name, value in headers.items()}
    before = children_of(os.getpid())
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"{page(table)}/ws", headers=headers)
    assert refused.value.status == 403
    assert not table.seats and children_of(os.getpid()) == before
    assert said and said[0].startswith("refused a ")


async def test_a_page_asked_by_another_name_is_refused(open_web):
    table, _ = await open_web()
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{page(table)}/", headers={"Host": "evil.example"}) as rebound:
            assert rebound.status == 403
            assert f"served at {page(table)}; open that address" in await rebound.text()
        async with session.get(f"{page(table)}/", headers={"Host": f"localhost:{table.port}"}
                               ) as local:
            assert local.status == 200  # the same machine by its other name
            assert f'"ws://localhost:{table.port}/ws"' in await local.text()


async def test_the_tables_own_page_plays_and_its_process_ends_with_the_socket(
        open_web, monkeypatch):
    monkeypatch.setenv("WARLEDGER_TEST_SECRET", "hunter2")
    table, said = await open_web()
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{page(table)}/") as index:
            assert index.status == 200
            assert f'"ws://127.0.0.1:{table.port}/ws"' in await index.text()
        async with await tab(session, table) as ws:
            await screen_of(ws, "warledger", "New Struggle of Empires")
            (seat,) = table.seats
            pid = seat.pid
            env = environ_of(pid)
            assert "WARLEDGER_TEST_SECRET" not in env
            assert env["TEXTUAL_DRIVER"] == "tui.hosting.web_driver:TableWebDriver"
            await ws.send_json(["resize", {"width": 70000, "height": 70000}])  # clamped
            await ws.send_str('["stdin", "x"]')
            assert alive(pid)
        await until(lambda: not alive(pid) and not table.seats, timeout=3)
    assert said == ["a browser at 127.0.0.1 sat down", "a browser at 127.0.0.1 left"]


async def test_a_full_web_table_turns_the_newcomer_away(open_web):
    table, said = await open_web(max_sessions=1)
    async with aiohttp.ClientSession() as session, await tab(session, table) as first:
        await screen_of(first, "New Struggle of Empires")
        async with await tab(session, table) as late:
            told = await late.receive(timeout=10)
            assert told.type == aiohttp.WSMsgType.BINARY
            assert told.data.decode() == TABLE_FULL.format(max=1) + "\r\n"
            closed = await late.receive(timeout=10)
            assert (closed.type, closed.data) == (aiohttp.WSMsgType.CLOSE, 1013)
        assert len(table.seats) == 1
    assert "a browser at 127.0.0.1 turned away: the table is full" in said


def test_a_loopback_table_says_it_is_for_this_machine_only():
    table = WebTable(web_command(None), "127.0.0.1", 8000, say=lambda line: None, links=None)
    table.settle()
    lines = table.announcement()
    assert lines[1].startswith("open http://127.0.0.1:8000 (this machine only")
    assert NO_LOGIN not in lines


async def test_listening_everywhere_prints_addresses_players_can_open(db, game):
    """The real command, an open table (--open): every address it prints serves the page
    with its socket at that same address, and the no-login warning is said once. SIGTERM
    closes it."""
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui", "--db", db, "serve", "web", "--open", "--host",
        "0.0.0.0", "--port", "0", stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    lines: list[str] = []
    try:
        async with asyncio.timeout(20):
            while not lines or lines[-1] != NO_LOGIN:
                line = await server.stdout.readline()
                assert line, f"the server ended saying {lines}"
                lines.append(line.decode().rstrip("\n"))
        urls = [line.removeprefix("players open ") for line in lines
                if line.startswith("players open ")]
        assert urls and lines.count(NO_LOGIN) == 1
        assert not any("0.0.0.0:" in url for url in urls)
        urls.append(lines[-2].removeprefix("on this machine: "))
        async with aiohttp.ClientSession() as session:
            for url in urls:
                address = URL(url)
                with socket.socket() as probe:
                    probe.bind((address.host, 0))  # an address of this machine
                async with session.get(f"{url}/") as index:
                    assert index.status == 200
                    assert f'"ws://{address.host}:{address.port}/ws"' in await index.text()
        server.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(server.wait(), 10) == 0
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


@pytest.mark.slow
async def test_a_screenshot_in_a_browser_goes_to_the_browser(open_web, tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # the tab's process would save under it
    table, _ = await open_web()
    async with aiohttp.ClientSession() as session, await tab(session, table) as ws:
        await screen_of(ws, "New Struggle of Empires")
        await ws.send_json(["stdin", "\x10"])  # ctrl+p: the command palette
        await screen_of(ws, "Search for commands", timeout=10)
        # Typed so that only the typing shows it ("screenshot" is in the command's help),
        # and Enter once the list was drawn again after it: filtered to the one command.
        await ws.send_json(["stdin", SEARCHED])
        await drawn_after(ws, SEARCHED, "Save an SVG")
        await ws.send_json(["stdin", "\r"])
        async with asyncio.timeout(10):
            while (message := await ws.receive()).type != aiohttp.WSMsgType.TEXT:
                assert message.type == aiohttp.WSMsgType.BINARY, message
        kind, key = message.json()
        assert kind == "deliver_file_start"
        async with session.get(f"{page(table)}/download/{key}") as download:
            assert download.status == 200
            assert download.headers["Content-Type"].startswith("image/svg+xml")
            assert (await download.text()).lstrip().startswith("<svg")
    assert not [p for p in home.rglob("*") if p.is_file()]  # nothing written on the host
