"""The home screen with a long history (issue 48): the games played last at once, the rest
as the player scrolls, a search typed at once (`/`), and the list still following other
terminals. Pages of 5 here (storage.listing.PAGE), so a few games make several, and the
list scrolls at 80x24 past 20 or so (a page more is read as long as what is listed fits
with room to spare)."""

from __future__ import annotations

import pytest
from test_tui_soe import pause_until
from textual.widgets import DataTable

import storage.listing
import tui.screens.home
from tui.app import WarledgerApp

SIZE = (80, 24)
SOON = 10  # seconds: far longer than any of it takes
SOE = [{"name": "[b]Ana[/b]", "power": "France"}, {"name": "Bo[/]", "power": "Britain"}]
RISK = [{"name": "Cy", "color": "red"}, {"name": "Dana", "color": "blue"}]


@pytest.fixture(autouse=True)
def _pages_of_five(monkeypatch):
    monkeypatch.setattr(storage.listing, "PAGE", 5)
    monkeypatch.setattr(tui.screens.home, "LOAD_AHEAD", 2, raising=False)


@pytest.fixture
def sqlite_ledger(tmp_path):
    from storage.service import open_ledger

    ledger = open_ledger(str(tmp_path / "home.db"))
    yield ledger
    ledger.engine.dispose()


def titles(app) -> list[str]:
    table = app.screen.query_one("#games", DataTable)
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


def night(ledger, i: int):
    return ledger.create_game("soe", f"Night {i}", {}, SOE)


async def test_the_newest_games_first_and_more_as_the_cursor_goes_down(sqlite_ledger):
    for i in range(60):
        night(sqlite_ledger, i)
    app = WarledgerApp(ledger=sqlite_ledger)
    async with app.run_test(size=SIZE) as pilot:
        assert await pause_until(pilot, lambda: len(titles(app)) >= 5, SOON)
        await pilot.pause()
        first = len(titles(app))
        assert first < 60 and first % 5 == 0  # pages of the newest, not every game
        assert titles(app) == [f"Night {i}" for i in range(59, 59 - first, -1)]
        table = app.screen.query_one("#games", DataTable)
        await pilot.press(*["down"] * (first - 1))  # to the last listed
        assert await pause_until(pilot, lambda: len(titles(app)) > first, SOON)
        assert table.cursor_row == first - 1  # the cursor stayed where it went
        await pilot.press(*["down"] * 60)
        assert await pause_until(pilot, lambda: len(titles(app)) == 60, SOON)
        assert titles(app) == [f"Night {i}" for i in range(59, -1, -1)]
        assert table.cursor_row == 59


async def test_scrolling_the_list_brings_the_next_page(sqlite_ledger):
    for i in range(60):
        night(sqlite_ledger, i)
    app = WarledgerApp(ledger=sqlite_ledger)
    async with app.run_test(size=SIZE) as pilot:
        assert await pause_until(pilot, lambda: len(titles(app)) >= 5, SOON)
        await pilot.pause()
        count = len(titles(app))
        assert count < 60
        table = app.screen.query_one("#games", DataTable)
        table.scroll_end(animate=False)  # the wheel, without moving the cursor
        assert await pause_until(pilot, lambda: len(titles(app)) > count, SOON)
        assert table.cursor_row == 0


async def type_search(pilot, text: str) -> None:
    await pilot.press("slash", *[{" ": "space"}.get(c, c) for c in text])


async def test_a_search_by_title_player_game_group_and_status(sqlite_ledger):
    ledger = sqlite_ledger
    for i in range(6):
        night(ledger, i)
    ledger.create_game("risk", "Conquest", {"mode": "conquest"}, RISK)
    away = ledger.create_game("soe", "Sunday", {}, SOE)
    ledger.add_group("Cousins")
    ledger.move_game(away.id, "Cousins")
    done = ledger.replay({
        "format": "warledger/1", "game": "risk", "title": "Done", "settings":
        {"mode": "fixed_rounds", "rounds": 1}, "players": RISK,
        "steps": [{"kind": "round", "positions": {
            "Cy": {"territories": 30, "armies": 40, "continents": []},
            "Dana": {"territories": 12, "armies": 20, "continents": []}}}]})
    ledger.move_game(done.id, "Our table")
    app = WarledgerApp(ledger=ledger)
    async with app.run_test(size=SIZE) as pilot:
        assert await pause_until(pilot, lambda: len(titles(app)) >= 5, SOON)
        await pilot.pause()
        first = titles(app)

        async def search(text: str, expected: list[str]) -> None:
            await type_search(pilot, text)
            assert await pause_until(pilot, lambda: titles(app) == expected, SOON), (
                text, titles(app))
            await pilot.press("escape")  # cleared: every game again, the newest first
            assert await pause_until(pilot, lambda: titles(app) == first, SOON)
            assert not app.screen.query_one("#search").display

        await search("night 3", ["Night 3"])  # a title
        await search("dana", ["Done", "Conquest"])  # a player
        await search("[b]ana[/b] sun", ["Sunday"])  # a player written in markup, and a title
        await search("risk", ["Done", "Conquest"])  # a game, by its name
        await search("struggle cous", ["Sunday"])  # a game and a group
        await search("finished", ["Done"])  # a status
        await search("in progress risk", ["Conquest"])

        # Nothing found: said, with the search as typed (markup and all) and how to clear it.
        await type_search(pilot, "bo[/] zz")
        assert await pause_until(pilot, lambda: app.screen.games_listed == 0, SOON)
        said = str(app.screen.query_one("#empty").render())
        assert "“bo[/] zz”" in said and "esc" in said
        # Enter goes on to the list; Esc from there clears the search too.
        await pilot.press("backspace", "backspace", "backspace", "enter")
        assert await pause_until(pilot, lambda: titles(app)[:1] == ["Sunday"], SOON)
        assert isinstance(app.focused, DataTable)
        await pilot.press("escape")
        assert await pause_until(pilot, lambda: titles(app) == first, SOON)


async def test_the_pages_listed_follow_another_terminal(make_ledger):
    mine, theirs = make_ledger(), make_ledger()
    for i in range(60):
        night(mine, i)
    app = WarledgerApp(ledger=mine)
    async with app.run_test(size=SIZE) as pilot:
        assert await pause_until(pilot, lambda: len(titles(app)) >= 5, SOON)
        await pilot.pause()
        first = len(titles(app))
        await pilot.press(*["down"] * first)
        assert await pause_until(pilot, lambda: len(titles(app)) > first, SOON)
        await pilot.pause()
        listed = titles(app)
        assert len(listed) < 60
        theirs.create_game("soe", "Theirs", {}, SOE)
        assert await pause_until(pilot, lambda: titles(app)[:1] == ["Theirs"], SOON)
        # As many games as were listed (read again in one statement), theirs on top.
        assert titles(app) == ["Theirs", *listed[:-1]]
        # Searching, the list follows too: their game comes when it matches.
        await type_search(pilot, "later")
        assert await pause_until(pilot, lambda: app.screen.games_listed == 0, SOON)
        theirs.create_game("risk", "Later", {"mode": "conquest"}, RISK)
        assert await pause_until(pilot, lambda: titles(app) == ["Later"], SOON)
