"""Named web players (issue 26): `serve web` gives each player a secret link, and the
spectators one to the scoreboard. Real aiohttp clients over loopback, no browser: a link
sets its cookie and goes on without its token, the cookie lets the tab's websocket sit down
as that player, anything without a link gets a page saying to ask the host and no process,
tokens are compared in constant time and never told on the host's console; `--open` is the
old open table; the command line checks the names. In Chromium: tests/test_web_browser.py."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from http.cookies import SimpleCookie

import aiohttp
import pytest
import segno

from i18n import translation_of
from storage.engine import make_engine
from storage.ledger import Ledger
from tests import test_hosting
from tests.cli_runner import CliRunner
from tests.test_hosting import children_of, environ_of, screen_of
from tests.waiting import until
from tui.cli.typer_app import app
from tui.hosting import web, web_links, web_page
from tui.hosting.web import OneLine, WebTable, web_command
from tui.hosting.web_addresses import NO_LOGIN
from tui.hosting.web_links import (
    NO_LINK,
    QR_WIDTH_AT_MOST,
    TOKEN_BYTES,
    Link,
    cookie_value,
    holder,
    player_command,
    qr_lines,
    scoreboard_command,
    table_links,
)

# test_hosting's fixtures: the table's database, and the Friday game (Ana, Bo, Cy and Di)
# at war 1's population.
db, game = test_hosting.db, test_hosting.game
PLAYERS = ["Ana", "Bo", "Cy", "Di"]


@pytest.fixture
async def open_table(db, game):
    """Opens web tables in this process on free ports, with a link for each of `players`
    (and the spectators'); their tabs are ended afterwards."""
    opened: list[tuple[WebTable, object]] = []

    async def open_(players: list[str] = PLAYERS, host: str = "127.0.0.1",
                    links: list[Link] | None = None, **settings) -> tuple[WebTable, list[str]]:
        said: list[str] = []
        table = WebTable(web_command(db), host, 0, say=said.append,
                         links=links or table_links(db, players), **settings)
        runner = await table.open()
        opened.append((table, runner))
        return table, said

    yield open_
    for table, runner in opened:
        await asyncio.wait_for(table.close(), 10)
        await runner.cleanup()


def browser(cookies: dict[str, str] | None = None) -> aiohttp.ClientSession:
    """A client that keeps cookies as a browser does, an IP address's included."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), cookies=cookies)


def page(table: WebTable) -> str:
    return f"http://127.0.0.1:{table.port}"


def link_of(table: WebTable, player: str | None) -> Link:
    return next(link for link in table.links if link.player == player)


async def welcomed(session: aiohttp.ClientSession, table: WebTable, player: str | None,
                   query: str = "") -> str:
    """Opens `player`'s link (their cookie then in `session`); the page it gave."""
    async with session.get(link_of(table, player).url(page(table)) + query) as welcome:
        assert welcome.status == 200
        return await welcome.text()


async def refused(response: aiohttp.ClientResponse, language: str = "en") -> None:
    assert response.status == 403
    assert await response.text() == translation_of(language).gettext(NO_LINK)


def no_token_in(lines: list[str], table: WebTable) -> None:
    for line in lines:
        assert "token=" not in line and table.cookie not in line, line
        assert not any(link.token in line for link in table.links), line


# ---------------------------------------------------------------- links and cookies

async def test_a_link_sets_its_cookie_and_goes_on_to_the_page_without_its_token(open_table):
    table, said = await open_table()
    ana = link_of(table, "Ana")
    assert len(ana.token) >= 43 and ana.token not in repr(ana)  # 32 random bytes
    async with browser() as session:
        async with session.get(ana.url(page(table)) + "&lang=ro") as welcome:
            assert welcome.status == 200
            assert welcome.headers["Cache-Control"] == "no-store"
            assert welcome.headers["Referrer-Policy"] == "no-referrer"
            cookie = SimpleCookie(welcome.headers["Set-Cookie"])[table.cookie]
            body = await welcome.text()
        # Derived for this table and port, never the token: a browser sends the cookie to
        # every port of the host's name (issue 46).
        assert cookie.value == cookie_value(ana, table.port) != ana.token
        assert ana.token not in welcome.headers["Set-Cookie"]
        assert cookie_value(ana, table.port) != cookie_value(ana, table.port + 1)
        assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/"
        assert not cookie["secure"]  # plain http: a Secure cookie would never come back
        assert not cookie["max-age"] and not cookie["expires"]  # gone with the browser
        assert ana.token not in body  # the page goes on to an address without it
        assert 'location.replace("/?lang=ro")' in body and 'url=/?lang=ro"' in body
        async with session.get(f"{page(table)}/?lang=ro") as index:  # the cookie lets it in
            assert index.status == 200
            assert f'"ws://127.0.0.1:{table.port}/ws/ro"' in await index.text()
    no_token_in(said, table)


async def test_the_cookie_seats_a_tab_as_its_player(open_table, db, game):
    table, said = await open_table()
    async with browser() as session:
        await welcomed(session, table, "Bo")
        async with session.ws_connect(f"{page(table)}/ws?width=100&height=30",
                                      headers={"Origin": page(table)}) as ws:
            await screen_of(ws, "you are Bo", "Friday")
            (seat,) = table.seats
            assert seat.argv == list(player_command(db, "Bo"))
            assert environ_of(seat.pid)["TEXTUAL_DRIVER"] == web.DRIVER
            await ws.send_str('["stdin", "\\r"]')  # open the highlighted game, the only one
            await screen_of(ws, test_hosting.POPULATION)
            await ws.send_str('["stdin", "\\r"]')  # confirm population; scoring follows
            await until(lambda: len(Ledger(make_engine(db)).authors(game)) == 4)
        await until(lambda: not table.seats, timeout=5)
    assert Ledger(make_engine(db)).authors(game)[-2:] == [(3, "population", "Bo"),
                                                          (4, "scoring", "Bo")]
    assert said[-2:] == ["Bo sat down from a browser at 127.0.0.1",
                         "Bo left (a browser at 127.0.0.1)"]


def test_the_spectators_link_runs_the_scoreboard_and_each_player_their_own_tui():
    links = table_links("friday.db", ["Ana", "[b]Bo[/b]"])
    assert [link.player for link in links] == ["Ana", "[b]Bo[/b]", None]
    assert links[1].argv == (sys.executable, "-m", "tui", "--db", "friday.db",
                             "--player=[b]Bo[/b]")
    assert links[-1].spectator and links[-1].argv == scoreboard_command("friday.db") == (
        sys.executable, "-m", "tui", "--db", "friday.db", "scoreboard")
    assert len({link.token for link in links}) == 3  # each its own
    assert {link.token for link in links}.isdisjoint(  # and new ones each time
        link.token for link in table_links("friday.db", ["Ana", "[b]Bo[/b]"]))


# ---------------------------------------------------------------- no link, no process

@pytest.mark.parametrize("how", ["nothing", "wrong token", "old token", "wrong cookie",
                                 "token of another table's name", "the token as cookie"])
async def test_a_tab_without_a_link_gets_a_page_and_no_process(open_table, how):
    table, said = await open_table()
    before = children_of(os.getpid())
    wrong = {"nothing": None, "wrong token": "x" * 43, "old token": Link("Ana", ()).token,
             "wrong cookie": cookie_value(link_of(table, "Ana"), table.port)[:-1],
             "token of another table's name": cookie_value(link_of(table, "Ana"), table.port),
             "the token as cookie": link_of(table, "Ana").token}[how]
    cookies = ({} if wrong is None or how == "wrong token" else
               {f"warledger-{table.port + 1}" if how.startswith("token of") else table.cookie:
                wrong})
    async with browser(cookies) as session:
        query = f"/?token={wrong}" if how == "wrong token" else "/"
        async with session.get(page(table) + query) as index:
            await refused(index)
            assert "Set-Cookie" not in index.headers
        async with session.get(f"{page(table)}/?lang=ro") as index:
            await refused(index, "ro")  # in the tab's language
        async with session.get(f"{page(table)}/",
                               headers={"Accept-Language": "ro-RO,ro;q=0.9"}) as index:
            await refused(index, "ro")
        async with session.get(f"{page(table)}/static/table.js") as script:
            assert script.status == 200  # the page's scripts hold no secret
        for path in ("/ws", "/ws/ro"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as socket_refused:
                await session.ws_connect(f"{page(table)}{path}?width=80&height=24",
                                         headers={"Origin": page(table)})
            assert socket_refused.value.status == 403
    assert not table.seats and children_of(os.getpid()) == before
    assert said == ["refused a page from 127.0.0.1: no link of this table",
                    "refused a websocket from 127.0.0.1: no link of this table"]
    table.tally.close()
    assert said[2:] == ["... and 2 more pages refused without a link in the last 10 s",
                        "... and 1 more websockets refused without a link in the last 10 s"]


async def test_a_link_opens_only_the_page_a_websocket_needs_its_cookie(open_table):
    """The token is taken on the page alone: on the websocket's address it lets nothing in,
    and the page of another table's port is refused by the Host check first."""
    table, said = await open_table()
    token = link_of(table, "Ana").token
    async with browser() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as socket_refused:
            await session.ws_connect(f"{page(table)}/ws?token={token}",
                                     headers={"Origin": page(table)})
        assert socket_refused.value.status == 403
        async with session.get(f"{page(table)}/download/anything") as download:
            await refused(download)
    assert not table.seats
    no_token_in(said, table)


async def test_a_spectator_sits_down_by_the_spectators_link_and_runs_its_command(
        open_table):
    """The spectators' link runs its command (the scoreboard; here a stand-in that waits)."""
    waits = (sys.executable, "-c", "import time; time.sleep(60)")
    table, said = await open_table(links=[Link("Ana", waits), Link(None, waits[:-1] + (
        "import time; time.sleep(61)",))])
    spectators = link_of(table, None)
    async with browser() as session:
        await welcomed(session, table, None)
        async with session.ws_connect(f"{page(table)}/ws", headers={"Origin": page(table)}):
            await until(lambda: table.seats and next(iter(table.seats)).pid)
            (seat,) = table.seats
            assert seat.argv == list(spectators.argv)
    await until(lambda: not table.seats, timeout=5)
    assert said == ["a spectator sat down at the scoreboard from a browser at 127.0.0.1",
                    "a spectator left the scoreboard (a browser at 127.0.0.1)"]


# ---------------------------------------------------------------- tokens kept secret

def test_every_token_is_compared_in_constant_time(monkeypatch):
    links = table_links(None, ["Ana", "Bo", "Cy"])
    compared: list[tuple[bytes, bytes]] = []

    def compare_digest(a, b) -> bool:
        compared.append((a, b))
        return a == b

    monkeypatch.setattr(web_links.hmac, "compare_digest", compare_digest)
    for token, found in ((links[0].token, links[0]), (links[-1].token, links[-1]),
                         ("nope", None), (None, None), ("é" * 300, None)):
        compared.clear()
        assert holder(tuple(links), token) is found
        assert [a for a, _b in compared] == [link.token.encode() for link in links]
    assert len(links[0].token) == 43 and TOKEN_BYTES >= 32


async def test_no_token_reaches_the_hosts_console_but_the_links(open_table, caplog):
    table, said = await open_table(max_sessions=1)
    announced = table.announcement()
    for link in table.links:
        assert sum(link.token in line for line in announced) == 1
    async with browser() as session:
        for token in [link.token[:20] for link in table.links] + ["%00" + "A" * 40]:
            async with session.get(f"{page(table)}/?token={token}"):
                pass
        await welcomed(session, table, "Ana")
        async with session.ws_connect(f"{page(table)}/ws", headers={"Origin": page(table)}) \
                as ws:
            await screen_of(ws, "you are Ana")
            async with session.ws_connect(f"{page(table)}/ws",  # the table is full
                                          headers={"Origin": page(table)}) as late:
                await late.receive(timeout=10)
    await until(lambda: not table.seats, timeout=5)
    table.tally.close()
    assert len(said) >= 5
    no_token_in(said, table)
    # What libraries log goes through OneLine, which cuts out any token or cookie shown.
    record = logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1,
                               "Error handling request GET /?token=%s Cookie: %s=%s", (
                                   table.links[0].token, table.cookie, table.links[1].token),
                               None)
    logged = OneLine().format(record)
    assert logged == (f"error: Error handling request GET /?token=… Cookie: "
                      f"{table.cookie}=…")


async def raw_request(port: int, request_line: str) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{request_line}\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(65536), 10)
    writer.close()
    return answer


@pytest.mark.parametrize("spelled", ["token", "%74oken", "%74%6F%6B%65%6E", "TOKEN"])
async def test_no_token_reaches_the_console_however_the_request_is_spelled_or_cut(
        open_table, spelled, capfd):
    """Issue 46: a request padded past 8,190 bytes with `?%74oken=<token>` was logged by
    aiohttp with the token in clear. The table's own logging (initialize_logging) is used."""
    table, said = await open_table()
    table.initialize_logging()
    token = link_of(table, "Ana").token
    quoted = "".join(f"%{ord(c):02X}" for c in token)
    for path in (f"/?{spelled}={token}&" + "b" * 8300,  # the line too long
                 "/?pad=" + "p" * 70 + f"&{spelled}={token}&" + "b" * 8300,  # shown cut
                 f"/?{spelled}={quoted}&" + "b" * 8300):  # the token percent-escaped
        answer = await raw_request(table.port, f"GET {path} HTTP/1.1")
        assert answer.startswith(b"HTTP/1.0 400") or answer.startswith(b"HTTP/1.1 4"), answer
    logged = capfd.readouterr().err
    assert "Error handling request" in logged  # the three were logged, one line each
    no_token_in(said, table)
    for line in [*said, *logged.splitlines()]:
        for start in range(len(token) - 7):
            assert token[start:start + 8] not in line, line


async def test_the_web_names_no_library_and_slows_wrong_tokens(open_table):
    """Every answer, the ones aiohttp makes by itself included, says `Server: warledger`;
    past five wrong tokens from one address, each refusal waits longer."""
    table, _said = await open_table()
    assert b"\r\nServer: warledger\r\n" in await raw_request(
        table.port, "GET /?" + "x" * 9000 + " HTTP/1.1")
    async with browser() as session:
        async with session.get(page(table)) as index:
            assert index.headers["Server"] == "warledger"
        waited = []
        for _ in range(7):
            loop = asyncio.get_running_loop()
            started = loop.time()
            async with session.get(f"{page(table)}/?token={'x' * 43}") as index:
                await refused(index)
            waited.append(loop.time() - started)
        assert all(w < 0.2 for w in waited[:5]) and waited[5] >= 0.25 and waited[6] >= 0.5, \
            waited
        await welcomed(session, table, "Ana")  # a right link still opens at once


def test_wrong_tokens_are_counted_by_address_in_a_window_with_a_ceiling():
    now = [0.0]
    wrong = web_links.WrongTokens(clock=lambda: now[0])
    assert [wrong.wrong("10.0.0.1") for _ in range(8)] == [0, 0, 0, 0, 0, 0.25, 0.5, 1.0]
    assert wrong.wrong("10.0.0.2") == 0  # another address is its own
    assert max(wrong.wrong("10.0.0.1") for _ in range(20)) == web_links.WRONG_DELAY_AT_MOST
    now[0] += web_links.WRONG_WINDOW + 1
    assert wrong.wrong("10.0.0.1") == 0  # a minute later, it starts again
    for address in range(web_links.WRONG_ADDRESSES + 10):
        wrong.wrong(f"10.1.{address // 256}.{address % 256}")
    assert len(wrong.seen) == web_links.WRONG_ADDRESSES


# ---------------------------------------------------------------- the announcement

def quiet_modules(lines: list[str]) -> list[list[bool]]:
    """A QR code drawn with half blocks, back to its modules (True: dark, a space)."""
    rows: list[list[bool]] = []
    halves = {" ": (True, True), "▀": (False, True), "▄": (True, False), "█": (False, False)}
    for line in lines:
        pairs = [halves[char] for char in line]
        rows += [[top for top, _bottom in pairs], [bottom for _top, bottom in pairs]]
    return rows


def test_a_qr_code_is_plain_characters_within_80_columns_and_reads_as_its_link():
    url = "http://192.168.100.200:8000/?token=" + Link(None, ()).token
    lines = qr_lines(url)
    assert lines and all(len(line) <= QR_WIDTH_AT_MOST for line in lines)
    assert set("".join(lines)) <= set(" ▀▄█")
    code = segno.make_qr(url)
    drawn = quiet_modules(lines)
    expected = [[bool(module) for module in row]
                for row in code.matrix_iter(scale=1, border=4)]
    assert drawn[:len(expected)] == expected
    assert qr_lines("http://table.example.org/" + "x" * 2000) == []  # too long: said so


async def test_the_host_is_given_each_players_link_and_the_spectators(open_table):
    table, said = await open_table(players=["[b]Ana[/b]", "Bo[/]"])
    lines = table.announcement()
    assert lines[0].startswith("warledger table open in browsers (listening on 127.0.0.1:")
    links = {link.player: link.url(page(table)) for link in table.links}
    starts = [i for i, line in enumerate(lines) if "?token=" in line]
    assert [lines[i] for i in starts] == [
        f"[b]Ana[/b] opens {links['[b]Ana[/b]']}", f"Bo[/] opens {links['Bo[/]']}",
        f"spectators open {links[None]} (the scoreboard: it records nothing)"]
    for start, link in zip(starts, links.values(), strict=True):
        assert lines[start + 1:start + 1 + len(qr_lines(link))] == qr_lines(link)
    assert lines[-1].startswith("these links work on this machine only")
    assert NO_LOGIN not in lines


async def test_links_use_the_public_url_when_given(open_table):
    table, _ = await open_table(public_url="https://table.example.org/")
    (ana,) = [line for line in table.announcement() if line.startswith("Ana opens ")]
    assert ana == f"Ana opens https://table.example.org/?token={link_of(table, 'Ana').token}"
    async with browser() as session, session.get(
            link_of(table, "Ana").url(page(table)), headers={"Host": "table.example.org"}
    ) as welcome:
        assert welcome.status == 200
        assert SimpleCookie(welcome.headers["Set-Cookie"])[table.cookie]["secure"]


# ---------------------------------------------------------------- the command line

@pytest.fixture
def served(monkeypatch):
    """`serve web` run in-process up to the table: what it would serve."""
    calls: list[dict] = []
    monkeypatch.setattr(web, "serve", lambda *args, **kwargs: calls.append(kwargs))
    return calls


def serve_web(db: str, *options: str):
    return CliRunner().invoke(app, ["--db", db, "serve", "web", *options])


def test_serve_web_seats_the_game_in_progress_played_last(served, db, game):
    result = serve_web(db)
    assert result.exit_code == 0, result.output
    assert served[-1]["players"] == PLAYERS
    assert "links for the players of game 1, Friday" in result.stdout
    assert serve_web(db, "--game", str(game)).exit_code == 0
    assert served[-1]["players"] == PLAYERS
    assert serve_web(db, "--player", "Ana", "--player", "[b]Eve[/b]").exit_code == 0
    assert served[-1]["players"] == ["Ana", "[b]Eve[/b]"]
    assert serve_web(db, "--open").exit_code == 0
    assert served[-1]["players"] is None


@pytest.mark.parametrize(("options", "said"), [
    (("--player", "-x"), "warledger: --player: may not start with '-'"),
    (("--player", "Ana", "--player", "ana"), "Two players are named ana"),
    (("--player", "Ana", "--player", "\u0410na"), "look alike"),
    (("--player", "Ana\u200b"), "invisible character"),
    (("--player", "Ana", "--open"), "--open gives no links"),
    (("--game", "1", "--open"), "--open gives no links"),
    (("--player", "Ana", "--game", "1"), "not both"),
    (("--game", "99"), "There is no game 99"),
])
def test_serve_web_refuses_names_and_options_that_do_not_fit(served, db, game, options, said):
    result = serve_web(db, *options)
    assert result.exit_code in (1, 2) and not served
    assert said in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_serve_web_with_no_game_in_progress_says_what_to_give(served, db):
    Ledger(make_engine(db))  # an empty table
    result = serve_web(db)
    assert result.exit_code == 1 and not served
    assert "no game is in progress" in result.stderr and "--player NAME" in result.stderr


async def test_the_command_gives_new_links_each_time_and_no_warning(db, game):
    """The real command on every network: links at an address of this machine, a QR code
    each, no warning of an open table; a second run gives new tokens."""
    tokens: list[set[str]] = []
    for _run in range(2):
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui", "--db", db, "serve", "web", "--host", "0.0.0.0",
            "--port", "0", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        lines: list[str] = []
        try:
            async with asyncio.timeout(20):
                while not lines or not lines[-1].startswith("spectators open "):
                    line = await server.stdout.readline()
                    assert line, f"the server ended saying {lines}"
                    lines.append(line.decode().rstrip("\n"))
            found = [re.fullmatch(r"(\w+) opens (http://[^/]+)/\?token=([\w-]+)", line)
                     for line in lines]
            assert [m[1] for m in found if m] == PLAYERS
            tokens.append({m[3] for m in found if m})
            assert NO_LOGIN not in lines
            url = next(m[2] for m in found if m)
            async with browser() as session, session.get(f"{url}/") as index:
                await refused(index)
        finally:
            server.terminate()
            assert await asyncio.wait_for(server.wait(), 10) == 0
    assert len(tokens[0]) == 4 and tokens[0].isdisjoint(tokens[1])


# ---------------------------------------------------------------- the page's headers

async def test_every_answer_carries_the_guards_and_the_page_allows_only_the_table(open_table):
    """Refusals, the welcome page, the table's page and its files: each says nosniff, no
    framing, and a policy; the welcome page's one script is allowed by its hash, the table's
    page's socket by its address, and nothing of another host."""
    table, _said = await open_table()
    async with browser() as session:
        answers = {}
        for path in ("/", "/static/table.js", "/static/xterm.mjs", "/static/", "/nowhere"):
            async with session.get(page(table) + path) as answer:
                answers[path] = answer.status, answer.headers
        welcome = await session.get(link_of(table, "Ana").url(page(table)))
        answers["welcome"] = welcome.status, welcome.headers
        script = (await welcome.text()).partition("<script>")[2].partition("</script>")[0]
        async with session.get(page(table) + "/") as index:
            answers["page"] = index.status, index.headers
    assert [status for status, _ in answers.values()] == [403, 200, 200, 403, 403, 200, 200]
    for path, (_status, headers) in answers.items():
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["X-Frame-Options"] == "DENY", path
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], path
        assert "default-src 'none'" in headers["Content-Security-Policy"], path
    assert f"script-src 'sha256-{web_page.script_hash(script)}';" in \
        answers["welcome"][1]["Content-Security-Policy"]
    policy = answers["page"][1]["Content-Security-Policy"]
    assert "script-src 'self';" in policy
    assert re.findall(r"\w+://\S+", policy) == [f"ws://127.0.0.1:{table.port};"]
    assert answers["page"][1]["Cache-Control"] == "no-store"
