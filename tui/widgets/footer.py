"""The footer, in the reader's language: Textual's Footer shows a binding's description as
written in BINDINGS (English, a message id); this one shows it through the catalogs, when it
is drawn, so a language chosen from the palette shows at the next refresh."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey, FooterLabel

from i18n import _


class Footer(TextualFooter):
    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.description = _(widget.description) if widget.description else ""
                if isinstance(widget.tooltip, str) and widget.tooltip:
                    widget.tooltip = _(widget.tooltip)
            elif isinstance(widget, FooterLabel):
                widget.update(_(str(widget.content)))
            yield widget
