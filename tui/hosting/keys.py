"""Who may sit at the table: the host's own key, and the players' keys with their names.

Both files are read as OpenSSH's StrictModes would have them, and without a gap between the
check and the read (tui.hosting.private_files): nobody else can swap a link, a folder or the
file between the check and the read.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import asyncssh
from asyncssh.pattern import HostPatternList

from i18n import N_, _, language_of_locale, languages
from rules.errors import RuleError
from rules.fields import looks_alike, player_name, spelled
from tui.hosting.private_files import (
    HostingError,
    cannot_read,
    open_folder,
    open_private_file,
    read_all,
    refusal,
)

HOST_KEY_NAME = "ssh_host_ed25519_key"
KEYS_NAME = "authorized_keys"
KEYS_FILE_LIMIT = 1 << 20  # bytes: a thousand players' keys fit many times over
# What a key whose line says no-pty is told when it asks for a terminal.
NO_SEAT = N_("This key gets no seat at the table: the host's keys file says no-pty")


# ---------------------------------------------------------------- the host's key

def load_host_key(folder: Path, say: Callable[[str], None] = print) -> asyncssh.SSHKey:
    """The host key kept in `folder`, generated (mode 0600) the first time. A key others may
    read or write is made 0600 again, and `say` tells the host so in one line: they may
    have copied it."""
    path = folder / HOST_KEY_NAME
    try:
        fd, info = open_private_file(path, N_("the host key"))
    except FileNotFoundError:
        return _new_host_key(path)
    except OSError as e:
        raise HostingError(cannot_read_host_key(path, e.strerror or e)) from None
    try:
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o077:
            try:
                os.fchmod(fd, 0o600)
            except OSError as e:
                raise HostingError(_(
                    "refusing the host key {path}: other users may read it (mode {mode}) and "
                    "it cannot be made private: {reason}").format(
                        path=path, mode=f"{mode:04o}", reason=e.strerror or e)) from None
            say(_("the host key {path} was open to other users (mode {mode}): made 0600; if "
                  "anyone may have copied it, delete it and start again for a new one").format(
                      path=path, mode=f"{mode:04o}"))
        data = read_all(fd, KEYS_FILE_LIMIT, path)
    finally:
        os.close(fd)
    try:
        return asyncssh.import_private_key(data)
    except (ValueError, asyncssh.KeyImportError) as e:
        raise HostingError(cannot_read_host_key(path, e)) from None


def cannot_read_host_key(path: Path, reason: object) -> str:
    return _("cannot read the host key {path}: {reason}").format(path=path, reason=reason)


def _new_host_key(path: Path) -> asyncssh.SSHKey:
    key = asyncssh.generate_private_key("ssh-ed25519", comment="warledger host key")
    folder, name = open_folder(path, path)
    try:
        # Created 0600 from the start, so the secret is never readable by others.
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600, dir_fd=folder)
    finally:
        os.close(folder)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """What `ssh` shows a player the first time: 'SHA256:…'."""
    return key.get_fingerprint("sha256")


# ---------------------------------------------------------------- the players' keys

@dataclass(frozen=True)
class KeyLine:
    """One line of the authorized-keys file: the key (with its `from=`), its player, its
    line number, its options as written (names in lower case), whether it may sit, and the
    language its player reads (`lang="ro"`; None: what their client asks, else the host's)."""

    rule: asyncssh.SSHAuthorizedKeys
    player: str
    number: int = 0
    options: tuple[tuple[str, str | None], ...] = ()
    seat: bool = True  # False: no-pty (or restrict without pty): the key gets no terminal
    language: str | None = None
    spectator: bool = False  # `spectator`: the scoreboard only, which records nothing


@dataclass(frozen=True)
class Players:
    """The usable lines of an authorized-keys file, and a warning for each line skipped or
    option refused."""

    lines: list[KeyLine]
    warnings: list[str] = field(default_factory=list)


# OpenSSH's key options (sshd(8), AUTHORIZED_KEYS FILE FORMAT) and what the table does with
# each. Honoured: they hold back what the table never does anyway (forwarding, rc files), or
# the table applies them (from=, expiry-time=, pty and no-pty, restrict), or they are the
# table's own (player=, lang=, and spectator: the scoreboard only). Refused with the line
# skipped: the key must not sit without what they ask, which the table cannot give. Refused
# alone: they grant what the table never gives; the key still sits.
HONOURED = frozenset({
    "no-port-forwarding", "no-agent-forwarding", "no-x11-forwarding", "no-user-rc",
    "permitopen", "permitlisten", "from", "expiry-time", "pty", "no-pty", "restrict",
    "touch-required", "player", "lang", "spectator"})
LINE_REFUSED = {
    "command": N_("the table runs warledger and no other command; remove command= to seat "
                  "this key"),
    "cert-authority": N_("certificates are not taken here"),
    "principals": N_("certificates are not taken here"),
    "verify-required": N_("the table cannot check a security key's PIN"),
}
OPTION_REFUSED = {
    "port-forwarding": N_("the table forwards nothing"),
    "agent-forwarding": N_("the table forwards nothing"),
    "x11-forwarding": N_("the table forwards nothing"),
    "user-rc": N_("the table runs no rc file"),
    "environment": N_("the table passes no environment variable to a player"),
    "tunnel": N_("the table opens no tunnel"),
    "no-touch-required": N_("a security key must still be touched"),
}
VALUED = frozenset({"from", "expiry-time", "permitopen", "permitlisten", "player", "command",
                    "principals", "environment", "tunnel", "lang"})


def read_players(path: Path) -> Players:
    """The players' keys in `path` (OpenSSH authorized_keys format, its options parsed as
    OpenSSH does). Each line names its player with a `player="NAME"` option, else the key's
    comment; the name is checked like any player's name. A bad line is skipped with a
    warning naming it, and so are two lines whose names look alike (both: a warning names
    the two); an option the table does not give is refused with a warning, and so is a
    `lang=` naming a language with no catalog. A file without one usable line stops the host
    (HostingError), and so does a file that other users of this machine could change, or a
    link (`open_private_file`)."""
    content = _read_keys_file(path)
    lines: list[KeyLine] = []
    warnings: list[str] = []
    for number, line in enumerate(content.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        said: list[str] = []
        try:
            lines.append(_key_line(line, number, said))
        except ValueError as e:
            # TRANSLATORS: {path}, line {number}: where in the keys file; {reason} what is
            # wrong there.
            warnings.append(_("{path}, line {number}: {reason}; the line is skipped").format(
                path=path, number=number, reason=e))
        else:
            warnings += [_("{path}, line {number}: {reason}").format(
                path=path, number=number, reason=words) for words in said]
    lines, clashes = _distinct(lines, path)
    warnings += clashes
    if not lines:
        raise HostingError(_("{path} holds no usable keys: {reasons}").format(
            path=path, reasons="; ".join(warnings) if warnings
            else _("add one line per player")))
    return Players(lines, warnings)


def _open_keys_file(path: Path) -> tuple[int, os.stat_result]:
    path = path.expanduser()
    fd, info = open_private_file(path, N_("the players' keys file"))
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o022:
        os.close(fd)
        raise HostingError(refusal(path, _(
            "other users of this machine can change the players' keys file {path} (mode "
            "{mode}) and so seat anyone at the table; run `{command}` and start again").format(
                path=path, mode=f"{mode & 0o777:04o}",
                command=f"chmod go-w {shlex.quote(str(path))}")))
    return fd, info


def _read_keys_file(path: Path) -> str:
    try:
        fd, _info = _open_keys_file(path)
    except FileNotFoundError:
        raise HostingError(_(
            "no players' keys yet: create {path} with one line per player, e.g. {example}")
            .format(path=path, example='player="Ana" ssh-ed25519 AAAA…')) from None
    except OSError as e:
        raise HostingError(cannot_read(path, e.strerror or e)) from None
    try:
        return read_all(fd, KEYS_FILE_LIMIT, path).decode("utf-8")
    except OSError as e:
        raise HostingError(cannot_read(path, e.strerror or e)) from None
    except UnicodeDecodeError as e:
        raise HostingError(cannot_read(path, e)) from None
    finally:
        os.close(fd)


def _key_line(line: str, number: int, said: list[str]) -> KeyLine:
    """One line of the file as a KeyLine, or ValueError saying what is wrong with it. Each
    option refused alone, and a key that gets no seat, adds a sentence to `said`."""
    options_text, key_text = split_key_line(line)
    kind, blob, comment = (key_text.split(None, 2) + ["", ""])[:3]
    try:
        asyncssh.import_public_key(f"{kind} {blob}")  # a key, or the line is no key line
    except (ValueError, asyncssh.KeyImportError) as e:
        raise ValueError(_("not a public key ({error})").format(error=e)) from None
    options = key_options(options_text) if options_text is not None else []
    name: str | None = None
    language: str | None = None
    seat = True
    spectator = False
    for option, value in options:
        if option not in HONOURED and option not in LINE_REFUSED and option not in OPTION_REFUSED:
            raise ValueError(_("{option} is not a key option OpenSSH or warledger knows")
                             .format(option=option))
        if (value is not None) != (option in VALUED):
            raise ValueError(_("{option} needs a value: {example}").format(
                option=option, example=f'{option}="…"') if option in VALUED
                else _("{option} takes no value").format(option=option))
        written = f"{option}=" if option in VALUED else option
        if option in LINE_REFUSED:
            raise ValueError(_("{option} is refused: {reason}").format(
                option=written, reason=_(LINE_REFUSED[option])))
        if option in OPTION_REFUSED:
            said.append(still_sits(written, _(OPTION_REFUSED[option])))
        elif option == "player":
            if name is not None:
                raise ValueError(_("player= is given twice"))
            name = value
        elif option == "lang":
            if language is not None:
                said.append(still_sits(written, _("it is given twice: the first is kept")))
            elif (code := language_of_locale(value)) is None:
                # TRANSLATORS: {languages} are the languages' codes: en, ro.
                said.append(still_sits(f'lang="{value}"', _(
                    "the table's languages are {languages}").format(
                        languages=", ".join(languages()))))
            else:
                language = code
        elif option in ("no-pty", "restrict"):
            seat = False
        elif option == "pty":
            seat = True
        elif option == "spectator":
            spectator = True
        elif option == "expiry-time":
            assert value is not None  # expiry-time is VALUED: its value was checked above
            expires = expiry_time(value)
            if time.time() > expires:
                # TRANSLATORS: {moment} is a date and time (2026-12-01 20:00), {option} the
                # option as written (expiry-time="20261201").
                raise ValueError(_("the key expired on {moment} ({option})").format(
                    moment=_moment(expires), option=f'expiry-time="{value}"'))
    named_by_option = name is not None
    if name is None:
        name = comment  # as OpenSSH has it: the rest of the line, in any script
        if not name.strip():
            raise ValueError(_("whose key is it? Add {option} in front of the key, or the "
                               "name as its comment").format(option='player="NAME"'))
    try:
        player = player_name(name, _("the player's name") if named_by_option else
                             _("the key's comment (the player's name)"))
    except RuleError as e:
        raise ValueError(str(e)) from None
    if not seat:
        said.append(_("no-pty (or restrict without pty): {player}'s key gets no seat, and is "
                      "told so when it connects").format(player=player))
    rule = asyncssh.import_authorized_keys(_asyncssh_line(options, key_text))
    return KeyLine(rule, player, number, tuple(options), seat, language, spectator)


def still_sits(option: str, reason: str) -> str:
    """An option refused alone: the key still sits."""
    # TRANSLATORS: {option} as written in the keys file (environment=), {reason} why.
    return _("{option} is refused: {reason} (the key still sits)").format(
        option=option, reason=reason)


def split_key_line(line: str) -> tuple[str | None, str]:
    """(the options, or None, and the key with its comment): OpenSSH's reading. A line that
    starts with a key has no options; else the options run to the first blank outside
    double quotes (`\\"` is a quote inside them)."""
    try:
        asyncssh.import_public_key(" ".join(line.split(None, 2)[:2]))
        return None, line
    except (ValueError, asyncssh.KeyImportError):
        pass
    quoted = False
    i = 0
    while i < len(line) and (quoted or line[i] not in " \t"):
        if line[i] == "\\" and line[i + 1:i + 2] == '"':
            i += 1
        elif line[i] == '"':
            quoted = not quoted
        i += 1
    if quoted:
        raise ValueError(_("a double quote in the key options is never closed"))
    return line[:i], line[i:].lstrip(" \t")


def key_options(text: str) -> list[tuple[str, str | None]]:
    """OpenSSH's key options (auth-options.c): `name` or `name="value"` separated by
    commas, names in any case (given here in lower case), a value in double quotes where a
    comma is a comma and `\\"` a quote. ValueError when they break that grammar."""
    options: list[tuple[str, str | None]] = []
    i = 0
    while True:
        start = i
        while i < len(text) and (text[i].isascii() and (text[i].isalnum() or text[i] in "-_")):
            i += 1
        if i == start:
            raise ValueError(_("a key option is missing at {place}").format(
                place=shown_part(text[start:])))
        option = text[start:i].lower()
        value = None
        if text[i:i + 1] == "=":
            if text[i + 1:i + 2] != '"':
                raise ValueError(_("{option} needs its value in double quotes: {example}")
                                 .format(option=f"{option}=", example=f'{option}="…"'))
            i += 2
            chars: list[str] = []
            while i < len(text) and text[i] != '"':
                if text[i] == "\\" and text[i + 1:i + 2] == '"':
                    i += 1
                chars.append(text[i])
                i += 1
            if i == len(text):
                raise ValueError(_("the value of {option} has no closing double quote")
                                 .format(option=f"{option}="))
            i += 1
            value = "".join(chars)
        options.append((option, value))
        if i == len(text):
            return options
        if text[i] != ",":
            raise ValueError(_("a comma is missing after {option} (at {place})").format(
                option=option, place=shown_part(text[i:])))
        i += 1
        if i == len(text):
            raise ValueError(_("the key options end with a comma"))


def expiry_time(value: str) -> float:
    """OpenSSH's expiry-time: YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, in the host's time
    zone or, ending in Z, in UTC; as a POSIX time."""
    utc = value[-1:] in ("Z", "z")
    digits = value[:-1] if utc else value
    form = {8: "%Y%m%d", 12: "%Y%m%d%H%M", 14: "%Y%m%d%H%M%S"}.get(len(digits))
    try:
        if form is None or not digits.isdigit():
            raise ValueError
        moment = datetime.strptime(digits, form)
    except ValueError:
        raise ValueError(_("{option} is not a time: {form}").format(
            option=f'expiry-time="{value}"', form="YYYYMMDD[HHMM[SS]][Z]")) from None
    return (moment.replace(tzinfo=UTC) if utc else moment.astimezone()).timestamp()


def _moment(when: float) -> str:
    return datetime.fromtimestamp(when).astimezone().strftime("%Y-%m-%d %H:%M")


def shown_part(text: str) -> str:
    """A piece of a line quoted in a warning: cut to 20 characters."""
    return repr(text if len(text) <= 20 else text[:19] + "…")


def _asyncssh_line(options: list[tuple[str, str | None]], key_text: str) -> str:
    """The line as asyncssh is given it, to match keys and apply `from=`: only the options
    it applies, written so its own reading gives back the same values."""
    kept = [f'from="{_quoted(value)}"' for option, value in options
            if option == "from" and value is not None]
    key = " ".join(key_text.split(None, 2)[:2])
    return f"{','.join(kept)} {key}" if kept else key


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _distinct(lines: list[KeyLine], path: Path) -> tuple[list[KeyLine], list[str]]:
    """The lines whose player's name looks like no other line's, and a warning for each
    pair that looks alike: both its lines are skipped, since either could be the player."""
    clashing: set[int] = set()
    warnings: list[str] = []
    for j, later in enumerate(lines):
        for i, earlier in enumerate(lines[:j]):
            if looks_alike(earlier.player, later.player):
                clashing |= {i, j}
                same = earlier.player.casefold() == later.player.casefold()
                what = (_("two keys are named {player}").format(player=earlier.player)
                        if same else
                        _("the names {first} and {second} look alike (they differ only by "
                          "look-alike or invisible characters)").format(
                              first=spelled(earlier.player), second=spelled(later.player)))
                # TRANSLATORS: {path}, lines {first} and {second}: where in the keys file.
                warnings.append(_("{path}, lines {first} and {second}: {reason}; both lines "
                                  "are skipped").format(path=path, first=earlier.number,
                                                        second=later.number, reason=what))
                break
    return [line for k, line in enumerate(lines) if k not in clashing], warnings


def line_for(lines: list[KeyLine], key: asyncssh.SSHKey, host: str,
             addr: str) -> KeyLine | None:
    """The line that accepts `key` from that client (a `from=` option counts), or None for
    a key nobody at the table owns."""
    for line in lines:
        if line.rule.validate(key, host, addr) is not None:
            return line
    return None


def player_for(lines: list[KeyLine], key: asyncssh.SSHKey, host: str, addr: str) -> str | None:
    """The player whose line accepts `key` from that client (a `from=` option counts), or
    None for a key nobody at the table owns."""
    line = line_for(lines, key, host, addr)
    return line.player if line is not None else None


# Addresses no table names on purpose (TEST-NET-3, and IPv6's documentation prefix): a `from=`
# that lets them in lets in anyone, so it names no address in particular.
ANYWHERE = ("203.0.113.77", "2001:db8:77::77")


def names_address(lines: list[KeyLine], addr: str) -> bool:
    """Whether a key's `from=` names the client address `addr` (an IP address, matched as
    OpenSSH matches it: wildcards, CIDR and `!` negations; no name is looked up). A `from=`
    that lets in any address (`*`, `0.0.0.0/0`) names none."""
    return any(_names(value, addr) and not any(_names(value, a) for a in ANYWHERE)
               for line in lines for option, value in line.options
               if option == "from" and value)


def _names(patterns: str, addr: str) -> bool:
    try:
        ip = ipaddress.ip_address(addr.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # an IPv4 client on a dual-stack socket
    try:
        return HostPatternList(patterns).matches("", str(ip), ip)
    except ValueError:
        return False
