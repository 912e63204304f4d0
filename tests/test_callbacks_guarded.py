"""Every callback the app puts off for later on a screen or a widget (a timer's, one after a
refresh) runs only while its node is live (tui/plumbing/ledger_calls.py's `while_live`): a screen
being removed loses its children first, and a callback that came due then would look for a
widget that is gone and fail (issue 28: "no worker anywhere in the app can fail because its
screen is not composed yet or is gone"). The ledger's own answers wait for `composed` in
`call_ledger`; this test reads the source for the rest, so a new timer cannot forget."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

TUI = Path(__file__).resolve().parent.parent / "tui"
PUT_OFF = {"call_after_refresh": 0, "set_timer": 1, "set_interval": 1}  # callback's position

# Where a put-off callback needs no guard, and why.
NEEDS_NO_GUARD = {
    # The app's own timers: the app is live for as long as its timers run.
    ("app.py", "on_mount"),
    ("app.py", "on_ready"),
    # The footer's rebuild asks `is_attached` itself: a footer gone builds nothing.
    ("widgets/footer.py", "bindings_changed"),
    # The "waiting…" timer calls a callback already wrapped in while_live.
    ("plumbing/ledger_calls.py", "call_ledger.run"),
    # The palette's "No matches" timer (Textual's own, behind the fence) runs what the
    # palette's `timer_callback` wraps: while_live in tui/screens/palette.py.
    ("compat/textual.py", "_start_no_matches_countdown"),
}


def put_off_callbacks():
    """(file, function, line, callback expression) of each put-off call in tui/, outside
    hosting (whose call_later is asyncio's, on no screen); the function is the innermost one
    the call sits in, named with those around it (`call_ledger.run`)."""
    for path in sorted(TUI.rglob("*.py")):
        name = path.relative_to(TUI).as_posix()
        if not name.startswith("hosting/"):
            yield from _calls(name, ast.parse(path.read_text(encoding="utf-8")), [])


def _calls(name: str, node: ast.AST, around: list[str]):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _calls(name, child, [*around, child.name])
            continue
        if (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                and child.func.attr in PUT_OFF):
            at = PUT_OFF[child.func.attr]
            callback = (child.args[at] if len(child.args) > at else
                        next((k.value for k in child.keywords if k.arg == "callback"), None))
            yield name, ".".join(around), child.lineno, callback
        yield from _calls(name, child, around)


def is_guarded(callback: ast.expr | None) -> bool:
    return (isinstance(callback, ast.Call) and isinstance(callback.func, ast.Name)
            and callback.func.id == "while_live")


def test_every_put_off_callback_runs_only_while_its_screen_is_there():
    found = list(put_off_callbacks())
    assert len(found) >= 10, "the source was not read"  # the app has 17 today
    unguarded = [f"{name}:{line} in {function}()" for name, function, line, callback in found
                 if not is_guarded(callback) and (name, function) not in NEEDS_NO_GUARD]
    assert unguarded == [], "wrap these callbacks in while_live(self, …)"


def test_the_exceptions_are_still_in_the_source():
    # An exception whose call has moved would let a new, unguarded one through unseen.
    places = {(name, function) for name, function, _line, _cb in put_off_callbacks()}
    assert places >= NEEDS_NO_GUARD
