"""Floods and exhaustion against the real `warledger serve ssh`, through the real OpenSSH
client on loopback: what the server and a player's process hold in memory, and whether a
real player still gets in. It prints figures; it asserts nothing.

    uv run python -m tests.benchmarks.ssh_flood flood              # 300 MiB of `z`, at most 120 s
    uv run python -m tests.benchmarks.ssh_flood flood --mib 50 --seconds 30
    uv run python -m tests.benchmarks.ssh_flood idle               # 5,000 idle sockets
    uv run python -m tests.benchmarks.ssh_flood idle --sockets 1100 --source 127.0.0.2
    uv run python -m tests.benchmarks.ssh_flood crowd              # 50 addresses x 24, 10 tries
    uv run python -m tests.benchmarks.ssh_flood all

- flood: a player sits down with `ssh -tt` (stdin a pipe) and `z` is written into it as fast
  as ssh takes it, up to --mib MiB or --seconds seconds; the screen is read and dropped.
  Printed: the server's and the player's resident memory (VmRSS, /proc/PID/status) before,
  their peaks (VmHWM) during, and the server's after the player has left; how much of the
  flood ssh took, and how fast.
- idle: the server is started with a soft open-files limit of --nofile (1024, the common
  default; the hard limit as this shell has it, or --hard), then --sockets TCP connections
  are opened to it from --source (by default 127.0.0.1, the player's own address) and left
  idle; then a real player connects with `ssh -tt`. Printed: how long until the player's
  home screen, the server's open files, memory and console output meanwhile, and whether
  the server is still running.
- crowd (issue 46): the server is started with 1,024 open files (soft and hard); a player
  logs in once from 127.0.0.1 and leaves (the address is known from then on). Then, --tries
  times, a crowd of --addresses addresses x --each connections (127.0.K.2 onwards, new
  addresses each try) connect and send `SSH-2.0-OpenSSH_9.2` and sit, and the player
  connects with `ssh -tt` while they do. Printed: each try's time to the home screen and
  how many of the crowd's connections the server still held then; then, after a last
  crowd has been shed (its key exchange's deadline), the time a new address's player
  takes to its home screen, and whether a crowd's address coming back is refused at once.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

FIRST_FRAME = "New Struggle of Empires"
CHUNK = 64 * 1024


def status_kib(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM (peak RSS)... of /proc/PID/status, in KiB; {} when it is gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return {line.split(":")[0]: int(line.split()[1]) for line in lines if line.endswith("kB")}


def read_bytes(pid: int) -> int:
    """What the process has read so far (rchar, /proc/PID/io): its terminal, mostly."""
    try:
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            if line.startswith("rchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def mib(kib: int | None) -> str:
    return "gone" if kib is None else f"{kib / 1024:.1f} MiB"


class Server:
    """`warledger serve ssh` in a process of its own, with the players' keys of
    tests/benchmarks/ssh_players.Table, its open-files limits set as asked; everything it
    prints is kept (with the time it came)."""

    def __init__(self, folder: Path, players: int, nofile: int | None = None,
                 hard: int | None = None) -> None:
        from tests.benchmarks.ssh_players import Table
        from tests.openssh import key_file

        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env.update({"TERM": "xterm-256color", "XDG_DATA_HOME": str(folder / "xdg"),
                    "WARLEDGER_DB": str(folder / "default.db")})
        self.table = Table(folder, env, players)
        self.identities = {name: key_file(key, folder / "client", name)
                           for name, key in self.table.keys.items()}
        self.nofile, self.hard = nofile, hard
        self.output: list[tuple[float, str]] = []
        self.process: subprocess.Popen | None = None
        self.port = 0

    def limits(self) -> None:  # in the server's process, before it runs
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        hard = self.hard or hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(self.nofile or soft, hard), hard))

    def open(self) -> None:
        import re

        table = self.table
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tui", "--db", str(table.db), "serve", "ssh", "--port",
             "0", "--max-sessions", str(table.players), "--authorized-keys",
             str(table.authorized)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env=table.env, preexec_fn=self.limits)
        for line in self.process.stdout:
            self.output.append((time.monotonic(), line))
            if match := re.search(r"table open on [^:]+:(\d+)", line):
                self.port = int(match[1])
                break
        if not self.port:
            raise RuntimeError(f"the server never listened: {''.join(self.lines())}")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.output.append((time.monotonic(), line))

    def lines(self, since: float = 0.0) -> list[str]:
        return [line for at, line in list(self.output) if at >= since]

    def children(self) -> list[int]:
        from tests.benchmarks.ssh_players import descendants_of

        return descendants_of(self.process.pid)

    def soft_limit(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return int(line.split()[3])
        return -1

    def close(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Player:
    """`ssh -tt` as a player at the table, stdin a pipe; the screen read and dropped, but
    watched for FIRST_FRAME."""

    def __init__(self, server: Server, name: str, *options: str) -> None:
        from tests.openssh import ssh_command

        self.started = time.monotonic()
        self.process = subprocess.Popen(
            ssh_command(server.port, server.identities[name], *options), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.tail = b""
        self.received = 0
        self.at_home: float | None = None
        self.home = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while chunk := self.process.stdout.read1(65536):
            self.received += len(chunk)
            self.tail = (self.tail + chunk)[-4096:]
            if not self.home.is_set() and FIRST_FRAME.encode() in self.tail:
                self.at_home = time.monotonic() - self.started
                self.home.set()
        self.home.set()  # ended: whoever waits looks at at_home

    def wait_home(self, timeout: float) -> float | None:
        self.home.wait(timeout)
        return self.at_home

    def leave(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def flood(folder: Path, mib_at_most: int, seconds: float) -> list[str]:
    server = Server(folder, players=2)
    server.open()
    lines: list[str] = []
    try:
        (warm,) = server.children() or [None]  # the warm parent, where players are forked
        time.sleep(1.0)
        server_before = status_kib(server.process.pid)["VmRSS"]
        player = Player(server, server.table.names[0])
        if player.wait_home(60) is None:
            raise RuntimeError(f"no home screen: {player.tail[-500:]!r}")
        time.sleep(1.0)
        (pid,) = [p for p in server.children() if p != warm]
        player_before = status_kib(pid)["VmRSS"]
        read_before = read_bytes(pid)
        server_at_home = status_kib(server.process.pid)["VmRSS"]
        sent, zs = 0, b"z" * CHUNK
        samples: list[tuple[float, int, int]] = []
        started = time.monotonic()

        def sample() -> None:
            while player.process.poll() is None and not stop.is_set():
                samples.append((time.monotonic() - started,
                                status_kib(server.process.pid).get("VmRSS", 0),
                                status_kib(pid).get("VmRSS", 0)))
                stop.wait(0.5)

        stop = threading.Event()
        threading.Thread(target=sample, daemon=True).start()
        writer_done = threading.Event()

        def write() -> None:
            nonlocal sent
            try:
                while sent < mib_at_most * 1024 * 1024 and not stop.is_set():
                    player.process.stdin.write(zs)
                    sent += len(zs)
            except (BrokenPipeError, ValueError, OSError):
                pass
            writer_done.set()

        threading.Thread(target=write, daemon=True).start()
        writer_done.wait(seconds)
        took = time.monotonic() - started
        server_peak = status_kib(server.process.pid)["VmHWM"]
        player_now = status_kib(pid)
        player_read = read_bytes(pid) - read_before
        stop.set()
        player.leave()
        deadline = time.monotonic() + 15
        while pid in server.children() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(2.0)
        server_after = status_kib(server.process.pid)["VmRSS"]
        lines += [
            f"flood: {sent / 1024:,.0f} KiB of `z` taken by ssh in {took:.1f} s "
            f"({sent / 1024 / took:,.1f} KiB/s; asked {mib_at_most} MiB or {seconds:g} s)",
            f"flood: server RSS {mib(server_before)} idle, {mib(server_at_home)} with the "
            f"player at home, peak {mib(server_peak)} (VmHWM, whole life), "
            f"{mib(server_after)} after the player left",
            f"flood: player RSS {mib(player_before)} at home, peak "
            f"{mib(player_now.get('VmHWM'))}, {mib(player_now.get('VmRSS'))} at the end; "
            f"it read {player_read / 1024:,.0f} KiB meanwhile (its terminal, mostly: "
            f"{player_read / 1024 / took:,.1f} KiB/s)",
            "flood: every 10 s (s, server MiB, player MiB): " + ", ".join(
                f"({t:.0f}, {s / 1024:.1f}, {p / 1024:.1f})" for t, s, p in samples[::20]),
            f"flood: player's process ended: {pid not in server.children()}; "
            f"server still running: {server.process.poll() is None}"]
    finally:
        server.close()
    return lines


def idle(folder: Path, sockets: int, source: str, nofile: int, hard: int | None,
         hold: float) -> list[str]:
    server = Server(folder, players=2, nofile=nofile, hard=hard)
    server.open()
    lines = [f"idle: server soft open-files limit {server.soft_limit()} (started with "
             f"{nofile}, hard {hard or resource.getrlimit(resource.RLIMIT_NOFILE)[1]})"]
    held: list[socket.socket] = []
    try:
        time.sleep(1.0)
        rss_before = status_kib(server.process.pid)["VmRSS"]
        files_before = open_files(server.process.pid)
        since = time.monotonic()
        for _ in range(sockets):
            s = socket.socket()
            s.setblocking(False)
            s.bind((source, 0))
            s.connect_ex(("127.0.0.1", server.port))
            held.append(s)
        connected = until_connected(held, hold)
        files_flooded = open_files(server.process.pid)
        player = Player(server, server.table.names[0])
        at_home = player.wait_home(60)
        files_seated = open_files(server.process.pid)
        try:
            player.process.stdin.write(b"\x11")  # ctrl+q
            player.process.stdin.flush()
        except OSError:
            pass  # it has ended already
        try:
            player.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            player.leave()
        said = server.lines(since)
        lines += [
            f"idle: {sockets} idle sockets from {source} ({connected} connected within "
            f"{hold:g} s), then a real player "
            f"(ssh -tt from 127.0.0.1): "
            + (f"home screen after {at_home * 1000:.0f} ms" if at_home is not None
               else f"NO home screen in 60 s: {player.tail[-300:]!r}"),
            f"idle: server open files {files_before} before, {files_flooded} with the "
            f"sockets open, {files_seated} with the player seated; RSS {mib(rss_before)} "
            f"before, {mib(status_kib(server.process.pid).get('VmRSS'))} after",
            f"idle: the server said {len(said)} lines ({sum(map(len, said))} bytes) meanwhile"
            + "".join(f"\n    {line.rstrip()}" for line in said[:12]),
            f"idle: server still running: {server.process.poll() is None}"]
    finally:
        for s in held:
            s.close()
        server.close()
    return lines


HELLO = b"SSH-2.0-OpenSSH_9.2\r\n"


def crowd_sockets(port: int, sources: list[str], each: int, seconds: float) -> list[socket.socket]:
    """`each` connections from every one of `sources`, each sending HELLO once connected
    (within `seconds`), then sitting."""
    import select

    held = []
    for source in sources:
        for _ in range(each):
            s = socket.socket()
            s.setblocking(False)
            s.bind((source, 0))
            s.connect_ex(("127.0.0.1", port))
            held.append(s)
    waiting = {s.fileno(): s for s in held}
    deadline = time.monotonic() + seconds
    while waiting and time.monotonic() < deadline:
        poll = select.poll()
        for fd in waiting:
            poll.register(fd, select.POLLOUT)
        for fd, _ in poll.poll(100):
            s = waiting.pop(fd)
            with contextlib.suppress(OSError):
                s.send(HELLO)
    return held


def still_held(sockets: list[socket.socket]) -> int:
    """How many of `sockets` the server has not closed (nor refused: they are closed at
    once after one line)."""
    import select

    poll = select.poll()
    for s in sockets:
        poll.register(s.fileno(), select.POLLRDHUP)
    ended = {fd for fd, event in poll.poll(0)
             if event & (select.POLLRDHUP | select.POLLHUP | select.POLLERR)}
    return sum(s.fileno() not in ended for s in sockets)


def crowd(folder: Path, tries: int, addresses: int, each: int) -> list[str]:
    server = Server(folder, players=2, nofile=1024, hard=1024)
    server.open()
    name = server.table.names[0]
    lines = [f"crowd: server soft open-files limit {server.soft_limit()}"]
    try:
        first = Player(server, name)
        if first.wait_home(60) is None:
            raise RuntimeError(f"no home screen: {first.tail[-500:]!r}")
        first.leave()
        lines.append(f"crowd: the player on a quiet table: at home after "
                     f"{first.at_home * 1000:.0f} ms (from 127.0.0.1, known from now on)")
        times: list[float] = []
        for k in range(1, tries + 1):
            sources = [f"127.0.{k}.{n}" for n in range(2, 2 + addresses)]
            since = time.monotonic()
            held = crowd_sockets(server.port, sources, each, 30)
            sat = still_held(held)
            player = Player(server, name)
            at_home = player.wait_home(30)
            holding = still_held(held)
            player.leave()
            for s in held:
                s.close()
            said = server.lines(since)
            times.append(at_home if at_home is not None else float("inf"))
            lines.append(
                f"crowd: try {k}: {addresses} x {each} connections sent their version "
                f"in {time.monotonic() - since - (at_home or 0):.1f} s ({sat} of them not "
                f"closed yet); the known player "
                + (f"at home after {at_home * 1000:.0f} ms" if at_home is not None
                   else f"NOT at home in 30 s: {player.tail[-300:]!r}")
                + f", the crowd still held {holding}; the server said {len(said)} lines")
            time.sleep(1.0)
        ok = [t for t in times if t <= 5.0]
        lines.append(f"crowd: the known player at home within 5 s in {len(ok)} of {tries} "
                     f"tries (median {sorted(times)[len(times) // 2] * 1000:.0f} ms, "
                     f"slowest {max(times) * 1000:.0f} ms)")
        sources = [f"127.0.200.{n}" for n in range(2, 2 + addresses)]
        since = time.monotonic()
        held = crowd_sockets(server.port, sources, each, 30)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
                "no key exchange within" in line for line in server.lines(since)):
            time.sleep(0.1)
        shed_after = time.monotonic() - since
        time.sleep(0.5)
        stranger = Player(server, server.table.names[1], "-o", "BindAddress=127.0.201.7")
        at_home = stranger.wait_home(30)
        stranger.leave()
        refused = 0
        for source in sources:  # each of the crowd's addresses comes back once
            with socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                          source_address=(source, 0)) as back:
                refused += not back.recv(4096).startswith(b"SSH-")
        for s in held:
            s.close()
        lines += [
            f"crowd: a last crowd shed (its first connection closed) {shed_after:.1f} s "
            f"after it came; then a new address's player "
            + (f"at home after {at_home * 1000:.0f} ms" if at_home is not None
               else f"NOT at home in 30 s: {stranger.tail[-300:]!r}"),
            f"crowd: of its {addresses} addresses coming back once each, {refused} were "
            "refused at once (penalised: their connections had sat past the deadline)",
            "crowd: the server's lines meanwhile:" + "".join(
                f"\n    {line.rstrip()}" for line in server.lines(since)[:12]),
            f"crowd: server still running: {server.process.poll() is None}"]
    finally:
        server.close()
    return lines


def until_connected(sockets: list[socket.socket], seconds: float) -> int:
    """Wait until every socket's connect is done (or `seconds` passed); how many are
    connected (the kernel answers for a listener whose queue has room; SYNs beyond it are
    sent again, 1, 3, 7... s later)."""
    import select

    waiting = {s.fileno(): s for s in sockets}
    connected = 0
    deadline = time.monotonic() + seconds
    while waiting and time.monotonic() < deadline:
        poll = select.poll()
        for fd in waiting:
            poll.register(fd, select.POLLOUT)
        for fd, _ in poll.poll(200):
            s = waiting.pop(fd)
            connected += s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
    return connected


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("probe", choices=["flood", "idle", "crowd", "all"])
    parser.add_argument("--tries", type=int, default=10)
    parser.add_argument("--addresses", type=int, default=50)
    parser.add_argument("--each", type=int, default=24)
    parser.add_argument("--mib", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--sockets", type=int, default=5000)
    parser.add_argument("--source", default="127.0.0.1")
    parser.add_argument("--nofile", type=int, default=1024)
    parser.add_argument("--hard", type=int)
    parser.add_argument("--hold", type=float, default=40.0,
                        help="seconds at most to wait for the idle sockets to connect")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(args.sockets, args.addresses * args.each) + 256  # this side's sockets
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, wanted), hard))
    with tempfile.TemporaryDirectory(prefix="warledger-flood-") as scratch:
        if args.probe in ("flood", "all"):
            for line in flood(Path(scratch) / "flood", args.mib, args.seconds):
                print(line, flush=True)
        if args.probe in ("idle", "all"):
            for line in idle(Path(scratch) / "idle", args.sockets, args.source, args.nofile,
                             args.hard, args.hold):
                print(line, flush=True)
        if args.probe in ("crowd", "all"):
            for line in crowd(Path(scratch) / "crowd", args.tries, args.addresses, args.each):
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
