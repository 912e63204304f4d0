"""A line per player across a game or a league, drawn by plotext (textual-plotext).

Imported only by the screens that show a chart, when they show it: plotext costs some
60 ms to import, and the home screen's first frame does not wait for it.

plotext writes its picture as ANSI text that the widget reads back (`Text.from_ansi`), so
a name is never read as markup (`[b]Ana[/b]` is drawn as typed), but an ESC inside a name
would be obeyed: every name goes through `label` first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import count
from math import ceil, floor

from textual_plotext import PlotextPlot

from tui.text.literal import visible
from tui.widgets.themed import follow_theme

# What the legend shows of a name: a name is at most 24 characters (rules.fields), but an
# earlier version may have stored a longer one.
LABEL_AT_MOST = 24
# Ticks up the side: enough to read a value off, few enough for a chart 12 rows high.
TICKS_AT_MOST = 6
# The width the ticks along the bottom share on the narrowest chart (results.py puts a
# chart beside the tables only when it gets 44 cells), so that labels never run together.
TICKS_WIDTH = 40


def label(name: object) -> str:
    """A name as plotext may draw it: control characters, the line break too, shown as
    their escapes (`\\x1b`), and cut to LABEL_AT_MOST characters."""
    return visible(name, LABEL_AT_MOST).replace("\n", "\\n")


def spread(n: int, at_most: int = TICKS_AT_MOST) -> list[int]:
    """At most `at_most` indices out of range(n), evenly spaced, first and last kept."""
    if n <= at_most:
        return list(range(n))
    return sorted({round(i * (n - 1) / (at_most - 1)) for i in range(at_most)})


def whole_ticks(top: int, at_most: int = TICKS_AT_MOST) -> list[int]:
    """Whole-number ticks from 0 to `top` or just above, a round step apart (1, 2, 5, 10…)."""
    step = next(s for s in round_steps() if top <= s * (at_most - 1))
    return list(range(0, -(-top // step) * step + 1, step))


def ticks_between(low: float, high: float, at_most: int = TICKS_AT_MOST) -> list[int]:
    """Whole-number ticks from `low` or just below to `high` or just above, a round step
    apart: for values below zero too (a rating)."""
    low, high = floor(low), max(ceil(high), floor(low) + 1)
    step = next(s for s in round_steps() if high - low <= s * (at_most - 2))
    start = floor(low / step) * step
    return list(range(start, -(-high // step) * step + 1, step))


def round_steps() -> Iterator[int]:
    """1, 2, 5, 10, 20, 50, 100…"""
    for power in count():
        for first in (1, 2, 5):
            yield first * 10 ** power


class LineChart(PlotextPlot):
    """Whole numbers over labelled points (wars, rounds, dates), one line per player.

    `points` names the points along the bottom; `lines` maps each player to one value per
    point. The lines take the theme's colours (app.tcss), in turn."""

    COLOURS = 6
    COMPONENT_CLASSES = {f"line-chart--line-{i}" for i in range(1, COLOURS + 1)}

    def __init__(self, heading: str, points: Sequence[str],
                 lines: Mapping[str, Sequence[float]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.heading = heading
        self.points = list(points)
        self.lines = {name: list(values) for name, values in lines.items()}

    def on_mount(self) -> None:
        # PlotextPlot's own on_mount runs too (Textual calls each class's handler).
        self.draw()
        follow_theme(self, self.draw)

    def show(self, heading: str, points: Sequence[str],
             lines: Mapping[str, Sequence[float]]) -> None:
        """Draw other data (another filter of the league, say)."""
        self.heading = heading
        self.points = list(points)
        self.lines = {name: list(values) for name, values in lines.items()}
        self.draw()

    def draw(self) -> None:
        plt = self.plt
        plt.clear_figure()
        plt.title(self.heading)
        xs = list(range(1, len(self.points) + 1))
        for n, (name, values) in enumerate(self.lines.items()):
            plt.plot(xs, values, label=label(name), color=self.colour(n), marker="hd")
        # A label once where it starts (games of one evening share their date), then as
        # many as fit.
        starts = [i for i, point in enumerate(self.points)
                  if i == 0 or point != self.points[i - 1]]
        longest = max((len(point) for point in self.points), default=1)
        shown = [starts[i] for i in spread(len(starts), max(2, TICKS_WIDTH // (longest + 2)))]
        plt.xticks([xs[i] for i in shown], [self.points[i] for i in shown])
        ticks = self.value_ticks([v for values in self.lines.values() for v in values])
        # plotext annotates list[float] for the ticks it only reads
        plt.yticks(ticks, [str(t) for t in ticks])  # type: ignore[arg-type]
        plt.ylim(ticks[0], ticks[-1])
        # A single point has no width: plotext needs room on each side to draw it.
        plt.xlim(0.5, len(self.points) + 0.5)
        self.refresh()

    def value_ticks(self, values: Sequence[float]) -> list[int]:
        """The ticks up the side: from 0 to the top value or just above."""
        return whole_ticks(max(ceil(max(values, default=0)), 1))

    def colour(self, n: int) -> tuple[int, int, int] | None:
        """The n-th line's colour from the theme, as plotext takes it (red, green, blue)."""
        style = self.get_component_rich_style(f"line-chart--line-{n % self.COLOURS + 1}")
        if style.color is None:
            return None
        red, green, blue = style.color.get_truecolor()
        return red, green, blue
