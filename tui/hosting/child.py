"""What runs in each SSH player's pseudo-terminal: the TUI, as that player, mouse off (with
`--spectator`, a key line's `spectator`: the scoreboard's app, which only reads).

`python -m tui.hosting.child --player=NAME [--spectator] [--db DB]`; started by
tui.hosting.ssh only, and on Linux run as that command would be in a process forked from
the table's warm parent (tui.hosting.zygote), which has imported it and everything it uses
already.
Also what every hosted child (SSH or web) may see of the host's environment.

The player's language comes in WARLEDGER_LANG (tui.hosting.ssh.player_language: their key's
lang=, else what their client's locale asks, else the host's), and is set before the app is
made: a forked player starts with its warm parent's language.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import re
import sys
import termios
from collections.abc import Mapping
from typing import TYPE_CHECKING

from tui.hosting.paced import Paced

if TYPE_CHECKING:
    from textual.app import App

DEFAULT_TERM = "xterm-256color"
TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")  # xterm-256color, screen.xterm…
# What a hosted child keeps of the host's environment; the rest (tokens, keys, whatever the
# host's shell holds) never reaches a process a remote player drives.
KEPT = frozenset({
    "PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR",
    "WARLEDGER_DB", "WARLEDGER_BUSY_TIMEOUT_MS", "XDG_DATA_HOME",  # where the database is
    "WARLEDGER_LANG",  # the language shown (a player's own, set by the server)
    "PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH", "PYTHONUTF8", "PYTHONIOENCODING",
    "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX",
})
KEPT_PREFIXES = ("LC_", "TEXTUAL_", "PG")  # locale, Textual settings, PostgreSQL's libpq
NOT_KEPT = frozenset({"TEXTUAL_DRIVER", "TEXTUAL_ALLOW_SIGNALS"})  # the server decides these


def kept(name: str) -> bool:
    """Whether a hosted child keeps the host's variable `name`."""
    return name not in NOT_KEPT and (name in KEPT or name.startswith(KEPT_PREFIXES))


def hosted_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The part of the host's environment a hosted child needs to run the TUI."""
    environ = os.environ if environ is None else environ
    return {name: value for name, value in environ.items() if kept(name)}


def terminal_name(name: str | None, default: str = DEFAULT_TERM) -> str:
    """A TERM (or COLORTERM) a client sent, when it is a plain terminal name; else
    `default`. A name with a newline, a control character or a path never gets through."""
    return name if name is not None and TERM_NAME.fullmatch(name) else default


def take_terminal() -> None:
    """Make the pty on stdin our controlling terminal, as a login would, so a hang-up and
    window changes reach us from the kernel. Needs a new session (the server starts us so)."""
    with contextlib.suppress(OSError):
        fcntl.ioctl(sys.stdin.fileno(), termios.TIOCSCTTY, 0)


def paced_driver() -> type:
    """Textual's Linux driver, reading the player's terminal no faster than the app takes
    what it reads (tui.hosting.paced): while the app is behind, the pty fills, the server
    stops reading the player's SSH channel (tui.hosting.ssh_terminal.ChildInput) and the
    client waits. Nothing is dropped on the way."""
    from textual.drivers.linux_driver import LinuxDriver

    class PacedDriver(Paced, LinuxDriver):
        pass

    return PacedDriver


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="warledger-seat")
    # Given as --player=NAME: whatever the name, it is never read as an option.
    parser.add_argument("--player", required=True)
    parser.add_argument("--db")
    parser.add_argument("--spectator", action="store_true")  # the scoreboard only
    args = parser.parse_args(argv)
    from i18n import choose_language, set_language
    from tui.cli.options import player_option

    set_language(choose_language())  # WARLEDGER_LANG, which the server sets per player
    player = player_option(args.player)  # checked again: a bad name ends here, exit 2
    take_terminal()
    app: App[object]  # the scoreboard's, or the TUI's
    if args.spectator:
        # An app of its own that can only read: no screen of it records (tui.scoreboard.app).
        from tui.scoreboard.app import ScoreboardApp

        app = ScoreboardApp(args.db, viewer=player)
    else:
        from tui.app import WarledgerApp

        app = WarledgerApp(args.db, player=player)
    app.driver_class = paced_driver()
    # Mouse reports off: over a network they flood the link and most players use keys.
    # Suspend stays off too: no key is bound to it and the driver turns ISIG off.
    app.run(mouse=False)


if __name__ == "__main__":
    main()
