"""Ending what a host started, for both hosts: a player's process (SSH) or a tab's app (web),
and the host itself on a signal."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from typing import Protocol

EXIT_LOOK = 0.02  # seconds between looks at whether a process has exited
TERM_GRACE = 1.0  # seconds a process gets to end on SIGTERM before SIGKILL
KILL_WAIT = 5.0  # seconds for SIGKILL to be seen (at once, unless the host is swamped)


class Ending(Protocol):
    """What is ended: an asyncio subprocess, or a player forked from a warm parent."""

    pid: int

    @property
    def returncode(self) -> int | None: ...


async def until_stopped() -> None:
    """Return when the host is told to stop: SIGTERM, SIGINT (ctrl+c) or SIGHUP."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def exited(process: Ending, within: float) -> bool:
    """Whether the process has exited within `within` seconds. (Not `process.wait()`: on
    Python 3.11 that also waits until its output has been read to the end, and a tab's
    output waits on a browser that may never read it.)"""
    deadline = time.monotonic() + within
    while process.returncode is None and time.monotonic() < deadline:
        await asyncio.sleep(EXIT_LOOK)
    return process.returncode is not None


async def end_process(process: Ending, grace: float = TERM_GRACE) -> None:
    """SIGTERM to the process's group, SIGKILL `grace` seconds later; returns once it has
    exited (or KILL_WAIT after SIGKILL, on a host too swamped to see it)."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    if not await exited(process, grace):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await exited(process, KILL_WAIT)
