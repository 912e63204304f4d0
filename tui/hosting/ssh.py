"""`warledger serve ssh`: an asyncssh server that seats each connection at its own TUI.

Textual's driver owns its process, so apps are not shared in one process: every session
gets a child process (tui.hosting.child) in a pseudo-terminal of its own, and the children
meet in the database, where the game screens' live refresh shows each step to everyone.
On Linux each child is forked from a warm parent that has already imported the TUI and the
database libraries (tui.hosting.zygote): it starts at once and shares their memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import signal
import struct
import sys
import termios
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from tui.hosting.child import DEFAULT_TERM, hosted_environment, terminal_name
from tui.hosting.keys import (
    NO_SEAT,
    HostingError,
    Players,
    fingerprint,
    line_for,
    load_host_key,
    read_players,
)
from tui.hosting.zygote import PER_PLAYER, Player, WarmParent
from tui.literal import visible

ESCAPE_DELAY_MS = 250  # a lone Esc over a network may arrive apart from the rest of a key
STOP_GRACE = 2.0  # seconds a child gets to end on SIGTERM before SIGKILL
NO_TERMINAL = "warledger needs a terminal: connect with `ssh -p {port} HOST`, without a command"
TABLE_FULL = "The table is full ({max} players): try again later"
TABLE_CLOSED = "The host closed the table."
CANNOT_START = "warledger could not start here; tell the host"
RESIZED = "Your terminal said it was {asked}; warledger uses {used}."
# What the server says it is, before anyone authenticates: no library or its version.
SERVER_VERSION = "warledger"
# An authenticated connection that opens no terminal in this long is closed: every one
# counts against --max-sessions, so `ssh -N` cannot hold seats.
SESSION_GRACE = 10.0
MAX_CELLS = 1000  # columns or rows: more than any screen shows, little enough to draw
MAX_PIXELS = 0xFFFF  # what a pty keeps of a window's size in pixels
DEFAULT_SIZE = (80, 24)  # for a client that sends 0 (unknown)
# Players forked from a warm parent (tui.hosting.zygote) where it runs: Linux. Elsewhere
# each player's process is started from scratch, importing everything.
FORK_PLAYERS = sys.platform == "linux"
# What Textual undoes when it exits normally: a child ended by a signal cannot, so the
# server does it for the player's terminal (kitty keys, bracketed paste, focus and mouse
# reports, alternate screen, hidden cursor, colours).
TERMINAL_RESET = (b"\x1b[<u\x1b[?2004l\x1b[?1004l\x1b[?1000l\x1b[?1003l\x1b[?1015l"
                  b"\x1b[?1006l\x1b[?1049l\x1b[?25h\x1b[0m")


async def until_stopped() -> None:
    """Return when the host is told to stop: SIGTERM, SIGINT (ctrl+c) or SIGHUP."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def end_process(process: Player | asyncio.subprocess.Process) -> None:
    """SIGTERM to the process's group, SIGKILL after STOP_GRACE; returns once it is gone."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), STOP_GRACE)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()


@dataclass
class Table:
    """What every connection shares: the settings and who is seated."""

    db: str | None
    keys_path: Path
    port: int = 2222
    max_sessions: int = 16
    say: Callable[[str], None] = print
    seats: set[TerminalSession] = field(default_factory=set)
    connections: set[asyncssh.SSHServerConnection] = field(default_factory=set)
    # Connections past authentication: each holds a place at the table, session or not.
    authenticated: set[asyncssh.SSHServerConnection] = field(default_factory=set)
    warned: set[str] = field(default_factory=set)  # warnings about the keys, said once each
    # The warm parents players are forked from, by the environment they give (one, unless
    # the host's environment changed since the table opened).
    parents: dict[tuple, WarmParent] = field(default_factory=dict)
    starting: asyncio.Lock = field(default_factory=asyncio.Lock)  # one parent started at once
    closed: bool = False

    def tell(self, line: str) -> None:
        """One line on the host's console. Lines carry player names and key comments:
        every control or text-direction character is shown as its escape, never obeyed."""
        self.say(visible(line))

    def players(self) -> Players:
        """The authorized-keys file as it is now; each skipped line is told once."""
        players = read_players(self.keys_path)
        for warning in players.warnings:
            if warning not in self.warned:
                self.warned.add(warning)
                self.tell(f"warning: {warning}")
        return players

    async def clear(self) -> None:
        """End every child, tell its player, drop every connection and stop the warm
        parents."""
        self.closed = True
        await asyncio.gather(*(seat.end(TABLE_CLOSED) for seat in list(self.seats)))
        for conn in list(self.connections):
            conn.close()
        async with self.starting:
            parents, self.parents = list(self.parents.values()), {}
        await asyncio.gather(*(parent.close() for parent in parents))

    async def warm_parent(self, env: dict[str, str]) -> WarmParent:
        """The warm parent whose players get `env`, started if there is none (or it
        stopped)."""
        key = tuple(sorted(env.items()))
        async with self.starting:
            if self.closed:
                raise OSError("the table is closed")
            parent = self.parents.get(key)
            if parent is None or parent.lost:
                if parent is not None:
                    self.tell("the players' warm parent had stopped: starting another")
                    await parent.close()
                parent = self.parents[key] = await WarmParent.start(self.db, env)
            return parent

    async def start_player(self, argv: list[str], tty: int,
                           env: dict[str, str]) -> Player | asyncio.subprocess.Process:
        """Start `argv` (python -m MODULE ...) in the pty `tty`, in a session of its own,
        with exactly `env` as its environment."""
        if not FORK_PLAYERS:
            return await asyncio.create_subprocess_exec(
                *argv, stdin=tty, stdout=tty, stderr=tty, env=env, start_new_session=True)
        parent = await self.warm_parent({name: value for name, value in env.items()
                                         if name not in PER_PLAYER})
        return await parent.fork(argv, tty, {name: env[name] for name in PER_PLAYER
                                             if name in env})


class TableServer(asyncssh.SSHServer):
    """One connection: public keys only, and the key says who the player is."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.conn: asyncssh.SSHServerConnection | None = None
        self.player: str | None = None
        self.seat = True  # False: the key's line says no-pty (tui.hosting.keys.KeyLine.seat)
        self.idle: asyncio.TimerHandle | None = None  # closes a connection with no terminal

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.table.connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        self.table.connections.discard(self.conn)
        self.table.authenticated.discard(self.conn)
        if self.idle is not None:
            self.idle.cancel()

    def auth_completed(self) -> None:
        if self.table_full():  # another connection took the last place meanwhile
            return
        self.table.authenticated.add(self.conn)
        self.idle = asyncio.get_running_loop().call_later(SESSION_GRACE, self.close_idle)

    def close_idle(self) -> None:
        """No terminal asked for in time (`ssh -N`, a forgotten tunnel): give the place up."""
        self.table.tell(f"{self.player} opened no terminal in {SESSION_GRACE:g} s: "
                        "connection closed")
        self.conn.disconnect(asyncssh.DISC_BY_APPLICATION,
                             "warledger needs a terminal: connect with ssh -p PORT HOST")

    def begin_auth(self, username: str) -> bool:
        self.table_full()  # said before a key is even asked for
        return True  # everyone authenticates; the user name itself means nothing here

    def table_full(self) -> bool:
        """Every place is held by an authenticated connection: turn this one away."""
        table = self.table
        if len(table.authenticated) < table.max_sessions:
            return False
        table.tell(f"{self.player or 'a newcomer'} turned away: the table is full")
        self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                             TABLE_FULL.format(max=table.max_sessions))
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Read each time, so the host can seat a new player without a restart.
        try:
            players = self.table.players()
        except HostingError as e:
            self.table.tell(f"refused a key: {e}")
            return False
        addr = self._peer_addr()
        line = line_for(players.lines, key, addr, addr)
        self.player, self.seat = (line.player, line.seat) if line else (None, True)
        return self.player is not None

    def session_requested(self) -> TerminalSession:
        assert self.player is not None  # sessions open only after authentication
        if not self.seat:
            self.table.tell(f"{self.player} refused: no-pty in the keys file gives no seat")
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, NO_SEAT)
        if self.idle is not None:
            self.idle.cancel()
        return TerminalSession(self.table, self.player, self._peer_addr())

    def _peer_addr(self) -> str:
        peer = self.conn.get_extra_info("peername") if self.conn else None
        return str(peer[0]) if peer else ""


class TerminalSession(asyncssh.SSHServerSession):
    """One player's terminal: raw bytes between the SSH channel and a child's pty."""

    def __init__(self, table: Table, player: str, addr: str) -> None:
        self.table = table
        self.player = player
        self.addr = addr
        self.chan: asyncssh.SSHServerChannel | None = None
        self.command: str | None = None
        self.process: Player | asyncio.subprocess.Process | None = None
        self.master: int | None = None
        self.to_child: asyncio.WriteTransport | None = None
        self.from_child: asyncio.ReadTransport | None = None
        self.pending: list[bytes] = []  # keys typed before the child's terminal is ready
        self.task: asyncio.Task | None = None
        self.spawned = asyncio.Event()  # the child started, or failed to
        self.ending: asyncio.Task | None = None
        self.farewell: str | None = None  # set when the server ends the child
        self.drained: asyncio.Future | None = None  # the child's last output was sent

    # ------------------------------------------------------------ the SSH side

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan

    def pty_requested(self, term_type, term_size, term_modes) -> bool:
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # accepted only to be refused with a message
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        chan = self.chan
        if chan.get_terminal_type() is None or self.command is not None:
            self.refuse(NO_TERMINAL.format(port=self.table.port))
        elif len(self.table.seats) >= self.table.max_sessions:
            self.refuse(TABLE_FULL.format(max=self.table.max_sessions))
            self.table.tell(f"{self.player} turned away: the table is full")
        else:
            self.table.seats.add(self)
            self.task = asyncio.ensure_future(self.run())

    def refuse(self, message: str) -> None:
        self.chan.write_stderr(f"{message}\r\n".encode())
        self.chan.exit(1)

    def data_received(self, data: bytes, datatype) -> None:
        if self.to_child is None:
            self.pending.append(data)
        elif not self.to_child.is_closing():
            self.to_child.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        if self.master is None:
            return  # before start: run() reads the size from the channel
        set_window_size(self.master, *terminal_size(width, height, pixwidth, pixheight))
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGWINCH)

    def pause_writing(self) -> None:
        if self.from_child is not None:
            self.from_child.pause_reading()  # a slow client slows the child, not our memory

    def resume_writing(self) -> None:
        if self.from_child is not None:
            self.from_child.resume_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        if self in self.table.seats:
            self.ending = asyncio.ensure_future(self.end())

    # ------------------------------------------------------------ the child side

    async def run(self) -> None:
        self.table.tell(f"{self.player} sat down from {self.addr}")
        try:
            await self.start()
        except Exception as e:  # noqa: BLE001 - whatever it was, the player is told
            self.table.tell(f"could not start a terminal for {self.player}: {e}")
            self.table.seats.discard(self)
            with contextlib.suppress(OSError, asyncssh.Error):
                self.refuse(CANNOT_START)
            return
        finally:
            self.spawned.set()
        status = await self.process.wait()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.drained, 1.0)  # the child's last frame, then the prompt
        self.close_pipes()
        self.table.seats.discard(self)
        self.table.tell(f"{self.player} left")
        with contextlib.suppress(OSError, asyncssh.Error):
            if self.farewell is not None:
                self.chan.write(TERMINAL_RESET + f"{self.farewell}\r\n".encode())
            self.chan.exit(status if status >= 0 else 1)  # negative: ended by a signal

    async def start(self) -> None:
        """Open the player's pty at their window's size and start their child in it. On any
        failure the pty is released before the error goes on."""
        loop = asyncio.get_running_loop()
        asked = self.chan.get_terminal_size()
        size = terminal_size(*asked)
        if size[:2] != tuple(asked[:2]):
            self.table.tell(f"{self.player}'s terminal said it was {asked[0]}x{asked[1]}: "
                            f"using {size[0]}x{size[1]}")
            self.chan.write_stderr(RESIZED.format(asked=f"{asked[0]}x{asked[1]}",
                                                  used=f"{size[0]}x{size[1]}").encode()
                                   + b"\r\n")
        master, slave = pty.openpty()
        reader = None  # once it exists, it owns `master`
        drained = loop.create_future()
        try:
            set_window_size(master, *size)
            reader = os.fdopen(master, "rb", buffering=0)
            self.from_child, _ = await loop.connect_read_pipe(
                lambda: ChildOutput(self.chan, drained), reader)
            self.drained = drained
            self.master = master
            writer = os.fdopen(os.dup(master), "wb", buffering=0)
            try:
                self.to_child, _ = await loop.connect_write_pipe(asyncio.Protocol, writer)
            except BaseException:
                writer.close()
                raise
            for data in self.pending:
                self.to_child.write(data)
            self.pending.clear()
            self.process = await self.table.start_player(
                child_command(self.table.db, self.player), slave, child_env(self.chan))
        except BaseException:
            self.master = None
            if self.from_child is not None:
                self.close_pipes()  # closes `master` (and its copy)
            elif reader is not None:
                reader.close()
            else:
                os.close(master)
            raise
        finally:
            os.close(slave)  # the child holds it now; its exit then ends our reads

    async def end(self, farewell: str | None = None) -> None:
        """End the child (SIGTERM, then SIGKILL), tell the player `farewell` when they are
        still connected, and let go of the terminal."""
        self.farewell = farewell
        self.table.seats.discard(self)
        if self.task is None:
            return  # never seated
        await self.spawned.wait()  # never leave a child starting behind
        if self.process is not None:
            await end_process(self.process)
        await asyncio.wait({self.task}, timeout=STOP_GRACE)  # run() says goodbye
        self.close_pipes()

    def close_pipes(self) -> None:
        for transport in (self.to_child, self.from_child):
            if transport is not None:
                transport.close()


class ChildOutput(asyncio.Protocol):
    """The child's screen, sent on to the player's SSH channel as it comes."""

    def __init__(self, chan: asyncssh.SSHServerChannel, drained: asyncio.Future) -> None:
        self.chan = chan
        self.drained = drained

    def data_received(self, data: bytes) -> None:
        with contextlib.suppress(OSError, asyncssh.Error):
            self.chan.write(data)

    def connection_lost(self, exc: Exception | None) -> None:
        # EIO here is the normal end: the child closed its side of the pty.
        if not self.drained.done():
            self.drained.set_result(None)


def terminal_size(width: int, height: int, pixwidth: int = 0,
                  pixheight: int = 0) -> tuple[int, int, int, int]:
    """A window size a client asked for, as one a terminal can have: 1 to MAX_CELLS columns
    and rows (0, unknown, is 80x24), pixels 0 to MAX_PIXELS."""
    def cells(n: int, unknown: int) -> int:
        return unknown if n <= 0 else min(n, MAX_CELLS)

    def pixels(n: int) -> int:
        return max(0, min(n, MAX_PIXELS))

    return (cells(width, DEFAULT_SIZE[0]), cells(height, DEFAULT_SIZE[1]), pixels(pixwidth),
            pixels(pixheight))


def set_window_size(fd: int, width: int, height: int, pixwidth: int = 0,
                    pixheight: int = 0) -> None:
    """Tell a pty its window size (what the client's terminal measures)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, pixwidth, pixheight))


def child_command(db: str | None, player: str) -> list[str]:
    """The TUI one player runs, as a command line; `player` is the name the keys file gave,
    already checked like any name typed (tui.hosting.keys)."""
    return [sys.executable, "-m", "tui.hosting.child", f"--player={player}",
            *(["--db", db] if db else [])]


def shared_env() -> dict[str, str]:
    """What every child gets: what it needs of the host's environment
    (tui.hosting.child.hosted_environment) and the escape delay for a network."""
    env = hosted_environment()
    env["ESCDELAY"] = str(ESCAPE_DELAY_MS)
    return env


def child_env(chan: asyncssh.SSHServerChannel) -> dict[str, str]:
    """`shared_env` with the client's terminal: its TERM and COLORTERM when they are plain
    names. Nothing else the client sends gets in; the pty, not COLUMNS or LINES, says the
    window's size."""
    env = shared_env()
    env["TERM"] = terminal_name(chan.get_terminal_type(), DEFAULT_TERM)
    colorterm = chan.get_environment().get("COLORTERM")
    if isinstance(colorterm, str) and terminal_name(colorterm, ""):
        env["COLORTERM"] = colorterm
    return env


async def open_table(table: Table, host: str, data_dir: Path) -> tuple[asyncssh.SSHAcceptor, str]:
    """Start listening; returns the acceptor and the host key's fingerprint. Refuses to
    start (HostingError) without a readable authorized-keys file."""
    table.players()  # no usable key: the host is told now, not at each connection
    host_key = load_host_key(data_dir, table.tell)
    acceptor = await asyncssh.listen(
        host, table.port, server_factory=lambda: TableServer(table),
        server_host_keys=[host_key], server_version=SERVER_VERSION,
        encoding=None, line_editor=False, agent_forwarding=False, x11_forwarding=False,
        allow_scp=False, keepalive_interval=30, keepalive_count_max=4)
    table.port = acceptor.get_port()  # port 0 asks for any free one
    if FORK_PLAYERS:
        try:
            await table.warm_parent(shared_env())  # it warms up before the first player
        except BaseException:
            acceptor.close()
            raise
    return acceptor, fingerprint(host_key)


async def serve(table: Table, host: str, data_dir: Path) -> None:
    """Run the table until SIGTERM or SIGINT: then close the listener, end the children
    and return."""
    acceptor, host_print = await open_table(table, host, data_dir)
    table.tell(f"warledger table open on {host}:{table.port} (players: {table.keys_path})")
    table.tell(f"host key fingerprint: {host_print}")
    table.tell(f"players connect with: ssh -p {table.port} {host}")
    await until_stopped()
    table.tell("closing the table")
    acceptor.close()
    await table.clear()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(acceptor.wait_closed(), 2.0)
