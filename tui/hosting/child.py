"""What runs in each SSH player's pseudo-terminal: the TUI, as that player, mouse off.

`python -m tui.hosting.child --player NAME [--db DB]`; started by tui.hosting.ssh only.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import sys
import termios


def take_terminal() -> None:
    """Make the pty on stdin our controlling terminal, as a login would, so a hang-up and
    window changes reach us from the kernel. Needs a new session (the server starts us so)."""
    with contextlib.suppress(OSError):
        fcntl.ioctl(sys.stdin.fileno(), termios.TIOCSCTTY, 0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="warledger-seat")
    parser.add_argument("--player", required=True)
    parser.add_argument("--db")
    args = parser.parse_args(argv)
    from tui.start import player_option

    player = player_option(args.player)  # checked again: a bad name ends here, exit 2
    take_terminal()
    from tui.app import WarledgerApp

    # Mouse reports off: over a network they flood the link and most players use keys.
    # Suspend stays off too: no key is bound to it and the driver turns ISIG off.
    WarledgerApp(args.db, player=player).run(mouse=False)


if __name__ == "__main__":
    main()
