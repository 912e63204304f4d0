"""A notice describes the present (issue 44): what the game screen says beside the form
about a step goes once that step is taken back or the game moves on past it, on this
terminal or because of another; the lasting notice of a step recorded first elsewhere goes
when that step is taken back, and the entry typed here comes back to the form."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from test_table_pace import SIZE, grid_of, open_game
from test_tui_risk import settle
from test_tui_soe import new_game, pause_until

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

POWERS = ("France", "Britain", "Austria", "Russia")


def upkeep(france: tuple[int, int]) -> dict:
    units = {p: {"armies": 0, "fleets": 0, "fortresses": 0} for p in POWERS}
    units["France"] = {"armies": france[0], "fleets": france[1], "fortresses": 0}
    return {"kind": "upkeep", "units": units, "taxes": {}}


def said(screen) -> str:
    return str(screen.query_one("#message").render())


async def test_the_same_numbers_recorded_elsewhere_are_said_only_while_that_step_stands(
        table):
    game_id = new_game(table, steps=1)  # war 1: upkeep
    other = table.ledger()  # another terminal: its own engine on the same file
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        base = grid_of(screen).values
        await pilot.press("2", "1")  # France: 2 armies, 1 fleet
        units = {p: {c: base[p][c] for c in ("armies", "fleets", "fortresses")}
                 for p in POWERS}
        units["France"].update(armies=2, fleets=1)
        other.record(game_id, {"kind": "upkeep", "units": units, "taxes": {}})
        assert await pause_until(pilot, lambda: "first, with the numbers typed here" in
                                 said(screen), 5)
        # The other terminal goes on to the population: the notice speaks of the past.
        other.record(game_id, {"kind": "population"})
        assert await pause_until(pilot, lambda: screen.game.seq == 3, 5)
        await settle(pilot)
        assert said(screen) == ""


async def test_recorded_here_goes_when_another_terminal_takes_it_back(table):
    game_id = new_game(table, steps=1)
    other = table.ledger()
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("2", "1", "enter")
        assert await pause_until(pilot, lambda: "Recorded: upkeep" in said(screen), 5)
        seq = screen.game.seq
        # The other terminal takes it back (as its ctrl+r does: undo steps).
        head = other.head(game_id)
        while other.load(game_id).state.phase != "upkeep":
            head = other.undo(game_id, expected_seq=head).seq
        assert await pause_until(pilot, lambda: screen.game.seq == head, 5)
        await settle(pilot)
        assert screen.game.seq != seq and screen.state.phase == "upkeep"
        assert "Recorded" not in said(screen)


async def test_the_lasting_notice_goes_with_their_step_and_the_typing_comes_back(table):
    game_id = new_game(table, steps=1)
    other = table.ledger()
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("5", "3")  # France: 5 armies, 3 fleets
        other.record(game_id, upkeep((2, 1)), author="Ana")
        notice = screen.query_one("#overtaken")
        assert await pause_until(pilot, lambda: notice.display, 5)
        # Ana takes her upkeep back herself: nothing recorded first is left to speak of.
        other.undo(game_id, expected_seq=other.head(game_id), author="Ana")
        assert await pause_until(pilot, lambda: not notice.display, 5)
        await settle(pilot)
        assert screen.state.phase == "upkeep"
        grid = grid_of(screen)
        assert (grid.value("France", "armies"), grid.value("France", "fleets")) == (5, 3)
        assert not screen.check_action("mine_instead", ())


async def test_a_lasting_notice_stays_while_the_game_moves_on_past_it(table):
    """Cells typed here differ from what was recorded: the notice keeps saying which, as
    the game goes on, until it is dismissed."""
    game_id = new_game(table, steps=1)
    other = table.ledger()
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, game_id)
        await pilot.press("5", "3")
        other.record(game_id, upkeep((2, 1)), author="Ana")
        notice = screen.query_one("#overtaken")
        assert await pause_until(pilot, lambda: notice.display, 5)
        seq = other.record(game_id, {"kind": "population"}).seq
        assert await pause_until(pilot, lambda: screen.game.seq == seq, 5)
        await settle(pilot)
        assert notice.display and "France armies 5 (recorded 2)" in str(notice.render())

