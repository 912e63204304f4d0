"""`serve web` under abuse (issue 22), with real aiohttp clients over loopback: a tab's
input has a ceiling and a tab's process ends once its socket closes, however much it sent;
the app takes its input at its own pace; bad messages are ignored in one line; the accept
loop survives running out of file descriptors, connections that have not sat down are
budgeted (per address, in total, with a deadline) and told once per interval; no tab's
process outlives the server. Floods with memory figures: tests/benchmarks/web_flood.py.

Waits have generous bounds so a stuck table fails instead of hanging; nothing is timed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import signal
import socket
import struct
import sys
import threading
from pathlib import Path

import aiohttp
import pytest
from textual import events
from textual.driver import Driver

from storage.engine import make_engine
from storage.ledger import Ledger
from tests.at_head import new_database
from tests.test_tui_soe import session_file
from tui.hosting import web_driver
from tui.hosting.door import budget_address
from tui.hosting.web import WebTable, web_command
from tui.hosting.web_driver import AHEAD_AT_MOST, TableWebDriver
from tui.hosting.web_input import MESSAGE_AT_MOST, PASTE_END, PASTE_START, Pastes

ROOT = Path(__file__).resolve().parent.parent
SCREEN_WAIT = 30.0
ANSI = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\-_])")
STRANGER = "127.0.0.2"  # another machine, as far as the table can tell


def strip_ansi(raw: bytes) -> str:
    return ANSI.sub(b"", raw).decode("utf-8", "replace")


def alive(pid: int) -> bool:
    """Running, and not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def children_of(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


async def until(condition, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


@pytest.fixture
def db(tmp_path) -> str:
    path = new_database(tmp_path / "table.db")
    data = session_file()
    data["steps"] = data["steps"][:2]
    Ledger(make_engine(path)).replay(data)
    return path


@pytest.fixture
async def open_web(db):
    """Opens web tables in this process on free ports; their tabs are ended afterwards."""
    opened: list[tuple[WebTable, object]] = []

    async def open_(**settings) -> tuple[WebTable, list[str]]:
        said: list[str] = []
        table = WebTable(settings.pop("argv", None) or web_command(db), "127.0.0.1", 0,
                         links=None,  # the open table: what is tested here is any tab
                         say=said.append, **settings)
        runner = await table.open()
        opened.append((table, runner))
        return table, said

    yield open_
    for table, runner in opened:
        await asyncio.wait_for(table.close(), 20)
        await runner.cleanup()


def page(table: WebTable) -> str:
    return f"http://127.0.0.1:{table.port}"


async def tab(session: aiohttp.ClientSession, url: str) -> aiohttp.ClientWebSocketResponse:
    return await session.ws_connect(f"{url}/ws?width=100&height=30", headers={"Origin": url},
                                    max_msg_size=0)


async def screen_of(ws: aiohttp.ClientWebSocketResponse, *texts: str) -> str:
    """What the tab drew until every text showed."""
    drawn = bytearray()
    async with asyncio.timeout(SCREEN_WAIT):
        while not all(t in strip_ansi(bytes(drawn)) for t in texts):
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                drawn += message.data
            elif message.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the socket ended: {message}; it drew "
                                     f"{strip_ansi(bytes(drawn))[-500:]}")
    return strip_ansi(bytes(drawn))


async def read_all(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Read what the tab is sent, as a browser does."""
    with contextlib.suppress(Exception):
        while (await ws.receive()).type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
            pass


def hang_up(ws: aiohttp.ClientWebSocketResponse, *, reset: bool = False) -> None:
    """The tab's TCP connection closed without a word, as a browser closing a tab (unless
    the server closed it first). With `reset`, it is reset (RST) rather than ended (FIN):
    a FIN waits behind data the tab's machine has not sent yet, a reset does not."""
    connection = ws._response.connection  # noqa: SLF001 - the socket under the client
    if connection is not None and connection.transport is not None:
        if reset:
            sock = connection.transport.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.transport.abort()


def idle_socket(port: int, source: str = STRANGER) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    sock.setblocking(False)
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


# ---------------------------------------------------------------- a tab's input

async def test_a_message_past_the_ceiling_closes_the_tab_and_ends_its_process(open_web):
    table, said = await open_web()
    async with aiohttp.ClientSession() as session, await tab(session, page(table)) as ws:
        await screen_of(ws, "New Struggle of Empires")
        (seat,) = table.seats
        pid = seat.pid
        await ws.send_str('["stdin", "' + "z" * MESSAGE_AT_MOST + '"]')
        async with asyncio.timeout(SCREEN_WAIT):
            while (message := await ws.receive()).type != aiohttp.WSMsgType.CLOSE:
                assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT)
        assert message.data == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    await until(lambda: not alive(pid) and not table.seats)
    assert (f"closed the tab of the browser at 127.0.0.1: it sent a message of more than "
            f"{MESSAGE_AT_MOST} bytes") in said


async def test_a_tab_that_floods_and_hangs_up_has_its_process_ended(open_web):
    """8 MiB of keys as fast as the socket takes them, the TCP connection closed 2 s in:
    the tab is closed as a flood (or its close is seen), its process ends having stayed
    small, and the seat is free (before: it went on eating the flood for minutes, growing,
    and held the only seat)."""
    table, _ = await open_web(max_sessions=1)
    async with aiohttp.ClientSession() as session:
        ws = await tab(session, page(table))
        await screen_of(ws, "New Struggle of Empires")
        (seat,) = table.seats
        pid = seat.pid
        reading = asyncio.ensure_future(read_all(ws))

        async def flood() -> None:
            for _ in range(8 * 1024):
                await ws.send_str('["stdin", "' + "z" * 1024 + '"]')

        flooding = asyncio.ensure_future(flood())
        await asyncio.wait({flooding, reading}, timeout=2)
        peak_kib = int(re.search(r"VmHWM:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())[1])
        hang_up(ws)
        flooding.cancel()
        reading.cancel()
        await asyncio.gather(flooding, reading, return_exceptions=True)
        await until(lambda: not alive(pid) and not table.seats)
        # the seat is free: the next tab plays
        async with await tab(session, page(table)) as next_ws:
            await screen_of(next_ws, "New Struggle of Empires")
    assert peak_kib < 200 * 1024, f"the tab's process reached {peak_kib} KiB"


async def test_a_hang_up_is_seen_while_the_socket_is_not_read(open_web):
    """The tab's app stopped (SIGSTOP: it takes nothing), the tab sends 1 MiB (past what
    the pipe and the server hold: aiohttp queues 512 KiB, then stops reading the socket)
    and hangs up: the close is seen anyway and the stopped process is ended (before: the
    server waited on the app's pipe for ever, and the seat with it).

    The tab resets its connection. A tab that ends it (FIN) is seen the same way once its
    FIN arrives, but where the server's receive window filled before the tab's machine had
    sent everything, the FIN waits behind that data and comes only as the answer to a later
    ping (a reset), if at all: which of the two a run meets depends on how far the kernel
    grew the window, so a FIN made this test pass in 2 s quiet and fail after 37 s under
    load. With the default STALL_AT_MOST such a tab is closed after one second anyway."""
    # No flood limit and no pings: only the look at the socket itself can see the reset.
    table, said = await open_web(max_sessions=1, stall_at_most=3600, heartbeat=3600)
    async with aiohttp.ClientSession() as session:
        ws = await tab(session, page(table))
        await screen_of(ws, "New Struggle of Empires")
        (seat,) = table.seats
        pid = seat.pid
        os.kill(pid, signal.SIGSTOP)
        try:
            for _ in range(1024):
                await ws.send_str('["stdin", "' + "z" * 1024 + '"]')
            await until(lambda: request_paused(seat))
            hang_up(ws, reset=True)
            await until(lambda: not alive(pid) and not table.seats)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    await until(lambda: "a browser at 127.0.0.1 left" in said)
    assert not [line for line in said if "flood" in line]  # the close was seen


def request_paused(seat) -> bool:
    """The server has stopped reading the tab's socket (aiohttp paused its transport)."""
    protocol = seat.websocket._req.protocol  # noqa: SLF001 - aiohttp's connection
    return bool(protocol._reading_paused)  # noqa: SLF001


async def test_a_tab_that_reads_nothing_is_closed_and_its_app_ended(open_web):
    """A tab that reads nothing (a small receive buffer, soon full, and no answer to pings)
    makes its app draw (its window resized again and again) until the app is blocked on
    output nobody takes: the tab is closed when a ping goes unanswered, its app ended and
    the seat freed (before: the server waited for that output to be taken, for ever)."""
    table, _ = await open_web(max_sessions=1, stall_at_most=3600, heartbeat=2)

    def small_window(addr_info) -> socket.socket:
        family, kind, proto, _, _ = addr_info
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        return sock

    connector = aiohttp.TCPConnector(socket_factory=small_window)
    async with aiohttp.ClientSession(connector=connector) as session:
        ws = await tab(session, page(table))
        (seat,) = table.seats
        await until(lambda: seat.pid is not None)
        pid = seat.pid
        with contextlib.suppress(ConnectionError):
            async with asyncio.timeout(SCREEN_WAIT):
                n = 0
                while table.seats and not app_blocked_on_output(seat):
                    n += 1
                    await ws.send_json(["resize", {"width": 300, "height": 200} if n % 2
                                        else {"width": 80, "height": 24}])
                    await asyncio.sleep(0.05)
        await until(lambda: not alive(pid) and not table.seats)
        hang_up(ws)
    async with aiohttp.ClientSession() as session, await tab(session, page(table)) as ws:
        await screen_of(ws, "New Struggle of Empires")


def app_blocked_on_output(seat) -> bool:
    """The server's writes to the tab wait (the tab does not read them), so the app's
    output waits in the server's pipe reader: 64 KiB and more."""
    process = seat.process
    return process is not None and len(process.stdout._buffer) > 64 * 1024  # noqa: SLF001


async def test_a_tab_whose_input_waits_on_its_app_too_long_is_closed(open_web):
    """A tab that keeps sending while its app is behind (its socket not read meanwhile) is
    a flood: past `stall_at_most` it is closed (1008) and its process ended. A browser's
    close waits behind what it sent, unseen: this bounds the seat it holds."""
    table, said = await open_web(stall_at_most=0.5, told_every=3600)
    async with aiohttp.ClientSession() as session, await tab(session, page(table)) as ws:
        await screen_of(ws, "New Struggle of Empires")
        (seat,) = table.seats
        pid = seat.pid

        async def flood() -> None:
            with contextlib.suppress(ConnectionError):
                for _ in range(8 * 1024):
                    await ws.send_str('["stdin", "' + "z" * 1024 + '"]')

        flooding = asyncio.ensure_future(flood())
        async with asyncio.timeout(SCREEN_WAIT):
            while (message := await ws.receive()).type in (aiohttp.WSMsgType.BINARY,
                                                           aiohttp.WSMsgType.TEXT):
                pass
        flooding.cancel()
        await asyncio.gather(flooding, return_exceptions=True)
        assert (message.type, message.data) == (aiohttp.WSMsgType.CLOSE,
                                                aiohttp.WSCloseCode.POLICY_VIOLATION)
    await until(lambda: not alive(pid) and not table.seats)
    assert ("closed the tab of the browser at 127.0.0.1: its input waited on its app for "
            "0.5 s (a flood)") in said


async def test_a_paste_that_never_ends_is_ended_at_the_ceiling():
    pastes = Pastes(at_most=10)
    # the start marker split between two messages, then more than the ceiling
    said = pastes.feed("ab\x1b[20") + pastes.feed("0~" + "x" * 25)
    assert said == "ab" + PASTE_START + "x" * 10 + PASTE_END + "x" * 15
    assert not pastes.inside
    # a paste within the ceiling passes as it came, its end marker split too
    assert pastes.feed(PASTE_START + "short\x1b[2") + pastes.feed("01~z") == (
        PASTE_START + "short" + PASTE_END + "z")
    assert pastes.feed("x" * 100) == "x" * 100  # outside a paste, keys are keys


async def test_the_apps_input_thread_waits_while_the_app_is_behind(monkeypatch):
    """The tab's app reads its input only as fast as it takes the events: while more than
    AHEAD_AT_MOST wait, the input thread stops (and so the pipe fills, and the server stops
    reading the socket). Nothing is dropped."""
    monkeypatch.setattr(web_driver.WebDriver, "__init__", _bare_driver_init)
    loop = asyncio.get_running_loop()

    class Behind:
        """An app with `keys_waiting` keys it has not taken yet."""
        def __init__(self) -> None:
            self.message_queue_size = 0  # Textual's count of the messages it holds
            self.keys_waiting = 10_000
            self.taken: list[events.Key] = []

        def post_message(self, message) -> bool:
            self.taken.append(message)
            return True

    app = Behind()
    driver = TableWebDriver(app)
    keys = [events.Key("z", "z") for _ in range(500)]
    most_handed = 0

    def read_input() -> None:
        nonlocal most_handed
        for key in keys:
            driver.send_message(key)
            most_handed = max(most_handed, driver._handed)  # noqa: SLF001

    driver.input_thread = threading.Thread(target=read_input)  # as run_input_thread sets it
    driver.input_thread.start()
    await asyncio.sleep(0.3)
    assert driver.input_thread.is_alive() and app.taken == []
    app.keys_waiting = 0  # the app catches up
    await until(lambda: len(app.taken) == len(keys))
    await loop.run_in_executor(None, driver.input_thread.join, 10)
    assert app.taken == keys and most_handed <= AHEAD_AT_MOST + 1
    driver.exit_event.set()


def _bare_driver_init(self, app, **_) -> None:
    """WebDriver.__init__ without the process's stdin and stdout (pytest holds them)."""
    Driver.__init__(self, app)
    self.exit_event = threading.Event()


@pytest.mark.parametrize("message", [
    '["resize", {"width": 12.5, "height": 24}]', '["resize", {"width": "80", "height": 24}]',
    '["resize", {"width": true, "height": 24}]', '["resize", {"width": 80}]', '["resize"]',
    '["resize", {"width": NaN, "height": 24}]', '["stdin", 5]', "not json", '{"a": 1}',
    '["what", 1]'], ids=["fractional", "text", "bool", "no-height", "no-size", "nan",
                         "stdin-number", "not-json", "object", "unknown"])
async def test_a_bad_message_is_ignored_in_one_line_and_the_tab_plays_on(open_web, message):
    table, said = await open_web(told_every=3600)
    async with aiohttp.ClientSession() as session, await tab(session, page(table)) as ws:
        await screen_of(ws, "New Struggle of Empires")
        (seat,) = table.seats
        pid = seat.pid
        for _ in range(3):
            await ws.send_str(message)
        await ws.send_json(["resize", {"width": 120, "height": 40}])
        await ws.send_json(["stdin", "?"])  # the help
        await screen_of(ws, "Rules and options")
        assert alive(pid) and table.seats == {seat}
    told = [line for line in said if line.startswith("ignored a message")]
    assert len(told) == 1 and "\n" not in told[0], said
    assert told[0].startswith("ignored a message from the browser at 127.0.0.1: ")
    assert not [line for line in said if "Traceback" in line or "dropped" in line]


async def test_what_a_tabs_app_says_on_its_error_output_is_one_line_escapes_shown(
        open_web, capsys):
    """An app that fails as it starts (here: a script writing 300 lines, escapes in the
    last) is told on the host's console in one line, not copied to it whole."""
    failing = [sys.executable, "-c", "import sys\nfor n in range(300): print(f'line {n}', "
               "file=sys.stderr)\nprint('Boom: \\x1b[31mred', file=sys.stderr)\nsys.exit(1)"]
    table, said = await open_web(argv=failing)
    async with aiohttp.ClientSession() as session, await tab(session, page(table)) as ws:
        async with asyncio.timeout(SCREEN_WAIT):
            while (await ws.receive()).type not in (aiohttp.WSMsgType.CLOSE,
                                                    aiohttp.WSMsgType.CLOSED):
                pass
    await until(lambda: not table.seats)
    told = [line for line in said if "error output" in line]
    assert told == ["a browser tab's app said on its error output (301 lines), last: "
                    "Boom: \\x1b[31mred"], said
    printed = capsys.readouterr()
    assert "line 1" not in printed.out + printed.err


# ---------------------------------------------------------------- before sitting down

async def test_connections_from_one_address_are_budgeted_the_oldest_closed(open_web):
    """Past 4 from one address, the oldest that asked nothing is closed; a connection that
    fetched the page (a browser's keep-alive) is closed last."""
    table, said = await open_web(waiting_per_address=4, told_every=3600)
    loop = asyncio.get_running_loop()
    browser = idle_socket(table.port)  # (non-blocking: the table runs in this loop)
    await loop.sock_sendall(browser, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{table.port}"
                                     "\r\n\r\n".encode())
    answer = b""
    async with asyncio.timeout(SCREEN_WAIT):
        while b"</html>" not in answer:
            answer += await loop.sock_recv(browser, 65536)
    assert answer.startswith(b"HTTP/1.1 200")
    held = [idle_socket(table.port) for _ in range(10)]
    await until(lambda: sum(closed_by_server(sock) for sock in held[:7]) == 7)
    assert not any(closed_by_server(sock) for sock in [*held[7:], browser])
    # a player from elsewhere sits down meanwhile
    async with aiohttp.ClientSession() as session, await tab(session, page(table)) as ws:
        await screen_of(ws, "New Struggle of Empires")
    for sock in [*held, browser]:
        sock.close()
    told = [line for line in said if line.startswith("closed the oldest")]
    assert told == [f"closed the oldest waiting connection from {STRANGER}: at most 4 from "
                    "one address may wait to sit down"]


def test_an_ipv6_machine_counts_as_its_64():
    assert budget_address(("2001:db8:1:2::1", 80, 0, 0)) == "2001:db8:1:2::/64"
    assert budget_address(("2001:db8:1:2:ffff::9", 80, 0, 0)) == "2001:db8:1:2::/64"
    assert budget_address(("::ffff:192.0.2.7", 80, 0, 0)) == "192.0.2.7"
    assert budget_address(("192.0.2.7", 80)) == "192.0.2.7"


async def test_connections_from_everywhere_are_budgeted_in_total(open_web):
    table, said = await open_web(waiting_at_most=5, told_every=3600)
    held = [idle_socket(table.port, f"127.0.3.{n}") for n in range(1, 9)]
    await until(lambda: sum(closed_by_server(sock) for sock in held[:3]) == 3)
    assert not any(closed_by_server(sock) for sock in held[3:])
    for sock in held:
        sock.close()
    assert [line for line in said if line.startswith("closed the oldest")] == [
        "closed the oldest waiting connection (from 127.0.3.1): at most 5 may wait to sit "
        "down at once"]


async def test_a_connection_that_asks_nothing_is_closed_at_its_deadline(open_web):
    table, said = await open_web(waiting_deadline=0.5, told_every=3600)
    silent = [idle_socket(table.port) for _ in range(3)]
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{page(table)}/") as index:  # kept alive, then idle
            assert index.status == 200
        await until(lambda: all(closed_by_server(sock) for sock in silent))
        async with await tab(session, page(table)) as ws:  # a seated tab has no deadline
            await screen_of(ws, "New Struggle of Empires")
            await asyncio.sleep(1)
            await ws.send_json(["stdin", "?"])
            await screen_of(ws, "Rules and options")
    for sock in silent:
        sock.close()
    told = [line for line in said if "asked nothing" in line]
    assert told == [f"closed a connection from {STRANGER} that asked nothing within 0.5 s"]


async def test_refusals_are_told_once_per_interval(open_web):
    table, said = await open_web(told_every=3600)
    async with aiohttp.ClientSession() as session:
        for n in range(30):
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await session.ws_connect(f"{page(table)}/ws",
                                         headers={"Origin": f"http://evil{n}.example"})
    assert [line for line in said if line.startswith("refused")] == [
        "refused a websocket from http://evil0.example (127.0.0.1)"]
    table.tally.close()
    assert said[-1] == "... and 29 more websockets refused from other pages in the last 3600 s"


# ---------------------------------------------------------------- the server's process

# A table whose budget lets idle connections run its process out of file descriptors.
SERVER = """
import asyncio, resource, sys
from tui.hosting.web import WebTable, web_command, run_table
resource.setrlimit(resource.RLIMIT_NOFILE,
                   (int(sys.argv[2]), resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
table = WebTable(web_command(sys.argv[1]), "127.0.0.1", 0, links=None, waiting_at_most=10_000,
                 waiting_per_address=10_000, say=lambda line: print(line, flush=True))
table.initialize_logging()
asyncio.run(run_table(table))
"""


async def start_server(*args: str, limits: tuple[int, int] | None = None,
                       script: str | None = None) -> tuple[asyncio.subprocess.Process, int]:
    """`warledger serve web ARGS` (or SCRIPT) in a process of its own; its port."""
    def lower() -> None:
        if limits:
            resource.setrlimit(resource.RLIMIT_NOFILE, limits)

    argv = ["-c", script, *args] if script else ["-m", "tui", *args]
    server = await asyncio.create_subprocess_exec(
        sys.executable, *argv, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT, cwd=ROOT, preexec_fn=lower,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = []
    async with asyncio.timeout(SCREEN_WAIT):
        while True:
            line = (await server.stdout.readline()).decode()
            assert line, f"the server ended saying {lines}"
            lines.append(line)
            if found := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
                return server, int(found[1])


async def stop_server(server: asyncio.subprocess.Process) -> str:
    if server.returncode is None:
        server.send_signal(signal.SIGTERM)
    try:
        out, _ = await asyncio.wait_for(server.communicate(), 20)
    except TimeoutError:
        server.kill()
        out, _ = await server.communicate()
    return out.decode()


async def test_the_open_files_limit_is_raised_to_the_hard_one(db):
    server, _ = await start_server("--db", db, "serve", "web", "--port", "0",
                                   limits=(256, 4096))
    try:
        limits = Path(f"/proc/{server.pid}/limits").read_text()
        soft, hard = re.search(r"Max open files\s+(\d+)\s+(\d+)", limits).groups()
        assert (soft, hard) == ("4096", "4096")
    finally:
        await stop_server(server)


async def test_out_of_file_descriptors_the_table_goes_on_and_a_player_gets_in(db):
    """The table's process at 64 open files and a budget that does not hold it back: 150
    idle connections run it out of descriptors. It does not exit (before: "Too many open
    files", the end), says so in a line, not once per connection, and a page still loads."""
    server, port = await start_server(db, "64", script=SERVER)
    held: list[socket.socket] = []
    try:
        for _ in range(150):
            held.append(idle_socket(port))
        timeout = aiohttp.ClientTimeout(total=SCREEN_WAIT)
        async with aiohttp.ClientSession(timeout=timeout) as session, session.get(
                f"http://127.0.0.1:{port}/") as index:
            assert index.status == 200
        assert server.returncode is None
    finally:
        for sock in held:
            sock.close()
        out = await stop_server(server)
    told = [line for line in out.splitlines() if "out of open files" in line]
    assert told and len(told) <= 2, out[-3000:]
    assert "Traceback" not in out and "accept() out of system resource" not in out


async def test_no_tab_outlives_the_server_however_it_ends(db):
    server, port = await start_server("--db", db, "serve", "web", "--open", "--port", "0")
    url = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as session, await tab(session, url) as ws:
        await screen_of(ws, "New Struggle of Empires")
        (pid,) = children_of(server.pid)
        server.kill()  # SIGKILL: the server cleans nothing up
        await server.wait()
        try:
            await until(lambda: not alive(pid))
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
