"""The web host's door (`warledger serve web`): its connections as the shared door admits them
(tui.hosting.listen.Entrance, its budgets in tui.hosting.door), each waiting until its
websocket sits down, with a short deadline.

Every accepted connection waits until its websocket sits down (`sat_down`): at most
`at_most` wait at once (fewer with few open files: `waiting_budget`) and `per_address` from
one address, the oldest closed to make room for the newest (one that has asked nothing
first, a page in a browser's keep-alive last), and a waiting connection is closed `deadline`
seconds after it was accepted or last asked for something.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass

from i18n import N_, _
from tui.hosting.door import Admission, Policy, Ticket, Verdict, within_open_files
from tui.hosting.listen import Entrance

WAITING_AT_MOST = 256  # at once, from everywhere
WAITING_PER_ADDRESS = 32  # at once, from one address or IPv6 /64 (a browser opens about
# six at once: a few players behind one router load their pages together)
WAITING_DEADLINE = 10.0  # seconds from accepting, or from its last request, to sit down
ACCEPT_PAUSE = 0.5  # seconds the door waits when the process is out of file descriptors
BACKLOG = 511
FILES_KEPT = 64  # file descriptors kept for the rest (the database, logs, the loop's own)
FILES_PER_SEAT = 4  # a seated tab: its socket and its app's three pipes


def waiting_budget(max_sessions: int) -> int:
    """How many connections may wait to sit down at once, within the open-files limit: half
    of what the seats and the rest leave, and WAITING_AT_MOST at most."""
    return within_open_files(WAITING_AT_MOST, share=2,
                             kept=FILES_KEPT + FILES_PER_SEAT * max_sessions)


def summed_up(kind: str, last: str, count: int, seconds: float) -> str:
    """The console's line for `count` refusals of `kind` (a plural: "connections closed for
    ...") counted in `seconds` (tui.hosting.tally)."""
    # TRANSLATORS: {kind} is a kind of refusal, plural ("connections closed for not
    # asking anything in time").
    return _("... and {count} more {kind} in the last {seconds} s").format(
        count=count, kind=_(kind), seconds=f"{seconds:g}")


@dataclass
class Waiting:
    """A connection that has not sat down: its handler, and its deadline."""

    conn: asyncio.Protocol  # aiohttp's handler of its requests
    transport: asyncio.Transport
    address: str
    deadline: asyncio.TimerHandle | None = None
    served: bool = False  # it has asked for something (a page, a file)


class WebEntrance(Entrance):
    """The web host's door: a connection admitted is handed to aiohttp's handler (`serve`,
    the runner's server), and waits until its websocket sits down."""

    def __init__(self, serve: Callable[[], asyncio.Protocol], listeners: list[socket.socket],
                 tally: Callable[[str, str], None], *, at_most: int = WAITING_AT_MOST,
                 per_address: int = WAITING_PER_ADDRESS,
                 deadline: float = WAITING_DEADLINE) -> None:
        # No share kept for known addresses and no drop at random: the oldest waiting
        # connection always makes room for the newest.
        policy = Policy(at_most=at_most, per_address=per_address, reserved=0, start=at_most)
        super().__init__(listeners, Admission(policy), tally, pause=ACCEPT_PAUSE)
        self.serve = serve
        self.deadline = deadline
        self.transports: dict[asyncio.BaseTransport, Waiting] = {}  # each waiting one's
        self.handlers: dict[asyncio.Protocol, Waiting] = {}

    def known(self, host: str, address: str) -> bool:
        return False

    def enter(self, transport: asyncio.Transport) -> asyncio.Protocol | None:
        for closing in [t for t in self.transports if t.is_closing()]:
            self.forget(self.transports[closing].conn)
        return super().enter(transport)

    def let_in(self, transport: asyncio.Transport, host: str,
               ticket: Ticket) -> asyncio.Protocol:
        waiting = Waiting(self.serve(), transport, ticket.address)
        self.transports[transport] = self.handlers[waiting.conn] = waiting
        self.restart(waiting)
        return waiting.conn

    def turn_away(self, transport: asyncio.Transport, verdict: Verdict, host: str,
                  address: str) -> None:
        transport.abort()
        self.tally(N_("connections turned away at the door"),
                   _("turned away a connection from {host}: {n} are waiting to sit down "
                     "already").format(host=host, n=self.admission.logging_in))

    def idleness(self, conn: asyncio.Protocol) -> int | None:
        return int(self.handlers[conn].served)  # one that has asked nothing goes first

    def drop(self, conn: asyncio.Protocol, ticket: Ticket, verdict: Verdict | None) -> None:
        self.handlers[conn].transport.abort()
        if verdict is Verdict.ADDRESS:
            self.tally(N_("connections closed over the budget of one address"),
                       _("closed the oldest waiting connection from {address}: at most {n} "
                         "from one address may wait to sit down").format(
                           address=ticket.address, n=self.admission.policy.per_address))
        elif verdict is not None:
            self.tally(N_("connections closed over the budget of all addresses"),
                       _("closed the oldest waiting connection (from {address}): at most {n} "
                         "may wait to sit down at once").format(
                           address=ticket.address, n=self.admission.policy.at_most))

    def forget(self, conn: asyncio.Protocol, logged_in: bool = False) -> Ticket | None:
        waiting = self.handlers.pop(conn, None)
        if waiting is not None:
            del self.transports[waiting.transport]
            if waiting.deadline is not None:
                waiting.deadline.cancel()
        return super().forget(conn, logged_in)

    def close(self) -> None:
        super().close()
        for waiting in self.transports.values():
            if waiting.deadline is not None:
                waiting.deadline.cancel()

    # ------------------------------------------------------------ what the table says

    def served(self, transport: asyncio.BaseTransport | None) -> None:
        """A request arrived on a waiting connection: its deadline starts again."""
        waiting = self.transports.get(transport)  # type: ignore[arg-type]
        if waiting is not None:
            waiting.served = True
            self.restart(waiting)

    def sat_down(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection's websocket sat down: it no longer waits (the seats are capped)."""
        waiting = self.transports.get(transport)  # type: ignore[arg-type]
        if waiting is not None:
            self.forget(waiting.conn)

    def restart(self, waiting: Waiting) -> None:
        if waiting.deadline is not None:
            waiting.deadline.cancel()
        waiting.deadline = self.loop.call_later(self.deadline, self.expire, waiting)

    def expire(self, waiting: Waiting) -> None:
        if self.handlers.get(waiting.conn) is not waiting:
            return
        self.forget(waiting.conn)
        if waiting.transport.is_closing():
            return
        waiting.transport.abort()
        if not waiting.served:  # a browser's idle keep-alive connection is no refusal
            self.tally(N_("connections closed for not asking anything in time"),
                       _("closed a connection from {address} that asked nothing within "
                         "{seconds} s").format(address=waiting.address,
                                               seconds=f"{self.deadline:g}"))
