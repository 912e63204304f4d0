"""What keeping keys in order costs: 200 keys of a burst (digits, Tab, Space, `.`) posted to
the app at once, in the income grid of a Struggle of Empires game, until every key has
settled (tui/plumbing/key_order.py), against the same keys posted straight to the grid, as Textual
delivers them without the order kept, until the screen has handled them. Both are timed in
the same process, interleaved, lower quartile of the runs.

    uv run python tests/benchmarks/burst.py
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

from side_by_side import interleaved, verdict

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

KEYS = 200
MOST = 5.0  # the burst in order may take at most this many times the straight delivery
PLAYERS = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"},
           {"name": "Cy", "power": "Austria"}, {"name": "Di", "power": "Russia"}]


async def one_burst(folder: Path, in_order: bool) -> float:
    from textual import events

    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.app import WarledgerApp

    ledger = Ledger(make_engine(f"sqlite:///{folder / f'{time.monotonic_ns()}.db'}"))
    game = ledger.create_game("soe", "Burst", {}, PLAYERS)
    app = WarledgerApp(ledger=ledger)
    keys = random.Random(KEYS).choices([*"0123456789" * 3, "tab", " ", "."], k=KEYS)
    names = {" ": "space", ".": "full_stop"}
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_game(game.id)
        while app.focused is None or type(app.focused).__name__ != "NumberGrid":
            await pilot.pause(0.01)
        grid = app.focused
        t0 = time.perf_counter()
        for key in keys:
            event = events.Key(names.get(key, key), key if key != "tab" else None)
            if in_order:
                app.post_message(event)
            else:
                event._set_forwarded()  # as Textual hands a key on: to the widget's queue
                grid.post_message(event)
        await asyncio.sleep(0)
        while app.keys_waiting or not app._idle():
            await asyncio.sleep(0.0005)
        took = time.perf_counter() - t0
        await pilot.pause(0.2)
    return took


async def measure(runs: int = 5) -> tuple[float, float]:
    """(in order, straight): seconds for the burst to settle, lower quartile."""
    return await interleaved(lambda folder: one_burst(folder, True),
                             lambda folder: one_burst(folder, False), runs)


def main() -> int:
    ordered, straight = asyncio.run(measure())
    return verdict(f"{KEYS} keys in a burst, kept in order", ordered, "straight to the grid",
                   straight, MOST)


if __name__ == "__main__":
    sys.exit(main())
