"""Keys in the order they arrived, whatever their kind.

Textual checks an app's priority bindings the moment a key reaches the app, but hands every
other key to the focused widget by posting it to that widget's queue; a key that bubbles up
to a screen's binding runs after the widget has already taken the keys behind it. So in a
burst (an SSH link, a paste, a fast typist) `5 Tab 3` moved the cell before the 5 was typed,
and `ctrl+x 2` typed the 2 into the grid behind the dialog it opened.

Here the app takes one key at a time: it hands a key on as Textual would, then waits until
the key has settled before it hands on the next. A key has settled when a marker sent after
it (`Settled`, which follows the key up the same queues) comes back and finds every widget
of the screen idle: what the key set off (a message it posted, a screen it pushed, a form
it rebuilt) is done. Work that runs in a thread (a step being recorded, a game loading)
holds the keys (`hold_keys`) until its screen is ready again, so what is typed meanwhile
lands in the form that follows. Nothing waits on a timer: a quiet key settles at once.
"""

from __future__ import annotations

import time
from collections import deque

from textual import events, messages
from textual.message import Message

from tui.compat.textual import callbacks_due, lay_out_now, peeked_message, queued_messages

# Keys waiting their turn: a ceiling, so a flood cannot grow the process. Beyond it a key is
# refused with the terminal's bell (a table types a few keys a second; a paste of a grid is
# a few hundred).
WAITING_AT_MOST = 4096
# A marker lap that finds the screen busy goes round again, up to this many times (a widget
# that animates is never idle; the key is then taken as settled).
LAPS_AT_MOST = 40
# A marker that never comes back (its widget was removed with it) is given up after this.
LAP_GIVEN_UP_AFTER = 0.5
# No hold lasts longer: a database that never answers must not take the keyboard with it.
HOLD_AT_MOST = 15.0
# Quitting waits its turn, so the keys typed before it are handled and kept in the draft
# first; but it must work whatever holds the keys: a quit key waiting longer than this goes at
# once, and so does one pressed again while the first waits.
QUIT_KEYS = {"ctrl+q", "ctrl+c"}
QUIT_WAITS_AT_MOST = 2.0
# Keys that only look (help, the palette, and Escape that closes them) go on when their turn
# comes even while a slow database holds the keys: the table can read the help meanwhile.
LOOKS_WHILE_HELD = {"f1", "ctrl+p", "escape"}


# Messages that only draw: what a key set off never hides among them.
DRAWING = (messages.Update, messages.Layout, messages.UpdateScroll, messages.Prompt)


# Calls put off to the app's queue (Widget.focus, call_later).
LATER = (events.Callback, messages.InvokeLater)


class Settled(Message):
    """The marker that follows a key: back at the app, the key has been handled."""

    def __init__(self, lap: int) -> None:
        super().__init__()
        self.lap = lap


class KeysInOrder:
    """Mixin for the App (before `App` in its bases): keys and pastes one at a time."""

    def _keys_init(self) -> None:
        self._waiting_keys: deque[events.Event] = deque()
        self._lap = 0  # the lap in flight (0: none)
        self._lap_serial = 0  # every lap has its own number: a late marker never matches
        self._laps = 0  # laps of the key in flight
        self._lap_at = 0.0
        self._holds: dict[tuple[object, str], float] = {}  # (who, why): until when
        self._pumping = False
        self._quit_since = 0.0  # when the quit key waiting (if one is) arrived

    # ------------------------------------------------------------ holding

    def hold_keys(self, owner: object, why: str = "") -> None:
        """Keep the keys typed from now on waiting until `owner` lets go (release_keys):
        work in a thread will change what they are aimed at. A hold ends by itself when
        its owner (a screen) goes away, and after HOLD_AT_MOST seconds."""
        self._holds[(owner, why)] = time.monotonic() + HOLD_AT_MOST

    def release_keys(self, owner: object, why: str = "") -> None:
        """`owner` is done: the waiting keys go on once the screen has settled."""
        if self._holds.pop((owner, why), None) is not None and not self._lap:
            self._lap_round()  # settle first: what released may still be mounting

    @property
    def keys_waiting(self) -> int:
        """Keys arrived and not yet handed on, or not yet settled (for tests and the
        benchmark): those still in the app's queue count too."""
        queued = [self._pending_message, *self._message_queue.values]  # type: ignore
        return (len(self._waiting_keys) + (1 if self._lap else 0)
                + sum(isinstance(m, events.Key | events.Paste) for m in queued))

    def _held(self) -> bool:
        now = time.monotonic()
        for (owner, why), until in list(self._holds.items()):
            # A screen that went away, or a hold past its time, holds nothing.
            gone = owner is not self and getattr(owner, "is_attached", True) is False
            if gone or now > until:
                del self._holds[(owner, why)]
        return bool(self._holds)

    # ------------------------------------------------------------ arriving

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.Paste) and not event.is_forwarded:
            if isinstance(event, events.Key) and event.key in QUIT_KEYS:
                if self._quit_waiting():
                    await super().on_event(event)  # type: ignore[misc]
                    return
                self._quit_since = time.monotonic()
            if len(self._waiting_keys) >= WAITING_AT_MOST:
                self.bell()  # type: ignore[attr-defined]
                return
            self._waiting_keys.append(event)
            await self._pump()
            return
        await super().on_event(event)  # type: ignore[misc]

    async def _pump(self) -> None:
        """Hand on the next key if the last one has settled and nothing holds them."""
        if self._pumping:
            return
        self._pumping = True
        try:
            while self._waiting_keys and not self._lap and (
                    not self._held() or looks(self._waiting_keys[0])):
                screen = self._shown()
                if screen is None:
                    return  # no screen yet, or none any more: the watchdog tries again
                event = self._waiting_keys.popleft()
                self._lay_out(screen)
                target = self.focused or screen  # type: ignore[attr-defined]
                await super().on_event(event)  # type: ignore[misc]
                # A key handed on is followed by the marker, through the same queues; a
                # priority binding ran already, and what it set off is waited for.
                self._lap_round(target if event.is_forwarded else None)
        finally:
            self._pumping = False

    def _shown(self):
        """The screen on top, or None while there is none: before the first is pushed, and
        once the app has taken its screens down as it closes (where a lap's marker can still
        arrive, and asking for `self.screen` raised ScreenStackError on the player's way out)."""
        stack = self.screen_stack
        return stack[-1] if stack else None

    def _lay_out(self, screen) -> None:
        """Give every widget its place now if the last key moved any (Textual lays a screen
        out at its next refresh, up to 1/60 s later). Tab follows the places (Textual sorts
        the focus chain by them): in a burst, a Tab behind a key that showed a field went to
        the field's old place, and the keys behind it into the wrong field."""
        lay_out_now(screen)

    def _lap_round(self, target=None) -> None:
        self._lap_serial += 1
        self._lap = self._lap_serial
        self._laps += 1
        self._lap_at = time.monotonic()
        target = target or self._shown()
        if target is not None:  # else the lap waits for the watchdog, as a lost one does
            target.post_message(Settled(self._lap))

    async def on_settled(self, message: Settled) -> None:
        message.stop()
        if message.lap != self._lap:
            return  # a lap given up on
        if not self._idle() and self._laps < LAPS_AT_MOST:
            self._lap_round()
            return
        self._lap, self._laps = 0, 0
        await self._pump()

    def _idle(self) -> bool:
        """Every widget of the screen has handled what it was sent (drawing aside: a key
        never waits for the screen to be painted, so a burst is painted once)."""
        screen = self._shown()
        if screen is None or not screen.is_mounted:
            return False
        # What a key set off may wait in the app's own queue: Widget.focus() and call_later
        # run from there (a Select that opens focuses its list so).
        waiting = [peeked_message(self), *queued_messages(self)]  # type: ignore[arg-type]
        if any(isinstance(m, LATER) for m in waiting):
            return False
        # Textual's own counts: messages waiting, one peeked at, callbacks due after them.
        return not any(
            peeked_message(node) is not None or callbacks_due(node) or not node.is_mounted
            or any(not isinstance(m, DRAWING) for m in queued_messages(node))
            for node in screen.walk_children(with_self=True))

    def _quit_waiting(self) -> bool:
        return any(isinstance(k, events.Key) and k.key in QUIT_KEYS for k in self._waiting_keys)

    def _keys_watchdog(self) -> None:
        """A lap whose marker was lost with its widget, or keys freed by a hold's end:
        go on. A quit key kept waiting too long (a slow database holds the keys): quit."""
        if self._quit_waiting() and time.monotonic() - self._quit_since > QUIT_WAITS_AT_MOST:
            self._waiting_keys.clear()
            self.call_later(self.run_action, "quit")  # type: ignore[attr-defined]
            return
        if self._lap and time.monotonic() - self._lap_at > LAP_GIVEN_UP_AFTER or not self._lap and self._waiting_keys and not self._held():
            self._lap_round()


def looks(event: events.Event) -> bool:
    """A key that only looks (LOOKS_WHILE_HELD)."""
    return isinstance(event, events.Key) and event.key in LOOKS_WHILE_HELD
