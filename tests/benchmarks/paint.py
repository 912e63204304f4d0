"""What a typed key costs to paint: 120 keys typed one at a time into the upkeep grid of a
4-player Struggle of Empires game, the screen painted after each (as a terminal shows a
player's typing), CPU time of the whole. Measured as the app paints (a grid paints a cell
again only when it changed, the totals table is built again only when its numbers change)
against Textual's own way (every cell of both tables painted again after any change), in
the same process, interleaved, lower quartile of the runs.

    uv run python tests/benchmarks/paint.py
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from side_by_side import interleaved, verdict

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

KEYS = 120
MOST = 0.8  # the app's way may take at most this much of Textual's own
PLAYERS = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"},
           {"name": "Cy", "power": "Austria"}, {"name": "Di", "power": "Russia"}]


@contextmanager
def textuals_own_painting():
    """Every cell painted again after any change, and the totals built at every preview."""
    from textual.widgets import DataTable

    from tui.widgets import totals
    from tui.widgets.kept_cells import KeptCellsTable

    kept_cells, drawing = KeptCellsTable._render_cell, totals.drawing
    KeptCellsTable._render_cell = DataTable._render_cell
    totals.drawing = lambda text: object()  # never what was drawn: built again each time
    try:
        yield
    finally:
        KeptCellsTable._render_cell, totals.drawing = kept_cells, drawing


async def one_run(folder: Path, kept: bool) -> float:
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.app import WarledgerApp
    from tui.widgets.number_grid import NumberGrid

    ledger = Ledger(make_engine(f"sqlite:///{folder / f'{time.monotonic_ns()}.db'}"))
    game = ledger.create_game("soe", "Paint", {}, PLAYERS)
    ledger.record(game.id, {"kind": "income", "regions": {}})  # upkeep next: units, and taxes to preview
    app = WarledgerApp(ledger=ledger)
    keys = random.Random(KEYS).choices([*"0123" * 3, "tab", "space", "down", "up",
                                        "backspace"], k=KEYS)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_game(game.id)
        while not isinstance(app.focused, NumberGrid):
            await pilot.pause(0.01)
        await pilot.pause()
        app.screen._on_timer_update()
        t0 = time.process_time()
        for key in keys:
            await pilot.press(key)
            app.screen._on_timer_update()  # paint what the key changed, as a terminal would
        took = time.process_time() - t0
    return took


async def measure(runs: int = 5) -> tuple[float, float]:
    """(kept, Textual's own): CPU seconds for the keys, lower quartile."""
    async def textuals_own(folder: Path) -> float:
        with textuals_own_painting():
            return await one_run(folder, False)

    return await interleaved(lambda folder: one_run(folder, True), textuals_own, runs)


def main() -> int:
    kept, own = asyncio.run(measure())
    return verdict(f"{KEYS} keys typed and painted in the upkeep grid, CPU", kept,
                   "every cell painted again", own, MOST)


if __name__ == "__main__":
    sys.exit(main())
