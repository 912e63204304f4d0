"""The `warledger` console script. The plain `warledger` (the TUI, with `--db` or `--player`
at most) starts here without the command-line machinery: Typer, and the pydantic it parses
with, cost a third of a bare Textual app's start. Every other command goes on to tui.cli."""

from __future__ import annotations

import os
import sys


def tui_options(args: list[str]) -> dict[str, str] | None:
    """`--db` and `--player` when they are all the arguments, else None."""
    options: dict[str, str] = {}
    rest = list(args)
    while rest:
        name, sep, value = rest.pop(0).partition("=")
        if name not in ("--db", "--player") or name in options:
            return None
        if not sep:
            if not rest:
                return None
            value = rest.pop(0)
        options[name] = value
    return options


def main() -> None:
    """Console entry point; no player ever sees a traceback."""
    try:
        options = tui_options(sys.argv[1:])
        if options is None:
            from tui.cli import app

            app()
        else:
            from tui.app import run

            run(options.get("--db"), player=options.get("--player"))
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
