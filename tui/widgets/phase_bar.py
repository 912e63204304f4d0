"""The phase bar: where the table is, and the steps of this phase, the current one lit."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class PhaseBar(Static):
    """'War 2 of 3 │ Actions & income ▸ Upkeep ▸ …' with the current step highlighted."""

    def show(self, where: str, steps: list[str], current: str | None) -> None:
        text = Text(where, style="bold")
        text.append("  │  ", style="dim")
        for i, step in enumerate(steps):
            if i:
                text.append("  ▸  ", style="dim")
            if step == current:
                text.append(f" {step} ", style="bold reverse")
            else:
                text.append(step, style="dim" if current is not None else "")
        self.update(text)
