"""Driving the app under Pilot without waiting on the clock (issue 28).

`Pilot.press` waits after each key until the whole process has been idle for a while (two
of Textual's `wait_for_idle` windows, each up to a second while anything runs, a thread
included), so a grid typed key by key spent most of its time waiting. `typing` posts the
keys at once, as a fast typist or an SSH link delivers them; the app hands them on one at a
time (tui/plumbing/key_order.py, checked against one-at-a-time typing by test_keys_in_order and
test_drafts_kept), and `typing` returns once every key has been handled and has settled.

`pause_skips_the_live_look` replaces conftest's `pilot.pause()` (which also waits for the
ledger work in flight) with one that waits for that same work except a game screen's look
for other terminals' steps: that look is a long poll of up to half a second, started again
every 0.05 s (tui/screens/game.py), that records nothing and is never what a test waits for,
so each pause on a game screen waited a quarter of a second on average for nothing. A test
of the live refresh waits on its condition (pause_until) and does not take this fixture.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata

import pytest
from textual import events
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot

LIVE_LOOK = "watch"  # the worker group of a game screen's look (GameScreen.look_for_changes)
HOME_LOOK = "games-watch"  # the home screen's (tui.screens.home.LOOK_GROUP)
LOOK_EVERY = 0.002  # seconds between two looks (a key settles in a few milliseconds)
TEXTUAL_PAUSE = Pilot.pause  # as Textual has it: read at import, before any fixture patches it


def key_event(key: str) -> events.Key:
    """The Key event Pilot.press makes of `key` (Textual's own names: should one go, every
    test using this fails at once rather than type something else)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    original = REPLACED_KEYS.get(key, key)
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(original))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def until(pilot, condition, what: str, timeout: float = 30.0) -> None:
    """Let the app run until `condition()` holds; an app that failed or stopped meanwhile
    ends the wait at once (run_test then raises what the app raised)."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    while not condition():
        if app._exception is not None or not app.is_running:
            raise AssertionError(f"the app stopped while waiting for {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        await asyncio.sleep(LOOK_EVERY)


async def typing(pilot, *keys: str, timeout: float | None = None) -> None:
    """Type `keys` in one burst; back once the app has handled every one of them. The wait
    grows with the burst: 84 keys (a map's owners) took over 30 s on a loaded machine."""
    app = pilot.app
    if timeout is None:
        timeout = 30.0 + 0.5 * len(keys)
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)
    await until(pilot, lambda: not app.keys_waiting, f"the keys {keys!r} to be handled",
                timeout)


async def shows(pilot, kind: type, what: str = "") -> None:
    """Until the app shows a screen of `kind` (the screen a step or a key leads to), then
    a pause: what the screen set off is done too."""
    await until(pilot, lambda: isinstance(pilot.app.screen, kind),
                what or f"{kind.__name__} (the app shows {pilot.app.screen!r})")
    await pilot.pause()


def highlighted(app) -> str:
    """The command palette's highlighted entry, as plain text ("" while there is none)."""
    from textual.command import CommandList

    commands = app.screen.query_one(CommandList)
    if commands.highlighted is None or commands.option_count == 0:
        return ""
    prompt = commands.get_option_at_index(commands.highlighted).prompt
    return getattr(prompt, "plain", str(prompt))


def text_keys(text: str) -> list[str]:
    """The keys that type `text` (a space is the space key)."""
    return ["space" if c == " " else c for c in text]


@pytest.fixture
def pause_skips_the_live_look(monkeypatch: pytest.MonkeyPatch,
                              _pause_waits_for_the_ledger) -> None:
    """`pilot.pause()` as conftest makes it, less the wait for the live look (see above)."""

    async def pause(self, delay: float | None = None) -> None:
        await TEXTUAL_PAUSE(self, delay)
        work = [w for w in self.app.workers if w.group not in (LIVE_LOOK, HOME_LOOK)]
        if work:
            await self.app.workers.wait_for_complete(work)
        await TEXTUAL_PAUSE(self)

    monkeypatch.setattr(Pilot, "pause", pause)


async def totals_laid_out(pilot) -> None:
    """Until the game screen's totals panel has room for every row, and still has after a
    pause. Its rows come a frame before the layout that gives them their room, and a resize
    while the screen settles draws them again: a test reading the screen in between saw
    the panel's headings alone (one line tall, with four rows in it), 1 run in 10 to 60."""
    from tui.widgets.kept_cells import KeptCellsTable
    from tui.widgets.totals import TotalsPanel

    table = pilot.app.screen.query_one(TotalsPanel).query_one(KeptCellsTable)

    def whole() -> bool:
        return bool(table.row_count) and table.region.height >= table.virtual_size.height

    while True:
        await until(pilot, whole, "the totals laid out")
        await pilot.pause()
        if whole():
            return
