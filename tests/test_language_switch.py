"""Languages at the table (issue 24): the palette's language entry makes every open screen
again in Romanian, with what was typed in the game's grid and the cursor where they were,
and back in English; the shared screens' footers fit 80 columns in Romanian; a grid's
letters find a row and a column by the names shown, not by the English ids; dates and
counts read in Romanian."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pilot_pace import (  # noqa: F401 - a fixture
    highlighted,
    pause_skips_the_live_look,
    shows,
    text_keys,
    until,
)
from textual.app import App, ComposeResult

from i18n import set_language
from tests.test_charts import league_of, results_of, settle
from tests.test_results_at_80x24 import footer_whole, soe_finished
from tests.test_tui_hostile import screen_text
from tests.test_tui_soe import Keys, new_game, open_first_game, quick
from tui.games.soe.game import SoeGameScreen
from tui.screens.history import HistoryScreen
from tui.screens.home import HomeScreen, demos_said
from tui.screens.league import LeagueScreen
from tui.screens.results import ResultsScreen
from tui.text.formatting import local_time
from tui.widgets.number_grid import Column, NumberGrid


async def choose_language(pilot, typed: str, entry: str) -> None:
    """Open the palette (ctrl+p), type `typed`, and take the entry it highlights, which
    must be `entry`."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await settle(pilot)
    await pilot.press(*text_keys(typed))
    await until(pilot, lambda: entry in highlighted(app), f"the palette to offer {entry!r}")
    await pilot.press("enter")
    await settle(pilot)


def footer_words(app) -> str:
    """The footer's line, as the terminal shows it."""
    return screen_text(app).splitlines()[-1]


@quick
async def test_the_palette_shows_the_game_in_romanian_with_the_typing_kept(table):
    session_id = new_game(table, steps=1)  # war 1's income recorded: upkeep is next
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_game(pilot)
        english = app.screen
        assert isinstance(english, SoeGameScreen)
        assert "Confirm" in footer_words(app) and "Undo" in footer_words(app)
        keys = Keys(pilot)
        await keys.cell("Britain", "fleets", 6)
        await keys.cell("Austria", "armies", 7)  # a digit fills the cell, the cursor moves on
        cursor = english.form.grid.cursor_at
        assert cursor == ("Austria", "fleets")
        english_home = app.screen_stack[0]

        await choose_language(pilot, "Language", "Language: Română")
        await until(pilot, lambda: app.screen is not english
                    and isinstance(app.screen, SoeGameScreen) and app.screen.form is not None
                    and app.focused is app.screen.form.grid, "the game made again")
        await settle(pilot)
        romanian = app.screen
        grid = romanian.form.grid
        assert "⏎ OK" in footer_words(app) and "Ia înapoi" in footer_words(app)
        assert "Totaluri" in screen_text(app)
        assert grid.value("Britain", "fleets") == 6 and grid.value("Austria", "armies") == 7
        assert grid.cursor_at == cursor
        assert [type(s).__name__ for s in app.screen_stack] == ["HomeScreen",
                                                                     "SoeGameScreen"]
        # The English home (Textual's first mode, which cannot be removed) is left empty.
        assert app.screen_stack[0] is not english_home and not english_home.children
        # Typing goes on where it was: the cursor's cell takes the next digit.
        await pilot.press("9")
        await settle(pilot)
        assert grid.value("Austria", "fleets") == 9
        cursor = grid.cursor_at

        await choose_language(pilot, "Limba", "Limba: English")
        await until(pilot, lambda: app.screen is not romanian
                    and isinstance(app.screen, SoeGameScreen) and app.screen.form is not None
                    and app.focused is app.screen.form.grid, "the game made again")
        await settle(pilot)
        grid = app.screen.form.grid
        assert "Confirm" in footer_words(app) and "⏎ OK" not in footer_words(app)
        assert [grid.value("Britain", "fleets"), grid.value("Austria", "armies"),
                grid.value("Austria", "fleets")] == [6, 7, 9]
        assert grid.cursor_at == cursor
    assert table.ledger().head(session_id) == 1  # nothing was recorded on the way


@quick
async def test_results_league_and_history_are_made_again_in_romanian(table):
    ledger = table.ledger()
    done = soe_finished(ledger)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        results = await results_of(pilot, done.id)
        await pilot.press("h")
        await shows(pilot, HistoryScreen)
        await pilot.press("up", "up")
        await settle(pilot)
        row = app.screen.query_one("DataTable").cursor_row
        await choose_language(pilot, "Language", "Language: Română")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen)
                    and app.screen.steps, "the history made again")
        await settle(pilot)
        assert "Istoricul jocului" in screen_text(app)
        assert app.screen.query_one("DataTable").cursor_row == row
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ResultsScreen) and app.screen is not results
        assert "Clasament final" in screen_text(app)
        assert "rezultate" in screen_text(app).splitlines()[0]  # the sub-title
        assert "^o Jocuri" in footer_words(app) and footer_whole(app)
        await pilot.press("l")
        await shows(pilot, LeagueScreen)
        assert "Liga: toate jocurile" in screen_text(app) and footer_whole(app)
        assert "Victorii" in screen_text(app)


async def test_romanian_footers_fit_80_columns(table):
    """The home screen's, the league's, the results' and a game's footers in Romanian:
    every key with its word, none cut."""
    set_language("ro")
    ledger = table.ledger()
    done = soe_finished(ledger)
    playing = new_game(table, steps=1)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        home = footer_words(app)
        for word in ("Deschide", "Struggle of Empires nou", "Risk nou", "Liga", "Ieși",
                     "Ajutor"):
            assert word in home, home
        assert "Profile tablă" not in home  # under 120 columns, in the help and the palette
        assert footer_whole(app), home
        await league_of(pilot)
        assert footer_whole(app), footer_words(app)
        # (the game filter's keys, "Toate" among them, are on the line under the filter)
        assert "Înapoi" in footer_words(app)
        await pilot.press("escape")
        await settle(pilot)
        await results_of(pilot, done.id)
        assert footer_whole(app), footer_words(app)
        assert "Istoric" in footer_words(app)
        await pilot.press("ctrl+o")
        await settle(pilot)
        app.open_game(playing)
        await shows(pilot, SoeGameScreen)
        assert footer_whole(app), footer_words(app)
        assert "Ajutor" in footer_words(app)


def test_dates_and_counts_in_romanian():
    moment = datetime(2026, 3, 14, 20, 0, tzinfo=UTC)
    set_language("ro")
    said = local_time(moment, "EEEE d MMMM yyyy")
    assert "martie" in said and ("sâmbătă" in said or "vineri" in said or "duminică" in said)
    assert demos_said([(1, True)]) == "Am adăugat un joc demo: deschide-l cu Enter."
    assert demos_said([(1, True), (2, True)]).startswith("Am adăugat 2 jocuri demo")
    assert demos_said([(i, True) for i in range(20)]).startswith("Am adăugat 20 de jocuri")
    set_language("en")
    assert demos_said([(1, True), (2, True)]) == "2 demo games added: open one with Enter."


class GridApp(App):
    """One grid of powers as a Romanian reader sees them: names from the catalogs, the
    columns headed by their short names."""

    def compose(self) -> ComposeResult:
        from rules.soe.regions import shown

        powers = ["Austria", "Britain", "France", "Spain", "United Provinces"]
        yield NumberGrid([(p, f"{name} ({shown(p)})") for p, name in
                          zip(powers, ["Ana", "Bo", "Cy", "Di", "Ed"], strict=True)],
                         [Column(p, p[:3]) for p in powers], id="grid")


@pytest.mark.parametrize("language, letters, row", [
    ("ro", "f", "France"),  # Franța
    ("ro", "m", "Britain"),  # Marea Britanie: not by "Britain"
    ("ro", "franta", "France"),  # typed without ț
    ("ro", "p", "United Provinces"),  # Provinciile Unite
    ("en", "b", "Britain"),
    ("en", "u", "United Provinces"),
])
async def test_grid_letters_find_the_row_by_the_name_shown(language, letters, row):
    set_language(language)
    app = GridApp()
    async with app.run_test(size=(100, 20)) as pilot:
        grid = app.query_one(NumberGrid)
        grid.focus()
        await pilot.pause()
        await pilot.press(*letters)
        await pilot.pause()
        assert grid.cursor_at[0] == row


async def test_grid_capitals_find_the_column_by_the_name_shown():
    set_language("ro")
    app = GridApp()
    async with app.run_test(size=(100, 20)) as pilot:
        grid = app.query_one(NumberGrid)
        grid.focus()
        await pilot.pause()
        await pilot.press("M")  # Marea Britanie, headed "Bri"
        await pilot.pause()
        assert grid.cursor_at[1] == "Britain"
        await pilot.press("F")
        await pilot.pause()
        assert grid.cursor_at[1] == "France"
        await pilot.press("P")  # Provinciile Unite, headed "Uni"
        await pilot.pause()
        assert grid.cursor_at[1] == "United Provinces"


async def test_a_setup_form_is_made_again_with_what_was_typed(table):
    """The new-game form in Romanian keeps the title, the names and the choices typed in
    English, the focus where it was; the game it starts opens, as from the first form."""
    from textual.widgets import Input, Select

    from tui.games.soe.setup import NewSoeGameScreen

    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await shows(pilot, NewSoeGameScreen)
        english = app.screen
        await pilot.press(*text_keys("Friday"), "tab", *text_keys("Ana"), "tab")
        english.query_one("#power-1", Select).value = "France"
        await pilot.press("tab", *text_keys("Bo"))
        await settle(pilot)
        await choose_language(pilot, "Language", "Language: Română")
        await until(pilot, lambda: isinstance(app.screen, NewSoeGameScreen)
                    and app.screen is not english
                    and app.screen.query_one("#name-2", Input).value == "Bo",
                    "the form made again with its typing")
        await settle(pilot)
        form = app.screen
        assert "Joc nou: Struggle of Empires" in screen_text(app)
        assert form.query_one("#title", Input).value == "Friday"
        assert form.query_one("#name-1", Input).value == "Ana"
        assert form.query_one("#power-1", Select).value == "France"
        assert app.focused is form.query_one("#name-2", Input)
        await pilot.press("ctrl+s")
        await shows(pilot, SoeGameScreen)
        assert app.screen.game.title == "Friday"
        assert [s.name for s in app.screen.game.state.seats] == ["Ana", "Bo"]
