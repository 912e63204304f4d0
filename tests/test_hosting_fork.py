"""SSH players forked from the table's warm parent (tui.hosting.zygote), with a real asyncssh
client on loopback: a player is the parent's child and imports nothing as it starts, yet it
starts clean (a session and a terminal of its own, the environment allowlist, no loop,
thread or connection of its parent's); players are independent of each other; a parent that
stops is replaced; and where players are not forked they still get a process of their own."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import struct
import termios
from pathlib import Path

import pytest

from tests import test_hosting
from tests.test_hosting import (
    alive,
    environ_of,
    home_screen,
    probe,
    quit_for_report,
    sit_down,
    until,
)
from tui.hosting import ssh

# test_hosting's fixtures: tables on free ports with six players' keys, and the Friday game.
keys, data_dir, db, game = (test_hosting.keys, test_hosting.data_dir, test_hosting.db,
                            test_hosting.game)
open_host, host = test_hosting.open_host, test_hosting.host

forked = pytest.mark.skipif(not ssh.FORK_PLAYERS, reason="players are forked on Linux only")


def stat_of(pid: int) -> dict[str, int]:
    """Fields of /proc/PID/stat: the parent, process group, session and controlling tty."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return {"ppid": int(fields[1]), "pgrp": int(fields[2]), "session": int(fields[3]),
            "tty": int(fields[4])}


def pty_path(master: int) -> str:
    """The terminal end of the pty whose server end is `master`."""
    request = getattr(termios, "TIOCGPTN", 0x80045430)  # Linux's; Python does not name it
    number = struct.unpack("I", fcntl.ioctl(master, request, b"\0" * 4))[0]
    return f"/dev/pts/{number}"


def open_files(pid: int) -> set[str]:
    found = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            found.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
    return found


@forked
async def test_a_player_is_forked_warm_imports_nothing_and_gets_only_the_allowlist(
        open_host, keys, tmp_path, monkeypatch):
    monkeypatch.setenv("WARLEDGER_TEST_SECRET", "hunter2")  # in the host's shell at the start
    report = tmp_path / "ana.json"
    probe(monkeypatch, report)
    table, _ = await open_host()
    (parent,) = table.parents.values()
    conn, chan, terminal = await sit_down(table.port, keys["Ana"])
    await home_screen(terminal, "Ana")  # the saved games listed: the database was read
    terminal.forget()
    chan.write(b"\r")  # and a game's screen
    await terminal.wait_for(test_hosting.POPULATION, timeout=10)
    (seat,) = table.seats
    pid = seat.process.pid
    assert stat_of(pid)["ppid"] == parent.process.pid
    started = environ_of(pid)
    seen = await quit_for_report(chan, terminal, report)
    assert seen["pid"] == pid
    # Neither Textual, SQLAlchemy, the screens nor the rules: the parent had them all.
    assert seen["imported"] == []
    assert seen["threads"] == 1
    env = seen["environ"]
    assert (env["TERM"], env["COLORTERM"], env["ESCDELAY"]) == ("xterm-256color", "truecolor",
                                                                "250")
    assert "WARLEDGER_TEST_SECRET" not in env and env["PATH"] == os.environ["PATH"]
    assert set(env) <= {*os.environ, "TERM", "COLORTERM", "ESCDELAY"}
    # Its process was started as its warm parent (/proc/PID/environ is the parent's): its
    # environment is that, and its own TERM and COLORTERM.
    assert started == environ_of(parent.process.pid)
    assert env == {**started, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    assert "WARLEDGER_TEST_SECRET" not in environ_of(parent.process.pid)
    conn.close()


@forked
async def test_players_have_their_own_session_and_terminal_and_are_independent(host, keys):
    (parent,) = host.parents.values()
    seated = await asyncio.gather(*(sit_down(host.port, keys[name]) for name in ("Ana", "Bo")))
    await asyncio.gather(*(home_screen(terminal, name)
                           for name, (_, _, terminal) in zip(("Ana", "Bo"), seated,
                                                             strict=True)))
    seats = {seat.player: seat for seat in host.seats}
    for seat in seats.values():
        pid = seat.process.pid
        stat = stat_of(pid)
        assert stat["ppid"] == parent.process.pid
        assert stat["session"] == stat["pgrp"] == pid  # a session of its own, leading it
        terminal = pty_path(seat.master)
        assert stat["tty"] == os.stat(terminal).st_rdev  # its pty is its controlling terminal
        assert [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in (0, 1, 2)] == [terminal] * 3
    assert pty_path(seats["Ana"].master) != pty_path(seats["Bo"].master)

    (ana, ana_chan, ana_sees), (bo, bo_chan, bo_sees) = seated
    ana_pid, bo_pid = seats["Ana"].process.pid, seats["Bo"].process.pid
    ana_chan.write(b"\x11")  # Ana quits
    await asyncio.wait_for(ana_sees.closed.wait(), 10)
    assert ana_sees.exit_status == 0 and alive(bo_pid) and not bo_sees.closed.is_set()
    bo_sees.forget()
    bo_chan.change_terminal_size(120, 40)  # Bo's TUI still answers
    await bo_sees.wait_for("New Struggle of Empires", timeout=10)
    os.kill(bo_pid, signal.SIGKILL)  # Bo's process dies
    await asyncio.wait_for(bo_sees.closed.wait(), 10)
    assert bo_sees.exit_status == 1
    conn, _, cy_sees = await sit_down(host.port, keys["Cy"])  # the parent forks on
    await home_screen(cy_sees, "Cy")
    (cy,) = host.seats
    assert stat_of(cy.process.pid)["ppid"] == parent.process.pid
    await until(lambda: not alive(ana_pid) and not alive(bo_pid))
    for each in (ana, bo, conn):
        each.close()
    await host.clear()  # the table closes: the parent ends with its players
    assert parent.process.returncode is not None and not alive(cy.process.pid)


@forked
async def test_the_warm_parent_holds_no_loop_thread_or_connection(host, keys, db):
    conn, _, terminal = await sit_down(host.port, keys["Cy"])
    await home_screen(terminal, "Cy")
    (parent,) = host.parents.values()
    (seat,) = host.seats
    pid, parent_pid = seat.process.pid, parent.process.pid
    assert os.listdir(f"/proc/{parent_pid}/task") == [str(parent_pid)]  # no thread
    held = open_files(parent_pid)
    assert not any("eventpoll" in name for name in held)  # it never ran an event loop
    assert not any(name.startswith(db) for name in held)  # its engine was disposed
    assert db not in Path(f"/proc/{parent_pid}/maps").read_text()  # nor the log's index
    # The player inherited none of it: not the socket to the server, not the parent's pipe.
    inherited = {name for name in held if name.startswith(("socket:", "pipe:"))}
    assert inherited and not open_files(pid) & inherited
    conn.close()


@forked
@pytest.mark.slow  # two warm parents
async def test_a_stopped_warm_parent_ends_its_players_and_another_starts(host, keys):
    said: list[str] = []
    host.say = said.append
    conn, _, terminal = await sit_down(host.port, keys["Ana"])
    await home_screen(terminal, "Ana")
    (parent,) = host.parents.values()
    (seat,) = host.seats
    pid = seat.process.pid
    os.kill(parent.process.pid, signal.SIGKILL)
    # Nobody would say how her process ends: it is ended, and so is her session.
    await asyncio.wait_for(terminal.closed.wait(), 10)
    await until(lambda: not alive(pid))
    conn.close()
    conn, _, terminal = await sit_down(host.port, keys["Bo"])
    await home_screen(terminal, "Bo")
    (again,) = host.parents.values()
    assert again is not parent
    assert "the players' warm parent had stopped: starting another" in said
    conn.close()


@forked
@pytest.mark.slow  # two warm parents
async def test_a_changed_host_environment_gets_a_parent_of_its_own(host, keys, monkeypatch):
    """Textual reads its settings when it is imported: a player whose environment differs
    from the parent's (beyond TERM and COLORTERM) is forked from a parent started with it."""
    (first,) = host.parents.values()
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    conn, _, terminal = await sit_down(host.port, keys["Di"])
    await home_screen(terminal, "Di")
    (seat,) = host.seats
    second = next(parent for parent in host.parents.values() if parent is not first)
    assert stat_of(seat.process.pid)["ppid"] == second.process.pid
    assert environ_of(second.process.pid)["TEXTUAL_ANIMATIONS"] == "none"
    assert alive(first.process.pid)  # kept for whoever gets the first environment
    conn.close()


async def test_where_players_are_not_forked_each_gets_a_process_of_its_own(
        open_host, keys, monkeypatch):
    monkeypatch.setattr(ssh, "FORK_PLAYERS", False)
    monkeypatch.setenv("WARLEDGER_TEST_SECRET", "hunter2")
    table, _ = await open_host()
    assert not table.parents
    conn, _, terminal = await sit_down(table.port, keys["Ed"])
    await home_screen(terminal, "Ed")
    (seat,) = table.seats
    stat = stat_of(seat.process.pid)
    assert stat["ppid"] == os.getpid() and stat["session"] == seat.process.pid
    env = environ_of(seat.process.pid)
    assert env["TERM"] == "xterm-256color" and "WARLEDGER_TEST_SECRET" not in env
    conn.close()
