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

Under abuse: the door both hosts share (tui.hosting.listen, tui.hosting.web_door) survives
running out of file descriptors, and connections that have not sat down are budgeted, in
total and per address, each with a short deadline. A tab's input is read with backpressure
under a fixed ceiling (tui.hosting.web_input): the socket is not read while the app's pipe
is full (aiohttp queues 512 KiB first), and the app reads its pipe only as fast as it takes
the events (web_driver); a message that waits STALL_AT_MOST is a flood, and closes the tab.
Its process ends within END_WITHIN seconds of its socket closing, whatever it is doing, and
with the server, however the server ends. Refusals are told once per interval of a kind
(tui.hosting.tally).

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
import logging
import os
import shlex
import signal
import sys
from collections.abc import Callable, Sequence

from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int
from yarl import URL

from i18n import N_, _, accept_language, language_of_locale, translation_of
from i18n import language as host_language
from tui.compat.aiohttp import name_the_server
from tui.hosting import web_addresses
from tui.hosting.child import kept
from tui.hosting.listen import listening_sockets
from tui.hosting.processes import end_process, exited, until_stopped
from tui.hosting.ssh_terminal import MAX_CELLS, TABLE_CLOSED, TABLE_FULL
from tui.hosting.tally import TOLD_EVERY, Tally
from tui.hosting.web_addresses import host_served, origin_served, served
from tui.hosting.web_console import OneLine, comings_and_goings, one_line
from tui.hosting.web_door import (
    BACKLOG,
    WAITING_DEADLINE,
    WAITING_PER_ADDRESS,
    WebEntrance,
    summed_up,
    waiting_budget,
)
from tui.hosting.web_input import MESSAGE_AT_MOST, Pastes, read_tab, until_hung_up
from tui.hosting.web_links import (
    NO_LINK,
    TOKEN_PARAM,
    Link,
    WrongTokens,
    cookie_holder,
    cookie_name,
    cookie_value,
    holder,
    table_links,
    welcome_page,
)
from tui.text.literal import visible

# What textual-serve sets for its children (the rest of the host's environment is filtered).
SERVE_VARS = frozenset({"TEXTUAL_DRIVER", "TEXTUAL_FPS", "TEXTUAL_COLOR_SYSTEM", "TERM_PROGRAM",
                        "TERM_PROGRAM_VERSION", "COLUMNS", "ROWS"})
# Textual's WebDriver, taking input at the app's pace (see tui/hosting/web_driver.py).
DRIVER = "tui.hosting.web_driver:TableWebDriver"
FORBIDDEN = N_("This warledger table is served at {url}; open that address. (A page from "
               "another address may not drive the table.)")
SOCKET_PATH = "/ws"  # a tab's websocket: /ws/LANG from the table's page, /ws from older ones
STATIC_PATH = "/static/"  # the page's scripts and styles: no secret, served to anyone
LINK_KEY = web.RequestKey("link", Link)  # what a request let in by its link keeps
# ---- a tab's input: the ceiling (tui.hosting.web_input)
PIPE_AHEAD_AT_MOST = 16 * 1024  # bytes written to the app's pipe and not yet in it
# A message waiting this long for the app to take it is a flood: the app takes at once what
# a table types, and a message waits only once 64 events and 80 KiB more are waiting for the
# app. The tab is closed (its app ended without waiting for it to quit). While its input is
# not read, a browser's close waits in its own machine behind what it sent, unseen: this
# bounds how long such a tab holds its seat.
STALL_AT_MOST = 1.0
# ---- a tab's end
QUIT_GRACE = 0.5  # seconds a tab's app gets to quit by itself once its socket closed
END_WITHIN = 2.0  # so a tab's process is gone this long after its socket closed
LAST_OUTPUT = 0.5  # seconds an ended app's last output gets to reach its tab
CLOSE_TIMEOUT = 2.0  # seconds a closing websocket waits for the browser's reply
# Seconds between pings to a quiet tab; a tab that answers none within half of it is closed
# (one that reads nothing, its app blocked on drawing for it, included).
HEARTBEAT = 15.0
ERRORS_KEPT = 16 * 1024  # bytes of a tab's app's error output kept, to tell its last line
SHUTDOWN_TIMEOUT = 5.0  # seconds aiohttp waits for requests in flight as the table closes
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


# ---------------------------------------------------------------- a tab's app

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


class WebSeat(AppService):
    """One browser tab's app process: started without a shell in a session of its own, with
    only what it needs of the host's environment, killed if the server dies, fed at its own
    pace, and ended when its tab goes."""

    def __init__(self, argv: list[str], websocket: web.WebSocketResponse, *,
                 tell: Callable[[str], None] = print, language: str | None = None,
                 **kwargs) -> None:
        # textual-serve types `close` as giving None; it only awaits it (aiohttp's gives a bool)
        super().__init__(shlex.join(argv), write_bytes=websocket.send_bytes,
                         write_str=websocket.send_str, close=websocket.close,  # type: ignore[arg-type]
                         **kwargs)
        self.argv = argv
        self.language = language or host_language()  # the tab's (tab_language)
        self.websocket = websocket
        self.tell = tell  # the host's console, for what the app says on its error output
        self.pastes = Pastes()
        self.close_code = WSCloseCode.OK  # how its socket is closed when the tab leaves
        self.quit_grace = QUIT_GRACE  # how long its app gets to quit by itself
        # the app's exit (textual-serve's type for it: as `close` above)
        self.remote_close = lambda: websocket.close(code=self.close_code)  # type: ignore[assignment,return-value]

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
        transport = getattr(process, "_transport", None)
        if transport is not None:
            transport.close()

    async def run(self) -> None:
        """textual-serve's reading of the app's output (AppService.run), with its error
        output kept to ERRORS_KEPT and told as one line, escapes shown, not copied whole to
        the host's console."""
        process = self._process
        assert process is not None and process.stdout is not None
        assert process.stderr is not None  # opened with both pipes (_open_app_process)
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
        self.tally = Tally(lambda line: self.tell(one_line(line, 300)), summed_up, told_every)
        self.waiting_at_most = waiting_at_most or waiting_budget(max_sessions)
        self.waiting_per_address = waiting_per_address
        self.waiting_deadline = waiting_deadline
        self.stall_at_most = stall_at_most
        self.heartbeat = heartbeat
        self.wrong_tokens = WrongTokens()
        self.door: WebEntrance | None = None
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
        try:
            listeners = await listening_sockets(self.host, self.port, BACKLOG)
        except BaseException:
            await runner.cleanup()
            raise
        # The shared door accepts, and hands each connection it admits to aiohttp's server.
        assert runner.server is not None
        self.door = WebEntrance(runner.server, listeners, self.tally,
                                at_most=self.waiting_at_most,
                                per_address=self.waiting_per_address,
                                deadline=self.waiting_deadline)
        self.port = self.door.port  # port 0 asks for any free one
        self.settle()
        return runner

    def settle(self) -> None:
        """Work out, once the port is known, the addresses players can use and so which
        pages and sockets are the table's own."""
        self.urls, self.public_url, self.hosts, self.origins = served(
            self.host, self.port, self.given_url)

    def announcement(self) -> list[str]:
        """What the host's terminal says once the table is open."""
        return web_addresses.announcement(self)

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

    @web.middleware
    async def same_origin(self, request: web.Request, handler) -> web.StreamResponse:
        """Only the addresses served (DNS rebinding gets nothing), and the websocket only
        from the table's own page: any other page a player visits is refused (403)."""
        if self.door is not None:
            self.door.served(request.transport)
        websocket = is_socket_path(request.path)
        if not host_served(self.hosts, request.headers.get("Host")) or (
                websocket and not origin_served(self.origins, request.headers.get("Origin"))):
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
            # textual-serve's index is a page rendered from its template: a text response
            assert isinstance(page, web.Response) and page.text is not None
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
        said = {"address": request.remote, "player": link.player if link else None}
        sat_down, left = comings_and_goings(link)
        self.tell(sat_down.format(**said))
        try:
            await seat.start(width, height)
            await self.play(request, websocket, seat)
        except ConnectionError:
            pass
        except Exception as e:  # noqa: BLE001 - what goes wrong with a tab ends that tab only
            self.tell(_("a browser at {address} dropped: {error}").format(
                address=request.remote, error=one_line(repr(e))))
        finally:
            await asyncio.shield(self.leave(seat, websocket, left.format(**said)))
        return websocket

    async def play(self, request: web.Request, websocket: web.WebSocketResponse,
                   seat: WebSeat) -> None:
        """Until the tab's socket closes (seen even while it is not being read) or its app
        ends: what the tab sends, to its app."""
        reading = asyncio.ensure_future(read_tab(request, websocket, seat, self.tally,
                                                 self.stall_at_most))
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

    async def leave(self, seat: WebSeat, websocket: web.WebSocketResponse, left: str) -> None:
        try:
            await seat.stop()
        finally:
            self.tell(left)  # before the seat is free: whoever sees it free has heard it
            self.seats.discard(seat)
            with contextlib.suppress(ConnectionError, RuntimeError):
                await websocket.close(code=seat.close_code)

    async def close(self) -> None:
        """Stop accepting, tell every tab the table is closed and close its socket: each
        tab's handler then ends its process."""
        if self.door is not None:
            self.door.close()
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
