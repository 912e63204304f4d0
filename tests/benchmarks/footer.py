"""What the footer costs a player: the app opened on a table with a saved game, the game
opened, its help shown and closed, the focus moved around its fields, and back home, CPU
time of the whole. Measured with the footer as the app builds it (its keys built again only
when what they show changed, each styled once) against Textual's own way (every key built
again at each change of the screen's bindings, each styled three times), in the same
process, interleaved, lower quartile of the runs.

    uv run python tests/benchmarks/footer.py
"""

from __future__ import annotations

import asyncio
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from side_by_side import interleaved, verdict

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

VISITS = 3  # the game opened, its help, its fields and home again, this many times an app
MOST = 0.8  # the app's way may take at most this much of Textual's own
PLAYERS = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"},
           {"name": "Cy", "power": "Austria"}, {"name": "Di", "power": "Russia"}]


@contextmanager
def textuals_own_footer():
    """Every key built again at each bindings signal, and styled as Textual styles it."""
    from textual.widgets import Footer as TextualFooter

    from tui.widgets.footer import Footer

    kept = Footer.bindings_changed, Footer._in_its_look
    Footer.bindings_changed = TextualFooter.bindings_changed
    Footer._in_its_look = lambda self, key: None  # compact, then bound: styled thrice
    try:
        yield
    finally:
        Footer.bindings_changed, Footer._in_its_look = kept


async def one_run(folder: Path) -> float:
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.app import WarledgerApp
    from tui.screens.game import GameScreen
    from tui.screens.help import HelpScreen
    from tui.screens.home import HomeScreen

    ledger = Ledger(make_engine(f"sqlite:///{folder / f'{time.monotonic_ns()}.db'}"))
    game = ledger.create_game("soe", "Footer", {}, PLAYERS)
    ledger.record(game.id, {"kind": "income", "regions": {}})  # upkeep: a grid of fields

    async def until(pilot, kind: type) -> None:
        deadline = time.monotonic() + 30
        while not isinstance(pilot.app.screen, kind):
            if time.monotonic() > deadline:
                raise SystemExit(f"waited 30 s for {kind.__name__}: {pilot.app.screen!r}")
            await pilot.pause(0.005)
        await pilot.pause()

    t0 = time.process_time()
    app = WarledgerApp(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, HomeScreen)
        for _ in range(VISITS):
            app.open_game(game.id)
            await until(pilot, GameScreen)
            await pilot.press("f1")
            await until(pilot, HelpScreen)
            await pilot.press("escape")
            await until(pilot, GameScreen)
            for key in ("tab", "tab", "shift+tab", "tab"):
                await pilot.press(key)
            await pilot.press("ctrl+o")  # the saved games
            await until(pilot, HomeScreen)
    return time.process_time() - t0


async def measure(runs: int = 5) -> tuple[float, float]:
    """(the app's footer, Textual's own): CPU seconds, lower quartile."""
    async def textuals_own(folder: Path) -> float:
        with textuals_own_footer():
            return await one_run(folder)

    return await interleaved(one_run, textuals_own, runs, warm_up=True)


def main() -> int:
    ours, own = asyncio.run(measure())
    return verdict(f"The app opened; a game, its help and fields {VISITS} times, CPU", ours,
                   "Textual's own footer", own, MOST)


if __name__ == "__main__":
    sys.exit(main())
