"""The `warledger` console script. The plain `warledger` (the TUI, with `--db` or `--player`
at most) starts here without the command-line machinery: Typer, and the pydantic it parses
with, cost a third of a bare Textual app's start. Every other command goes on to tui.cli."""

from __future__ import annotations

import os
import sys

from tui.options import player_option, tui_options


def main() -> None:
    """Console entry point; no player ever sees a traceback."""
    try:
        options = tui_options(sys.argv[1:])
        if options is None:
            from tui.cli import app

            app()
        else:
            from tui.app import run

            run(options.get("--db"), player=player_option(options.get("--player")))
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:  # noqa: BLE001
        if os.environ.get("WARLEDGER_DEBUG"):
            raise
        from storage.service import explain

        print(f"warledger: {explain(e)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
