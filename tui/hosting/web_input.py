"""A browser tab's input to its app (`warledger serve web`), under a fixed ceiling: a message
is at most MESSAGE_AT_MOST, one the app cannot take is ignored in one line, a bracketed paste
is ended at PASTE_AT_MOST (Pastes), and a message that waits `stall_at_most` for the app is a
flood, and closes the tab. A tab's socket is watched while it is not read (until_hung_up).
"""

from __future__ import annotations

import asyncio
import json
import select
from collections.abc import Callable
from typing import Protocol, TypeGuard

from aiohttp import WSCloseCode, WSMsgType, web

from i18n import N_, _
from tui.hosting.web_console import one_line


class WebSeat(Protocol):
    """What a tab's input asks of its app (tui.hosting.web.WebSeat): named here, so that the
    table's module imports this one and not the other way round."""

    close_code: WSCloseCode  # how its socket is closed when the tab leaves
    quit_grace: float  # how long its app gets to quit by itself

    async def type(self, text: str) -> bool: ...

    async def set_terminal_size(self, width: int, height: int) -> None: ...

    async def focus(self) -> None: ...

    async def blur(self) -> None: ...

MESSAGE_AT_MOST = 64 * 1024  # bytes of one websocket message; a longer one closes the tab
PASTE_AT_MOST = 64 * 1024  # characters of one bracketed paste; past them it is ended
PING_AT_MOST = 64  # characters of a ping's token (the page sends a timestamp)
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
HANGUP_LOOK = 0.2  # seconds between looks at a socket that is not being read


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



async def read_tab(request: web.Request, websocket: web.WebSocketResponse, seat: WebSeat,
               tally: Callable[[str, str], None], stall_at_most: float) -> None:
    """textual-serve's `_process_messages`, each message checked: one the app cannot
    take (a size that is not two whole numbers, a message of no known kind) is ignored
    and told in one line. A message longer than MESSAGE_AT_MOST closes the tab (1009).
    Reading waits while the app's pipe is full (backpressure on the socket), and a
    message that waits `stall_at_most` closes the tab (1008)."""
    async for message in websocket:
        if message.type == WSMsgType.ERROR:
            if getattr(message.data, "code", None) == WSCloseCode.MESSAGE_TOO_BIG:
                tally(N_("tabs closed for a message too long"),
                           _("closed the tab of the browser at {address}: it sent a "
                             "message of more than {n} bytes").format(
                               address=request.remote, n=MESSAGE_AT_MOST))
            return
        if message.type != WSMsgType.TEXT:
            continue
        try:
            why = await asyncio.wait_for(take(message.data, websocket, seat),
                                         stall_at_most)
        except TimeoutError:
            tally(N_("tabs closed for sending more than their app could take"),
                       _("closed the tab of the browser at {address}: its input waited on "
                         "its app for {seconds} s (a flood)").format(
                           address=request.remote, seconds=f"{stall_at_most:g}"))
            seat.close_code = WSCloseCode.POLICY_VIOLATION  # and no quitting nicely:
            seat.quit_grace = 0.0  # what the app has to take first will take minutes
            return
        if why:
            tally(N_("messages ignored that a tab's app cannot take"),
                       _("ignored a message from the browser at {address}: {reason}")
                       .format(address=request.remote, reason=why))

async def take(data: str, websocket: web.WebSocketResponse, seat: WebSeat) -> str:
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


def whole(value: object) -> TypeGuard[int]:
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
