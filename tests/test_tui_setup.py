"""Pilot tests of the new-game setup, the board profile editor and the league, by keys alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from textual.widgets import DataTable, Static

from rules.soe import REGIONS
from storage.ledger import Ledger
from tui.app import WarledgerApp
from tui.games.soe.board import BUILTIN_PROFILE, BoardProfileScreen
from tui.games.soe.setup import NewSoeGameScreen
from tui.screens.home import HomeScreen
from tui.screens.league import EMPTY, LeagueScreen

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

DATA = Path(__file__).parent / "data"
KEY_NAMES = {" ": "space", "'": "apostrophe", "-": "minus"}


@pytest.fixture
def ledger(table) -> Ledger:
    """A ledger on the table's SQLite file (the shared `ledger` runs on PostgreSQL too)."""
    return table.ledger()


@pytest.fixture
def opened(monkeypatch) -> list[int]:
    """Games the home screen was asked to open; the game screen itself is not under test."""
    calls: list[int] = []
    monkeypatch.setattr(WarledgerApp, "open_game",
                        lambda app, session_id: calls.append(session_id))
    return calls


async def type_text(pilot, text: str) -> None:
    await pilot.press(*(KEY_NAMES.get(c, c) for c in text))


async def choose(pilot, moves: list[str]) -> None:
    """Open the focused Select, move in its list, take the option."""
    await pilot.press("enter", *moves, "enter")


async def open_from_home(pilot, key: str, screen: type) -> None:
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(pilot.app.screen, screen)


def message(app) -> str:
    return str(app.screen.query_one("#message", Static).render())


# ---------------------------------------------------------------- new game

async def test_new_soe_game_by_keys(table, ledger, opened):
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "n", NewSoeGameScreen)
        assert app.focused.id == "title"
        await type_text(pilot, "Friday at Ana's")  # the prefilled date is selected: replaced
        await pilot.press("tab")
        await type_text(pilot, "Ana")
        await pilot.press("tab")
        await choose(pilot, ["down", "down"])  # Austria -> France
        await pilot.press("tab")
        await type_text(pilot, "Bo")
        await pilot.press("tab", "tab")  # Britain stays
        await type_text(pilot, "Cy")
        await pilot.press("tab")
        await choose(pilot, ["up", "up"])  # France -> Austria
        await pilot.press("tab")
        await type_text(pilot, "Di")
        await pilot.press("tab")
        await choose(pilot, ["down"])  # Prussia -> Russia
        # rows 5 to 7 stay empty; then gold, population, gold per taxation, friendly ties
        await pilot.press(*["tab"] * 7)
        assert app.focused.id == "gold"
        await pilot.press("ctrl+a", "ctrl+k", "1", "2")
        await pilot.press("tab", "tab", "tab")
        assert app.focused.id == "friendly-ties"
        await choose(pilot, ["down"])  # split -> full
        await pilot.pause()
        assert "each tied power gets" in str(app.screen.query_one("#friendly-ties-why",
                                                                   Static).render())
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)

    games = ledger.games()
    assert [g.title for g in games] == ["Friday at Ana's"]
    assert opened == [games[0].id]
    game = ledger.load(games[0].id)
    assert [(s.name, s.power, s.gold, s.population) for s in game.seats] == [
        ("Ana", "France", 12, 5), ("Bo", "Britain", 12, 5),
        ("Cy", "Austria", 12, 5), ("Di", "Russia", 12, 5)]
    settings = game.settings.to_json()
    assert settings["friendly_ties"] == "full"
    assert settings["unfriendly_ties"] == "demote"
    assert settings["unrest_ranking"] == "distinct"
    assert settings["gold_per_tax"] == 2
    assert settings["board"] == BUILTIN_PROFILE
    assert settings["regions"]["German States"] == [8, 5, 3]
    assert game.settings.regions_missing_values == list(REGIONS[1:])
    # the built-in board is kept once a game used it
    assert ledger.board_profiles()[BUILTIN_PROFILE]["German States"] == [8, 5, 3]


async def test_refused_setup_is_told_and_stores_nothing(table, ledger, opened):
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "n", NewSoeGameScreen)
        await pilot.press("tab")
        await type_text(pilot, "Ana")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Name at least 2 players" in message(app)

        await pilot.press("tab", "tab")
        await type_text(pilot, "Bo")
        await pilot.press("tab")
        await choose(pilot, ["up"])  # Britain -> Austria, which Ana already plays
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, NewSoeGameScreen)
        assert message(app) == "Ana and Bo both play Austria"
        assert ledger.games() == []

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
    assert ledger.games() == [] and opened == []


def held(ledger, method: str, monkeypatch):
    """`ledger.<method>` held until the returned event is set: the keys typed behind a
    ctrl+s arrive while what it asked for is being stored."""
    import threading

    go_on = threading.Event()
    work = getattr(ledger, method)

    def slow(*args, **kwargs):
        assert go_on.wait(30)
        return work(*args, **kwargs)

    monkeypatch.setattr(ledger, method, slow)
    return go_on


async def fill_two_players(pilot) -> None:
    await pilot.press("tab")
    await type_text(pilot, "Ana")
    await pilot.press("tab", "tab")
    await type_text(pilot, "Bo")


async def test_ctrl_s_twice_creates_one_game(table, ledger, opened, monkeypatch):
    """A doubled ctrl+s (a bouncing key, an impatient player) while the first is stored."""
    from pilot_pace import shows, typing

    go_on = held(ledger, "create_game", monkeypatch)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "n", NewSoeGameScreen)
        await fill_two_players(pilot)
        await typing(pilot, "ctrl+s", "ctrl+s")
        assert isinstance(app.screen, NewSoeGameScreen)  # the game is on its way
        go_on.set()
        await shows(pilot, HomeScreen)
    games = ledger.games()
    assert len(games) == 1
    assert opened == [games[0].id]


async def test_escape_typed_behind_start_goes_home_with_the_game_listed(table, ledger, opened,
                                                                        monkeypatch):
    """ctrl+s then Escape in one burst: the game is created, as the first key asked, and
    Escape goes home instead of into it; home lists it (it went back before the game was
    stored, and listed the games without it)."""
    from pilot_pace import shows, typing, until

    go_on = held(ledger, "create_game", monkeypatch)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "n", NewSoeGameScreen)
        await fill_two_players(pilot)
        await typing(pilot, "ctrl+s", "escape")
        assert isinstance(app.screen, NewSoeGameScreen)
        go_on.set()
        await shows(pilot, HomeScreen)
        listed = app.screen.query_one("#games", DataTable)
        await until(pilot, lambda: listed.row_count == 1, "the new game on the home screen")
    assert len(ledger.games()) == 1
    assert opened == []


async def test_names_from_earlier_games_are_offered(table, ledger, opened):
    ledger.replay(finished_soe("Earlier", winner="France"))
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "n", NewSoeGameScreen)
        await pilot.press("tab", "A", "right")  # → takes the name offered
        await pilot.pause()
        assert app.focused.value == "Ana"


# ---------------------------------------------------------------- board profiles

async def test_board_profile_edited_by_keys(table, ledger):
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "b", BoardProfileScreen)
        assert app.focused.id == "values"
        await pilot.press("down", "6", "tab", "3")  # Baltic 6/3
        await pilot.press("down", "shift+tab", "7", "tab", "4", "tab", "2")  # Mediterranean
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert message(app).startswith(f"Saved {BUILTIN_PROFILE}.")

        # values that are not highest first are refused, and nothing changes
        await pilot.press("down", "shift+tab", "shift+tab", "4", "tab", "7")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert message(app) == "Central Europe's values must be whole numbers, highest " \
                               "first: [4, 7]"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)

    regions = ledger.board_profiles()[BUILTIN_PROFILE]
    assert regions["German States"] == [8, 5, 3]
    assert regions["Baltic"] == [6, 3]
    assert regions["Mediterranean"] == [7, 4, 2]
    assert regions["Central Europe"] == []


async def test_board_edited_from_setup_and_chosen(table, ledger, opened):
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "n", NewSoeGameScreen)
        await pilot.press("tab", "tab")
        assert app.focused.id == "power-1"
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, BoardProfileScreen)
        await pilot.press("ctrl+n")  # a second board, from the public values
        await type_text(pilot, "Our copy")
        await pilot.press("enter")  # back to the grid
        await pilot.press("down", "5", "tab", "2")
        await pilot.press("ctrl+s", "escape")
        await pilot.pause()
        assert isinstance(app.screen, NewSoeGameScreen)
        assert app.screen.query_one("#board").value == "Our copy"
        status = str(app.screen.query_one("#board-status", Static).render())
        assert status.startswith("Mediterranean, Central Europe")
        assert "Baltic" not in status
    assert ledger.board_profiles()["Our copy"]["Baltic"] == [5, 2]


async def test_escape_typed_behind_a_save_goes_back_with_the_board_saved(table, ledger,
                                                                        monkeypatch):
    """ctrl+s then Escape in one burst (busy run 3 of 1ea913c: Escape went back before the
    save was stored, so the setup kept the old board): back once it is stored, with it."""
    from pilot_pace import shows, typing

    stored = held(ledger, "save_board_profile", monkeypatch)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "n", NewSoeGameScreen)
        await pilot.press("tab", "tab", "e")
        await shows(pilot, BoardProfileScreen)
        await pilot.press("ctrl+n")
        await type_text(pilot, "Our copy")
        await typing(pilot, "enter", "ctrl+s", "escape")
        assert isinstance(app.screen, BoardProfileScreen)  # the save is on its way
        stored.set()
        await shows(pilot, NewSoeGameScreen)
        assert app.screen.query_one("#board").value == "Our copy"
    assert "Our copy" in ledger.board_profiles()


# ---------------------------------------------------------------- league

def finished_soe(title: str, *, winner: str) -> dict:
    """A three-war game where `winner` holds German States alone every war."""
    players = [("Ana", "France"), ("Bo", "Britain"), ("Cy", "Austria"), ("Di", "Russia")]
    powers = [p for _, p in players]
    # made-up values for the regions the public sources do not give: fine in a test
    regions = {r: [6, 3] for r in REGIONS}
    regions["German States"] = [8, 5, 3]
    steps: list[dict] = []
    for war in (1, 2, 3):
        steps += [
            {"kind": "income", "markers": {p: 1 for p in powers}},
            {"kind": "upkeep", "units": {p: {"armies": 1, "fleets": 0, "fortresses": 0}
                                         for p in powers}, "taxes": {}},
            {"kind": "population"},
            {"kind": "scoring", "regions": {"German States": {winner: 3}}},
            {"kind": "end_war" if war < 3 else "end_game"},
        ]
    return {"format": "warledger/1", "game": "soe", "title": title,
            "settings": {"regions": regions},
            "players": [{"name": n, "power": p} for n, p in players], "steps": steps}


def table_rows(app, table_id: str) -> list[list[str]]:
    table = app.screen.query_one(table_id, DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_league_empty(table, ledger):
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "l", LeagueScreen)
        assert str(app.screen.query_one("#league-empty", Static).render()) == EMPTY
        assert not app.screen.query_one("#standings", DataTable).display


async def test_league_standings_filters_and_history(table, ledger, opened):
    ledger.replay(finished_soe("Friday one", winner="France"))
    ledger.replay(finished_soe("Friday two", winner="Britain"))
    ledger.replay(finished_soe("Friday three", winner="France"))
    ledger.replay(json.loads((DATA / "risk_fixed_rounds.json").read_text()))
    risk = {r.player: r for r in ledger.league("risk")}
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "l", LeagueScreen)
        assert "all games" in str(app.screen.query_one("#league-filter", Static).render())
        rows = table_rows(app, "#standings")  # the rating last (test_league_stats)
        assert [row[:6] for row in rows] == [
            [r.player, *(str(x) for x in (r.played, r.wins, r.draws, r.losses, r.points))]
            for r in ledger.league()]
        assert {row[0]: row[1] for row in rows}["Ana"] == "4"

        await pilot.press("s")
        await pilot.pause()
        assert "Struggle of Empires only" in str(
            app.screen.query_one("#league-filter", Static).render())
        assert [row[:6] for row in table_rows(app, "#standings")[:2]] == [
            ["Ana", "3", "2", "0", "1", "6"], ["Bo", "3", "1", "0", "2", "3"]]

        await pilot.press("k")
        await pilot.pause()
        assert "Risk only" in str(app.screen.query_one("#league-filter", Static).render())
        assert {row[0]: row[5] for row in table_rows(app, "#standings")} == {
            p: str(r.points) for p, r in risk.items()}

        await pilot.press("s", "enter")  # Ana leads the Struggle of Empires table
        await pilot.pause()
        history = table_rows(app, "#player-games")
        assert [(h[1], h[2], h[3], h[4]) for h in history] == [
            ("Struggle of Empires", "Friday three", "win", "3"),
            ("Struggle of Empires", "Friday two", "loss", "0"),
            ("Struggle of Empires", "Friday one", "win", "3")]
        assert history[0][5] == "victory points"

        await pilot.press("a", "enter")
        await pilot.pause()
        assert len(table_rows(app, "#player-games")) == len(ledger.history("Ana"))
        await pilot.press("escape")  # hides the history
        await pilot.pause()
        assert not app.screen.query_one("#player-games", DataTable).display
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


# ---------------------------------------------------------------- a new game's default title

@pytest.fixture
def on_a_friday(monkeypatch) -> None:
    from datetime import UTC, datetime

    import tui.screens.setup

    monkeypatch.setattr(tui.screens.setup, "today",
                        lambda: datetime(2026, 12, 4, 21, tzinfo=UTC), raising=False)


@pytest.mark.unit
def test_a_default_title_tells_the_evenings_games_apart(on_a_friday):
    """Every new game was titled with the date alone: one night gave five games all called
    "Friday 4 December" (issue 44). The game, its players and the day tell them apart, and
    a title already saved is numbered."""
    from i18n import set_language
    from rules.fields import TITLE_LIMIT
    from tui.screens.setup import default_title

    assert default_title("Risk", []) == "Risk, 4 Dec"
    assert default_title("Risk", ["Ana", "Bo", "Cy"]) == "Risk: Ana, Bo, Cy, 4 Dec"
    assert default_title("Risk", ["Ana", "Bo", "Cy"], {"Risk: Ana, Bo, Cy, 4 Dec"}) == \
        "Risk: Ana, Bo, Cy, 4 Dec (2)"
    assert default_title("Risk", ["Ana", "Bo", "Cy"], {
        "Risk: Ana, Bo, Cy, 4 Dec", "Risk: Ana, Bo, Cy, 4 Dec (2)"}) == \
        "Risk: Ana, Bo, Cy, 4 Dec (3)"
    assert default_title("Struggle of Empires", ["[b]Ana[/b]", "Bo[/]"]) == \
        "Struggle of Empires: [b]Ana[/b], Bo[/], 4 Dec"  # names as typed
    # Seven names of the longest kind: as many as fit, the rest counted, within the limit
    # with room for a number.
    long = [f"{n} Wilhelmina Augusta Mar"[:24] for n in "ABCDEFG"]
    title = default_title("Struggle of Empires", long, {default_title(
        "Struggle of Empires", long)})
    assert len(title) <= TITLE_LIMIT, title
    assert title.startswith(f"Struggle of Empires: {long[0]} +6, 4 Dec"), title
    assert title.endswith(" (2)")
    set_language("ro")
    assert default_title("Risk", ["Ana", "Bo"]) == "Risk: Ana, Bo, 4 dec."


async def test_the_setup_title_follows_the_players_until_one_is_typed(table, ledger, opened,
                                                                      on_a_friday):
    from textual.widgets import Input

    from tui.games.risk.setup import NewRiskGameScreen

    players = [{"name": name, "color": colour}
               for name, colour in (("Ana", "red"), ("Bo", "blue"), ("Cy", "green"))]
    ledger.create_game("risk", "Risk: Ana, Bo, Cy, 4 Dec", {"mode": "conquest"}, players)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_from_home(pilot, "r", NewRiskGameScreen)
        await pilot.pause()
        title = app.screen.query_one("#title", Input)
        assert title.value == "Risk, 4 Dec"
        await pilot.press("tab", "tab", "tab")  # to the first player's name
        assert app.focused.id == "name-1"
        for name in ("Ana", "Bo", "Cy"):
            await type_text(pilot, name)
            await pilot.press("tab", "tab")  # the colour stays
        await pilot.pause()
        # The same players the same evening: numbered past the game saved.
        assert title.value == "Risk: Ana, Bo, Cy, 4 Dec (2)"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert len(opened) == 1
        assert ledger.load(opened[0]).title == "Risk: Ana, Bo, Cy, 4 Dec (2)"

        # A title typed stays, whoever is named after it.
        await open_from_home(pilot, "r", NewRiskGameScreen)
        await pilot.pause()
        await type_text(pilot, "Cup final")
        await pilot.press("tab", "tab", "tab")
        await type_text(pilot, "Di")
        await pilot.pause()
        assert app.screen.query_one("#title", Input).value == "Cup final"
