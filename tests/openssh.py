"""The real OpenSSH client (`ssh`) as a player uses it, for the hosting tests and the flood
benchmark (tests/benchmarks/ssh_flood.py): a key written where `ssh -i` reads it, and the
command line that ignores the user's own configuration, agent and known hosts."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

SSH = shutil.which("ssh")


def key_file(key, folder: Path, name: str) -> Path:
    """The private `key` (an asyncssh key) as an OpenSSH key file `ssh -i` takes (0600)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / name
    key.write_private_key(str(path))
    os.chmod(path, 0o600)
    return path


def ssh_command(port: int, identity: Path, *options: str, command: str | None = None,
                terminal: bool = True) -> list[str]:
    """`ssh -p PORT player@127.0.0.1` with this key only: no user config, no agent, no known
    hosts; `-tt` (a terminal even when stdin is a pipe) unless `terminal` is False."""
    argv = [SSH or "ssh", "-F", "/dev/null", "-p", str(port), "-i", str(identity),
            "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=20",
            *(["-tt"] if terminal else ["-T"]), *options, "player@127.0.0.1"]
    return [*argv, command] if command is not None else argv
