"""SSH players, light and quick: what a connected player costs in memory, and how long a
player waits for the first frame, measured on the real `warledger serve ssh` with asyncssh
clients over loopback.

    uv run python -m tests.benchmarks.ssh_players                  # 4 and 16 players, 5 runs
    uv run python -m tests.benchmarks.ssh_players --players 4 --runs 3

`measure(folder, env)` returns the figures (tests/benchmarks/run.py can print them):

- memory per connected player: the proportional set size (PSS, /proc/PID/smaps_rollup)
  of every process under the server (the players, and the warm parent they are forked
  from), plus what the server itself grew, over the number of players; with 4 and with 16
  players at the home screen with the saved games listed. PSS splits a page shared by k
  processes k ways, so the sum is what the table really takes.
- connect to first frame: from `asyncssh.connect` until the home screen's first frame is
  in the client's output, one player at a time on an idle table, against `warledger --db
  FILE` started in a pseudo-terminal of the same size (interleaved runs, medians).

Also `python -m tests.benchmarks.ssh_players probe REPORT ARGS...`: what the tests run as a
player (tests/test_hosting_fork.py): tui.hosting.child with ARGS, then a JSON REPORT of the
modules it imported while it ran, its threads at start and its environment. Only the
standard library is imported before that, so the report sees every import the TUI makes.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import NamedTuple

TERMINAL = (100, 30)  # columns, rows
FIRST_FRAME = "New Struggle of Empires"  # the footer: the last line of the home screen's frame
LISTED = "Demo: Risk"  # a demo game's title: the saved games are listed
ANSI = rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\-_])"


# ---------------------------------------------------------------- a player, looked into

def probe(report: str, argv: list[str]) -> None:
    """Run the TUI as a player (tui.hosting.child ARGS); when it ends, write to `report`
    the modules imported meanwhile, the threads there were at start and the environment."""
    import threading

    threads = threading.active_count()
    before = set(sys.modules)
    started = time.perf_counter()
    try:
        from tui.hosting.child import main

        main(argv)
    finally:
        with open(report, "w") as out:
            json.dump({"imported": sorted(set(sys.modules) - before), "threads": threads,
                       "environ": dict(os.environ), "pid": os.getpid(),
                       "ran": time.perf_counter() - started}, out)


# ---------------------------------------------------------------- measuring

def memory_kib(pid: int) -> dict[str, int]:
    """/proc/PID/smaps_rollup in KiB (Rss, Pss, Private_Dirty...); {} when it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            lines = rollup.read().splitlines()[1:]
    except OSError:
        return {}
    return {line.split(":")[0]: int(line.split()[1]) for line in lines if line.endswith("kB")}


def parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def descendants_of(pid: int) -> list[int]:
    """Every process under `pid`: the players and whatever starts them."""
    parents = {int(p): parent_of(int(p)) for p in os.listdir("/proc") if p.isdigit()}
    found, frontier = [], {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found += sorted(frontier)
    return found


def strip_ansi(raw: bytes) -> str:
    import re

    return re.sub(ANSI, b"", raw).decode("utf-8", "replace")


def local_start(argv: list[str], env: dict[str, str], *markers: str,
                timeout: float = 60.0) -> list[float]:
    """Run `argv` in a pseudo-terminal of TERMINAL's size; seconds until each marker text was
    drawn; then ctrl+q."""
    return pty_start(argv, env, *markers, timeout=timeout)[0]


def in_a_terminal(argv: list[str], env: dict[str, str], cwd=None):
    """`argv` started in a pseudo-terminal of TERMINAL's size, in a session of its own:
    (the terminal's master side, the process)."""
    import fcntl
    import struct
    import subprocess
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", TERMINAL[1], TERMINAL[0], 0, 0))
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                            start_new_session=True, close_fds=True)
    os.close(slave)
    return master, proc


def drain(master: int, proc, until: float) -> None:
    """Read what `proc` writes to its terminal (so it never waits on a full one) until it
    ends or time.monotonic() passes `until`."""
    import select

    while proc.poll() is None and time.monotonic() < until:
        if select.select([master], [], [], 0.1)[0]:
            try:
                os.read(master, 65536)
            except OSError:
                break


def pty_start(argv: list[str], env: dict[str, str], *markers: str, cwd=None,
              timeout: float = 60.0) -> tuple[list[float], bytes]:
    """`argv` in a pseudo-terminal of TERMINAL's size: seconds until each marker text was
    drawn, and everything it wrote until then; then ctrl+q."""
    import select
    import signal

    t0 = time.perf_counter()
    master, proc = in_a_terminal(argv, env, cwd)
    raw, seen = b"", []
    try:
        while len(seen) < len(markers):
            if time.perf_counter() - t0 > timeout:
                raise RuntimeError(f"{argv}: never drew {markers[len(seen)]!r}: "
                                   f"{strip_ansi(raw)[-800:]!r}")
            if not select.select([master], [], [], 0.5)[0]:
                continue
            try:
                raw += os.read(master, 65536)
            except OSError:
                raise RuntimeError(f"{argv}: ended early: {strip_ansi(raw)[-800:]!r}") from None
            text = strip_ansi(raw)
            while len(seen) < len(markers) and markers[len(seen)] in text:
                seen.append(time.perf_counter() - t0)
        os.write(master, b"\x11")  # ctrl+q
        drain(master, proc, time.monotonic() + 5)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
    return seen, raw


class Seat(NamedTuple):
    """A player at the table: the connection, its channel and terminal, and the seconds from
    the connect until each marker asked for showed."""

    conn: object
    chan: object
    term: object
    seen: list[float]


class Table:
    """`warledger serve ssh` in a process of its own, and asyncssh players for it."""

    def __init__(self, folder, env: dict[str, str], players: int) -> None:
        import asyncssh

        from storage.service import open_ledger
        from tui.cli.demo import load_demos

        folder.mkdir(parents=True, exist_ok=True)
        self.db = folder / "ssh-players.db"
        load_demos(open_ledger(str(self.db)))
        self.names = [f"P{i:02d}" for i in range(players)]
        self.keys = {n: asyncssh.generate_private_key("ssh-ed25519") for n in self.names}
        keys_folder = folder / "ssh-players-keys"
        keys_folder.mkdir(mode=0o700)
        self.authorized = keys_folder / "authorized_keys"
        self.authorized.write_text("".join(
            f'player="{n}" {k.export_public_key().decode().strip()}\n'
            for n, k in self.keys.items()))
        self.data = folder / "ssh-players-data"
        (self.data / "warledger").mkdir(parents=True)
        self.env = {**env, "XDG_DATA_HOME": str(self.data)}
        self.players = players
        self.server = None
        self.port = 0

    async def open(self) -> None:
        import asyncio
        import re
        import subprocess

        self.server = subprocess.Popen(
            [sys.executable, "-m", "tui", "--db", str(self.db), "serve", "ssh", "--port", "0",
             "--max-sessions", str(self.players), "--authorized-keys", str(self.authorized)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=self.env)
        loop = asyncio.get_running_loop()
        while not self.port:
            line = await asyncio.wait_for(
                loop.run_in_executor(None, self.server.stdout.readline), 60)
            if not line:
                raise RuntimeError("the server ended before listening")
            if match := re.search(r"table open on [^:]+:(\d+)", line):
                self.port = int(match[1])
        # The rest of what it says (who sat down, who left) is read and dropped.
        loop.run_in_executor(None, self.server.stdout.read)

    async def sit(self, name: str, *markers: str) -> Seat:
        """Connect as `name` with a pty; seconds from the connect until each marker showed."""
        import asyncio

        import asyncssh

        class Terminal(asyncssh.SSHClientSession):
            def __init__(self) -> None:
                self.raw = bytearray()
                self.changed = asyncio.Event()

            def data_received(self, data: bytes, datatype) -> None:
                self.raw += data
                self.changed.set()

            def connection_lost(self, exc) -> None:
                self.changed.set()

        t0 = time.perf_counter()
        conn = await asyncssh.connect("127.0.0.1", self.port, username="player",
                                      known_hosts=None, agent_path=None,
                                      client_keys=[self.keys[name]])
        chan, term = await conn.create_session(Terminal, term_type="xterm-256color",
                                               term_size=TERMINAL, encoding=None)
        seen: list[float] = []
        try:
            async with asyncio.timeout(120):
                while len(seen) < len(markers):
                    term.changed.clear()
                    text = strip_ansi(bytes(term.raw))
                    while len(seen) < len(markers) and markers[len(seen)] in text:
                        seen.append(time.perf_counter() - t0)
                    if len(seen) < len(markers):
                        await term.changed.wait()
        except BaseException:
            conn.close()
            raise
        return Seat(conn, chan, term, seen)

    async def close(self) -> None:
        import asyncio
        import signal
        import subprocess

        if self.server is None:
            return
        self.server.send_signal(signal.SIGTERM)
        try:
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: self.server.wait(timeout=20))
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()


async def _until(condition, timeout: float = 30.0) -> None:
    import asyncio

    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.1)


async def _measure(folder, env: dict[str, str], counts: tuple[int, ...], runs: int) -> dict:
    import asyncio
    import shutil
    import statistics

    table = Table(folder, env, max(counts))
    figures: dict = {}
    try:
        await table.open()
        # One player first, untimed: the table is ready (and its warm parent, if it has one).
        (await table.sit(table.names[0], FIRST_FRAME, LISTED)).conn.close()
        await _until(lambda: len(descendants_of(table.server.pid)) <= 1)
        await asyncio.sleep(1.0)
        idle = memory_kib(table.server.pid)
        warm_pids = descendants_of(table.server.pid)  # the warm parent, if players have one
        warm = [memory_kib(pid) for pid in warm_pids]

        warledger = shutil.which("warledger", path=os.path.dirname(sys.executable))
        local_cmd = [warledger or "warledger", "--db", str(table.db)]
        local_env = {**table.env, "TERM": "xterm-256color"}
        loop = asyncio.get_running_loop()
        ssh_first, ssh_listed, local_first, local_listed = [], [], [], []
        for run in range(runs):
            first, listed = await loop.run_in_executor(
                None, lambda: local_start(local_cmd, local_env, FIRST_FRAME, LISTED))
            local_first.append(first)
            local_listed.append(listed)
            seat = await table.sit(table.names[run % len(table.names)], FIRST_FRAME, LISTED)
            first, listed = seat.seen
            ssh_first.append(first)
            ssh_listed.append(listed)
            seat.chan.write(b"\x11")  # ctrl+q
            await asyncio.wait_for(seat.chan.wait_closed(), 20)
            seat.conn.close()
            base = len(warm)
            await _until(lambda base=base: len(descendants_of(table.server.pid)) <= base)
        figures["start"] = {
            "ssh_first_frame": statistics.median(ssh_first),
            "local_first_frame": statistics.median(local_first),
            "ssh_listed": statistics.median(ssh_listed),
            "local_listed": statistics.median(local_listed),
            "runs": runs}

        for count in counts:
            seated = await asyncio.gather(*(table.sit(name, FIRST_FRAME, LISTED)
                                            for name in table.names[:count]))
            await asyncio.sleep(2.0)  # every player settled after its first frames
            processes = {pid: memory_kib(pid) for pid in descendants_of(table.server.pid)}
            server = memory_kib(table.server.pid)
            players = [m for m in processes.values() if m]

            def per_player(field: str, players=players, server=server, count=count) -> float:
                grown = server.get(field, 0) - idle.get(field, 0)
                return (sum(m.get(field, 0) for m in players) + grown) / count / 1024

            alone = [m for pid, m in processes.items() if m and pid not in warm_pids]
            figures[count] = {
                "pss_mib": per_player("Pss"), "rss_mib": per_player("Rss"),
                "processes": len(players),
                "player_pss_mib": statistics.median(m.get("Pss", 0) / 1024 for m in alone),
                "private_mib": statistics.median(
                    (m.get("Private_Clean", 0) + m.get("Private_Dirty", 0)) / 1024
                    for m in alone),
                "warm_parent_pss_mib": sum(m.get("Pss", 0) for m in warm) / 1024,
                # They all connected at once: when the last one had the saved games listed.
                "last_listed": max(seat.seen[-1] for seat in seated),
                "server_grew_mib": (server.get("Pss", 0) - idle.get("Pss", 0)) / 1024}
            for seat in seated:
                seat.conn.close()
            base = len(warm)
            await _until(lambda base=base: len(descendants_of(table.server.pid)) <= base)
    finally:
        await table.close()
    return figures


def measure(folder, env: dict[str, str], counts: tuple[int, ...] = (4, 16),
            runs: int = 5) -> dict:
    """The figures (see the module's docstring), measured in `folder` (a fresh temporary
    folder of the caller's) with `env` as the processes' environment."""
    import asyncio

    return asyncio.run(_measure(folder, env, counts, runs))


def report_lines(figures: dict) -> list[str]:
    start = figures["start"]
    ratio = start["ssh_first_frame"] / start["local_first_frame"]
    lines = [
        f"SSH: connect to first frame {start['ssh_first_frame'] * 1000:.0f} ms, local start "
        f"{start['local_first_frame'] * 1000:.0f} ms: {ratio:.2f}x (target <= 1.2x) "
        f"{'PASS' if ratio <= 1.2 else 'FAIL'}",
        f"SSH: connect to saved games listed {start['ssh_listed'] * 1000:.0f} ms, local "
        f"{start['local_listed'] * 1000:.0f} ms: "
        f"{start['ssh_listed'] / start['local_listed']:.2f}x (info)"]
    for count, m in figures.items():
        if count == "start":
            continue
        lines.append(
            f"SSH: {count} players: {m['pss_mib']:.1f} MiB PSS per player (target <= 40) "
            f"{'PASS' if m['pss_mib'] <= 40 else 'FAIL'}; {m['rss_mib']:.1f} MiB RSS per "
            f"player; a player's process alone {m['player_pss_mib']:.1f} MiB PSS, "
            f"{m['private_mib']:.1f} MiB private; "
            f"{m['processes']} processes; warm parent alone {m['warm_parent_pss_mib']:.1f} "
            f"MiB PSS; the server grew {m['server_grew_mib']:.1f} MiB; connecting at once, "
            f"the last had the saved games listed after {m['last_listed'] * 1000:.0f} ms")
    return lines


def main(argv: list[str] | None = None) -> int:
    import argparse
    import tempfile
    from pathlib import Path

    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["probe"]:
        probe(argv[1], argv[2:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 16])
    parser.add_argument("--runs", type=int, default=5, help="connect-to-first-frame runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="warledger-ssh-") as scratch:
        folder = Path(scratch)
        env = {k: v for k, v in os.environ.items()
               if k not in ("COLUMNS", "LINES", "TMUX", "STY", "COLORTERM")}
        env.update({"TERM": "xterm-256color", "XDG_DATA_HOME": str(folder / "xdg"),
                    "WARLEDGER_DB": str(folder / "default.db")})
        figures = measure(folder, env, tuple(args.players), args.runs)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print("\n".join(report_lines(figures)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
