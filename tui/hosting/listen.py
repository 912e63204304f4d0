"""A host's listening sockets and its door, for both hosts: the loop that accepts on them and
the admission of every connection it accepts (tui.hosting.door), before a byte of the host's
own protocol (SSH, or HTTP and its websockets).

asyncio's own accept loop logs and retries a hundred times a tick when the process is out
of open files. This one accepts up to ACCEPTED_AT_ONCE at a time; out of open files, it
closes the connection at the door that has been idle longest, if one may go, else it waits
`pause` seconds (OUT_OF_FILES_PAUSE), and goes on. Each accepted connection is admitted by
the door's policy (budgets in all and per address, with a host's idle connections shed to
make room) and waits at the door until the host says it is in (`forget`). Every refusal is
one line on the host's console per interval of its kind (tui.hosting.tally).

A host says what is its own (`Entrance`'s methods to give): the protocol a connection
admitted runs, the line a connection turned away gets, how idle a waiting connection is,
and how one is closed to make room.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from collections.abc import Callable
from typing import Any

from i18n import N_, _
from tui.compat.asyncio import hand_over
from tui.hosting.door import Admission, Ticket, Verdict, budget_address, open_files_limit

OUT_OF_FILES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
OUT_OF_FILES_PAUSE = 0.5  # seconds the door stays shut when the host is out of open files
ACCEPTED_AT_ONCE = 64  # connections accepted in one go before the loop does anything else
FILES = N_("times out of open files")  # the tally's kind


async def listening_sockets(host: str, port: int, backlog: int) -> list[socket.socket]:
    """Bound, listening, non-blocking sockets for every address `host` names ("" or
    0.0.0.0 as asyncio's create_server reads them), all on one port (the first one's, for
    port 0)."""
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


class Gate(asyncio.Protocol):
    """A connection just accepted: the Entrance lets it in (the transport is handed to the
    host's protocol) or turns it away, before a byte of that protocol."""

    def __init__(self, entrance: Entrance) -> None:
        self.entrance = entrance

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        conn = self.entrance.enter(transport)  # type: ignore[arg-type]
        if conn is not None:
            hand_over(transport, conn)


class Entrance:
    """The listening sockets, their accept loop, and the connections waiting at the door,
    each with its ticket (`waiting`, the oldest first). A host subclasses it with its own
    protocol: `let_in`, `turn_away`, `idleness` and `drop`."""

    def __init__(self, listeners: list[socket.socket], admission: Admission,
                 tally: Callable[[str, str], None], *,
                 pause: float = OUT_OF_FILES_PAUSE) -> None:
        self.listeners = listeners
        self.admission = admission
        self.tally = tally
        self.pause = pause
        self.loop = asyncio.get_running_loop()
        self.waiting: dict[Any, Ticket] = {}  # a connection at the door: its place
        self.closed = False
        for listener in listeners:
            self.loop.add_reader(listener.fileno(), self._accept, listener)

    # ------------------------------------------------------------ the host's own

    def known(self, host: str, address: str) -> bool:
        """Whether a newcomer from `host` (counted as `address`) is known at the door."""
        return self.admission.is_known(address)

    def let_in(self, transport: asyncio.Transport, host: str,
               ticket: Ticket) -> asyncio.Protocol:
        """The host's protocol for a connection the door admitted."""
        raise NotImplementedError

    def turn_away(self, transport: asyncio.Transport, verdict: Verdict, host: str,
                  address: str) -> None:
        """Tell a connection the door refused, and its host; then close it."""
        raise NotImplementedError

    def idleness(self, conn: Any) -> int | None:
        """How idle a connection at the door is, 0 the idlest: the lowest goes first when
        room is needed (the oldest of them); None, never."""
        raise NotImplementedError

    def drop(self, conn: Any, ticket: Ticket, verdict: Verdict | None) -> None:
        """Close `conn` to make room (its place is freed next), and tell the host why:
        for a newcomer the door gave `verdict`, or, with None, for lack of open files."""
        raise NotImplementedError

    # ------------------------------------------------------------ the door

    @property
    def port(self) -> int:
        return self.listeners[0].getsockname()[1]

    def get_port(self) -> int:
        return self.port

    def close(self) -> None:
        """Stop accepting; the connections already in stay (their host closes those)."""
        if self.closed:
            return
        self.closed = True
        for listener in self.listeners:
            with contextlib.suppress(ValueError, OSError):
                self.loop.remove_reader(listener.fileno())
            listener.close()

    async def wait_closed(self) -> None:
        return

    def enter(self, transport: asyncio.Transport) -> asyncio.Protocol | None:
        """A connection at the door, as the admission policy says: the host's protocol when
        admitted (an idle one dropped to make room at a budget); else it is turned away."""
        host = str((transport.get_extra_info("peername") or ("?",))[0])
        address = budget_address(host)
        verdict, ticket = self.admission.admit(
            address, self.known(host, address),
            lambda which, why: self.make_room(lambda conn: which(self.waiting[conn]), why))
        if ticket is None:
            self.turn_away(transport, verdict, host, address)
            return None
        conn = self.let_in(transport, host, ticket)
        self.waiting[conn] = ticket
        return conn

    def make_room(self, which: Callable[[Any], bool] | None, verdict: Verdict | None) -> bool:
        """Drop the idlest connection at the door (the oldest of them) among those `which`
        passes (all, with None). False when none may go."""
        idlest, least = None, None
        for conn in self.waiting:  # the oldest first
            if which is not None and not which(conn):
                continue
            idle = self.idleness(conn)
            if idle is None or (least is not None and idle >= least):
                continue
            idlest, least = conn, idle
            if idle == 0:  # none is idler
                break
        if idlest is None:
            return False
        self.drop(idlest, self.waiting[idlest], verdict)
        self.forget(idlest)
        return True

    def forget(self, conn: Any, logged_in: bool = False) -> Ticket | None:
        """`conn` no longer waits at the door: its place is free; `logged_in` as a player,
        its address is known from now on (Admission.logged_in)."""
        ticket = self.waiting.pop(conn, None)
        if ticket is not None:
            (self.admission.logged_in if logged_in else self.admission.leave)(ticket)
        return ticket

    # ------------------------------------------------------------ accepting

    def _accept(self, listener: socket.socket) -> None:
        for _turn in range(ACCEPTED_AT_ONCE):
            try:
                sock, _address = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as e:
                if e.errno in OUT_OF_FILES:
                    wait = self._out_of_files(e)
                else:
                    self.tally(N_("errors accepting connections"),
                               _("could not accept a connection: {error}").format(
                                   error=e.strerror or e))
                    wait = self.pause
                self._pause(listener, wait)
                return
            self._admit(sock)

    def _out_of_files(self, e: OSError) -> float:
        """Out of open files (or of memory for sockets): the idlest waiting connection gives
        its file to the next, and the door opens again as the loop turns; with none, the
        door waits `pause` seconds. Returns how long it waits."""
        made_room = self.make_room(None, None)
        said = {"error": e.strerror, "n": open_files_limit(), "seconds": f"{self.pause:g}"}
        files = e.errno in (errno.EMFILE, errno.ENFILE)
        if made_room:
            # TRANSLATORS: {error} is the system's words, {n} a number of files.
            line = (_("out of open files ({error}; this process may open {n} files): an idle "
                      "connection was closed for a newer one") if files else
                    _("out of memory for sockets ({error}; this process may open {n} files): "
                      "an idle connection was closed for a newer one"))
        else:
            line = (_("out of open files ({error}; this process may open {n} files): new "
                      "connections wait {seconds} s") if files else
                    _("out of memory for sockets ({error}; this process may open {n} files): "
                      "new connections wait {seconds} s"))
        self.tally(FILES, line.format(**said))
        return 0.0 if made_room else self.pause

    def _pause(self, listener: socket.socket, seconds: float) -> None:
        with contextlib.suppress(ValueError, OSError):
            self.loop.remove_reader(listener.fileno())
        self.loop.call_later(seconds, self._resume, listener)

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
