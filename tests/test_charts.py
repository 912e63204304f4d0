"""Charts of a game and of the league (issue 14): the rounds read back from a Risk timeline,
the league points game after game, and the line charts on the results and league screens,
with players called `[b]Ana[/b]` and `Bo[/]` drawn as typed. Games are set up through the
ledger."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from textual.color import Color

from rules.league import POINTS, outcomes, points_over_time
from rules.risk import RISK
from rules.risk.progress import score_by_round, territories_by_round
from rules.timeline import Timeline, read_step
from tests.test_tui_soe import session_file as soe_session_file
from tui.screens.league import LeagueScreen
from tui.screens.results import ResultsScreen
from tui.widgets.charts import LineChart, label, spread, whole_ticks

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

NAMES = ["[b]Ana[/b]", "Bo[/]", "Cy"]


def pos(territories: int, armies: int, *continents: str) -> dict:
    return {"territories": territories, "armies": armies, "continents": list(continents)}


# A fixed-round game of three rounds: round 1 with positions, a round with positions taken
# back by undo, round 2 without positions (nothing to draw), Cy eliminated, round 3 scored.
ROUND_1 = {NAMES[0]: pos(20, 30, "Australia"), NAMES[1]: pos(12, 20), NAMES[2]: pos(10, 15)}
UNDONE = {NAMES[0]: pos(30, 40), NAMES[1]: pos(6, 20), NAMES[2]: pos(6, 15)}
ROUND_3 = {NAMES[0]: pos(25, 40, "Africa"), NAMES[1]: pos(17, 25, "South America")}
RISK_STEPS = [{"kind": "round", "positions": ROUND_1},
              {"kind": "round", "positions": UNDONE}, {"kind": "undo"},
              {"kind": "round"},
              {"kind": "eliminate", "player": NAMES[2], "by": NAMES[0]},
              {"kind": "round", "positions": ROUND_3}]
# Scores: territories + continent bonuses + armies // 5.
RISK_SCORES = {NAMES[0]: [20 + 2 + 6, 25 + 3 + 8], NAMES[1]: [12 + 0 + 4, 17 + 2 + 5],
               NAMES[2]: [10 + 0 + 3, 0]}
RISK_PLAYERS = [{"name": name, "color": colour}
                for name, colour in zip(NAMES, ("red", "blue", "green"), strict=True)]
RISK_SETTINGS = {"mode": "fixed_rounds", "rounds": 3}


def risk_timeline() -> Timeline:
    settings = RISK.read_settings(RISK_SETTINGS)
    timeline = Timeline(RISK, RISK.start(settings, RISK.read_players(RISK_PLAYERS, settings)))
    for step in RISK_STEPS:
        timeline = timeline.then(read_step(RISK, step))
    return timeline


# ---------------------------------------------------------------- the data, pure

@pytest.mark.unit
def test_score_by_round_reads_the_rounds_with_positions_back_from_the_timeline():
    timeline = risk_timeline()
    assert timeline.state.finished and timeline.state.winners == (NAMES[0],)
    scores = score_by_round(timeline)
    assert scores.rounds == (1, 3)  # round 2 had no positions, the undone one is gone
    assert scores.values == {name: tuple(v) for name, v in RISK_SCORES.items()}
    assert list(scores.values) == NAMES  # seat order
    territories = territories_by_round(timeline)
    assert territories.rounds == (1, 3)
    assert territories.values == {NAMES[0]: (20, 25), NAMES[1]: (12, 17), NAMES[2]: (10, 0)}


@pytest.mark.unit
def test_a_game_without_positions_has_no_rounds_to_draw():
    settings = RISK.read_settings({"mode": "conquest"})
    timeline = Timeline(RISK, RISK.start(settings, RISK.read_players(RISK_PLAYERS[:2],
                                                                       settings)))
    for step in ({"kind": "round"}, {"kind": "round"}):
        timeline = timeline.then(read_step(RISK, step))
    got = territories_by_round(timeline)
    assert got.rounds == () and got.values == {NAMES[0]: (), NAMES[1]: ()}


def game(session: int, day: int, points: int) -> SimpleNamespace:
    """A finished game in a player's history, as Ledger.history gives it."""
    return SimpleNamespace(session_id=session, points=points,
                           finished_at=datetime(2026, 3, day, 21, tzinfo=UTC))


@pytest.mark.unit
def test_league_points_add_up_game_after_game_in_date_order():
    histories = {  # newest first, as the ledger gives them
        NAMES[1]: [game(7, 20, 3), game(3, 13, 1), game(5, 6, 3)],
        NAMES[0]: [game(3, 13, 1), game(5, 6, 0)],
        "Cy": [game(9, 27, 3)],
    }
    dates, lines = points_over_time(histories)
    assert [d.day for d in dates] == [6, 13, 20, 27]
    assert lines == {NAMES[1]: [3, 4, 7, 7], NAMES[0]: [0, 1, 1, 1], "Cy": [0, 0, 0, 3]}
    assert points_over_time({}) == ([], {})


@pytest.mark.unit
def test_axis_ticks_and_legend_labels():
    assert whole_ticks(1) == [0, 1]
    assert whole_ticks(57) == [0, 20, 40, 60]
    assert whole_ticks(100) == [0, 20, 40, 60, 80, 100]
    assert spread(4) == [0, 1, 2, 3]
    assert spread(500, 6) == [0, 100, 200, 299, 399, 499]
    # plotext's picture is read back as ANSI: a control character must not get through.
    assert label("[b]Ana[/b]") == "[b]Ana[/b]"
    assert label("Bo\x1b[2J\nx") == "Bo\\x1b[2J\\nx"
    assert len(label("L" * 300)) == 24


def test_no_screen_before_a_chart_imports_plotext():
    """plotext costs some 60 ms to import: the home screen (whose first frame is measured)
    and the modules of the screens that draw charts leave it for when a chart is drawn."""
    code = ("import sys; import tui.app, tui.screens.home, tui.screens.results, "
            "tui.screens.league; print(sorted(m for m in sys.modules if 'plotext' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- on the screens

def plotted(chart: LineChart) -> dict[str, list[float]]:
    """What plotext was given to draw: each line's label and values (its figure's data)."""
    monitor = chart.plt._active.monitor
    return dict(zip(monitor.label, (list(y) for y in monitor.y), strict=True))


def first_colour(chart: LineChart) -> tuple[int, int, int]:
    """The colour plotext draws the first line in."""
    return tuple(chart.plt._active.monitor.color[0][0])


def drawn(chart: LineChart) -> str:
    """The chart's picture as text."""
    return chart.render().plain


async def settle(pilot) -> None:
    for _ in range(3):
        await pilot.pause()


async def results_of(pilot, game_id: int) -> ResultsScreen:
    """The results screen of a finished game, opened as the home screen opens it."""
    await settle(pilot)
    pilot.app.open_game(game_id)
    await settle(pilot)
    assert isinstance(pilot.app.screen, ResultsScreen)
    return pilot.app.screen


async def league_of(pilot) -> LeagueScreen:
    """The league screen, opened from the home screen by its key."""
    await settle(pilot)
    await pilot.press("l")
    await settle(pilot)
    assert isinstance(pilot.app.screen, LeagueScreen)
    return pilot.app.screen


def soe_game(ledger):
    data = soe_session_file()
    for player, name in zip(data["players"], NAMES, strict=False):
        player["name"] = name
    return ledger.replay(data)


def risk_game(ledger):
    """The fixed-round Risk game of RISK_STEPS, recorded step by step (undo included)."""
    created = ledger.create_game("risk", "Tonight", RISK_SETTINGS, RISK_PLAYERS)
    for step in RISK_STEPS:
        if step["kind"] == "undo":
            ledger.undo(created.id)
        else:
            ledger.record(created.id, step)
    return created


async def test_soe_results_draw_vp_after_each_war_and_final_vp(table):
    ledger = table.ledger()
    done = soe_game(ledger)
    state, report = done.state, done.report().to_json()
    final = {row["player"]: row["final_vp"] for row in report["standings"]}
    expected = {seat.name: [vp[seat.power] for vp in state.vp_by_war] + [final[seat.name]]
                for seat in state.seats}
    assert len(state.vp_by_war) == 3 and NAMES[0] in expected and NAMES[1] in expected
    # Russia ends in revolution: its final point is below its VP after war 3.
    assert any(line[3] < line[2] for line in expected.values())
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        chart = (await results_of(pilot, done.id)).query_one("#progress", LineChart)
        assert chart.points == ["war 1", "war 2", "war 3", "final"]
        assert chart.lines == expected
        assert plotted(chart) == expected  # one line per player, as typed
        picture = drawn(chart)
        assert NAMES[0] in picture and NAMES[1] in picture and "final" in picture

        # The lines take the theme's colours, and another theme recolours them.
        light = "textual-light" if app.theme != "textual-light" else "textual-dark"
        before = first_colour(chart)
        app.theme = light
        await settle(pilot)
        assert first_colour(chart) == Color.parse(app.theme_variables["primary"]).rgb
        assert first_colour(chart) != before


async def test_risk_results_draw_the_score_after_each_round(table):
    ledger = table.ledger()
    created = risk_game(ledger)
    app = table.app()  # a ledger of its own: the game is resumed from its snapshot
    async with app.run_test(size=(120, 40)) as pilot:
        chart = (await results_of(pilot, created.id)).query_one("#progress", LineChart)
        assert chart.heading == "Score after each round"
        assert chart.points == ["1", "3"]
        assert plotted(chart) == RISK_SCORES
        picture = drawn(chart)
        assert all(name in picture for name in NAMES)


async def test_a_conquest_draws_territories_and_without_positions_no_chart(table):
    ledger = table.ledger()
    ids = []
    for rounds in ([{"kind": "round"}],
                   [{"kind": "round", "positions": {NAMES[0]: pos(30, 40),
                                                    NAMES[1]: pos(12, 20)}}]):
        created = ledger.create_game("risk", "Quick", {"mode": "conquest"}, RISK_PLAYERS[:2])
        for step in [*rounds, {"kind": "eliminate", "player": NAMES[1], "by": NAMES[0]}]:
            ledger.record(created.id, step)
        ids.append(created.id)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        assert not (await results_of(pilot, ids[0])).query(LineChart)  # nor an empty box
        app.pop_screen()
        chart = (await results_of(pilot, ids[1])).query_one("#progress", LineChart)
        assert chart.heading == "Territories after each round"
        assert plotted(chart) == {NAMES[0]: [30], NAMES[1]: [12]}


@pytest.mark.parametrize(("size", "under"), [((80, 24), True), ((100, 40), True),
                                             ((120, 40), False), ((170, 40), False)])
async def test_the_chart_goes_beside_the_table_when_both_fit(table, size, under):
    ledger = table.ledger()
    done = soe_game(ledger)
    app = table.app(ledger=ledger)
    async with app.run_test(size=size) as pilot:
        screen = await results_of(pilot, done.id)
        tables = screen.query_one("#results-tables")
        chart = screen.query_one("#progress", LineChart)
        assert screen.has_class("-chart-under") == under
        assert tables.region.right <= size[0]  # the table keeps to the screen
        if under:
            assert chart.virtual_region.y >= tables.virtual_region.bottom
        else:
            assert chart.region.x >= tables.region.right
            assert chart.region.y < tables.region.bottom


async def test_league_chart_adds_up_the_points_of_each_finished_game(table):
    ledger = table.ledger()
    soe = soe_game(ledger).report()
    created = risk_game(ledger)
    risk = ledger.load(created.id).report()
    games = [{player: POINTS[o] for player, o in outcomes(report).items()}
             for report in (soe, risk)]  # oldest first
    everyone = [row.player for row in ledger.league()]
    expected = {p: [games[0].get(p, 0), games[0].get(p, 0) + games[1].get(p, 0)]
                for p in everyone}
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        chart = (await league_of(pilot)).query_one("#league-chart", LineChart)
        # Four players: Ana, Bo and Cy in both games, Di in the SoE game only.
        assert len(everyone) == 4 and list(chart.lines) == everyone
        assert plotted(chart) == expected
        picture = drawn(chart)
        assert NAMES[0] in picture and NAMES[1] in picture

        await pilot.press("s")  # Struggle of Empires only: one game
        await settle(pilot)
        chart = app.screen.query_one("#league-chart", LineChart)
        assert plotted(chart) == {p: [games[0][p]] for p in outcomes(soe)}


async def test_league_chart_goes_when_no_game_counts_and_gives_way_to_a_history(table):
    ledger = table.ledger()
    soe_game(ledger)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await league_of(pilot)
        chart = screen.query_one("#league-chart", LineChart)
        assert screen.has_class("-chart-under") and chart.display
        await pilot.press("enter")  # a player's games: on a narrow screen, instead of it
        await settle(pilot)
        assert screen.query_one("#player-games").display and not chart.display
        await pilot.press("escape")
        await settle(pilot)
        assert chart.display
        await pilot.press("k")  # Risk only: no game, no chart and no empty box
        await settle(pilot)
        assert not screen.query("#league-chart")
        await pilot.press("a")
        await settle(pilot)
        assert screen.query_one("#league-chart", LineChart).display


@pytest.mark.unit
def test_a_long_league_is_charted_in_at_most_so_many_moments():
    histories = {"Ana": [game(i, 1 + i % 28, 3 if i % 2 else 0) for i in range(500)]}
    whole, _lines = points_over_time(histories)
    dates, lines = points_over_time(histories, 240)
    assert len(dates) == 240 and dates[0] == whole[0] and dates[-1] == whole[-1]
    assert lines["Ana"][-1] == 3 * 250 and lines["Ana"] == sorted(lines["Ana"])
