"""Every screen usable at 80x24 (issue 14): the totals panel never cuts a number, however
wide the previews before it were; the game screen puts the totals under the form on a
narrow terminal and beside it on a wide one; long names are cut with "…" instead of
pushing columns away; and a window too small for the screens says how big it must be."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look, until  # noqa: F401 - a fixture
from textual.app import App, ComposeResult

from tests.test_tui_hostile import NAMES, screen_text
from tests.test_tui_soe import REGIONS, new_game, session_file
from tui.games.soe.game import SoeGameScreen
from tui.screens.base import MIN_HEIGHT, MIN_WIDTH, SizeNotice
from tui.screens.home import HomeScreen
from tui.widgets.number_grid import NumberGrid
from tui.widgets.totals import TEXT_AT_MOST, TotalsPanel

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]
SOE_COLUMNS = ["Player", "Power", "Gold", "Pop", "Unrest", "VP"]


def shown(app, widget) -> list[str]:
    """The lines the terminal shows where `widget` is."""
    lines = screen_text(app).splitlines()
    r = widget.region
    return [line[r.x:r.right].rstrip() for line in lines[r.y:r.bottom]]


def row_of(lines: list[str], word: str) -> str:
    return next(line for line in lines if word in line)


def spaced(line: str) -> str:
    """`line` with one space between its words, to compare cells without their widths."""
    return " ".join(line.split())


async def open_game(app, pilot, game_id: int) -> SoeGameScreen:
    await pilot.pause()
    app.open_game(game_id)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, SoeGameScreen)
    # The totals are drawn a frame after the game: every test here reads them.
    panel = screen.query_one(TotalsPanel)
    await until(pilot, lambda: all(any(seat.power in line for line in shown(app, panel))
                                   for seat in screen.state.seats), "the totals drawn")
    return screen


# ---------------------------------------------------------------- the totals panel

def game_with_a_longer_name(table, steps: int) -> int:
    """The game of test_tui_soe, Di with a 12-character name (still a short one: it makes
    the totals as wide as the report's), at its first `steps`."""
    data = session_file()
    data["players"][3]["name"] = "Di Fitzwater"
    data["steps"] = data["steps"][:steps]
    return table.ledger().replay(data).id


def vp_rows(app, screen) -> dict[str, str]:
    """Each power's row of the totals panel, as the terminal shows it."""
    lines = shown(app, screen.query_one(TotalsPanel))
    return {seat.power: row_of(lines, seat.power) for seat in screen.state.seats}


@pytest.mark.parametrize("size", SIZES)
async def test_the_scoring_preview_and_the_vp_it_gives_are_whole(table, size):
    """As reported: war 1 scoring previewed '0 → 1' for 12 VP (the VP column cut by the
    panel's edge)."""
    app = table.app()
    async with app.run_test(size=size) as pilot:
        screen = await open_game(app, pilot, game_with_a_longer_name(table, steps=3))
        assert screen.state.phase == "scoring"
        preview = vp_rows(app, screen)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.state.phase == "end_war"
        confirmed = vp_rows(app, screen)
        for power, row in preview.items():
            vp = screen.state.empires[power].vp
            assert row.endswith(f"0 → {vp}"), "\n".join(preview.values())
            assert confirmed[power].endswith(f" {vp}"), "\n".join(confirmed.values())
        assert screen.state.empires["France"].vp >= 10  # two digits, so a cut one shows


@pytest.mark.parametrize("size", SIZES)
async def test_vp_stays_whole_after_a_wider_preview_in_another_column(table, size):
    """As reported: once a preview had widened the Gold column ('18 → 15'), it stayed that
    wide, and the VP confirmed next showed '1' for 12 (reopening the game showed 12)."""
    app = table.app()
    async with app.run_test(size=size) as pilot:
        screen = await open_game(app, pilot, game_with_a_longer_name(table, steps=1))
        await pilot.press("3")  # France's armies at upkeep: its gold would drop
        await pilot.pause()
        assert "18 → 15" in vp_rows(app, screen)["France"]
        await pilot.press("enter")  # upkeep, and by themselves population and scoring
        await pilot.pause()
        assert screen.state.phase == "end_war"
        for power, row in vp_rows(app, screen).items():
            assert row.endswith(f" {screen.state.empires[power].vp}"), row


class PanelApp(App):
    """A totals panel alone, `width` cells wide (border and padding as in app.tcss)."""

    def __init__(self, width: int, columns: list[str] = SOE_COLUMNS) -> None:
        super().__init__()
        self.width = width
        self.columns = columns

    CSS = "TotalsPanel { padding: 0 1; border-left: tall $panel; }"

    def compose(self) -> ComposeResult:
        panel = TotalsPanel(self.columns)
        panel.styles.width = self.width
        yield panel


LONG = "Wilhelmina Augusta Marie C"[:TEXT_AT_MOST + 1]  # one more than the rules accept
ROWS = [[LONG, "United Provinces", 10, 5, 3, 10], [NAMES[3], "Austria", 9, 9, 0, 12],
        ["Bo", "Britain", 10, 5, 0, 9]]
AFTER = [[LONG, "United Provinces", 16, 9, 13, 16], [NAMES[3], "Austria", 19, 9, 0, 22],
         ["Bo", "Britain", 10, 5, 0, 9]]


async def test_long_names_give_way_and_every_number_stays_whole():
    app = PanelApp(56)  # the panel beside the form at 120 columns
    async with app.run_test(size=(80, 12)) as pilot:
        panel = app.query_one(TotalsPanel)
        panel.show(ROWS, AFTER)
        await pilot.pause()
        lines = shown(app, panel)
        assert "VP" in lines[1]
        first, second, third = (row_of(lines, w) for w in ("10 → 16", "12 → 22", "Britain"))
        assert spaced(first).endswith(" 10 → 16 5 → 9 3 → 13 10 → 16"), lines
        assert "Wilhe" in first and "…" in first and LONG not in first  # cut, not pushed
        assert "United" in first and "United Provinces" not in first  # both give a little
        assert spaced(second).endswith(" 9 → 19 9 0 12 → 22"), lines
        assert spaced(third).endswith(" Britain 10 5 0 9"), lines

        # Wider, nothing is cut but a name longer than the rules accept (an old database).
        panel.styles.width = 80
        await pilot.pause()
        lines = shown(app, panel)
        assert LONG[:TEXT_AT_MOST - 1] + "…" in row_of(lines, "10 → 16")
        assert "United Provinces" in row_of(lines, "10 → 16")
        assert NAMES[3] in row_of(lines, "12 → 22")  # 24 characters: whole


async def test_a_column_of_words_after_the_score_gives_way_too():
    """Risk's last column says who put a player out ('by …'): words, cut like a name,
    never clipped by the panel's edge, and never pushing the score out of view."""
    columns = ["Player", "Colour", "Terr.", "Cont.", "Armies", "Score", "Out"]
    rows = [[NAMES[2], "green", 0, 0, 0, 0, f"by {NAMES[3]}"],
            [NAMES[3], "yellow", 21, 2, 35, 30, ""]]
    app = PanelApp(56, columns)
    async with app.run_test(size=(80, 8)) as pilot:
        panel = app.query_one(TotalsPanel)
        panel.show(rows)
        await pilot.pause()
        lines = shown(app, panel)
        out = row_of(lines, "green")
        assert spaced(out).split()[-3:-1] == ["0", "by"] and out.endswith("…"), lines
        assert spaced(row_of(lines, "yellow")).endswith(" yellow 21 2 35 30"), lines


# ---------------------------------------------------------------- the game screen

def game_with_long_names(table, steps: int = 0) -> int:
    data = session_file()
    for player, name in zip(data["players"], NAMES, strict=True):
        player["name"] = name  # the longest is 24 characters, the most the rules accept
    data["steps"] = data["steps"][:steps]
    return table.ledger().replay(data).id


@pytest.mark.parametrize("size", SIZES)
async def test_the_region_grid_and_the_totals_are_whole(table, size):
    """At income, the 11 regions and every power column of the grid, and all the totals,
    are on screen: beside each other from 120 columns, the totals under the grid below."""
    game_id = game_with_long_names(table, steps=5)  # war 2, income
    app = table.app()
    async with app.run_test(size=size) as pilot:
        screen = await open_game(app, pilot, game_id)
        grid = screen.query_one(NumberGrid)
        panel = screen.query_one(TotalsPanel)
        width, height = size
        assert len(grid.grid_columns) == 7  # Prussia held markers in war 1: all seven powers
        # The whole grid in view: no column or row scrolled out of it.
        assert grid.virtual_size.width <= grid.scrollable_content_region.width
        assert grid.virtual_size.height <= grid.scrollable_content_region.height
        assert grid.region.right <= width and grid.region.bottom <= height
        text = "\n".join(shown(app, grid))
        assert all(region in text for region in REGIONS)
        if width >= 120:
            assert panel.region.x >= grid.region.right  # beside
        else:
            assert panel.region.y >= grid.region.bottom  # under, the full width
            assert panel.region.width == width
        lines = shown(app, panel)
        assert spaced(lines[0 if width < 120 else 1]).endswith(" ".join(SOE_COLUMNS))
        for seat in screen.state.seats:
            row = row_of(lines, seat.power)
            assert row.endswith(f" {screen.state.empires[seat.power].vp}"), lines
            if width < 120:
                assert seat.name in row  # room enough for 24 characters


async def test_regions_without_values_are_told_at_80x24(table):
    # Printed values unknown for most regions (the defaults): scoring will wait for them.
    game = table.ledger().create_game("soe", "Friday", {}, [
        {"name": "[b]Ana[/b]", "power": "France"}, {"name": "Bo[/]", "power": "Britain"}])
    app = table.app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, game.id)
        assert screen.has_class("-short")  # the step's hint is hidden at this height
        text = screen_text(app)
        assert "still lack printed VP values: press ctrl+b" in spaced(text), text
    ledger = table.ledger()
    values = {r: [3, 2, 1] for r in ledger.load(game.id).settings.regions_missing_values}
    board = ledger.record(game.id, {"kind": "board", "regions": values})
    assert not board.state.settings.regions_missing_values
    app = table.app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, game.id)
        assert "still lack" not in screen_text(app)
        assert not screen.query_one("#step-warning").display


# ---------------------------------------------------------------- the home screen

async def test_home_at_80_columns_shows_every_player_and_names_the_game_short(table):
    data = session_file()
    data["steps"] = data["steps"][:2]  # in war 1
    names = ["[b]Ana[/b]", "Bo[/]", "Cy", "Di"]
    for player, name in zip(data["players"], names, strict=True):
        player["name"] = name
    table.ledger().replay(data)
    app = table.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        listed = row_of(screen_text(app).splitlines(), "War ")
        assert " SoE " in listed and "Struggle" not in listed
        assert ", ".join(names) in listed  # every player, literally
        await pilot.resize_terminal(130, 30)
        await pilot.pause()
        assert "Struggle of Empires" in row_of(screen_text(app).splitlines(), "War ")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        listed = row_of(screen_text(app).splitlines(), "War ")
        assert " SoE " in listed and ", ".join(names) in listed


# ---------------------------------------------------------------- too small a window

def notice_in(text: str, width: int, height: int) -> bool:
    return (f"at least {MIN_WIDTH}x{MIN_HEIGHT}" in text
            and f"it is {width}x{height} now" in text)


async def test_a_window_too_small_says_how_big_it_must_be_and_takes_no_keys(table):
    new_game(table)
    app = table.app()
    async with app.run_test(size=(38, 18)) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        text = screen_text(app)
        assert notice_in(text, 38, 18), text
        assert "Friday" not in text  # the list of games is hidden
        await pilot.press("n")  # a key for a screen nobody sees reaches nothing
        await pilot.pause()
        assert app.screen is home

        await pilot.resize_terminal(MIN_WIDTH, MIN_HEIGHT - 1)  # wide enough, too short
        await pilot.pause()
        assert notice_in(screen_text(app), MIN_WIDTH, MIN_HEIGHT - 1)

        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        text = screen_text(app)
        assert "at least" not in text and "Friday" in text
        assert not home.query_one(SizeNotice).display
        await pilot.press("enter")  # the list has the keys again: the game opens
        await pilot.pause()
        assert isinstance(app.screen, SoeGameScreen)


async def test_the_game_screen_keeps_its_typing_across_a_window_too_small(table):
    game_id = new_game(table, steps=1)  # upkeep: the units grid
    app = table.app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, game_id)
        grid = screen.query_one(NumberGrid)
        assert app.focused is grid
        await pilot.resize_terminal(39, 20)
        await pilot.pause()
        assert notice_in(screen_text(app), 39, 20)
        await pilot.press("4")
        await pilot.pause()
        assert grid.value("France", "armies") == 0  # not typed blind into the hidden grid

        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.focused is grid  # back where it was
        await pilot.press("4")
        await pilot.pause()
        assert grid.value("France", "armies") == 4

        # A dialog opened on top (by the help key, before the window shrank) says the same.
        await pilot.press("f1")
        await pilot.pause()
        assert app.screen is not screen
        await pilot.resize_terminal(38, 18)
        await pilot.pause()
        assert notice_in(screen_text(app), 38, 18)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "at least" not in screen_text(app)
