"""Floods and exhaustion against the real `warledger serve web`, with an aiohttp client on
loopback: what the server and a tab's process hold in memory, how soon a tab's process ends
once its socket closes, and whether a real player still gets in. It prints figures; it
asserts nothing.

    uv run python -m tests.benchmarks.web_flood keys                # 2 and 8 MiB of `z`
    uv run python -m tests.benchmarks.web_flood keys --mib 50
    uv run python -m tests.benchmarks.web_flood big                 # one 2 MiB message
    uv run python -m tests.benchmarks.web_flood paste               # a paste that never ends
    uv run python -m tests.benchmarks.web_flood idle                # 1,100 then 5,000 sockets
    uv run python -m tests.benchmarks.web_flood idle --sockets 5000 --source 127.0.0.1
    uv run python -m tests.benchmarks.web_flood idle --sockets 5000 --spread 100
    uv run python -m tests.benchmarks.web_flood killed              # the server SIGKILLed
    uv run python -m tests.benchmarks.web_flood all

Every probe starts `warledger serve web --port 0 --max-sessions 1 --player Flood` in a
process of its own (open-files limit --nofile, soft and hard, 1024 by default: the common
limit), on a database of its own in a temporary folder, and reads resident memory from
/proc/PID/status (VmRSS now, VmHWM the peak). Its tabs sit down by Flood's link, as a player
with a link does (its cookie on the websocket): a tab without one gets no process at all.

- keys: a tab reaches the home screen, then sends --mib MiB of `z` (1,000 a message) as
  fast as its socket takes them for --seconds, and closes its TCP connection without a
  word (as a browser closing a tab). Printed: the server's and the tab's memory before, at
  their peaks and after; how much the socket took; from the close until the tab's process
  is gone, and until the next tab sits down (one seat: it was told the table is full until
  then).
- big: one message of 2 MiB; how the socket was closed and the memory.
- paste: a bracketed paste that never ends, 8 MiB in messages of 60 KiB.
- idle: --sockets TCP connections from --source (127.0.0.2 by default, another machine as
  far as the table can tell), or from --spread addresses, left idle; then a real player loads the page and sits down.
  Printed: how long until the player's home screen, the server's open files and memory, the
  lines it printed meanwhile, and whether it still runs.
- killed: a tab at the home screen, then the server is killed (SIGKILL): is the tab's
  process still running (it would be, owned by PID 1)?
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

FIRST_FRAME = "New Struggle of Empires"
PLAYER = "Flood"  # the player whose link the probes' tabs hold
ANSI = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\-_])")
ROOT = Path(__file__).resolve().parents[2]


def status_kib(pid: int | None) -> dict[str, int]:
    """VmRSS, VmHWM (peak RSS)... of /proc/PID/status, in KiB; {} when it is gone."""
    if pid is None:
        return {}
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return {line.split(":")[0]: int(line.split()[1]) for line in lines if line.endswith("kB")}


def mib(kib: int | None) -> str:
    return "gone" if kib is None else f"{kib / 1024:.1f} MiB"


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


class Server:
    """`warledger serve web` in a process of its own; what it prints is kept."""

    def __init__(self, folder: Path, nofile: int) -> None:
        self.folder, self.nofile = folder, nofile
        self.lines: list[str] = []
        self.process: asyncio.subprocess.Process | None = None
        self.port = 0
        self.link = ""  # PLAYER's link, as the host's terminal printed it
        self.announced = 0  # lines the server printed as it opened (links and QR codes)
        self.reading: asyncio.Task | None = None

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env.update({"XDG_DATA_HOME": str(self.folder / "xdg"), "PYTHONPATH": str(ROOT)})
        nofile = self.nofile

        def limits() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui", "--db", str(self.folder / "table.db"), "serve", "web",
            "--port", "0", "--max-sessions", "1", "--player", PLAYER,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
            cwd=ROOT, preexec_fn=limits)
        assert self.process.stdout is not None
        # Loopback only: the announcement ends saying so, after the links and QR codes.
        while not self.lines or not self.lines[-1].startswith("these links work on this "):
            line = (await self.process.stdout.readline()).decode()
            if not line:
                raise RuntimeError(f"the server ended: {self.lines}")
            self.lines.append(line.rstrip("\n"))
            if found := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
                self.port = int(found.group(1))
            if found := re.fullmatch(rf"{PLAYER} opens (\S+)\n", line):
                self.link = found.group(1)
        self.announced = len(self.lines)
        self.reading = asyncio.create_task(self.read())

    async def read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        while line := await self.process.stdout.readline():
            self.lines.append(line.decode().rstrip("\n"))

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def cookie(self) -> str:
        """The Cookie header of a tab that opened PLAYER's link."""
        return f"warledger-{self.port}={self.link.partition('?token=')[2]}"

    def tab_pid(self) -> int | None:
        found = children(self.pid)
        return found[0] if found else None

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self.reading is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reading, 5)


async def sit_down(session: aiohttp.ClientSession, server: Server, timeout: float = 30.0
                   ) -> tuple[aiohttp.ClientWebSocketResponse, str]:
    """A tab at the home screen; (socket, "seated") or (socket, what it was told)."""
    ws = await session.ws_connect(f"{server.url}/ws?width=100&height=30",
                                  headers={"Origin": server.url, "Cookie": server.cookie},
                                  max_msg_size=0)
    drawn = b""
    async with asyncio.timeout(timeout):
        while FIRST_FRAME.encode() not in ANSI.sub(b"", drawn):
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                drawn += message.data
            elif message.type != aiohttp.WSMsgType.TEXT:
                return ws, ANSI.sub(b"", drawn).decode(errors="replace").strip() or str(message)
    return ws, "seated"


async def drain(ws: aiohttp.ClientWebSocketResponse) -> str:
    """Read (and drop) what the tab is sent, as a browser would; how it ended."""
    with contextlib.suppress(Exception):
        while (message := await ws.receive()).type in (aiohttp.WSMsgType.BINARY,
                                                       aiohttp.WSMsgType.TEXT):
            pass
        return f"{message.type.name} {message.data}"
    return "?"


def hang_up(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Close the tab's TCP connection without a word, as a browser closing a tab does."""
    connection = ws._response.connection  # noqa: SLF001 - the socket under the client
    if connection is not None and connection.transport is not None:
        connection.transport.abort()


async def until_seated_again(session: aiohttp.ClientSession, server: Server, since: float,
                             timeout: float = 60.0) -> float | None:
    """Seconds from `since` until a new tab sits down (one seat: the table is full until
    the last one's process is gone)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ws, told = await sit_down(session, server)
        await ws.close()
        if told == "seated":
            return time.monotonic() - since
        await asyncio.sleep(0.05)
    return None


async def peaks(pids: dict[str, int | None], stop: asyncio.Event) -> dict[str, int]:
    """The highest VmRSS of each process until `stop` (VmHWM of the server counts its whole
    life; this is what it reached during the probe)."""
    high: dict[str, int] = {}
    while not stop.is_set():
        for name, pid in pids.items():
            rss = status_kib(pid).get("VmRSS")
            if rss is not None:
                high[name] = max(high.get(name, 0), rss)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.05)
    return high


# ---------------------------------------------------------------- the probes

async def flood(folder: Path, nofile: int, payload: list[str], what: str,
                seconds: float) -> list[str]:
    """A seated tab sends `payload` (messages) for at most `seconds`, then hangs up."""
    server = Server(folder, nofile)
    await server.start()
    out: list[str] = []
    try:
        async with aiohttp.ClientSession() as session:
            ws, told = await sit_down(session, server)
            assert told == "seated", told
            tab = server.tab_pid()
            before = {"server": status_kib(server.pid).get("VmRSS"),
                      "tab": status_kib(tab).get("VmRSS")}
            stop = asyncio.Event()
            watching = asyncio.create_task(peaks({"server": server.pid, "tab": tab}, stop))
            reading = asyncio.create_task(drain(ws))
            sent = 0
            closed_by_server = ""
            started = time.monotonic()

            async def send() -> None:
                nonlocal sent
                for message in payload:
                    await ws.send_str(message)
                    sent += len(message)

            sending = asyncio.create_task(send())
            done, _ = await asyncio.wait({sending, reading}, timeout=seconds)
            if reading in done:
                closed_by_server = f"closed by the server ({reading.result()})"
            took = time.monotonic() - started
            closing = time.monotonic()
            hang_up(ws)
            sending.cancel()
            reading.cancel()
            gone = None
            while time.monotonic() - closing < 60:
                if tab is None or not alive(tab):
                    gone = time.monotonic() - closing
                    break
                await asyncio.sleep(0.02)
            stop.set()
            high = await watching
            seated = await until_seated_again(session, server, closing)
            await asyncio.sleep(1)
            after = status_kib(server.pid).get("VmRSS")
        out += [
            f"{what}: the socket took {sent / 2**20:.1f} MiB in {took:.1f} s"
            + (f"; {closed_by_server}" if closed_by_server else ""),
            f"  server RSS {mib(before['server'])} before, peak {mib(high.get('server'))}, "
            f"{mib(after)} after the tab left",
            f"  tab's process RSS {mib(before['tab'])} before, peak {mib(high.get('tab'))}",
            "  after the socket closed: tab's process gone in "
            + (f"{gone:.2f} s" if gone is not None else "more than 60 s")
            + ", next tab seated in " + (f"{seated:.2f} s" if seated is not None else
                                          "more than 60 s"),
        ]
        out += [f"  server said: {line}" for line in server.lines[server.announced:]]
    finally:
        await server.stop()
    return out


async def idle(folder: Path, nofile: int, sockets: int, source: str, spread: int = 1
               ) -> list[str]:
    server = Server(folder, nofile)
    await server.start()
    out: list[str] = []
    held: list[socket.socket] = []
    try:
        before = status_kib(server.pid).get("VmRSS")
        files_before = open_files(server.pid)
        refused = 0
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        sources = [source] if spread <= 1 else [f"127.0.{1 + i // 250}.{1 + i % 250}"
                                                 for i in range(spread)]
        for number in range(sockets):
            sock = socket.socket()
            sock.setblocking(False)
            sock.bind((sources[number % len(sources)], 0))
            try:
                await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", server.port)), 5)
            except (OSError, TimeoutError):
                refused += 1
                sock.close()
                continue
            held.append(sock)
        opened = time.monotonic() - started
        await asyncio.sleep(1)
        still = sum(1 for sock in held if still_open(sock))
        files = open_files(server.pid)
        started = time.monotonic()
        page, page_took, told, seated_took = "none", 0.0, "not seated", 0.0
        try:
            async with aiohttp.ClientSession() as session:
                async with session.get(server.link) as welcome, session.get(
                        f"{server.url}/", headers={"Cookie": server.cookie}) as index:
                    page = f"{welcome.status}, then {index.status}"
                page_took = time.monotonic() - started
                ws, told = await sit_down(session, server)
                seated_took = time.monotonic() - started
                await ws.close()
        except (aiohttp.ClientError, OSError, TimeoutError) as e:
            told = f"refused ({type(e).__name__})"
        await asyncio.sleep(0.2)
        after = status_kib(server.pid)
        out += [
            f"idle: {sockets} TCP connections from "
            f"{source if spread <= 1 else f'{spread} addresses 127.0.1.1...'} opened in "
            f"{opened:.1f} s "
            f"({refused} not connected), {still} still open 1 s later",
            f"  server open files {files_before} before, {files} with them open; "
            f"RSS {mib(before)} before, {mib(after.get('VmRSS'))} after "
            f"(peak {mib(after.get('VmHWM'))})",
            f"  a real player from 127.0.0.1: page {page} in {page_took:.2f} s, tab "
            f"{told} in {seated_took:.2f} s; server "
            f"{'running' if server.process.returncode is None else 'ENDED'}",
        ]
        out += [f"  server said: {line}" for line in server.lines[server.announced:]]
    finally:
        for sock in held:
            sock.close()
        await server.stop()
    return out


def still_open(sock: socket.socket) -> bool:
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


async def killed(folder: Path, nofile: int) -> list[str]:
    server = Server(folder, nofile)
    await server.start()
    async with aiohttp.ClientSession() as session:
        ws, told = await sit_down(session, server)
        tab = server.tab_pid()
        server.process.kill()
        await server.process.wait()
        gone = None
        started = time.monotonic()
        while time.monotonic() - started < 10:
            if tab is None or not alive(tab):
                gone = time.monotonic() - started
                break
            await asyncio.sleep(0.02)
        if gone is None and tab is not None:
            os.kill(tab, signal.SIGKILL)
        await ws.close()
    return [f"killed: the server SIGKILLed with a tab {told}: the tab's process "
            + (f"gone in {gone:.2f} s" if gone is not None else "STILL RUNNING after 10 s "
               "(killed by this probe)")]


async def main_async(args) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    probes = ["keys", "big", "paste", "idle", "killed"] if args.probe == "all" else [args.probe]
    print(f"serve web, open files {args.nofile}; this machine: {os.cpu_count()} cores")
    for probe in probes:
        with tempfile.TemporaryDirectory(prefix="web-flood-") as scratch:
            folder = Path(scratch)
            if probe == "keys":
                for size in args.mib or [2, 8]:
                    lines = await flood(folder, args.nofile, ['["stdin", "' + "z" * 1000 + '"]']
                                        * int(size * 2**20 / 1000), f"keys: {size} MiB of z",
                                        args.seconds)
                    print("\n".join(lines), flush=True)
            elif probe == "big":
                print("\n".join(await flood(folder, args.nofile, ['["stdin", "' + "z" * 2**21
                                                                  + '"]'],
                                            "big: one message of 2 MiB", args.seconds)),
                      flush=True)
            elif probe == "paste":
                chunk = "p" * 60_000
                messages = ['["stdin", "\\u001b[200~' + chunk + '"]'] + [
                    f'["stdin", "{chunk}"]'] * (8 * 2**20 // 60_000)
                print("\n".join(await flood(folder, args.nofile, messages,
                                            "paste: 8 MiB in one paste that never ends",
                                            args.seconds)), flush=True)
            elif probe == "idle":
                for count in args.sockets or [1100, 5000]:
                    print("\n".join(await idle(folder, args.nofile, count, args.source,
                                                args.spread)), flush=True)
            elif probe == "killed":
                print("\n".join(await killed(folder, args.nofile)), flush=True)


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe", choices=["keys", "big", "paste", "idle", "killed", "all"])
    parser.add_argument("--mib", type=float, action="append",
                        help="MiB of keys (again for more runs; default 2 and 8)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="at most this long flooding before the tab hangs up")
    parser.add_argument("--sockets", type=int, action="append",
                        help="idle connections (again for more runs; default 1100 and 5000)")
    parser.add_argument("--source", default="127.0.0.2")
    parser.add_argument("--spread", type=int, default=1,
                        help="idle connections from this many addresses (127.0.1.1...)")
    parser.add_argument("--nofile", type=int, default=1024)
    asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
