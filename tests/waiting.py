"""Waiting in tests on a condition, never on a length of time: the wait ends the moment the
condition holds, and the timeout is only how long a broken run takes to say so."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

EVERY = 0.01  # seconds between two looks


async def until(condition: Callable[[], object], timeout: float = 30.0, what: str = "") -> None:
    """Let the event loop (an app under run_test, a server) run until `condition()` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what or condition}")
        await asyncio.sleep(EVERY)


def wait_for(condition: Callable[[], object], timeout: float = 30.0, what: str = "") -> None:
    """The same outside an event loop (other processes, threads)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what or condition}")
        time.sleep(EVERY)
