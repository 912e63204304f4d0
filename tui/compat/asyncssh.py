"""asyncssh's insides warledger relies on. asyncssh stores every environment request a client
sends (a dict on the channel, no ceiling: 8,000 requests of 30 KB grew the host by 450 MB)
and has no public hook to refuse one, so the channel's request handler is replaced here.
And it judges a client's guessed key exchange packet otherwise than RFC 4253 and its
clients do, so its KEXINIT handler is wrapped here (`judge_kex_guesses`). The SSH host
accepts its sockets itself and hands each to a connection of its own (`ServerConnection`,
`tui.compat.asyncio.hand_over`), which counts refused logins, and reads asyncssh's login deadline from the
words of the connection lost (`is_login_timeout`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import asyncssh
from asyncssh.constants import MSG_KEXINIT
from asyncssh.packet import SSHPacket

if TYPE_CHECKING:
    from asyncssh.connection import SSHConnection

# The channel's handler of "env" requests (found by name: `_process_` + request + `_request`)
# and the dict it fills, which `get_environment` reads.
ENV_REQUEST_HANDLER = "_process_env_request"
ENV_STORE = "_env"


def read_environment_requests(chan: asyncssh.SSHServerChannel,
                              keep: Callable[[bytes, bytes, int], bool]) -> None:
    """Have `chan` read each environment request as it arrives and store only those `keep`
    accepts (the name, the value, how many requests came before); the rest are refused
    (a failure the client sees if it asked for a reply) and nothing of them is kept."""
    store: dict[bytes, bytes] = getattr(chan, ENV_STORE)
    seen = 0

    def process_env_request(packet) -> bool:
        nonlocal seen
        name = packet.get_string()
        value = packet.get_string()
        packet.check_end()
        seen += 1
        if not keep(name, value, seen - 1):
            return False
        store[name] = value
        return True

    setattr(chan, ENV_REQUEST_HANDLER, process_env_request)


# The connection's table of packet handlers (a class attribute: message number -> function),
# the flag its KEXINIT handler sets to skip the client's guessed first key exchange packet,
# and the KEXINIT payloads (message number first) the client and the server sent.
PACKET_HANDLERS = "_packet_handlers"
SKIP_GUESS = "_ignore_first_kex"
CLIENT_KEXINIT = "_client_kexinit"
SERVER_KEXINIT = "_server_kexinit"


def first_choices(kexinit: bytes) -> tuple[bytes, bytes, bool]:
    """A KEXINIT payload's first key exchange algorithm, its first host key algorithm, and
    whether a guessed key exchange packet follows it (RFC 4253 §7.1)."""
    packet = SSHPacket(kexinit)
    packet.get_byte()
    packet.get_bytes(16)  # the cookie
    kex_algs = packet.get_namelist()
    host_key_algs = packet.get_namelist()
    for _ in range(8):  # ciphers, MACs, compressions, languages: each way
        packet.get_namelist()
    follows = packet.get_boolean()
    return (kex_algs[0] if kex_algs else b"", host_key_algs[0] if host_key_algs else b"",
            follows)


def guess_is_wrong(client_kexinit: bytes, server_kexinit: bytes) -> bool:
    """Whether the packet a client guessed after its KEXINIT is to be skipped: RFC 4253
    §7.1 (as OpenSSH's proposals_match and Dropbear read it), a guess is right only when
    both sides' first key exchange algorithms are the same and so are their first host
    key algorithms."""
    kex, host_key, follows = first_choices(client_kexinit)
    ours = first_choices(server_kexinit)
    return follows and (kex, host_key) != ours[:2]


def judge_kex_guesses(cls: type[asyncssh.SSHServerConnection]) \
        -> type[asyncssh.SSHServerConnection]:
    """`cls` (a server connection class; a class decorator) skips a client's wrong guess as
    the RFC says. asyncssh 2.24 takes a guess as right whenever it supports the client's
    first key exchange algorithm, even when it is not the server's first: a client that
    follows the RFC (Dropbear's dbclient guesses curve25519-sha256, asyncssh's first is
    mlkem768x25519-sha256) then sends its packet again, and asyncssh disconnects it.
    asyncssh's choice of algorithms is kept (the client's first that the server has)."""
    handlers = dict(getattr(cls, PACKET_HANDLERS))
    process_kexinit = handlers[MSG_KEXINIT]

    async def process_kexinit_judging_guess(conn, pkttype: int, pktid: int,
                                            packet: SSHPacket) -> None:
        await process_kexinit(conn, pkttype, pktid, packet)
        # Set before the next packet is read: asyncssh reads none until this one is done.
        setattr(conn, SKIP_GUESS, guess_is_wrong(getattr(conn, CLIENT_KEXINIT),
                                                 getattr(conn, SERVER_KEXINIT)))

    handlers[MSG_KEXINIT] = process_kexinit_judging_guess
    setattr(cls, PACKET_HANDLERS, handlers)
    return cls


# ---------------------------------------------------------------- a connection of our own

class ServerConnection(asyncssh.SSHServerConnection):
    """asyncssh's server connection, made by the host for a socket it accepted itself
    (asyncssh's `listen` makes its own, with no say on admission before a byte of SSH), with
    a hook on each refused login (`login_refused`), which asyncssh does not count."""

    def __init__(self, loop: asyncio.AbstractEventLoop,
                 options: asyncssh.SSHServerConnectionOptions, *,
                 acceptor: Callable[[SSHConnection], Awaitable[None] | None],
                 error_handler: Callable[[SSHConnection, Exception | None], None]) -> None:
        # asyncssh's types: it calls them with this connection
        super().__init__(loop, options, acceptor=acceptor, error_handler=error_handler)

    def login_refused(self) -> bool:
        """A login try (a key, or the first "none") was refused: True to tell the client and
        let it try again, False when the connection was closed instead."""
        return True

    def send_userauth_failure(self, partial_success: bool) -> None:
        if self.login_refused():
            super().send_userauth_failure(partial_success)


# What asyncssh says when a client is not logged in within `login_timeout` (the connection
# lost with it is the only sign of that deadline).
LOGIN_TIMEOUT = "Login timeout"


def is_login_timeout(exc: Exception | None) -> bool:
    """Whether a connection was closed by asyncssh's `login_timeout`."""
    return isinstance(exc, asyncssh.ConnectionLost) and LOGIN_TIMEOUT in str(exc)
