"""`warledger serve web`: the same TUI in a browser, through textual-serve (one app process
per browser tab). Browser players are not identified: steps they record carry no author.

textual-serve's Server is kept, with what a table needs around it (WebTable): the page and
its websocket only under the addresses served (a page elsewhere cannot drive the table), a
cap on players, every player's process ended as soon as its socket closes, and a child that
sees only what it needs of the host's environment (WebSeat).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import fcntl
import ipaddress
import shlex
import socket
import struct
import sys
from collections.abc import Callable

from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int
from yarl import URL

from tui.hosting.child import kept
from tui.hosting.ssh import (
    MAX_CELLS,
    STOP_GRACE,
    TABLE_CLOSED,
    TABLE_FULL,
    end_process,
    until_stopped,
)
from tui.literal import visible

REFUSALS_TOLD = 100
QUIT_GRACE = 1.0  # seconds a tab's app gets to quit by itself once its socket closed
WILDCARDS = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
# What textual-serve sets for its children (the rest of the host's environment is filtered).
SERVE_VARS = frozenset({"TEXTUAL_DRIVER", "TEXTUAL_FPS", "TEXTUAL_COLOR_SYSTEM", "TERM_PROGRAM",
                        "TERM_PROGRAM_VERSION", "COLUMNS", "ROWS"})
NO_LOGIN = ("warning: the web has no login: anyone on these networks who opens the address "
            "can play; for named players with keys use `warledger serve ssh`")
FORBIDDEN = ("This warledger table is served at {url}; open that address. (A page from "
             "another address may not drive the table.)")
SIOCGIFADDR = {"linux": 0x8915, "darwin": 0xC0206921}.get(sys.platform)

# The address a page was asked for, while it is rendered (see WebTable.public_url).
_page_url: contextvars.ContextVar[str | None] = contextvars.ContextVar("page_url", default=None)


def web_command(db: str | None) -> list[str]:
    """What textual-serve starts for each browser tab."""
    return [sys.executable, "-m", "tui", *(["--db", db] if db else [])]


def cells(width: int, height: int) -> tuple[int, int]:
    """A browser's window size as one a terminal can have (see tui.hosting.ssh)."""
    return max(1, min(width, MAX_CELLS)), max(1, min(height, MAX_CELLS))


class WebSeat(AppService):
    """One browser tab's app process: started without a shell in a session of its own, with
    only what it needs of the host's environment, and ended when its tab goes."""

    def __init__(self, argv: list[str], websocket: web.WebSocketResponse, **kwargs) -> None:
        super().__init__(shlex.join(argv), write_bytes=websocket.send_bytes,
                         write_str=websocket.send_str, close=websocket.close, **kwargs)
        self.argv = argv
        self.websocket = websocket

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width, height)
        return {name: value for name, value in environment.items()
                if name in SERVE_VARS or kept(name)}

    async def _open_app_process(self, width: int = 80, height: int = 24):
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self._build_environment(width, height),
            start_new_session=True)
        self._stdin = process.stdin
        return process

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(*cells(width, height))

    async def stop(self) -> None:
        """Ask the app to quit; end it if it has not within QUIT_GRACE."""
        process = self._process
        stopping = asyncio.ensure_future(super().stop())
        if process is not None:
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), QUIT_GRACE)
            except TimeoutError:
                await end_process(process)
        await stopping

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None


class WebTable(Server):
    """textual-serve's server for one table: same-origin pages and sockets only, at most
    `max_sessions` tabs at once. `open()` starts it in the running loop."""

    def __init__(self, argv: list[str], host: str = "127.0.0.1", port: int = 8000, *,
                 public_url: str | None = None, max_sessions: int = 16,
                 say: Callable[[str], None] = print) -> None:
        super().__init__(shlex.join(argv), host=host, port=port, title="warledger",
                         public_url=public_url)
        self.argv = argv
        self.given_url = public_url.rstrip("/") if public_url else None
        self.max_sessions = max_sessions
        self.say = say
        self.seats: set[WebSeat] = set()
        self.refusals: set[str] = set()  # refusals told to the host
        self.urls: list[str] = []  # what players can open, the best first
        self.hosts: set[tuple[str, int]] = set()  # Host headers served
        self.origins: set[tuple[str, str, int]] = set()  # pages whose sockets are accepted

    def tell(self, line: str) -> None:
        """One line on the host's console, every control character shown as its escape."""
        self.say(visible(line))

    def told_once(self, line: str) -> None:
        """`tell`, but each line once (and at most REFUSALS_TOLD different ones): a page
        knocking again and again does not flood the host's console."""
        if line not in self.refusals and len(self.refusals) < REFUSALS_TOLD:
            self.refusals.add(line)
            self.tell(line)

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
        runner = web.AppRunner(await self._make_app(), access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self.port = runner.addresses[0][1]  # port 0 asks for any free one
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
        lines = [f"warledger table open in browsers (listening on "
                 f"{host_port(self.host, self.port)}, up to {self.max_sessions} players)"]
        if self.given_url:
            lines.append(f"players open {self.given_url}")
        else:
            lines += [f"players open {url}" for url in self.urls
                      if not is_loopback(URL(url).host or "")]
            local = [url for url in self.urls if is_loopback(URL(url).host or "")]
            if local and len(local) == len(self.urls):
                lines.append(f"open {local[0]} (this machine only; --host 0.0.0.0 lets the "
                             "table's network in)")
            elif local:
                lines.append(f"on this machine: {local[0]}")
        if not (is_loopback(self.host) and is_loopback(URL(self.public_url).host or "")):
            lines.append(NO_LOGIN)
        return lines

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self.same_origin)
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
        websocket = request.path == "/ws"
        if not self.host_served(request) or (websocket and not self.origin_served(request)):
            what = (f"a websocket from {request.headers.get('Origin') or 'no page'}" if websocket
                    else f"a page asked as {request.headers.get('Host') or 'no host'}")
            self.told_once(f"refused {what} ({request.remote})")
            raise web.HTTPForbidden(text=FORBIDDEN.format(url=self._public_url))
        return await handler(request)

    async def handle_index(self, request: web.Request):
        # The page's socket and files at the address the browser used (one it was checked
        # to be served under), unless the host gave --public-url.
        token = _page_url.set(None if self.given_url else f"http://{request.headers['Host']}")
        try:
            return await super().handle_index(request)
        finally:
            _page_url.reset(token)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A tab sits down, unless the table is full; its process ends with its socket."""
        websocket = web.WebSocketResponse(heartbeat=15)
        if len(self.seats) >= self.max_sessions:
            await websocket.prepare(request)
            await websocket.send_bytes(
                f"{TABLE_FULL.format(max=self.max_sessions)}\r\n".encode())
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"table full")
            self.tell(f"a browser at {request.remote} turned away: the table is full")
            return websocket
        width, height = cells(to_int(request.query.get("width", "80"), 80),
                              to_int(request.query.get("height", "24"), 24))
        seat = WebSeat(self.argv, websocket, download_manager=self.download_manager)
        self.seats.add(seat)  # before any await: two tabs never take the last seat both
        try:
            await websocket.prepare(request)  # not a websocket: 400, and the seat is free
        except BaseException:
            self.seats.discard(seat)
            raise
        self.tell(f"a browser at {request.remote} sat down")
        try:
            await seat.start(width, height)
            await self._process_messages(websocket, seat)
        except ConnectionError:
            pass
        except Exception as e:  # noqa: BLE001 - a bad message from a tab ends that tab only
            self.tell(f"a browser at {request.remote} dropped: {e!r}")
        finally:
            await asyncio.shield(self.leave(seat, websocket))
        self.tell(f"a browser at {request.remote} left")
        return websocket

    async def leave(self, seat: WebSeat, websocket: web.WebSocketResponse) -> None:
        try:
            await seat.stop()
        finally:
            self.seats.discard(seat)
            with contextlib.suppress(ConnectionError, RuntimeError):
                await websocket.close()

    async def close(self) -> None:
        """Tell every tab the table is closed and close its socket: each tab's handler then
        ends its process."""
        for seat in list(self.seats):
            with contextlib.suppress(ConnectionError, RuntimeError):
                await seat.websocket.send_bytes(f"\r\n{TABLE_CLOSED}\r\n".encode())
                await seat.websocket.close(code=WSCloseCode.GOING_AWAY)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(QUIT_GRACE + 2 * STOP_GRACE):
                while self.seats:
                    await asyncio.sleep(0.05)


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
            for _, name in socket.if_nameindex():
                with contextlib.suppress(OSError):
                    request = struct.pack("256s", name.encode()[:15])
                    found.append(socket.inet_ntoa(
                        fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)[20:24]))
    unique = [a for i, a in enumerate(found) if a not in found[:i] and a not in WILDCARDS]
    return ([a for a in unique if not is_loopback(a)] + [a for a in unique if is_loopback(a)]
            or ["127.0.0.1"])


def serve(db: str | None, host: str, port: int, public_url: str | None = None,
          max_sessions: int = 16, say: Callable[[str], None] = print) -> None:
    """Serve the TUI until Ctrl+C or SIGTERM. OSError when the port cannot be had."""
    table = WebTable(web_command(db), host, port, public_url=public_url,
                     max_sessions=max_sessions, say=say)
    table.initialize_logging()
    asyncio.run(run_table(table))


async def run_table(table: WebTable) -> None:
    runner = await table.open()
    for line in table.announcement():
        table.tell(line)
    await until_stopped()
    table.tell("closing the table")
    await table.close()
    await runner.cleanup()
