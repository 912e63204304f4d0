"""Drafts on their way to the ledger: what a form holds is kept at each key, and at once as
the terminal goes away.

A game screen hands the app's `DraftKeeper` what its form holds at every change (`note`, on
the event loop: a dict, no database). The keeper's own thread writes it through the ledger
(the event loop never waits on the database, and a key costs no worker, timer or message).
The keeper holds only the newest draft of each game, so writes never queue up behind the
keys: one write in flight, and after it at most one more, of whatever is newest then.
Writes go one at a time and never put an older draft over a newer one; a write that fails
(a database busy past its wait) is tried again WRITE_AGAIN_AFTER later.

When the terminal goes away (SIGHUP, SIGTERM: a closed window, a dropped SSH link, a web tab
closed) the app writes what is not written yet before the process ends (`keep`), waiting
in a thread of its own at most a deadline.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storage.ledger import Ledger

# Seconds the last drafts get to be written once the terminal has gone (the SSH server gives
# a child 2 s after SIGTERM, a web tab's process 0.5 s to quit and 1 s after SIGTERM).
KEEP_AT_MOST = 1.0
WRITE_AGAIN_AFTER = 0.2  # seconds before a write that failed is tried again


class DraftKeeper:
    """The newest draft of each game, and which of them the ledger holds."""

    def __init__(self, ledger: Callable[[], Ledger] | None = None) -> None:
        self._ledger = ledger  # the ledger, for the writer thread (None: no thread)
        self._versions = itertools.count(1)
        self._newest: dict[int, tuple[int, dict[str, Any]]] = {}  # game: (version, draft)
        self._written: dict[int, int] = {}  # game: the version the ledger holds
        self._writing = threading.Lock()  # one write at a time, in the order of the notes
        self._wake = threading.Condition()
        self._writer: threading.Thread | None = None
        self._closed = False

    def note(self, session_id: int, draft: dict[str, Any]) -> None:
        """What game `session_id`'s form holds now (on the event loop): the writer thread
        writes it at once, or right after the write in flight."""
        self._newest[session_id] = (next(self._versions), draft)
        if self._ledger is None or self._closed:
            return
        with self._wake:
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_on, name="drafts",
                                                daemon=True)
                self._writer.start()
            self._wake.notify()

    def close(self) -> None:
        """No more writes by the thread (the app is done; `keep` writes what is left)."""
        with self._wake:
            self._closed = True
            self._wake.notify()

    def _write_on(self) -> None:
        """The writer thread: the newest drafts, as they come, until closed."""
        assert self._ledger is not None
        while True:
            with self._wake:
                while not self._closed and not self.unwritten():
                    self._wake.wait()
                if self._closed:
                    return
            try:
                self.write(self._ledger())
            except Exception:  # noqa: BLE001 - tried again: a draft costs no step
                with self._wake:
                    self._wake.wait(WRITE_AGAIN_AFTER)

    def unwritten(self, session_id: int | None = None) -> bool:
        """Whether a draft noted (of `session_id`, or of any game) is not written yet."""
        games = [session_id] if session_id is not None else list(self._newest)
        return any(self._written.get(game, 0) < self._newest[game][0]
                   for game in games if game in self._newest)

    def write(self, ledger: Ledger, session_id: int | None = None) -> None:
        """Write the newest draft of `session_id` (of every game: None) if the ledger does not
        hold it yet. In a thread; raises what the ledger raises."""
        with self._writing:
            games = [session_id] if session_id is not None else list(self._newest)
            for game in games:
                version, draft = self._newest.get(game, (0, {}))
                if self._written.get(game, 0) < version:
                    self.save(ledger, game, draft)
                    self._written[game] = version

    def save(self, ledger: Ledger, session_id: int, draft: dict[str, Any]) -> None:
        """Write one draft (in the writer thread): a form's draft; tui.screens.seats keeps a seat's
        part this way."""
        ledger.save_draft(session_id, draft)

    def keep(self, ledger: Ledger | None, within: float = KEEP_AT_MOST) -> bool:
        """Write every draft not written yet, waiting at most `within` seconds (a database
        that never answers keeps no process alive); whether they are all written. Blocks:
        for the way out, never on the event loop."""
        if ledger is None or not self.unwritten():
            return True

        def write_all() -> None:
            with contextlib.suppress(Exception):  # a draft lost costs typing, never a step
                self.write(ledger)

        writer = threading.Thread(target=write_all, name="keep-drafts", daemon=True)
        writer.start()
        writer.join(within)
        return not self.unwritten()
