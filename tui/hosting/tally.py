"""The refusals a host tells on its console, for both hosts: the first of a kind at once, the
rest of that kind counted and told as one line when `every` seconds have passed since, so a
flood of connections is a line per interval, not a line per connection."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable

TOLD_EVERY = 10.0  # seconds: each kind of refusal is told at once, then counted this long

# How a host sums up what it counted of a kind: (the kind, the last line counted, how many
# were counted, the interval in seconds) -> the line told.
Summary = Callable[[str, str, int, float], str]


class Tally:
    """Refusals told to the host, each `kind` at most once per `every` seconds; what came
    meanwhile is told when the interval ends as `summary` sums it up."""

    def __init__(self, say: Callable[[str], None], summary: Summary,
                 every: float = TOLD_EVERY) -> None:
        self.say = say
        self.summary = summary
        self.every = every
        self.told: dict[str, float] = {}  # kind: when it was last told
        self.more: Counter[str] = Counter()  # kind: how many since
        self.last: dict[str, str] = {}  # kind: the last line counted
        self.timers: dict[str, asyncio.TimerHandle] = {}

    def __call__(self, kind: str, line: str) -> None:
        """`line` refuses something of `kind`."""
        now = time.monotonic()
        last = self.told.get(kind)
        if last is None or (now - last >= self.every and not self.more[kind]):
            self.told[kind] = now
            self.say(line)
            return
        self.more[kind] += 1
        self.last[kind] = line
        if kind not in self.timers:
            with contextlib.suppress(RuntimeError):  # no loop: told at `close`
                self.timers[kind] = asyncio.get_running_loop().call_later(
                    max(0.0, last + self.every - now), self.flush, kind)

    def flush(self, kind: str) -> None:
        """Tell what was counted of `kind`; the next of it are counted from now."""
        timer = self.timers.pop(kind, None)
        if timer is not None:
            timer.cancel()
        count = self.more.pop(kind, 0)
        line = self.last.pop(kind, "")
        if count:
            self.told[kind] = time.monotonic()
            self.say(self.summary(kind, line, count, self.every))

    def close(self) -> None:
        """Tell what is still counted."""
        for kind in list(self.more):
            self.flush(kind)
