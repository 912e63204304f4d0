"""The phase bar: where the table is, and the steps of this phase, the current one lit."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tui.widgets.themed import part_style


class PhaseBar(Widget):
    """'War 2 of 3 │ Actions & income ▸ Upkeep ▸ …' with the current step highlighted.

    The screen sets `where`, `steps` and `current` (through `show`); app.tcss colours the
    parts, and a phase of its own look through the bar's -phase-… class (GameScreen.phase)."""

    COMPONENT_CLASSES = {"phase-bar--where", "phase-bar--separator", "phase-bar--step",
                         "phase-bar--current"}

    where: reactive[str] = reactive("")
    steps: reactive[tuple[str, ...]] = reactive(())
    current: reactive[str | None] = reactive(None)

    def show(self, where: str, steps: list[str], current: str | None) -> None:
        self.where, self.steps, self.current = where, tuple(steps), current

    def render(self) -> Text:
        """The whole bar if it fits; else with narrower gaps; else the steps before the
        current one give way (…), then those after it: the current step is always in view
        (Romanian names are longer, and 80 columns are all some tables have)."""
        width = self.content_region.width or self.size.width
        steps = list(self.steps)
        at = steps.index(self.current) if self.current in steps else 0
        first, last = 0, len(steps)
        for wide in (True, False):
            text = self._bar(steps, first, last, wide)
            if width <= 0 or text.cell_len <= width:
                return text
        while text.cell_len > width and (first < at or last > at + 1):
            if first < at:
                first += 1
            else:
                last -= 1
            text = self._bar(steps, first, last, wide=False)
        return text

    def _bar(self, steps: list[str], first: int, last: int, wide: bool) -> Text:
        separator = part_style(self, "phase-bar--separator")
        gap, arrow = ("  │  ", "  ▸  ") if wide else (" │ ", " ▸ ")
        text = Text(self.where, style=part_style(self, "phase-bar--where"))
        text.append(gap, style=separator)
        if first:
            text.append("…", style=separator)
        for i, step in enumerate(steps[first:last], start=first):
            if i:
                text.append(arrow, style=separator)
            if step == self.current:
                text.append(f" {step} ", style=part_style(self, "phase-bar--current"))
            else:
                text.append(step, style=part_style(self, "phase-bar--step")
                            if self.current is not None else "")
        if last < len(steps):
            text.append(arrow + "…", style=separator)
        return text
