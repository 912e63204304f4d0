"""Risk's by-territory grid asks the rules (positions_from_owners) and shows their words:
a seat out of the game and territories with no owner are refused, never dropped in silence."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture

from tui.games.risk.game import RiskGameScreen

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

SIZE = (120, 40)
THREE = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
         {"name": "Cy", "color": "green"}]


async def settle(pilot, times: int = 3) -> None:
    for _ in range(times):
        await pilot.pause()


async def test_territory_grid_shows_the_rules_refusal(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.ledger.create_game("risk", "Tonight", {"mode": "conquest"}, THREE)
        app.ledger.record(game.id, {"kind": "eliminate", "player": "Cy", "by": "Bo"})
        app.open_game(game.id)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RiskGameScreen)
        await pilot.press("ctrl+g")
        await settle(pilot)
        form = screen.form
        assert form.not_ready() == "" and form.pending_step() == {"kind": "round"}

        await pilot.press("3")  # Alaska to seat 3: Cy, who is out of the game
        await settle(pilot)
        refused = "Alaska: Cy (seat 3) is out of the game and holds no territory"
        assert form.not_ready() == refused
        assert refused in str(screen.query_one("#message").render())
        assert form.pending_step() is None and str(screen.query_one("#derived").render()) == ""
        await pilot.press("enter")
        await settle(pilot)
        assert refused in str(screen.query_one("#message").render())
        assert app.ledger.load(game.id).state.round == 0

        await pilot.press("left", "1")  # Alaska to Ana: the other 41 have no owner yet
        await settle(pilot)
        assert form.not_ready() == (
            "41 of the 42 territories have no owner yet (Alberta, Central America, Eastern "
            "United States, Greenland, …): type the owner's seat number, 1 to 3")
        assert str(screen.query_one("#derived").render()) == (
            "Ana 1 terr., 1 army · Bo 0 terr., 0 armies")
        await pilot.press("enter")
        await settle(pilot)
        assert "41 of the 42 territories" in str(screen.query_one("#message").render())
        assert app.ledger.load(game.id).state.round == 0
