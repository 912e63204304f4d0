"""The warm parent SSH players are forked from (a "zygote"): started with the table, it
imports the TUI, SQLAlchemy and the rules once, opens the table's database once to load
what that takes, and then forks a player for each terminal. A forked player imports
nothing (its first frame comes at once) and shares those modules' memory with the parent
and every other player, copy-on-write, where a process of its own would import them all.

`python -m tui.hosting.zygote FD [--db DB]`, started by `WarmParent.start` only (Linux:
the kernel's /proc and AF_UNIX SOCK_SEQPACKET; elsewhere tui.hosting.ssh starts each player
as a process of its own). The parent never runs an event loop or a thread and keeps no
database connection (its engine is disposed before any fork), so a player starts as a fresh
process would: in a session of its own with the pty as its controlling terminal and stdin,
stdout and stderr, its own asyncio loop and its own connections.

What the server and the parent say, one message each on the socket (FD):
- server: {"argv": [python, "-m", MODULE, ARGS...], "env": {TERM, COLORTERM,
  WARLEDGER_LANG}}, with the
  player's pty (SCM_RIGHTS): run `python -m MODULE ARGS` in the pty;
- parent, in the order asked: {"started": PID} or {"refused": REASON};
- parent, when a player ends: {"ended": PID, "status": CODE} (negative: the signal).
The parent ends its players and itself when the server closes the socket, or on SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
from collections.abc import Callable

# What differs from one player to the next: read by the TUI when it runs, never when a
# module is imported. The rest of a player's environment is the parent's, fixed when it
# starts (Textual reads ESCDELAY and TEXTUAL_* at import), so a table keeps a parent per
# environment (tui.hosting.ssh.Table.warm_parent). A player's /proc/PID/environ is the
# parent's, as the kernel keeps the environment a process was started with: PER_PLAYER
# variables are set in os.environ only.
PER_PLAYER = ("TERM", "COLORTERM", "WARLEDGER_LANG")
MESSAGE_MAX = 65536
STOP_GRACE = 2.0  # seconds a player gets to end on SIGTERM before SIGKILL


# ---------------------------------------------------------------- the server's side

class Player:
    """A forked player as the server sees it: the part of asyncio.subprocess.Process the
    server uses (pid, returncode, wait)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._ended = asyncio.get_running_loop().create_future()

    async def wait(self) -> int:
        return await asyncio.shield(self._ended)  # a cancelled waiter leaves it pending

    def ended(self, status: int) -> None:
        if not self._ended.done():
            self.returncode = status
            self._ended.set_result(status)


class WarmParent:
    """The server's end of one warm parent: `fork` a player, `close` when the table closes."""

    def __init__(self, process: asyncio.subprocess.Process, sock: socket.socket) -> None:
        self.process = process
        self.sock = sock
        self.asked: list[asyncio.Future] = []  # forks asked for, answered in order
        self.players: dict[int, Player] = {}
        self.lost = False  # the parent is gone, or closed: ask another

    @classmethod
    async def start(cls, db: str | None, env: dict[str, str]) -> WarmParent:
        """Start a parent with the players' environment `env` (less PER_PLAYER). It warms up
        on its own: forks asked for meanwhile wait in the socket."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tui.hosting.zygote", str(theirs.fileno()),
                *(["--db", db] if db else []), stdin=asyncio.subprocess.DEVNULL,
                env=env, pass_fds=(theirs.fileno(),),
                start_new_session=True)  # the host's ctrl+c is the server's to handle
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        parent = cls(process, ours)
        asyncio.get_running_loop().add_reader(ours.fileno(), parent.read_answers)
        return parent

    async def fork(self, argv: list[str], tty: int, env: dict[str, str]) -> Player:
        """A player running `argv` (python -m MODULE ...) in the pty `tty` (still ours to
        close), with `env` (PER_PLAYER only) over the parent's environment. OSError when
        the parent refuses or is gone."""
        if self.lost:
            raise OSError("the players' warm parent has stopped")
        answer = asyncio.get_running_loop().create_future()
        message = json.dumps({"argv": argv, "env": env}).encode()
        try:
            socket.send_fds(self.sock, [message], [tty])
        except OSError:
            self._lose()
            raise
        self.asked.append(answer)
        return await answer

    def read_answers(self) -> None:
        """What the warm parent said (a player started, a player ended), read when the
        socket has it."""
        while True:
            try:
                data = self.sock.recv(MESSAGE_MAX)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lose()
                return
            said = json.loads(data)
            if "ended" in said:
                player = self.players.pop(said["ended"], None)
                if player is not None:
                    player.ended(said["status"])
            elif self.asked:
                answer = self.asked.pop(0)
                if "started" in said:
                    self.players[said["started"]] = Player(said["started"])
                    if not answer.done():
                        answer.set_result(self.players[said["started"]])
                    else:  # nobody waits for it any more (the session went): end it
                        with contextlib.suppress(ProcessLookupError):
                            os.killpg(said["started"], signal.SIGKILL)
                elif not answer.done():
                    answer.set_exception(OSError(said.get("refused", "refused")))

    def _lose(self, status: int = -signal.SIGKILL) -> None:
        """The parent is gone (or closed): nobody will say how its players end, so they
        are ended now, and forks still asked for fail."""
        if self.lost:
            return
        self.lost = True
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
        self.sock.close()
        for answer in self.asked:
            if not answer.done():
                answer.set_exception(OSError("the players' warm parent has stopped"))
        self.asked.clear()
        for pid, player in self.players.items():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            player.ended(status)
        self.players.clear()

    async def close(self) -> None:
        """Stop the parent: it ends whatever players are left (SIGTERM, then SIGKILL) and
        exits; killed if it has not within a few seconds."""
        players = list(self.players.values())
        if not self.lost:
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
            self.lost = True
            self.sock.close()  # the parent reads the end of the socket: it stops
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)  # still warming up: it stops at once
        try:
            await asyncio.wait_for(self.process.wait(), 2 * STOP_GRACE)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        for player in players:
            player.ended(-signal.SIGTERM)
        self.players.clear()


# ---------------------------------------------------------------- the parent's side

def warm(db: str | None) -> None:
    """Import what a player runs, and open the table's database the way a player does,
    so a forked player has it all loaded. The engine is disposed: no connection stays."""
    from rich.cells import cell_len

    load("tui.hosting.child")  # what every player runs

    # What Textual and its thread workers load as a player's app runs, and Rich's table of
    # character widths.
    for name in ("textual.drivers.linux_driver", "textual.pilot", "textual.scrollbar",
                 "concurrent.futures.thread"):
        load(name)
    walk("textual.layouts")
    cell_len("\u00e9\u4e00")
    # Every language's catalog, and Babel's dates and numbers in it (the saved games' times,
    # the local time zone), read once and shared: each player sets their own language.
    from datetime import UTC, datetime

    from i18n import SOURCE, format_moment, format_number, languages, set_language

    with contextlib.suppress(Exception):
        for code in languages():
            set_language(code)
            format_moment(datetime.now(UTC).astimezone(), "EEE dd MMM yyyy-MM-dd HH:mm")
            format_number(3.5)
    set_language(SOURCE)
    # Every module of the TUI, for the screens a player opens later (a game, the help, the
    # charts), less the command line (Typer, pydantic) and the hosts (asyncssh, aiohttp);
    # the storage and the rules, less the schema's definition (SQLModel, pydantic: for
    # Alembic and the tests) and the migration scripts (Alembic runs them as scripts).
    skip = ("tui.__main__", "tui.cli.typer_app", "tui.hosting.", "storage.tables", "storage.migrations")
    for package in ("tui", "storage", "rules"):
        walk(package, skip)
    try:
        from storage.service import open_ledger

        ledger = open_ledger(db)  # the dialect, its driver, the schema check (Alembic)
        try:
            ledger.games_page()  # the home screen's list: SQLAlchemy's lazily loaded parts
        finally:
            ledger.engine.dispose()
    except Exception:  # noqa: BLE001 - each player is told in their own terminal
        pass


def load(name: str) -> object | None:
    """Import `name`. A module that cannot be imported is left out of the warm-up: the
    player who needs it meets the error in their own terminal, as without a warm parent."""
    import importlib

    try:
        return importlib.import_module(name)
    except Exception:  # noqa: BLE001
        return None


def walk(package: str, skip: tuple[str, ...] = ()) -> None:
    """Import every module of `package`, less those whose names start with one of `skip`."""
    import pkgutil

    path = getattr(load(package), "__path__", [])
    for module in pkgutil.walk_packages(path, f"{package}.", onerror=lambda name: None):
        if not module.name.startswith(skip):
            load(module.name)


def refusal(ask: dict, fds: list[int]) -> str | None:
    """Why a request cannot be run, or None."""
    import importlib.util

    argv, env = ask.get("argv"), ask.get("env")
    if len(fds) != 1:
        return "no terminal was passed"
    if not (isinstance(argv, list) and len(argv) >= 3 and argv[:2] == [sys.executable, "-m"]
            and all(isinstance(a, str) for a in argv)):
        return f"only `{sys.executable} -m MODULE` can be started warm, not {argv!r}"
    if not (isinstance(env, dict) and set(env) <= set(PER_PLAYER)
            and all(isinstance(v, str) for v in env.values())):
        return f"only {', '.join(PER_PLAYER)} may differ between players"
    try:
        if importlib.util.find_spec(argv[2]) is None:
            return f"no module named {argv[2]}"
    except (ImportError, ValueError) as e:
        return str(e)
    return None


def serve(sock: socket.socket) -> Callable[[], None] | None:
    """Fork a player for each request until the server goes or SIGTERM. Returns in the
    parent with None once its players are ended; in a forked player, with what it runs."""
    import select

    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    for sig in (signal.SIGCHLD, signal.SIGTERM):
        signal.signal(sig, lambda *_: None)  # only to wake the select up
    players: set[int] = set()

    def say(message: dict) -> bool:
        try:
            sock.send(json.dumps(message).encode())
            return True
        except OSError:
            return False

    stopping = False
    watched: list[socket.socket | int] = [sock, wake_r]
    while not stopping:
        ready, _, _ = select.select(watched, [], [])
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                stopping = signal.SIGTERM in os.read(wake_r, 512)
            for pid, status in reap(players):
                say({"ended": pid, "status": status})
        if sock in ready and not stopping:
            try:
                data, fds, _, _ = socket.recv_fds(sock, MESSAGE_MAX, 1)
            except OSError:
                data, fds = b"", []
            if not data:
                break  # the server is gone or closed the table
            try:
                ask = json.loads(data)
            except ValueError:
                ask = {}
            reason = refusal(ask, fds)
            if reason is not None:
                for fd in fds:
                    os.close(fd)
                say({"refused": reason})
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                sock.close()
                os.close(wake_r)
                os.close(wake_w)
                signal.set_wakeup_fd(-1)
                for sig in (signal.SIGCHLD, signal.SIGTERM):
                    signal.signal(sig, signal.SIG_DFL)
                return lambda: become_player(ask["argv"], ask["env"], fds[0])
            os.close(fds[0])
            players.add(pid)
            say({"started": pid})
    end_players(players)
    return None


def reap(players: set[int]) -> list[tuple[int, int]]:
    """The players that have ended, with their exit codes (negative: the signal)."""
    ended = []
    while players:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
        players.discard(pid)
        ended.append((pid, os.waitstatus_to_exitcode(status)))
    return ended


def end_players(players: set[int]) -> None:
    """SIGTERM to every player's group, SIGKILL to those left after STOP_GRACE."""
    import time

    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in players:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, sig)
        deadline = time.monotonic() + STOP_GRACE
        while players and time.monotonic() < deadline:
            reap(players)
            time.sleep(0.05)


def become_player(argv: list[str], env: dict[str, str], tty: int) -> None:
    """In the forked child: take the pty and a session of its own, the player's variables,
    and run `python -m MODULE ARGS` as a fresh interpreter would."""
    import gc
    import runpy

    os.setsid()  # the TUI makes the pty its controlling terminal (tui.hosting.child)
    for fd in (0, 1, 2):
        os.dup2(tty, fd)
    if tty > 2:
        os.close(tty)
    os.environ.update(env)
    for name, fd, mode in (("stdin", 0, "r"), ("stdout", 1, "w"), ("stderr", 2, "w")):
        old = getattr(sys, f"__{name}__")
        stream = open(fd, mode, buffering=-1 if fd == 0 else 1, encoding=old.encoding,  # noqa: SIM115
                      errors=old.errors, closefd=False)
        setattr(sys, f"__{name}__", stream)
        setattr(sys, name, stream)
    gc.enable()
    sys.argv = [argv[0], *argv[3:]]
    # `python -m MODULE` runs the module's code afresh as __main__. The warm-up imported it
    # already (tui.hosting.child): runpy would warn, on the player's screen, that it found
    # the module imported before running it. The imported copy is set aside first, so the
    # module runs as a fresh interpreter runs it; everything it imports stays warm.
    sys.modules.pop(argv[2], None)
    runpy.run_module(argv[2], run_name="__main__", alter_sys=True)


def main() -> None:
    import argparse
    import gc

    parser = argparse.ArgumentParser(prog="warledger-warm-parent")
    parser.add_argument("fd", type=int)
    parser.add_argument("--db")
    args = parser.parse_args()
    sock = socket.socket(fileno=args.fd)
    # No collection while warming up, then every object kept out of the collector's
    # reach: a player's collections never write to the pages it shares with the parent.
    gc.disable()
    warm(args.db)
    gc.freeze()
    run = serve(sock)
    if run is not None:
        run()  # a player: the process ends like `python -m MODULE` would


if __name__ == "__main__":
    main()
