"""`warledger sessions` draws its table row by row (issue 48: Rich's Table laid out 10,000
games in seconds): the same table Rich draws, player text literal, a column too wide
for the console folded."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from tui.cli.printed import streamed_table
from tui.text.literal import visible

HEADINGS = ["id", "game", "title", "players"]
ROWS = [("12", "risk", "[b]Friday[/b]", "[b]Ana[/b], Bo[/]"),
        ("3", "soe", visible("Old \x1b[2J night"), "Ştefan, 日本語, Cy")]


def drawn(width: int) -> tuple[str, str]:
    ours, theirs = io.StringIO(), io.StringIO()
    streamed_table("Saved games", HEADINGS, ROWS, Console(file=ours, width=width))
    table = Table(title="Saved games")
    for heading in HEADINGS:
        table.add_column(heading)
    for row in ROWS:
        table.add_row(*row, style=None)
    Console(file=theirs, width=width, markup=False).print(table)
    return ours.getvalue(), theirs.getvalue()


def test_the_streamed_table_is_the_table_rich_draws():
    ours, theirs = drawn(160)
    assert ours == theirs
    assert "│ [b]Friday[/b] " in ours and "│ [b]Ana[/b], Bo[/] " in ours
    assert "\\x1b[2J" in ours and "\x1b" not in ours


def test_a_narrow_console_folds_the_widest_column():
    ours, _theirs = drawn(40)
    lines = ours.splitlines()
    assert all(len(line) <= 40 for line in lines)
    body = "".join(line.split("│")[4] for line in lines if line.startswith("│"))
    assert "".join(body.split()) == "[b]Ana[/b],Bo[/]Ştefan,日本語,Cy"  # nothing lost
