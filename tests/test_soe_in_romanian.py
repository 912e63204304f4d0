"""Struggle of Empires in Romanian at 80x24 (issue 24): every phase of a game, its dialogs,
the new game form, the board profiles and the results read in Romanian, the powers and
regions by their Romanian names (the steps keep the English ids), and no grid has a column
cut or scrolled out of view."""

from __future__ import annotations

import pytest
from pilot_pace import (  # noqa: F401 - a fixture
    pause_skips_the_live_look,
    totals_laid_out,
    typing,
    until,
)
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Button

from i18n import set_language
from rules.soe import UNFRIENDLY_COUNTS, counts_said
from tests.test_results_at_80x24 import LONG, soe_finished
from tests.test_tui_hostile import screen_text
from tests.test_tui_soe import Keys, new_game
from tui.games.soe.board import BoardProfileScreen
from tui.games.soe.dialogs import AdjustDialog, TaxDialog
from tui.games.soe.game import SoeGameScreen
from tui.games.soe.setup import NewSoeGameScreen
from tui.screens.results import ResultsScreen
from tui.widgets.number_grid import NumberGrid
from tui.widgets.totals import TotalsPanel

SIZE = (80, 24)
ROMANIAN_REGIONS = ["Statele Germane", "Marea Baltică", "Mediterana", "Europa Centrală",
                    "Imperiul Otoman", "America de Nord", "Caraibe", "America de Sud",
                    "Africa", "India", "Indiile de Est"]

quick = pytest.mark.usefixtures("pause_skips_the_live_look")


@pytest.fixture
def romanian():
    set_language("ro")  # conftest puts English back after the test


def spaced(text: str) -> str:
    """`text` with one space between its words: a sentence wrapped over lines reads whole."""
    return " ".join(text.split())


def lines_of(app, widget) -> list[str]:
    """The lines the terminal shows where `widget` is."""
    lines = screen_text(app).splitlines()
    r = widget.region
    return [line[r.x:r.right].rstrip() for line in lines[r.y:r.bottom]]


def whole(app, grid: NumberGrid) -> str:
    """The grid's text, once it is checked to be whole: every column and row in view, none
    past the edge of the terminal."""
    assert grid.virtual_size.width <= grid.scrollable_content_region.width, "columns cut"
    assert grid.virtual_size.height <= grid.scrollable_content_region.height, "rows cut"
    assert grid.region.right <= SIZE[0] and grid.region.bottom <= SIZE[1]
    return "\n".join(lines_of(app, grid))


async def opened(app, pilot, game_id: int):
    """The game's screen, once drawn down to its footer (a pause is not enough on a busy
    machine: one run read the screen before its footer was in)."""
    await pilot.pause()
    home = app.screen
    app.open_game(game_id)
    await until(pilot, lambda: app.screen is not home and footer_drawn(app),
                "the game's screen and its footer")
    return app.screen


def footer_drawn(app) -> bool:
    """Whether the bottom line shows the footer's keys (f1 is on every screen's)."""
    try:
        lines = screen_text(app).rstrip().splitlines()
    except NoMatches:  # the screen is still being composed
        return False
    return bool(lines) and "f1" in lines[-1]


async def leave(app, pilot) -> None:
    """Back to the saved games (a game screen keeps its draft as it goes)."""
    await pilot.press("ctrl+o")
    await pilot.pause()


def test_the_tooltip_of_the_non_player_columns_says_the_rules_player_counts():
    """The tooltip is a message id, so it cannot be formatted: it names the counts the rules
    have, in words."""
    tooltip = next(b.tooltip for b in SoeGameScreen.BINDINGS if b.action == "toggle_non_players")
    assert f"with {counts_said(UNFRIENDLY_COUNTS)} players" in tooltip


@quick
async def test_a_war_in_romanian_at_80x24(table, romanian):
    """Income, upkeep, population, scoring and the end of war, each step's screen in
    Romanian, the grids whole."""
    games = {steps: new_game(table, steps) for steps in (1, 2, 3, 4, 5)}
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        # War 2's income: the region grid with all seven powers (Prussia held markers).
        screen = await opened(app, pilot, games[5])
        assert isinstance(screen, SoeGameScreen)
        await totals_laid_out(pilot)
        grid = screen.query_one(NumberGrid)
        text = whole(app, grid)
        assert all(region in text for region in ROMANIAN_REGIONS), text
        assert grid.row_keys[1] == "Baltic"  # stored by its id, shown in Romanian
        headings = [c.label for c in grid.grid_columns]
        assert headings == ["Fra", "MBr", "Aus", "Rus", "Pru°", "Spa°", "PU°"]
        assert all(h in text for h in headings)
        screen_words = spaced(screen_text(app))
        assert "Războiul 2 din 3" in screen_words
        assert "Acțiunile războiului, apoi veniturile" in screen_words
        assert "Impozit" in screen_words and "Corecție" in screen_words  # the footer
        panel = lines_of(app, screen.query_one(TotalsPanel))
        assert any(spaced(line).endswith("Jucător Putere Aur Pop Neliniște PV")
                   for line in panel), panel
        for seat in screen.state.seats:
            row = next((line for line in panel if line.lstrip().startswith(seat.name)), "")
            assert row.endswith(f" {screen.state.empires[seat.power].vp}"), panel
        assert any("Marea Britanie" in line for line in panel)
        # Letters jump to a row by a word of its Romanian name: "est", Indiile de Est.
        grid.focus()
        await typing(pilot, "e", "s", "t")
        assert grid.row_keys[grid.cursor_coordinate.row] == "East Indies"
        await typing(pilot, "m", "a")
        assert grid.row_keys[grid.cursor_coordinate.row] == "Baltic"
        await leave(app, pilot)

        # Upkeep: the units grid, and the note of who must tax (a count of the "few" form).
        screen = await opened(app, pilot, games[1])
        grid = screen.query_one(NumberGrid)
        text = whole(app, grid)
        for heading in ("Armate", "Flote", "Fortărețe", "Jetoane trase"):
            assert heading in text, text
        assert "Ana (Franța)" in text and "Bo (Marea Britanie)" in text
        assert "Întreținere: 1 aur pe armată, flotă și fortăreață" in spaced(screen_text(app))
        await Keys(pilot).cell("France", "armies", 40)  # 40 upkeep with 18 gold
        await pilot.pause()
        note = spaced(str(screen.query_one("#totals-note").render()))
        assert "Franța: întreținere 40 cu 18 aur → e nevoie de 11 impozitări, 0 date" in note
        await leave(app, pilot)

        # Population: nothing to type.
        screen = await opened(app, pilot, games[2])
        assert screen.state.phase == "population"
        words = spaced(screen_text(app))
        assert "Populația fiecărui jucător crește cu" in words, words
        await leave(app, pilot)

        # Scoring: the region grid again, and why each region gives what it gives.
        screen = await opened(app, pilot, games[3])
        assert screen.state.phase == "scoring"
        text = whole(app, screen.query_one(NumberGrid))
        assert all(region in text for region in ROMANIAN_REGIONS), text
        words = spaced(screen_text(app))
        assert "Punctare: cele 11 regiuni cu PV" in words
        explained = spaced(str(screen.query_one("#explain").render()))
        assert explained.startswith("PV la această punctare Statele Germane (8/5/3):")
        assert "Total: Franța" in explained
        await leave(app, pilot)

        # End of war: the checklist, and a refusal while it is not all ticked.
        screen = await opened(app, pilot, games[4])
        assert screen.state.phase == "end_war"
        words = spaced(screen_text(app))
        assert "Sfârșitul războiului" in words and "bifează un punct" in words, words
        await pilot.press("enter")
        await pilot.pause()
        message = spaced(str(screen.query_one("#message").render()))
        assert message == ("6 puncte din listă nu sunt bifate încă (x bifează, a: toate "
                           "gata)")


@quick
async def test_the_dialogs_of_a_war_in_romanian(table, romanian):
    game_id = new_game(table, 0)
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(app, pilot, game_id)
        await pilot.press("ctrl+x")
        await pilot.pause()
        assert isinstance(app.screen, TaxDialog)
        words = spaced(screen_text(app))
        assert "Impozitare: +2 aur și un jeton de neliniște tras din sac" in words, words
        assert "Cine impozitează" in words and "Ana (Franța)" in words
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert isinstance(app.screen, AdjustDialog)
        words = spaced(screen_text(app))
        assert "Corecție: adaugă sau scade" in words and "Pentru cine" in words, words
        await pilot.press("ctrl+s")  # nothing typed: refused, in Romanian
        await pilot.pause()
        refusal = str(app.screen.query_one("#dialog-message").render())
        assert refusal.startswith("Nimic de corectat: scrie o schimbare de aur"), refusal
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


@quick
async def test_the_end_of_the_game_and_its_results_in_romanian(table, romanian):
    ending = new_game(table, 14)
    finished = soe_finished(table.ledger()).id  # Cy is called LONG: 24 characters
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(app, pilot, ending)
        assert screen.state.phase == "end_game"
        explained = spaced(str(screen.query_one("#explain").render()))
        assert explained.startswith("Sfârșitul jocului"), explained
        assert "Di (Rusia): neliniște" in explained
        assert "20 sau mai mult: revoluție, PV 0, iese din joc" in explained
        await leave(app, pilot)

        screen = await opened(app, pilot, finished)
        assert isinstance(screen, ResultsScreen)
        await pilot.pause()
        words = spaced(screen_text(app))
        assert "În revoluție (neliniște 20 sau mai mult), PV finale 0: Di (Rusia)" in words
        standings = spaced("\n".join(lines_of(app, screen.query_one("#standings"))))
        assert "Rusia" in standings and "Franța" in standings, standings
        assert "putere" in standings and "penal." in standings, standings
        assert LONG in standings  # the headings are short enough for the longest name
        title = screen.query_one("#regions-title")
        assert str(title.render()) == "PV pe regiuni, războaiele 1–3 adunate"
        regions = screen.query_one("#regions")
        assert [str(c.label) for c in regions.columns.values()] == [
            "regiune", "Franța", "Marea Britanie", "Austria", "Rusia"]
        assert str(regions.get_row("German States")[0]) == "Statele Germane"


@quick
async def test_a_new_game_and_a_board_profile_in_romanian(table, romanian):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(NewSoeGameScreen())
        await pilot.pause()
        words = spaced(screen_text(app))
        form = app.screen.query_one(VerticalScroll)
        form.scroll_end(animate=False)  # the form is taller than 24 lines, in English too
        await pilot.pause()
        words += " " + spaced(screen_text(app))
        for label in ("Aur la început", "Populație", "Aur pe impozitare", "Egalități 4–7 juc.",
                      "Egalități 2–3 juc.", "Penalități", "distinctă", "Tabla",
                      "Editează (e)", "Marea Britanie", "Provinciile Unite", "împărțită",
                      "retrogradare"):
            assert label in words, (label, screen_text(app))
        app.push_screen(BoardProfileScreen())  # the new game's e, but for the typing
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BoardProfileScreen)
        text = whole(app, screen.query_one(NumberGrid))
        assert all(region in text for region in ROMANIAN_REGIONS), text
        assert all(place in text for place in ("Loc 1", "Loc 2", "Loc 3"))
        assert "Table" in spaced(screen_text(app))
        # The buttons are under the fold at 24 lines (in English too).
        assert str(screen.query_one("#save", Button).label) == "Salvează (ctrl+s)"
        assert str(screen.query_one("#back", Button).label) == "Înapoi (esc)"

        # Typed values stay when the language changes (the screen is made again).
        grid = screen.query_one(NumberGrid)
        grid.focus()
        await pilot.press("down", "6")  # Baltic, 1st place
        await pilot.pause()
        await app.switch_language("en")
        await pilot.pause()
        again = app.screen
        assert isinstance(again, BoardProfileScreen) and again is not screen
        assert again.query_one(NumberGrid).value("Baltic", "1") == 6
        assert "Baltic" in whole(app, again.query_one(NumberGrid))
