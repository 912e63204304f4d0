"""The command line: `warledger` opens the TUI; the subcommands work without it.

Heavy imports happen inside the commands, so `warledger --help` and the TUI's first frame
stay quick.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from tui.options import player_option
from tui.printed import report_text, rich_console, standings_csv

app = typer.Typer(add_completion=False, no_args_is_help=False, rich_markup_mode=None,
                  help="warledger: a table helper for Risk and Struggle of Empires.")
serve_app = typer.Typer(help="Host the tracker for the players at the table.")
app.add_typer(serve_app, name="serve")

DbOption = Annotated[str | None, typer.Option(
    "--db", help="Database: a SQLite file path or any SQLAlchemy URL "
                 "(default: $WARLEDGER_DB, else warledger.db in your data folder).")]


YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask first (for scripts).")]


def shown(text: object) -> str:
    """Text from players, files or the system as a terminal may print it: control and
    text-direction characters shown as escapes (\\x1b), never obeyed."""
    from tui.literal import visible

    return visible(text)


def fail(message: str) -> NoReturn:
    """One line on stderr, then exit 1. The line may hold player text or a path: it is
    printed with every control character escaped."""
    typer.echo(f"warledger: {shown(message)}", err=True)
    raise typer.Exit(1)


def open_ledger(db: str | None):
    """The ledger on the chosen database, or a one-line refusal."""
    from storage.service import open_ledger as _open

    with database_errors():
        return _open(db)


@contextmanager
def database_errors():
    """Any failure of the database (busy, read-only, full, gone) becomes one line, exit 1."""
    try:
        yield
    except (typer.Exit, KeyboardInterrupt):
        raise
    except Exception as e:  # noqa: BLE001 - every failure becomes one line
        from storage.service import explain

        fail(explain(e))


@app.callback(invoke_without_command=True)
def main_callback(ctx: typer.Context, db: DbOption = None,
                  player: Annotated[str | None, typer.Option(
                      "--player", hidden=True,
                      help="Who is at this terminal (for an OpenSSH forced command).")] = None,
                  ) -> None:
    """Open the TUI when no command is given."""
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
           db: DbOption = None) -> None:
    """Check and apply session files, store each one, print the standings."""
    ledger = None
    outputs: list[dict[str, Any]] = []
    stored = refused = 0
    for file in files:
        try:
            raw = file.read_bytes()
        except OSError as e:
            refused += 1
            reason = f"cannot read {file}: {e.strerror}"
            typer.echo(f"warledger: {shown(reason)}", err=True)
            outputs.append({"file": str(file), "error": reason})
            continue
        if ledger is None:
            ledger = open_ledger(_db(ctx, db))  # a bad database: nothing can be stored
        game, reason = _store(ledger, raw)
        if game is None:
            refused += 1
            typer.echo(f"warledger: {shown(f'{file}: {reason}')}", err=True)
            outputs.append({"file": str(file), "error": reason})
            continue
        stored += 1
        # Stored: whatever happens from here on is not a failure of the store.
        if as_json:
            outputs.append(_report_json(game, file))
        else:
            _say_stored(game, file, first=stored == 1)
    if as_json:
        if len(files) == 1:
            if not refused:
                typer.echo(json.dumps(outputs[0], indent=2))
        else:
            typer.echo(json.dumps(outputs, indent=2))
    if len(files) > 1:
        typer.echo(f"{stored} stored, {refused} refused", err=as_json)
    if refused:
        raise typer.Exit(1)


def _store(ledger, raw: bytes):
    """(the stored game, None), or (None, why the file was refused: nothing was stored)."""
    from rules.errors import RuleError
    from rules.session_file import parse_text

    try:
        return ledger.replay(parse_text(raw)), None
    except RuleError as e:
        return None, f"{e}; nothing was stored"
    except Exception as e:  # noqa: BLE001 - a busy or broken database refuses this file
        from storage.service import explain

        return None, f"{explain(e)}; nothing was stored"


def _report_json(game, file: Path) -> dict[str, Any]:
    """The stored game's report; if it cannot be made, what says it was stored anyway."""
    try:
        return game.report()
    except Exception as e:  # noqa: BLE001
        from storage.service import explain

        return {"file": str(file), "stored_as": game.id,
                "error": f"its standings cannot be shown: {explain(e)}"}


def _say_stored(game, file: Path, *, first: bool) -> None:
    """The stored game's standings, built whole before a line of it is printed; a game
    that cannot be shown is still said to be stored."""
    try:
        text = report_text(game.report(), game.id, game.title)
    except Exception as e:  # noqa: BLE001
        from storage.service import explain

        typer.echo(f"Stored as game {game.id}: {shown(game.title)}")
        typer.echo(f"warledger: {shown(f'{file}: its standings cannot be shown: {explain(e)}')}",
                   err=True)
        return
    sys.stdout.write(text if first else "\n" + text)
    sys.stdout.flush()


@app.command()
def export(ctx: typer.Context, session: Annotated[int, typer.Argument(help="Game id (see `sessions`)")],
           format: Annotated[str, typer.Option("--format", help="json or csv")] = "json",
           output: Annotated[Path | None, typer.Option("-o", "--output", help="File to write")] = None,
           db: DbOption = None) -> None:
    """Write a game as a session file (json) or its standings (csv)."""
    if format not in ("json", "csv"):
        fail(f"--format must be json or csv, not {format}")
    ledger = open_ledger(_db(ctx, db))
    with database_errors():
        text = (json.dumps(ledger.export(session), indent=2) + "\n" if format == "json"
                else standings_csv(ledger.load(session).report()))
    if output is None:
        sys.stdout.write(text)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as e:
            fail(f"cannot write {output}: {e.strerror}")


@app.command()
def sessions(ctx: typer.Context, as_json: Annotated[bool, typer.Option("--json")] = False,
             db: DbOption = None) -> None:
    """Saved games, newest first."""
    ledger = open_ledger(_db(ctx, db))
    with database_errors():
        games = ledger.games()
    if as_json:
        typer.echo(json.dumps([g.to_json() for g in games], indent=2))
        return
    from rich.table import Table

    from tui.formatting import describe_where, local_time
    from tui.literal import literal

    table = Table(title="Saved games")
    for col in ("id", "game", "title", "status", "where", "leader", "players", "updated"):
        table.add_column(col)
    for g in games:  # every cell literal: a title or a name is never markup
        table.add_row(*(literal(cell) for cell in (
            g.id, g.game, g.title, g.status.replace("_", " "), describe_where(g), g.leader or "",
            ", ".join(g.players), local_time(g.updated_at, "%Y-%m-%d %H:%M"))))
    rich_console().print(table if games else "No saved games yet.")


@app.command()
def league(ctx: typer.Context,
           game: Annotated[str | None, typer.Option("--game", help="risk or soe")] = None,
           as_json: Annotated[bool, typer.Option("--json")] = False,
           db: DbOption = None) -> None:
    """League standings over finished games: win 3, draw 1, loss 0."""
    if game not in (None, "risk", "soe"):
        fail(f"--game must be risk or soe, not {game}")
    ledger = open_ledger(_db(ctx, db))
    with database_errors():
        rows = ledger.league(game)
    if as_json:
        typer.echo(json.dumps({"standings": [r.to_json() for r in rows]}, indent=2))
        return
    from rich.table import Table

    from tui.literal import literal

    table = Table(title="League" + (f" ({game})" if game else ""))
    for col in ("player", "played", "wins", "draws", "losses", "points"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in rows:
        table.add_row(*(literal(x) for x in (r.player, r.played, r.wins, r.draws, r.losses,
                                              r.points)))
    rich_console().print(table if rows else "No finished games yet.")


@app.command()
def demo(ctx: typer.Context, db: DbOption = None,
         no_tui: Annotated[bool, typer.Option("--no-tui", help="Only store the demo games")] = False,
         ) -> None:
    """Store two demo games (Struggle of Empires in war 2, Risk in its last round) and open them."""
    from tui.demo import load_demos

    chosen = _db(ctx, db)
    ledger = open_ledger(chosen)
    with database_errors():
        ids = load_demos(ledger)
    typer.echo(f"Demo games stored as {', '.join(map(str, ids))}.", err=no_tui)
    if not no_tui:
        from tui.app import run

        run(chosen)


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
