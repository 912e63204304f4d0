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


def player_option(name: str | None) -> str | None:
    """`--player` checked like any name typed (trimmed, NFC, no control characters, at most
    NAME_LIMIT long); a bad one ends the program with one line and exit status 2."""
    if name is None:
        return None
    from rules.errors import RuleError
    from rules.fields import NAME_LIMIT, text

    try:
        return text(name, "--player", NAME_LIMIT)
    except RuleError as e:
        from tui.literal import visible

        reason = str(e).removeprefix("--player").lstrip(" :")
        print(f"warledger: --player: {visible(reason)}", file=sys.stderr)
        raise SystemExit(2) from None


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
