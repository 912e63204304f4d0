"""What keeping the draft at each key costs (issue 44): the app as it is, writing what the form
holds at every key (tui/plumbing/drafts.py: a write in flight and at most one more after it), against
the same app with drafts never written, in the same process, interleaved, lower quartile.

- typed: 120 keys (digits, Tab, Space, arrows, Backspace) typed one at a time into the upkeep
  grid of a 4-player Struggle of Empires game, each key's draft written before the next
  (a typist's pace); CPU time of the process (its threads too: the writes), per key, and
  the wall time per key;
- burst: 200 keys posted at once into the same grid, until every key has settled and the
  last draft is written; the wall time, and how many writes the 200 keys made.

    uv run python tests/benchmarks/drafts.py
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from side_by_side import interleaved, lower_quartile

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

TYPED = 120
BURST = 200
MOST = 1.5  # typing with drafts may take at most this much of the CPU of typing without
PLAYERS = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"},
           {"name": "Cy", "power": "Austria"}, {"name": "Di", "power": "Russia"}]
NAMES = {" ": "space", ".": "full_stop"}

writes = 0  # drafts written in the run


@contextmanager
def counted_writes():
    """Count Ledger.save_draft calls."""
    from storage.ledger import Ledger

    global writes
    save = Ledger.save_draft

    def counting(self, *args, **kwargs):
        global writes
        writes += 1
        return save(self, *args, **kwargs)

    writes = 0
    Ledger.save_draft = counting
    try:
        yield
    finally:
        Ledger.save_draft = save


@contextmanager
def no_drafts():
    """The build that never writes a draft: nothing is handed to the keeper."""
    from tui.plumbing.drafts import DraftKeeper

    note = DraftKeeper.note
    DraftKeeper.note = lambda self, session_id, draft: None
    try:
        yield
    finally:
        DraftKeeper.note = note


async def opened(folder: Path):
    """An app at the upkeep grid of a new game: (app, its context manager, pilot)."""
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.app import WarledgerApp
    from tui.widgets.number_grid import NumberGrid

    ledger = Ledger(make_engine(f"sqlite:///{folder / f'{time.monotonic_ns()}.db'}"))
    game = ledger.create_game("soe", "Drafts", {}, PLAYERS)
    ledger.record(game.id, {"kind": "income", "regions": {}})  # upkeep next
    app = WarledgerApp(ledger=ledger)
    running = app.run_test(size=(120, 40))
    pilot = await running.__aenter__()
    app.open_game(game.id)
    while not isinstance(app.focused, NumberGrid):
        await pilot.pause(0.01)
    await pilot.pause()
    return app, running, pilot


async def settled(app) -> None:
    """Every key handled and the last draft written."""
    await asyncio.sleep(0)
    while app.keys_waiting or not app._idle() or app.drafts.unwritten():
        await asyncio.sleep(0.0005)


async def typed(folder: Path) -> tuple[float, float]:
    """(CPU, wall) seconds per key, typing at a typist's pace."""
    keys = random.Random(TYPED).choices([*"0123" * 3, "tab", "space", "down", "up",
                                         "backspace"], k=TYPED)
    app, running, pilot = await opened(folder)
    try:
        cpu = wall = 0.0
        for key in keys:
            c0, w0 = time.process_time(), time.perf_counter()
            await pilot.press(key)
            await settled(app)
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            await asyncio.sleep(0.002)  # the typist's pause: outside the measure
    finally:
        await running.__aexit__(None, None, None)
    return cpu / TYPED, wall / TYPED


async def burst(folder: Path) -> tuple[float, int]:
    """(wall seconds, drafts written) for a burst of BURST keys."""
    from textual import events

    global writes
    keys = random.Random(BURST).choices([*"0123456789" * 3, "tab", " ", "."], k=BURST)
    app, running, pilot = await opened(folder)
    try:
        writes = 0
        t0 = time.perf_counter()
        for key in keys:
            app.post_message(events.Key(NAMES.get(key, key), key if key != "tab" else None))
        await settled(app)
        took = time.perf_counter() - t0
        written = writes
    finally:
        await running.__aexit__(None, None, None)
    return took, written


async def figures(folder: Path, drafts: bool) -> dict[str, float]:
    """One run of both scenarios, with drafts written or never."""
    with counted_writes():
        if drafts:
            cpu, wall = await typed(folder)
            took, written = await burst(folder)
        else:
            with no_drafts():
                cpu, wall = await typed(folder)
                took, written = await burst(folder)
    return {"cpu": cpu, "wall": wall, "burst": took, "writes": written}


async def measure(runs: int = 5) -> dict[str, tuple[float, float]]:
    """Each figure (with drafts, without), lower quartile of `runs`, interleaved."""
    runs_with: list[dict[str, float]] = []
    runs_without: list[dict[str, float]] = []

    async def ours(folder: Path) -> float:
        runs_with.append(await figures(folder, True))
        return runs_with[-1]["cpu"]

    async def theirs(folder: Path) -> float:
        runs_without.append(await figures(folder, False))
        return runs_without[-1]["cpu"]

    await interleaved(ours, theirs, runs, warm_up=True)
    runs_with.pop(0)  # the warm-up
    return {what: (lower_quartile([r[what] for r in runs_with]),
                   lower_quartile([r[what] for r in runs_without]))
            for what in ("cpu", "wall", "burst", "writes")}


def measure_now() -> dict[str, tuple[float, float]]:
    return asyncio.run(measure())


def main() -> int:
    figures = measure_now()
    cpu, wall, took, written = (figures[k] for k in ("cpu", "wall", "burst", "writes"))
    ratio = cpu[0] / cpu[1]
    holds = ratio <= MOST
    print(f"{TYPED} keys typed one at a time, CPU per key: drafts written {cpu[0] * 1000:.2f} ms;"
          f" never written {cpu[1] * 1000:.2f} ms; {ratio:.2f}x (at most {MOST:g}x) "
          f"{'PASS' if holds else 'FAIL'}")
    print(f"  ... wall time per key, the key handled and its draft written: "
          f"{wall[0] * 1000:.2f} ms; never written {wall[1] * 1000:.2f} ms; "
          f"{wall[0] / wall[1]:.2f}x")
    print(f"{BURST} keys in a burst, until settled and written: {took[0] * 1000:.0f} ms; "
          f"never written {took[1] * 1000:.0f} ms; {took[0] / took[1]:.2f}x; "
          f"{written[0]:.0f} drafts written for {BURST} keys")
    return 0 if holds else 1


if __name__ == "__main__":
    sys.exit(main())
