"""A seated player's screens from 40x20 up (issue 45, part 3): a phone's SSH app or page in
portrait gives about 40 columns. Every screen such a player meets (home, the game screen
with its totals, the history, the help, the conflict notice, a step's dialog, the results,
the league and a player's story, the scoreboard) is whole at 40x20: nothing reaches past
the 40th column and nothing scrolls sideways. Below 40x20, and for the screens that set a
game up below 76x22, the size notice says how big the window must be. The footer keeps a
screen's most important keys first there; the help and the palette have the rest.

The game screen's grid (nobody seated) is the one thing that pans sideways at 40 columns:
its names stay at the left and its columns follow the cursor (a seated player gets their
own form instead, one field per line)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from pilot_pace import pause_skips_the_live_look, until  # noqa: F401 - a fixture
from scenes import SCENES, Scene, app_for, play
from textual.widgets import DataTable

from tests.test_tui_hostile import screen_text
from tests.test_tui_soe import session_file
from tui.screens.base import SizeNotice
from tui.widgets.footer import Footer
from tui.widgets.number_grid import NumberGrid

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

POCKET = (40, 20)
NAMES = ("[b]Ana[/b]", "Bo[/]", "Cy", "Di")  # player text that looks like markup


def scene(name: str, **changes) -> Scene:
    """A scene of tests/scenes.py at 40x20, the Struggle of Empires demo's players named
    NAMES."""
    found = next(s for s in SCENES if s.name == name)
    return replace(found, size=POCKET, soe_names=NAMES, **changes)


def reaching_past(app, width: int) -> list[str]:
    """Each widget shown that reaches past column `width` or scrolls sideways (but the
    grid: see the module's words)."""
    found = []
    for node in app.screen.walk_children():
        if not node.display or not node.region.width or isinstance(node, NumberGrid):
            continue
        if node.region.right > width or node.allow_horizontal_scroll:
            found.append(f"{type(node).__name__}#{node.id} at {node.region}, "
                         f"{node.max_scroll_x} to scroll")
    return found


def footer_keys(app) -> list[str]:
    """The footer's words, as shown."""
    footer = app.screen.query_one(Footer)
    return screen_text(app).splitlines()[footer.region.y].split()


# Each screen with words it must show whole at 40x20: the players' names literally, the
# last column of its tables, its first keys.
SCREENS = [
    pytest.param("home", ("Title", "Game", "Where", "War 2", "Round 8", "f1 Help"),
                 id="home"),
    pytest.param("soe_upkeep", ("[b]Ana[/b]", "Bo[/]", "Upkeep", "VP", "⏎ Confirm",
                                "^z Undo", "f1 Help"), id="game-upkeep"),
    pytest.param("soe_scoring", ("Scoring", "Fra", "VP", "12 → 26"), id="game-scoring"),
    pytest.param("risk_round", ("Ana", "Terr.", "Armies", "Score", "⏎ Confirm"),
                 id="risk-round"),
    pytest.param("soe_help", ("game keys", "War 2 of 3, upkeep"), id="help"),
    pytest.param("history_80x24", ("History of", "when", "what"), id="history"),
    pytest.param("soe_results", ("Bo[/] wins", "Final standings", "VP", "l League",
                                 "Fra  Bri  Aus  Rus"), id="results"),
    pytest.param("risk_results", ("Ana wins", "How the scores add up"), id="risk-results"),
    pytest.param("league_seasons", ("[b]Ana[/b]", "Bo[/]", "Played", "Points", "esc Back"),
                 id="league"),
    pytest.param("player", ("[b]Ana[/b]", "Nemesis"), id="player"),
    pytest.param("scoreboard_soe_80x24", ("[b]Ana[/b]", "Bo[/]", "Leader"),
                 id="scoreboard"),
]


@pytest.mark.parametrize(("name", "words"), SCREENS)
async def test_a_seated_players_screen_is_whole_at_40x20(name, words, tmp_path,
                                                          migrated_file):
    shown_scene = scene(name)
    app = app_for(shown_scene, tmp_path, migrated_file)
    async with app.run_test(size=POCKET) as pilot:
        await play(shown_scene, pilot)
        text = screen_text(app)
        assert not any(n.display for n in app.screen.query(SizeNotice)), text
        assert reaching_past(app, POCKET[0]) == [], text
        for word in words:
            assert word in text, f"{word!r} not in\n{text}"


async def test_below_40x20_the_notice_says_40x20_and_a_new_game_76x22(tmp_path,
                                                                     migrated_file):
    home = scene("home")
    app = app_for(home, tmp_path, migrated_file)
    async with app.run_test(size=(39, 20)) as pilot:
        await play(home, pilot)
        home_screen = app.screen
        assert "at least 40x20" in screen_text(app)
        await pilot.resize_terminal(40, 19)
        await pilot.pause()
        assert "at least 40x20" in screen_text(app)
        await pilot.resize_terminal(*POCKET)
        await pilot.pause()
        assert "at least" not in screen_text(app)
        # A new game's rows need 76 columns: home says so and stays (the notice would hold
        # every key, Escape too).
        told: list[str] = []
        app.notify = lambda message, **_kwargs: told.append(message)  # what the toast says
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is home_screen
        assert told == ["This needs a window at least 76x22 (it is 40x20 now)"]
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is not home_screen
        # Made smaller there, the setup screen says how big the window must be.
        await pilot.resize_terminal(60, 24)
        await pilot.pause()
        assert "at least 76x22" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "at least" not in screen_text(app)


async def test_the_footer_keeps_the_first_keys_at_40_columns_and_all_from_76(
        tmp_path, migrated_file):
    upkeep = scene("soe_upkeep", press=("enter",))
    app = app_for(upkeep, tmp_path, migrated_file)
    async with app.run_test(size=POCKET) as pilot:
        await play(upkeep, pilot)
        assert footer_keys(app) == ["⏎", "Confirm", "^z", "Undo", "f1", "Help", "^q", "Quit"]
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: "Saved" in footer_keys(app), "the footer built anew")
        assert footer_keys(app)[:7] == ["⏎", "Confirm", "^z", "Undo", "^o", "Saved", "games"]
        await pilot.resize_terminal(*POCKET)
        await until(pilot, lambda: "Saved" not in footer_keys(app), "the footer built anew")


async def test_home_names_enter_as_open_at_every_width(tmp_path, migrated_file):
    # The list's own Enter (Textual's, unnamed) came first in the footer and hid Open.
    home = scene("home")
    app = app_for(home, tmp_path, migrated_file)
    async with app.run_test(size=POCKET) as pilot:
        await play(home, pilot)
        await until(pilot, lambda: "Open" in footer_keys(app), "Open in the footer")
        assert footer_keys(app) == ["⏎", "Open", "l", "League", "f1", "Help", "^q", "Quit"]
        await pilot.resize_terminal(80, 24)  # all but the games' other screens fit
        await until(pilot, lambda: "New" in footer_keys(app), "the footer built anew")
        assert footer_keys(app) == ["⏎", "Open", "n", "New", "Struggle", "of", "Empires", "r",
                                    "New", "Risk", "l", "League", "^q", "Quit", "f1", "Help"]
        await pilot.resize_terminal(130, 24)  # every key
        await until(pilot, lambda: "Board" in footer_keys(app), "the footer built anew")
        assert footer_keys(app)[:2] == ["⏎", "Open"]
        await pilot.resize_terminal(100, 24)
        await until(pilot, lambda: "Board" not in footer_keys(app), "the footer built anew")
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "SoeGameScreen",
                    "the game opened")


async def test_the_grid_keeps_its_place_from_76_columns(tmp_path, migrated_file):
    """At 76 columns the whole upkeep grid shows, beside the names; at 40 its columns pan
    under the names, which stay."""
    upkeep = scene("soe_upkeep", press=("enter",))
    app = app_for(upkeep, tmp_path, migrated_file)
    async with app.run_test(size=(76, 22)) as pilot:
        await play(upkeep, pilot)
        grid = app.screen.query_one(NumberGrid)
        assert not grid.allow_horizontal_scroll
        assert grid.region.right <= 76
        await pilot.resize_terminal(*POCKET)
        await pilot.pause()
        assert "[b]Ana[/b]" in screen_text(app)
        assert grid.region.right <= POCKET[0]


async def test_the_conflict_notice_and_its_keys_fit_40_columns(table):
    data = session_file()
    data["steps"] = data["steps"][:1]  # war 1: upkeep
    for player, name in zip(data["players"], NAMES, strict=True):
        player["name"] = name
    game_id = table.ledger().replay(data).id
    other = table.ledger()  # another terminal
    units = {p: {"armies": 2 if p == "France" else 0, "fleets": 1 if p == "France" else 0,
                 "fortresses": 0} for p in ("France", "Britain", "Austria", "Russia")}
    app = table.app()
    async with app.run_test(size=POCKET) as pilot:
        await pilot.pause()
        app.open_game(game_id)
        await until(pilot, lambda: isinstance(app.screen.focused, NumberGrid), "the grid")
        screen = app.screen
        await pilot.press("5", "3")  # France: 5 armies, 3 fleets
        other.record(game_id, {"kind": "upkeep", "units": units, "taxes": {}}, author="Bo[/]")
        notice = screen.query_one("#overtaken")
        await until(pilot, lambda: notice.display, "the notice")
        await until(pilot, lambda: "Mine" in footer_keys(app), "the notice's keys")
        text = screen_text(app)
        assert "Bo[/] recorded the upkeep" in text, text
        assert reaching_past(app, POCKET[0]) == [], text
        # Its keys first: on a phone they are tapped in the footer.
        assert footer_keys(app) == ["^r", "Mine", "instead", "esc", "Keep", "theirs", "f1",
                                    "Help"]


@pytest.mark.parametrize(("name", "press", "words"), [
    pytest.param("soe_upkeep", ("enter", "ctrl+x"), ("Taxation", "Record"), id="tax"),
    pytest.param("soe_upkeep", ("enter", "ctrl+e"), ("Correction", "Whose"), id="correction"),
    pytest.param("risk_round", ("down", "enter", "ctrl+x"), ("Who is out", "Record"),
                 id="elimination"),
    pytest.param("home", ("delete",), ("This cannot be", "Yes (y)"), id="delete"),
])
async def test_a_dialog_fits_40_columns(name, press, words, tmp_path, migrated_file):
    shown_scene = scene(name, press=press)
    app = app_for(shown_scene, tmp_path, migrated_file)
    async with app.run_test(size=POCKET) as pilot:
        await play(shown_scene, pilot)
        text = screen_text(app)
        assert reaching_past(app, POCKET[0]) == [], text
        for word in words:
            assert word in text, f"{word!r} not in\n{text}"


async def test_the_league_table_has_its_rows_at_40_columns(tmp_path, migrated_file):
    league = scene("league_seasons")
    app = app_for(league, tmp_path, migrated_file)
    async with app.run_test(size=POCKET) as pilot:
        await play(league, pilot)
        table = app.screen.query_one("#standings", DataTable)
        assert table.region.height >= 1 + table.row_count  # every row in sight
        assert [str(c.label) for c in table.columns.values()] == [
            "Player", "Played", "Wins", "Points"]
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: len(table.columns) == 7, "every column")


def test_the_scenes_at_40x20_are_pictured():
    """The README's tour shows the 40x20 screens (screenshots/)."""
    from scenes import PICTURES

    pictured = {s.name for s in PICTURES if s.size == POCKET}
    assert {"home_40x20", "soe_upkeep_40x20", "history_40x20", "soe_help_40x20",
            "scoreboard_soe_40x20", "league_40x20"} <= pictured
    for name in pictured:
        assert (Path(__file__).parent.parent / "screenshots" / f"{name}.svg").exists()
