"""The header, with the title whole on a narrow terminal (issue 44): Textual's cuts the line
"title — sub-title" at its end with "…", so at 80 columns a game screen read "Demo: Struggle of
Empires — Struggle of Empires · războiul 2 …". Here, when the line is wider than its room,
the sub-title gives way first, its parts (" · ") from the first: the game's name (the title
and the phase bar say it too), then the rest; the title, the players' own words, stays whole
(at most 60 characters, which fit at 80 columns). Fitted again when the window is resized."""

from __future__ import annotations

from rich.cells import cell_len
from textual.content import Content
from textual.widgets import Header as TextualHeader
from textual.widgets import Static

# The header's icon and the room kept for its clock (Textual's HeaderIcon and
# HeaderClockSpace), beside the title.
BESIDE_THE_TITLE = 8 + 10


def fitted(title: str, sub_title: str, room: int) -> str:
    """`sub_title` with its first parts left out until "title — sub-title" fits `room`."""
    parts = sub_title.split(" · ") if sub_title else []
    while parts and cell_len(title) + cell_len(" — ") + cell_len(" · ".join(parts)) > room:
        parts.pop(0)
    return " · ".join(parts)


class Header(TextualHeader):
    def format_title(self) -> Content:
        width = self.size.width or self.app.size.width
        title = self.screen_title
        return self.app.format_title(title, fitted(title, self.screen_sub_title,
                                                   width - BESIDE_THE_TITLE))

    def on_resize(self) -> None:
        # Textual's title widget, by its type's name: its class is private (_header).
        for shown in self.query("HeaderTitle").results(Static):  # a HeaderTitle is a Static
            shown.update(self.format_title())
