"""Who may start logging in: the admission policy a host applies at its door, pure logic
with its clock and its dice given, shared by both hosts (tui.hosting.listen.Entrance runs
it at their listening sockets).

As OpenSSH admits connections that have not authenticated yet, and then some:
- **Budgets**: at most `at_most` connections logging in at once, `per_address` of them from
  one address (an IPv6 address counts by its /64: the host says which).
- **Random early drop** (OpenSSH's `MaxStartups start:rate:full`): with `start` strangers
  logging in, a new stranger is refused with probability `rate`, rising in a straight line
  to certainty when strangers hold every place but the reserved share.
- **A reserved share**: `reserved` of the places are never given to strangers. An address a
  player logged in from during this run (`logged_in`), or one the host says its keys name
  (a key's `from=`), is known: it may take any place, and is never dropped at random.
- **Penalties** (OpenSSH's `PerSourcePenalties`): an address whose connections miss their
  deadlines accrues seconds of penalty (`punish`), up to `penalty_at_most`; once it holds
  `penalty_from` seconds, every new connection from it is refused at once until they have
  run out. A known address is never penalised (OpenSSH's `PerSourcePenaltyExemptList`).
"""

from __future__ import annotations

import enum
import ipaddress
import random
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field


def budget_address(address: object) -> str:
    """Whose budget a connection counts against: its IPv4 address, or its IPv6 address's /64
    (one machine's network may hand it a whole /64). `address` is a peer's address as a
    socket gives it, or its host alone."""
    host = address[0] if isinstance(address, tuple) and address else str(address)
    try:
        ip = ipaddress.ip_address(str(host).split("%", 1)[0])
    except ValueError:
        return str(host)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def open_files_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def within_open_files(at_most: int, *, share: int, kept: int = 0, least: int = 8) -> int:
    """How many connections may wait at the door when each takes an open file: `at_most`,
    or fewer, 1/`share` of the files the process may open beyond the `kept` ones (its
    players', the database's), but never fewer than `least`."""
    soft = open_files_limit()
    if soft == resource.RLIM_INFINITY:
        return at_most
    return max(least, min(at_most, (soft - kept) // share))


class Verdict(enum.Enum):
    """What the door does with a newcomer."""

    ADMIT = "admit"
    PENALISED = "penalised"  # its address is serving a penalty: refused at once
    ADDRESS = "address"  # its address has `per_address` logging in already
    FULL = "full"  # no place for it: every place, or every stranger's place, is taken
    DROPPED = "dropped"  # random early drop


@dataclass(frozen=True)
class Policy:
    """The numbers of a door (see the module's text)."""

    at_most: int = 256
    per_address: int = 24
    reserved: int = 64  # places strangers never take
    start: int = 32  # strangers logging in before random early drop begins
    rate: float = 0.3  # the chance of a drop at `start`; 1 at at_most - reserved
    penalty_from: float = 15.0  # seconds accrued before a penalty is enforced
    penalty_at_most: float = 600.0  # seconds a penalty can accrue to
    penalised_at_most: int = 65536  # addresses remembered; past it the nearest ends go

    @classmethod
    def sized(cls, at_most: int, **settings) -> Policy:
        """A policy for `at_most` places: a quarter reserved, the drop from an eighth."""
        return cls(at_most=at_most, reserved=max(1, at_most // 4),
                   start=max(1, at_most // 8), **settings)

    @property
    def strangers_at_most(self) -> int:
        return max(0, self.at_most - self.reserved)


@dataclass(eq=False)
class Ticket:
    """One connection counted at the door, until it logs in or goes."""

    address: str
    known: bool
    at: float


@dataclass
class Penalty:
    until: float  # when it ends
    enforced: bool = False  # it reached `penalty_from` seconds: new connections refused


@dataclass
class Admission:
    """The door's state: who is logging in, who is known, who is penalised."""

    policy: Policy = field(default_factory=Policy)
    clock: Callable[[], float] = time.monotonic
    chance: Callable[[], float] = random.random  # a number in [0, 1)
    logging_in: int = 0
    strangers: int = 0
    per_address: Counter[str] = field(default_factory=Counter)
    known: set[str] = field(default_factory=set)  # addresses players logged in from
    penalties: dict[str, Penalty] = field(default_factory=dict)

    def is_known(self, address: str) -> bool:
        return address in self.known

    def ask(self, address: str, known: bool) -> Verdict:
        """What the door does with a newcomer from `address` (`known`: the host knows it,
        by a login during this run or a key's `from=`). Nothing is counted yet: `enter`."""
        policy = self.policy
        if not known and self.penalised(address):
            return Verdict.PENALISED
        if self.per_address[address] >= policy.per_address:
            return Verdict.ADDRESS
        if self.logging_in >= policy.at_most:
            return Verdict.FULL
        if known:
            return Verdict.ADMIT
        full = policy.strangers_at_most
        if self.strangers >= full:
            return Verdict.FULL
        if self.strangers >= policy.start:
            span = max(1, full - policy.start)
            drop = policy.rate + (1 - policy.rate) * (self.strangers - policy.start) / span
            if self.chance() < drop:
                return Verdict.DROPPED
        return Verdict.ADMIT

    def admit(self, address: str, known: bool,
              shed: Callable[[Callable[[Ticket], bool], Verdict], bool],
              ) -> tuple[Verdict, Ticket | None]:
        """`ask`, and enter the newcomer when admitted. At a budget, and when it would be
        dropped at random, `shed` is asked to close the host's oldest idle connection (one
        that has not said a word) among those whose ticket passes the test it is given (the
        newcomer's verdict says why), and to `leave` its ticket: then the newcomer takes its
        place. A place an idle one gives
        up is no new place, so a newcomer let in by one is never dropped at random."""
        verdict = self.ask(address, known)
        for _turn in range(2):  # a budget of its address, then the places
            if verdict is Verdict.ADDRESS:
                made_room = shed(lambda t: t.address == address, verdict)
            elif verdict in (Verdict.FULL, Verdict.DROPPED):
                made_room = (shed(lambda t: not t.known, verdict)
                             or (known and shed(lambda t: True, verdict)))
            else:
                break
            if not made_room:
                break
            verdict = self.ask(address, known)
            if verdict is Verdict.DROPPED:  # it takes the place the idle one gave up
                verdict = Verdict.ADMIT
        if verdict is not Verdict.ADMIT:
            return verdict, None
        return verdict, self.enter(address, known)

    def enter(self, address: str, known: bool) -> Ticket:
        """Count a newcomer `ask` admitted (or one a shed connection made room for)."""
        self.logging_in += 1
        self.strangers += not known
        self.per_address[address] += 1
        return Ticket(address, known, self.clock())

    def leave(self, ticket: Ticket) -> None:
        """`ticket`'s connection logged in or went: its place is free."""
        self.logging_in -= 1
        self.strangers -= not ticket.known
        self.per_address[ticket.address] -= 1
        if self.per_address[ticket.address] <= 0:
            del self.per_address[ticket.address]

    def logged_in(self, ticket: Ticket) -> None:
        """`ticket`'s connection logged in: its place is free and its address known for
        the rest of the run (any penalty it had is forgiven)."""
        self.leave(ticket)
        self.known.add(ticket.address)
        self.penalties.pop(ticket.address, None)

    def punish(self, address: str, seconds: float) -> None:
        """A connection from `address` missed a deadline: `seconds` more of penalty (none
        for a known address)."""
        if address in self.known:
            return
        now = self.clock()
        penalty = self.penalties.get(address)
        if penalty is None or penalty.until <= now:
            self.penalties.pop(address, None)
            self._make_room(now)
            penalty = self.penalties[address] = Penalty(now)
        penalty.until = min(penalty.until + seconds, now + self.policy.penalty_at_most)
        if penalty.until - now >= self.policy.penalty_from:
            penalty.enforced = True

    def penalised(self, address: str) -> float:
        """Seconds left of the penalty `address` is serving (0: none is enforced)."""
        penalty = self.penalties.get(address)
        if penalty is None:
            return 0.0
        left = penalty.until - self.clock()
        if left <= 0:
            del self.penalties[address]
            return 0.0
        return left if penalty.enforced else 0.0

    def _make_room(self, now: float) -> None:
        """Room for one more address within `penalised_at_most`: the ended penalties go,
        then those ending first, so a crowd of addresses cannot grow the host without end."""
        if len(self.penalties) < self.policy.penalised_at_most:
            return
        for address in [a for a, p in self.penalties.items() if p.until <= now]:
            del self.penalties[address]
        excess = len(self.penalties) - self.policy.penalised_at_most + 1
        if excess > 0:
            ending = sorted(self.penalties, key=lambda a: self.penalties[a].until)
            for address in ending[:excess]:
                del self.penalties[address]
