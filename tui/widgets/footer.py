"""The footer, in the reader's language: Textual's Footer shows a binding's description as
written in BINDINGS (English, a message id); this one shows it through the catalogs, when it
is drawn, so a language chosen from the palette shows at the next refresh.

It is also built at the table's pace (issue 28). Textual builds every key of the footer
again at each change of a screen's bindings (a focus moved, a check_action asked again),
most of them changing nothing the footer shows; and it makes each FooterKey compact, styles
it so, then binds it to the footer (not compact) and styles it again. Here the keys are
built again only when what they show changed, each in its final look at once: together
half the CPU an app spent opening (0.52 s to 0.25 s here), on every SSH and web player's
screen too (tests/benchmarks/footer.py)."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter

from i18n import _, language
from tui.compat.textual import FooterKey, FooterLabel, bindings_ready
from tui.plumbing.keys import raw_keys_by_id


class Footer(TextualFooter):
    _shown: tuple | None = None  # what the keys were last built from (see _keys)

    def _keys(self) -> tuple:
        """Everything compose builds the keys from: each binding the footer shows, whether
        it is enabled and its tooltip, in their order; the language; the footer's look."""
        palette = self.app.COMMAND_PALETTE_BINDING
        shown = tuple((binding, enabled, tooltip)
                      for key, (_node, binding, enabled, tooltip)
                      in self.screen.active_bindings.items()
                      if binding.show or key == palette)
        return (language(), self.compact, self.show_command_palette, self.combine_groups,
                shown, self._first_keys())

    def _first_keys(self) -> tuple[str, ...] | None:
        """The ids of the only keys shown, in their order, on a screen that names them:
        under 76 columns (-pocket: base.py, pocket_keys) or under 120 (-narrow,
        narrow_keys); None: every key."""
        screen = self.screen
        if screen.has_class("-pocket"):
            first = getattr(screen, "pocket_keys", None)  # a Textual screen has none
        elif screen.has_class("-narrow"):
            first = getattr(screen, "narrow_keys", None)
        else:
            return None
        return None if first is None else first()

    def compose(self) -> ComposeResult:
        # As Textual's: no key until the screen first says what its bindings are (the
        # focus may change them), then keys built once; home's come a frame after the first.
        if bindings_ready(self):
            self._shown = self._keys()
        yield from self._first_only(self._in_language())

    def _first_only(self, widgets: Iterable[Widget]) -> Iterable[Widget]:
        """On a narrow screen, only the keys it names first, most important first."""
        first = self._first_keys()
        if first is None:
            yield from widgets
            return
        # By key, not by binding: Enter's key may be the focused grid's own (its Confirm).
        named = {**raw_keys_by_id(self.app), **raw_keys_by_id(self.screen)}
        keys = {widget.key: widget for widget in widgets if isinstance(widget, FooterKey)}
        for name in first:
            shown = next((keys[key] for key in named.get(name, ()) if key in keys), None)
            if shown is not None:
                yield shown

    def _in_language(self) -> Iterable[Widget]:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                self._in_its_look(widget)
                widget.description = _(widget.description) if widget.description else ""
                if isinstance(widget.tooltip, str) and widget.tooltip:
                    widget.tooltip = _(widget.tooltip)
            elif isinstance(widget, FooterLabel):
                widget.update(_(str(widget.content)))
            yield widget

    def _in_its_look(self, key: FooterKey) -> None:
        # Styled once, as Textual leaves it: bound to the footer's compact, but for the
        # palette's key, which stays compact (FooterKey's default).
        if not key.has_class("-command-palette"):
            key.set_reactive(FooterKey.compact, self.compact)
        key.set_class(key.compact, "-compact", update=False)

    def on_mount(self) -> None:
        # (Textual's own on_mount, run after this one, listens for the screen's bindings.)
        # What changed before it listened (home, the app's first screen, may say so before
        # its footer is mounted) is looked at once now.
        self.bindings_changed(self.screen)

    def bindings_changed(self, screen: Screen) -> None:
        # Textual's, but for the keys built again only when they would differ.
        bindings_ready(self, True)
        # Textual's leaves the keys as they are while the app has no focus; but keys never
        # built are built: a web tab's app starts without it (until the browser says it
        # has it), after home, its first screen, was mounted.
        if not screen.app.app_focus and self._shown is not None:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._build_if_changed)

    async def _build_if_changed(self) -> None:
        if self.is_attached and self._keys() != self._shown:
            await self.recompose()
