"""The group's story on screen (issue 25): the league's group and season filters and its
rating column, a player's story, head to head, balance, and the new-game form's group and
chances to win. Games are set up through the ledger (the Thursday club of tests/scenes.py,
with players called `[b]Ana[/b]` and `Bo[/]`), never by keys."""

from __future__ import annotations

import pytest
from pilot_pace import (  # noqa: F401 - a fixture
    highlighted,
    pause_skips_the_live_look,
    shows,
    typing,
    until,
)
from scenes import STORY_GROUP, STORY_NAMES, story
from textual.command import CommandPalette
from textual.widgets import DataTable, Input, Static

from rules.ratings import ALL, win_chances
from rules.risk.board import shown as colour_shown
from rules.soe.regions import shown as power_shown
from tui.games.risk.setup import NewRiskGameScreen
from tui.games.soe.setup import NewSoeGameScreen
from tui.screens.balance import BalanceScreen
from tui.screens.help import HelpScreen
from tui.screens.league import LeagueScreen
from tui.screens.player import PlayerScreen
from tui.screens.rivals import HeadToHeadScreen
from tui.screens.story import percent, rating_text
from tui.text.formatting import one_decimal
from tui.widgets.charts import LineChart
from tui.widgets.footer import Footer

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

ANA, BO = STORY_NAMES[0], STORY_NAMES[1]
OTHER_GROUP = "Our table"


def club(ledger):
    """The Thursday club's ten evenings, and one Risk game of two at 'Our table'."""
    created = ledger.create_game("risk", "Elsewhere", {"mode": "fixed_rounds", "rounds": 1},
                                 [{"name": ANA, "color": "red"}, {"name": "Eve", "color": "blue"}],
                                 group=OTHER_GROUP)
    ledger.record(created.id, {"kind": "round", "positions": {
        ANA: {"territories": 16, "armies": 20, "continents": []},
        "Eve": {"territories": 26, "armies": 30, "continents": []}}})
    story(ledger)
    return ledger


def text(widget) -> str:
    return str(widget.render())


def rows(table: DataTable) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def league(pilot) -> LeagueScreen:
    await pilot.pause()
    await pilot.press("l")
    await shows(pilot, LeagueScreen)
    return pilot.app.screen


async def story_screen(pilot, kind: type, *keys: str):
    """The league, then the screen of the group's story that `keys` open there."""
    await league(pilot)
    await press(pilot, *keys)
    await shows(pilot, kind)
    return pilot.app.screen


async def press(pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


def standings(screen: LeagueScreen) -> list[list[str]]:
    return rows(screen.query_one("#standings", DataTable))


def filter_line(screen: LeagueScreen) -> str:
    return text(screen.query_one("#league-filter", Static))


def expected_rows(ledger, game=None, group=None, season=None) -> list[list[str]]:
    ratings = ledger.stats(group, season).ratings.get(game or ALL, {})
    return [[r.player, str(r.played), str(r.wins), str(r.draws), str(r.losses), str(r.points),
             rating_text(ratings.get(r.player)).plain]
            for r in ledger.league(game, group, season)]


# ---------------------------------------------------------------- the league

async def test_league_filters_by_group_and_season_with_ratings(table):
    ledger = club(table.ledger())
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await league(pilot)
        assert "League: all games · all groups · all time" in filter_line(screen)
        assert standings(screen) == expected_rows(ledger)
        assert [row[0] for row in standings(screen)][:2] == [ANA, "Cy"]  # names as typed
        headings = [str(c.label) for c in screen.query_one("#standings", DataTable)
                    .columns.values()]
        assert headings[-1] == "Rating"
        # Every rating: the conservative figure with one decimal and its uncertainty.
        ana = ledger.stats().rating(ANA)
        assert standings(screen)[0][6].strip() == (
            f"{one_decimal(ana.mu - 3 * ana.sigma)} ±{one_decimal(ana.sigma)}")
        assert "provisional" in text(screen.query_one("#rating-hint", Static))

        await press(pilot, "g")  # the groups by name, after all groups
        assert "all games · Our table · all time" in filter_line(screen)
        assert standings(screen) == expected_rows(ledger, group=OTHER_GROUP)
        assert {row[0] for row in standings(screen)} == {ANA, "Eve"}
        assert all(row[6].endswith("*") for row in standings(screen))  # one game: provisional
        await press(pilot, "g")
        assert "Thursday club · all time" in filter_line(screen)
        await press(pilot, "g")
        assert "all groups · all time" in filter_line(screen)

        # A season chosen among every group's chooses its group.
        await press(pilot, "e")
        assert "Thursday club · Winter 2026" in filter_line(screen)
        assert standings(screen) == expected_rows(ledger, None, STORY_GROUP, "Winter 2026")
        assert standings(screen)[0][1] == "8"
        await press(pilot, "e")
        assert "Thursday club · Spring 2026" in filter_line(screen)
        assert standings(screen) == expected_rows(ledger, None, STORY_GROUP, "Spring 2026")
        await press(pilot, "e")
        assert "Thursday club · all time" in filter_line(screen)

        # The game filter picks the ratings' scope: three Struggle of Empires games each,
        # provisional.
        await press(pilot, "s")
        assert "Struggle of Empires only · Thursday club" in filter_line(screen)
        assert standings(screen) == expected_rows(ledger, "soe", STORY_GROUP)
        assert all(row[6].endswith("*") for row in standings(screen))
        await press(pilot, "k")
        assert standings(screen) == expected_rows(ledger, "risk", STORY_GROUP)
        assert not any(row[6].endswith("*") for row in standings(screen))

        # The palette offers each group and season by name.
        titles = {str(c.title): c for c in screen.commands()}
        assert {"League: all groups", "League: group Our table",
                "League: group Thursday club", "League: all time",
                "League: season Winter 2026 of Thursday club", "League: head to head",
                "League: balance", "League: highlighted player's story"} <= set(titles)
        titles["League: group Our table"].callback()
        await pilot.pause()
        assert "Risk only · Our table · all time" in filter_line(screen)
        help_text = screen.help_text()
        assert "* marks a provisional rating" in help_text and "g shows the next group" in help_text


async def test_league_at_80x24_keeps_its_lines_and_footer_whole(table):
    ledger = club(table.ledger())
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await league(pilot)
        await press(pilot, "e")
        assert screen.query_one(Footer).max_scroll_x == 0
        for line in ("#league-filter", "#league-keys", "#rating-hint"):
            widget = screen.query_one(line, Static)
            assert widget.region.height == 1 and widget.region.right <= 80, line
        standings_table = screen.query_one("#standings", DataTable)
        assert standings_table.region.right <= 80
        assert standings_table.virtual_size.width <= 80


# ---------------------------------------------------------------- a player

async def test_player_screen_tells_the_story_of_the_highlighted_player(table):
    ledger = club(table.ledger())
    stats = ledger.stats(STORY_GROUP)
    record = stats.players[ANA]
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await story_screen(pilot, PlayerScreen, "g", "g", "p")  # the club's leader
        assert screen.player == ANA
        assert text(screen.query_one("#story-title", Static)).startswith(
            f"{ANA}: Thursday club · all time")
        summary = text(screen.query_one("#player-summary", Static))
        assert (f"Games: {record.games} · wins: {record.wins} · longest winning run: "
                f"{record.longest_run}") in summary
        assert f"Rating in every game: {rating_text(stats.rating(ANA)).plain.strip()}" in summary
        nemesis = stats.head_to_head[ANA][record.nemesis]
        victim = stats.head_to_head[ANA][record.victim]
        assert (f"Nemesis: {record.nemesis}, ahead of them in {nemesis.behind} of "
                f"{nemesis.games} games") in summary
        assert (f"Victim: {record.victim}, behind them in {victim.ahead} of "
                f"{victim.games} games") in summary

        # Best side and seat per game, with the games each rests on.
        games = ledger.finished_games(STORY_GROUP)
        def tally(game, pick):
            mine = [f for g in games if g.game == game for f in g.finishes
                    if f.player == ANA and pick(f)]
            return f"{sum(f.won for f in mine)} of {len(mine)}"
        best = rows(screen.query_one("#player-best", DataTable))
        side, seat = record.best_side, record.best_seat
        assert best == [
            ["Risk", f"Colour: {colour_shown(side['risk'])}",
             tally("risk", lambda f: f.side == side["risk"])],
            ["Risk", f"Seat {seat['risk'] + 1}", tally("risk", lambda f: f.seat == seat["risk"])],
            ["Struggle of Empires", f"Power: {power_shown(side['soe'])}",
             tally("soe", lambda f: f.side == side["soe"])],
            ["Struggle of Empires", f"Seat {seat['soe'] + 1}",
             tally("soe", lambda f: f.seat == seat["soe"])]]

        # The rating after each game: one line, under zero too.
        chart = screen.query_one("#rating-chart", LineChart)
        assert chart.lines == {ANA: [x for _when, x in stats.history[ALL][ANA]]}
        assert len(chart.points) == record.games
        assert ANA in chart.render().plain

        await press(pilot, "escape")
        assert isinstance(app.screen, LeagueScreen)


async def test_player_screen_rates_in_the_league_game_and_fits_80x24(table):
    ledger = club(table.ledger())
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        # Struggle of Empires, the second player
        screen = await story_screen(pilot, PlayerScreen, "s", "down", "p")
        rating = ledger.stats().rating(screen.player, "soe")
        summary = text(screen.query_one("#player-summary", Static))
        assert f"Rating in Struggle of Empires: {rating_text(rating).plain.strip()}" in summary
        assert rating.provisional and summary.count("*") == 1
        assert screen.query_one(Footer).max_scroll_x == 0
        chart = screen.query_one("#rating-chart", LineChart)
        assert chart.region.bottom <= 23 and chart.region.height >= 8


# ---------------------------------------------------------------- head to head

async def test_head_to_head_counts_each_pair_with_its_games(table):
    ledger = club(table.ledger())
    stats = ledger.stats()
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await story_screen(pilot, HeadToHeadScreen, "h")
        matrix = rows(screen.query_one("#head-to-head", DataTable))
        players = [row[1] for row in matrix]
        assert players[0] == ANA and set(players) == {*STORY_NAMES, "Eve"}
        for i, row in enumerate(matrix):
            assert row[0] == str(i + 1)
            for j, other in enumerate(players):
                met = stats.head_to_head[players[i]].get(other)
                want = "—" if i == j else "·" if met is None else f"{met.ahead}/{met.games}"
                assert row[2 + j] == want, (players[i], other)
        nemeses = {row[0]: row[1:] for row in rows(screen.query_one("#nemeses", DataTable))}
        for player, (nemesis, victim) in nemeses.items():
            record = stats.players[player]
            met = stats.head_to_head[player]
            assert nemesis == (f"{record.nemesis} {met[record.nemesis].behind}/"
                               f"{met[record.nemesis].games}" if record.nemesis else "—")
            assert victim == (f"{record.victim} {met[record.victim].ahead}/"
                              f"{met[record.victim].games}" if record.victim else "—")
        assert nemeses["Eve"][1] == f"{ANA} 1/1"  # Eve finished ahead of Ana once
        assert screen.query_one(Footer).max_scroll_x == 0
        assert "Row ahead of column" in text(screen.query_one("#rivals-hint", Static))


# ---------------------------------------------------------------- balance

async def test_balance_by_power_colour_and_seat_with_their_games(table):
    ledger = club(table.ledger())
    stats = ledger.stats(STORY_GROUP)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await story_screen(pilot, BalanceScreen, "g", "g", "b")
        tables = list(screen.query("DataTable.balance-part").results(DataTable))
        headings = [[str(c.label) for c in t.columns.values()] for t in tables]
        assert headings == [["Power", "Games", "Wins", "Win rate", "Average final VP"],
                            ["Colour", "Games", "Wins", "Win rate"],
                            ["Seat", "Games", "Wins", "Win rate"]]
        powers, colours, seats = (rows(t) for t in tables)
        soe, risk = stats.balance["soe"], stats.balance["risk"]
        assert sorted(powers) == sorted(
            [power_shown(p), str(t.games), str(t.wins), percent(t.win_rate),
             one_decimal(t.average_score)] for p, t in soe.sides.items())
        assert powers[0][0] == "Britain" and powers[0][3] == "100%"  # the most winning first
        assert sorted(colours) == sorted(
            [colour_shown(c), str(t.games), str(t.wins), percent(t.win_rate)]
            for c, t in risk.sides.items())
        assert seats == [[f"Seat {s + 1}", str(t.games), str(t.wins), percent(t.win_rate)]
                         for s, t in sorted(risk.seats.items())]
        titles = [text(s) for s in screen.query("Static.balance-part")]
        assert titles == ["Struggle of Empires · Power", "Risk · Colour", "Risk · Seat"]
        assert screen.query_one(Footer).max_scroll_x == 0


# ---------------------------------------------------------------- setup

async def test_setup_puts_the_game_in_a_group_and_shows_chances_to_win(table):
    ledger = club(table.ledger())
    ratings = ledger.stats(STORY_GROUP).ratings["soe"]
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await shows(pilot, NewSoeGameScreen)
        screen = app.screen
        group = screen.query_one("#group", Input)
        await until(pilot, lambda: group.value == ledger.default_group(), "the default group")
        assert group.value == STORY_GROUP

        def chance(i: int) -> str:
            return text(screen.query_one(f"#chance-{i}", Static))

        names = [ANA, BO, "Cy"]
        for i, name in enumerate(names, 1):
            screen.query_one(f"#name-{i}", Input).value = name
        await until(pilot, lambda: screen.has_class("-chances"), "the chances to win")
        await pilot.pause()
        want = win_chances(ratings, names)
        assert [chance(i) for i in (1, 2, 3)] == [percent(c) for c in want]
        assert chance(4) == ""
        assert screen.query_one("#chance-1", Static).region.height == 1
        assert "Thursday club" in text(screen.query_one("#chances-hint", Static))

        # Someone without a rating in the game: no chances at all.
        screen.query_one("#name-4", Input).value = "Newcomer"
        await pilot.pause()
        assert not screen.has_class("-chances") and chance(1) == ""
        screen.query_one("#name-4", Input).value = ""
        await until(pilot, lambda: screen.has_class("-chances"), "the chances again")

        # A new group: nobody is rated there; the game creates it.
        group.value = "Friday crew"
        await pilot.pause()
        assert not screen.has_class("-chances")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, NewSoeGameScreen), "the game")
        newest = max(g.id for g in ledger.games())
        assert ledger.group_of(newest) == "Friday crew"
        assert "Friday crew" in [g.name for g in ledger.groups()]


async def test_a_new_risk_game_goes_in_the_group_typed(table):
    ledger = club(table.ledger())
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await shows(pilot, NewRiskGameScreen)
        screen = app.screen
        group = screen.query_one("#group", Input)
        await until(pilot, lambda: group.value == STORY_GROUP, "the default group")
        for i, name in enumerate([ANA, "Di"], 1):
            screen.query_one(f"#name-{i}", Input).value = name
        await until(pilot, lambda: screen.has_class("-chances"), "the chances to win")
        group.value = OTHER_GROUP  # Di has no rating there: no chances
        await until(pilot, lambda: screen._rated_group == OTHER_GROUP, "its ratings")
        assert not screen.has_class("-chances")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, NewRiskGameScreen), "the game")
        newest = max(g.id for g in ledger.games())
        assert ledger.group_of(newest) == OTHER_GROUP


# ---------------------------------------------------------------- palette, help, language

async def test_a_group_named_like_markup_is_picked_from_the_palette_as_typed(table):
    ledger = club(table.ledger())
    ledger.add_group("Bo[/] [b]night[/b]")
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await league(pilot)
        await pilot.press("ctrl+p")
        await shows(pilot, CommandPalette)
        await typing(pilot, *"night")
        await until(pilot, lambda: "night" in highlighted(app), "the palette's search")
        assert highlighted(app).splitlines()[0] == "League: group Bo[/] [b]night[/b]"
        await pilot.press("enter")
        await shows(pilot, LeagueScreen)
        assert screen.group == "Bo[/] [b]night[/b]"
        assert "all games · Bo[/] [b]night[/b] · all time" in filter_line(screen)
        assert standings(screen) == []
        assert "No finished games in all games · Bo[/] [b]night[/b] · all time" in text(
            screen.query_one("#league-empty", Static))


@pytest.mark.parametrize(("key", "kind", "words"), [
    ("p", PlayerScreen, "Nemesis: who finished ahead of them most often"),
    ("h", HeadToHeadScreen, "the columns are numbered as the rows"),
    ("b", BalanceScreen, "is dimmed: it says little")])
async def test_each_story_screen_has_its_help_and_a_whole_footer_at_80x24(table, key, kind,
                                                                         words):
    ledger = club(table.ledger())
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await story_screen(pilot, kind, key)
        assert screen.query_one(Footer).max_scroll_x == 0
        await press(pilot, "f1")
        await shows(pilot, HelpScreen)
        assert words in app.screen.about
        assert any(row.keys == "esc" and row.what == "Back" for row in app.screen.rows)
        await press(pilot, "escape", "escape")
        assert isinstance(app.screen, LeagueScreen)


async def test_another_language_keeps_the_league_filter_and_the_player(table):
    ledger = club(table.ledger())
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        # the winter, Risk only, the leader's story
        player = (await story_screen(pilot, PlayerScreen, "e", "k", "p")).player
        await app.switch_language("ro")
        await shows(pilot, PlayerScreen)
        assert app.screen.player == player
        assert app.screen.counted == app.screen_stack[-2].counted
        league_screen = app.screen_stack[-2]
        assert (league_screen.game, league_screen.group, league_screen.season) == (
            "risk", STORY_GROUP, "Winter 2026")
