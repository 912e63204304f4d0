"""The results and league screens at 80x24 (issue 21): a name of 24 characters shown whole,
missions as sentences, the VP by region reached and scrolled by keys, a finished game's
history from its palette and by its key, and footers whose words are never cut. Games are
set up through the ledger; players are called `[b]Ana[/b]` and `Bo[/]`, shown as typed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from textual.widgets import DataTable, Footer

from tests.test_charts import league_of, results_of, settle
from tests.test_tui_hostile import screen_text
from tests.test_tui_soe import session_file
from tui.screens.history import HistoryScreen
from tui.screens.league import LeagueScreen

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

SMALL = (80, 24)
LONG = "Wilhelmina Augusta Marie"  # 24 characters, the most the rules accept
NAMES = ["[b]Ana[/b]", "Bo[/]", LONG, "Di"]
POWERS = ("Austria", "Britain", "France", "Prussia", "Russia", "Spain", "United Provinces")
MISSIONS = {"[b]Ana[/b]": "europe+australia+any", "Bo[/]": "asia+south-america",
            LONG: "destroy:red", "Di": "24"}
SENTENCES = {"[b]Ana[/b]": "Conquer Europe, Australia and one more continent of your choice",
             "Bo[/]": "Conquer Asia and South America", LONG: "Destroy all red armies",
             "Di": "Occupy 24 territories"}
COLOURS = dict(zip(NAMES, ("red", "blue", "green", "yellow"), strict=True))


def soe_finished(ledger, players: int = 4):
    """The whole game of test_tui_soe with our names; with more players, three wars of a
    seven-power game (every power at the table)."""
    data = session_file()
    if players == 4:
        for player, name in zip(data["players"], NAMES, strict=True):
            player["name"] = name
        return ledger.replay(data)
    names = [*NAMES, "Ed", "Flo", "Gus"][:players]
    data["players"] = [{"name": n, "power": p} for n, p in zip(names, POWERS, strict=False)]
    grid = {"German States": {p: i + 1 for i, p in enumerate(POWERS[:players])},
            "East Indies": {POWERS[players - 1]: 3}}
    war = [{"kind": "income", "regions": grid}, {"kind": "upkeep", "units": {}, "taxes": {}},
           {"kind": "population"}, {"kind": "scoring"}]
    data["steps"] = [*war, {"kind": "end_war"}, *war, {"kind": "end_war"}, *war,
                     {"kind": "end_game"}]
    return ledger.replay(data)


def risk_fixed_finished(ledger):
    """Three agreed rounds, the last scored; Di out."""
    positions = {"[b]Ana[/b]": (20, 45, ["South America", "Australia"]),
                 "Bo[/]": (14, 35, ["Europe"]), LONG: (8, 20, [])}
    game = ledger.create_game("risk", "Fixed night", {"mode": "fixed_rounds", "rounds": 2},
                              [{"name": n, "color": COLOURS[n]} for n in NAMES])
    ledger.record(game.id, {"kind": "round"})
    ledger.record(game.id, {"kind": "eliminate", "player": "Di", "by": "[b]Ana[/b]"})
    return ledger.record(game.id, {"kind": "round", "positions": {
        n: {"territories": t, "armies": a, "continents": c}
        for n, (t, a, c) in positions.items()}})


def risk_missions_finished(ledger):
    """A missions game won by Bo[/]'s claim: every card is shown on the results."""
    game = ledger.create_game("risk", "Missions night", {"mode": "missions"},
                              [{"name": n, "color": COLOURS[n], "mission": MISSIONS[n]}
                               for n in NAMES])
    ledger.record(game.id, {"kind": "round"})
    return ledger.record(game.id, {"kind": "mission_complete", "player": "Bo[/]"})


@asynccontextmanager
async def results_at_80x24(table, game) -> AsyncIterator[tuple]:
    """The pilot, the results screen and the game, `game(ledger)` stored and opened."""
    ledger = table.ledger()
    done = game(ledger)
    app = table.app(ledger=ledger)
    async with app.run_test(size=SMALL) as pilot:
        yield pilot, await results_of(pilot, done.id), done


def rows(app) -> list[str]:
    """The terminal's lines, without the page's scroll bar (the last two columns)."""
    return [line[:app.size.width - 2] for line in screen_text(app).splitlines()]


def row_with(app, word: str) -> str:
    return next((line for line in rows(app) if word in line), "")


def in_view(app, word: str) -> bool:
    """`word` is on the terminal between the header and the footer."""
    return any(word in line for line in rows(app)[1:-1])


def headings(app) -> str:
    """The headings of the VP by region, as the terminal shows them."""
    return next(line for line in rows(app) if line.strip().startswith("region")).rstrip()


def footer_whole(app) -> bool:
    """The footer's keys all fit its width: no word cut at the edge."""
    footer = app.screen.query_one(Footer)
    return footer.virtual_size.width <= footer.size.width


@pytest.mark.parametrize("game", [soe_finished, risk_fixed_finished])
async def test_results_show_a_24_character_name_whole(table, game):
    async with results_at_80x24(table, game) as (pilot, screen, done):
        app = pilot.app
        standing = row_with(app, LONG)
        assert standing, screen_text(app)
        report = next(r for r in done.report().to_json()["standings"] if r["player"] == LONG)
        assert standing.split()[0] == str(report["rank"])  # the table's row, not the chart's
        assert "…" not in standing
        for name in NAMES[:2]:  # the others as typed, never as markup
            assert name in screen_text(app)
        # Every number of the row whole: the VP (or score) ends it.
        last = report["final_vp"] if "final_vp" in report else report["score"]
        assert standing.rstrip().endswith(f" {last}")
        assert footer_whole(app)


async def test_mission_sentences_are_on_one_line_where_they_fit(table):
    async with results_at_80x24(table, risk_missions_finished) as (pilot, screen, done):
        app = pilot.app
        for name, sentence in SENTENCES.items():
            line = f"{name} ({COLOURS[name]}): {sentence}"
            if len(line) + 2 <= SMALL[0] - 2:  # the padding, the scroll bar
                assert row_with(app, line).strip() == line, screen_text(app)
        # The longest is a sentence too, on two lines at most: broken between words only.
        text = str(screen.query_one("#missions").render())
        assert " ".join(text.split()).count(SENTENCES["[b]Ana[/b]"]) == 1
        assert len([line for line in rows(app) if "Conquer Europe" in line
                    or "your choice" in line]) <= 2


async def test_vp_by_region_is_reached_and_scrolled_by_keys(table):
    async with results_at_80x24(table, soe_finished) as (pilot, screen, done):
        app = pilot.app
        regions = screen.query_one("#regions", DataTable)
        assert regions.row_count == 12  # the 11 regions and their total
        assert not in_view(app, "East Indies")  # below the fold at first
        await pilot.press("tab")
        await settle(pilot)
        assert app.focused is regions
        for _ in range(11):
            await pilot.press("down")
        await settle(pilot)
        assert regions.cursor_row == 11
        assert in_view(app, "East Indies") and in_view(app, "Total")
        total = row_with(app, "Total").split()
        # The wars' VP added up, before the unrest penalties: each power's VP.
        assert total[1:] == [str(done.state.empires[s.power].vp) for s in done.state.seats]


async def test_vp_by_region_of_seven_powers_scrolls_sideways(table):
    async with results_at_80x24(table, partial(soe_finished, players=7)) as (pilot, screen,
                                                                             done):
        app = pilot.app
        regions = screen.query_one("#regions", DataTable)
        assert regions.virtual_size.width > regions.size.width  # wider than the screen
        await pilot.press("tab", *["down"] * 11)
        await settle(pilot)
        assert "United Provinces" not in headings(app)  # past the edge
        await pilot.press("end")  # the right end (ctrl+end is the last row)
        await settle(pilot)
        assert "United Provinces" in headings(app), screen_text(app)
        east_indies = row_with(app, "East Indies").split()
        assert east_indies[:2] == ["East", "Indies"]  # the region stays in sight
        from rules.soe.progress import vp_by_region

        assert east_indies[-1] == str(vp_by_region(done.timeline)["East Indies"][POWERS[-1]])


async def test_history_opens_from_a_finished_games_palette_and_by_its_key(table):
    async with results_at_80x24(table, risk_missions_finished) as (pilot, screen, done):
        app = pilot.app
        assert "h History" in rows(app)[-1] and footer_whole(app)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"history")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        assert "Missions night" in screen_text(app)
        assert "Bo[/]" in screen_text(app)  # the claim, in the players' words
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)


async def test_league_at_80_columns(table):
    ledger = table.ledger()
    data = session_file()
    for player, name in zip(data["players"], [LONG, "Bo[/]", "[b]Ana[/b]", "Di"], strict=True):
        player["name"] = name
    data["title"] = "The very long title of a Friday night at the club"
    ledger.replay(data)
    risk_missions_finished(ledger)
    app = table.app(ledger=ledger)
    async with app.run_test(size=SMALL) as pilot:
        screen = await league_of(pilot)
        assert isinstance(screen, LeagueScreen)
        text = rows(app)
        assert text[1].strip() == "League: all games · all groups · all time"
        assert text[2].rstrip().endswith("a player's games")  # the keys that choose, one line
        assert LONG in row_with(app, LONG)
        assert footer_whole(app)
        standings = screen.query_one("#standings", DataTable)
        standings.move_cursor(row=next(i for i, r in enumerate(ledger.league())
                                       if r.player == LONG))
        await pilot.press("enter")
        await settle(pilot)
        assert in_view(app, f"{LONG}'s games (all games)")
        game = row_with(app, "The very long title")
        # Outcome, points and format in sight; the title cut with "…" to leave them room.
        assert game.split()[-4:] == ["loss", "0", "victory", "points"], screen_text(app)
        assert "The very long title of …" in game

        # Wider, the game's whole name and the weekday, and the title still gives way.
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        game = row_with(app, "The very long title")
        assert game.split()[-4:] == ["loss", "0", "victory", "points"], screen_text(app)
        assert "Struggle of Empires" in game and "The very long title of a Friday night" in game
