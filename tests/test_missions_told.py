"""A replaced mission is told to its holder alone (issue 44): a terminal seated as that
player hears of it, and the player's own card (my mission) says why; the table, the other
players' terminals and the history hear nothing of it, not even how many were replaced
(which would say who held what)."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from test_tui_risk import SIZE, new_missions_game, open_new, settle
from test_tui_soe import pause_until

from tui.games.risk.dialogs import MissionCardDialog

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

PLAYERS = [{"name": "Ana", "color": "red", "mission": "destroy:green"},
           {"name": "Bo", "color": "blue", "mission": "18x2"},
           {"name": "Cy", "color": "green", "mission": "24"}]


def notices(app) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


def about_missions(app) -> list[str]:
    return [n for n in notices(app) if "mission" in n.lower() or "replaced" in n.lower()]


async def test_cards_replaced_at_the_start_are_not_told_to_the_table(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        # Ana's card destroys her own colour, Bo's a colour nobody plays: both replaced.
        await new_missions_game(pilot, ["Ana", "Bo", "Cy"], ["red", "yellow", "18"])
        screen = app.screen
        await settle(pilot)
        assert screen.state.missions["Ana"] == "24" and screen.state.missions["Bo"] == "24"
        assert about_missions(app) == []
        assert "replaced" not in str(screen.query_one("#message").render())
        # Ana's own card says why it is what it is.
        screen.reveal("Ana")
        await settle(pilot)
        card = app.screen
        assert isinstance(card, MissionCardDialog) and card.note
        assert "Ana" in card.note


async def test_the_holder_seated_at_a_terminal_is_told_and_the_others_are_not(table):
    for seated, told in (("Ana", True), ("Bo", False)):
        other = table.ledger()  # the terminal where the elimination is recorded
        app = table.app(seated)
        async with app.run_test(size=SIZE) as pilot:
            game_id = await open_new(pilot, PLAYERS, {"mode": "missions"})
            screen = app.screen
            other.record(game_id, {"kind": "eliminate", "player": "Cy", "by": "Bo"},
                         author="Bo")
            assert await pause_until(pilot, lambda s=screen: s.game.seq == 1, 10)
            await settle(pilot)
            assert screen.state.missions["Ana"] == "24"
            mine = [n for n in notices(app) if n.startswith("Your mission")]
            assert bool(mine) == told, notices(app)
            if told:
                assert "Ana" in mine[0] and "24" in mine[0]
            assert not [n for n in about_missions(app) if n not in mine], notices(app)
