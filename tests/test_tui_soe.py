"""Struggle of Empires at the table, by keys alone: a whole game, resume, undo and redo,
a refused entry, and two terminals on one game."""

from __future__ import annotations

import copy
import time

import pytest
from pilot_pace import pause_skips_the_live_look, typing, until  # noqa: F401 - a fixture

from storage.engine import make_engine
from storage.ledger import Ledger
from tui.games.soe.game import SoeGameScreen
from tui.screens.results import ResultsScreen
from tui.widgets.number_grid import NumberGrid

REGION_VALUES = {  # German States is the 2004 board; the rest are test values
    "German States": [8, 5, 3], "Baltic": [6, 3], "Mediterranean": [7, 4, 2],
    "Central Europe": [6, 4, 2], "Ottoman Empire": [5, 3], "North America": [9, 5, 2],
    "Caribbean": [7, 4, 1], "South America": [5, 2], "Africa": [6, 3, 1],
    "India": [10, 6, 3], "East Indies": [8, 4],
}
REGIONS = list(REGION_VALUES)
PLAYERS = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"},
           {"name": "Cy", "power": "Austria"}, {"name": "Di", "power": "Russia"}]
# Grid columns: the players' powers in seat order, then the non-player powers.
COLUMNS = ["France", "Britain", "Austria", "Russia", "Prussia", "Spain", "United Provinces"]

# Three wars: markers per region at income (scoring reuses them), units at upkeep and the
# unrest tokens of each taxation.
WARS = [
    {"regions": {"German States": {"France": 2, "Austria": 2, "Prussia": 1},
                 "Baltic": {"Russia": 3, "Prussia": 3},
                 "India": {"Britain": 2, "France": 1}},
     "units": {"France": [3, 1, 0], "Britain": [2, 4, 1], "Austria": [5, 0, 1],
               "Russia": [4, 0, 0]},
     "taxes": {}},
    {"regions": {"German States": {"France": 3, "Austria": 1},
                 "Mediterranean": {"Spain": 2, "France": 1, "Britain": 1},
                 "North America": {"Britain": 3, "France": 2},
                 "Central Europe": {"Austria": 4, "Russia": 1}},
     "units": {"France": [12, 4, 2], "Britain": [3, 8, 2], "Austria": [9, 0, 3],
               "Russia": [30, 0, 0]},
     "taxes": {"Russia": [2, 1, 3]}},
    {"regions": {"Africa": {"France": 1, "Britain": 1, "Russia": 1},
                 "East Indies": {"Britain": 4},
                 "Ottoman Empire": {"Russia": 2, "Austria": 2},
                 "India": {"Britain": 3, "France": 3, "Austria": 1}},
     "units": {"France": [6, 2, 1], "Britain": [4, 6, 2], "Austria": [7, 0, 2],
               "Russia": [40, 0, 0]},
     "taxes": {"Russia": [3, 3, 2, 2, 1, 1, 1, 1, 2, 2, 1, 3, 2, 1]}},
]


def session_file() -> dict:
    """The same game as a session file, as `warledger replay` reads it."""
    steps = []
    for war, plan in enumerate(WARS, 1):
        steps.append({"kind": "income", "regions": plan["regions"]})
        steps.append({"kind": "upkeep",
                      "units": {p: dict(zip(("armies", "fleets", "fortresses"), u, strict=True))
                                for p, u in plan["units"].items()},
                      "taxes": plan["taxes"]})
        steps += [{"kind": "population"}, {"kind": "scoring"}]
        steps.append({"kind": "end_war" if war < 3 else "end_game"})
    # A copy each time: tests change the names in theirs (test_tui_hostile), and the module's
    # PLAYERS changed under them gave every later test of the worker their names.
    return copy.deepcopy({"format": "warledger/1", "game": "soe", "title": "Friday",
                          "settings": {"regions": REGION_VALUES}, "players": PLAYERS,
                          "steps": steps})


def new_game(table, steps: int = 0) -> int:
    """A game stored at the table with the first `steps` steps of the session file."""
    data = session_file()
    data["steps"] = data["steps"][:steps]
    return table.ledger().replay(data).id


class Keys:
    """Types into the focused grid as a player would: the cursor walks by arrows from where
    it is to the cell, then the digits (`=` first for 10 or more in a one-digit column).
    A cell's keys go in one burst, as a quick typist's (pilot_pace.typing)."""

    def __init__(self, pilot) -> None:
        self.pilot = pilot

    async def cell(self, row: str, column: str, value: int | list[int]) -> None:
        grid = self.pilot.app.focused
        r, c = grid.cursor_coordinate
        row_at = grid.row_keys.index(row)
        col_at = 1 + [col.key for col in grid.grid_columns].index(column)
        moves = (["down"] * (row_at - r) + ["up"] * (r - row_at)
                 + ["right"] * (col_at - c) + ["left"] * (c - col_at))
        if isinstance(value, list):
            digits = [str(t) for t in value]
        elif grid.grid_columns[col_at - 1].quick and value >= 10:
            digits = ["equals_sign", *str(value)]
        else:
            digits = list(str(value))
        await typing(self.pilot, *moves, *digits)

    async def change(self, wanted: dict[str, dict[str, int]]) -> None:
        """Every cell of the grid as `wanted` has it (0 where it says nothing): only the
        cells that differ from what the grid carried over are typed."""
        grid = self.pilot.app.focused
        for row in grid.row_keys:
            for column in grid.grid_columns:
                if column.tokens:
                    continue
                value = wanted.get(row, {}).get(column.key, 0)
                if grid.value(row, column.key) != value:
                    await self.cell(row, column.key, value)


UNIT_KINDS = ("armies", "fleets", "fortresses")


async def play_war(pilot, plan: dict, last: bool) -> None:
    keys = Keys(pilot)  # income: the region grid, from the last war's markers
    # The war's form takes the focus once it is composed (its Ready), not with the step.
    await until(pilot, lambda: isinstance(pilot.app.focused, NumberGrid), "the income grid")
    shown = {c.key for c in pilot.app.focused.grid_columns}
    if any(p not in shown for row in plan["regions"].values() for p in row):
        await pilot.press("ctrl+l")  # the non-player powers' columns
        await pilot.pause()
    await keys.change(plan["regions"])
    await pilot.press("enter")
    await pilot.pause()
    # upkeep: armies, fleets, fortresses (from the last upkeep), tax tokens
    await keys.change({p: dict(zip(UNIT_KINDS, u, strict=True)) for p, u in plan["units"].items()})
    for power, tokens in plan["taxes"].items():
        await keys.cell(power, "tokens", tokens)
    await pilot.press("enter")  # upkeep; population and scoring follow by themselves
    await pilot.pause()
    assert pilot.app.screen.state.phase == ("end_game" if last else "end_war")
    if not last:
        await pilot.press("a")  # every item of the checklist done: the next war
    else:
        await pilot.press("enter")  # end of game
    await pilot.pause()


async def open_first_game(pilot) -> None:
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def pause_until(pilot, condition, seconds: float, *, wait=None) -> bool:
    """Whether `condition()` holds within `seconds`: a wait as short as the app allows.
    Between two looks, `wait()` (default: pilot.pause, which also waits for the ledger)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await (wait() if wait else pilot.pause(0.02))
    return True


def drafted(ledger, session_id: int) -> dict:
    """The form of the draft stored with the game ({} while there is none)."""
    return (ledger.draft(session_id) or {}).get("form") or {}


# The games are set up through the ledger (new_game) and opened where each test needs them;
# only the first test plays a whole game by keys. pilot.pause() leaves out the live look
# (pilot_pace), but for the test of that look.
quick = pytest.mark.usefixtures("pause_skips_the_live_look")


@quick
async def test_whole_game_by_keys_matches_replay(table, tmp_path):
    session_id = new_game(table)
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_game(pilot)
        assert isinstance(app.screen, SoeGameScreen)
        for war, plan in enumerate(WARS, 1):
            await play_war(pilot, plan, last=war == 3)
        assert isinstance(app.screen, ResultsScreen)
        played = app.ledger.load(session_id).report().to_json()
    replayed = Ledger(make_engine(str(tmp_path / "replay.db"))).replay(session_file()).report().to_json()
    assert played["status"] == "finished"
    assert played == replayed
    # The game ends with Russia's 23 unrest in revolution: the file says so too.
    russia = next(r for r in played["standings"] if r["power"] == "Russia")
    assert russia["revolution"] is True and russia["final_vp"] == 0


@quick
async def test_refused_upkeep_writes_nothing_and_the_refusal_goes_once_put_right(table):
    session_id = new_game(table, steps=1)  # income of war 1 recorded: upkeep is next
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_game(pilot)
        head = app.ledger.head(session_id)
        keys = Keys(pilot)
        await keys.cell("France", "armies", 40)  # 40 armies with 18 gold, no tax tokens
        await pilot.press("enter")  # refused
        await pilot.pause()

        def message() -> str:
            return str(app.screen.query_one("#message").render())

        assert "France must pay 40 upkeep with 18 gold: 11 taxations needed, 0 given" in message()
        assert app.ledger.head(session_id) == head
        assert app.screen.game.state.phase == "upkeep"
        await pilot.press("backspace", "backspace", "5")  # 5 armies: nothing to refuse now
        await pilot.pause()
        assert message() == ""


@quick
async def test_undo_and_redo_by_keys(table):
    session_id = new_game(table, steps=2)  # income and upkeep of war 1
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_game(pilot)
        before = app.screen.game.report().to_json()
        await pilot.press("enter")  # population, then scoring by itself
        await pilot.pause()
        after = app.screen.game.report().to_json()
        assert app.screen.game.state.phase == "end_war"
        for _ in range(2):  # one step back at a time: each waits for the last
            await pilot.press("ctrl+z")
            await pilot.pause()
        assert app.screen.game.state.phase == "population"
        assert app.screen.game.report().to_json() == before
        for _ in range(2):
            await pilot.press("ctrl+y")
            await pilot.pause()
        assert app.screen.game.report().to_json() == after
    kinds = [kind for _, kind, _ in table.ledger().authors(session_id)]
    assert kinds[-6:] == ["population", "scoring", "undo", "undo", "redo", "redo"]


@quick
async def test_resume_lands_on_the_same_step_with_the_typing_kept(table):
    session_id = new_game(table, steps=5)  # war 1 is over: war 2's actions
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_game(pilot)
        keys = Keys(pilot)
        await keys.cell("German States", "France", 3)  # not confirmed
        ledger = table.ledger()  # the draft is written by a worker, a moment later
        assert await pause_until(pilot, lambda: drafted(ledger, session_id).get(
            "values", {}).get("German States", {}).get("France") == 3, seconds=5)
        totals = app.screen.game.report().to_json()
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_game(pilot)
        screen = app.screen
        assert isinstance(screen, SoeGameScreen)
        assert (screen.game.state.war, screen.game.state.phase) == (2, "actions")
        assert screen.game.report().to_json() == totals
        assert screen.form.grid.value("German States", "France") == 3
        assert app.ledger.head(session_id) == 5


async def test_a_step_recorded_elsewhere_shows_within_a_second(table):
    session_id = new_game(table, steps=2)
    first, second = table.app(), table.app()
    async with first.run_test(size=(120, 40)) as p1, second.run_test(size=(120, 40)) as p2:
        await open_first_game(p1)
        await open_first_game(p2)
        assert second.screen.game.state.phase == "population"
        await p1.press("enter")  # population (and scoring by itself), on the first terminal
        await p1.pause()
        assert await pause_until(p2, lambda: second.screen.game.state.phase == "end_war",
                                 seconds=1.0)
        assert second.screen.game.seq == first.ledger.head(session_id) == 4


@quick
async def test_help_lists_the_keys_of_the_step(table):
    new_game(table, steps=1)
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_game(pilot)
        await pilot.press("f1")
        await pilot.pause()
        text = app.export_screenshot().replace("&#160;", " ")
        assert "War 1 of 3, upkeep" in text
        assert "Taxation" in text and "Undo" in text and "ctrl+z" in text
        await pilot.press("escape")
        assert isinstance(app.screen, SoeGameScreen)


@quick
async def test_the_player_at_this_terminal_is_named_and_signs_the_steps(table):
    session_id = new_game(table, steps=2)
    app = table.app(player="Bo")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_game(pilot)
        assert app.screen.sub_title.endswith("you are Bo")
        await pilot.press("enter")  # population, and scoring by itself
        await pilot.pause()
    assert table.ledger().authors(session_id)[-2:] == [(3, "population", "Bo"),
                                                       (4, "scoring", "Bo")]
