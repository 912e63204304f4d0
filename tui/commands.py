"""What the commands that read and store games do, once their arguments are parsed: by
Typer (tui/cli.py), or for their plain forms straight from tui/start.py. Nothing here imports
Typer (whose parsing imports pydantic), Rich (only for a table) or Textual, so `warledger
sessions --json` costs little more than SQLAlchemy's import.

Output goes to stdout; a refusal is one line on stderr and exit status 1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from i18n import _, pgettext


def sessions_columns() -> dict[str, str]:
    """The saved-games table's columns (the names `sessions --json` keeps), as headed."""
    return {"id": pgettext("column", "id"), "game": pgettext("column", "game"),
            "title": pgettext("column", "title"), "status": pgettext("column", "status"),
            "where": pgettext("column", "where"), "leader": pgettext("column", "leader"),
            "players": pgettext("column", "players"), "updated": pgettext("column", "updated")}


def league_columns() -> dict[str, str]:
    """The league table's columns (the names `league --json` keeps), as headed."""
    return {"player": pgettext("column", "player"), "played": pgettext("column", "played"),
            "wins": pgettext("column", "wins"), "draws": pgettext("column", "draws"),
            "losses": pgettext("column", "losses"), "points": pgettext("column", "points")}


def or_joined(words) -> str:
    """'soe or risk': words (tags, names) as choices in one line."""
    joined = ""
    for i, word in enumerate(words):
        # TRANSLATORS: two choices (or the choices so far, and one more): "soe or risk".
        joined = _("{first} or {second}").format(first=joined, second=word) if i else word
    return joined


def status_name(status: str) -> str:
    """A saved game's status (stored as "in_progress", "finished") as the table says it."""
    names = {"in_progress": pgettext("game status", "in progress"),
             "finished": pgettext("game status", "finished")}
    return names.get(status) or status.replace("_", " ")


def say(text: str = "", *, err: bool = False) -> None:
    """One line out (stderr with `err`), flushed at once like the lines before it."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


def shown(text: object) -> str:
    """Text from players, files or the system as a terminal may print it: control and
    text-direction characters shown as escapes (\\x1b), never obeyed."""
    from tui.literal import visible

    return visible(text)


def fail(message: str) -> NoReturn:
    """One line on stderr, then exit 1. The line may hold player text or a path: it is
    printed with every control character escaped."""
    say(f"warledger: {shown(message)}", err=True)
    raise SystemExit(1)


def open_ledger(db: str | None):
    """The ledger on the chosen database, or a one-line refusal."""
    from storage.service import open_ledger as _open

    with database_errors():
        return _open(db)


@contextmanager
def database_errors() -> Iterator[None]:
    """Any failure of the database (busy, read-only, full, gone) becomes one line, exit 1."""
    try:
        yield
    except Exception as e:  # noqa: BLE001 - every failure becomes one line
        # (`fail` itself and ctrl+c pass through: SystemExit and KeyboardInterrupt are not
        # Exceptions)
        from storage.service import explain

        fail(explain(e))


# ---------------------------------------------------------------- the commands

def sessions(db: str | None, as_json: bool = False) -> None:
    """Saved games, newest first."""
    ledger = open_ledger(db)
    with database_errors():
        games = ledger.games()
    if as_json:
        say(json.dumps([g.to_json() for g in games], indent=2))
        return
    from rich.table import Table

    from tui.formatting import describe_where, local_time
    from tui.literal import literal
    from tui.printed import rich_console

    table = Table(title=_("Saved games"))
    for heading in sessions_columns().values():
        table.add_column(heading)
    for g in games:  # every cell literal: a title or a name is never markup
        table.add_row(*(literal(cell) for cell in (
            g.id, g.game, g.title, status_name(g.status), describe_where(g), g.leader or "",
            ", ".join(g.players), local_time(g.updated_at, "yyyy-MM-dd HH:mm"))))
    rich_console().print(table if games else literal(_("No saved games yet.")))


def league(db: str | None, game: str | None = None, as_json: bool = False) -> None:
    """League standings over finished games: win 3, draw 1, loss 0."""
    from rules.names import GAME_NAMES

    if game is not None and game not in GAME_NAMES:
        # TRANSLATORS: {games} are the games' tags (soe or risk), {given} what was typed.
        fail(_("--game must be {games}, not {given}").format(
            games=or_joined(GAME_NAMES), given=shown(game)))
    ledger = open_ledger(db)
    with database_errors():
        rows = ledger.league(game)
    if as_json:
        say(json.dumps({"standings": [r.to_json() for r in rows]}, indent=2))
        return
    from rich.table import Table

    from tui.literal import literal
    from tui.printed import rich_console

    # TRANSLATORS: {game} is a game's tag (soe, risk).
    table = Table(title=_("League ({game})").format(game=game) if game else _("League"))
    for col, heading in league_columns().items():
        table.add_column(heading, justify="left" if col == "player" else "right")
    for r in rows:
        table.add_row(*(literal(x) for x in (r.player, r.played, r.wins, r.draws, r.losses,
                                              r.points)))
    rich_console().print(table if rows else literal(_("No finished games yet.")))


def export(db: str | None, session: int, format: str = "json",
           output: Path | None = None) -> None:
    """Write a game as a session file (json) or its standings (csv)."""
    if format not in ("json", "csv"):
        fail(_("--format must be json or csv, not {given}").format(given=format))
    ledger = open_ledger(db)
    with database_errors():
        if format == "json":
            text = json.dumps(ledger.export(session), indent=2) + "\n"
        else:
            from tui.printed import standings_csv

            text = standings_csv(ledger.load(session).report())
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as e:
            # TRANSLATORS: {file} is a path, {reason} the system's words.
            fail(_("cannot write {file}: {reason}").format(file=output, reason=e.strerror))


def replay(db: str | None, files: list[Path], as_json: bool = False,
           copy: bool = False) -> None:
    """Check and apply session files, store each one, print the standings. A file of a game
    the database holds already (the same id) is said to be stored already and stored again
    only with `copy` (as a new game); it is no refusal."""
    from storage.records import AlreadyStored

    ledger = None
    outputs: list[dict[str, Any]] = []
    stored = already = refused = 0
    for file in files:
        try:
            raw = file.read_bytes()
        except OSError as e:
            refused += 1
            reason = _("cannot read {file}: {reason}").format(file=file, reason=e.strerror)
            say(f"warledger: {shown(reason)}", err=True)
            outputs.append({"file": str(file), "error": reason})
            continue
        if ledger is None:
            ledger = open_ledger(db)  # a bad database: nothing can be stored
        game, reason = _store(ledger, raw, copy)
        if reason is not None:
            refused += 1
            # TRANSLATORS: {file} is a session file's path, {reason} why it was refused.
            say(f"warledger: {shown(_('{file}: {reason}').format(file=file, reason=reason))}",
                err=True)
            outputs.append({"file": str(file), "error": reason})
            continue
        if isinstance(game, AlreadyStored):
            already += 1
            if as_json:
                outputs.append({"file": str(file), "already_stored_as": game.game_id})
            else:
                say(already_line(game.game_id, game.title, file))
            continue
        stored += 1
        # Stored: whatever happens from here on is not a failure of the store.
        if as_json:
            outputs.append(_report_json(game, file))
        else:
            _say_stored(game, file, first=stored == 1, whole=len(files) == 1)
    if as_json:
        if len(files) == 1:
            if not refused:
                say(json.dumps(outputs[0], indent=2))
        else:
            say(json.dumps(outputs, indent=2))
    if len(files) > 1:
        # TRANSLATORS: counts of session files: "3 stored, 1 already stored, 0 refused".
        counts = (_("{stored} stored, {already} already stored, {refused} refused") if already
                  else _("{stored} stored, {refused} refused"))
        say(counts.format(stored=stored, already=already, refused=refused), err=as_json)
    if refused:
        raise SystemExit(1)


def already_line(game_id: int, title: str, file: object) -> str:
    """What `replay` prints for a file of a game the database holds already: one line, the
    stored game's number and title as `sessions` shows them (title and file literal)."""
    # TRANSLATORS: {title} is the stored game's title, {file} the file given.
    return _("Already stored as game {game}: {title} ({file}); nothing was stored (--copy "
             "stores a copy)").format(game=game_id, title=shown(title), file=shown(file))


def _store(ledger, raw: bytes, copy: bool = False):
    """(the stored game, None); (AlreadyStored, None) for a game the database holds already;
    or (None, why the file was refused: nothing was stored)."""
    from rules.errors import RuleError
    from rules.session_file import parse_text
    from storage.records import AlreadyStored

    try:
        return ledger.replay(parse_text(raw), copy=copy), None
    except AlreadyStored as e:
        return e, None
    except RuleError as e:
        return None, _("{reason}; nothing was stored").format(reason=e)
    except Exception as e:  # noqa: BLE001 - a busy or broken database refuses this file
        from storage.service import explain

        return None, _("{reason}; nothing was stored").format(reason=explain(e))


def _report_json(game, file: Path) -> dict[str, Any]:
    """The stored game's report; if it cannot be made, what says it was stored anyway."""
    try:
        return game.report().to_json()
    except Exception as e:  # noqa: BLE001
        from storage.service import explain

        return {"file": str(file), "stored_as": game.id,
                "error": _("its standings cannot be shown: {reason}").format(
                    reason=explain(e))}


def _say_stored(game, file: Path, *, first: bool, whole: bool) -> None:
    """The stored game's standings (`whole`), or its line among several files, built whole
    before a line of it is printed; a game that cannot be shown is still said to be stored."""
    from tui.printed import report_text, stored_line

    try:
        if not whole:
            say(stored_line(game.report(), game.id, game.title, file))
            return
        text = report_text(game.report(), game.id, game.title)
    except Exception as e:  # noqa: BLE001
        from storage.service import explain

        say(_("Stored as game {game}: {title}").format(game=game.id, title=shown(game.title)))
        reason = _("its standings cannot be shown: {reason}").format(reason=explain(e))
        say(f"warledger: {shown(_('{file}: {reason}').format(file=file, reason=reason))}",
            err=True)
        return
    sys.stdout.write(text if first else "\n" + text)
    sys.stdout.flush()
