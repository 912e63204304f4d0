"""What the command line prints besides one-line messages: a stored game's standings as a
table, and standings as CSV. Player text in them is literal (tui/literal.py), never markup
and never raw control characters."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from tui.formatting import phase_name
from tui.literal import visible

if TYPE_CHECKING:
    from rules.outcome import Report


def rich_console():
    """Rich output; wide enough when piped that no name is cut off."""
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else 160)


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP: CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def standings_csv(report: Report) -> str:
    """One row per player, the columns of the standings. Text cells are neutralised for
    spreadsheets ('=1+1 stays text) and show control characters as escapes; numbers stay
    numbers."""
    import csv
    import io

    rows = [standing.to_json() for standing in report.standings]
    out = io.StringIO()
    fields = list(rows[0]) if rows else ["player"]
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return out.getvalue()


def csv_cell(value: Any) -> Any:
    """A standings value as a CSV cell: lists joined with ';', text that a spreadsheet
    would run as a formula prefixed with a quote, numbers (negative ones too) untouched."""
    if isinstance(value, list):
        value = ";".join(str(v) for v in value)
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_START):
        value = "'" + value
    return visible(value)


def outcome(report: Report) -> str:
    """How a game stands, in a line: "Result: ... winners: Ana" or "In progress: war 2,
    upkeep" (player names shown literally)."""
    if report.progress is None:
        winners = ", ".join(report.winners) or "nobody"
        return visible(f"Result: {report.result} ({report.format}), winners: {winners}")
    progress = report.progress
    return (f"In progress: {progress.unit} {progress.number}, "
            f"{phase_name(report.game, progress.phase)}")


def stored_line(report: Report, game_id: int, title: str, file: object) -> str:
    """What `replay` of several files prints for each stored game: one line, so a season's
    exports read as a list (`export` or the TUI shows any of them whole)."""
    return (f"Stored as game {game_id}: {visible(title)} ({visible(file)}). "
            f"{outcome(report)}")


def report_text(report: Report, game_id: int, title: str) -> str:
    """What `replay` prints for a stored game, rendered whole (a name can never be read as
    markup: every cell is a literal Text)."""
    from rich.table import Table

    from tui.literal import literal, words

    lines = [words(f"Stored as game {game_id}: ", title), words(outcome(report))]
    rows = [standing.to_json() for standing in report.standings]
    table = Table()
    for col in rows[0] if rows else ():
        table.add_column(literal(col))
    for row in rows:
        table.add_row(*(literal(", ".join(v) if isinstance(v, list) else "" if v is None else v)
                        for v in row.values()))
    console = rich_console()
    with console.capture() as capture:
        for line in lines:
            console.print(line)
        console.print(table)
    return capture.get()
