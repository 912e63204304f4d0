"""Input at the app's pace, for both hosts' drivers (tui.hosting.child's for an SSH player's
terminal, tui.hosting.web_driver's for a browser tab): reading waits while the app is behind.

Textual's drivers read their input in a thread and post every event they parse to the app at
once: a flood of keys grew the app's queue without end (0.6 MB of `z` made an SSH player's
process 290 MB; 2 MB from a tab made one of 2.5 GB that ran for minutes). Here the input
thread waits while the app has more than AHEAD_AT_MOST events given and not yet taken (keys
waiting their turn, tui/plumbing/key_order.py, included), so it stops reading: the pty or the pipe
from the server fills, the server stops reading the player's SSH channel or websocket, and
the client waits. Nothing is dropped: the input waits where it is.

Kept small: every player's process imports it.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

# Events handed to the app and not yet taken by it (keys waiting their turn included): past
# this, the input thread waits. A few hundred keys a second is more than a table types.
AHEAD_AT_MOST = 64
WAIT_STEP = 0.005  # seconds between looks at the app while it is behind


class Paced:
    """Mixed into a Textual driver (before it): its input thread posts each event once the
    app has caught up. The driver is made in the app's loop, with the app first."""

    exit_event: threading.Event  # the driver's own: set when it stops

    def __init__(self, app: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(app, *args, **kwargs)  # type: ignore[call-arg]
        self.paced_app = app
        self.loop = asyncio.get_running_loop()  # the app's, as Textual's Driver takes it
        self.input_thread: threading.Thread | None = None  # the one reading: run_input_thread
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
            return  # the app's own thread (a resize) never waits on itself
        while self.events_ahead > AHEAD_AT_MOST and not self.exit_event.is_set():
            self.exit_event.wait(WAIT_STEP)

    def send_message(self, message: Any) -> None:
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
        super().run_input_thread()  # type: ignore[misc]
