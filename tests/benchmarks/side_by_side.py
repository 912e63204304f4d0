"""What the in-process benchmarks share (burst.py, paint.py, footer.py): the app's way and
the other way run in turn, so a machine that slows down slows both alike; the lower
quartile of each; and the line that says whether the target holds."""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

Run = Callable[[Path], Awaitable[float]]  # one run in a temporary folder: its time


def lower_quartile(times: list[float]) -> float:
    return statistics.quantiles(times, n=4)[0]


async def interleaved(ours: Run, theirs: Run, runs: int = 5, *,
                      warm_up: bool = False) -> tuple[float, float]:
    """(ours, theirs), each the lower quartile of `runs`; a first run of ours, if asked,
    takes the imports and first parses for neither side."""
    mine, other = [], []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if warm_up:
            await ours(folder)
        for _ in range(runs):
            mine.append(await ours(folder))
            other.append(await theirs(folder))
    return lower_quartile(mine), lower_quartile(other)


def verdict(what: str, ours: float, against: str, theirs: float, most: float) -> int:
    """Print the figures and the ratio against its target; the exit status."""
    ratio = ours / theirs
    holds = ratio <= most
    print(f"{what}: {ours * 1000:.0f} ms; {against}: {theirs * 1000:.0f} ms; {ratio:.2f}x "
          f"(at most {most:g}x) {'PASS' if holds else 'FAIL'}")
    return 0 if holds else 1
