"""What the command line prints besides one-line messages: a stored game's standings as a
table, and standings as CSV. Player text in them is literal (tui/text/literal.py), never markup
and never raw control characters."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from i18n import _, pgettext
from tui.text.formatting import phase_name, words_of
from tui.text.literal import visible

if TYPE_CHECKING:
    from rules.game import GameRules
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
    upkeep" (player names shown literally). The result, how it was decided and the unit are
    the session file's words, which English shows as they are."""
    if report.progress is None:
        winners = ", ".join(report.winners) or _("nobody")
        # TRANSLATORS: {result} is win, shared or draw; {format} how it was decided.
        how = format_word(report.game, report.format)
        if report.stalemate:
            # TRANSLATORS: how a game that ended in a stalemate was decided: {format} is the
            # session file's word (fixed_round, agreed, draw).
            how = _("stalemate, {format}").format(format=how)
        return visible(_("Result: {result} ({format}), winners: {winners}").format(
            result=result_word(report.result), format=how, winners=winners))
    progress = report.progress
    # TRANSLATORS: {unit} {number} is "war 2" or "round 5", {phase} the step it is at.
    return _("In progress: {unit} {number}, {phase}").format(
        unit=unit_word(progress.unit), number=progress.number,
        phase=phase_name(report.game, progress.phase))


def result_word(result: str | None) -> str:
    words = {"win": pgettext("game result", "win"), "shared": pgettext("game result", "shared"),
             "draw": pgettext("game result", "draw")}
    return words.get(result or "", str(result))


def format_word(game: str, fmt: str | None) -> str:
    """How a game was decided (RULES.md A.5) by the session file's word, as its game says
    it: 'victory_points' in English."""
    return (words_of(game).printed(fmt) if fmt else None) or str(fmt)


def unit_word(unit: str) -> str:
    words = {"war": pgettext("game unit", "war"), "round": pgettext("game unit", "round")}
    return words.get(unit, unit)


def stored_line(report: Report, game_id: int, title: str, file: object) -> str:
    """What `replay` of several files prints for each stored game: one line, so a season's
    exports read as a list (`export` or the TUI shows any of them whole)."""
    # TRANSLATORS: {outcome} is "Result: ..." or "In progress: ...".
    return _("Stored as game {game}: {title} ({file}). {outcome}").format(
        game=game_id, title=visible(title), file=visible(file), outcome=outcome(report))


def report_text(report: Report, game_id: int, title: str) -> str:
    """What `replay` prints for a stored game, rendered whole (a name can never be read as
    markup: every cell is a literal Text)."""
    from rich.table import Table

    from rules.game import rules_for
    from tui.text.literal import literal, words

    lines = [words(_("Stored as game {game}: {title}").format(game=game_id, title=title)),
             words(outcome(report))]
    rows = [standing.to_json() for standing in report.standings]
    table = Table()
    rules = rules_for(report.game)
    for col in rows[0] if rows else ():
        table.add_column(literal(standings_column(rules, col)))
    for row in rows:
        table.add_row(*(literal(cell(rules, col, v)) for col, v in row.items()))
    console = rich_console()
    with console.capture() as capture:
        for line in lines:
            console.print(line)
        console.print(table)
    return capture.get()


def standings_column(rules: GameRules, name: str) -> str:
    """A column of the printed standings, by its session-file name ('final_vp'), as the
    reader's language heads it (English keeps the name)."""
    names = {
        "player": pgettext("standings column", "player"),
        "rank": pgettext("standings column", "rank"),
        "score": pgettext("standings column", "score"),
    }
    return names.get(name) or rules.column_heading(name) or name


def cell(rules: GameRules, column: str, value: Any) -> Any:
    """A value of the printed standings: what the game stores by its id (a power, a colour,
    continents) as the reader's language names it (its rules say); lists with commas;
    None empty."""
    if isinstance(value, list):
        return ", ".join(rules.value_shown(column, v) if isinstance(v, str) else str(v)
                         for v in value)
    if value is None:
        return ""
    return rules.value_shown(column, value) if isinstance(value, str) else value



def streamed_table(title: str, headings: list[str], rows: Sequence[tuple[str, ...]],
                   console: Any) -> None:
    """A table drawn as Rich draws one (its default box, the title in italics over it, the
    headings bold), its rows written straight out: Rich's Table measures and lays out
    every cell, which for `sessions` of 10,000 games took seconds. Cells are plain text the
    caller made visible (tui/text/literal.py): nothing in them is read as markup. A column too
    wide for the console is narrowed, the widest first, and its cells folded."""
    from rich.cells import cell_len, chop_cells
    from rich.text import Text

    widths = [cell_len(h) for h in headings]
    for row in rows:
        for i, value in enumerate(row):
            if len(value) > widths[i] or not value.isascii():
                widths[i] = max(widths[i], cell_len(value))
    excess = sum(widths) + 3 * len(widths) + 1 - console.width
    while excess > 0:
        widest = max(range(len(widths)), key=widths.__getitem__)
        if widths[widest] <= 4:
            break
        widths[widest] -= 1
        excess -= 1

    def line(left: str, fill: str, middle: str, right: str) -> str:
        return left + middle.join(fill * (w + 2) for w in widths) + right

    def padded(value: str, width: int) -> str:
        return value + " " * (width - (len(value) if value.isascii() else cell_len(value)))

    total = sum(widths) + 3 * len(widths) + 1
    console.print(Text(title, style="italic"), justify="center", width=total)
    head = Text(line("┏", "━", "┳", "┓") + "\n┃", end="")
    for heading, width in zip(headings, widths, strict=True):
        head.append(" ")
        head.append(padded(heading, width), style="bold")
        head.append(" ┃")
    head.append("\n" + line("┡", "━", "╇", "┩"))
    console.print(head, crop=False, overflow="ignore", no_wrap=True)
    out = console.file
    batch: list[str] = []
    for row in rows:
        if all((len(v) if v.isascii() else cell_len(v)) <= w
               for v, w in zip(row, widths, strict=True)):
            batch.append("│ " + " │ ".join(padded(v, w) for v, w in zip(row, widths,
                                                                       strict=True)) + " │")
        else:  # folded over as many lines as its longest cell needs
            parts = [chop_cells(v, w) or [""] for v, w in zip(row, widths, strict=True)]
            for k in range(max(map(len, parts))):
                batch.append("│ " + " │ ".join(
                    padded(p[k] if k < len(p) else "", w)
                    for p, w in zip(parts, widths, strict=True)) + " │")
        if len(batch) >= 1000:
            out.write("\n".join(batch) + "\n")
            batch.clear()
    batch.append(line("└", "─", "┴", "┘"))
    out.write("\n".join(batch) + "\n")
    out.flush()
