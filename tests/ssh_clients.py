"""SSH clients other than OpenSSH's, as players run them, for the hosting tests: Dropbear's
`dbclient` (Debian's dropbear-bin) and PuTTY's `plink` (putty-tools). Each takes a key in
its own format (made from an asyncssh key with the client's own converter) and runs in a
pseudo-terminal of its own, with HOME in a scratch folder: no user configuration, agent
or known hosts is read, and nothing is written outside the test's folder."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import shutil
import signal
import struct
import subprocess
import termios
from pathlib import Path

from tests.openssh import key_file

DBCLIENT = shutil.which("dbclient")
DROPBEARCONVERT = shutil.which("dropbearconvert")
PLINK = shutil.which("plink")
PUTTYGEN = shutil.which("puttygen")
# Why a client's tests skip: what is missing, and the Debian package that brings it.
DROPBEAR_MISSING = None if DBCLIENT and DROPBEARCONVERT else (
    "needs Dropbear's dbclient and dropbearconvert (Debian: apt-get install dropbear-bin)")
PUTTY_MISSING = None if PLINK and PUTTYGEN else (
    "needs PuTTY's plink and puttygen (Debian: apt-get install putty-tools)")


def dropbear_key(key, folder: Path, name: str) -> Path:
    """The private `key` (asyncssh) as a Dropbear key file `dbclient -i` takes."""
    openssh = key_file(key, folder, f"{name}.openssh")
    path = folder / f"{name}.dropbear"
    subprocess.run([DROPBEARCONVERT or "dropbearconvert", "openssh", "dropbear",
                    str(openssh), str(path)], check=True, capture_output=True, timeout=30)
    return path


def putty_key(key, folder: Path, name: str) -> Path:
    """The private `key` (asyncssh) as a PuTTY key file (.ppk) `plink -i` takes."""
    openssh = key_file(key, folder, f"{name}.openssh")
    path = folder / f"{name}.ppk"
    subprocess.run([PUTTYGEN or "puttygen", str(openssh), "-O", "private", "-o", str(path)],
                   check=True, capture_output=True, timeout=30)
    return path


def dbclient_command(port: int, identity: Path) -> list[str]:
    """`dbclient -t` with this key; -y accepts the host key it has not seen (and writes it
    to $HOME/.ssh/known_hosts, the scratch folder's)."""
    return [DBCLIENT or "dbclient", "-t", "-y", "-p", str(port), "-i", str(identity),
            "player@127.0.0.1"]


def plink_command(port: int, identity: Path, host_key: str) -> list[str]:
    """`plink -t` with this key, no Pageant and no prompt: the host key must be the one
    whose fingerprint (SHA256:...) is `host_key`."""
    return [PLINK or "plink", "-ssh", "-batch", "-noagent", "-t", "-P", str(port),
            "-i", str(identity), "-hostkey", host_key, "player@127.0.0.1"]


def client_environment(home: Path) -> dict[str, str]:
    """The test's environment with HOME in `home` and no agent."""
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    env = {name: value for name, value in os.environ.items() if name != "SSH_AUTH_SOCK"}
    return {**env, "HOME": str(home), "TERM": "xterm-256color"}


def _controlling_terminal() -> None:
    """In the child, after setsid: its pseudo-terminal (stdin) becomes its controlling
    terminal, so that a resize sends it SIGWINCH as a player's terminal does."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyClient:
    """A client running in a pseudo-terminal of its own, as a player's terminal runs it;
    what it draws is collected (raw)."""

    def __init__(self, process: asyncio.subprocess.Process, master: int) -> None:
        self.process = process
        self.master = master
        self.raw = bytearray()
        self.changed = asyncio.Event()
        self.ended = False
        asyncio.get_running_loop().add_reader(master, self._read)

    @classmethod
    async def start(cls, argv: list[str], env: dict[str, str],
                    size: tuple[int, int] = (100, 30)) -> PtyClient:
        master, slave = os.openpty()
        try:
            resize(master, size)
            process = await asyncio.create_subprocess_exec(
                *argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                start_new_session=True, preexec_fn=_controlling_terminal)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        return cls(process, master)

    def _read(self) -> None:
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: the client closed its terminal
            chunk = b""
        if chunk:
            self.raw += chunk
        else:
            self.ended = True
            asyncio.get_running_loop().remove_reader(self.master)
        self.changed.set()

    def forget(self) -> None:
        self.raw.clear()

    async def wait_for(self, text: str, timeout: float, strip) -> None:
        """Until `text` is drawn (escapes stripped by `strip`)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while text not in strip(bytes(self.raw)) and not self.ended:
                    self.changed.clear()
                    await self.changed.wait()
        drawn = strip(bytes(self.raw))
        assert text in drawn, f"never drawn: {text!r}; the client's terminal said:\n{drawn[-2000:]}"

    def write(self, data: bytes) -> None:
        """Typed: one os.write, as a terminal hands keys on."""
        os.write(self.master, data)

    async def stop(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            await self.process.wait()
        if not self.ended:
            asyncio.get_running_loop().remove_reader(self.master)
            self.ended = True
        with contextlib.suppress(OSError):
            os.close(self.master)


def resize(fd: int, size: tuple[int, int]) -> None:
    """The pseudo-terminal's size (columns, rows): its process group gets SIGWINCH."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
