"""The scoreboard (issue 26): a read-only live view for a shared screen. It follows a step
another terminal records (a Ledger of its own on the same SQLite file), at 80x24 and at
200x60; it fills the window it gets; it shows names exactly as typed; it follows the table
from game to game; and in the spectator's app no key records anything."""

from __future__ import annotations

import copy

import pytest
from pilot_pace import pause_skips_the_live_look, until  # noqa: F401 - a fixture
from scenes import RISK_LAST_ROUND, SOE_UPKEEP
from textual.widgets import Digits, Static

from storage.engine import make_engine
from storage.ledger import Ledger
from tests.at_head import new_database
from tui.games.risk.demo import RISK_DEMO
from tui.games.soe.demo import soe_demo
from tui.scoreboard.app import ScoreboardApp
from tui.scoreboard.digits import BigDigits, big_pixels, big_rows, big_width
from tui.scoreboard.screen import (
    FigureBox,
    PlayerCard,
    ScoreboardScreen,
    big_scale,
    fit,
)

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

SIZES = [(80, 24), (200, 60)]
MARKUP_NAMES = ("[b]Ana[/b]", "Bo[/]", "Cy", "Di")


@pytest.fixture
def db(tmp_path) -> str:
    return new_database(tmp_path / "table.db")


def elsewhere(db: str) -> Ledger:
    """Another terminal's ledger: an engine of its own on the same file."""
    return Ledger(make_engine(db))


def store_soe(db: str, names: tuple[str, ...] = ()) -> int:
    data = soe_demo()
    for player, name in zip(data["players"], names, strict=False):
        player["name"] = name
    return elsewhere(db).replay(data).id


def store_risk(db: str) -> int:
    return elsewhere(db).replay(copy.deepcopy(RISK_DEMO)).id


def board(app) -> ScoreboardScreen:
    screen = app.screen
    assert isinstance(screen, ScoreboardScreen), screen
    return screen


def figures(app) -> dict[str, list[str]]:
    """Each card's figures as its digits show them (BigDigits on a big screen, else
    Digits), by player (none until drawn)."""
    shown_as = BigDigits if board(app).has_class("-big") else Digits
    return {card.player: [digits.value for box in card.query(FigureBox)
                          for digits in box.query(shown_as).results(shown_as)
                          if digits.display]
            for card in board(app).query(PlayerCard)}


def drawn(app) -> bool:
    """Every card is drawn with every figure of its game."""
    cards = list(board(app).query(PlayerCard))
    shown_figures = figures(app)
    return bool(cards) and all(len(shown_figures[card.player]) == len(card.figures)
                               for card in cards)


def said(app, widget_id: str) -> str:
    return str(board(app).query_one(f"#{widget_id}", Static).render())


async def shown(pilot, what: str, condition) -> None:
    await until(pilot, lambda: isinstance(pilot.app.screen, ScoreboardScreen)
                and pilot.app.screen.board is not None and condition(), what)


# ---------------------------------------------------------------- the figures' room

@pytest.mark.unit
@pytest.mark.parametrize(("size", "players", "card", "columns", "digits"), [
    ((80, 24), 4, 14, 2, True),   # two rows of two
    ((80, 24), 6, 28, 2, True),   # Risk's six: three rows of two, each 6 high
    ((80, 24), 7, 28, 1, False),  # seven cards of Risk's width: no room for digits
    ((120, 40), 4, 28, 2, True),
    ((200, 60), 6, 28, 3, True),
    ((300, 80), 4, 14, 2, True),  # a TV: cards as near square as the screen allows
    ((60, 16), 4, 14, 4, True),   # one row of four
    ((40, 12), 6, 28, 1, False),  # a tiny window: a line per player
])
def test_the_cards_fit_the_window(size, players, card, columns, digits):
    chosen = fit(*size, players, card)
    assert (chosen.columns, chosen.digits) == (columns, digits)


@pytest.mark.unit
@pytest.mark.parametrize(("card", "figures", "scale"), [
    ((39, 9), [(2, 2)], 0),              # 80x24's cards: Textual's Digits
    ((58, 17), [(11, 2), (5, 2)], 0),    # Risk at 120x40: no room for two big figures
    ((58, 17), [(2, 2)], 2),             # Struggle of Empires at 120x40: 10 rows
    ((148, 37), [(11, 2), (5, 2)], 3),   # Risk on a 300x80 TV
    ((148, 37), [(2, 2)], 5),            # Struggle of Empires there: 25 rows
    ((148, 37), [(2, 3)], 4),            # three-figure VP: 20 rows
])
def test_a_big_card_gets_big_figures_that_fit_it(card, figures, scale):
    assert big_scale(*card, figures) == scale
    if scale:
        inner = card[0] - 4
        assert sum(max(label, big_width(n, scale)) for label, n in figures) < inner
        assert big_rows(scale) <= card[1] - 3


@pytest.mark.unit
def test_big_figures_are_pixels_of_a_font():
    assert big_pixels("10") == [".#..###", "##..#.#", ".#..#.#", ".#..#.#", "###.###"]
    assert (big_width(2, 3), big_rows(3)) == (42, 15)


# ---------------------------------------------------------------- following the game

@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_it_follows_a_step_recorded_elsewhere(db, size):
    game = store_soe(db)
    app = ScoreboardApp(db, game)
    async with app.run_test(size=size) as pilot:
        await shown(pilot, "the game", lambda: drawn(app))
        assert board(app).has_class("-digits")
        assert board(app).has_class("-big") == (size == (200, 60))  # 10 rows or more there
        assert figures(app) == {"Ana": ["12"], "Bo": ["15"], "Cy": ["6"], "Di": ["9"]}
        assert "War 2 · upkeep · Leader: Bo" in said(app, "sb-where")
        other = elsewhere(db)
        for step in (SOE_UPKEEP, {"kind": "population"}, {"kind": "scoring"}):
            at = other.load(game)
            other.record(game, step, expected_seq=at.seq, author="Cy")
        after = {s.player: [str(s.details["final_vp"])] for s in other.load(game).report()
                 .standings}
        assert after != {"Ana": ["12"], "Bo": ["15"], "Cy": ["6"], "Di": ["9"]}
        await shown(pilot, "the scoring recorded elsewhere", lambda: figures(app) == after)
        last = other.step_log(game)[-1].said
        await shown(pilot, "its words", lambda: "Last step, by Cy: " in said(app, "sb-last"))
        assert said(app, "sb-last").startswith(f"Last step, by Cy: {last[:30]}")
        assert "War 2 · end of war" in said(app, "sb-where")
        assert len(app.screen_stack) == 2  # the scoreboard alone, nothing pushed over it


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_a_risk_game_shows_territories_and_score_then_its_result(db, size):
    game = store_risk(db)
    app = ScoreboardApp(db, game)
    async with app.run_test(size=size) as pilot:
        await shown(pilot, "the game", lambda: drawn(app))
        assert figures(app) == {"Ana": ["16", "28"], "Bo": ["15", "24"], "Cy": ["8", "12"],
                                "Di": ["3", "4"]}
        labels = [str(label.render()) for label in
                  board(app).query(PlayerCard).first().query(".sb-label").results(Static)]
        assert labels == ["Territories", "Score"]
        other = elsewhere(db)
        other.record(game, RISK_LAST_ROUND, expected_seq=other.load(game).seq)  # the last round
        final = {s.player: [str(s.details["territories"]), str(s.score)]
                 for s in other.load(game).report().standings}
        await shown(pilot, "the result", lambda: figures(app) == final)
        assert final["Ana"][0] == "17"
        assert said(app, "sb-where") == "Finished: Ana won (fixed round)"
        leader = [card.player for card in board(app).query(PlayerCard)
                  if card.has_class("-leader")]
        assert leader == ["Ana"]


async def test_an_imported_result_says_where_it_came_from(db):
    from pathlib import Path

    from rules.plays import read_plays

    sample = (Path(__file__).parent / "data" / "bgg_plays.xml").read_bytes()
    game = elsewhere(db).import_plays(read_plays(sample).plays).stored[0]
    app = ScoreboardApp(db, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, "the result", lambda: said(app, "sb-last") != "")
        assert said(app, "sb-where") == "Finished: Ana won (result imported)"
        assert said(app, "sb-last") == ("Result imported from BoardGameGeek: no steps were "
                                        "recorded here.")


async def test_names_are_shown_as_typed(db):
    store_soe(db, MARKUP_NAMES)
    app = ScoreboardApp(db)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, "the game", lambda: drawn(app))
        cards = list(board(app).query(PlayerCard))
        assert [card.player for card in cards] == list(MARKUP_NAMES)
        assert [card._border_title.plain for card in cards] == list(MARKUP_NAMES)
        assert said(app, "sb-where").endswith("Leader: Bo[/]")
    app = ScoreboardApp(db)
    async with app.run_test(size=(40, 12)) as pilot:  # a line per player, names in it
        await shown(pilot, "the game", lambda: drawn(app))
        assert board(app).has_class("-lines")
        lines = [str(card.query_one(".sb-line", Static).render())
                 for card in board(app).query(PlayerCard)]
        assert lines[0].startswith("[b]Ana[/b] (France)  VP 12")
        assert lines[1].startswith("Bo[/] (Britain)  VP 15")


# ---------------------------------------------------------------- following the table

async def test_without_a_game_it_waits_then_follows_the_table(db):
    # the database, with no game yet
    app = ScoreboardApp(db)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "No game to show yet" in said(app, "sb-where"),
                    "the words for no game")
        risk = store_risk(db)
        await shown(pilot, "the game set up", lambda: board(app).board.id == risk)
        assert "following the table" in board(app).sub_title
        soe = store_soe(db)  # a newer game starts: the board moves to it
        await shown(pilot, "the newer game", lambda: board(app).board.id == soe)
        other = elsewhere(db)
        other.record(risk, RISK_LAST_ROUND, expected_seq=other.load(risk).seq)
        # the Risk game just finished: a finished game does not take the board
        soe_now = other.load(soe)
        other.record(soe, SOE_UPKEEP, expected_seq=soe_now.seq)
        await shown(pilot, "the step", lambda: "Population" in said(app, "sb-where")
                    or "population" in said(app, "sb-where"))
        assert board(app).board.id == soe


# ---------------------------------------------------------------- nothing records

PLAYERS_KEYS = ["enter", "ctrl+z", "ctrl+y", "ctrl+r", "ctrl+s", "ctrl+o", "escape", "n", "r",
                "d", "x", "u", "b", "l", "delete", "backspace", "tab", "1", "2", "equals_sign",
                "space", "down", "up", "left", "right", "e", "m", "ctrl+n", "ctrl+d"]


async def test_no_key_of_the_spectator_records_anything(db):
    game = store_soe(db)
    before = elsewhere(db)
    head, listed = before.head(game), [(g.id, g.title) for g in before.games()]
    app = ScoreboardApp(db)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, "the game", lambda: drawn(app))
        for key in PLAYERS_KEYS:
            await pilot.press(key)
            assert isinstance(app.screen, ScoreboardScreen), key
        # the palette offers quit, help and the languages, and nothing that records
        await pilot.press("ctrl+p")
        await pilot.pause()
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert titles == {"Quit", "Help", "Language: Română"}
        for key in ("u", "n", "d", "o", "enter"):  # "undo" typed and chosen: no such entry
            await pilot.press(key)
        await pilot.press("escape")
        await pilot.press("f1")
        await until(pilot, lambda: type(app.screen).__name__ == "HelpScreen", "the help")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ScoreboardScreen), "the board")
        await pilot.press("escape")  # nothing to go back to: the scoreboard stays
        assert isinstance(app.screen, ScoreboardScreen) and len(app.screen_stack) == 2
    after = elsewhere(db)
    assert after.head(game) == head
    assert [(g.id, g.title) for g in after.games()] == listed
    assert after.draft(game) is None


# ---------------------------------------------------------------- from the palette

async def test_the_palette_opens_the_scoreboard_of_the_game_on_screen(db):
    from tui.app import WarledgerApp
    from tui.games.soe.game import SoeGameScreen

    store_soe(db)
    risk = store_risk(db)  # the newest game: first on the home screen
    app = WarledgerApp(db)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_game(risk)
        await until(pilot, lambda: type(app.screen).__name__ == "RiskGameScreen", "the game")
        entry = [c for c in app.get_system_commands(app.screen) if c.title == "Scoreboard"]
        entry[0].callback()
        await shown(pilot, "the scoreboard", lambda: drawn(app))
        assert board(app).board.id == risk and not board(app).following
        await pilot.press("escape")
        await until(pilot, lambda: type(app.screen).__name__ == "RiskGameScreen", "back")
        assert not isinstance(app.screen, SoeGameScreen)


# ---------------------------------------------------------------- the command line

@pytest.mark.parametrize("args", [["scoreboard", "99"], ["scoreboard", "--db={db}", "99"]])
def test_a_game_not_stored_is_one_line_both_ways(db, capsys, args):
    from cli_runner import CliRunner

    from tui.cli.start import quick_command
    from tui.cli.typer_app import app

    store_soe(db)
    argv = [a.format(db=db) for a in args]
    argv = argv if "--db" in argv[1] else ["--db", db, *argv]
    command = quick_command(argv)
    assert command is not None
    with pytest.raises(SystemExit) as quick:
        command()
    typer = CliRunner().invoke(app, argv)
    assert (quick.value.code, capsys.readouterr().err) == (1, "warledger: There is no game 99\n")
    assert (typer.exit_code, typer.stderr) == (1, "warledger: There is no game 99\n")


@pytest.mark.parametrize("args", [["scoreboard", "x"], ["scoreboard", "1", "2"],
                                  ["scoreboard", "--help"], ["scoreboard", "-1"]])
def test_other_forms_of_the_scoreboard_go_to_typer(args):
    from tui.cli.start import quick_command

    assert quick_command(args) is None


async def test_a_player_out_of_the_game_is_said_so(db):
    game = store_risk(db)
    other = elsewhere(db)
    other.record(game, {"kind": "eliminate", "player": "Di", "by": "Ana"},
                 expected_seq=other.load(game).seq, author="Bo")
    app = ScoreboardApp(db, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, "the game", lambda: drawn(app))
        out = [card for card in board(app).query(PlayerCard) if card.has_class("-out")]
        assert [card.player for card in out] == ["Di"]
        assert figures(app)["Di"] == ["0", "0"]
        assert out[0]._border_subtitle.plain == "yellow · out of the game"
        assert said(app, "sb-last") == "Last step, by Bo: Round 8: Di eliminated by Ana"
