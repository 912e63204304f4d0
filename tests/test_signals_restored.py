"""An app that has run leaves the process's signals as it found them (issue 44's last keys set
SIGHUP and SIGTERM aside while the drafts are written): a process that goes on after its app
(the test suite's workers, a host) would otherwise start every later child with SIGTERM
ignored, and an `ssh` or a player's process that no SIGTERM ends kept a test waiting forever."""

from __future__ import annotations

import signal

from tests.at_head import new_database
from tui.app import TERMINAL_GONE, WarledgerApp


def test_signals_are_as_before_once_the_app_has_run(tmp_path):
    before = {sig: signal.getsignal(sig) for sig in TERMINAL_GONE}

    async def quit_at_once(pilot) -> None:
        await pilot.pause()
        pilot.app.exit()

    WarledgerApp(new_database(tmp_path / "table.db")).run(headless=True, size=(80, 24),
                                                           auto_pilot=quit_at_once)
    after = {sig: signal.getsignal(sig) for sig in TERMINAL_GONE}
    assert after == before
    assert after[signal.SIGTERM] is not signal.SIG_IGN
