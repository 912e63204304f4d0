"""Figures larger than Textual's Digits, for a scoreboard on a big screen (a TV terminal of
200 or 300 columns), where Digits' three rows would be lost in the room a card has.

Each figure is drawn from a font of 3x5 pixels, each pixel `scale` rows high and twice as
many columns wide (a terminal cell is about twice as high as it is wide, so the pixels stay
square). A lit pixel is cells painted in the widget's colour (their background): no glyph
of any font is needed, so a terminal, an SVG and a browser draw it alike. The scoreboard
picks the scale that fills its cards (tui/scoreboard/screen.py).
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

# 3 pixels wide, 5 high: '#' is lit.
FONT = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", "..#", "..#"),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    "-": ("...", "...", "###", "...", "..."),
}
BLANK = ("...",) * 5


def big_width(characters: int, scale: int) -> int:
    """Columns a figure of so many characters takes: 3 pixels each, 1 between them."""
    return max(characters * 4 - 1, 0) * 2 * scale


def big_rows(scale: int) -> int:
    """Rows a figure takes: 5 pixels."""
    return 5 * scale


def big_pixels(value: str) -> list[str]:
    """`value` in the font's pixels, one string per row ('#' lit)."""
    return [".".join(FONT.get(c, BLANK)[row] for c in value) for row in range(5)]


class BigDigits(Widget):
    """A figure in the font's pixels, each `scale` rows high and twice as wide."""

    DEFAULT_CSS = "BigDigits { width: auto; height: auto; }"

    value: reactive[str] = reactive("", layout=True)
    scale: reactive[int] = reactive(2, layout=True)

    def __init__(self, value: str = "", scale: int = 2, **kwargs) -> None:
        super().__init__(**kwargs)
        self.set_reactive(BigDigits.value, value)
        self.set_reactive(BigDigits.scale, scale)

    def render(self) -> Text:
        color = self.rich_style.color
        lit = Style(bgcolor=color) if color is not None else Style(reverse=True)
        out = Text(end="", no_wrap=True)
        for number, row in enumerate(big_pixels(self.value)):
            line = Text(end="", no_wrap=True)
            for pixel in row:
                line.append(" " * 2 * self.scale, lit if pixel == "#" else None)
            for again in range(self.scale):
                if number or again:
                    out.append("\n")
                out.append_text(line)
        return out

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return big_width(len(self.value), self.scale)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return big_rows(self.scale)
