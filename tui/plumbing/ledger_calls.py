"""Ledger work off the event loop: the one way a screen asks the database for something.

A screen calls `self.call_ledger(work, then)`: `work(ledger)` runs in a thread (opening the
database, importing SQLAlchemy, waiting on another terminal's write lock: all of it away
from the keys), and `then(result)` runs back on the event loop. A failure takes one path:
`ledger_failed(message, error)`, in the players' words. A busy database (another process
holding the write lock) is waited for, and the screen says so (`ledger_waiting`) instead of
freezing; the keys keep answering all the while.

The answer is the screen's only once the screen is composed and mounted, and only while it
is there: an answer that comes before (a screen asked for something before it was shown)
waits for the screen, and one that comes as the screen is removed (popped, or the app
closing) is dropped. `is_live` says which; `while_live` puts the same check on any other
callback that runs out of the screen's own turn (a timer's, one after a refresh).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from textual.app import App
from textual.message_pump import MessagePump
from textual.worker import Worker

from i18n import N_, _
from tui.compat.textual import is_being_removed

if TYPE_CHECKING:
    from storage.ledger import Ledger

T = TypeVar("T")
P = ParamSpec("P")

SAY_WAITING_AFTER = 0.3  # seconds: quicker answers never flash a message
# What a screen says while it waits: slow (a game opening on a loaded machine), or held up
# by another process's write lock, which only the database's own "busy" tells apart.
# Message ids: said through `_()`.
SLOW = N_("Waiting for the database…")
BUSY = N_("Waiting for the database: another terminal is writing…")
KEEP_TRYING_FOR = 120.0  # seconds a busy database is waited for before giving up
RETRY_EVERY = 0.2


class LedgerCalls:
    """Mixin for screens (and modal screens) that use the ledger."""

    def call_ledger(self, work: Callable[[Ledger], T], then: Callable[[T], Any] | None = None,
                    *, group: str = "ledger", quiet: bool = False) -> Worker:
        """Run `work(ledger)` in a thread; `then(result)` on the event loop afterwards.

        `quiet` work (a look for other terminals' steps, a draft) says nothing while it
        waits and nothing when it fails: it is tried again soon, and costs no step."""
        app = self.app  # type: ignore[attr-defined]

        def in_thread() -> T:
            return work(app.ledger)

        waiting = while_live(self, self.ledger_waiting)  # type: ignore[arg-type]

        async def run() -> None:
            from storage.service import explain, is_busy

            told = self.set_timer(SAY_WAITING_AFTER,  # type: ignore[attr-defined]
                                  lambda: waiting(_(SLOW)), pause=quiet)
            deadline = time.monotonic() + KEEP_TRYING_FOR
            try:
                while True:
                    try:
                        result = await asyncio.to_thread(in_thread)
                        break
                    except Exception as e:  # noqa: BLE001 - every failure is told, once
                        if quiet:
                            return
                        if is_busy(e) and time.monotonic() < deadline:
                            told.stop()  # "slow" would say less than this
                            waiting(_(BUSY))
                            await asyncio.sleep(RETRY_EVERY)
                            continue
                        if await composed(self):  # type: ignore[arg-type]
                            self.ledger_failed(explain_error(e, explain), e)
                        return
            finally:
                told.stop()
            if not await composed(self):  # type: ignore[arg-type]
                return  # the screen has gone: nobody to tell
            if not quiet:
                self.ledger_done()
            if then is not None:
                then(result)

        # Every failure of the work is caught above; what could still escape is a bug in
        # `then`, which must surface (and fail a test) like a bug in any handler.
        # The function, not its coroutine: a worker cancelled before it starts (the app
        # ending) leaves no coroutine never awaited to warn on the error output.
        return self.run_worker(run, group=group,  # type: ignore[attr-defined]
                               exit_on_error=True, description="ledger")

    # What a screen says; game screens say it beside the form, the others in a notification.

    def ledger_waiting(self, message: str) -> None:
        """The database is taking its time (usually another terminal's write)."""
        self.notify(message, timeout=2)  # type: ignore[attr-defined]

    def ledger_done(self) -> None:
        """The database answered: whatever `ledger_waiting` said can go."""

    def ledger_failed(self, message: str, error: BaseException) -> None:
        """The work failed: nothing was written; tell the players why."""
        self.notify(message, severity="error")  # type: ignore[attr-defined]


def is_live(node: MessagePump) -> bool:
    """Whether `node` (a screen, a widget, the app) may be shown an answer now: composed and
    mounted, still in the app, and not on its way out. Textual removes a screen's children
    before the screen itself, and `_pruning`/`_closing` are what it sets the moment a removal
    starts (its own mount and recompose look at them the same way)."""
    app = node.app
    if not app.is_running:  # closing (or not started): every screen is going
        return False
    if isinstance(node, App):
        return True
    return (node.is_mounted and node.is_attached  # type: ignore[attr-defined]
            and not is_going(node))


def is_going(node: MessagePump) -> bool:
    """Whether `node` is being removed, or is gone: Textual sets these the moment a removal
    starts, and removes a node's children before the node itself."""
    return is_being_removed(node)


async def composed(node: MessagePump) -> bool:
    """Wait until `node` is composed and mounted (at once if it is); False if it is gone or
    going instead. What `node` is asked to run lands in its queue after its Compose and
    Mount, so that is where the wait ends."""
    if not isinstance(node, App) and not node.is_mounted:  # type: ignore[attr-defined]
        mounted = asyncio.Event()
        if not node.call_later(mounted.set):
            return False  # closed before it was ever shown
        await mounted.wait()  # a screen never shown: the worker ends with the app
    return is_live(node)


def while_live(node: MessagePump, callback: Callable[P, Any]) -> Callable[P, Any]:
    """`callback`, for running later (a timer, after a refresh), doing nothing once `node` is
    no longer live (see is_live). What it returns is handed on (Textual awaits a
    coroutine's)."""
    def guarded(*args: P.args, **kwargs: P.kwargs) -> Any:
        if is_live(node):
            return callback(*args, **kwargs)
        return None

    return guarded


def explain_error(error: BaseException, explain: Callable[[BaseException], str]) -> str:
    """A rule broken is said in the rule's words; anything else as the database layer says."""
    from rules.errors import RuleError

    return str(error) if isinstance(error, RuleError) else explain(error)
