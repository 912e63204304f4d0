"""What the commands that read and store games do, once their arguments are parsed: by
Typer (tui/cli/typer_app.py), or for their plain forms straight from tui/cli/start.py. Nothing here imports
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
from typing import Any, NamedTuple, NoReturn

from i18n import _, ngettext, pgettext


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
    from tui.text.literal import visible

    return visible(text)


def fail(message: str) -> NoReturn:
    """One line on stderr, then exit 1. The line may hold player text or a path: it is
    printed with every control character escaped."""
    say(f"warledger: {shown(message)}", err=True)
    raise SystemExit(1)


def open_ledger(db: str | None, *, bulk: bool = False):
    """The ledger on the chosen database, or a one-line refusal."""
    from storage.service import open_ledger as _open

    with database_errors():
        return _open(db, bulk=bulk)


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

    from tui.cli.printed import rich_console, streamed_table
    from tui.text.formatting import describe_where
    from tui.text.literal import literal

    console = rich_console()
    if not games:
        console.print(literal(_("No saved games yet.")))
        return
    from functools import cache

    from tui.text.literal import visible

    where = cache(lambda g: describe_where(g))  # a few dozen places for thousands of games
    status = cache(status_name)
    # Every cell plain and visible (control characters as escapes), never markup; the
    # time in digits only ("yyyy-MM-dd HH:mm": no day or month names), in the local zone.
    rows = [(str(g.id), g.game, visible(g.title), status(g.status),
             where(WhereKey(g.game, g.status, g.progress)), visible(g.leader or ""),
             visible(", ".join(g.players)),
             g.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")) for g in games]
    streamed_table(_("Saved games"), list(sessions_columns().values()), rows, console)


class WhereKey(NamedTuple):
    """What describe_where reads of a saved game: the key its answer is kept under."""

    game: str
    status: str
    progress: Any

    @property
    def finished(self) -> bool:
        return self.status == "finished"


def export(db: str | None, session: int | list[int] | None, format: str = "json",
           output: Path | None = None, all_games: bool = False, group: str | None = None,
           season: str | None = None) -> None:
    """Write a game as a session file (json) or its standings (csv); or games as
    BoardGameGeek plays XML (bgg) or BG Stats JSON (bgstats): those named, or with
    `all_games` every game (of `group`, and `season`)."""
    from rules.errors import RuleError

    sessions = [session] if isinstance(session, int) else list(session or [])
    if format not in ("json", "csv", "bgg", "bgstats"):
        fail(_("--format must be json, csv, bgg or bgstats, not {given}").format(
            given=shown(format)))
    if format in ("json", "csv"):
        if len(sessions) != 1 or all_games or group or season:
            fail(_("--format {format} writes one game: name one, without --all, --group or "
                   "--season").format(format=format))
    elif bool(sessions) == all_games:
        fail(_("name the games to write, or give --all"))
    elif sessions and (group or season):
        fail(_("--group and --season choose games with --all, not with games named"))
    ledger = open_ledger(db)
    with database_errors():
        try:
            written = _exported(ledger, sessions, format, group, season)
        except RuleError as e:
            fail(_("{reason}; nothing was written").format(reason=e))
    with written:
        if output is None:
            written.write_to(sys.stdout)
            sys.stdout.flush()
            return
        try:
            with output.open("w", encoding="utf-8") as out:
                written.write_to(out)
        except OSError as e:
            # TRANSLATORS: {file} is a path, {reason} the system's words.
            fail(_("cannot write {file}: {reason}").format(file=output, reason=e.strerror))


def _exported(ledger, sessions: list[int], format: str, group: str | None,
              season: str | None):
    """The file to write (storage.exports.Written): the plays read in bulk and spooled."""
    from storage.exports import Written

    if format == "json":
        return Written.of(json.dumps(ledger.export(sessions[0]), indent=2) + "\n")
    if format == "csv":
        from tui.cli.printed import standings_csv

        return Written.of(standings_csv(ledger.load(sessions[0]).report()))
    return ledger.write_plays(format, sessions or None, group, season)


def import_plays(db: str | None, file: Path, group: str | None = None) -> None:
    """Store the plays of this warledger's games (those whose registration says how the
    files list them) in a BoardGameGeek plays XML or BG Stats JSON file as result-only games; say how many were stored, were there already,
    and were left (other games, unfinished). A file refused: one line, nothing stored."""
    from rules.errors import RuleError
    from rules.plays import read_plays

    try:
        with file.open("rb") as f:  # read as a stream: the file is never held whole
            found = read_plays(f)
    except OSError as e:
        fail(_("cannot read {file}: {reason}").format(file=file, reason=e.strerror))
    except RuleError as e:
        fail(_("{file}: {reason}; nothing was stored").format(file=file, reason=e))
    if not found.plays:  # nothing to store: no database is made for it
        if not found.skipped:
            fail(_("{file}: the file holds no play; nothing was stored").format(file=file))
        # TRANSLATORS: {games} is a choice of games' names: "Risk or Struggle of Empires".
        say(_("{file} holds no finished play of {games}; nothing was stored").format(
            file=file, games=plays_games()))
        for line in skipped_lines(found.skipped, 0):
            say(line)
        return
    ledger = open_ledger(db)
    with database_errors():
        try:
            got = ledger.import_plays(found.plays, group)
        except RuleError as e:
            fail(_("{file}: {reason}; nothing was stored").format(file=file, reason=e))
    source = "BoardGameGeek" if found.format == "bgg" else "BG Stats"
    stored = len(got.stored)
    # TRANSLATORS: {source} is BoardGameGeek or BG Stats.
    say(ngettext("{n} play stored from {source}", "{n} plays stored from {source}",
                 stored).format(n=stored, source=source))
    for line in skipped_lines(found.skipped, got.already):
        say(line)
    for note in found.notes:
        say(note)


def plays_games() -> str:
    """The games the plays files can hold, as the registry lists them: 'Struggle of Empires
    or Risk'."""
    from rules.fields import or_list
    from rules.game import GAMES, game_name

    return or_list(game_name(tag) for tag, rules in GAMES.items() if rules.elsewhere is not None)


def skipped_lines(skipped, already: int) -> list[str]:
    """What an import left, a line per reason with its count."""
    from rules.plays import ANONYMOUS, OTHER_GAMES, PLAYER_COUNT, SEVERAL, UNFINISHED

    said = {
        OTHER_GAMES: lambda n: ngettext("{n} play of another game skipped",
                                        "{n} plays of other games skipped", n),
        UNFINISHED: lambda n: ngettext("{n} unfinished or ignored play skipped",
                                       "{n} unfinished or ignored plays skipped", n),
        SEVERAL: lambda n: ngettext("{n} play logged as several at once skipped",
                                    "{n} plays logged as several at once skipped", n),
        PLAYER_COUNT: lambda n: ngettext(
            "{n} play with fewer or more players than its game takes skipped",
            "{n} plays with fewer or more players than their game takes skipped", n),
        ANONYMOUS: lambda n: ngettext("{n} play of anonymous players alone skipped",
                                      "{n} plays of anonymous players alone skipped", n),
    }
    lines = [ngettext("{n} play was stored already", "{n} plays were stored already",
                      already).format(n=already)] if already else []
    lines += [said[reason](n).format(n=n) for reason, n in skipped.items() if n]
    return lines


def replay(db: str | None, files: list[Path], as_json: bool = False,
           copy: bool = False, group: str | None = None) -> None:
    """Check and apply session files, store each one, print the standings. A file of a game
    the database holds already (the same id) is said to be stored already and stored again
    only with `copy` (as a new game); it is no refusal."""
    from storage.records import AlreadyStored

    ledger = None
    outputs: list[dict[str, Any]] = []
    stored = already = refused = 0
    try:
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
                # A bad database: nothing can be stored. Many files: no commit waits for
                # the disk (storage.engine.make_engine); one wait, below, for them all.
                ledger = open_ledger(db, bulk=len(files) > 1)
            game, reason = _store(ledger, raw, copy, group)
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
    finally:
        # Many files: no commit waited for the disk (a ledger opened for bulk); one wait
        # makes them all durable, before the counts are said or the run is cut short.
        if ledger is not None and stored and len(files) > 1:
            ledger.make_durable()
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


def _store(ledger, raw: bytes, copy: bool = False, group: str | None = None):
    """(the stored game, None); (AlreadyStored, None) for a game the database holds already;
    or (None, why the file was refused: nothing was stored)."""
    from rules.errors import RuleError
    from rules.session_file import parse_text
    from storage.records import AlreadyStored

    try:
        return ledger.replay(parse_text(raw), copy=copy, group=group), None
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
    from tui.cli.printed import report_text, stored_line

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
