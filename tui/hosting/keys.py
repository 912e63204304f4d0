"""Who may sit at the table: the host's own key, and the players' keys with their names."""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from rules.errors import RuleError
from rules.fields import NAME_LIMIT, text

HOST_KEY_NAME = "ssh_host_ed25519_key"
KEYS_NAME = "authorized_keys"


class HostingError(Exception):
    """Something the host must fix before the table can open, said in one line."""


def load_host_key(folder: Path) -> asyncssh.SSHKey:
    """The host key kept in `folder`, generated (mode 0600) the first time."""
    path = folder / HOST_KEY_NAME
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519", comment="warledger host key")
        # Created 0600 from the start, so the secret is never readable by others.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key.export_private_key())
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as e:
        raise HostingError(f"cannot read the host key {path}: {e}") from None


def fingerprint(key: asyncssh.SSHKey) -> str:
    """What `ssh` shows a player the first time: 'SHA256:…'."""
    return key.get_fingerprint("sha256")


@dataclass(frozen=True)
class KeyLine:
    """One line of the authorized-keys file: the key (with its options) and its player."""

    rule: asyncssh.SSHAuthorizedKeys
    player: str


@dataclass(frozen=True)
class Players:
    """The usable lines of an authorized-keys file, and a warning for each line skipped."""

    lines: list[KeyLine]
    warnings: list[str] = field(default_factory=list)


def read_players(path: Path) -> Players:
    """The players' keys in `path` (OpenSSH authorized_keys format). Each line names its
    player with a `player=NAME` option, else the key's comment; the name is checked like
    any name typed. A bad line is skipped with a warning naming it; a file without one
    usable line stops the host (HostingError), and so does a file that other users of this
    machine could change (see `check_private`)."""
    check_private(path)
    try:
        content = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HostingError(
            f"no players' keys yet: create {path} with one line per player, "
            f'e.g. player="Ana" ssh-ed25519 AAAA…') from None
    except (OSError, UnicodeDecodeError) as e:
        raise HostingError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    lines: list[KeyLine] = []
    warnings: list[str] = []
    for number, line in enumerate(content.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            lines.append(_key_line(line))
        except ValueError as e:
            warnings.append(f"{path}, line {number}: {e}; the line is skipped")
    if not lines:
        raise HostingError(f"{path} holds no usable keys: "
                           + ("; ".join(warnings) if warnings else "add one line per player"))
    return Players(lines, warnings)


def check_private(path: Path) -> None:
    """Refuse (HostingError) an authorized-keys file, or the folder holding it, that someone
    other than the host (or root) owns or that group or others may write: whoever can change
    the file can seat themselves at the table. OpenSSH's StrictModes refuses the same."""
    path = path.expanduser().resolve()  # a link is judged by where it leads
    for what, checked in (("the folder", path.parent), ("the players' keys file", path)):
        try:
            info = checked.stat()
        except FileNotFoundError:
            continue  # a missing file is told by the caller
        except OSError as e:
            raise HostingError(f"cannot read {checked}: {e.strerror or e}") from None
        mode = info.st_mode & 0o777
        if info.st_uid not in (os.getuid(), 0):
            raise HostingError(
                f"refusing {path}: {what} {checked} belongs to another user (uid "
                f"{info.st_uid}), who could seat anyone at the table; keep it in a folder of "
                "your own")
        if mode & 0o022:
            raise HostingError(
                f"refusing {path}: other users of this machine can change {what} {checked} "
                f"(mode {mode:04o}) and so seat anyone at the table; run "
                f"`chmod go-w {shlex.quote(str(checked))}` and start again")


def _key_line(line: str) -> KeyLine:
    """One line of the file as a KeyLine, or ValueError saying what is wrong with it."""
    try:
        rule = asyncssh.import_authorized_keys(line)
    except (ValueError, asyncssh.KeyImportError) as e:
        raise ValueError(f"not a public key ({e})") from None
    option = _player_option(line)
    name = option if option is not None else _comment(line)
    if name is None:
        raise ValueError("whose key is it? Add player=NAME in front of the key, or the name "
                         "as its comment")
    try:
        player = text(name, "the player's name" if option is not None else
                      "the key's comment (the player's name)", NAME_LIMIT)
    except RuleError as e:
        raise ValueError(str(e)) from None
    return KeyLine(rule, player)


def player_for(lines: list[KeyLine], key: asyncssh.SSHKey, host: str, addr: str) -> str | None:
    """The player whose line accepts `key` from that client (a `from=` option counts), or
    None for a key nobody at the table owns."""
    for line in lines:
        if line.rule.validate(key, host, addr) is not None:
            return line.player
    return None


def _fields(line: str) -> list[str]:
    # Options never hold an unquoted blank, so they stay one field.
    try:
        return shlex.split(line, posix=True)
    except ValueError:
        return line.split()


def _player_option(line: str) -> str | None:
    """The value of a `player=` option (as written: checked by the caller), or None."""
    fields = _fields(line)
    if len(fields) < 3:  # no options in front of "type blob"
        return None
    for option in fields[0].split(","):
        name, _, value = option.partition("=")
        if name == "player" and value.strip():
            return value
    return None


def _comment(line: str) -> str | None:
    fields = _fields(line)
    for i in range(len(fields) - 1):
        try:
            key = asyncssh.import_public_key(" ".join(fields[i:]))
        except (ValueError, asyncssh.KeyImportError):
            continue
        comment = key.get_comment() or ""
        return comment if comment.strip() else None
    return None
