"""Each player reads their own language at a hosted table (issue 24): over SSH, a key line's
lang=, else the locale the client sends, else the host's; in a browser, ?lang= on the page,
else Accept-Language, else the host's. A real asyncssh client and a real aiohttp client on
loopback, as in tests/test_hosting.py, whose fixtures these are."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import asyncssh
import pytest

from i18n import set_language, translation_of
from storage.engine import make_engine
from storage.ledger import Ledger
from tests import test_hosting
from tests.test_hosting import (
    PLAYERS,
    Terminal,
    connect,
    environ_of,
    page,
    public,
    screen_of,
)
from tests.waiting import until
from tui.games.soe.game import STEP_TITLES
from tui.hosting.keys import read_players
from tui.hosting.ssh_terminal import NO_TERMINAL, TABLE_FULL, player_language
from tui.hosting.web import tab_language

# test_hosting's fixtures: the players' keys, the table's database with the Friday game (war
# 1, population), a table served in this process, a web table.
keys, data_dir, db, game = (test_hosting.keys, test_hosting.data_dir, test_hosting.db,
                            test_hosting.game)
open_host, host, open_web = test_hosting.open_host, test_hosting.host, test_hosting.open_web


SOE_NAME = "Struggle of Empires"  # a game's name, the same in every language


def ro(message: str) -> str:
    """`message` in Romanian; the test fails if it has no Romanian translation."""
    said = translation_of("ro").gettext(message)
    assert said != message, f"no Romanian for {message!r}"
    return said


async def sit_down_in(port: int, key: asyncssh.SSHKey, env: dict[str, str],
                      size=(120, 40)):
    """Connect with a pty, sending `env` as `ssh` sends the locale (SendEnv LANG LC_*)."""
    conn = await connect(port, key)
    chan, terminal = await conn.create_session(
        Terminal, term_type="xterm-256color", term_size=size, encoding=None, env=env)
    return conn, chan, terminal


def keys_file(path: Path, keys: dict[str, asyncssh.SSHKey], options: dict[str, str]) -> None:
    """Every player's line, with `options` in front of some: {"Cy": 'lang="ro"'}."""
    path.write_text("".join(
        f'{options[name] + "," if name in options else ""}player="{name}" '
        f"{public(keys[name])}\n" for name in PLAYERS))


# ---------------------------------------------------------------- SSH

@pytest.mark.slow
async def test_two_players_each_read_their_own_language_and_see_the_same_step(
        host, keys, db, game):
    """Ana's client sends LANG=ro_RO.UTF-8, Bo's LANG=en_GB.UTF-8: both open Friday, each
    in their language; Ana records the population step and both screens go on to the end
    of war, each in its own words."""
    (ana, ana_chan, ana_sees), (bo, bo_chan, bo_sees) = await asyncio.gather(
        sit_down_in(host.port, keys["Ana"], {"LANG": "ro_RO.UTF-8"}),
        sit_down_in(host.port, keys["Bo"], {"LANG": "en_GB.UTF-8"}))
    await asyncio.gather(
        ana_sees.wait_for(ro("you are {player}").format(player="Ana"), "Friday"),
        bo_sees.wait_for("you are Bo", "Friday"))
    for chan, terminal in ((ana_chan, ana_sees), (bo_chan, bo_sees)):
        terminal.forget()
        chan.write(b"\r")  # open the highlighted game, the only one
    await asyncio.gather(ana_sees.wait_for(ro("France"), ro("Britain")),
                         bo_sees.wait_for("France", "Britain"))
    assert ro("France") not in bo_sees.text
    ana_sees.forget()
    bo_sees.forget()
    ana_chan.write(b"\r")  # Ana confirms the population step; scoring follows by itself
    await asyncio.gather(ana_sees.wait_for(ro(STEP_TITLES["end_war"])),
                         bo_sees.wait_for(STEP_TITLES["end_war"]))
    assert Ledger(make_engine(db)).authors(game)[-2:] == [(3, "population", "Ana"),
                                                          (4, "scoring", "Ana")]
    ana.close()
    bo.close()


@pytest.mark.slow
async def test_a_key_lines_lang_wins_over_the_locale_the_client_sends(
        open_host, data_dir, keys):
    table, _fingerprint = await open_host()
    keys_file(data_dir / "authorized_keys", keys, {"Cy": 'lang="ro"'})
    conn, chan, terminal = await sit_down_in(table.port, keys["Cy"], {"LANG": "en_GB.UTF-8"})
    await terminal.wait_for(ro("you are {player}").format(player="Cy"))
    (seat,) = table.seats
    assert seat.language == "ro"
    conn.close()


async def test_what_the_server_tells_a_player_is_in_their_language(open_host, data_dir, keys):
    """A command is refused (no child starts): in Romanian for a client whose LC_ALL says
    so, whatever its LANG, and in the host's language for a locale with no catalog."""
    table, _fingerprint = await open_host()
    for locale, words in (({"LC_ALL": "ro_RO.UTF-8", "LANG": "en_US.UTF-8"}, ro(NO_TERMINAL)),
                          ({"LANG": "fr_FR.UTF-8"}, NO_TERMINAL),
                          ({"LANG": "ro_RO.UTF-8\n\x1b[2J"}, NO_TERMINAL)):
        conn = await connect(table.port, keys["Di"])
        async with conn:
            result = await asyncio.wait_for(conn.run("warledger sessions", env=locale), 10)
        assert result.exit_status == 1
        assert words.format(port=table.port) in f"{result.stderr}{result.stdout}"
    assert not table.seats


def test_a_player_language_is_the_keys_then_the_clients_then_the_hosts():
    assert player_language("ro", {"LANG": "en_GB.UTF-8"}) == "ro"
    assert player_language(None, {"LANG": "ro_RO.UTF-8"}) == "ro"
    assert player_language(None, {"LC_MESSAGES": "ro_RO", "LANG": "en_US.UTF-8"}) == "ro"
    assert player_language(None, {"LC_ALL": "C.UTF-8", "LANG": "ro_RO.UTF-8"}) == "en"
    assert player_language(None, {}) == "en"
    set_language("ro")  # the host's language, for a client that says nothing usable
    assert player_language(None, {}) == "ro"
    assert player_language(None, {"LANG": "fr_FR.UTF-8"}) == "ro"
    assert player_language(None, {"LANG": "../../ro"}) == "ro"
    assert player_language(None, {"LANG": "en_GB.UTF-8"}) == "en"


def test_a_lang_with_no_catalog_is_refused_with_one_line_and_the_key_still_sits(
        tmp_path, keys):
    path = tmp_path / "authorized_keys"
    keys_file(path, keys, {"Ana": 'lang="ro"', "Bo": 'lang="fr"', "Cy": 'lang="ro_RO.UTF-8"',
                           "Di": 'lang="ro\x1b[2J"', "Ed": 'lang="ro",lang="en"'})
    players = read_players(path)
    languages = {line.player: line.language for line in players.lines}
    assert languages == {"Ana": "ro", "Bo": None, "Cy": "ro", "Di": None, "Ed": "ro",
                         "Flo": None}
    assert players.warnings == [
        f'{path}, line 2: lang="fr" is refused: the table\'s languages are en, ro (the key '
        "still sits)",
        f'{path}, line 4: lang="ro\x1b[2J" is refused: the table\'s languages are en, ro (the '
        "key still sits)",
        f"{path}, line 5: lang= is refused: it is given twice: the first is kept (the key "
        "still sits)"]


# ---------------------------------------------------------------- the web

def test_a_tab_language_is_the_pages_then_the_browsers_then_the_hosts():
    assert tab_language("ro", "en-US,en;q=0.9") == "ro"
    assert tab_language("fr", "ro-RO,ro;q=0.9,en;q=0.8") == "ro"
    assert tab_language(None, "fr-FR,fr;q=0.9,en;q=0.5") == "en"
    assert tab_language(None, None) == "en"
    set_language("ro")
    assert tab_language(None, "fr-FR") == "ro"
    assert tab_language("<script>", None) == "ro"


async def test_a_tab_asked_in_romanian_runs_in_romanian(open_web):
    table, said = await open_web()
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{page(table)}/?lang=ro") as index:
            assert f'"ws://127.0.0.1:{table.port}/ws/ro"' in await index.text()
        async with session.get(f"{page(table)}/?lang=fr") as index:
            assert f'"ws://127.0.0.1:{table.port}/ws"' in await index.text()
        for path, headers in (("/ws/ro", {}), ("/ws", {"Accept-Language": "ro-RO,ro;q=0.9"})):
            async with session.ws_connect(
                    f"{page(table)}{path}?width=100&height=30",
                    headers={"Origin": page(table), **headers}) as ws:
                await screen_of(ws, "Friday", ro("New {game}").format(game=SOE_NAME))
                (seat,) = table.seats
                assert seat.language == "ro"
                assert environ_of(seat.pid)["WARLEDGER_LANG"] == "ro"
            await until(lambda: not table.seats, timeout=5)
    assert said.count("a browser at 127.0.0.1 sat down") == 2


async def test_a_socket_in_a_language_keeps_the_tables_checks(open_web):
    """/ws/ro is the table's websocket like /ws: another page's is refused, and a full
    table says so in the tab's language."""
    table, _said = await open_web(max_sessions=0)
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"{page(table)}/ws/ro",
                                     headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
        async with session.ws_connect(f"{page(table)}/ws/ro",
                                      headers={"Origin": page(table)}) as late:
            told = await late.receive(timeout=10)
            assert told.data.decode() == ro(TABLE_FULL).format(max=0) + "\r\n"
    assert not table.seats
