"""One SSH player's terminal (`warledger serve ssh`): raw bytes between their channel and a
pseudo-terminal whose child runs their TUI (tui.hosting.child), their keys at the child's
pace, their window's size, and what the server tells them in their language.

Each player reads their own language (`player_language`): their key line's lang=, else the
locale their client sends, else the host's. Their child gets it as WARLEDGER_LANG.
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
from collections.abc import Callable, Mapping
from typing import Protocol

import asyncssh

from i18n import N_, _, language, language_of_locale, translation_of
from tui.hosting.child import DEFAULT_TERM, hosted_environment, terminal_name
from tui.hosting.processes import end_process
from tui.hosting.zygote import PER_PLAYER, Player


class Table(Protocol):
    """What a terminal asks of the table that seats it (tui.hosting.ssh.Table): named here,
    so that the table's module imports this one and not the other way round."""

    db: str | None
    port: int
    max_sessions: int
    seats: set[TerminalSession]

    def sit(self, seat: TerminalSession) -> bool: ...

    def stand(self, seat: TerminalSession) -> None: ...

    @property
    def tally(self) -> Callable[[str, str], None]:
        """One refusal told, a line per kind and interval (the table's Tally)."""

    def tell(self, line: str) -> None: ...

    async def start_player(self, argv: list[str], tty: int,
                           env: dict[str, str]) -> Player | asyncio.subprocess.Process: ...


class TableServer(Protocol):
    """What a terminal asks of its connection (tui.hosting.ssh.TableServer)."""

    language: str | None
    spectator: bool

    def sat_down(self) -> None: ...

    def stood_up(self) -> None: ...

ESCAPE_DELAY_MS = 250  # a lone Esc over a network may arrive apart from the rest of a key
STOP_GRACE = 2.0  # seconds a child gets to end on SIGTERM before SIGKILL
# What a player is told, in their language (TerminalSession.words).
NO_TERMINAL = N_("warledger needs a terminal: connect with `ssh -p {port} HOST`, without a "
                 "command")
# TRANSLATORS: {max} is --max-sessions, the places at the table.
TABLE_FULL = N_("The table is full ({max} players): try again later")
TABLE_CLOSED = N_("The host closed the table.")
CANNOT_START = N_("warledger could not start here; tell the host")
# TRANSLATORS: {asked} and {used} are window sizes: 2000x30.
RESIZED = N_("Your terminal said it was {asked}; warledger uses {used}.")
NEEDS_A_TERMINAL = N_("warledger needs a terminal: connect with ssh -p PORT HOST")
# The variables a client's locale is read from, the one that decides first (as the C
# library reads them).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
# A player's keys go to their process as fast as it takes them, never faster: a client may
# send CHANNEL_WINDOW ahead (asyncssh's default is 2 MiB), and TO_CHILD_AT_MOST waits for the
# player's pty; beyond it the channel is not read, so its window is not reopened and the
# client waits.
CHANNEL_WINDOW = 128 * 1024
TO_CHILD_AT_MOST = 64 * 1024
MAX_CELLS = 1000  # columns or rows: more than any screen shows, little enough to draw
MAX_PIXELS = 0xFFFF  # what a pty keeps of a window's size in pixels
DEFAULT_SIZE = (80, 24)  # for a client that sends 0 (unknown)
# What Textual undoes when it exits normally: a child ended by a signal cannot, so the
# server does it for the player's terminal (kitty keys, bracketed paste, focus and mouse
# reports, alternate screen, hidden cursor, colours).
TERMINAL_RESET = (b"\x1b[<u\x1b[?2004l\x1b[?1004l\x1b[?1000l\x1b[?1003l\x1b[?1015l"
                  b"\x1b[?1006l\x1b[?1049l\x1b[?25h\x1b[0m")


class TerminalSession(asyncssh.SSHServerSession):
    """One player's terminal: raw bytes between the SSH channel and a child's pty."""

    def __init__(self, table: Table, player: str, addr: str,
                 server: TableServer | None = None) -> None:
        self.table = table
        self.player = player
        self.addr = addr
        self.server = server  # its connection's
        # The key line says spectator: this terminal runs the scoreboard, which only reads.
        self.spectator = server.spectator if server is not None else False
        # The player's language (player_language), once the session has started.
        self.language = (server.language if server else None) or language()
        self.chan: asyncssh.SSHServerChannel | None = None
        self.command: str | None = None
        self.process: Player | asyncio.subprocess.Process | None = None
        self.master: int | None = None
        self.to_child: asyncio.WriteTransport | None = None
        self.child_input: ChildInput | None = None
        self.from_child: asyncio.ReadTransport | None = None
        # Keys typed before the child's terminal is ready: the channel is not read beyond
        # TO_CHILD_AT_MOST of them.
        self.pending = bytearray()
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
        assert chan is not None  # asyncssh calls connection_made first
        self.language = player_language(self.server.language if self.server else None,
                                        chan.get_environment())
        if chan.get_terminal_type() is None or self.command is not None:
            self.refuse(self.words(NO_TERMINAL).format(port=self.table.port))
        elif not self.table.sit(self):
            self.refuse(self.words(TABLE_FULL).format(max=self.table.max_sessions))
            self.table.tally("full", turned_away(self.player))
        else:
            self.task = asyncio.ensure_future(self.run())

    def words(self, message: str) -> str:
        """`message` in the player's language."""
        return translation_of(self.language).gettext(message)

    def refuse(self, message: str) -> None:
        """One line to the player, and the session ends; the place its connection held is
        free (Table.stand)."""
        assert self.chan is not None  # asyncssh calls connection_made first
        self.chan.write_stderr(f"{message}\r\n".encode())
        self.chan.exit(1)
        self.table.stand(self)
        if self.server is not None:
            self.server.stood_up()

    def data_received(self, data: bytes, datatype) -> None:
        # Keys go on as the child's pty takes them: while TO_CHILD_AT_MOST waits, the
        # channel is not read (ChildInput), so its window is not reopened.
        if self.to_child is None:
            self.pending += data
            if len(self.pending) >= TO_CHILD_AT_MOST:
                assert self.chan is not None  # data comes on the channel connection_made gave
                self.chan.pause_reading()
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
        if self.spectator:
            # TRANSLATORS: the host's console: a key line with `spectator` connected.
            self.table.tell(_("{player} sat down from {address} (spectator: the scoreboard "
                              "only)").format(player=self.player, address=self.addr))
        else:
            self.table.tell(_("{player} sat down from {address}").format(player=self.player,
                                                                          address=self.addr))
        try:
            await self.start()
        except Exception as e:  # noqa: BLE001 - whatever it was, the player is told
            self.table.tell(_("could not start a terminal for {player}: {error}").format(
                player=self.player, error=e))
            self.table.stand(self)
            with contextlib.suppress(OSError, asyncssh.Error):
                self.refuse(self.words(CANNOT_START))
            return
        finally:
            self.spawned.set()
        # start() has started the child and kept its output's end (or raised, above)
        assert self.process is not None and self.drained is not None and self.chan is not None
        status = await self.process.wait()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.drained, 1.0)  # the child's last frame, then the prompt
        self.close_pipes()
        self.table.stand(self)
        self.table.tell(_("{player} left").format(player=self.player))
        with contextlib.suppress(OSError, asyncssh.Error):
            if self.farewell is not None:
                self.chan.write(TERMINAL_RESET + f"{self.words(self.farewell)}\r\n".encode())
            self.chan.exit(status if status >= 0 else 1)  # negative: ended by a signal

    async def start(self) -> None:
        """Open the player's pty at their window's size and start their child in it. On any
        failure the pty is released before the error goes on."""
        loop = asyncio.get_running_loop()
        assert self.chan is not None  # asyncssh calls connection_made first
        chan = self.chan  # as narrowed, for the protocols made below
        asked = self.chan.get_terminal_size()
        size = terminal_size(*asked)
        if size[:2] != tuple(asked[:2]):
            sizes = {"asked": f"{asked[0]}x{asked[1]}", "used": f"{size[0]}x{size[1]}"}
            self.table.tell(_("{player}'s terminal said it was {asked}: using {used}").format(
                player=self.player, **sizes))
            self.chan.write_stderr(self.words(RESIZED).format(**sizes).encode() + b"\r\n")
        master, slave = pty.openpty()
        reader = None  # once it exists, it owns `master`
        drained = loop.create_future()
        try:
            set_window_size(master, *size)
            reader = os.fdopen(master, "rb", buffering=0)
            self.from_child, _protocol = await loop.connect_read_pipe(
                lambda: ChildOutput(chan, drained), reader)
            self.drained = drained
            self.master = master
            writer = os.fdopen(os.dup(master), "wb", buffering=0)
            try:
                self.to_child, self.child_input = await loop.connect_write_pipe(
                    lambda: ChildInput(chan), writer)
            except BaseException:
                writer.close()
                raise
            # Non-blocking: what the pty does not take at once waits here, up to the ceiling.
            self.to_child.set_write_buffer_limits(high=TO_CHILD_AT_MOST)
            if self.pending:
                self.to_child.write(bytes(self.pending))
                self.pending = bytearray()
            if not self.child_input.paused:
                self.chan.resume_reading()
            self.process = await self.table.start_player(
                child_command(self.table.db, self.player, spectator=True) if self.spectator
                else child_command(self.table.db, self.player), slave,
                child_env(self.chan, self.language))
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
        self.table.stand(self)
        if self.task is None:
            return  # never seated
        await self.spawned.wait()  # never leave a child starting behind
        if self.process is not None:
            await end_process(self.process, STOP_GRACE)
        await asyncio.wait({self.task}, timeout=STOP_GRACE)  # run() says goodbye
        self.close_pipes()

    def close_pipes(self) -> None:
        for transport in (self.to_child, self.from_child):
            if transport is not None:
                transport.close()


class ChildInput(asyncio.Protocol):
    """The player's keys on their way into the child's pty. When the pty is full and
    TO_CHILD_AT_MOST waits in the transport, the channel is no longer read, so asyncssh
    reopens no window and the client has to wait; reading resumes once the child has
    taken most of it."""

    def __init__(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan
        self.paused = False

    def pause_writing(self) -> None:
        self.paused = True
        self.chan.pause_reading()

    def resume_writing(self) -> None:
        self.paused = False
        self.chan.resume_reading()


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


def child_command(db: str | None, player: str, *, spectator: bool = False) -> list[str]:
    """The TUI one player runs, as a command line; `player` is the name the keys file gave,
    already checked like any name typed (tui.hosting.keys). A `spectator` runs the
    scoreboard's app, which can only read."""
    return [sys.executable, "-m", "tui.hosting.child", f"--player={player}",
            *(["--spectator"] if spectator else []), *(["--db", db] if db else [])]


def shared_env() -> dict[str, str]:
    """What every child gets: what it needs of the host's environment
    (tui.hosting.child.hosted_environment), the escape delay for a network, and the host's
    language (a player's own replaces it: child_env)."""
    env = hosted_environment()
    env["ESCDELAY"] = str(ESCAPE_DELAY_MS)
    env["WARLEDGER_LANG"] = language()
    return env


def shared_part(env: dict[str, str]) -> dict[str, str]:
    """A player's `env` as their warm parent is started with: what differs between players
    (PER_PLAYER) as `shared_env` has it, so every player of one environment shares one
    parent whatever their terminal and language."""
    shared = shared_env()
    return ({name: value for name, value in env.items() if name not in PER_PLAYER}
            | {name: shared[name] for name in PER_PLAYER if name in shared})


def child_env(chan: asyncssh.SSHServerChannel, language: str) -> dict[str, str]:
    """`shared_env` with the client's terminal: its TERM and COLORTERM when they are plain
    names, and the player's `language` (player_language) as WARLEDGER_LANG. Nothing else the
    client sends gets in; the pty, not COLUMNS or LINES, says the window's size."""
    env = shared_env()
    env["TERM"] = terminal_name(chan.get_terminal_type(), DEFAULT_TERM)
    colorterm = chan.get_environment().get("COLORTERM")
    if isinstance(colorterm, str) and terminal_name(colorterm, ""):
        env["COLORTERM"] = colorterm
    env["WARLEDGER_LANG"] = language
    return env



def player_language(chosen: str | None, sent: Mapping[str, str]) -> str:
    """The language a player reads: `chosen` (their key line's lang=), else the one their
    client's locale asks for (LC_ALL, LC_MESSAGES, LANG as `ssh` sends them, the first set
    deciding), when it is a plain locale name with a catalog here, else the host's."""
    if chosen:
        return chosen
    for variable in LOCALE_VARIABLES:
        value = sent.get(variable)
        if isinstance(value, str) and value:
            return language_of_locale(value) or language()
    return language()


def turned_away(player: str | None) -> str:
    """What the host's console says of a player turned away from a full table."""
    if player is None:
        return _("a newcomer turned away: the table is full")
    return _("{player} turned away: the table is full").format(player=player)
