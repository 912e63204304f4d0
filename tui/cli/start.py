"""The `warledger` console script. The plain `warledger` (the TUI, with `--db` or `--player`
at most) starts here without the command-line machinery: Typer, and the pydantic it parses
with, cost a third of a bare Textual app's start. So do the commands that read and store
games (replay, export, sessions, league, stats) in their plain forms: a script running them by the
hundred waits for SQLAlchemy and little else; and the scoreboard, a TV's (or a browser
tab's) process, starts as quickly as the TUI. Everything else (help, the other commands, a
mistake, an option spelled another way) goes on to tui.cli.typer_app, whose Typer parses it and says
what is wrong."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tui.cli.options import language_option, player_option, tui_options

# What each quick command takes besides `--db`, as tui/cli/typer_app.py declares it: its flags and its
# options with a value (every name of each), with the name tui/cli/commands.py gives them.
FLAGS = {"replay": {"--json": "as_json", "--copy": "copy"}, "export": {"--all": "all_games"},
         "sessions": {"--json": "as_json"}, "league": {"--json": "as_json"},
         "stats": {"--json": "as_json"}, "scoreboard": {}}
VALUED = {"replay": {"--group": "group"},
          "export": {"--format": "format", "-o": "output", "--output": "output",
                     "--group": "group", "--season": "season"},
          "sessions": {}, "league": {"--game": "game", "--group": "group", "--season": "season"},
          "stats": {"--group": "group", "--season": "season", "--player": "player"},
          "scoreboard": {}}


def quick_command(args: list[str]) -> Callable[[], None] | None:
    """A command of tui/cli/commands.py in one of its plain forms, ready to run without Typer:
    `[--db DB] COMMAND [ARGUMENTS] [OPTIONS]` with each option given once, its value in the
    next word or after `=`. None for anything else: Typer parses that."""
    rest = list(args)
    top_db = None
    if rest and rest[0].partition("=")[0] == "--db":
        top_db = _value(rest)
        if top_db is None:
            return None
    if not rest or rest[0] not in FLAGS:
        return None
    command = rest.pop(0)
    flags, valued = FLAGS[command], {"--db": "db", **VALUED[command]}
    # Each value is its option's own type (True for a flag, else the word given), as the
    # command's signature declares it: Any, for `**given`.
    given: dict[str, Any] = {}
    words: list[str] = []
    while rest:
        word = rest[0]
        name = word.partition("=")[0]
        if not word.startswith("-"):
            words.append(rest.pop(0))
        elif word in flags and flags[word] not in given:
            given[flags[rest.pop(0)]] = True
        elif name in valued and valued[name] not in given:
            value = _value(rest)
            if value is None:
                return None
            given[valued[name]] = value
        else:
            return None  # `--`, `-h`, an unknown or repeated option: Typer's business
    db = given.pop("db", None) or top_db
    if "output" in given:
        given["output"] = Path(given["output"])
    from tui.cli import commands, story
    if command == "sessions" and not words:
        return lambda: commands.sessions(db, **given)
    if command == "league" and not words:
        return lambda: story.league(db, **given)
    if command == "stats" and not words:
        return lambda: story.stats(db, **given)
    if command == "export" and len(words) == 1 and words[0].isascii() and words[0].isdigit():
        return lambda: commands.export(db, int(words[0]), **given)
    if command == "export" and not words and given.get("all_games"):
        return lambda: commands.export(db, None, **given)
    if command == "replay" and words:
        return lambda: commands.replay(db, [Path(w) for w in words], **given)
    if command == "scoreboard" and (not words or len(words) == 1 and words[0].isascii()
                                    and words[0].isdigit()):
        from tui.scoreboard.app import scoreboard

        return lambda: scoreboard(db, int(words[0]) if words else None)
    return None


def _value(rest: list[str]) -> str | None:
    """The value of the option at the head of `rest` (`--name=value`, or `--name value`),
    both taken off; None when it is missing or looks like an option."""
    _, sep, value = rest.pop(0).partition("=")
    if sep:
        return value
    if not rest or rest[0].startswith("-"):
        return None
    return rest.pop(0)


def main() -> None:
    """Console entry point; no player ever sees a traceback."""
    try:
        args = language_option(sys.argv[1:])
        sys.argv[1:] = args  # for Typer, when it parses them
        options = tui_options(args)
        if options is not None:
            # No cyclic collection while the app starts: what is made until the first frame
            # (modules, classes, the home screen) lives as long as the app, and a collection
            # would only walk it again; the app collects again once drawn (tui.app.run).
            gc.disable()
            try:
                from storage.glance import read_ahead

                read_ahead(options.get("--db"))  # while Textual is imported (home)
                from tui.app import run

                run(options.get("--db"), player=player_option(options.get("--player")))
            finally:
                gc.enable()  # on every way out (an app that never drew, a bad option)
        elif (command := quick_command(args)) is not None:
            command()
        else:
            from tui.cli.typer_app import app

            app()
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (`warledger sessions | head`): nothing more to say, as Typer
        # does; stdout points nowhere so the interpreter's last flush cannot complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception as e:  # noqa: BLE001
        if os.environ.get("WARLEDGER_DEBUG"):
            raise
        from storage.service import explain

        print(f"warledger: {explain(e)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
