"""Colours from the theme for what widgets draw themselves (table cells, bars, key lists).

A widget names the parts it colours in COMPONENT_CLASSES; app.tcss gives each part its
colour with the theme's variables ($warning, $text-muted…). So a theme chosen from the
palette recolours them, once the widget draws its cells again (`follow_theme`).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from textual.widget import Widget


def part_style(widget: Widget, part: str) -> Style:
    """The style app.tcss gives `part` of `widget`, for text inside a table or a line:
    its colour and emphasis without its background, so stripes and the cursor show."""
    style = widget.get_component_rich_style(part)
    return Style(color=style.color, bold=style.bold, dim=style.dim, italic=style.italic,
                 underline=style.underline, reverse=style.reverse, strike=style.strike)


def follow_theme(widget: Widget, redraw: Callable[[], object]) -> None:
    """Run `redraw` each time the theme changes (after its colours are in place): for
    widgets whose cells hold styled text drawn earlier."""
    widget.app.theme_changed_signal.subscribe(widget, lambda _theme: redraw())
