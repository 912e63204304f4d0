"""`warledger serve web`: the same TUI in a browser, through textual-serve (one app process
per browser tab). Each player has a secret link of their own (tui/hosting/web_links.py): their
tab runs the TUI as that player, named in the header and in the history as over SSH, and the
spectators' link runs the scoreboard. A tab without a valid link gets a page saying to ask
the host for one, and no process. `--open` keeps the open table: anyone who reaches the
address plays, and the steps they record carry no author.

textual-serve's Server is kept, with what a table needs around it (WebTable): the page and
its websocket only under the addresses served (a page elsewhere cannot drive the table), a
cap on players, every player's process ended as soon as its socket closes, and a child that
sees only what it needs of the host's environment (WebSeat).

Under abuse (budgets at the door): the table's own accept loop (Door) survives running out
of file descriptors, and connections that have not sat down are budgeted, in total and per
address, each with a short deadline. A tab's input is read with backpressure under a fixed
ceiling: a message is at most MESSAGE_AT_MOST, the socket is not read while the app's pipe
is full (aiohttp queues 512 KiB first), and the app reads its pipe only as fast as it takes
the events (web_driver); a message that waits STALL_AT_MOST is a flood, and closes the tab.
Its process ends within END_WITHIN seconds of its socket closing, whatever it is doing, and
with the server, however the server ends. Refusals are told once per TOLD_EVERY of a kind.

Each tab reads its own language (`tab_language`): `?lang=ro` on the page's address (its
websocket then carries it in its path: /ws/ro), else the browser's Accept-Language (which it
sends with the websocket too), else the host's. The tab's process gets it as WARLEDGER_LANG;
the host's console speaks the host's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ctypes
import errno
import fcntl
import ipaddress
import json
import logging
import os
import resource
import select
import shlex
import signal
import socket
import struct
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int
from yarl import URL

from i18n import N_, _, accept_language, language_of_locale, translation_of
from i18n import language as host_language
from tui.compat.aiohttp import name_the_server, site_listens_on
from tui.compat.asyncio import close_pipes
from tui.hosting.child import kept
from tui.hosting.ssh import MAX_CELLS, TABLE_CLOSED, TABLE_FULL, until_stopped
from tui.hosting.web_links import (
    NO_LINK,
    TOKEN_PARAM,
    Link,
    WrongTokens,
    cookie_holder,
    cookie_name,
    cookie_value,
    holder,
    qr_lines,
    redacted,
    table_links,
    welcome_page,
)
from tui.literal import visible

WILDCARDS = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
# What textual-serve sets for its children (the rest of the host's environment is filtered).
SERVE_VARS = frozenset({"TEXTUAL_DRIVER", "TEXTUAL_FPS", "TEXTUAL_COLOR_SYSTEM", "TERM_PROGRAM",
                        "TERM_PROGRAM_VERSION", "COLUMNS", "ROWS"})
# Textual's WebDriver, taking input at the app's pace (see tui/hosting/web_driver.py).
DRIVER = "tui.hosting.web_driver:TableWebDriver"
NO_LOGIN = N_("warning: the web has no login: anyone on these networks who opens the address "
               "can play; for named players with keys use `warledger serve ssh`")
FORBIDDEN = N_("This warledger table is served at {url}; open that address. (A page from "
               "another address may not drive the table.)")
SOCKET_PATH = "/ws"  # a tab's websocket: /ws/LANG from the table's page, /ws from older ones
STATIC_PATH = "/static/"  # the page's scripts and styles: no secret, served to anyone
LINK_KEY = web.RequestKey("link", Link)  # what a request let in by its link keeps
SIOCGIFADDR = {"linux": 0x8915, "darwin": 0xC0206921}.get(sys.platform)

# ---- a tab's input: the ceiling
MESSAGE_AT_MOST = 64 * 1024  # bytes of one websocket message; a longer one closes the tab
PIPE_AHEAD_AT_MOST = 16 * 1024  # bytes written to the app's pipe and not yet in it
PASTE_AT_MOST = 64 * 1024  # characters of one bracketed paste; past them it is ended
PING_AT_MOST = 64  # characters of a ping's token (the page sends a timestamp)
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
# A message waiting this long for the app to take it is a flood: the app takes at once what
# a table types, and a message waits only once 64 events and 80 KiB more are waiting for the
# app. The tab is closed (its app ended without waiting for it to quit). While its input is
# not read, a browser's close waits in its own machine behind what it sent, unseen: this
# bounds how long such a tab holds its seat.
STALL_AT_MOST = 1.0
# ---- a tab's end
QUIT_GRACE = 0.5  # seconds a tab's app gets to quit by itself once its socket closed
TERM_GRACE = 1.0  # then seconds it gets to end on SIGTERM before SIGKILL
HANGUP_LOOK = 0.2  # seconds between looks at a socket that is not being read
END_WITHIN = 2.0  # so a tab's process is gone this long after its socket closed
EXIT_LOOK = 0.02  # seconds between looks at whether a process has exited
KILL_WAIT = 5.0  # seconds for SIGKILL to be seen (at once, unless the host is swamped)
LAST_OUTPUT = 0.5  # seconds an ended app's last output gets to reach its tab
CLOSE_TIMEOUT = 2.0  # seconds a closing websocket waits for the browser's reply
# Seconds between pings to a quiet tab; a tab that answers none within half of it is closed
# (one that reads nothing, its app blocked on drawing for it, included).
HEARTBEAT = 15.0
ERRORS_KEPT = 16 * 1024  # bytes of a tab's app's error output kept, to tell its last line
# ---- the door: connections that have not sat down
WAITING_AT_MOST = 256  # at once, from everywhere
WAITING_PER_ADDRESS = 32  # at once, from one address or IPv6 /64 (a browser opens about
# six at once: a few players behind one router load their pages together)
WAITING_DEADLINE = 10.0  # seconds from accepting, or from its last request, to sit down
ACCEPT_PAUSE = 0.5  # seconds the door waits when the process is out of file descriptors
BACKLOG = 511
FILES_KEPT = 64  # file descriptors kept for the rest (the database, logs, the loop's own)
FILES_PER_SEAT = 4  # a seated tab: its socket and its app's three pipes
TOLD_EVERY = 10.0  # seconds: each kind of refusal is told at most once in this long (as SSH)
SHUTDOWN_TIMEOUT = 5.0  # seconds aiohttp waits for requests in flight as the table closes
OUT_OF_FILES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
PR_SET_PDEATHSIG = 1  # Linux prctl: a signal the process gets when its parent dies

# The address a page was asked for, while it is rendered (see WebTable.public_url).
_page_url: contextvars.ContextVar[str | None] = contextvars.ContextVar("page_url", default=None)


def web_command(db: str | None) -> list[str]:
    """What textual-serve starts for each browser tab."""
    return [sys.executable, "-m", "tui", *(["--db", db] if db else [])]


def tab_language(asked: str | None, accepted: str | None) -> str:
    """The language a browser tab reads: `asked` (the page's ?lang=, a language with a
    catalog), else the one the browser's Accept-Language prefers, else the host's."""
    return ((language_of_locale(asked) if asked else None) or accept_language(accepted)
            or host_language())


def is_socket_path(path: str) -> bool:
    """Whether `path` is a tab's websocket: /ws, or /ws/LANG."""
    return path == SOCKET_PATH or path.startswith(SOCKET_PATH + "/")


def with_socket_language(page: str, code: str) -> str:
    """The table's page with its websocket at /ws/`code` (textual-serve writes the socket's
    address, ending in /ws, in the page; its script adds the window's size after it)."""
    marker = 'data-session-websocket-url="'
    start = page.find(marker)
    if start < 0:
        return page
    end = page.find('"', start + len(marker))
    if end < 0 or not page[:end].endswith(SOCKET_PATH):
        return page
    return f"{page[:end]}/{code}{page[end:]}"


def cells(width: int, height: int) -> tuple[int, int]:
    """A browser's window size as one a terminal can have (see tui.hosting.ssh)."""
    return max(1, min(width, MAX_CELLS)), max(1, min(height, MAX_CELLS))


def one_line(text: object, limit: int = 200) -> str:
    """`text` for one line of the host's console: controls and line breaks escaped."""
    return visible(str(text).replace("\r", "\\r").replace("\n", "\\n"), limit)


def waiting_budget(max_sessions: int) -> int:
    """How many connections may wait to sit down at once, within the open-files limit: half
    of what the seats and the rest leave, and WAITING_AT_MOST at most."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return WAITING_AT_MOST
    return max(8, min(WAITING_AT_MOST, (soft - FILES_KEPT - FILES_PER_SEAT * max_sessions) // 2))


class Tally:
    """Refusals told to the host: the first of a kind at once, the rest of that kind counted
    and told as one line per `every` seconds, so a flood does not flood the console."""

    def __init__(self, say: Callable[[str], None], every: float = TOLD_EVERY) -> None:
        self.say = say
        self.every = every
        self.told: dict[str, float] = {}  # kind: when it was last told
        self.more: Counter[str] = Counter()  # kind: how many since
        self.timers: dict[str, asyncio.TimerHandle] = {}

    def __call__(self, kind: str, line: str) -> None:
        """`line` refuses something of `kind` (a plural: "connections closed for ...")."""
        now = time.monotonic()
        last = self.told.get(kind)
        if last is None or (now - last >= self.every and not self.more[kind]):
            self.told[kind] = now
            self.say(one_line(line, 300))
            return
        self.more[kind] += 1
        if kind not in self.timers:
            with contextlib.suppress(RuntimeError):  # no loop: told at `close`
                self.timers[kind] = asyncio.get_running_loop().call_later(
                    max(0.0, last + self.every - now), self.flush, kind)

    def flush(self, kind: str) -> None:
        self.timers.pop(kind, None)
        count = self.more.pop(kind, 0)
        if count:
            self.told[kind] = time.monotonic()
            # TRANSLATORS: {kind} is a kind of refusal, plural ("connections closed for not
            # asking anything in time").
            self.say(_("... and {count} more {kind} in the last {seconds} s").format(
                count=count, kind=_(kind), seconds=f"{self.every:g}"))

    def close(self) -> None:
        """Tell what is still counted."""
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        for kind in list(self.more):
            self.flush(kind)


# ---------------------------------------------------------------- the door

@dataclass
class Waiting:
    """A connection that has not sat down: where from, and its deadline."""
    address: str
    deadline: asyncio.TimerHandle
    served: bool = False  # it has asked for something (a page, a file)


class Door(web.BaseSite):
    """The table's accept loop, in place of asyncio's (which logs and retries a hundred
    times a tick when the process is out of file descriptors): out of descriptors, it closes
    the oldest waiting connection, or with none waits ACCEPT_PAUSE, and goes on. Every accepted connection
    is waiting until its websocket sits down (`sat_down`): at most `at_most` wait at once and
    `per_address` from one address, the oldest closed to make room for the newest, and a
    waiting connection is closed `deadline` seconds after it was accepted or last asked for
    something."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, tally: Tally, *,
                 at_most: int = WAITING_AT_MOST, per_address: int = WAITING_PER_ADDRESS,
                 deadline: float = WAITING_DEADLINE) -> None:
        super().__init__(runner, backlog=BACKLOG)
        self.runner = runner
        self.host, self.port = host, port
        self.tally = tally
        self.at_most, self.per_address, self.deadline = at_most, per_address, deadline
        self.listening: list[socket.socket] = []
        self.accepting: list[asyncio.Task] = []
        self.waiting: dict[asyncio.Transport, Waiting] = {}  # the oldest first
        self.from_address: Counter[str] = Counter()

    @property
    def name(self) -> str:
        return f"http://{host_port(self.host or '0.0.0.0', self.port)}"

    async def start(self) -> None:
        await super().start()
        self.listening = await listening_sockets(self.host, self.port, BACKLOG)
        self.port = self.listening[0].getsockname()[1]
        site_listens_on(self, self.listening)
        self.accepting = [asyncio.create_task(self.accept(sock)) for sock in self.listening]

    async def stop(self) -> None:
        for task in self.accepting:
            task.cancel()
        await asyncio.gather(*self.accepting, return_exceptions=True)
        for sock in self.listening:
            sock.close()
        for waiting in self.waiting.values():
            waiting.deadline.cancel()
        await super().stop()

    async def accept(self, listening: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, address = await loop.sock_accept(listening)
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                continue
            except OSError as e:
                if e.errno not in OUT_OF_FILES:
                    self.tally(N_("errors accepting connections"), _(
                        "accepting a connection failed ({error}); accepting again shortly")
                        .format(error=e.strerror or e))
                    await asyncio.sleep(ACCEPT_PAUSE)
                    continue
                # Out of descriptors: the oldest waiting connection makes room (its socket is
                # closed as the loop turns), or, with none waiting, new ones wait a while.
                closed = self.close_oldest()
                self.tally(N_("times out of file descriptors"), (
                    _("out of file descriptors ({error}): closed the oldest waiting connection "
                      "(from {address})") if closed else
                    _("out of file descriptors ({error}): new connections wait {seconds} s"))
                    .format(error=e.strerror, address=closed, seconds=f"{ACCEPT_PAUSE:g}"))
                await asyncio.sleep(0 if closed else ACCEPT_PAUSE)
                continue
            await self.admit(conn, budget_address(address))

    async def admit(self, conn: socket.socket, address: str) -> None:
        """Make room for the newcomer (the oldest waiting one goes), then hand it to aiohttp
        under a deadline."""
        self.forget_closed()
        if self.from_address[address] >= self.per_address:
            self.close_oldest(address)
            self.tally(N_("connections closed over the budget of one address"),
                       _("closed the oldest waiting connection from {address}: at most {n} "
                         "from one address may wait to sit down").format(
                           address=address, n=self.per_address))
        if len(self.waiting) >= self.at_most:
            closed = self.close_oldest()
            self.tally(N_("connections closed over the budget of all addresses"),
                       _("closed the oldest waiting connection (from {address}): at most {n} "
                         "may wait to sit down at once").format(address=closed, n=self.at_most))
        conn.setblocking(False)
        try:
            transport, _protocol = await asyncio.get_running_loop().connect_accepted_socket(
                self.runner.server, conn)  # type: ignore[arg-type]
        except OSError:
            conn.close()
            return
        self.waiting[transport] = Waiting(address, self.deadline_for(transport))
        self.from_address[address] += 1

    def deadline_for(self, transport: asyncio.BaseTransport) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(self.deadline, self.expire, transport)

    def served(self, transport: asyncio.BaseTransport | None) -> None:
        """A request arrived on a waiting connection: its deadline starts again."""
        waiting = self.waiting.get(transport)  # type: ignore[arg-type]
        if waiting is not None:
            waiting.served = True
            waiting.deadline.cancel()
            waiting.deadline = self.deadline_for(transport)  # type: ignore[arg-type]

    def sat_down(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection's websocket sat down: it no longer waits (the seats are capped)."""
        self.forget(transport)

    def forget(self, transport: asyncio.BaseTransport | None) -> Waiting | None:
        waiting = self.waiting.pop(transport, None)  # type: ignore[arg-type]
        if waiting is not None:
            waiting.deadline.cancel()
            self.from_address[waiting.address] -= 1
            if not self.from_address[waiting.address]:
                del self.from_address[waiting.address]
        return waiting

    def forget_closed(self) -> None:
        for transport in [t for t in self.waiting if t.is_closing()]:
            self.forget(transport)

    def close_oldest(self, address: str | None = None) -> str | None:
        """Close the oldest waiting connection (from `address`) that has asked nothing yet,
        else the oldest that has (a page in a browser's keep-alive); returns where it was
        from."""
        mine = ((transport, waiting) for transport, waiting in self.waiting.items()
                if address is None or waiting.address == address)
        oldest = min(mine, key=lambda item: item[1].served, default=None)  # the first of
        if oldest is None:  # the least served
            return None
        transport, waiting = oldest
        self.forget(transport)
        transport.abort()
        return waiting.address

    def expire(self, transport: asyncio.Transport) -> None:
        waiting = self.forget(transport)
        if waiting is None or transport.is_closing():
            return
        transport.abort()
        if not waiting.served:  # a browser's idle keep-alive connection is no refusal
            self.tally(N_("connections closed for not asking anything in time"),
                       _("closed a connection from {address} that asked nothing within "
                         "{seconds} s").format(address=waiting.address,
                                               seconds=f"{self.deadline:g}"))


def budget_address(address: object) -> str:
    """Who a connection counts against: its IPv4 address, or its IPv6 address's /64 (one
    machine may hold a whole /64)."""
    host = address[0] if isinstance(address, tuple) and address else str(address)
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return str(host)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


async def listening_sockets(host: str, port: int, backlog: int) -> list[socket.socket]:
    """Bound and listening sockets for `host` (every address it has; "" or 0.0.0.0 as
    asyncio's create_server reads them), all on one port (the first one's, for port 0)."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host or None, port, family=socket.AF_UNSPEC,
                                   type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if port == 0 and len(sockets) > 1:
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            sock.bind(address)
            sock.listen(backlog)
            sock.setblocking(False)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


# ---------------------------------------------------------------- a tab's app

_prctl = None
if sys.platform == "linux":
    with contextlib.suppress(OSError, AttributeError):
        _prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before any fork


def _ends_with_the_server(server: int) -> Callable[[], None] | None:
    """What the tab's process runs before the app (Linux): it is killed when the server
    ends, however the server ends, so no tab is left running owned by PID 1."""
    if _prctl is None:
        return None

    def preexec() -> None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != server:  # the server ended before that took
            os.kill(os.getpid(), signal.SIGKILL)

    return preexec


async def exited(process: asyncio.subprocess.Process, within: float) -> bool:
    """Whether the process has exited within `within` seconds. (Not `process.wait()`: on
    Python 3.11 that also waits until its output has been read to the end, and a tab's
    output waits on a browser that may never read it.)"""
    deadline = time.monotonic() + within
    while process.returncode is None and time.monotonic() < deadline:
        await asyncio.sleep(EXIT_LOOK)
    return process.returncode is not None


async def end_process(process: asyncio.subprocess.Process, grace: float = TERM_GRACE) -> None:
    """SIGTERM to the process's group, SIGKILL `grace` seconds later; returns once it has
    exited."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    if not await exited(process, grace):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await exited(process, KILL_WAIT)


class Pastes:
    """Keeps every bracketed paste a tab sends under PASTE_AT_MOST characters: past them
    the paste is ended (its end marker put in), so the app's parser never holds more. The
    rest arrives as typed keys, and those are paced (web_driver)."""

    def __init__(self, at_most: int = PASTE_AT_MOST) -> None:
        self.at_most = at_most
        self.inside = False
        self.length = 0  # characters of the paste so far
        self.tail = ""  # the last characters seen: a marker may be split between messages

    def feed(self, text: str) -> str:
        out: list[str] = []
        seen = self.tail + text
        at = len(self.tail)  # what comes before is forwarded already
        while at < len(seen):
            marker = PASTE_END if self.inside else PASTE_START
            # a marker may have begun in the tail: look from where it could have
            found = seen.find(marker, max(0, at - len(marker) + 1))
            stop = len(seen) if found < 0 else found + len(marker)
            pasted = (len(seen) if found < 0 else max(found, at)) - at  # the marker aside
            if self.inside and self.length + pasted > self.at_most:
                cut = at + self.at_most - self.length  # the ceiling, before the paste ends
                out += [seen[at:cut], PASTE_END]
                self.inside, self.length, at = False, 0, cut
                continue
            out.append(seen[at:stop])
            self.length += pasted
            at = stop
            if found >= 0:
                self.inside, self.length = not self.inside, 0
        self.tail = seen[-(len(PASTE_START) - 1):]
        return "".join(out)


class WebSeat(AppService):
    """One browser tab's app process: started without a shell in a session of its own, with
    only what it needs of the host's environment, killed if the server dies, fed at its own
    pace, and ended when its tab goes."""

    def __init__(self, argv: list[str], websocket: web.WebSocketResponse, *,
                 tell: Callable[[str], None] = print, language: str | None = None,
                 **kwargs) -> None:
        super().__init__(shlex.join(argv), write_bytes=websocket.send_bytes,
                         write_str=websocket.send_str, close=websocket.close, **kwargs)
        self.argv = argv
        self.language = language or host_language()  # the tab's (tab_language)
        self.websocket = websocket
        self.tell = tell  # the host's console, for what the app says on its error output
        self.pastes = Pastes()
        self.close_code = WSCloseCode.OK  # how its socket is closed when the tab leaves
        self.quit_grace = QUIT_GRACE  # how long its app gets to quit by itself
        self.remote_close = lambda: websocket.close(code=self.close_code)  # the app's exit

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        environment["TEXTUAL_DRIVER"] = DRIVER
        environment["WARLEDGER_LANG"] = self.language
        return {name: value for name, value in environment.items()
                if name in SERVE_VARS or kept(name)}

    async def _open_app_process(self, width: int = 80, height: int = 24):
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self._build_environment(width, height),
            start_new_session=True, preexec_fn=_ends_with_the_server(os.getpid()))
        assert process.stdin is not None
        # Writing waits (and so the tab's socket is not read) once this much is on its way.
        process.stdin.transport.set_write_buffer_limits(high=PIPE_AHEAD_AT_MOST)
        self._stdin = process.stdin
        return process

    async def type(self, text: str) -> bool:
        """What the tab typed, to the app (waits while the app is behind)."""
        return await self.send_bytes(self.pastes.feed(text).encode("utf-8", "replace"))

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(*cells(width, height))

    async def ended(self) -> None:
        """Return when the app's process has ended."""
        if self._process is not None:
            while not await exited(self._process, 1.0):
                pass

    async def stop(self) -> None:
        """Ask the app to quit; SIGTERM, then SIGKILL, if it has not within `quit_grace`
        (QUIT_GRACE; none for a flood): the process is gone within QUIT_GRACE + TERM_GRACE,
        whatever it was doing."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.returncode is None and self._stdin is not None:
            with contextlib.suppress(Exception):  # not waiting on a full pipe: no drain
                self._stdin.write(self.encode_packet(b"M", b'{"type": "quit"}'))
                self._stdin.close()
            if not await exited(process, self.quit_grace):
                await end_process(process)
        # Gone: what it wrote last goes to the tab if the tab takes it at once, and its
        # pipes are closed (else asyncio keeps them, and the process, until they are read).
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        task, self._task = self._task, None
        if task is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(task, LAST_OUTPUT)
        close_pipes(process)

    async def run(self) -> None:
        """textual-serve's reading of the app's output (AppService.run), with its error
        output kept to ERRORS_KEPT and told as one line, escapes shown, not copied whole to
        the host's console."""
        process = self._process
        assert process is not None and process.stdout is not None
        stdout, stderr = process.stdout, process.stderr
        errors = bytearray()
        lines = 0

        async def read_errors() -> None:
            nonlocal lines
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                while data := await stderr.read(4096):
                    lines += data.count(b"\n")
                    errors.extend(data)
                    del errors[:-ERRORS_KEPT]

        reading_errors = asyncio.create_task(read_errors())
        try:
            for _line in range(10):  # the prelude: a line that says a Textual app started
                if not (line := await stdout.readline()) or line == b"__GANGLION__\n":
                    break
            while True:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                payload = await stdout.readexactly(size)
                if kind == b"D":
                    await self.on_data(payload)
                elif kind == b"M":
                    await self.on_meta(payload)
                elif kind == b"P":
                    await self.on_packed(payload)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError,
                asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(reading_errors), 0.5)
            reading_errors.cancel()
        said = [line for line in errors.decode("utf-8", "replace").splitlines()
                if line.strip()]
        if said:
            self.tell(_("a browser tab's app said on its error output ({n} lines), last: "
                        "{line}").format(n=max(lines, 1), line=one_line(said[-1].strip())))

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None


class WebTable(Server):
    """textual-serve's server for one table: same-origin pages and sockets only, at most
    `max_sessions` tabs at once, connections budgeted at the Door. `open()` starts it in
    the running loop. With `links`, a tab sits down only by one of them (its cookie), and
    runs that link's command; with None (the open table, said so on purpose: there is no
    default), any tab runs `argv`."""

    def __init__(self, argv: list[str], host: str = "127.0.0.1", port: int = 8000, *,
                 public_url: str | None = None, max_sessions: int = 16,
                 say: Callable[[str], None] = print, told_every: float = TOLD_EVERY,
                 waiting_at_most: int | None = None,
                 waiting_per_address: int = WAITING_PER_ADDRESS,
                 waiting_deadline: float = WAITING_DEADLINE,
                 stall_at_most: float = STALL_AT_MOST, heartbeat: float = HEARTBEAT,
                 links: Sequence[Link] | None) -> None:
        super().__init__(shlex.join(argv), host=host, port=port, title="warledger",
                         public_url=public_url)
        self.argv = argv
        self.links = tuple(links) if links is not None else None  # None: the open table
        self.given_url = public_url.rstrip("/") if public_url else None
        self.max_sessions = max_sessions
        self.say = say
        self.tally = Tally(self.tell, told_every)
        self.waiting_at_most = waiting_at_most or waiting_budget(max_sessions)
        self.waiting_per_address = waiting_per_address
        self.waiting_deadline = waiting_deadline
        self.stall_at_most = stall_at_most
        self.heartbeat = heartbeat
        self.wrong_tokens = WrongTokens()
        self.door: Door | None = None
        self.seats: set[WebSeat] = set()
        self.urls: list[str] = []  # what players can open, the best first
        self.hosts: set[tuple[str, int]] = set()  # Host headers served
        self.origins: set[tuple[str, str, int]] = set()  # pages whose sockets are accepted

    def tell(self, line: str) -> None:
        """One line on the host's console, every control character shown as its escape."""
        self.say(visible(line))

    @property
    def cookie(self) -> str:
        """The name of the cookie a tab's link travels in (the table's own, by its port)."""
        return cookie_name(self.port)

    def initialize_logging(self) -> None:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(OneLine(tuple(link.token for link in self.links or ())))
        logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)

    # textual-serve builds every URL of a page from `public_url`: while a page is rendered,
    # it is the address that page was asked for (when no --public-url was given).
    @property
    def public_url(self) -> str:
        return _page_url.get() or self._public_url

    @public_url.setter
    def public_url(self, url: str) -> None:
        self._public_url = url

    # ------------------------------------------------------------ starting

    async def open(self) -> web.AppRunner:
        """Listen; returns the runner to clean up. OSError when the port cannot be had."""
        name_the_server("warledger")
        runner = web.AppRunner(await self._make_app(), access_log=None, handle_signals=False,
                               shutdown_timeout=SHUTDOWN_TIMEOUT)
        await runner.setup()
        self.door = Door(runner, self.host, self.port, self.tally, at_most=self.waiting_at_most,
                         per_address=self.waiting_per_address, deadline=self.waiting_deadline)
        try:
            await self.door.start()
        except BaseException:
            await runner.cleanup()
            raise
        self.port = self.door.port  # port 0 asks for any free one
        self.settle()
        return runner

    def settle(self) -> None:
        """Work out, once the port is known, the addresses players can use and so which
        pages and sockets are the table's own."""
        names = interface_addresses() if self.host in WILDCARDS else [self.host]
        self.urls = [f"http://{host_port(name, self.port)}" for name in names]
        self.public_url = self.given_url or self.urls[0]
        # A browser on this machine may say localhost or 127.0.0.1 for the same address.
        aliases = LOOPBACK_NAMES if any(is_loopback(name) for name in names) else ()
        urls = [URL(url) for url in [*self.urls, self.public_url]]
        urls += [URL(f"http://{host_port(name, self.port)}") for name in aliases]
        self.hosts = {(url.host or "", url.port or 0) for url in urls}
        self.origins = {(url.scheme, url.host or "", url.port or 0) for url in urls}

    def announcement(self) -> list[str]:
        """What the host's terminal says once the table is open."""
        # TRANSLATORS: {address} is host:port, {n} --max-sessions.
        lines = [_("warledger table open in browsers (listening on {address}, up to {n} "
                   "players)").format(address=host_port(self.host, self.port),
                                      n=self.max_sessions)]
        if self.links is not None:
            return lines + self.link_lines()
        if self.given_url:
            lines.append(_("players open {url}").format(url=self.given_url))
        else:
            lines += [_("players open {url}").format(url=url) for url in self.urls
                      if not is_loopback(URL(url).host or "")]
            local = [url for url in self.urls if is_loopback(URL(url).host or "")]
            if local and len(local) == len(self.urls):
                lines.append(_("open {url} (this machine only; --host 0.0.0.0 lets the "
                               "table's network in)").format(url=local[0]))
            elif local:
                lines.append(_("on this machine: {url}").format(url=local[0]))
        if not (is_loopback(self.host) and is_loopback(URL(self.public_url).host or "")):
            lines.append(_(NO_LOGIN))
        return lines

    def link_lines(self) -> list[str]:
        """Each link, as text and as a QR code, at the table's best address; then where
        else the same links work."""
        assert self.links is not None
        base = self.public_url
        lines = [_("each player opens their own link: whoever holds a link plays as its "
                   "player, so give each to its player alone")]
        for link in self.links:
            url = link.url(base)
            lines.append((_("spectators open {url} (the scoreboard: it records nothing)")
                          if link.spectator else _("{player} opens {url}")).format(
                              player=link.player, url=url))
            lines += qr_lines(url) or [_("(no QR code: the link is too long for 80 "
                                         "columns)")]
        others = [] if self.given_url else [url for url in self.urls if url != base]
        lines += [_("the same links work with {url} in place of {base}").format(
            url=url, base=base) for url in others]
        if not self.given_url and all(is_loopback(URL(url).host or "") for url in self.urls):
            lines.append(_("these links work on this machine only; --host 0.0.0.0 lets the "
                           "table's network in"))
        return lines

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self.same_origin)
        app.middlewares.append(self.let_in)
        # The table's page opens its websocket here, its tab's language in the path.
        app.router.add_get(SOCKET_PATH + "/{lang}", self.handle_websocket)
        return app

    async def on_startup(self, app: web.Application) -> None:
        pass  # the host is told by `announcement`, not textual-serve's banner

    # ------------------------------------------------------------ requests

    def host_served(self, request: web.Request) -> bool:
        raw = request.headers.get("Host")
        if not raw:
            return False
        try:
            url = URL(f"http://{raw}")
        except ValueError:
            return False
        name = url.host or ""
        if url.explicit_port is not None:
            return (name, url.explicit_port) in self.hosts
        return (name, 80) in self.hosts or (name, 443) in self.hosts

    def origin_served(self, request: web.Request) -> bool:
        raw = request.headers.get("Origin")
        if not raw or raw == "null":
            return False
        try:
            url = URL(raw)
        except ValueError:
            return False
        return (url.scheme, url.host or "", url.port or 0) in self.origins

    @web.middleware
    async def same_origin(self, request: web.Request, handler) -> web.StreamResponse:
        """Only the addresses served (DNS rebinding gets nothing), and the websocket only
        from the table's own page: any other page a player visits is refused (403)."""
        if self.door is not None:
            self.door.served(request.transport)
        websocket = is_socket_path(request.path)
        if not self.host_served(request) or (websocket and not self.origin_served(request)):
            if websocket:
                origin = request.headers.get("Origin")
                self.tally(N_("websockets refused from other pages"), (
                    _("refused a websocket from {origin} ({address})") if origin else
                    _("refused a websocket from no page ({address})")).format(
                        origin=origin, address=request.remote))
            else:
                asked = request.headers.get("Host")
                self.tally(N_("pages refused asked by other names"), (
                    _("refused a page asked as {name} ({address})") if asked else
                    _("refused a page asked as no host ({address})")).format(
                        name=asked, address=request.remote))
            raise web.HTTPForbidden(text=_(FORBIDDEN).format(url=self._public_url))
        return await handler(request)

    @web.middleware
    async def let_in(self, request: web.Request, handler) -> web.StreamResponse:
        """With links: the page asked with a link's token sets the link's cookie and goes
        on to the table's page without the token; the rest (the page's scripts and styles
        aside) needs the cookie of a link, which the request then keeps (LINK_KEY). Without
        one, a page in the tab's language says to ask the host for a link (403), and
        nothing starts."""
        if self.links is None or request.path.startswith(STATIC_PATH):
            return await handler(request)
        if request.path == "/" and TOKEN_PARAM in request.query:
            link = holder(self.links, request.query.get(TOKEN_PARAM))
            if link is not None:
                return self.welcome(request, link)
            brought = True
        else:
            link = cookie_holder(self.links, self.port, request.cookies.get(self.cookie))
            if link is not None:
                request[LINK_KEY] = link
                return await handler(request)
            brought = self.cookie in request.cookies
        if brought:  # a wrong token: after a few from one address, each refusal waits
            await asyncio.sleep(self.wrong_tokens.wrong(str(request.remote)))
        websocket = is_socket_path(request.path)
        self.tally(N_("websockets refused without a link") if websocket else
                   N_("pages refused without a link"), (
                       _("refused a websocket from {address}: no link of this table")
                       if websocket else
                       _("refused a page from {address}: no link of this table")).format(
                           address=request.remote))
        tab = tab_language(request.match_info.get("lang") or request.query.get("lang"),
                           request.headers.get("Accept-Language"))
        raise web.HTTPForbidden(text=translation_of(tab).gettext(NO_LINK),
                                headers={"Cache-Control": "no-store"})

    def welcome(self, request: web.Request, link: Link) -> web.Response:
        """The page a link opens: the cookie set, and on to the table's page."""
        response = web.Response(text=welcome_page(dict(request.query)),
                                content_type="text/html",
                                headers={"Cache-Control": "no-store",
                                         "Referrer-Policy": "no-referrer"})
        response.set_cookie(self.cookie, cookie_value(link, self.port), path="/", httponly=True,
                            samesite="Strict",
                            secure=URL(self._public_url).scheme == "https")
        return response

    async def handle_index(self, request: web.Request):
        # The page's socket and files at the address the browser used (one it was checked
        # to be served under), unless the host gave --public-url.
        token = _page_url.set(None if self.given_url else f"http://{request.headers['Host']}")
        try:
            page = await super().handle_index(request)
        finally:
            _page_url.reset(token)
        # ?lang=ro: its socket at /ws/ro. Else the socket's own Accept-Language decides.
        asked = request.query.get("lang")
        if asked and (code := language_of_locale(asked)) is not None:
            page.text = with_socket_language(page.text, code)
        return page

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A tab sits down, unless the table is full; its process ends with its socket."""
        websocket = web.WebSocketResponse(heartbeat=self.heartbeat,
                                          max_msg_size=MESSAGE_AT_MOST, timeout=CLOSE_TIMEOUT)
        # The language the page was asked in (/ws/LANG), else the one its browser prefers.
        tab = tab_language(request.match_info.get("lang"),
                           request.headers.get("Accept-Language"))
        if len(self.seats) >= self.max_sessions:
            await websocket.prepare(request)
            full = translation_of(tab).gettext(TABLE_FULL).format(max=self.max_sessions)
            await websocket.send_bytes(f"{full}\r\n".encode())
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"table full")
            self.tally(N_("browsers turned away from a full table"),
                       _("a browser at {address} turned away: the table is full").format(
                           address=request.remote))
            return websocket
        width, height = cells(to_int(request.query.get("width", "80"), 80),
                              to_int(request.query.get("height", "24"), 24))
        link: Link | None = request.get(LINK_KEY)
        seat = WebSeat(list(link.argv) if link else self.argv, websocket, tell=self.tell,
                       language=tab, download_manager=self.download_manager)
        self.seats.add(seat)  # before any await: two tabs never take the last seat both
        try:
            await websocket.prepare(request)  # not a websocket: 400, and the seat is free
        except BaseException:
            self.seats.discard(seat)
            raise
        if self.door is not None:
            self.door.sat_down(request.transport)
        self.tell(who_sat_down(link).format(address=request.remote,
                                            player=link.player if link else None))
        try:
            await seat.start(width, height)
            await self.play(request, websocket, seat)
        except ConnectionError:
            pass
        except Exception as e:  # noqa: BLE001 - what goes wrong with a tab ends that tab only
            self.tell(_("a browser at {address} dropped: {error}").format(
                address=request.remote, error=one_line(repr(e))))
        finally:
            await asyncio.shield(self.leave(seat, websocket, who_left(link).format(
                address=request.remote, player=link.player if link else None)))
        return websocket

    async def play(self, request: web.Request, websocket: web.WebSocketResponse,
                   seat: WebSeat) -> None:
        """Until the tab's socket closes (seen even while it is not being read) or its app
        ends: what the tab sends, to its app."""
        reading = asyncio.ensure_future(self.read_tab(request, websocket, seat))
        watching = {reading, asyncio.ensure_future(until_hung_up(request, websocket)),
                    asyncio.ensure_future(seat.ended())}
        try:
            done, _pending = await asyncio.wait(watching, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in watching:
                task.cancel()
            await asyncio.gather(*watching, return_exceptions=True)
        if reading in done and not reading.cancelled():
            reading.result()

    async def read_tab(self, request: web.Request, websocket: web.WebSocketResponse,
                       seat: WebSeat) -> None:
        """textual-serve's `_process_messages`, each message checked: one the app cannot
        take (a size that is not two whole numbers, a message of no known kind) is ignored
        and told in one line. A message longer than MESSAGE_AT_MOST closes the tab (1009).
        Reading waits while the app's pipe is full (backpressure on the socket), and a
        message that waits `stall_at_most` (STALL_AT_MOST) closes the tab (1008)."""
        async for message in websocket:
            if message.type == WSMsgType.ERROR:
                if getattr(message.data, "code", None) == WSCloseCode.MESSAGE_TOO_BIG:
                    self.tally(N_("tabs closed for a message too long"),
                               _("closed the tab of the browser at {address}: it sent a "
                                 "message of more than {n} bytes").format(
                                   address=request.remote, n=MESSAGE_AT_MOST))
                return
            if message.type != WSMsgType.TEXT:
                continue
            try:
                why = await asyncio.wait_for(self.take(message.data, websocket, seat),
                                             self.stall_at_most)
            except TimeoutError:
                self.tally(N_("tabs closed for sending more than their app could take"),
                           _("closed the tab of the browser at {address}: its input waited on "
                             "its app for {seconds} s (a flood)").format(
                               address=request.remote, seconds=f"{self.stall_at_most:g}"))
                seat.close_code = WSCloseCode.POLICY_VIOLATION  # and no quitting nicely:
                seat.quit_grace = 0.0  # what the app has to take first will take minutes
                return
            if why:
                self.tally(N_("messages ignored that a tab's app cannot take"),
                           _("ignored a message from the browser at {address}: {reason}")
                           .format(address=request.remote, reason=why))

    async def take(self, data: str, websocket: web.WebSocketResponse, seat: WebSeat) -> str:
        """Hand one message of the tab to its app; what is wrong with it, if anything."""
        try:
            envelope = json.loads(data, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            return _("not JSON: {data}").format(data=shown(data))
        if not (isinstance(envelope, list) and envelope and isinstance(envelope[0], str)):
            return _("not a [kind, ...] list: {data}").format(data=shown(data))
        kind, rest = envelope[0], envelope[1:]
        if kind == "stdin" and len(rest) == 1 and isinstance(rest[0], str):
            await seat.type(rest[0])
        elif kind == "resize":
            size = rest[0] if len(rest) == 1 and isinstance(rest[0], dict) else {}
            width, height = size.get("width"), size.get("height")
            if not (whole(width) and whole(height)):
                return _("a resize to {width} x {height}: not a size").format(
                    width=shown(width), height=shown(height))
            await seat.set_terminal_size(width, height)
        elif kind == "ping" and len(rest) == 1 and isinstance(rest[0], str | int | float) \
                and len(str(rest[0])) <= PING_AT_MOST:
            await websocket.send_json(["pong", rest[0]])
        elif kind in ("blur", "focus") and not rest:
            await (seat.blur() if kind == "blur" else seat.focus())
        else:
            return _("not a message the table takes: {data}").format(data=shown(data))
        return ""

    async def leave(self, seat: WebSeat, websocket: web.WebSocketResponse, left: str) -> None:
        try:
            await seat.stop()
        finally:
            self.tell(left)  # before the seat is free: whoever sees it free has heard it
            self.seats.discard(seat)
            with contextlib.suppress(ConnectionError, RuntimeError):
                await websocket.close(code=seat.close_code)

    async def close(self) -> None:
        """Tell every tab the table is closed and close its socket: each tab's handler then
        ends its process."""
        for seat in list(self.seats):
            with contextlib.suppress(ConnectionError, RuntimeError, TimeoutError):
                async with asyncio.timeout(CLOSE_TIMEOUT):
                    closed = translation_of(seat.language).gettext(TABLE_CLOSED)
                    await seat.websocket.send_bytes(f"\r\n{closed}\r\n".encode())
                    await seat.websocket.close(code=WSCloseCode.GOING_AWAY)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(END_WITHIN + CLOSE_TIMEOUT):
                while self.seats:
                    await asyncio.sleep(0.05)
        self.tally.close()


def who_sat_down(link: Link | None) -> str:
    """The host's line for a tab sitting down: {address}, and {player} for a player."""
    if link is None:
        return _("a browser at {address} sat down")
    if link.spectator:
        return _("a spectator sat down at the scoreboard from a browser at {address}")
    return _("{player} sat down from a browser at {address}")


def who_left(link: Link | None) -> str:
    """The host's line for a tab leaving: {address}, and {player} for a player."""
    if link is None:
        return _("a browser at {address} left")
    if link.spectator:
        return _("a spectator left the scoreboard (a browser at {address})")
    return _("{player} left (a browser at {address})")


def whole(value: object) -> bool:
    """A whole number, as a size must be (not a bool, not 12.5)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object, limit: int = 60) -> str:
    """A value in a line to the host: its repr, escapes shown, cut."""
    return one_line(repr(value), limit)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number a tab sends")


async def until_hung_up(request: web.Request, websocket: web.WebSocketResponse) -> None:
    """Return once the tab's socket has closed, even while it is not being read (a socket
    not read holds its end behind the data before it): the kernel says so (POLLRDHUP)."""
    transport = request.transport
    sock = transport.get_extra_info("socket") if transport is not None else None
    poller = None
    if sock is not None and hasattr(select, "POLLRDHUP"):
        poller = select.poll()
        poller.register(sock.fileno(), select.POLLRDHUP)
    while not (websocket.closed or transport is None or transport.is_closing()):
        if poller is not None and poller.poll(0):  # hung up, reset or failed
            return
        await asyncio.sleep(HANGUP_LOOK)


def is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_port(name: str, port: int) -> str:
    return f"[{name}]:{port}" if ":" in name else f"{name}:{port}"


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses, the one of the default route first and loopback last:
    the addresses a table listening on every network (0.0.0.0) can be reached at."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.connect(("192.0.2.1", 9))  # sends nothing: asks which address would be used
        found.append(udp.getsockname()[0])
    if SIOCGIFADDR is not None:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _index, name in socket.if_nameindex():
                with contextlib.suppress(OSError):
                    request = struct.pack("256s", name.encode()[:15])
                    found.append(socket.inet_ntoa(
                        fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)[20:24]))
    unique = [a for i, a in enumerate(found) if a not in found[:i] and a not in WILDCARDS]
    return ([a for a in unique if not is_loopback(a)] + [a for a in unique if is_loopback(a)]
            or ["127.0.0.1"])


class OneLine(logging.Formatter):
    """Libraries' log records (aiohttp, asyncio, textual-serve) as one line each on the
    host's console: no traceback (with its local variables) a player could set off."""

    def __init__(self, tokens: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.tokens = tokens  # the table's links': no piece of one is shown

    def format(self, record: logging.LogRecord) -> str:
        line = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            line += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        return one_line(redacted(f"{record.levelname.lower()}: {line}", self.tokens), 300)


def serve(db: str | None, host: str, port: int, public_url: str | None = None,
          max_sessions: int = 16, say: Callable[[str], None] = print,
          players: list[str] | None = None) -> None:
    """Serve the TUI until Ctrl+C or SIGTERM: with a link for each of `players` (names
    already checked) and one for the spectators, or, with None, as the open table. OSError
    when the port cannot be had."""
    table = WebTable(web_command(db), host, port, public_url=public_url,
                     max_sessions=max_sessions, say=say,
                     links=None if players is None else table_links(db, players))
    table.initialize_logging()
    asyncio.run(run_table(table))


async def run_table(table: WebTable) -> None:
    runner = await table.open()
    try:
        for line in table.announcement():
            table.tell(line)
        await until_stopped()
        table.tell(_("closing the table"))
    finally:  # however the table ends, no tab's process outlives it
        await table.close()
        await runner.cleanup()
