"""The small things of issue 14: help keys listed once, the checklist's unticked boxes, the
words for an extra Risk round, Enter on a new board, the printed German States values,
setup errors in the screen's words, duplicate player names, the empty home in the README."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from textual.binding import Binding
from textual.dom import DOMNode

import tui.screens
import tui.widgets
from rules.errors import RuleError
from rules.risk import RISK
from rules.soe import SOE
from tests.test_risk_rules import TIE, new_game, play, rnd, to_last_round
from tests.test_tui_soe import session_file as soe_session_file
from tui.app import WarledgerApp
from tui.games.risk.demo import RISK_DEMO
from tui.games.soe.board import BUILTIN_PROFILE, BoardProfileScreen, unlike_print
from tui.games.soe.dialogs import RegionValuesDialog
from tui.games.soe.forms import Checklist
from tui.plumbing.keys import key_of
from tui.screens.dialogs import ConfirmDialog
from tui.screens.help import HelpScreen
from tui.screens.home import HomeScreen
from tui.screens.rules_help import RulesScreen

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

ROOT = Path(__file__).parent.parent


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.pause()


# ---------------------------------------------------------------- 1. help keys once

async def help_keys(pilot) -> list[str]:
    """Open the help over the screen in front; every key it lists, as often as listed."""
    app = pilot.app
    await pilot.press("f1")
    await settle(pilot)
    assert isinstance(app.screen, HelpScreen)
    whats = {row.what for row in app.screen.rows}
    assert {"Rules and options, with worked examples", "Close this help"} <= whats
    return [face for row in app.screen.rows for face in row.keys.split(" / ")]


async def test_the_help_of_home_and_of_a_risk_game_lists_every_key_once(table):
    table.ledger().replay(RISK_DEMO)
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen)
        listed = await help_keys(pilot)
        assert sorted(listed) == sorted(set(listed)), listed
        assert "r" in listed  # a new Risk game, and only that
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is home
        await pilot.press("enter")  # the Risk game
        await settle(pilot)
        listed = await help_keys(pilot)
        assert sorted(listed) == sorted(set(listed)), listed
        await pilot.press(key_of(HelpScreen, "rules"))  # the help's own key: the rules
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)


def screen_and_widget_classes() -> list[type]:
    found = []
    for package in (tui.screens, tui.widgets):
        for module_info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{module_info.name}")
            found += [c for _, c in inspect.getmembers(module, inspect.isclass)
                      if issubclass(c, DOMNode) and c.__module__ == module.__name__]
    return found + [WarledgerApp]


def test_no_screen_binds_the_help_key_that_opens_the_rules():
    rules_keys = {key for b in HelpScreen.BINDINGS if isinstance(b, Binding) and b.id == "rules"
                  for key in b.key.split(",")}
    for cls in screen_and_widget_classes():
        if cls is HelpScreen:
            continue
        bound = {key for b in Binding.make_bindings(cls.__dict__.get("BINDINGS", []))
                 for key in b.key.split(",")}
        assert not bound & rules_keys, f"{cls.__name__} binds {bound & rules_keys}"


# ---------------------------------------------------------------- 2. the checklist's boxes

async def test_an_unticked_box_is_empty_and_a_ticked_one_stands_out(table):
    data = soe_session_file()
    data["steps"] = data["steps"][:4]  # income, upkeep, population, scoring: end of war next
    table.ledger().replay(data)
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        checklist = app.screen.query_one(Checklist)
        for highlighted in ("", "-highlighted"):
            unticked = checklist.get_component_rich_style(f"selection-list--button{highlighted}")
            ticked = checklist.get_component_rich_style(
                f"selection-list--button-selected{highlighted}")
            assert unticked.color == unticked.bgcolor  # no X drawn: an empty box
            assert ticked.color != ticked.bgcolor and ticked.bold  # a bold X
            assert ticked.bgcolor != unticked.bgcolor  # a box of another colour


# ---------------------------------------------------------------- 3. an extra round's name

def test_an_extra_round_is_called_an_extra_round():
    t = play(to_last_round(new_game(2, rounds=3)), rnd(**TIE),
             {"kind": "tiebreak", "resolution": "extra_round"})
    with pytest.raises(RuleError) as refused:
        play(t, rnd())
    assert str(refused.value).startswith("Round 4 is an extra round: enter every player's")
    with pytest.raises(RuleError) as refused:  # round 3 of 3 is the last agreed one
        play(to_last_round(new_game(2, rounds=3)), rnd())
    assert str(refused.value).startswith("Round 3 is the last agreed round")


# ---------------------------------------------------------------- 4. Enter opens a board

def message(screen) -> str:
    return str(screen.query_one("#message").render())


async def boards_of(pilot) -> BoardProfileScreen:
    """The board profiles, opened from the home screen by their key."""
    await settle(pilot)
    await pilot.press("b")
    await settle(pilot)
    assert isinstance(pilot.app.screen, BoardProfileScreen)
    return pilot.app.screen


async def test_enter_on_the_new_board_opens_it_and_only_the_save_key_saves(table):
    ledger = table.ledger()
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await boards_of(pilot)
        await pilot.press("shift+tab", "shift+tab")  # from the grid, past the name, to the list
        assert app.focused.id == "profiles"
        await pilot.press("enter")  # "Struggle of Empires (2004) (new)": opened
        await settle(pilot)
        assert app.focused.id == "values"
        assert message(screen) == ("A new board, not saved yet: type its values, then "
                                   "ctrl+s saves it")
        await pilot.press("down", "6", "tab", "3", "enter")  # Baltic 6/3; Enter: next region
        await settle(pilot)
        assert ledger.board_profiles() == {}
        assert app.focused.cursor_at[0] == "Mediterranean"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert message(screen).startswith(f"Saved {BUILTIN_PROFILE}.")
    assert ledger.board_profiles()[BUILTIN_PROFILE]["Baltic"] == [6, 3]


# ---------------------------------------------------------------- 5. German States 8/5/3

PRINTED_QUESTION = ("German States is printed 8/5/3 on the published board: save 9/5/3 "
                    "anyway?")


def question(app) -> str:
    assert isinstance(app.screen, ConfirmDialog)
    return str(app.screen.question)


async def test_board_profile_asks_before_german_states_differs_from_print(table):
    ledger = table.ledger()
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await boards_of(pilot)
        await pilot.press("9", "ctrl+s")  # German States 1st: 9 instead of the printed 8
        await settle(pilot)
        assert question(app) == PRINTED_QUESTION
        await pilot.press("n")  # go back: nothing saved
        await settle(pilot)
        assert app.screen is screen and ledger.board_profiles() == {}
        await pilot.press("ctrl+s", "y")  # asked again; save anyway
        await settle(pilot)
        assert app.screen is screen
        assert ledger.board_profiles()[BUILTIN_PROFILE]["German States"] == [9, 5, 3]
        await pilot.press("ctrl+s")  # the same values again: the table said yes already
        await settle(pilot)
        assert app.screen is screen and message(screen).startswith("Saved")


async def test_region_values_dialog_asks_before_german_states_differs_from_print(table):
    data = soe_session_file()
    data["settings"] = {"regions": {"Baltic": [6, 3]}}  # German States not entered yet
    data["steps"] = []
    session_id = table.ledger().replay(data).id
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press(app.screen.key_of("board_values"))
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RegionValuesDialog)
        await pilot.press("9", "tab", "5", "tab", "3", "ctrl+s")
        await settle(pilot)
        assert question(app) == PRINTED_QUESTION
        await pilot.press("n")
        await settle(pilot)
        assert app.screen is dialog
        assert table.ledger().load(session_id).state.settings.regions["German States"] == ()
        await pilot.press("ctrl+s", "y")
        await settle(pilot)
        assert not isinstance(app.screen, RegionValuesDialog | ConfirmDialog)
    regions = table.ledger().load(session_id).state.settings.regions
    assert tuple(regions["German States"]) == (9, 5, 3)


def test_the_printed_values_themselves_ask_nothing():
    assert unlike_print({"German States": [8, 5, 3], "Baltic": [6, 3]}) == ""
    assert unlike_print({"Baltic": [6, 3]}) == ""  # German States not among them
    assert unlike_print({"German States": [9, 5, 3]}) == PRINTED_QUESTION
    assert unlike_print({"German States": [9, 5, 3]}, kept={"German States": [9, 5, 3]}) == ""
    assert unlike_print({"German States": []}) == (
        "German States is printed 8/5/3 on the published board: save it without values anyway?")


# ---------------------------------------------------------------- 6 and 7. setup errors

async def start_with(app, pilot, fields: dict[str, str]) -> str:
    """Fill the setup's fields, press the start key; the message the screen shows."""
    screen = app.screen
    for field_id, value in fields.items():
        screen.query_one(f"#{field_id}").value = value
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert app.screen is screen  # nothing created
    return message(screen)


@pytest.mark.parametrize(("game_key", "fields", "said"), [
    ("n", {"gold-per-tax": "30"}, "Gold per taxation must be at most 20, not 30"),
    ("n", {"gold-per-tax": "0"}, "Gold per taxation must be at least 1, not 0"),
    ("n", {"gold": "10000"}, "Starting gold must be at most 9,999, not 10,000"),
    ("n", {"population": "12"}, "Population must be at most 9, not 12"),
    ("n", {"name-2": "", "name-3": "x" * 25},
     "player 3's name is 25 characters long: at most 24 fit on the screens"),
    ("r", {"rounds": "60"}, "Rounds must be at most 50, not 60"),
    ("r", {"rounds": "ten"}, "Rounds must be a whole number from 1 to 50, not 'ten'"),
    ("n", {"name-2": "Hal"}, "Two players are named Hal: names must differ"),
    ("r", {"name-2": "hal"}, "Two players are named hal: names must differ"),
])
async def test_a_setup_error_names_the_field_as_the_screen_does(table, game_key, fields, said):
    ledger = table.ledger()
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(game_key)
        await settle(pilot)
        assert await start_with(app, pilot, {"name-1": "Hal", "name-2": "Bo", **fields}) == said
    assert ledger.games() == []


def test_the_rules_readers_say_two_players_share_a_name():
    for rules, players in (
            (SOE, [{"name": "Hal", "power": "France"}, {"name": "hal", "power": "Spain"}]),
            (RISK, [{"name": "Hal", "color": "red"}, {"name": "hal", "color": "blue"}])):
        with pytest.raises(RuleError) as refused:
            rules.read_players(players, rules.read_settings(None))
        assert str(refused.value) == "Two players are named hal: names must differ"


# ---------------------------------------------------------------- 8. the README's pictures

def test_the_readme_shows_the_empty_home_screen():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    images = re.findall(r"^!\[[^\]]+\]\(([^)]+)\)$", readme, flags=re.MULTILINE)
    assert "screenshots/home_empty.svg" in images
    assert all((ROOT / image).is_file() for image in images)
