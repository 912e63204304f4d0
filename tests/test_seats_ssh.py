"""Two players over SSH (OpenSSH's `ssh` in a pseudo-terminal each, as on a phone's SSH app)
at 40x20 each type their own upkeep and press Enter: one upkeep step, both rows (issue 45)."""

from __future__ import annotations

import asyncio

import pytest

from storage.engine import make_engine
from storage.ledger import Ledger
from tests import test_hosting
from tests.at_head import new_database
from tests.openssh import SSH, key_file, ssh_command
from tests.ssh_clients import PtyClient, client_environment, resize
from tests.test_hosting import SCREEN_WAIT, strip_ansi, until
from tests.test_seats import at_upkeep, upkeep_of

# test_hosting's tables on free ports, the players' keys and the host's data folder.
keys, data_dir, db, open_host = (test_hosting.keys, test_hosting.data_dir, test_hosting.db,
                                 test_hosting.open_host)
PHONE = (40, 20)


@pytest.fixture
def game(db) -> int:
    """Ana (France) and Bo (Britain) at war 1's upkeep: the table's only game."""
    return at_upkeep(Ledger(make_engine(new_database(db))), players=2, title="Friday")


@pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh client")
async def test_two_players_at_40x20_over_ssh_each_enter_their_upkeep_one_step(
        open_host, keys, tmp_path, db, game):
    table, _ = await open_host()
    env = client_environment(tmp_path / "home")
    clients = {}
    try:
        for name in ("Ana", "Bo"):
            identity = key_file(keys[name], tmp_path / "client-keys", name)
            clients[name] = await PtyClient.start(ssh_command(table.port, identity), env,
                                                  size=(80, 24))
        for name, client in clients.items():
            await client.wait_for(f"you are {name}", SCREEN_WAIT, strip_ansi)
            await client.wait_for("Friday", SCREEN_WAIT, strip_ansi)
            client.forget()
            client.write(b"\r")  # open the highlighted game, the only one
            await client.wait_for("Upkeep", SCREEN_WAIT, strip_ansi)
            client.forget()
            resize(client.master, PHONE)  # the phone in portrait: the seat's own form
            await client.wait_for("Tax tokens drawn", SCREEN_WAIT, strip_ansi)
        # Each types their armies, fleets and forts, then Enter: at once.
        clients["Ana"].write(b"310\r")
        clients["Bo"].write(b"241\r")
        ledger = Ledger(make_engine(db))
        await until(lambda: ledger.head(game) > 1, timeout=SCREEN_WAIT)
        await clients["Ana"].wait_for("Population", SCREEN_WAIT, strip_ansi)
    finally:
        await asyncio.gather(*(client.stop() for client in clients.values()))
    step = upkeep_of(ledger, game)
    assert step["units"] == {"France": {"armies": 3, "fleets": 1, "fortresses": 0},
                             "Britain": {"armies": 2, "fleets": 4, "fortresses": 1}}
    assert [s.kind for s in ledger.step_log(game)].count("upkeep") == 1
    assert {a for _seq, kind, a in ledger.authors(game) if kind == "upkeep"} <= {"Ana", "Bo"}
