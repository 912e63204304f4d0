"""`warledger serve ssh`: an asyncssh server that seats each connection at its own TUI.

Textual's driver owns its process, so apps are not shared in one process: every session
gets a child process (tui.hosting.child) in a pseudo-terminal of its own, and the children
meet in the database, where the game screens' live refresh shows each step to everyone.
On Linux each child is forked from a warm parent that has already imported the TUI and the
database libraries (tui.hosting.zygote): it starts at once and shares their memory.

Each player reads their own language (`player_language`): their key line's lang=, else the
locale their client sends, else the host's. Their child gets it as WARLEDGER_LANG, and what
the server itself tells them (a full table, a refused command) is in it too; the host's
console speaks the host's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import ipaddress
import os
import pty
import re
import resource
import signal
import socket
import struct
import sys
import termios
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from i18n import N_, _, language, language_of_locale, translation_of
from tui.compat.asyncssh import (
    ServerConnection,
    hand_over,
    is_login_timeout,
    judge_kex_guesses,
    read_environment_requests,
)
from tui.hosting.child import DEFAULT_TERM, hosted_environment, terminal_name
from tui.hosting.door import Admission, Policy, Ticket, Verdict
from tui.hosting.keys import (
    NO_SEAT,
    HostingError,
    KeyLine,
    Players,
    fingerprint,
    line_for,
    load_host_key,
    names_address,
    read_players,
)
from tui.hosting.zygote import PER_PLAYER, Player, WarmParent
from tui.literal import visible

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
# The environment requests read, not stored: only the names a terminal and a locale need,
# small and few. The rest are refused as they arrive (issue 46: 8,000 requests of 30 KB
# grew the host by 450 MB).
KEPT_VARIABLES = re.compile(rb"LANG|LC_[A-Z]{1,16}|TERM|COLORTERM")
VARIABLE_LIMIT = 256  # bytes of a kept value ("ro_RO.UTF-8", "xterm-256color")
VARIABLE_REQUESTS = 32  # per session: OpenSSH's `SendEnv LANG LC_*` sends 14 at most
# What the server says it is, before anyone authenticates: no library or its version.
SERVER_VERSION = "warledger"
# An authenticated connection that runs no terminal for this long is closed: after it
# logs in it holds a place this long at most, so `ssh -N` cannot hold seats; once its
# terminal ends (ctrl+q, or a command refused) its place is free at once, even if the
# client keeps the connection open (OpenSSH's ControlPersist).
SESSION_GRACE = 10.0
# Before login: connections that have not logged in yet are admitted by the door's policy
# (tui.hosting.door): counted in all and from each address (an IPv6 address by its /64), a
# quarter of the places kept for addresses players logged in from (or a key's from=
# names), strangers dropped at random past an eighth (OpenSSH's MaxStartups), addresses
# whose connections miss their deadlines refused for a while (OpenSSH's PerSourcePenalties).
# At a budget, the oldest that has not even sent its SSH version (an idle socket) is closed
# to let the newcomer in; when none is, the newcomer is turned away with one line. With few
# open files the budget is smaller.
LOGGING_IN_AT_MOST = 256
LOGGING_IN_PER_ADDRESS = 24
KEX_DEADLINE = 5.0  # seconds from connecting to the key exchange done (a client's is ~0.1 s)
LOGIN_DEADLINE = 30.0  # seconds from connecting to logged in (time to type a passphrase)
LATE_PENALTY = 10.0  # seconds of penalty for each connection that misses a deadline
PENALTY_FROM = 15.0  # seconds of penalty accrued before an address is refused
PENALTY_AT_MOST = 600.0  # seconds a penalty can accrue to
LOGIN_TRIES_AT_MOST = 6  # keys refused on one connection (OpenSSH's MaxAuthTries)
OUT_OF_FILES_PAUSE = 0.5  # seconds the door stays shut when the host is out of open files
ACCEPTED_AT_ONCE = 64  # connections accepted in one go before the loop does anything else
LISTEN_BACKLOG = 256
TOLD_EVERY = 10.0  # seconds: each kind of refusal is told at once, then counted this long
# Before login: told in the host's language.
LOGGING_IN_BUSY = N_("warledger: too many connections are logging in; try again in a few "
                     "seconds")
TOO_MANY_TRIES = N_("warledger: too many keys tried; offer the key the host has (ssh -i KEY -o "
                    "IdentitiesOnly=yes)")
# A player's keys go to their process as fast as it takes them, never faster: a client may
# send CHANNEL_WINDOW ahead (asyncssh's default is 2 MiB), and TO_CHILD_AT_MOST waits for the
# player's pty; beyond it the channel is not read, so its window is not reopened and the
# client waits.
CHANNEL_WINDOW = 128 * 1024
TO_CHILD_AT_MOST = 64 * 1024
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
class Told:
    """A kind of refusal told on the host's console: when, and how many since."""

    at: float
    count: int = 0
    last: str = ""
    timer: asyncio.TimerHandle | None = None


@dataclass
class Table:
    """What every connection shares: the settings and who is seated."""

    db: str | None
    keys_path: Path
    port: int = 2222
    max_sessions: int = 16
    say: Callable[[str], None] = print
    seats: set[TerminalSession] = field(default_factory=set)  # each runs a player's TUI
    connections: set[asyncssh.SSHServerConnection] = field(default_factory=set)
    authenticated: set[asyncssh.SSHServerConnection] = field(default_factory=set)
    # Logged in, no terminal yet, within SESSION_GRACE: each holds a place, as a seat does.
    arriving: set[TableServer] = field(default_factory=set)
    told: dict[str, Told] = field(default_factory=dict)  # refusals told, by kind
    keyed: list[KeyLine] = field(default_factory=list)  # the keys file's lines, last read
    warned: set[str] = field(default_factory=set)  # warnings about the keys, said once each
    # The warm parents players are forked from, by the environment they give (one, unless
    # the host's environment changed since the table opened).
    parents: dict[tuple, WarmParent] = field(default_factory=dict)
    starting: asyncio.Lock = field(default_factory=asyncio.Lock)  # one parent started at once
    closed: bool = False

    def names(self, host: str) -> bool:
        """Whether a key's `from=` names the address `host` (as the keys file was last
        read): the door keeps it a place."""
        return names_address(self.keyed, host)

    def tell(self, line: str) -> None:
        """One line on the host's console. Lines carry player names and key comments:
        every control or text-direction character is shown as its escape, never obeyed."""
        self.say(visible(line))

    def refused(self, kind: str, line: str) -> None:
        """Tell `line`, a refusal, unless one of this `kind` was told in the last TOLD_EVERY
        seconds: then it is counted, and the last one is told with the count when that
        interval ends. A flood of connections is a line every TOLD_EVERY seconds."""
        loop = asyncio.get_running_loop()
        told = self.told.get(kind)
        if told is None or (told.timer is None and loop.time() - told.at >= TOLD_EVERY):
            self.told[kind] = Told(loop.time())
            self.tell(line)
            return
        told.count += 1
        told.last = line
        if told.timer is None:
            told.timer = loop.call_at(told.at + TOLD_EVERY, self._tell_count, kind)

    def _tell_count(self, kind: str) -> None:
        told = self.told[kind]
        # TRANSLATORS: {line} is a refusal told before; {count} how many more came.
        self.tell(_("{line} (and {count} more like it in {seconds} s)").format(
            line=told.last, count=f"{told.count - 1:,}", seconds=f"{TOLD_EVERY:g}")
            if told.count > 1 else told.last)
        self.told[kind] = Told(asyncio.get_running_loop().time())  # the next are counted

    def places_taken(self) -> int:
        """Places held: every player's running TUI, and every connection logged in and
        still within its SESSION_GRACE to open a terminal."""
        return len(self.seats) + len(self.arriving)

    def sit(self, seat: TerminalSession) -> bool:
        """Give `seat` a place: the one its connection holds since it logged in, or a free
        one. False when the table is full."""
        if seat.server in self.arriving:
            self.arriving.discard(seat.server)
        elif self.places_taken() >= self.max_sessions:
            return False
        self.seats.add(seat)
        if seat.server is not None:
            seat.server.sat_down()
        return True

    def stand(self, seat: TerminalSession) -> None:
        """`seat`'s TUI has ended (or never started): its place is free at once."""
        if seat in self.seats:
            self.seats.discard(seat)
            if seat.server is not None:
                seat.server.stood_up()

    def players(self) -> Players:
        """The authorized-keys file as it is now; each skipped line is told once."""
        players = read_players(self.keys_path)
        self.keyed = players.lines
        for warning in players.warnings:
            if warning not in self.warned:
                self.warned.add(warning)
                self.tell(_("warning: {warning}").format(warning=warning))
        return players

    async def clear(self) -> None:
        """End every child, tell its player, drop every connection and stop the warm
        parents."""
        self.closed = True
        for told in self.told.values():
            if told.timer is not None:
                told.timer.cancel()
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
                    self.tell(_("the players' warm parent had stopped: starting another"))
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
        parent = await self.warm_parent(shared_part(env))
        return await parent.fork(argv, tty, {name: env[name] for name in PER_PLAYER
                                             if name in env})


class TableServer(asyncssh.SSHServer):
    """One connection: public keys only, and the key says who the player is."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.conn: asyncssh.SSHServerConnection | None = None
        self.player: str | None = None
        self.seat = True  # False: the key's line says no-pty (tui.hosting.keys.KeyLine.seat)
        self.language: str | None = None  # the key line's lang=, if it has one
        self.spectator = False  # the key line says spectator: the scoreboard only
        # This connection's own timer: closes it when it runs no terminal for SESSION_GRACE.
        self.idle: asyncio.TimerHandle | None = None
        self.gone = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.table.connections.add(conn)

    def words(self, message: str) -> str:
        """`message` in this player's language as far as it is known before a terminal is
        asked for: their key's lang=, else the host's."""
        return translation_of(self.language or language()).gettext(message)

    def connection_lost(self, exc: Exception | None) -> None:
        self.gone = True
        self.table.connections.discard(self.conn)
        self.table.authenticated.discard(self.conn)
        self.table.arriving.discard(self)
        if self.idle is not None:
            self.idle.cancel()

    def auth_completed(self) -> None:
        if self.table_full():  # another connection took the last place meanwhile
            return
        self.table.authenticated.add(self.conn)
        self.table.arriving.add(self)  # its place, until its terminal opens or the grace ends
        self.wait_for_terminal()

    def wait_for_terminal(self) -> None:
        """(Re)start this connection's own timer: closed if it runs no terminal in time."""
        if self.idle is not None:
            self.idle.cancel()
        self.idle = asyncio.get_running_loop().call_later(SESSION_GRACE, self.close_idle)

    def sat_down(self) -> None:
        """A terminal of this connection runs the TUI: no timer while it does."""
        if self.idle is not None:
            self.idle.cancel()
            self.idle = None

    def stood_up(self) -> None:
        """A terminal of this connection ended, or was refused: the place it held is free
        now, and the connection is closed unless it runs a terminal within SESSION_GRACE."""
        self.table.arriving.discard(self)
        if self.gone or any(seat.server is self for seat in self.table.seats):
            return
        self.wait_for_terminal()

    def close_idle(self) -> None:
        """No terminal in time (`ssh -N`, a forgotten tunnel, a ControlPersist master after
        its player quit): give the place up and close the connection."""
        self.idle = None
        self.table.arriving.discard(self)
        self.table.tell(_("{player}'s connection ran no terminal for {seconds} s: closed")
                        .format(player=self.player, seconds=f"{SESSION_GRACE:g}"))
        self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, self.words(NEEDS_A_TERMINAL))

    def begin_auth(self, username: str) -> bool:
        self.table_full()  # said before a key is even asked for
        return True  # everyone authenticates; the user name itself means nothing here

    def table_full(self) -> bool:
        """Every place is held (Table.places_taken): turn this one away."""
        table = self.table
        if table.places_taken() < table.max_sessions:
            return False
        table.refused("full", turned_away(self.player))
        self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                             self.words(TABLE_FULL).format(max=table.max_sessions))
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
            self.table.tell(_("refused a key: {reason}").format(reason=e))
            return False
        addr = self._peer_addr()
        line = line_for(players.lines, key, addr, addr)
        self.player, self.seat, self.language, self.spectator = (
            (line.player, line.seat, line.language, line.spectator) if line
            else (None, True, None, False))
        return self.player is not None

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel, TerminalSession]:
        assert self.player is not None  # sessions open only after authentication
        if not self.seat:
            self.table.tell(_("{player} refused: no-pty in the keys file gives no seat")
                            .format(player=self.player))
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            self.words(NO_SEAT))
        assert self.conn is not None
        chan = self.conn.create_server_channel()
        read_environment_requests(chan, kept_variable)
        return chan, TerminalSession(self.table, self.player, self._peer_addr(), self)

    def _peer_addr(self) -> str:
        peer = self.conn.get_extra_info("peername") if self.conn else None
        return str(peer[0]) if peer else ""


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
        self.language = player_language(self.server.language if self.server else None,
                                        chan.get_environment())
        if chan.get_terminal_type() is None or self.command is not None:
            self.refuse(self.words(NO_TERMINAL).format(port=self.table.port))
        elif not self.table.sit(self):
            self.refuse(self.words(TABLE_FULL).format(max=self.table.max_sessions))
            self.table.refused("full", turned_away(self.player))
        else:
            self.task = asyncio.ensure_future(self.run())

    def words(self, message: str) -> str:
        """`message` in the player's language."""
        return translation_of(self.language).gettext(message)

    def refuse(self, message: str) -> None:
        """One line to the player, and the session ends; the place its connection held is
        free (Table.stand)."""
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
                lambda: ChildOutput(self.chan, drained), reader)
            self.drained = drained
            self.master = master
            writer = os.fdopen(os.dup(master), "wb", buffering=0)
            try:
                self.to_child, self.child_input = await loop.connect_write_pipe(
                    lambda: ChildInput(self.chan), writer)
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
            await end_process(self.process)
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


def kept_variable(name: bytes, value: bytes, before: int) -> bool:
    """Whether an environment request is kept: one of KEPT_VARIABLES, VARIABLE_LIMIT bytes
    at most, among the session's first VARIABLE_REQUESTS requests."""
    return (before < VARIABLE_REQUESTS and len(value) <= VARIABLE_LIMIT
            and KEPT_VARIABLES.fullmatch(name) is not None)


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


# ---------------------------------------------------------------- at the door

class Gate(asyncio.Protocol):
    """A connection just accepted: the Entrance lets it in (the transport is handed to a
    Door, asyncssh's) or turns it away, before a byte of SSH."""

    def __init__(self, entrance: Entrance) -> None:
        self.entrance = entrance

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        door = self.entrance.enter(transport)
        if door is not None:
            hand_over(transport, door)


@judge_kex_guesses
class Door(ServerConnection):
    """A connection as asyncssh runs it, counted by the Entrance until it logs in (or
    goes), closed when its key exchange is not done within KEX_DEADLINE, and closed after
    LOGIN_TRIES_AT_MOST refused keys: asyncssh has no such limit. A client's guessed key
    exchange packet is skipped when RFC 4253 says the guess was wrong
    (tui.compat.asyncssh.judge_kex_guesses): Dropbear's client needs it."""

    def __init__(self, entrance: Entrance, options: asyncssh.SSHServerConnectionOptions,
                 host: str, ticket: Ticket) -> None:
        super().__init__(entrance.loop, options, acceptor=entrance.logged_in,
                         error_handler=entrance.went)
        self.entrance = entrance
        self.host = host  # where it comes from
        self.ticket = ticket  # its place at the door (its address's: an IPv4 address, or
        self.address = ticket.address  # an IPv6 /64), and whether that address is known
        self.refusals = 0
        self.kex_timer: asyncio.TimerHandle | None = entrance.loop.call_later(
            KEX_DEADLINE, entrance.kex_late, self)

    @property
    def silent(self) -> bool:
        """Nothing heard yet, not even an SSH version, and nothing waiting to be read (a
        busy host may not have read a client's version yet): an idle socket, first to go."""
        return (self.get_extra_info("client_version") is None
                and not waiting_bytes(self.get_extra_info("socket")))

    @property
    def keys_exchanged(self) -> bool:
        """Its first key exchange is done (asyncssh sets the ciphers as it ends)."""
        return self.get_extra_info("recv_cipher") is not None

    def login_refused(self) -> bool:
        self.refusals += 1
        # A client first asks with no key at all ("none"): that one is not counted.
        if self.refusals > LOGIN_TRIES_AT_MOST + 1:
            self.entrance.table.refused(
                "tries", _("closed a connection from {host}: more than {n} keys refused")
                .format(host=self.host, n=LOGIN_TRIES_AT_MOST))
            self.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, _(TOO_MANY_TRIES))
            return False
        return True


def waiting_bytes(sock: object) -> int:
    """How many bytes the kernel holds for `sock` that nobody has read yet (0 when it
    cannot say)."""
    try:
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0" * 4))[0]
    except (AttributeError, OSError, ValueError):
        return 0


def budget_address(host: str) -> str:
    """Whose budget a connection counts against: its IPv4 address, or its IPv6 /64 (one
    machine's network may hand it a whole /64)."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def open_files_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """Non-blocking sockets listening on every address `host` names (port 0: one free
    port, the same for all)."""
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
    listeners: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(infos):
            listener = socket.socket(family, kind, proto)
            listeners.append(listener)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if port == 0 and len(listeners) > 1:
                address = (address[0], listeners[0].getsockname()[1], *address[2:])
            listener.bind(address)
            listener.listen(LISTEN_BACKLOG)
            listener.setblocking(False)
    except BaseException:
        for listener in listeners:
            listener.close()
        raise
    return listeners


class Entrance:
    """The listening sockets and their accept loop. Each connection is admitted by the
    door's policy (tui.hosting.door.Admission: budgets of LOGGING_IN_AT_MOST in all and
    LOGGING_IN_PER_ADDRESS from one address, a reserved share for known addresses, random
    early drop of strangers, penalties) and counted until it logs in, within two deadlines
    (KEX_DEADLINE, then LOGIN_DEADLINE, asyncssh's login_timeout), each missed one adding
    LATE_PENALTY to its address; out of open files, the door waits OUT_OF_FILES_PAUSE and
    goes on. Every refusal is one line to the client and one line on the host's console
    per TOLD_EVERY (Table.refused)."""

    def __init__(self, table: Table, options: asyncssh.SSHServerConnectionOptions,
                 listeners: list[socket.socket]) -> None:
        self.table = table
        self.options = options
        self.listeners = listeners
        self.loop = asyncio.get_running_loop()
        self.logging_in: dict[Door, None] = {}  # oldest first
        # Each takes an open file: at most a quarter of them, the rest for the players.
        self.at_most = min(LOGGING_IN_AT_MOST, max(16, open_files_limit() // 4))
        self.admission = Admission(Policy.sized(
            self.at_most, per_address=LOGGING_IN_PER_ADDRESS, penalty_from=PENALTY_FROM,
            penalty_at_most=PENALTY_AT_MOST), clock=self.loop.time)
        self.closed = False
        for listener in listeners:
            self.loop.add_reader(listener.fileno(), self._accept, listener)

    def get_port(self) -> int:
        return self.listeners[0].getsockname()[1]

    def close(self) -> None:
        """Stop accepting; the connections already in stay (Table.clear closes those)."""
        if self.closed:
            return
        self.closed = True
        for listener in self.listeners:
            with contextlib.suppress(ValueError, OSError):
                self.loop.remove_reader(listener.fileno())
            listener.close()

    async def wait_closed(self) -> None:
        return

    def _accept(self, listener: socket.socket) -> None:
        for _turn in range(ACCEPTED_AT_ONCE):
            try:
                sock, _address = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as e:
                if e.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    said = {"error": e.strerror, "n": open_files_limit(),
                            "seconds": f"{OUT_OF_FILES_PAUSE:g}"}
                    # TRANSLATORS: {error} is the system's words, {n} a number of files.
                    self.table.refused("files", (
                        _("out of open files ({error}; this process may open {n} files): "
                          "new connections wait {seconds} s")
                        if e.errno in (errno.EMFILE, errno.ENFILE) else
                        _("out of memory for sockets ({error}; this process may open {n} "
                          "files): new connections wait {seconds} s")).format(**said))
                    self._shed(None)  # an idle socket gives its file to the next
                else:
                    self.table.refused("accept", _("could not accept a connection: {error}")
                                       .format(error=e))
                self._pause(listener)
                return
            self._admit(sock)

    def _pause(self, listener: socket.socket) -> None:
        with contextlib.suppress(ValueError, OSError):
            self.loop.remove_reader(listener.fileno())
        self.loop.call_later(OUT_OF_FILES_PAUSE, self._resume, listener)

    def _resume(self, listener: socket.socket) -> None:
        if not self.closed:
            self.loop.add_reader(listener.fileno(), self._accept, listener)

    def _admit(self, sock: socket.socket) -> None:
        """The accepted `sock` gets a transport, and its Gate decides (in the order they
        came) whether it goes in."""
        try:
            sock.setblocking(False)
        except OSError:
            sock.close()
            return

        def made(task: asyncio.Task) -> None:
            if task.cancelled() or task.exception() is not None:
                sock.close()

        self.loop.create_task(self.loop.connect_accepted_socket(
            lambda: Gate(self), sock)).add_done_callback(made)

    def enter(self, transport: asyncio.Transport) -> Door | None:
        """A connection at the door, as the admission policy says (tui.hosting.door): a
        Door, asyncssh's, when admitted (an idle one shed to make room at a budget); else
        it is turned away with one line."""
        host = str((transport.get_extra_info("peername") or ("?",))[0])
        address = budget_address(host)
        admission = self.admission
        known = admission.is_known(address) or self.table.names(host)
        verdict, ticket = admission.admit(
            address, known, lambda which: self._shed(lambda d: which(d.ticket)))
        if verdict is Verdict.PENALISED:
            return self._turn_away(transport, "penalised", _(
                "refused a connection from {host} at once: {address} is penalised for "
                "{seconds} s more (its connections did not log in in time)").format(
                host=host, address=address, seconds=f"{admission.penalised(address):.0f}"))
        if verdict is Verdict.ADDRESS:
            return self._turn_away(
                transport, "address", _("turned away a connection from {host}: {n} from "
                                        "{address} are logging in already").format(
                    host=host, n=LOGGING_IN_PER_ADDRESS, address=address))
        if verdict is Verdict.FULL:
            return self._turn_away(
                transport, "busy", _("turned away a connection from {host}: {n} connections "
                                     "are logging in already").format(
                    host=host, n=admission.logging_in))
        if verdict is Verdict.DROPPED:
            return self._turn_away(
                transport, "dropped", _("turned away a connection from {host} at random: "
                                        "{n} connections are logging in").format(
                    host=host, n=admission.logging_in))
        assert ticket is not None
        conn = Door(self, self.options, host, ticket)
        self.logging_in[conn] = None
        return conn

    def _turn_away(self, transport: asyncio.Transport, kind: str, line: str) -> None:
        """One line to the client, before any SSH, and the connection is closed."""
        transport.write(f"{_(LOGGING_IN_BUSY)}\r\n".encode())
        transport.close()
        self.table.refused(kind, line)

    def _shed(self, which: Callable[[Door], bool] | None) -> bool:
        """Close the oldest connection logging in (one of `which`, if given) that has not
        sent a byte, to make room. False when every one has."""
        for conn in self.logging_in:
            if (which is None or which(conn)) and conn.silent:
                self._forget(conn)
                self.table.refused(
                    "shed", _("closed an idle connection from {host} that had sent nothing, "
                              "for a newer one").format(host=conn.host))
                conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, _(LOGGING_IN_BUSY))
                return True
        return False

    def _forget(self, conn: Door, logged_in: bool = False) -> None:
        """`conn` no longer logs in: its place is free; `logged_in` with a player's key,
        its address is known from now on (Admission.logged_in)."""
        if conn.kex_timer is not None:
            conn.kex_timer.cancel()
            conn.kex_timer = None
        if conn in self.logging_in:
            del self.logging_in[conn]
            (self.admission.logged_in if logged_in else self.admission.leave)(conn.ticket)

    def logged_in(self, conn: Door) -> None:
        self._forget(conn, logged_in=True)

    def kex_late(self, conn: Door) -> None:
        """KEX_DEADLINE after `conn` came: closed, and its address penalised, unless its
        key exchange is done."""
        conn.kex_timer = None
        if conn.keys_exchanged or conn not in self.logging_in:
            return
        self._forget(conn)
        if not conn.silent:  # an idle socket gives its place to any newcomer: no penalty
            self.admission.punish(conn.address, LATE_PENALTY)
        self.table.refused("kex", _("closed a connection from {host}: no key exchange "
                                    "within {seconds} s").format(
            host=conn.host, seconds=f"{KEX_DEADLINE:g}"))
        conn.abort()

    def went(self, conn: Door, exc: Exception | None) -> None:
        """`conn` closed before logging in."""
        if conn in self.logging_in and is_login_timeout(exc):
            self.admission.punish(conn.address, LATE_PENALTY)
            self.table.refused("late", _("closed a connection from {host}: not logged in "
                                         "within {seconds} s").format(
                host=conn.host, seconds=f"{LOGIN_DEADLINE:g}"))
        self._forget(conn)


async def open_table(table: Table, host: str, data_dir: Path) -> tuple[Entrance, str]:
    """Start listening; returns the entrance (its listener: get_port, close) and the host
    key's fingerprint. Refuses to start (HostingError) without a readable authorized-keys
    file."""
    table.players()  # no usable key: the host is told now, not at each connection
    host_key = load_host_key(data_dir, table.tell)
    options = await asyncssh.SSHServerConnectionOptions.construct(
        config=(), server_factory=lambda: TableServer(table),
        server_host_keys=[host_key], server_version=SERVER_VERSION,
        encoding=None, line_editor=False, agent_forwarding=False, x11_forwarding=False,
        allow_scp=False, keepalive_interval=30, keepalive_count_max=4,
        login_timeout=LOGIN_DEADLINE, window=CHANNEL_WINDOW)
    acceptor = Entrance(table, options, listening_sockets(host, table.port))
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
    # TRANSLATORS: {address} is host:port, {keys} the players' keys file.
    table.tell(_("warledger table open on {address} (players: {keys})").format(
        address=f"{host}:{table.port}", keys=table.keys_path))
    table.tell(_("host key fingerprint: {fingerprint}").format(fingerprint=host_print))
    table.tell(_("players connect with: {command}").format(
        command=f"ssh -p {table.port} {host}"))
    await until_stopped()
    table.tell(_("closing the table"))
    acceptor.close()
    await table.clear()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(acceptor.wait_closed(), 2.0)
