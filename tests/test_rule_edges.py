"""Rule edges met at the table (issue 14), at the screens: a mission claim the tracker
cannot check is recorded only once the table vouches for it; a stalemate after an
elimination asks for the position as it stands; a correction needs its reason; a tie with
a non-player power is explained once. Old games stored before these rules still open.
(The rules alone: tests/test_rule_edges_rules.py.)"""

from __future__ import annotations

import json

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from sqlalchemy import text as sql
from textual.widgets import Input, Select, Static

from rules.risk import CONTINENTS
from tui.games.risk.dialogs import ClaimDialog, StalemateDialog
from tui.games.risk.forms import PositionGrid
from tui.games.soe.dialogs import AdjustDialog
from tui.games.soe.game import SoeGameScreen
from tui.screens.dialogs import ConfirmDialog
from tui.screens.results import ResultsScreen

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

SIZE = (120, 40)

THREE = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
         {"name": "Cy", "color": "green"}]
MISSIONS = [{**THREE[0], "mission": "asia+africa"}, {**THREE[1], "mission": "24"},
            {**THREE[2], "mission": "destroy:red"}]
# Round 6 of RULES.md A.4's example: 42 territories between the three.
BEFORE = {"Ana": {"territories": 20, "armies": 40, "continents": ["North America"]},
          "Bo": {"territories": 12, "armies": 20},
          "Cy": {"territories": 10, "armies": 15, "continents": ["Australia"]}}


async def settle(pilot, times: int = 3) -> None:
    for _ in range(times):
        await pilot.pause()


async def open_game(pilot, table, game: str, settings: dict, players: list[dict],
                    steps: list[dict]) -> int:
    """A game stored through the ledger with `steps`, opened; returns its id."""
    await settle(pilot)
    ledger = table.ledger()
    game_id = ledger.create_game(game, "Tonight", settings, players).id
    for step in steps:
        ledger.record(game_id, step)
    pilot.app.open_game(game_id)
    await settle(pilot)
    assert pilot.app.screen.game.id == game_id
    return game_id


def message(dialog) -> str:
    return str(dialog.query_one("#dialog-message", Static).render())


def fill(grid: PositionGrid, positions: dict[str, dict]) -> None:
    """The position grid as the players would type it."""
    for name, pos in positions.items():
        grid.set_value(name, "territories", pos["territories"])
        grid.set_value(name, "armies", pos["armies"])
        for continent in CONTINENTS:
            grid.set_value(name, continent, int(continent in pos.get("continents", ())))


# ---------------------------------------------------------------- a mission claim

async def test_a_claim_without_any_position_is_recorded_once_the_table_vouches(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_game(pilot, table, "risk", {"mode": "missions"}, MISSIONS,
                                  [{"kind": "round"}])
        head = app.ledger.head(game_id)
        app.screen.action_claim()
        await settle(pilot)
        claim = app.screen
        assert isinstance(claim, ClaimDialog)
        await pilot.press("ctrl+s")  # Ana (the first) claims, no position typed
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmDialog)
        assert question.question == ("No positions were entered: the table vouches that Ana "
                                     "completed 'Conquer Asia and Africa'?")
        await pilot.press("n")  # the table does not vouch: nothing is written
        await settle(pilot)
        assert app.screen is claim and app.ledger.head(game_id) == head
        assert "Not recorded" in message(claim)

        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot, 5)
        assert isinstance(app.screen, ResultsScreen)
        report = app.ledger.load(game_id).report().to_json()
        assert (report["winners"], report["format"], report["rounds"]) == (
            ["Ana"], "secret_mission", 2)


async def test_a_claim_the_latest_position_contradicts_is_questioned_with_the_reason(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_game(pilot, table, "risk", {"mode": "missions"}, MISSIONS,
                                  [{"kind": "round", "positions": BEFORE}])
        head = app.ledger.head(game_id)
        app.screen.action_claim()
        await settle(pilot)
        claim = app.screen
        claim.query_one("#player", Select).value = "Bo"
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen.question == (
            "The latest position entered says otherwise (Bo holds 12 territories and needs "
            "24): the table vouches that Bo completed 'Occupy 24 territories'?")
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is claim and app.ledger.head(game_id) == head

        # Typed now, the position proves the claim: no question asked.
        fill(claim.query_one(PositionGrid), {
            "Ana": {"territories": 10, "armies": 10}, "Bo": {"territories": 24, "armies": 30},
            "Cy": {"territories": 8, "armies": 8}})
        await pilot.press("ctrl+s")
        await settle(pilot, 5)
        assert isinstance(app.screen, ResultsScreen)
        assert app.ledger.load(game_id).report().to_json()["winners"] == ["Bo"]


async def test_over_ssh_the_question_keeps_another_players_card_secret(table):
    app = table.app(player="Bo")
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, table, "risk", {"mode": "missions"}, MISSIONS, [])
        app.screen.action_claim()
        await settle(pilot)
        app.screen.query_one("#player", Select).value = "Ana"
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        question = app.screen.question
        assert question == ("The tracker cannot check Ana's claim: the table vouches that Ana "
                            "completed their secret mission?")


# ---------------------------------------------------------------- a stalemate, scored

async def test_a_stalemate_after_an_elimination_is_scored_on_the_position_now(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_game(pilot, table, "risk", {"mode": "conquest"}, THREE, [
            *[{"kind": "round"}] * 5, {"kind": "round", "positions": BEFORE},
            {"kind": "eliminate", "player": "Bo", "by": "Ana"}])
        head = app.ledger.head(game_id)
        app.screen.action_stalemate()
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, StalemateDialog)
        grid = dialog.query_one(PositionGrid)
        assert not grid.display  # a draw, the first choice, needs no position
        dialog.query_one("#resolution", Select).value = "fixed_round"
        await settle(pilot)
        assert grid.display and list(grid.row_keys) == ["Ana", "Cy"]
        assert "needed: the latest one was entered before Bo's elimination by Ana" in str(
            dialog.query_one("#position-hint", Static).render())

        await pilot.press("ctrl+s")  # the old position (30 territories) is not scored
        await settle(pilot)
        assert "entered before Bo's elimination by Ana" in message(dialog)
        assert app.ledger.head(game_id) == head

        fill(grid, {"Ana": {"territories": 32, "armies": 60,
                            "continents": ["North America", "South America"]},
                    "Cy": {"territories": 10, "armies": 15, "continents": ["Australia"]}})
        await pilot.press("ctrl+s")
        await settle(pilot, 5)
        assert isinstance(app.screen, ResultsScreen)
        report = app.ledger.load(game_id).report().to_json()
        assert report["format"] == "fixed_round" and report["winners"] == ["Ana"]
        assert [(s["player"], s["territories"], s["score"]) for s in report["standings"]] == [
            ("Ana", 32, 32 + 7 + 12), ("Cy", 10, 10 + 2 + 3), ("Bo", 0, 0)]
        assert report["rounds"] == 7  # stopped during round 7


async def test_an_old_stalemate_scored_on_an_older_position_still_opens(table):
    ledger = table.ledger()
    game_id = ledger.create_game("risk", "Old", {"mode": "conquest"}, THREE).id
    for step in ({"kind": "round", "positions": BEFORE},
                 {"kind": "eliminate", "player": "Bo", "by": "Ana"},
                 {"kind": "stalemate", "resolution": "draw"}):
        ledger.record(game_id, step)
    # An earlier version accepted a scored stalemate here, on the position before.
    rewrite_last_step(ledger, game_id, {"kind": "stalemate", "resolution": "fixed_round"})
    assert isinstance(await reopened(table, game_id), ResultsScreen)
    report = table.ledger().load(game_id).report().to_json()
    assert report["format"] == "fixed_round" and report["winners"] == ["Ana"]


def rewrite_last_step(ledger, game_id: int, payload: dict) -> None:
    """Store the game's last step as an earlier version could have stored it."""
    with ledger.engine.begin() as conn:
        conn.execute(sql("UPDATE step SET payload = :p, kind = :k WHERE session_id = :id AND "
                         "seq = (SELECT MAX(seq) FROM step WHERE session_id = :id)"),
                     {"p": json.dumps(payload), "k": payload["kind"], "id": game_id})
        conn.execute(sql("DELETE FROM fold_snapshot WHERE session_id = :id"), {"id": game_id})


async def reopened(table, game_id: int):
    """The screen a new app on the table's database shows for the stored game."""
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_game(game_id)
        await settle(pilot, 5)
        return app.screen


# ---------------------------------------------------------------- a correction's reason

SOE_PLAYERS = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"},
               {"name": "Cy", "power": "Austria"}, {"name": "Di", "power": "Russia"}]
REGION_VALUES = {  # German States is the 2004 board; the rest are test values
    "German States": [8, 5, 3], "Baltic": [6, 3], "Mediterranean": [7, 4, 2],
    "Central Europe": [6, 4, 2], "Ottoman Empire": [5, 3], "North America": [9, 5, 2],
    "Caribbean": [7, 4, 1], "South America": [5, 2], "Africa": [6, 3, 1],
    "India": [10, 6, 3], "East Indies": [8, 4],
}


async def test_a_correction_needs_its_reason(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_game(pilot, table, "soe", {"regions": REGION_VALUES},
                                  SOE_PLAYERS, [])
        head = app.ledger.head(game_id)
        app.screen.action_adjust()
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, AdjustDialog)
        dialog.query_one("#gold", Input).value = "-2"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is dialog and app.ledger.head(game_id) == head
        assert message(dialog) == ("Say why France's correction is made (a battle, a colony, "
                                   "building…): a correction needs its reason")
        dialog.query_one("#note", Input).value = "lost a battle"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, SoeGameScreen)
        assert app.ledger.load(game_id).timeline.steps[-1].to_json() == {
            "kind": "adjust", "power": "France", "gold": -2, "note": "lost a battle"}


async def test_a_correction_stored_without_a_reason_still_opens(table):
    ledger = table.ledger()
    game_id = ledger.create_game("soe", "Old", {"regions": REGION_VALUES}, SOE_PLAYERS).id
    ledger.record(game_id, {"kind": "adjust", "power": "France", "gold": -2, "note": "x"})
    rewrite_last_step(ledger, game_id, {"kind": "adjust", "power": "France", "gold": -2})
    screen = await reopened(table, game_id)
    assert isinstance(screen, SoeGameScreen) and screen.state.empires["France"].gold == 8


# ---------------------------------------------------------------- a tie explained once

async def test_a_tie_with_a_non_player_power_is_explained_once(table):
    app = table.app()
    units = {p["power"]: {"armies": 1, "fleets": 0, "fortresses": 0} for p in SOE_PLAYERS}
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, table, "soe", {"regions": REGION_VALUES}, SOE_PLAYERS, [
            {"kind": "income", "regions": {"Mediterranean": {"France": 2, "Spain": 2},
                                           "Baltic": {"Russia": 3}}},
            {"kind": "upkeep", "units": units}, {"kind": "population"}])
        assert app.screen.state.phase == "scoring"
        await settle(pilot)
        explained = str(app.screen.query_one("#explain", Static).render())
        tie = "France and Spain tied for 1st: (7+4)/2 = 5 each"
        assert explained.count(tie) == 1, explained
        assert f"{tie} (Spain: non-player power, discarded)" in explained
