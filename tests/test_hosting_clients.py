"""Every SSH client in Debian seats a player (issue 49): Dropbear's `dbclient` and PuTTY's
`plink`, started for real in a pseudo-terminal of their own, and paramiko, each with an
ed25519, an RSA and an ECDSA key (OpenSSH's `ssh`: tests/test_hosting_abuse.py). The player sees the home
screen, a resize reaches their process, ctrl+q ends the client with 0 and frees the seat.
Dropbear guesses its key exchange: a bare client here checks, byte by byte, that a wrong
guess is skipped and a right one answered, as RFC 4253 §7.1 says."""

from __future__ import annotations

import asyncio
import os
import struct

import asyncssh
import pytest
from cryptography.hazmat.primitives.asymmetric import mlkem, x25519

from tests import test_hosting
from tests.ssh_clients import (
    DROPBEAR_MISSING,
    PUTTY_MISSING,
    PtyClient,
    client_environment,
    dbclient_command,
    dropbear_key,
    plink_command,
    putty_key,
    resize,
)
from tests.test_hosting import PLAYERS, SCREEN_WAIT, strip_ansi, until, window_size

# test_hosting's tables on free ports and the Friday game, with this module's keys.
data_dir, db, game = test_hosting.data_dir, test_hosting.db, test_hosting.game
open_host = test_hosting.open_host

# Whose key is of which kind: ed25519, RSA, ECDSA.
KINDS = {"Ana": "ssh-ed25519", "Bo": "ssh-rsa", "Cy": "ecdsa-sha2-nistp256"}


@pytest.fixture(scope="module")
def keys() -> dict[str, asyncssh.SSHKey]:
    """Ana's key is ed25519, Bo's RSA, Cy's ECDSA (P-256); the others ed25519."""
    return {name: asyncssh.generate_private_key(KINDS.get(name, "ssh-ed25519"),
                                                comment=f"{name.lower()}@laptop")
            for name in [*PLAYERS, "stranger"]}


def kinds(default: str) -> list:
    """Each player of KINDS; those but `default`'s only with `-m slow`."""
    return [pytest.param(name, id=KINDS[name].split("-")[0 if "ecdsa" in KINDS[name] else 1],
                         marks=() if name == default else pytest.mark.slow)
            for name in KINDS]


async def seated_then_quit(table, client: PtyClient, player: str) -> None:
    """The client's terminal shows `player`'s home screen; a resize reaches their process;
    ctrl+q ends the client with status 0 and the seat is free."""
    try:
        await client.wait_for(f"you are {player}", SCREEN_WAIT, strip_ansi)
        await client.wait_for("New Struggle of Empires", SCREEN_WAIT, strip_ansi)
        (seat,) = table.seats
        assert window_size(seat.master) == (100, 30)
        client.forget()
        resize(client.master, (120, 40))
        await until(lambda: window_size(seat.master) == (120, 40), timeout=10)
        await client.wait_for("New Struggle of Empires", 10, strip_ansi)
        client.write(b"\x11")  # ctrl+q
        assert await asyncio.wait_for(client.process.wait(), 10) == 0
        await until(lambda: not table.seats, timeout=10)
    finally:
        await client.stop()


@pytest.mark.skipif(DROPBEAR_MISSING is not None, reason=DROPBEAR_MISSING or "")
@pytest.mark.parametrize("player", kinds(default="Ana"))
async def test_dbclient_seats_a_player(open_host, keys, tmp_path, player):
    """Dropbear's client guesses its key exchange (a packet sent before the server's
    KEXINIT arrives): before the fix it was disconnected whatever its key."""
    table, _ = await open_host()
    identity = dropbear_key(keys[player], tmp_path / "keys", player)
    client = await PtyClient.start(dbclient_command(table.port, identity),
                                   client_environment(tmp_path / "home"))
    await seated_then_quit(table, client, player)


@pytest.mark.skipif(PUTTY_MISSING is not None, reason=PUTTY_MISSING or "")
@pytest.mark.parametrize("player", kinds(default="Bo"))
async def test_plink_seats_a_player(open_host, keys, tmp_path, player):
    """PuTTY's plink, told the host key's fingerprint as the host prints it."""
    table, host_key = await open_host()
    identity = putty_key(keys[player], tmp_path / "keys", player)
    client = await PtyClient.start(plink_command(table.port, identity, host_key),
                                   client_environment(tmp_path / "home"))
    await seated_then_quit(table, client, player)


# ---------------------------------------------------------------- a client's guess

MSG_DISCONNECT, MSG_KEXINIT, MSG_NEWKEYS = 1, 20, 21
MSG_KEX_ECDH_INIT, MSG_KEX_ECDH_REPLY = 30, 31
CURVE25519, MLKEM768X25519 = b"curve25519-sha256", b"mlkem768x25519-sha256"


def string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def kexinit(kex_algs: list[bytes], host_key_algs: list[bytes], follows: bool) -> bytes:
    """A client's KEXINIT (RFC 4253 §7.1): no strict kex, no extensions."""
    lists = [kex_algs, host_key_algs, *[[b"aes128-ctr"]] * 2, *[[b"hmac-sha2-256"]] * 2,
             *[[b"none"]] * 2, [], []]
    return (bytes([MSG_KEXINIT]) + os.urandom(16)
            + b"".join(string(b",".join(names)) for names in lists)
            + bytes([follows]) + bytes(4))


def ecdh_init(kex_alg: bytes) -> bytes:
    """A client's first key exchange packet for `kex_alg`, with a fresh public key (ML-KEM's
    and X25519's, one after the other, for the hybrid)."""
    public = x25519.X25519PrivateKey.generate().public_key().public_bytes_raw()
    if kex_alg == MLKEM768X25519:
        public = mlkem.MLKEM768PrivateKey.generate().public_key().public_bytes_raw() + public
    return bytes([MSG_KEX_ECDH_INIT]) + string(public)


def framed(payload: bytes) -> bytes:
    """An SSH packet before any keys: length, padding length, payload, 4+ bytes padding."""
    padding = 8 - (len(payload) + 5) % 8
    padding += 8 if padding < 4 else 0
    return struct.pack(">IB", len(payload) + 1 + padding, padding) + payload + bytes(padding)


async def read_payload(reader: asyncio.StreamReader) -> bytes:
    (length,) = struct.unpack(">I", await reader.readexactly(4))
    body = await reader.readexactly(length)
    return body[1:length - body[0]]


def first_names(payload: bytes) -> tuple[bytes, bytes]:
    """A KEXINIT's first key exchange and first host key algorithm."""
    at, firsts = 17, []
    for _ in range(2):
        (length,) = struct.unpack(">I", payload[at:at + 4])
        firsts.append(payload[at + 4:at + 4 + length].split(b",")[0])
        at += 4 + length
    return firsts[0], firsts[1]


async def key_exchange(port: int, guess) -> list[int]:
    """A bare client: its KEXINIT (from `guess(server's first kex, first host key)`: the
    client's algorithms and its guessed packet, or None for no guess), then, when the guess
    is not the server's firsts, its real first packet; returns the server's message numbers
    after its KEXINIT, until NEWKEYS, a DISCONNECT or the end."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"SSH-2.0-guesser\r\n")
        assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
        theirs = await asyncio.wait_for(read_payload(reader), 10)
        assert theirs[0] == MSG_KEXINIT
        kex_algs, host_key_algs, guessed = guess(*first_names(theirs))
        writer.write(framed(kexinit(kex_algs, host_key_algs, guessed is not None)))
        if guessed is not None:
            writer.write(framed(guessed))
        if (kex_algs[0], host_key_algs[0]) != first_names(theirs):
            writer.write(framed(ecdh_init(kex_algs[0])))  # what the client meant
        answers: list[int] = []
        while not answers or answers[-1] not in (MSG_NEWKEYS, MSG_DISCONNECT):
            try:
                answers.append((await asyncio.wait_for(read_payload(reader), 10))[0])
            except asyncio.IncompleteReadError:
                break
        return answers
    finally:
        writer.close()


def other_kex(first: bytes) -> bytes:
    return CURVE25519 if first != CURVE25519 else MLKEM768X25519


@pytest.mark.parametrize("wrong", ["kex", "host-key"])
async def test_a_wrong_guess_is_skipped_and_the_real_packet_answered(open_host, wrong):
    """The client's first key exchange algorithm (or its first host key algorithm) is not
    the server's, so its guessed packet, here not even a key, is skipped unread and the
    packet it sends next is answered. Before, asyncssh read the guess whenever it supported
    the client's first algorithm, and disconnected it (as it did Dropbear's client)."""
    table, _ = await open_host()

    def guess(kex: bytes, host_key: bytes):
        if wrong == "kex":  # the client prefers another exchange the server has
            return [other_kex(kex), kex], [host_key], bytes([MSG_KEX_ECDH_INIT]) + string(b"?")
        return [kex], [b"rsa-sha2-512", host_key], bytes([MSG_KEX_ECDH_INIT]) + string(b"?")

    assert await key_exchange(table.port, guess) == [MSG_KEX_ECDH_REPLY, MSG_NEWKEYS]


async def test_a_right_guess_is_answered_and_the_strongest_exchange_kept(open_host):
    """Both sides' firsts are the same: the guessed packet is the real one, answered. The
    server's first is still the post-quantum hybrid, which a client offering it gets
    (asyncssh takes the client's first that it has; its own order decides no choice)."""
    table, _ = await open_host()
    firsts: list[bytes] = []

    def guess(kex: bytes, host_key: bytes):
        firsts.append(kex)
        return [kex, other_kex(kex)], [host_key], ecdh_init(kex)

    assert await key_exchange(table.port, guess) == [MSG_KEX_ECDH_REPLY, MSG_NEWKEYS]
    assert firsts == [MLKEM768X25519]


def test_only_the_tables_connections_judge_guesses_otherwise():
    """The table's connections (Door) have their own table of handlers; asyncssh's own, which
    other code in the process may use, is left as it was."""
    from tui.compat.asyncssh import PACKET_HANDLERS
    from tui.hosting.ssh import Door

    ours = getattr(Door, PACKET_HANDLERS)
    theirs = getattr(asyncssh.SSHServerConnection, PACKET_HANDLERS)
    assert ours is not theirs and ours[MSG_KEXINIT] is not theirs[MSG_KEXINIT]
    assert {n: f for n, f in ours.items() if n != MSG_KEXINIT} == {
        n: f for n, f in theirs.items() if n != MSG_KEXINIT}


# ---------------------------------------------------------------- paramiko

PARAMIKO_KEYS = {"ssh-ed25519": "Ed25519Key", "ssh-rsa": "RSAKey",
                 "ecdsa-sha2-nistp256": "ECDSAKey"}


def paramiko_seats(port: int, key: asyncssh.SSHKey, player: str) -> str:
    """A player's session through paramiko (the library many Python tools and GUI clients
    use), in a thread: a pty of 100x30, the home screen awaited, then ctrl+q; what the
    client read, escapes stripped."""
    import io
    import time

    import paramiko

    kind = PARAMIKO_KEYS[key.get_algorithm()]
    pkey = getattr(paramiko, kind).from_private_key(
        io.StringIO(key.export_private_key("openssh").decode()))
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect("127.0.0.1", port, username=player.lower(), pkey=pkey,
                   allow_agent=False, look_for_keys=False, timeout=10)
    try:
        chan = client.invoke_shell(term="xterm-256color", width=100, height=30)
        seen, deadline = b"", time.monotonic() + SCREEN_WAIT
        # The header names the player; the footer's keys come a frame after (as Textual's).
        while not all(text in strip_ansi(seen)
                      for text in (f"you are {player}", "New Struggle of Empires")):
            assert time.monotonic() < deadline, strip_ansi(seen)[-500:]
            if chan.recv_ready():
                seen += chan.recv(65536)
            else:
                time.sleep(0.05)
        chan.send(b"\x11")  # ctrl+q
        deadline = time.monotonic() + 10
        while not chan.exit_status_ready() and not chan.closed:
            assert time.monotonic() < deadline, "ctrl+q did not end the session"
            if chan.recv_ready():
                seen += chan.recv(65536)
            time.sleep(0.05)
        return strip_ansi(seen)
    finally:
        client.close()


@pytest.mark.parametrize("player", kinds(default="Cy"))
async def test_paramiko_seats_a_player(open_host, keys, player):
    """paramiko, with each kind of key: the home screen, then ctrl+q frees the seat."""
    pytest.importorskip("paramiko")
    table, _ = await open_host()
    await asyncio.to_thread(paramiko_seats, table.port, keys[player], player)  # home shown
    await until(lambda: not table.seats, timeout=10)
