"""Every SSH client in Debian seats a player (issue 49): Dropbear's `dbclient` and PuTTY's
`plink`, started for real in a pseudo-terminal of their own, each with an ed25519, an RSA
and an ECDSA key (OpenSSH's `ssh`: tests/test_hosting_abuse.py). The player sees the home
screen, a resize reaches their process, ctrl+q ends the client with 0 and frees the seat.
In the default run one key per client; all of them with `-m slow`."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

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
