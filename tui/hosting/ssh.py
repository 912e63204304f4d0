"""`warledger serve ssh`: an asyncssh server that seats each connection at its own TUI.

Textual's driver owns its process, so apps are not shared in one process: every session
gets a child process (tui.hosting.child) in a pseudo-terminal of its own
(tui.hosting.ssh_terminal), and the children meet in the database, where the game screens'
live refresh shows each step to everyone. On Linux each child is forked from a warm parent
that has already imported the TUI and the database libraries (tui.hosting.zygote): it
starts at once and shares their memory.

Each player reads their own language (tui.hosting.ssh_terminal.player_language), and what
the server itself tells them (a full table, a refused command) is in it too; the host's
console speaks the host's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import re
import socket
import struct
import sys
import termios
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import asyncssh

from i18n import N_, _, language, translation_of
from tui.compat.asyncssh import (
    ServerConnection,
    is_login_timeout,
    judge_kex_guesses,
    read_environment_requests,
)
from tui.hosting import listen
from tui.hosting.door import Admission, Policy, Ticket, Verdict, within_open_files
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
from tui.hosting.processes import until_stopped
from tui.hosting.ssh_terminal import (
    CHANNEL_WINDOW,
    NEEDS_A_TERMINAL,
    TABLE_CLOSED,
    TABLE_FULL,
    TerminalSession,
    shared_env,
    shared_part,
    turned_away,
)
from tui.hosting.tally import TOLD_EVERY, Tally
from tui.hosting.zygote import PER_PLAYER, Player, WarmParent
from tui.text.literal import visible

if TYPE_CHECKING:
    from asyncssh.connection import SSHConnection

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
LISTEN_BACKLOG = 256
# Before login: told in the host's language.
LOGGING_IN_BUSY = N_("warledger: too many connections are logging in; try again in a few "
                     "seconds")
TOO_MANY_TRIES = N_("warledger: too many keys tried; offer the key the host has (ssh -i KEY -o "
                    "IdentitiesOnly=yes)")
# Players forked from a warm parent (tui.hosting.zygote) where it runs: Linux. Elsewhere
# each player's process is started from scratch, importing everything.
FORK_PLAYERS = sys.platform == "linux"


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
    tally: Tally = field(init=False)  # refusals told on the console, a line per kind and interval
    keyed: list[KeyLine] = field(default_factory=list)  # the keys file's lines, last read
    warned: set[str] = field(default_factory=set)  # warnings about the keys, said once each
    # The warm parents players are forked from, by the environment they give (one, unless
    # the host's environment changed since the table opened).
    parents: dict[tuple, WarmParent] = field(default_factory=dict)
    starting: asyncio.Lock = field(default_factory=asyncio.Lock)  # one parent started at once
    closed: bool = False

    def __post_init__(self) -> None:
        self.tally = Tally(self.tell, summed_up, TOLD_EVERY)

    def names(self, host: str) -> bool:
        """Whether a key's `from=` names the address `host` (as the keys file was last
        read): the door keeps it a place."""
        return names_address(self.keyed, host)

    def tell(self, line: str) -> None:
        """One line on the host's console. Lines carry player names and key comments:
        every control or text-direction character is shown as its escape, never obeyed."""
        self.say(visible(line))

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
        self.tally.close()
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

def summed_up(kind: str, last: str, count: int, seconds: float) -> str:
    """The console's line for `count` refusals of a kind counted in `seconds`: the last
    one, and how many more like it came (tui.hosting.tally)."""
    if count == 1:
        return last
    # TRANSLATORS: {line} is a refusal told before; {count} how many more came.
    return _("{line} (and {count} more like it in {seconds} s)").format(
        line=last, count=f"{count - 1:,}", seconds=f"{seconds:g}")



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
        assert self.conn is not None  # asyncssh calls connection_made first
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
        assert self.conn is not None  # asyncssh calls connection_made first
        self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, self.words(NEEDS_A_TERMINAL))

    def begin_auth(self, username: str) -> bool:
        self.table_full()  # said before a key is even asked for
        return True  # everyone authenticates; the user name itself means nothing here

    def table_full(self) -> bool:
        """Every place is held (Table.places_taken): turn this one away."""
        table = self.table
        if table.places_taken() < table.max_sessions:
            return False
        table.tally("full", turned_away(self.player))
        assert self.conn is not None  # asyncssh calls connection_made first
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




def kept_variable(name: bytes, value: bytes, before: int) -> bool:
    """Whether an environment request is kept: one of KEPT_VARIABLES, VARIABLE_LIMIT bytes
    at most, among the session's first VARIABLE_REQUESTS requests."""
    return (before < VARIABLE_REQUESTS and len(value) <= VARIABLE_LIMIT
            and KEPT_VARIABLES.fullmatch(name) is not None)




@judge_kex_guesses
class Door(ServerConnection):
    """A connection as asyncssh runs it, counted by the Entrance until it logs in (or
    goes), closed when its key exchange is not done within KEX_DEADLINE, and closed after
    LOGIN_TRIES_AT_MOST refused keys: asyncssh has no such limit. A client's guessed key
    exchange packet is skipped when RFC 4253 says the guess was wrong
    (tui.compat.asyncssh.judge_kex_guesses): Dropbear's client needs it."""

    def __init__(self, entrance: Entrance, options: asyncssh.SSHServerConnectionOptions,
                 host: str, ticket: Ticket) -> None:
        # asyncssh calls them with this connection, a Door: by construction
        super().__init__(entrance.loop, options,
                         acceptor=cast("Callable[[SSHConnection], None]",
                                       entrance.logged_in),
                         error_handler=cast(
                             "Callable[[SSHConnection, Exception | None], None]",
                             entrance.went))
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
            self.entrance.table.tally(
                "tries", _("closed a connection from {host}: more than {n} keys refused")
                .format(host=self.host, n=LOGIN_TRIES_AT_MOST))
            self.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, _(TOO_MANY_TRIES))
            return False
        return True


def waiting_bytes(sock: Any) -> int:
    """How many bytes the kernel holds for `sock` that nobody has read yet (0 when it
    cannot say)."""
    try:
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0" * 4))[0]
    except (AttributeError, OSError, ValueError):
        return 0


class Entrance(listen.Entrance):
    """The SSH host's door (tui.hosting.listen.Entrance, the door's policy in
    tui.hosting.door): budgets of LOGGING_IN_AT_MOST in all (fewer with few open files) and
    LOGGING_IN_PER_ADDRESS from one address, a reserved share for known addresses, random
    early drop of strangers, penalties. An admitted connection is a Door, asyncssh's,
    counted until it logs in, within two deadlines (KEX_DEADLINE, then LOGIN_DEADLINE,
    asyncssh's login_timeout), each missed one adding LATE_PENALTY to its address. At a
    budget the oldest that has not sent a byte goes for the newcomer; a connection turned
    away gets one line before any SSH."""

    def __init__(self, table: Table, options: asyncssh.SSHServerConnectionOptions,
                 listeners: list[socket.socket]) -> None:
        # Each takes an open file: at most a quarter of them, the rest for the players.
        self.at_most = within_open_files(LOGGING_IN_AT_MOST, share=4, least=16)
        super().__init__(listeners, Admission(Policy.sized(
            self.at_most, per_address=LOGGING_IN_PER_ADDRESS, penalty_from=PENALTY_FROM,
            penalty_at_most=PENALTY_AT_MOST), clock=asyncio.get_running_loop().time),
            table.tally)
        self.table = table
        self.options = options

    def known(self, host: str, address: str) -> bool:
        return self.admission.is_known(address) or self.table.names(host)

    def let_in(self, transport: asyncio.Transport, host: str, ticket: Ticket) -> Door:
        return Door(self, self.options, host, ticket)

    def turn_away(self, transport: asyncio.Transport, verdict: Verdict, host: str,
                  address: str) -> None:
        """One line to the client, before any SSH, and the connection is closed."""
        transport.write(f"{_(LOGGING_IN_BUSY)}\r\n".encode())
        transport.close()
        n = self.admission.logging_in
        if verdict is Verdict.PENALISED:
            self.tally("penalised", _(
                "refused a connection from {host} at once: {address} is penalised for "
                "{seconds} s more (its connections did not log in in time)").format(
                host=host, address=address,
                seconds=f"{self.admission.penalised(address):.0f}"))
        elif verdict is Verdict.ADDRESS:
            self.tally("address", _("turned away a connection from {host}: {n} from "
                                    "{address} are logging in already").format(
                host=host, n=LOGGING_IN_PER_ADDRESS, address=address))
        elif verdict is Verdict.DROPPED:
            self.tally("dropped", _("turned away a connection from {host} at random: {n} "
                                    "connections are logging in").format(host=host, n=n))
        else:
            self.tally("busy", _("turned away a connection from {host}: {n} connections "
                                 "are logging in already").format(host=host, n=n))

    def idleness(self, conn: Door) -> int | None:
        return 0 if conn.silent else None  # one that has said a word is never shed

    def drop(self, conn: Door, ticket: Ticket, verdict: Verdict | None) -> None:
        if verdict is not None:  # else the door's line says it was out of open files
            self.tally("shed", _("closed an idle connection from {host} that had sent "
                                 "nothing, for a newer one").format(host=conn.host))
        conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, _(LOGGING_IN_BUSY))

    def forget(self, conn: Door, logged_in: bool = False) -> Ticket | None:
        if conn.kex_timer is not None:
            conn.kex_timer.cancel()
            conn.kex_timer = None
        return super().forget(conn, logged_in)

    def logged_in(self, conn: Door) -> None:
        self.forget(conn, logged_in=True)

    def kex_late(self, conn: Door) -> None:
        """KEX_DEADLINE after `conn` came: closed, and its address penalised, unless its
        key exchange is done."""
        conn.kex_timer = None
        if conn.keys_exchanged or conn not in self.waiting:
            return
        self.forget(conn)
        if not conn.silent:  # an idle socket gives its place to any newcomer: no penalty
            self.admission.punish(conn.address, LATE_PENALTY)
        self.tally("kex", _("closed a connection from {host}: no key exchange within "
                            "{seconds} s").format(host=conn.host, seconds=f"{KEX_DEADLINE:g}"))
        conn.abort()

    def went(self, conn: Door, exc: Exception | None) -> None:
        """`conn` closed before logging in."""
        if conn in self.waiting and is_login_timeout(exc):
            self.admission.punish(conn.address, LATE_PENALTY)
            self.tally("late", _("closed a connection from {host}: not logged in within "
                                 "{seconds} s").format(
                host=conn.host, seconds=f"{LOGIN_DEADLINE:g}"))
        self.forget(conn)



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
    acceptor = Entrance(table, options,
                        await listen.listening_sockets(host, table.port, LISTEN_BACKLOG))
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
