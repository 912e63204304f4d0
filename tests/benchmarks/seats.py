"""A four-player war's upkeep entered at once by the four seats, against one typist typing
the whole grid (issue 45), in one run:

- one typist: a terminal seating no one (80x24) types every power's armies, fleets and
  forts row by row (Tab past the tax tokens), then Enter;
- at once: four apps in this process, each seating one player at 40x20 (a phone), each
  type their own armies, fleets and forts and Enter, all four at the same time; the last
  part ready records the step.

Each is timed from the first key to the upkeep recorded in the ledger, twice: with the keys
at a person's pace (PACE seconds between two keys of one person: the four people type
side by side, the typist alone) and as fast as the apps take them (the machine's cost of
the parts: four apps sharing this process and its cores, their parts through the ledger).
Each scenario's recorded upkeep is checked against what was meant. Also printed: the keys
each seated player presses for their upkeep, and the typist's for the whole grid.

    uv run python tests/benchmarks/seats.py
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # pilot_pace: keys as a terminal hands them on

PACE = 0.3  # seconds between two keys of one person at the table (a steady typist)
PLAYERS = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"},
           {"name": "Cy", "power": "Austria"}, {"name": "Di", "power": "Russia"}]
# What each power has on the map at this upkeep (armies, fleets, forts): one digit each.
UNITS = {"France": (3, 1, 0), "Britain": (2, 4, 1), "Austria": (5, 0, 1), "Russia": (4, 0, 0)}
PHONE, LAPTOP = (40, 20), (80, 24)


def new_table(folder: Path) -> tuple[str, int]:
    """A database with a four-player game at war 1's upkeep; its URL and the game's id."""
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tests.at_head import new_database

    url = new_database(folder / "seats.db")
    regions = {"German States": [8, 5, 3], "Baltic": [6, 3], "Mediterranean": [7, 4, 2],
               "Central Europe": [6, 4, 2], "Ottoman Empire": [5, 3],
               "North America": [9, 5, 2], "Caribbean": [7, 4, 1], "South America": [5, 2],
               "Africa": [6, 3, 1], "India": [10, 6, 3], "East Indies": [8, 4]}
    game = Ledger(make_engine(url)).replay({
        "format": "warledger/1", "game": "soe", "title": "Seats",
        "settings": {"regions": regions},
        "players": [dict(p, gold=12, population=5) for p in PLAYERS],
        "steps": [{"kind": "income", "markers": {p["power"]: 2 for p in PLAYERS}}]})
    return url, game.id


def typist_keys() -> list[str]:
    """The whole grid, row by row: three digits (the cursor moves on by itself), Tab past
    the tax tokens to the next row, and Enter."""
    keys: list[str] = []
    for n, player in enumerate(PLAYERS):
        keys += [str(d) for d in UNITS[player["power"]]]
        if n < len(PLAYERS) - 1:
            keys.append("tab")
    return [*keys, "enter"]


def seat_keys(power: str) -> list[str]:
    """A seat's own part: three digits, then Enter."""
    return [*map(str, UNITS[power]), "enter"]


async def opened(app, pilot, game_id: int):
    from tui.games.soe.game import SoeGameScreen

    await pilot.pause()
    app.open_game(game_id)
    while not (isinstance(app.screen, SoeGameScreen) and app.screen.query("#form")
               and app.screen.form is not None and app.screen._form_ready is app.screen.form):
        await pilot.pause(0.01)
    return app.screen


async def type_keys(pilot, keys: list[str], pace: float) -> None:
    """The keys as a terminal hands them on (Pilot.press would wait for every app of the
    process to be idle after each), `pace` seconds apart (0: in one burst)."""
    from pilot_pace import key_event

    app = pilot.app
    for n, key in enumerate(keys):
        if n and pace:
            await asyncio.sleep(pace)
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)


async def until_recorded(ledger, game_id: int, seq: int) -> None:
    while ledger.head(game_id) == seq:
        await asyncio.sleep(0.01)


def check(ledger, game_id: int) -> None:
    """The upkeep recorded is the one meant: every power's units, one step."""
    steps = [s for s in ledger.export(game_id)["steps"] if s["kind"] == "upkeep"]
    assert len(steps) == 1, steps
    got = {p: tuple(u[k] for k in ("armies", "fleets", "fortresses"))
           for p, u in steps[0]["units"].items()}
    assert got == UNITS, got
    assert "missing" not in steps[0], steps[0]


async def one_typist(pace: float) -> float:
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.app import WarledgerApp

    with tempfile.TemporaryDirectory() as folder:
        url, game_id = new_table(Path(folder))
        ledger = Ledger(make_engine(url))
        app = WarledgerApp(ledger=Ledger(make_engine(url)))
        async with app.run_test(size=LAPTOP) as pilot:
            await opened(app, pilot, game_id)
            seq = ledger.head(game_id)
            start = time.perf_counter()
            await type_keys(pilot, typist_keys(), pace)
            await until_recorded(ledger, game_id, seq)
            took = time.perf_counter() - start
        check(ledger, game_id)
        return took


async def at_once(pace: float) -> float:
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.app import WarledgerApp

    with tempfile.TemporaryDirectory() as folder:
        url, game_id = new_table(Path(folder))
        ledger = Ledger(make_engine(url))
        async with contextlib.AsyncExitStack() as stack:
            seated = []
            for player in PLAYERS:
                app = WarledgerApp(ledger=Ledger(make_engine(url)), player=player["name"])
                pilot = await stack.enter_async_context(app.run_test(size=PHONE))
                await opened(app, pilot, game_id)
                seated.append((pilot, player["power"]))
            seq = ledger.head(game_id)
            start = time.perf_counter()
            await asyncio.gather(*(type_keys(pilot, seat_keys(power), pace)
                                   for pilot, power in seated))
            await until_recorded(ledger, game_id, seq)
            took = time.perf_counter() - start
        check(ledger, game_id)
        return took


def main() -> None:
    keys = {p["name"]: len(seat_keys(p["power"])) for p in PLAYERS}
    print(f"keys per seated player for an upkeep: {max(keys.values())} "
          f"(three digits and Enter; Enter alone when nothing moved on the map); "
          f"the one typist: {len(typist_keys())} for the whole grid")
    for pace, what in ((PACE, f"at a person's pace ({PACE} s a key)"),
                       (0.0, "as fast as the apps take the keys")):
        alone = asyncio.run(one_typist(pace))
        together = asyncio.run(at_once(pace))
        print(f"{what}: one typist {alone:.2f} s, the four seats at once {together:.2f} s; "
              f"at once takes {together / alone:.2f} of the typist's time "
              f"({alone / together:.1f}x faster)")


if __name__ == "__main__":
    main()
