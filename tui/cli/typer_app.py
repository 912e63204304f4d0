"""The command line: `warledger` opens the TUI; the subcommands work without it.

Heavy imports happen inside the commands, so `warledger --help` and the TUI's first frame
stay quick. What replay, export, sessions and league do lives in tui/cli/commands.py, which
tui/cli/start.py also runs straight away for their plain forms (no Typer, no pydantic).

Help texts are translated when this module is imported (`help=_("...")`), which is right
here and nowhere else in the TUI: tui.cli.start sets the language (`--lang`, WARLEDGER_LANG, the
locale) before it imports this module, and a command line runs in one language. Typer's own
words (usage lines, errors) go through tui/cli/typer_words.py.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from i18n import _, languages, speak_for_libraries
from tui.cli import commands, story
from tui.cli.commands import database_errors, fail, open_ledger, shown
from tui.cli.options import player_option
from tui.cli.typer_words import Command, Group, WarledgerGroup

speak_for_libraries()  # Typer's own words ("Options", "Commands") from our catalog
app = typer.Typer(add_completion=False, no_args_is_help=False, rich_markup_mode=None,
                  cls=WarledgerGroup,
                  help=_("warledger: a table helper for Risk and Struggle of Empires."))
serve_app = typer.Typer(cls=Group, help=_("Host the tracker for the players at the table."))
app.add_typer(serve_app, name="serve")
group_app = typer.Typer(cls=Group, help=_("The groups games belong to (tables of friends)."))
app.add_typer(group_app, name="group")
season_app = typer.Typer(cls=Group, help=_("A group's seasons: named ranges of dates."))
app.add_typer(season_app, name="season")

DbOption = Annotated[str | None, typer.Option(
    "--db", help=_("Database: a SQLite file path or any SQLAlchemy URL "
                   "(default: $WARLEDGER_DB, else warledger.db in your data folder)."))]


GroupOption = Annotated[str | None, typer.Option(
    "--group", help=_("One group's games (default: every group)"))]
SeasonOption = Annotated[str | None, typer.Option(
    "--season", help=_("One season's games (default: all time)"))]
YesOption = Annotated[bool, typer.Option("--yes", "-y",
                                         help=_("Do not ask first (for scripts)."))]
GAME_ID = _("Game id (see `sessions`)")


@app.callback(invoke_without_command=True)
def main_callback(ctx: typer.Context, db: DbOption = None,
                  player: Annotated[str | None, typer.Option(
                      "--player", metavar="NAME",
                      help=_("Who is at this terminal: their seat enters their own part of "
                             "each step (their upkeep, their position)."))] = None,
                  lang: Annotated[str | None, typer.Option(
                      "--lang", metavar="|".join([*languages()[1:], languages()[0]]),
                      help=_("Language (default: $WARLEDGER_LANG, else the locale, else "
                             "English).")),
                  ] = None,
                  ) -> None:
    """Open the TUI when no command is given."""
    # tui.cli.start takes --lang before the commands are parsed (their words are in it); it
    # is declared here for the help.
    ctx.obj = {"db": db}
    player = player_option(player)  # a bad name: one line, exit 2
    if ctx.invoked_subcommand is None:
        from tui.app import run

        run(db, player=player)


def _db(ctx: typer.Context, db: str | None) -> str | None:
    return db or (ctx.obj or {}).get("db")


@app.command(cls=Command, help=_(
    "Check and apply session files, store each one, print the standings. A game the "
    "database holds already (the file's id) is said so and not stored again."))
def replay(ctx: typer.Context,
           files: Annotated[list[Path], typer.Argument(help=_("warledger/1 JSON files"))],
           as_json: Annotated[bool, typer.Option("--json", help=_("Print JSON"))] = False,
           copy: Annotated[bool, typer.Option(
               "--copy", help=_("Store a file of a game the database holds already as a new "
                                "game (with a new id) instead of leaving it"))] = False,
           group: Annotated[str | None, typer.Option(
               "--group", help=_("The group the games go in (default: the group of the "
                                 "last game created)"))] = None,
           db: DbOption = None) -> None:
    commands.replay(_db(ctx, db), files, as_json, copy, group)


@app.command(cls=Command, help=_(
    "Write a game as a session file (json) or its standings (csv); or games as "
    "BoardGameGeek plays XML (bgg) or BG Stats JSON (bgstats)."))
def export(ctx: typer.Context,
           sessions: Annotated[list[int] | None, typer.Argument(help=GAME_ID)] = None,
           format: Annotated[str, typer.Option(
               "--format", help=_("json, csv (one game), bgg or bgstats"))] = "json",
           output: Annotated[Path | None, typer.Option(
               "-o", "--output", help=_("File to write"))] = None,
           all_games: Annotated[bool, typer.Option(
               "--all", help=_("Every game (bgg, bgstats), or those of --group and "
                               "--season"))] = False,
           group: GroupOption = None, season: SeasonOption = None,
           db: DbOption = None) -> None:
    commands.export(_db(ctx, db), sessions, format, output, all_games, group, season)


@app.command("import", cls=Command, help=_(
    "Store the plays of this warledger's games in a BoardGameGeek plays XML or BG Stats JSON "
    "file as results (players, winners, scores); plays stored before are left."))
def import_(ctx: typer.Context,
            file: Annotated[Path, typer.Argument(help=_("A BoardGameGeek or BG Stats file"))],
            group: Annotated[str | None, typer.Option(
                "--group", help=_("The group the games go in (default: the group of the "
                                  "last game created)"))] = None,
            db: DbOption = None) -> None:
    commands.import_plays(_db(ctx, db), file, group)


@app.command(cls=Command, help=_("Saved games, newest first."))
def sessions(ctx: typer.Context, as_json: Annotated[bool, typer.Option("--json")] = False,
             db: DbOption = None) -> None:
    commands.sessions(_db(ctx, db), as_json)


@app.command(cls=Command,
             help=_("League standings over finished games: win 3, draw 1, loss 0."))
def league(ctx: typer.Context,
           game: Annotated[str | None, typer.Option(
               "--game", help=_("Only one game's results: its tag in session files"))] = None,
           group: GroupOption = None, season: SeasonOption = None,
           as_json: Annotated[bool, typer.Option("--json")] = False,
           db: DbOption = None) -> None:
    story.league(_db(ctx, db), game, as_json, group, season)


@app.command(cls=Command, help=_(
    "A read-only live view of a game in large figures, for a screen everyone can see: the "
    "game played last that is still in progress (following the table to the next game as "
    "it starts), or SESSION. It records nothing."))
def scoreboard(ctx: typer.Context,
               session: Annotated[int | None, typer.Argument(help=GAME_ID)] = None,
               db: DbOption = None) -> None:
    from tui.scoreboard.app import scoreboard as show

    show(_db(ctx, db), session)


@app.command(cls=Command, help=_(
    "The group's story: ratings (OpenSkill), head to head, nemesis and victim, how each "
    "power, colour and seat wins, and each player's record."))
def stats(ctx: typer.Context, group: GroupOption = None, season: SeasonOption = None,
          player: Annotated[str | None, typer.Option(
              "--player", help=_("Only this player's record, ratings and rivals"))] = None,
          as_json: Annotated[bool, typer.Option("--json", help=_("Print JSON"))] = False,
          db: DbOption = None) -> None:
    story.stats(_db(ctx, db), group, season, player, as_json)


@group_app.command("list", cls=Command, help=_("The groups and how many games each has."))
def group_list(ctx: typer.Context, db: DbOption = None) -> None:
    story.group_list(_db(ctx, db))


@group_app.command("add", cls=Command, help=_("A new group (a table of friends)."))
def group_add(ctx: typer.Context,
              name: Annotated[str, typer.Argument(help=_("The group's name"))],
              db: DbOption = None) -> None:
    story.group_add(_db(ctx, db), name)


@group_app.command("rename", cls=Command, help=_("Give a group a new name."))
def group_rename(ctx: typer.Context,
                 old: Annotated[str, typer.Argument(help=_("The group's name now"))],
                 new: Annotated[str, typer.Argument(help=_("Its new name"))],
                 db: DbOption = None) -> None:
    story.group_rename(_db(ctx, db), old, new)


@season_app.command("list", cls=Command, help=_("A group's seasons (every group's without "
                                                "--group)."))
def season_list(ctx: typer.Context, group: GroupOption = None, db: DbOption = None) -> None:
    story.season_list(_db(ctx, db), group)


@season_app.command("add", cls=Command, help=_(
    "A season: a named range of dates in a group. Ratings start afresh in it, or carry "
    "over from the games before with --carry-over."))
def season_add(ctx: typer.Context,
               name: Annotated[str, typer.Argument(help=_("The season's name"))],
               starts: Annotated[str, typer.Option(
                   "--from", help=_("Its first day, as 2026-03-01"))],
               ends: Annotated[str, typer.Option(
                   "--to", help=_("Its last day, as 2026-05-31"))],
               group: GroupOption = None,
               carry_over: Annotated[bool, typer.Option(
                   "--carry-over", help=_("Ratings carry over from the games before"))] = False,
               db: DbOption = None) -> None:
    story.season_add(_db(ctx, db), name, starts, ends, group, carry_over)


@season_app.command("remove", cls=Command, help=_("Remove a season (its games stay)."))
def season_remove(ctx: typer.Context,
                  name: Annotated[str, typer.Argument(help=_("The season's name"))],
                  group: GroupOption = None, db: DbOption = None) -> None:
    story.season_remove(_db(ctx, db), name, group)


@app.command(cls=Command, help=_("Move a saved game to another group (a new name makes a "
                                 "new group)."))
def move(ctx: typer.Context, session: Annotated[int, typer.Argument(help=GAME_ID)],
         group: Annotated[str, typer.Argument(help=_("The group it goes to"))],
         db: DbOption = None) -> None:
    story.move(_db(ctx, db), session, group)


@app.command(cls=Command, help=_(
    "Store a demo game of each game, part-played, and open them; demo games stored before "
    "are kept as they are, not stored again."))
def demo(ctx: typer.Context, db: DbOption = None,
         no_tui: Annotated[bool, typer.Option(
             "--no-tui", help=_("Only store the demo games"))] = False,
         ) -> None:
    from tui.cli.demo import store_demos

    chosen = _db(ctx, db)
    ledger = open_ledger(chosen)
    with database_errors():
        games = store_demos(ledger)
    new = ", ".join(str(game_id) for game_id, now in games if now)
    kept = ", ".join(str(game_id) for game_id, now in games if not now)
    if new and kept:
        # TRANSLATORS: {new} and {kept} are game numbers, with commas ("3, 4").
        said = _("Demo games stored as {new}; already stored as {kept}.")
    elif new:
        said = _("Demo games stored as {new}.")
    else:
        said = _("Demo games already stored as {kept}.")
    # With no terminal (a script, a cron job) there is no one to show them to: the games
    # are stored, as with --no-tui, and the command ends.
    alone = not no_tui and not on_terminal()
    typer.echo(said.format(new=new, kept=kept), err=no_tui or alone)
    if alone:
        typer.echo(_("No terminal to open them on (stdin is not one): stored only, as with "
                     "--no-tui."), err=True)
    elif not no_tui:
        from tui.app import run

        run(chosen)


@serve_app.callback()
def serve_callback() -> None:
    # Every connection takes an open file: a host serving a table may open as many as its
    # hard limit allows, not the soft 1024 most systems start with (issue 22).
    from tui.hosting.files import raise_open_files_limit

    raise_open_files_limit()


HostOption = Annotated[str, typer.Option(
    help=_("Address to listen on (0.0.0.0: every network of this machine)"))]


def cannot_listen(host: str, port: int, e: OSError) -> None:
    # TRANSLATORS: {address} is host:port, {reason} the system's words.
    fail(_("cannot listen on {address}: {reason}").format(
        address=f"{host}:{port}", reason=e.strerror or e))


@serve_app.command("ssh", cls=Command,
                   help=_("Host the table over SSH: each player connects with "
                          "`ssh -p PORT HOST`."))
def serve_ssh(ctx: typer.Context,
              host: HostOption = "127.0.0.1",
              port: Annotated[int, typer.Option(help=_("Port to listen on"))] = 2222,
              authorized_keys: Annotated[Path | None, typer.Option(
                  "--authorized-keys", help=_(
                      "The players' public keys, one line each, naming the player (default: "
                      "authorized_keys in your data folder)"))] = None,
              max_sessions: Annotated[int, typer.Option(
                  "--max-sessions", min=1, help=_("Players connected at once"))] = 16) -> None:
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
        cannot_listen(host, port, e)


@serve_app.command("web", cls=Command,
                   help=_("Host the table in a browser: each player opens their own link "
                          "printed (and the spectators theirs, to the scoreboard)."))
def serve_web(ctx: typer.Context,
              host: HostOption = "127.0.0.1",
              port: Annotated[int, typer.Option(help=_("Port to listen on"))] = 8000,
              public_url: Annotated[str | None, typer.Option(
                  "--public-url", help=_("The address browsers use, when it is not one this "
                                         "machine has (behind a proxy)"))] = None,
              max_sessions: Annotated[int, typer.Option(
                  "--max-sessions", min=1, help=_("Browser tabs playing at once"))] = 16,
              players: Annotated[list[str] | None, typer.Option(
                  "--player", metavar="NAME", help=_(
                      "A player's name, once per player: a link each (default: the players "
                      "of --game)"))] = None,
              game: Annotated[int | None, typer.Option(
                  "--game", metavar="SESSION", help=_(
                      "A link for each player of this game (default: the game in progress "
                      "played last)"))] = None,
              open_table: Annotated[bool, typer.Option(
                  "--open", help=_("No links: anyone who reaches the address plays, and "
                                   "their steps carry no name"))] = False,
              ) -> None:
    from yarl import URL

    from tui.hosting.web import serve

    if public_url is not None and not (URL(public_url).scheme in ("http", "https")
                                       and URL(public_url).host):
        # TRANSLATORS: {example} is an address (http://192.168.1.20:8000), {given} what was
        # typed, quoted.
        fail(_("--public-url must be a whole address, like {example}, not {given}").format(
            example=f"http://192.168.1.20:{port}", given=repr(public_url)))
    db = _db(ctx, None)
    if open_table and (players or game is not None):
        fail(_("--open gives no links: it takes no --player or --game"))
    ledger = open_ledger(db)
    names = None if open_table else web_players(ledger, players, game)
    try:
        serve(db, host, port, public_url, max_sessions=max_sessions, say=typer.echo,
              players=names)
    except OSError as e:
        cannot_listen(host, port, e)


def web_players(ledger, players: list[str] | None, game: int | None) -> list[str]:
    """Who gets a link at `serve web`: the --player names (each checked as any name, and
    none like another), else the seats of --game, else of the game in progress played
    last. Else one line saying what to give, and exit."""
    if players and game is not None:
        fail(_("give --player names or --game, not both"))
    if players:
        from rules.errors import RuleError
        from rules.fields import distinct_name

        names: list[str] = []
        for name in players:
            checked = player_option(name)
            try:
                distinct_name(checked, names)
            except RuleError as e:
                fail(f"--player: {e}")
            names.append(checked)
        return names
    with database_errors():
        games = ledger.games()
    if game is not None:
        chosen = next((listing for listing in games if listing.id == game), None)
        if chosen is None:
            fail(_("There is no game {game}").format(game=game))
    else:
        chosen = next((listing for listing in games if not listing.finished), None)
        if chosen is None:
            fail(_("no game is in progress to seat its players: give --game SESSION, or "
                   "--player NAME once per player (or --open for a table with no links)"))
    seated = list(dict.fromkeys(chosen.players))
    if not seated:
        fail(_("game {game} has no players to give links to: give --player NAME once per "
               "player").format(game=chosen.id))
    typer.echo(_("links for the players of game {game}, {title}").format(
        game=chosen.id, title=shown(chosen.title)))
    return seated


# Deleting and renaming: the repair tools for a game stored with a bad title.

def on_terminal() -> bool:
    """Whether someone is at a terminal to answer a question."""
    return sys.stdin.isatty()


def confirmed(question: str, yes: bool, refusal: str) -> None:
    """Go on only when `--yes` was given or the person at the terminal says yes; else
    `refusal` (no terminal to ask) or "nothing was changed" (they said no)."""
    if yes:
        return
    if not on_terminal():
        fail(refusal)
    if not typer.confirm(question, default=False):
        fail(_("nothing was changed"))


def _title_of(ledger, session: int) -> str:
    with database_errors():
        for listing in ledger.games():
            if listing.id == session:
                return listing.title
    fail(_("There is no game {game}").format(game=session))


@app.command(cls=Command, help=_(
    "Delete a saved game and everything recorded for it (asks first on a terminal)."))
def delete(ctx: typer.Context, session: Annotated[int, typer.Argument(help=GAME_ID)],
           yes: YesOption = False, db: DbOption = None) -> None:
    ledger = open_ledger(_db(ctx, db))
    title = _title_of(ledger, session)
    confirmed(_("Delete game {game}, {title}, and every step of it?").format(
                  game=session, title=shown(title)), yes,
              _("deleting game {game} needs a yes: run it on a terminal to be asked, or add "
                "--yes").format(game=session))
    with database_errors():
        ledger.delete_game(session)
    typer.echo(_("Deleted game {game}: {title}").format(game=session, title=shown(title)))


@app.command(cls=Command,
             help=_("Give a saved game a new title (asks first on a terminal)."))
def rename(ctx: typer.Context, session: Annotated[int, typer.Argument(help=GAME_ID)],
           title: Annotated[str, typer.Argument(help=_("The new title"))],
           yes: YesOption = False, db: DbOption = None) -> None:
    from rules.errors import RuleError
    from rules.fields import TITLE_LIMIT, text

    try:
        title = text(title, _("The title"), TITLE_LIMIT)
    except RuleError as e:
        fail(_("{reason}; nothing was changed").format(reason=e))
    ledger = open_ledger(_db(ctx, db))
    old = _title_of(ledger, session)
    confirmed(_("Rename game {game}, {old}, to {new}?").format(
                  game=session, old=shown(old), new=shown(title)), yes,
              _("renaming game {game} needs a yes: run it on a terminal to be asked, or add "
                "--yes").format(game=session))
    with database_errors():
        title = ledger.rename_game(session, title)
    typer.echo(_("Game {game} is now called {title}").format(game=session, title=shown(title)))
