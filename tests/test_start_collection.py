"""`warledger` starts with Python's cyclic collection off (issue 48's start-up: what is made
until the first frame lives as long as the app, and each collection walked it again) and
turns it back on once the first frame is drawn, with what start-up made set aside
(gc.freeze): a long evening's collections never walk it either."""

from __future__ import annotations

import gc
import sys

from pilot_pace import shows

import tui.app
from tui.cli import start
from tui.screens.home import HomeScreen


def test_the_start_turns_collection_off_until_the_app_runs(monkeypatch, tmp_path):
    seen = []
    monkeypatch.setattr(tui.app, "run", lambda db, player=None: seen.append(gc.isenabled()))
    monkeypatch.setattr(sys, "argv", ["warledger", "--db", str(tmp_path / "t.db")])
    try:
        start.main()
        assert gc.isenabled(), "on again however the app ended"
    finally:
        gc.enable()
    assert seen == [False]


async def collecting_once_drawn(app) -> bool:
    """Whether collection is on once `app`, started with it off, has drawn home."""
    gc.disable()
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await shows(pilot, HomeScreen)
            await pilot.pause()
            assert app.drawn
            return gc.isenabled()
    finally:
        gc.enable()


async def test_the_app_collects_again_once_drawn(table):
    app = table.app()
    app.collect_once_drawn = True
    frozen = gc.get_freeze_count()
    try:
        assert await collecting_once_drawn(app)
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()  # the other tests of this process collect as before


async def test_an_app_started_otherwise_leaves_collection_alone(table):
    # The host's seats, the tests: collection as their process has it.
    assert not await collecting_once_drawn(table.app())
