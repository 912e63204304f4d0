"""The command line: `warledger` opens the TUI; the subcommands work without it.

Heavy imports happen inside the commands, so `warledger --help` and the TUI's first frame
stay quick. What replay, export, sessions and league do lives in tui/commands.py, which
tui/start.py also runs straight away for their plain forms (no Typer, no pydantic).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from tui import commands
from tui.commands import database_errors, fail, open_ledger, shown
from tui.options import player_option

app = typer.Typer(add_completion=False, no_args_is_help=False, rich_markup_mode=None,
                  help="warledger: a table helper for Risk and Struggle of Empires.")
serve_app = typer.Typer(help="Host the tracker for the players at the table.")
app.add_typer(serve_app, name="serve")

DbOption = Annotated[str | None, typer.Option(
    "--db", help="Database: a SQLite file path or any SQLAlchemy URL "
                 "(default: $WARLEDGER_DB, else warledger.db in your data folder).")]


YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask first (for scripts).")]


@app.callback(invoke_without_command=True)
def main_callback(ctx: typer.Context, db: DbOption = None,
                  player: Annotated[str | None, typer.Option(
                      "--player", hidden=True,
                      help="Who is at this terminal (for an OpenSSH forced command).")] = None,
                  lang: Annotated[str | None, typer.Option(
                      "--lang", metavar="ro|en",
                      help="Language (default: $WARLEDGER_LANG, else the locale, else "
                           "English).")] = None,
                  ) -> None:
    """Open the TUI when no command is given."""
    # tui.start takes --lang before the commands are parsed (their words are in it); it
    # is declared here for the help.
    ctx.obj = {"db": db}
    player = player_option(player)  # a bad name: one line, exit 2
    if ctx.invoked_subcommand is None:
        from tui.app import run

        run(db, player=player)


def _db(ctx: typer.Context, db: str | None) -> str | None:
    return db or (ctx.obj or {}).get("db")


@app.command()
def replay(ctx: typer.Context,
           files: Annotated[list[Path], typer.Argument(help="warledger/1 JSON files")],
           as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
           copy: Annotated[bool, typer.Option(
               "--copy", help="Store a file of a game the database holds already as a new "
                              "game (with a new id) instead of leaving it")] = False,
           db: DbOption = None) -> None:
    """Check and apply session files, store each one, print the standings. A game the
    database holds already (the file's id) is said so and not stored again."""
    commands.replay(_db(ctx, db), files, as_json, copy)


@app.command()
def export(ctx: typer.Context, session: Annotated[int, typer.Argument(help="Game id (see `sessions`)")],
           format: Annotated[str, typer.Option("--format", help="json or csv")] = "json",
           output: Annotated[Path | None, typer.Option("-o", "--output", help="File to write")] = None,
           db: DbOption = None) -> None:
    """Write a game as a session file (json) or its standings (csv)."""
    commands.export(_db(ctx, db), session, format, output)


@app.command()
def sessions(ctx: typer.Context, as_json: Annotated[bool, typer.Option("--json")] = False,
             db: DbOption = None) -> None:
    """Saved games, newest first."""
    commands.sessions(_db(ctx, db), as_json)


@app.command()
def league(ctx: typer.Context,
           game: Annotated[str | None, typer.Option("--game", help="Only one game's results: its tag in session files")] = None,
           as_json: Annotated[bool, typer.Option("--json")] = False,
           db: DbOption = None) -> None:
    """League standings over finished games: win 3, draw 1, loss 0."""
    commands.league(_db(ctx, db), game, as_json)


@app.command()
def demo(ctx: typer.Context, db: DbOption = None,
         no_tui: Annotated[bool, typer.Option("--no-tui", help="Only store the demo games")] = False,
         ) -> None:
    """Store a demo game of each game (Struggle of Empires in war 2, Risk in its last round)
    and open them; demo games stored before are kept as they are, not stored again."""
    from tui.demo import store_demos

    chosen = _db(ctx, db)
    ledger = open_ledger(chosen)
    with database_errors():
        games = store_demos(ledger)
    new = [str(game_id) for game_id, now in games if now]
    kept = [str(game_id) for game_id, now in games if not now]
    said = ([f"stored as {', '.join(new)}"] if new else []) + (
        [f"already stored as {', '.join(kept)}"] if kept else [])
    typer.echo(f"Demo games {'; '.join(said)}.", err=no_tui)
    if not no_tui:
        from tui.app import run

        run(chosen)


@serve_app.callback()
def serve_callback() -> None:
    # Every connection takes an open file: a host serving a table may open as many as its
    # hard limit allows, not the soft 1024 most systems start with (issue 22).
    from tui.hosting.files import raise_open_files_limit

    raise_open_files_limit()


@serve_app.command("ssh")
def serve_ssh(ctx: typer.Context,
              host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every "
                                                     "network of this machine)")] = "127.0.0.1",
              port: Annotated[int, typer.Option(help="Port to listen on")] = 2222,
              authorized_keys: Annotated[Path | None, typer.Option(
                  "--authorized-keys", help="The players' public keys, one line each, naming "
                  "the player (default: authorized_keys in your data folder)")] = None,
              max_sessions: Annotated[int, typer.Option(
                  "--max-sessions", min=1, help="Players connected at once")] = 16) -> None:
    """Host the table over SSH: each player connects with `ssh -p PORT HOST`."""
    import asyncio

    from storage.engine import data_dir
    from tui.hosting.keys import KEYS_NAME, HostingError
    from tui.hosting.ssh import Table, serve

    folder = data_dir()
    db = _db(ctx, None)
    open_ledger(db)  # a bad database is told now, not once per player
    table = Table(db, authorized_keys or folder / KEYS_NAME, port=port,
                  max_sessions=max_sessions, say=typer.echo)
    try:
        asyncio.run(serve(table, host, folder))
    except HostingError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot listen on {host}:{port}: {e.strerror or e}")


@serve_app.command("web")
def serve_web(ctx: typer.Context,
              host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every "
                                                     "network of this machine)")] = "127.0.0.1",
              port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
              public_url: Annotated[str | None, typer.Option(
                  "--public-url", help="The address browsers use, when it is not one this "
                  "machine has (behind a proxy)")] = None,
              max_sessions: Annotated[int, typer.Option(
                  "--max-sessions", min=1, help="Browser tabs playing at once")] = 16) -> None:
    """Host the table in a browser: players open the address printed."""
    from yarl import URL

    from tui.hosting.web import serve

    if public_url is not None and not (URL(public_url).scheme in ("http", "https")
                                       and URL(public_url).host):
        fail(f"--public-url must be a whole address, like http://192.168.1.20:{port}, "
             f"not {public_url!r}")
    db = _db(ctx, None)
    open_ledger(db)
    try:
        serve(db, host, port, public_url, max_sessions=max_sessions, say=typer.echo)
    except OSError as e:
        fail(f"cannot listen on {host}:{port}: {e.strerror or e}")


# Deleting and renaming: the repair tools for a game stored with a bad title.

def on_terminal() -> bool:
    """Whether someone is at a terminal to answer a question."""
    return sys.stdin.isatty()


def confirmed(question: str, yes: bool, what: str) -> None:
    """Go on only when `--yes` was given or the person at the terminal says yes."""
    if yes:
        return
    if not on_terminal():
        fail(f"{what} needs a yes: run it on a terminal to be asked, or add --yes")
    if not typer.confirm(question, default=False):
        fail("nothing was changed")


def _title_of(ledger, session: int) -> str:
    with database_errors():
        for listing in ledger.games():
            if listing.id == session:
                return listing.title
    fail(f"There is no game {session}")


@app.command()
def delete(ctx: typer.Context, session: Annotated[int, typer.Argument(help="Game id (see `sessions`)")],
           yes: YesOption = False, db: DbOption = None) -> None:
    """Delete a saved game and everything recorded for it (asks first on a terminal)."""
    ledger = open_ledger(_db(ctx, db))
    title = _title_of(ledger, session)
    confirmed(f"Delete game {session}, {shown(title)}, and every step of it?", yes,
              f"deleting game {session}")
    with database_errors():
        ledger.delete_game(session)
    typer.echo(f"Deleted game {session}: {shown(title)}")


@app.command()
def rename(ctx: typer.Context, session: Annotated[int, typer.Argument(help="Game id (see `sessions`)")],
           title: Annotated[str, typer.Argument(help="The new title")],
           yes: YesOption = False, db: DbOption = None) -> None:
    """Give a saved game a new title (asks first on a terminal)."""
    from rules.errors import RuleError
    from rules.fields import TITLE_LIMIT, text

    try:
        title = text(title, "The title", TITLE_LIMIT)
    except RuleError as e:
        fail(f"{e}; nothing was changed")
    ledger = open_ledger(_db(ctx, db))
    old = _title_of(ledger, session)
    confirmed(f"Rename game {session}, {shown(old)}, to {shown(title)}?", yes,
              f"renaming game {session}")
    with database_errors():
        title = ledger.rename_game(session, title)
    typer.echo(f"Game {session} is now called {shown(title)}")
