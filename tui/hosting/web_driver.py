"""What each browser tab's app process reads its input with (`serve web` names it in
TEXTUAL_DRIVER): Textual's WebDriver, reading on only when the app has caught up.

Textual's WebDriver reads its standard input in a thread and posts every event it parses to
the app at once: a tab sending keys faster than the app takes them grew the app's queue
without end (2 MB of input made a process of 2.5 GB that ran for minutes). Here the thread
waits while the app has more than AHEAD_AT_MOST events not yet taken, so it stops reading;
the pipe from the server fills, the server stops reading the tab's websocket, and the
browser's socket stops sending. Nothing is dropped: the input waits where it is.

Kept small: every tab's process imports it (not tui.hosting.web, which brings aiohttp).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from textual.app import App
from textual.drivers.web_driver import WebDriver
from textual.message import Message

# Events handed to the app and not yet taken by it (keys waiting their turn included): past
# this, the input thread waits. A few hundred keys a second is more than a table types.
AHEAD_AT_MOST = 64
WAIT_STEP = 0.005  # seconds between looks at the app while it is behind
# Meta packets that must get through even while the app is behind: leaving.
NEVER_WAIT = frozenset({"quit", "exit"})


class TableWebDriver(WebDriver):
    """Textual's WebDriver with backpressure: input is taken at the pace of the app."""

    def __init__(self, app: App, *args: Any, **kwargs: Any) -> None:
        super().__init__(app, *args, **kwargs)
        self.paced_app = app
        self.loop = asyncio.get_running_loop()  # the app's, as Textual's Driver takes it
        self.input_thread: threading.Thread | None = None  # run_input_thread's
        self._handed = 0  # events passed to the event loop and not yet posted to the app
        self._handed_lock = threading.Lock()

    @property
    def events_ahead(self) -> int:
        """Events the app has been given and has not yet taken."""
        app = self.paced_app
        return self._handed + app.message_queue_size + getattr(app, "keys_waiting", 0)

    def wait_for_the_app(self) -> None:
        """In the input thread: return once the app has caught up (or the driver stops)."""
        if threading.current_thread() is not self.input_thread:
            return  # the app's own thread never waits on itself
        while self.events_ahead > AHEAD_AT_MOST and not self.exit_event.is_set():
            self.exit_event.wait(WAIT_STEP)

    def send_message(self, message: Message) -> None:
        self.wait_for_the_app()
        with self._handed_lock:
            self._handed += 1

        def post() -> None:
            with self._handed_lock:
                self._handed -= 1
            self.paced_app.post_message(message)

        self.loop.call_soon_threadsafe(post)

    def run_input_thread(self) -> None:
        self.input_thread = threading.current_thread()
        super().run_input_thread()

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type not in NEVER_WAIT:
            self.wait_for_the_app()  # a flood of resizes waits like a flood of keys
        super().on_meta(packet_type, payload)
