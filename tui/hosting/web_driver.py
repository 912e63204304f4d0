"""What each browser tab's app process reads its input with (`serve web` names it in
TEXTUAL_DRIVER): Textual's WebDriver, reading on only when the app has caught up
(tui.hosting.paced): while the app is behind, the pipe from the server fills, the server
stops reading the tab's websocket, and the browser's socket stops sending.

Kept small: every tab's process imports it (not tui.hosting.web, which brings aiohttp).
"""

from __future__ import annotations

from textual.drivers.web_driver import WebDriver

from tui.hosting.paced import AHEAD_AT_MOST, Paced

__all__ = ["AHEAD_AT_MOST", "TableWebDriver"]

# Meta packets that must get through even while the app is behind: leaving.
NEVER_WAIT = frozenset({"quit", "exit"})


class TableWebDriver(Paced, WebDriver):
    """Textual's WebDriver with backpressure: input is taken at the pace of the app."""

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type not in NEVER_WAIT:
            self.wait_for_the_app()  # a flood of resizes waits like a flood of keys
        super().on_meta(packet_type, payload)
