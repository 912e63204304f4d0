"""Files nobody else can change, read as OpenSSH's StrictModes would have them and without a
gap between the check and the read: the path is walked one folder at a time, each folder
opened and checked on its open descriptor (nobody but the host or root owns it, nobody else
may write it, or it is sticky and the next name in it is the host's or root's), the file is
opened without following a link (O_NOFOLLOW) and checked on its open descriptor (owner, mode,
a regular file), and read from that same descriptor. So nobody else can swap a link, a folder
or the file between the check and the read. The host's key and the players' keys
(tui.hosting.keys) are read so.
"""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path

from i18n import _

MAX_LINKS = 40  # links followed on one path, as Linux does (ELOOP)


class HostingError(Exception):
    """Something the host must fix before the table can open, said in one line."""


def trusted_owners() -> frozenset[int]:
    """Who may own what decides who sits: the host's user and root."""
    return frozenset({os.geteuid(), 0})


def open_folder(path: Path, refusing: Path) -> tuple[int, str]:
    """(a descriptor of the folder that holds `path`'s last name, that name), reached from
    `/` one name at a time, each folder opened without following a link and checked on its
    descriptor, each link read and its target walked the same way. HostingError (naming
    `refusing`) when someone else could change any of them; FileNotFoundError when a folder
    is missing. The caller closes the descriptor."""
    names = [n for n in os.path.join(os.getcwd(), os.path.expanduser(path)).split("/")
             if n not in ("", ".")]
    if not names:
        raise HostingError(refusal(refusing, _("it is a folder, not a file")))
    fd, where = _open_root(refusing)
    links = 0
    try:
        while True:
            name = names.pop(0)
            try:
                held = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                if names:
                    raise
                return fd, name  # the file itself: the caller opens or makes it
            if name != "..":
                _check_entry(os.fstat(fd), held, where, name, refusing)
            if stat.S_ISLNK(held.st_mode):
                links += 1
                if links > MAX_LINKS:
                    raise HostingError(refusal(refusing, _("too many links on its path")))
                if not names:
                    target = os.readlink(name, dir_fd=fd)
                    raise HostingError(refusal(refusing, _(
                        "it is a link (to {target}), and a link can be swapped between a "
                        "check and a read; use the file itself, not a link").format(
                            target=repr(target))))
                target = os.readlink(name, dir_fd=fd)
                names[:0] = [n for n in target.split("/") if n not in ("", ".")]
                if target.startswith("/"):
                    os.close(fd)
                    fd, where = _open_root(refusing)
                continue
            if not names:
                return fd, name
            if not stat.S_ISDIR(held.st_mode):
                raise HostingError(refusal(refusing, _("{path} is not a folder").format(
                    path=_join(where, name))))
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                            dir_fd=fd)
            os.close(fd)
            fd, where = inner, os.path.dirname(where) if name == ".." else _join(where, name)
            folder = os.fstat(fd)
            if name != ".." and (folder.st_dev, folder.st_ino) != (held.st_dev, held.st_ino):
                raise HostingError(refusal(refusing, _("{path} changed while it was read")
                                           .format(path=where)))
            _check_folder(folder, where, refusing)
    except BaseException:
        os.close(fd)
        raise


def open_private_file(path: Path, what: str) -> tuple[int, os.stat_result]:
    """A descriptor open for reading on the regular file `path`, and its fstat, reached as
    `open_folder` says and opened without following a link. HostingError when the file
    belongs to someone else (its mode is the caller's to judge); FileNotFoundError when it
    is missing."""
    folder, name = open_folder(path, path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY
                     | os.O_CLOEXEC, dir_fd=folder)
    except OSError as e:
        raise _not_opened(e, path) from None
    finally:
        os.close(folder)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            # TRANSLATORS: {what} is "the host key" or "the players' keys file".
            raise HostingError(refusal(path, _("{what} is not a regular file").format(
                what=_(what))))
        if info.st_uid not in trusted_owners():
            raise HostingError(refusal(path, _(
                "{what} {path} belongs to another user (uid {uid}), who could seat anyone at "
                "the table; keep it in a folder of your own").format(
                    what=_(what), path=path, uid=info.st_uid)))
        return fd, info
    except BaseException:
        os.close(fd)
        raise


def read_all(fd: int, limit: int, path: Path) -> bytes:
    """Everything `fd` holds, up to `limit` bytes (HostingError past it)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := os.read(fd, 65536):
        size += len(chunk)
        if size > limit:
            raise HostingError(refusal(path, _("it is larger than {size} KiB").format(
                size=limit // 1024)))
        chunks.append(chunk)
    return b"".join(chunks)


def _open_root(refusing: Path) -> tuple[int, str]:
    fd = os.open("/", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        _check_folder(os.fstat(fd), "/", refusing)
    except BaseException:
        os.close(fd)
        raise
    return fd, "/"


def _join(where: str, name: str) -> str:
    return os.path.join(where, name)


def refusal(path: object, reason: str) -> str:
    """What the host is told when a file that decides who sits cannot be trusted."""
    # TRANSLATORS: {path} is the file refused, {reason} why.
    return _("refusing {path}: {reason}").format(path=path, reason=reason)


def _check_folder(info: os.stat_result, where: str, refusing: Path) -> None:
    """A folder on the way: the host's or root's, and nobody else may write it, unless it
    is sticky (like /tmp), where only an entry's owner can replace it (`_check_entry`)."""
    if info.st_uid not in trusted_owners():
        raise HostingError(refusal(refusing, _(
            "the folder {folder} belongs to another user (uid {uid}), who could seat anyone "
            "at the table; keep it in a folder of your own").format(
                folder=where, uid=info.st_uid)))
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o022 and not mode & stat.S_ISVTX:
        raise HostingError(refusal(refusing, _(
            "other users of this machine can change the folder {folder} (mode {mode}) and "
            "so seat anyone at the table; run `{command}` and start again").format(
                folder=where, mode=f"{mode & 0o777:04o}",
                command=f"chmod go-w {shlex.quote(where)}")))


def _check_entry(folder: os.stat_result, held: os.stat_result, where: str, name: str,
                 refusing: Path) -> None:
    """A name in a folder others may write (sticky, else `_check_folder` refused it):
    whoever owns the name can replace it, so it must be the host's or root's."""
    if folder.st_mode & 0o022 and held.st_uid not in trusted_owners():
        raise HostingError(refusal(refusing, _(
            "{path} belongs to another user (uid {uid}) in {folder}, which anyone can write, "
            "so they could swap it; keep it in a folder of your own").format(
                path=_join(where, name), uid=held.st_uid, folder=where)))


def _not_opened(e: OSError, path: Path) -> Exception:
    if isinstance(e, FileNotFoundError):
        return e
    if e.errno == getattr(os, "ELOOP", None):  # a link put there since it was checked
        return HostingError(refusal(path, _("it became a link while it was read")))
    return HostingError(cannot_read(path, e.strerror or e))


def cannot_read(path: object, reason: object) -> str:
    # TRANSLATORS: {file} is a path, {reason} the system's words.
    return _("cannot read {file}: {reason}").format(file=path, reason=reason)
