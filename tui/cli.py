"""The command line: `warledger` opens the TUI; the subcommands work without it.

Heavy imports happen inside the commands, so `warledger --help` and the TUI's first frame
stay quick.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from tui.start import main  # noqa: F401 - the console script's, also for `python -m tui.cli`

app = typer.Typer(add_completion=False, no_args_is_help=False, rich_markup_mode=None,
                  help="warledger: a table helper for Risk and Struggle of Empires.")
serve_app = typer.Typer(help="Host the tracker for the players at the table.")
app.add_typer(serve_app, name="serve")

DbOption = Annotated[str | None, typer.Option(
    "--db", help="Database: a SQLite file path or any SQLAlchemy URL "
                 "(default: $WARLEDGER_DB, else warledger.db in your data folder).")]


def fail(message: str) -> None:
    typer.echo(f"warledger: {message}", err=True)
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
    if ctx.invoked_subcommand is None:
        from tui.app import run

        run(db, player=player)


def _db(ctx: typer.Context, db: str | None) -> str | None:
    return db or (ctx.obj or {}).get("db")


@app.command()
def replay(ctx: typer.Context, file: Annotated[Path, typer.Argument(help="A warledger/1 JSON file")],
           as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
           db: DbOption = None) -> None:
    """Check and apply a session file, store it, print the standings."""
    from rules.errors import RuleError
    from rules.session_file import parse_text

    try:
        raw = file.read_bytes()
    except OSError as e:
        fail(f"cannot read {file}: {e.strerror}")
    ledger = open_ledger(_db(ctx, db))
    try:
        game = ledger.replay(parse_text(raw))
    except RuleError as e:
        fail(f"{file}: {e}; nothing was stored")
    except Exception as e:  # noqa: BLE001
        from storage.service import explain

        fail(f"{file}: {explain(e)}; nothing was stored")
    report = game.report()
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        _print_report(report, f"Stored as game {game.id}: {game.title}")


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


def standings_csv(report: dict[str, Any]) -> str:
    """One row per player, the columns of the standings."""
    import csv
    import io

    rows = report["standings"]
    out = io.StringIO()
    fields = list(rows[0]) if rows else ["player"]
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ";".join(v) if isinstance(v, list) else v for k, v in row.items()})
    return out.getvalue()


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

    table = Table(title="Saved games")
    for col in ("id", "game", "title", "status", "where", "leader", "players", "updated"):
        table.add_column(col)
    for g in games:
        table.add_row(str(g.id), g.game, g.title, g.status.replace("_", " "), describe_where(g),
                      g.leader or "", ", ".join(g.players), local_time(g.updated_at, "%Y-%m-%d %H:%M"))
    rich_console().print(table if games else "No saved games yet.")


def rich_console():
    """Rich output; wide enough when piped that no name is cut off."""
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else 160)


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

    table = Table(title="League" + (f" ({game})" if game else ""))
    for col in ("player", "played", "wins", "draws", "losses", "points"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in rows:
        table.add_row(r.player, *(str(x) for x in (r.played, r.wins, r.draws, r.losses, r.points)))
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
              host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
              port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
              public_url: Annotated[str | None, typer.Option(
                  "--public-url", help="The address browsers use, when it is not "
                  "http://HOST:PORT (behind a proxy, or listening on 0.0.0.0)")] = None) -> None:
    """Host the table in a browser: players open http://HOST:PORT."""
    from tui.hosting.web import serve

    db = _db(ctx, None)
    open_ledger(db)
    typer.echo(f"warledger table open at {public_url or f'http://{host}:{port}'}")
    serve(db, host, port, public_url)


def _print_report(report: dict[str, Any], heading: str) -> None:
    from rich.table import Table

    console = rich_console()
    console.print(heading)
    if report["status"] == "finished":
        winners = ", ".join(report["winners"]) or "nobody"
        console.print(f"Result: {report['result']} ({report['format']}), winners: {winners}")
    else:
        at = f"war {report['war']}" if report["game"] == "soe" else f"round {report['round'] + 1}"
        console.print(f"In progress: {at}, {report['phase'].replace('_', ' ')}")
    rows = report["standings"]
    table = Table()
    for col in rows[0]:
        table.add_column(col)
    for row in rows:
        table.add_row(*(", ".join(v) if isinstance(v, list) else "" if v is None else str(v)
                        for v in row.values()))
    console.print(table)


if __name__ == "__main__":
    main()
