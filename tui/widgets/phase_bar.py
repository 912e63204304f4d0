"""The phase bar: where the table is, and the steps of this phase, the current one lit."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tui.widgets.themed import part_style


class PhaseBar(Widget):
    """'War 2 of 3 │ Actions & income ▸ Upkeep ▸ …' with the current step highlighted.

    The screen sets `where`, `steps` and `current` (through `show`); app.tcss colours the
    parts, and a phase of its own look through the screen's -phase-… class."""

    COMPONENT_CLASSES = {"phase-bar--where", "phase-bar--separator", "phase-bar--step",
                         "phase-bar--current"}

    where: reactive[str] = reactive("")
    steps: reactive[tuple[str, ...]] = reactive(())
    current: reactive[str | None] = reactive(None)

    def show(self, where: str, steps: list[str], current: str | None) -> None:
        self.where, self.steps, self.current = where, tuple(steps), current

    def render(self) -> Text:
        separator = part_style(self, "phase-bar--separator")
        text = Text(self.where, style=part_style(self, "phase-bar--where"))
        text.append("  │  ", style=separator)
        for i, step in enumerate(self.steps):
            if i:
                text.append("  ▸  ", style=separator)
            if step == self.current:
                text.append(f" {step} ", style=part_style(self, "phase-bar--current"))
            else:
                text.append(step, style=part_style(self, "phase-bar--step")
                            if self.current is not None else "")
        return text
