"""Risk read in Romanian at 80x24 (issue 24): a game of each victory mode opens with its
words in Romanian (phase bar, step, hints, the grids' and totals' headings, the box's
colours, the footer), the grids whole on the terminal; the round typed by territory, the
dialogs, the tie-break and the new-game screen too. Games are set up through the ledger, as
in test_tui_risk, and opened."""

from __future__ import annotations

import pytest
from pilot_pace import (  # noqa: F401 - a fixture
    pause_skips_the_live_look,
    shows,
    totals_laid_out,
    typing,
)

from i18n import set_language
from rules.risk import CONTINENTS
from tests.test_tui_hostile import screen_text
from tui.games.risk.dialogs import (
    ClaimDialog,
    ConcedeDialog,
    EliminateDialog,
    MissionCardDialog,
    StalemateDialog,
    WhoseMissionDialog,
)
from tui.games.risk.forms import PositionGrid
from tui.games.risk.game import RiskGameScreen
from tui.games.risk.setup import NewRiskGameScreen
from tui.widgets.number_grid import NumberGrid
from tui.widgets.totals import TotalsPanel

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")
SIZE = (80, 24)

THREE = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
         {"name": "Cy", "color": "green"}]
MISSIONS = [{"name": "Ana", "color": "red", "mission": "destroy:green"},
            {"name": "Bo", "color": "blue", "mission": "asia+africa"},
            {"name": "Cy", "color": "green", "mission": "18x2"}]
# Each mode: its settings, its players, its name in the sub-title, where its phase bar starts.
MODES = {
    "fixed_rounds": ({"mode": "fixed_rounds", "rounds": 10}, THREE, "runde fixe",
                     "Runda 1 din 10"),
    "conquest": ({"mode": "conquest"}, THREE, "cucerirea lumii", "Runda 1"),
    "missions": ({"mode": "missions"}, MISSIONS, "misiuni secrete", "Runda 1"),
}
# Words these screens wrote in English before issue 24: none is left on them in Romanian.
ENGLISH = ("Close round", "Round ", "Colour", "Armies", "Terr.", "Playing", "Tie to settle",
           "Positions are optional", "elimination", "My mission", "red)", "N.Am")


def lines_of(app, widget) -> list[str]:
    """The lines the terminal shows where `widget` is."""
    r = widget.region
    return [line[r.x:r.right].rstrip() for line in screen_text(app).splitlines()[r.y:r.bottom]]


def spaced(line: str) -> str:
    return " ".join(line.split())


def whole(grid: NumberGrid) -> bool:
    """Every column of the grid in view: none cut or scrolled out of it."""
    return grid.virtual_size.width <= grid.scrollable_content_region.width


async def open_game(pilot, settings: dict, players: list[dict]) -> RiskGameScreen:
    await pilot.pause()
    game = pilot.app.ledger.create_game("risk", "Diseară", settings, players)
    pilot.app.open_game(game.id)
    await shows(pilot, RiskGameScreen)
    await totals_laid_out(pilot)
    return pilot.app.screen


@pytest.mark.parametrize("mode", list(MODES))
async def test_a_risk_game_of_each_mode_reads_in_romanian_at_80x24(table, mode):
    settings, players, named, where = MODES[mode]
    set_language("ro")
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, settings, players)
        text = screen_text(app)
        assert named in screen.sub_title
        bar = screen.query_one("#phase-bar")
        phase = str(bar.render())
        assert phase.startswith(where) and "Închide runda" in phase, phase
        assert bar.render().cell_len <= bar.size.width  # the phase bar is never cut
        assert "Închide runda 1: teritorii, armate și continente deținute" in text
        assert "Scrie teritoriile și armatele" in str(screen.query_one("#step-hint").render())

        grid = screen.query_one(PositionGrid)
        assert whole(grid) and grid.region.right <= SIZE[0]
        heading = spaced(lines_of(app, grid)[0])
        assert heading == "Terit. Armate AmN AmS Eur Afr Asia Aus", heading
        assert "Ana (roșu)" in text and "Bo (albastru)" in text

        panel = screen.query_one(TotalsPanel)
        totals = lines_of(app, panel)
        header = next(line for line in totals if "Jucător" in line)
        assert spaced(header).endswith("Jucător Culoare Terit. Cont. Armate Scor Elim."), totals
        assert any("Cy" in line and "verde" in line for line in totals), totals

        footer = text.splitlines()[-1]
        assert "Elim." in footer, footer
        if mode == "missions":
            assert "Reușit" in footer and "Misiunea" in footer, footer
        if mode != "fixed_rounds":
            assert "Scor: punctele din runde fixe" in text
        assert not [word for word in ENGLISH if word in text], text

        titles = [command.title for command in screen.commands()]
        assert "Înregistrează: impas" in titles and "Comută: introducerea rundei" in titles
        assert "Misiunile rămân secrete" in screen.help_text()


async def test_the_round_by_territory_in_romanian(table):
    set_language("ro")
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, {"mode": "fixed_rounds", "rounds": 2}, THREE)
        await typing(pilot, "ctrl+g")
        await pilot.pause()
        assert "Runda se introduce pe teritoriu" in str(screen.query_one("#message").render())
        grid = screen.query_one(NumberGrid)
        assert whole(grid)
        lines = lines_of(app, grid)
        assert spaced(lines[0]) == "Loc Armate", lines
        # The continents' names in a column of their own, as wide as the longest.
        assert lines[1].strip().startswith("America de Nord Alaska"), lines
        assert "Numerele locurilor: 1 Ana (roșu)  2 Bo (albastru)  3 Cy (verde)" in \
            screen_text(app)
        owner = {"North America": "1", "South America": "1", "Europe": "2", "Africa": "2",
                 "Asia": "3", "Australia": "3"}
        await typing(pilot, *(key for continent, (names, _bonus) in CONTINENTS.items()
                               for _name in names
                               for key in (owner[continent], "full_stop")))
        await pilot.pause()
        derived = str(screen.query_one("#derived").render())
        assert "Cy 16 terit., 16 armate, Asia, Aus" in derived, derived
        assert "Ana 13 terit., 13 armate, AmN, AmS" in derived, derived


def test_counts_take_the_three_romanian_forms():
    set_language("ro")
    from rules.risk.board import territories_counted

    assert territories_counted(1) == "1 teritoriu"
    assert territories_counted(2) == "2 teritorii"
    assert territories_counted(20) == "20 de teritorii"
    set_language("en")
    assert territories_counted(1) == "1 territory"


async def test_the_dialogs_read_in_romanian_at_80x24(table):
    set_language("ro")
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, {"mode": "missions"}, MISSIONS)

        await typing(pilot, "ctrl+x")
        await shows(pilot, EliminateDialog)
        text = screen_text(app)
        assert "Eliminare: un jucător și-a pierdut ultimul teritoriu" in text
        assert "Cine iese din joc" in text and "Eliminat de" in text and "(albastru)" in text
        await typing(pilot, "escape")
        await shows(pilot, RiskGameScreen)

        await typing(pilot, "ctrl+k")
        await shows(pilot, ConcedeDialog)
        text = screen_text(app)
        assert "Cedare: doar dacă grupul acceptă." in text and "da, acceptată" in text
        await typing(pilot, "escape")
        await shows(pilot, RiskGameScreen)

        await typing(pilot, "ctrl+d")
        await shows(pilot, StalemateDialog)
        assert "Impas: toți jucătorii rămași sunt de acord" in screen_text(app)
        await typing(pilot, "enter", "down", "enter")  # score the position: its grid shows
        await pilot.pause()
        dialog = app.screen
        assert dialog.query_one("#resolution").value == "fixed_round"
        grid = dialog.query_one(PositionGrid)
        assert whole(grid) and grid.region.right <= SIZE[0]
        assert 0 < dialog.query_one("#ok").region.bottom <= SIZE[1]  # its buttons in view
        text = screen_text(app)
        assert "punctarea poziției de acum (ca la runde fixe)" in text
        assert "Poziția de acum (necesară: nicio poziție nu a fost introdusă încă)" in text
        await typing(pilot, "escape")
        await shows(pilot, RiskGameScreen)

        await typing(pilot, "ctrl+f")
        await shows(pilot, ClaimDialog)
        grid = app.screen.query_one(PositionGrid)
        assert whole(grid) and grid.region.right <= SIZE[0]
        assert 0 < app.screen.query_one("#ok").region.bottom <= SIZE[1]
        text = screen_text(app)
        assert "Misiune îndeplinită: jucătorul își arată cartea la masă" in text
        assert "Cine își arată cartea" in text
        await typing(pilot, "escape")
        await shows(pilot, RiskGameScreen)

        await typing(pilot, "ctrl+u")
        await shows(pilot, WhoseMissionDialog)
        assert "Arată-mi misiunea: a cui?" in screen_text(app)
        await typing(pilot, "enter")
        await shows(pilot, MissionCardDialog)
        text = screen_text(app)
        assert "Misiunea secretă a lui Ana" in text and "Apasă orice tastă ca s-o ascunzi." in text


async def test_a_tie_to_settle_reads_in_romanian(table):
    set_language("ro")
    tie = {"Ana": {"territories": 21, "armies": 22, "continents": ["Australia"]},
           "Bo": {"territories": 21, "armies": 22, "continents": ["South America"]}}
    game_id = table.ledger().replay({
        "format": "warledger/1", "game": "risk", "title": "Diseară",
        "settings": {"mode": "fixed_rounds", "rounds": 1}, "players": THREE[:2],
        "steps": [{"kind": "round", "positions": tie}]}).id
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_game(game_id)
        await shows(pilot, RiskGameScreen)
        screen = app.screen
        assert screen.state.phase == "tiebreak"
        text = screen_text(app)
        assert "Egalitate după runda 1: Ana și Bo" in text
        assert "Victorie împărțită (s)" in text and "O rundă în plus (e)" in text
        assert " Departajare " in str(screen.query_one("#phase-bar").render())
        footer = text.splitlines()[-1]
        assert "Împărțită" in footer and "Rundă în plus" in footer, footer


async def test_the_new_risk_game_reads_in_romanian_at_80x24(table):
    set_language("ro")
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(NewRiskGameScreen())
        await shows(pilot, NewRiskGameScreen)
        text = screen_text(app)
        assert "Victorie" in text and "Runde (1 la 50)" in text
        assert "runde fixe: punctare după runda convenită" in text  # the whole choice shown
        assert "roșu" in text and "albastru" in text
        assert "fiecare cu culoarea lui" in text
        assert "Scrie un titlu" in app.screen.help_text()
