"""Hosting over SSH under abuse (issue 22), with real clients on loopback: OpenSSH's `ssh`
where a player's own client matters (ControlPersist, `ssh HOST true`, a flood piped into
`ssh -tt`), asyncssh and bare sockets elsewhere. A flood of keys is read no faster than the
player's process takes it; connections that have not logged in are budgeted, and the door
survives running out of open files; a seat is held only by a running TUI or a connection in
its grace; no Python warning reaches a player."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import signal
import socket
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest

from tests import test_hosting
from tests.openssh import SSH, key_file, ssh_command
from tests.test_hosting import (
    alive,
    connect,
    home_screen,
    sit_down,
    strip_ansi,
    until,
    write_authorized_keys,
)
from tui.hosting import ssh
from tui.hosting.door import budget_address
from tui.hosting.ssh_terminal import NO_TERMINAL

# test_hosting's fixtures: tables on free ports with six players' keys, and the Friday game.
keys, data_dir, db, game = (test_hosting.keys, test_hosting.data_dir, test_hosting.db,
                            test_hosting.game)
open_host, host = test_hosting.open_host, test_hosting.host

openssh = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh client")
MIB = 1024 * 1024


def status_kib(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM (the peak)... of /proc/PID/status, in KiB."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {line.split(":")[0]: int(line.split()[1]) for line in lines if line.endswith("kB")}


@pytest.fixture
def identities(tmp_path, keys) -> dict[str, Path]:
    """Each player's key as a file OpenSSH's `ssh -i` reads."""
    return {name: key_file(key, tmp_path / "client-keys", name) for name, key in keys.items()}


class OpenSSHPlayer:
    """`ssh -tt` (stdin a pipe) as a player; what it draws collected, escapes stripped."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.raw = bytearray()
        self.changed = asyncio.Event()
        self.reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, argv: list[str]) -> OpenSSHPlayer:
        return cls(await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, start_new_session=True))

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.raw += chunk
            self.changed.set()
        self.changed.set()

    @property
    def text(self) -> str:
        return strip_ansi(bytes(self.raw))

    async def wait_for(self, text: str, timeout: float = test_hosting.SCREEN_WAIT) -> None:
        async with asyncio.timeout(timeout):
            while text not in self.text:
                self.changed.clear()
                assert not self.reader.done(), f"ssh ended; it drew {self.text[-1000:]}"
                await self.changed.wait()

    async def stop(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.terminate()
            await self.process.wait()
        self.reader.cancel()


# ---------------------------------------------------------------- what a player sees

@pytest.mark.skipif(not ssh.FORK_PLAYERS, reason="players are forked on Linux only")
async def test_no_python_warning_reaches_a_player(host, keys):
    conn, _, terminal = await sit_down(host.port, keys["Ana"])
    await home_screen(terminal, "Ana")
    seen = strip_ansi(bytes(terminal.raw))
    assert "Warning" not in seen and "runpy" not in seen, seen[:500]
    conn.close()


# ---------------------------------------------------------------- the real command

class Served:
    """`warledger serve ssh` in a process of its own (its open-files limits as given), for
    what only a process of its own shows: its memory, its limits, what it prints."""

    def __init__(self, tmp_path: Path, db: str, data_dir: Path, keys,
                 nofile: tuple[int, int] | None = None, max_sessions: int = 4) -> None:
        write_authorized_keys(data_dir / "authorized_keys", keys)
        (tmp_path / "xdg" / "warledger").mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}

        def limits() -> None:
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, nofile)

        self.process = subprocess.Popen(
            [sys.executable, "-m", "tui", "--db", db, "serve", "ssh", "--port", "0",
             "--max-sessions", str(max_sessions), "--authorized-keys",
             str(data_dir / "authorized_keys")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
            preexec_fn=limits)
        self.said: list[str] = []
        self.port = 0
        for line in self.process.stdout:
            self.said.append(line)
            if match := re.search(r"table open on 127\.0\.0\.1:(\d+)", line):
                self.port = int(match[1])
                break
        assert self.port, f"the server never listened: {self.said}"
        self.reader = asyncio.get_running_loop().run_in_executor(None, self._read)

    def _read(self) -> None:
        for line in self.process.stdout:
            self.said.append(line)

    @property
    def pid(self) -> int:
        return self.process.pid

    def open_files_limit(self) -> int:
        for line in Path(f"/proc/{self.pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return int(line.split()[3])
        raise AssertionError("no open-files limit")

    def open_files(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def player_pids(self) -> list[int]:
        """Its players' processes (not the warm parent they are forked from)."""
        children = test_hosting.children_of(self.pid)
        if not ssh.FORK_PLAYERS:
            return children
        return [pid for parent in children for pid in test_hosting.children_of(parent)]

    async def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(
                    None, self.process.wait), 20)
            except TimeoutError:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.reader, 5)


@pytest.fixture
async def served(tmp_path, db, data_dir, keys, game):
    started: list[Served] = []

    async def start(**settings) -> Served:
        server = Served(tmp_path, db, data_dir, keys, **settings)
        started.append(server)
        return server

    yield start
    for server in started:
        await server.close()


def idle_sockets(port: int, count: int, source: str = "127.0.0.1") -> list[socket.socket]:
    """`count` TCP connections to `port` that never say a word."""
    held = []
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        s.bind((source, 0))
        s.connect_ex(("127.0.0.1", port))
        held.append(s)
    return held


async def connected(sockets: list[socket.socket], timeout: float = 30.0) -> int:
    """Wait until every connect is done (the kernel answers for the listener); how many
    are connected."""
    import select

    waiting = {s.fileno(): s for s in sockets}
    done = 0
    async with asyncio.timeout(timeout):
        while waiting:
            poll = select.poll()
            for fd in waiting:
                poll.register(fd, select.POLLOUT)
            for fd, _ in poll.poll(0):
                s = waiting.pop(fd)
                done += s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
            await asyncio.sleep(0.05)
    return done


def enough_open_files(count: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count:
        if hard != resource.RLIM_INFINITY and hard < count:
            pytest.skip(f"needs {count} open files; this shell allows {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


# ---------------------------------------------------------------- a flood of keys

@openssh
@pytest.mark.slow
async def test_a_flood_of_keys_grows_neither_the_server_nor_the_players_process(
        served, identities):
    """`z` piped into `ssh -tt` for seconds: the server reads the channel only as fast as
    the player's process takes keys, and that process only as fast as its app does. Before,
    the server took 12 MiB a second into memory and the player's process 10 MiB."""
    server = await served()
    await asyncio.sleep(0.5)
    player = await OpenSSHPlayer.start(ssh_command(server.port, identities["Ana"]))
    try:
        await player.wait_for("New Struggle of Empires")
        await asyncio.sleep(0.5)
        (pid,) = server.player_pids()
        server_at_home = status_kib(server.pid)["VmRSS"]
        player_at_home = status_kib(pid)["VmRSS"]
        zs = b"z" * 65536
        sent = 0

        async def flood() -> None:
            nonlocal sent
            while True:
                player.process.stdin.write(zs)
                await player.process.stdin.drain()
                sent += len(zs)

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(flood(), 6.0)
        grew = {"server": status_kib(server.pid)["VmHWM"] - server_at_home,
                "player": status_kib(pid)["VmHWM"] - player_at_home}
        assert grew["server"] < 24 * 1024 and grew["player"] < 10 * 1024, (grew, sent)
        await player.stop()  # the player leaves: their process ends, the seat is free
        await until(lambda: not alive(pid), timeout=10)
        assert status_kib(server.pid)["VmRSS"] - server_at_home < 24 * 1024
    finally:
        await player.stop()


# ---------------------------------------------------------------- before login

@openssh
@pytest.mark.slow
async def test_a_player_gets_in_while_1100_idle_sockets_wait(served, identities):
    """1,100 connections that never say a word, from the player's own address, against a
    host whose soft limit is 256 open files: the limit is raised to the hard one (512),
    connections logging in are budgeted (the idle ones closed for newcomers), and a real
    `ssh` gets its home screen. The host says a few lines, not one per connection."""
    enough_open_files(1400)
    server = await served(nofile=(256, 512))
    assert server.open_files_limit() == 512
    said_before = len(server.said)
    held = idle_sockets(server.port, 1100)
    player = None
    try:
        assert await connected(held) > 1000
        player = await OpenSSHPlayer.start(ssh_command(server.port, identities["Bo"]))
        await player.wait_for("you are Bo", timeout=30)
        await player.wait_for("New Struggle of Empires")
        assert server.process.poll() is None and server.open_files() < 512
        said = server.said[said_before:]
        refusals = [line for line in said if "sat down" not in line]
        assert len(refusals) <= 6, said
    finally:
        for s in held:
            s.close()
        if player is not None:
            await player.stop()


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs prlimit (Linux)")
@pytest.mark.slow
async def test_out_of_open_files_the_door_waits_and_goes_on(served, keys):
    """The host's open files run out while idle sockets keep coming: it says so once, does
    not stop, and lets the next player in once files are free. (asyncio's own accept loop
    logged each failed accept, thousands of lines a second: 49 MB in under two minutes.)"""
    server = await served()
    await asyncio.sleep(0.5)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.prlimit(server.pid, resource.RLIMIT_NOFILE, (server.open_files() + 6, hard))
    said_before = len(server.said)
    held = idle_sockets(server.port, 60)
    try:
        await connected(held)
        await asyncio.sleep(3.0)
        assert server.process.poll() is None
        said = server.said[said_before:]
        assert sum("out of open files" in line for line in said) == 1, said
        assert len(said) <= 4, said
        resource.prlimit(server.pid, resource.RLIMIT_NOFILE, (hard, hard))
        conn, _, terminal = await sit_down(server.port, keys["Cy"])
        await home_screen(terminal, "Cy")
        conn.close()
    finally:
        for s in held:
            s.close()


HELLO = b"SSH-2.0-OpenSSH_9.2\r\n"


async def crowd(port: int, sources: list[str], each: int,
                timeout: float = 30.0) -> list[socket.socket]:
    """`each` connections from every one of `sources`, each sending an SSH version as soon
    as it is connected, and then sitting (issue 46: 50 addresses x 24 kept every player
    out). Returns the sockets, connected or refused."""
    import select

    held = [s for source in sources for s in idle_sockets(port, each, source)]
    waiting = {s.fileno(): s for s in held}
    async with asyncio.timeout(timeout):
        while waiting:
            poll = select.poll()
            for fd in waiting:
                poll.register(fd, select.POLLOUT)
            for fd, _ in poll.poll(0):
                s = waiting.pop(fd)
                with contextlib.suppress(OSError):
                    s.send(HELLO)
            await asyncio.sleep(0.02)
    return held


def still_open(sockets: list[socket.socket]) -> int:
    """How many of `sockets` the server has not closed."""
    import select

    poll = select.poll()
    for s in sockets:
        poll.register(s.fileno(), select.POLLRDHUP)
    ended = {fd for fd, event in poll.poll(0)
             if event & (select.POLLRDHUP | select.POLLHUP | select.POLLERR)}
    return sum(s.fileno() not in ended for s in sockets)


def crowd_sources(first: int = 2, count: int = 50, network: str = "127.0.0") -> list[str]:
    return [f"{network}.{n}" for n in range(first, first + count)]


@pytest.mark.slow
async def test_a_crowd_of_strangers_cannot_keep_a_known_player_out(served, keys):
    """50 addresses x 24 connections sit after their SSH version, against a host with 1,024
    open files: a player who logged in from 127.0.0.1 before still gets their home screen
    (a quarter of the places is kept for known addresses), the crowd is turned away in a
    few lines, and once its connections have missed their key exchange's deadline they are
    closed: a new address gets in, and the crowd's addresses are refused at once. Before,
    the crowd held all 256 places and the player was turned away."""
    enough_open_files(1500)
    server = await served(nofile=(1024, 1024))
    conn, _, terminal = await sit_down(server.port, keys["Ana"])  # known from now on
    await home_screen(terminal, "Ana")
    conn.close()
    said_before = len(server.said)
    held = await crowd(server.port, crowd_sources(), 24)
    try:
        conn, _, terminal = await sit_down(server.port, keys["Ana"])
        await home_screen(terminal, "Ana")
        conn.close()
        # The crowd's connections miss the key exchange's deadline: closed, and penalised.
        await until(lambda: not still_open(held), timeout=60)
        await until(lambda: any("no key exchange within" in line
                                for line in server.said[said_before:]), timeout=10)
        conn = await connect(server.port, keys["Bo"], local_addr=("127.0.0.77", 0))
        chan, terminal = await conn.create_session(
            test_hosting.Terminal, term_type="xterm-256color", term_size=(100, 30),
            encoding=None)
        await home_screen(terminal, "Bo")
        conn.close()
        # A crowd's address that comes back is refused at once, before any SSH.
        penalised = None
        for source in crowd_sources():
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", server.port, local_addr=(source, 0))
            told = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            if told == f"{ssh.LOGGING_IN_BUSY}\r\n".encode():
                penalised = source
                break
        assert penalised is not None
        await until(lambda: any(f"from {penalised} at once" in line
                                for line in server.said[said_before:]), timeout=15)
        said = server.said[said_before:]
        assert server.process.poll() is None and server.open_files() < 1024
        assert len([line for line in said if "sat down" not in line
                    and "left" not in line]) <= 12, said
    finally:
        for s in held:
            s.close()


async def test_a_connection_that_does_not_log_in_in_time_is_closed(open_host, monkeypatch):
    monkeypatch.setattr(ssh, "LOGIN_DEADLINE", 1.0)
    table, _ = await open_host()
    said: list[str] = []
    table.say = said.append
    reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
    try:
        async with asyncio.timeout(10):
            while await reader.read(4096):  # the server's version, then the end
                pass
    finally:
        writer.close()
    assert said == ["closed a connection from 127.0.0.1: not logged in within 1 s"]


async def test_a_connection_without_a_key_exchange_in_time_is_closed_and_penalised(
        open_host, monkeypatch):
    """Two connections from one address send their version and sit: each is closed at the
    key exchange's deadline, the host says so once, and with 20 s of penalty (past the 15
    before it is enforced) the address's next connection is refused at once, in one line
    to it and one on the console. Another address is let in."""
    monkeypatch.setattr(ssh, "KEX_DEADLINE", 0.5)
    monkeypatch.setattr(ssh, "TOLD_EVERY", 3600.0)  # every line after the first is counted
    table, _ = await open_host()
    said: list[str] = []
    table.say = said.append

    async def knock(source: str) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port,
                                                       local_addr=(source, 0))
        try:
            writer.write(HELLO)
            async with asyncio.timeout(10):
                return await reader.read()  # until the server closes it
        finally:
            writer.close()

    for _ in range(2):
        assert (await knock("127.0.0.9")).startswith(b"SSH-2.0-warledger\r\n")
    assert await knock("127.0.0.9") == f"{ssh.LOGGING_IN_BUSY}\r\n".encode()
    assert said[0] == "closed a connection from 127.0.0.9: no key exchange within 0.5 s"
    assert said[1].startswith("refused a connection from 127.0.0.9 at once: 127.0.0.9 is "
                              "penalised for "), said
    assert len(said) == 2
    assert (await knock("127.0.0.10")).startswith(b"SSH-2.0-warledger\r\n")


async def test_an_address_a_keys_from_names_keeps_its_share_of_the_places(
        open_host, keys, data_dir, monkeypatch):
    """16 places, a quarter kept: strangers hold their 12 (each after its version, so none
    is shed), the next stranger is turned away, and Bo, whose key says from="127.0.0.1",
    still gets in from there."""
    monkeypatch.setattr(ssh, "LOGGING_IN_AT_MOST", 16)
    monkeypatch.setattr(ssh, "KEX_DEADLINE", 120.0)  # the strangers sit throughout
    path = data_dir / "authorized_keys"
    path.write_text(path.read_text().replace('player="Bo" ', 'from="127.0.0.1",player="Bo" '))
    table, _ = await open_host()
    held: list[asyncio.StreamWriter] = []
    try:
        for n in range(2, 250):  # dropped at random past 2 of them: knocking until 12 sit
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", table.port, local_addr=(f"127.0.0.{n}", 0))
            writer.write(HELLO)
            if (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-"):
                held.append(writer)
                if len(held) == 12:
                    break
            else:
                writer.close()
        assert len(held) == 12
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", table.port, local_addr=("127.0.0.250", 0))
        assert await asyncio.wait_for(reader.read(), 10) == f"{ssh.LOGGING_IN_BUSY}\r\n".encode()
        writer.close()
        conn, _, terminal = await sit_down(table.port, keys["Bo"])
        await home_screen(terminal, "Bo")
        conn.close()
    finally:
        for writer in held:
            writer.close()


async def test_past_the_budget_a_newcomer_is_told_in_one_line_and_the_host_once(
        open_host, monkeypatch):
    """Two connections from one address are logging in (they sent their version, so
    neither is idle): the next ones are each told in one line before any SSH, and the
    host's console says so once for them all."""
    monkeypatch.setattr(ssh, "LOGGING_IN_PER_ADDRESS", 2)
    # An interval no busy machine outlasts while the 20 knock: its end is brought forward
    # below, once they all have.
    monkeypatch.setattr(ssh, "TOLD_EVERY", 3600.0)
    table, _ = await open_host()
    said: list[str] = []
    table.say = said.append
    waiting = []
    for _ in range(2):
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
        writer.write(b"SSH-2.0-OpenSSH_9.2\r\n")
        assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
        waiting.append(writer)
    try:
        for _ in range(20):
            reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
            told = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            assert told == f"{ssh.LOGGING_IN_BUSY}\r\n".encode()
        line = "turned away a connection from 127.0.0.1: 2 from 127.0.0.1 are logging in already"
        assert said == [line]  # at once, the first
        assert "address" in table.tally.timers  # the rest are counted until the interval's end
        table.tally.flush("address")  # which comes now
        assert said[1] == f"{line} (and 18 more like it in 3600 s)"
    finally:
        for writer in waiting:
            writer.close()


async def test_a_connection_trying_key_after_key_is_closed(host, keys):
    """asyncssh has no MaxAuthTries: a client could try keys until the login deadline."""
    strangers = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(10)]

    async def trying(client_keys: list) -> asyncssh.SSHClientConnection:
        return await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", host.port, username="player", known_hosts=None, agent_path=None,
            client_keys=client_keys), 10)

    with pytest.raises(asyncssh.DisconnectError) as closed:
        await trying(strangers)
    assert "too many keys tried" in closed.value.reason
    conn = await trying([*strangers[:5], keys["Ana"]])  # five wrong keys, then hers: in
    conn.close()


def test_a_socket_whose_version_waits_unread_is_not_idle():
    """A busy host may not have read a player's version yet: the bytes the kernel holds
    count, so that player is not shed as an idle socket."""
    near, far = socket.socketpair()
    with near, far:
        assert ssh.waiting_bytes(far) == 0
        near.send(HELLO)
        assert ssh.waiting_bytes(far) == len(HELLO)
    assert ssh.waiting_bytes(None) == 0


async def test_with_no_limit_on_open_files_the_door_keeps_its_whole_budget(tmp_path,
                                                                          monkeypatch):
    """A host whose soft limit of open files is unlimited (RLIM_INFINITY) admits
    LOGGING_IN_AT_MOST at once. (The SSH door read the limit as -1 files: 16.)"""
    unlimited = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
    monkeypatch.setattr(resource, "getrlimit", lambda _which: unlimited)
    entrance = ssh.Entrance(ssh.Table(None, tmp_path / "authorized_keys"), None, [])
    assert entrance.at_most == ssh.LOGGING_IN_AT_MOST == 256
    entrance.close()


@pytest.mark.parametrize(("host", "budget"), [
    ("127.0.0.1", "127.0.0.1"), ("::ffff:10.0.0.7", "10.0.0.7"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"), ("fe80::1%eth0", "fe80::/64")])
def test_a_connection_counts_against_its_address_or_its_ipv6_64(host, budget):
    assert budget_address(host) == budget


# ---------------------------------------------------------------- seats follow players

async def test_a_refused_command_gives_its_place_up_and_the_connection_its_own_timer(
        open_host, keys, monkeypatch):
    """A command is refused: the connection holds no place, and its own timer still closes
    it when it opens no terminal (a refused session used to clear that timer for good)."""
    monkeypatch.setattr(ssh, "SESSION_GRACE", 1.0)
    table, _ = await open_host(max_sessions=1)
    conn = await connect(table.port, keys["Ana"])
    result = await asyncio.wait_for(conn.run("true"), 10)
    assert result.exit_status == 1 and not table.seats
    other, _, terminal = await sit_down(table.port, keys["Bo"])  # the place was free
    await home_screen(terminal, "Bo")
    await asyncio.wait_for(conn.wait_closed(), 5)  # Ana's connection, after its grace
    other.close()


def control_options(path: Path) -> list[str]:
    return ["-o", "ControlMaster=auto", "-o", f"ControlPath={path}",
            "-o", "ControlPersist=60"]


async def master_running(path: Path, identity: Path, port: int) -> bool:
    """`ssh -O check`: whether the ControlPersist master at `path` is still connected."""
    check = await asyncio.create_subprocess_exec(
        *ssh_command(port, identity, "-O", "check", "-o", f"ControlPath={path}",
                     terminal=False),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return await check.wait() == 0


async def stop_master(path: Path, identity: Path, port: int) -> None:
    stop = await asyncio.create_subprocess_exec(
        *ssh_command(port, identity, "-O", "exit", "-o", f"ControlPath={path}",
                     terminal=False),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    await stop.wait()


@openssh
@pytest.mark.slow
async def test_ctrl_q_frees_the_seat_though_controlpersist_keeps_the_connection(
        open_host, keys, identities, tmp_path, monkeypatch):
    """OpenSSH with ControlMaster and ControlPersist: after ctrl+q the client keeps its
    connection open. The seat is free at once; the idle connection is closed after its
    grace."""
    monkeypatch.setattr(ssh, "SESSION_GRACE", 3.0)
    table, _ = await open_host(max_sessions=1)
    control = tmp_path / "cm-ana"
    ana = await OpenSSHPlayer.start(ssh_command(table.port, identities["Ana"],
                                                *control_options(control)))
    try:
        await ana.wait_for("you are Ana")
        await ana.wait_for("New Struggle of Empires")
        ana.process.stdin.write(b"\x11")  # ctrl+q
        assert await asyncio.wait_for(ana.process.wait(), 10) == 0
        assert await master_running(control, identities["Ana"], table.port)
        conn, _, terminal = await sit_down(table.port, keys["Bo"])  # at once: a free seat
        await home_screen(terminal, "Bo")
        assert len(table.seats) == 1
        # Ana's client still holds its connection: closed by the server after the grace.
        async with asyncio.timeout(15):
            while await master_running(control, identities["Ana"], table.port):
                await asyncio.sleep(0.5)
        conn.close()
    finally:
        await ana.stop()
        await stop_master(control, identities["Ana"], table.port)


@openssh
@pytest.mark.slow
async def test_four_ssh_host_true_hold_no_seat(open_host, keys, identities, tmp_path):
    """`ssh HOST true` four times, each client keeping its connection (ControlPersist):
    each is refused with one line, and none holds one of the four seats."""
    table, _ = await open_host(max_sessions=4)
    names = ["Ana", "Bo", "Cy", "Di"]
    try:
        for name in names:
            told = tmp_path / f"{name}.err"
            with told.open("wb") as err:
                true = await asyncio.create_subprocess_exec(
                    *ssh_command(table.port, identities[name],
                                 *control_options(tmp_path / f"cm-{name}"),
                                 command="true", terminal=False),
                    stdin=asyncio.subprocess.DEVNULL, stdout=err, stderr=err)
                assert await asyncio.wait_for(true.wait(), 20) == 1
            assert told.read_text().strip() == NO_TERMINAL.format(port=table.port)
        assert all([await master_running(tmp_path / f"cm-{name}", identities[name],
                                         table.port) for name in names])
        conn, _, terminal = await sit_down(table.port, keys["Ed"])
        await home_screen(terminal, "Ed")
        conn.close()
    finally:
        for name in names:
            await stop_master(tmp_path / f"cm-{name}", identities[name], table.port)


# ---------------------------------------------------------------- environment requests

@pytest.mark.slow
async def test_environment_requests_are_read_not_stored(served, keys):
    """2,000 environment requests of 10 KB each (20 MB) grow the host by under 16 MiB, and
    it holds nothing of them once the player leaves; the locale sent first still counts.
    Before (issue 46), asyncssh kept every one: 8,000 of them took the host from 80 to 530 MB."""
    from tests.test_hosting_languages import ro

    server = await served()
    await asyncio.sleep(0.5)
    before = status_kib(server.pid)["VmRSS"]
    junk = {f"JUNK_{i}": "x" * 10_000 for i in range(2000)}
    conn = await connect(server.port, keys["Ana"])
    try:
        _chan, terminal = await conn.create_session(
            test_hosting.Terminal, term_type="xterm-256color", term_size=(100, 30),
            encoding=None, env={"LANG": "ro_RO.UTF-8", "TERM": "x" * 300, **junk})
        await terminal.wait_for(ro("you are {player}").format(player="Ana"))
        grew = status_kib(server.pid)["VmHWM"] - before
        assert grew < 16 * 1024, f"the host grew by {grew} KiB"
    finally:
        conn.close()
    await until(lambda: not server.player_pids(), timeout=15)
    assert status_kib(server.pid)["VmRSS"] - before < 16 * 1024


def test_only_a_terminals_and_a_locales_variables_are_kept_small_and_few():
    assert ssh.kept_variable(b"LANG", b"ro_RO.UTF-8", 0)
    assert ssh.kept_variable(b"LC_MESSAGES", b"ro_RO", 13)
    assert ssh.kept_variable(b"COLORTERM", b"truecolor", 1)
    assert not ssh.kept_variable(b"LD_PRELOAD", b"/tmp/x.so", 0)
    assert not ssh.kept_variable(b"LC_", b"C", 0)
    assert not ssh.kept_variable(b"LANG", b"x" * 257, 0)
    assert not ssh.kept_variable(b"LANG", b"C", ssh.VARIABLE_REQUESTS)
