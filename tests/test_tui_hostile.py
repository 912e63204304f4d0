"""Player text is data (issue 11), on the screens: players called `[b]Ana[/b]`, `Bo[/]`,
`[@click=app.quit]Cy[/]` and `[link=http://x]Di[/link]` (names the rules accept) are shown
character for character on every screen and dialog, at 120x40 and at 80x24, and never read
as markup (which would crash a screen, or quit the app). A database an earlier version
wrote, holding escape sequences and very long text, still opens, and no raw ESC reaches the
terminal. Games are set up through the ledger (one test types into the setup form).

`run_test` raises any exception a screen throws, so each test failing with a traceback
names the screen that still reads player text as markup."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from pilot_pace import (  # noqa: F401 - a fixture
    highlighted,
    pause_skips_the_live_look,
    shows,
    text_keys,
    typing,
    until,
)
from sqlalchemy import text as sql
from textual.command import CommandPalette
from textual.events import Paste
from textual.widgets import DataTable, Input

from storage.ledger import Ledger
from tests.test_tui_soe import session_file as soe_session_file
from tui.games.risk.dialogs import (
    ClaimDialog,
    ConcedeDialog,
    EliminateDialog,
    MissionCardDialog,
    StalemateDialog,
    WhoseMissionDialog,
)
from tui.games.risk.game import RiskGameScreen
from tui.games.soe.dialogs import AdjustDialog, TaxDialog
from tui.games.soe.game import SoeGameScreen
from tui.games.soe.setup import NewSoeGameScreen
from tui.screens.help import HelpScreen
from tui.screens.history import HistoryScreen
from tui.screens.home import HomeScreen
from tui.screens.league import LeagueScreen
from tui.screens.results import ResultsScreen

NAMES = ["[b]Ana[/b]", "Bo[/]", "[@click=app.quit]Cy[/]", "[link=http://x]Di[/link]"]
SOE_TITLE = "[b]Friday[/b] [@click=app.quit]x[/]"
RISK_TITLE = "[link=http://x]Risk[/link] Bo[/]"
SETUP_TITLE = "[b]F[/] [/]"  # short: typed key by key
SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]
OLD_TEXT = "\x1b[2J\x1b]0;pwned\x07"
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")


# ---------------------------------------------------------------- reading the screen

def screen_text(app) -> str:
    """What the terminal shows now, as plain text, one line per row (modal screens with
    what is under them), from the same full render a screenshot uses: the characters of
    every segment, never the escape sequences that style them."""
    update = app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens)
    rows = []
    for line in update.strips:
        strips = [line] if hasattr(line, "_segments") else line
        rows.append("".join(seg.text for strip in strips for seg in strip
                            if not seg.control))
    return "\n".join(rows)


def assert_literal(text: str, names: list[str], *, cut_ok: bool = False) -> None:
    """Each name is on the screen exactly as typed, and no raw control reaches it. With
    `cut_ok` (a narrow terminal) a name cut to fit its column counts when what is left of
    it is literal: `[link…` can only be the name shown as it was typed, never as markup."""
    def shown(name: str) -> bool:
        if name in text:
            return True
        return cut_ok and any(name[:k] + "…" in text for k in range(2, len(name)))

    missing = [n for n in names if not shown(n)]
    assert not missing, f"not shown literally: {missing}\n{text}"
    assert "\x1b" not in text and "\x07" not in text


async def settle(pilot) -> None:
    """What the keys set off is done: pilot.pause() waits for the ledger work too (but for
    a game screen's live look, pilot_pace)."""
    await pilot.pause()


# ---------------------------------------------------------------- games, through the ledger

def soe_file(steps: int | None = None, title: str = SOE_TITLE) -> dict[str, Any]:
    """The 4-player game of test_tui_soe with the hostile names, and its first `steps`."""
    data = soe_session_file()
    data["title"] = title
    for player, name in zip(data["players"], NAMES, strict=True):
        player["name"] = name
    if steps is not None:
        data["steps"] = data["steps"][:steps]
    return data


RISK_PLAYERS = [{"name": NAMES[0], "color": "red", "mission": "destroy:green"},
                {"name": NAMES[1], "color": "blue", "mission": "asia+africa"},
                {"name": NAMES[2], "color": "green", "mission": "18x2"},
                {"name": NAMES[3], "color": "yellow", "mission": "24"}]


def positions(*counts: tuple[int, int]) -> dict[str, Any]:
    return {name: {"territories": t, "armies": a, "continents": []}
            for name, (t, a) in zip(NAMES, counts, strict=True)}


def risk_file(finished: bool = False, title: str = RISK_TITLE) -> dict[str, Any]:
    """A secret-missions game (one round closed), or a finished fixed-round game."""
    if finished:
        return {"format": "warledger/1", "game": "risk", "title": title + " final",
                "settings": {"mode": "fixed_rounds", "rounds": 1},
                "players": [{"name": p["name"], "color": p["color"]} for p in RISK_PLAYERS],
                "steps": [{"kind": "round",
                           "positions": positions((17, 40), (15, 38), (7, 22), (3, 8))}]}
    return {"format": "warledger/1", "game": "risk", "title": title,
            "settings": {"mode": "missions"}, "players": copy.deepcopy(RISK_PLAYERS),
            "steps": [{"kind": "round"}]}


def all_games(ledger: Ledger) -> dict[str, int]:
    """Every kind of game with the hostile names; returns their ids by role."""
    ids = {"risk_done": ledger.replay(risk_file(finished=True)).id,
           "soe_done": ledger.replay(soe_file(title=SOE_TITLE + " final")).id,
           "risk": ledger.replay(risk_file()).id,
           "soe": ledger.replay(soe_file(steps=1)).id}
    ledger.record(ids["soe"], {"kind": "adjust", "power": "Britain", "gold": 2,
                               "note": "[b]won[/b] a battle [/] [@click=app.quit]x[/]"},
                  author=NAMES[1])
    return ids


# ---------------------------------------------------------------- home, results, league

@pytest.mark.parametrize("size", SIZES)
async def test_home_results_and_league_show_the_names_literally(table, size):
    ledger = table.ledger()
    ids = all_games(ledger)
    app = table.app(ledger=ledger)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        text = screen_text(app)
        assert_literal(text, [SOE_TITLE, RISK_TITLE])
        if size == (120, 40):
            # The leader and players columns fit only on the wide screen.
            assert NAMES[0] in text
        assert app.is_running

        for game, winner in (("soe_done", NAMES[1]), ("risk_done", NAMES[0])):
            app.open_game(ids[game])
            await settle(pilot)
            assert isinstance(app.screen, ResultsScreen)
            text = screen_text(app)
            assert_literal(text, NAMES, cut_ok=size == (80, 24))
            assert f"{winner} wins" in text
            app.pop_screen()
            await settle(pilot)

        assert isinstance(app.screen, HomeScreen)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LeagueScreen)
        assert_literal(screen_text(app), NAMES)
        await pilot.press("enter")  # the leader's finished games: Bo[/] won the SoE game
        await settle(pilot)
        text = screen_text(app)
        assert f"{NAMES[1]}'s games" in text
        assert_literal(text, [SOE_TITLE], cut_ok=size == (80, 24))  # a title is cut to fit
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert app.is_running


# ---------------------------------------------------------------- Struggle of Empires

SOE_PHASES = [(0, "actions"), (1, "upkeep"), (2, "population"), (3, "scoring"),
              (4, "end_war"), (14, "end_game")]


@pytest.mark.parametrize("size", SIZES)
async def test_soe_game_screen_in_each_phase(table, size):
    ledger = table.ledger()
    data = soe_file()
    game = ledger.create_game("soe", SOE_TITLE, data["settings"], data["players"])
    app = table.app(ledger=ledger)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        recorded = 0
        for steps, phase in SOE_PHASES:
            for step in data["steps"][recorded:steps]:
                ledger.record(game.id, step, author=NAMES[2])
            recorded = steps
            app.open_game(game.id)
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, SoeGameScreen)
            assert screen.state.phase == phase
            text = screen_text(app)
            assert_literal(text, NAMES, cut_ok=size == (120, 40))  # totals beside: cut…
            if size == (120, 40):
                assert SOE_TITLE in text  # the header: cut on the narrow screen
            if phase == "end_game":
                assert f"{NAMES[1]} (Britain): unrest" in text
            app.pop_screen()
            await settle(pilot)
        assert app.is_running


@pytest.mark.parametrize("size", SIZES)
async def test_soe_dialogs_history_and_help(table, size):
    ledger = table.ledger()
    ids = all_games(ledger)
    app = table.app(ledger=ledger)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.open_game(ids["soe"])
        await settle(pilot)
        game_screen = app.screen
        assert isinstance(game_screen, SoeGameScreen)

        await pilot.press("ctrl+x")  # taxation
        await settle(pilot)
        assert isinstance(app.screen, TaxDialog)
        assert f"{NAMES[0]} (France)" in screen_text(app)
        await pilot.press("enter")  # the power list, open: every name in it
        await settle(pilot)
        assert_literal(screen_text(app), [f"{n} ({p})" for n, p in zip(
            NAMES, ("France", "Britain", "Austria", "Russia"), strict=True)])
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is game_screen

        await pilot.press("ctrl+e")  # correction, recorded with a note that looks like markup
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, AdjustDialog)
        assert f"{NAMES[0]} (France)" in screen_text(app)
        dialog.query_one("#gold", Input).value = "-1"
        dialog.query_one("#note", Input).value = "[/] [b]lost[/b] [link=http://x]it[/link]"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is game_screen
        message = str(game_screen.query_one("#message").render())  # wrapped on screen
        assert "Recorded: correction for France: gold -1" in message
        assert_literal(screen_text(app), NAMES)

        await pilot.press("ctrl+p")  # the history, from the command palette
        await shows(pilot, CommandPalette)
        await typing(pilot, *"history")
        await until(pilot, lambda: "history" in highlighted(app).lower(), "the palette's search")
        await pilot.press("enter")
        await shows(pilot, HistoryScreen)
        text = screen_text(app)
        assert f"History of {SOE_TITLE}" in text
        assert NAMES[1] in text  # the author of the correction
        assert "\x1b" not in text
        said = app.screen.query_one(DataTable).get_row_at(1)[3]  # cut to fit: look inside
        assert said.plain == ("War 1 correction for Bo[/] (Britain): gold +2 (17 → 19) — "
                              "[b]won[/b] a battle [/] [@click=app.quit]x[/]")
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "Taxation" in text and "\x1b" not in text
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is game_screen
        assert app.is_running


# ---------------------------------------------------------------- the setup form

async def type_into(pilot, field: Input, value: str) -> None:
    field.focus()
    field.value = ""
    await pilot.pause()
    await typing(pilot, *text_keys(value))


async def test_setup_form_refuses_what_it_must_and_creates_a_game_with_markup_names(table):
    """One setup form, in turn: a pasted control character is never echoed raw, a name the
    rules refuse is told and creates nothing, and names that look like markup make a game."""
    ledger = table.ledger()
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, NewSoeGameScreen)

        # What a player pastes into a name field is on the screen before the rules see it:
        # a pasted ESC or text-direction override must not reach the terminal as it is.
        for field_id, pasted in (("#name-1", "Ana\x1b[2J\x1b]0;pwned\x07"),
                                 ("#name-2", "Bo\u202eoB"), ("#title", "T\x9bitle")):
            field = screen.query_one(field_id, Input)
            field.focus()
            before = field.value
            field.post_message(Paste(pasted))
            await settle(pilot)
            assert field.value == before  # the paste is refused as it arrives
        await type_into(pilot, screen.query_one("#name-1", Input), "Ana")
        assert screen.query_one("#name-1", Input).value == "Ana"  # typing still works
        text = screen_text(app)
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text

        # A name the rules refuse: told, and nothing is created.
        await type_into(pilot, screen.query_one("#title", Input), SETUP_TITLE)
        await type_into(pilot, screen.query_one("#name-2", Input), NAMES[1])
        for bad, why in (("x" * 25, "is 25 characters long: at most 24 fit"),
                         ("Ana\u202eBo", "holds a text-direction override (\\u202e)"),
                         ("Ana\x1b[2J", "holds a control character (\\x1b)")):
            screen.query_one("#name-1", Input).value = bad  # a paste: not every char is a key
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert app.screen is screen
            message = str(screen.query_one("#message").render())
            assert f"player 1's name {why}" in message
            assert "\u202e" not in message and "\x1b" not in message
            assert ledger.games() == []
        assert SETUP_TITLE in screen_text(app) and NAMES[1] in screen_text(app)

        # Names that look like markup make a game, stored and shown as typed.
        await type_into(pilot, screen.query_one("#title", Input), SETUP_TITLE)
        await type_into(pilot, screen.query_one("#name-1", Input), NAMES[0])
        await type_into(pilot, screen.query_one("#name-2", Input), NAMES[1])
        assert screen.query_one("#name-1", Input).value == NAMES[0]
        assert screen.query_one("#title", Input).value == SETUP_TITLE
        message = screen.query_one("#message")  # what a refusal would say
        await pilot.press("ctrl+s")
        try:
            await shows(pilot, SoeGameScreen)
        except AssertionError as never_shown:
            raise AssertionError(str(message.render())) from never_shown
        [listed] = ledger.games()
        assert listed.title == SETUP_TITLE and listed.players == NAMES[:2]
        assert_literal(screen_text(app), [SETUP_TITLE, *NAMES[:2]])


# ---------------------------------------------------------------- Risk

@pytest.mark.parametrize("size", SIZES)
async def test_risk_game_screen_and_its_dialogs(table, size):
    ledger = table.ledger()
    ids = all_games(ledger)
    app = table.app(ledger=ledger)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.open_game(ids["risk"])
        await settle(pilot)
        game_screen = app.screen
        assert isinstance(game_screen, RiskGameScreen)
        assert_literal(screen_text(app), NAMES)

        for key, dialog in (("ctrl+x", EliminateDialog), ("ctrl+k", ConcedeDialog),
                            ("ctrl+d", StalemateDialog), ("ctrl+f", ClaimDialog)):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, dialog), key
            text = screen_text(app)
            assert "\x1b" not in text
            if dialog is StalemateDialog:  # the winner list shows for an agreed winner
                app.screen.query_one("#resolution").value = "agreed"
                await settle(pilot)
                text = screen_text(app)
            assert any(f"{n} (" in text for n in NAMES), (key, text)
            await pilot.press("escape")
            await settle(pilot)
            assert app.screen is game_screen, key

        await pilot.press("ctrl+u")  # whose mission: every name in the list
        await settle(pilot)
        assert isinstance(app.screen, WhoseMissionDialog)
        assert_literal(screen_text(app), [f"{n} ({c})" for n, c in zip(
            NAMES, ("red", "blue", "green", "yellow"), strict=True)])
        await pilot.press("down", "down", "enter")  # Cy's card
        await settle(pilot)
        assert isinstance(app.screen, MissionCardDialog)
        text = screen_text(app)
        assert f"{NAMES[2]}'s secret mission" in text
        assert "\x1b" not in text
        await pilot.press("space")
        await settle(pilot)
        assert app.screen is game_screen

        # An elimination recorded through its dialog: the message names both literally.
        await pilot.press("ctrl+x")
        await settle(pilot)
        dialog = app.screen
        dialog.query_one("#player").value = NAMES[2]
        dialog.query_one("#by").value = NAMES[3]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is game_screen
        assert ledger.load(ids["risk"]).state.eliminated == {NAMES[2]: NAMES[3]}
        message = str(game_screen.query_one("#message").render())  # wrapped on screen
        assert f"Recorded: {NAMES[2]} eliminated by {NAMES[3]}." in message
        assert_literal(screen_text(app), NAMES)

        game_screen.action_history()
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        text = screen_text(app)
        assert_literal(text, [f"History of {RISK_TITLE}"])
        assert json.dumps(NAMES[2])[1:-1] in text or size == (80, 24)
        await pilot.press("escape")
        await settle(pilot)
        assert app.is_running


async def test_risk_tie_and_scores_name_the_players_literally(table):
    ledger = table.ledger()
    tie = {"format": "warledger/1", "game": "risk", "title": RISK_TITLE,
           "settings": {"mode": "fixed_rounds", "rounds": 1},
           "players": [{"name": NAMES[0], "color": "red"}, {"name": NAMES[1], "color": "blue"}],
           "steps": [{"kind": "round", "positions": {
               NAMES[0]: {"territories": 21, "armies": 22, "continents": ["Australia"]},
               NAMES[1]: {"territories": 21, "armies": 22,
                          "continents": ["South America"]}}}]}
    game = ledger.replay(tie)
    assert game.state.phase == "tiebreak"
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_game(game.id)
        await settle(pilot)
        text = screen_text(app)
        assert f"Tie after round 1: {NAMES[0]} and {NAMES[1]}" in text
        assert_literal(text, NAMES[:2])
        await pilot.press("s")  # shared victory
        await shows(pilot, ResultsScreen)
        text = screen_text(app)
        assert f"Shared victory: {NAMES[0]} and {NAMES[1]}" in text


# ---------------------------------------------------------------- an old database

def rewrite_as_an_old_version_would_have(ledger: Ledger, session_id: int, old: str,
                                         long: str) -> None:
    """Put text the rules now refuse where an earlier version could have stored it: the
    title, one player's name (the player row and the seat's setup)."""
    with ledger.engine.begin() as conn:
        conn.execute(sql("UPDATE game_session SET title = :t WHERE id = :id"),
                     {"t": old + long, "id": session_id})
        seat = conn.execute(sql("SELECT id, player_id, setup FROM seat WHERE session_id = :id "
                                "AND position = 1"), {"id": session_id}).one()
        setup = json.loads(seat.setup) if isinstance(seat.setup, str) else dict(seat.setup)
        setup["name"] = old + "Bo" + long
        conn.execute(sql("UPDATE seat SET setup = :s WHERE id = :id"),
                     {"s": json.dumps(setup), "id": seat.id})
        conn.execute(sql("UPDATE player SET name = :n WHERE id = :id"),
                     {"n": setup["name"], "id": seat.player_id})
        conn.execute(sql("DELETE FROM fold_snapshot WHERE session_id = :id"), {"id": session_id})


@pytest.mark.parametrize("size", SIZES)
async def test_an_old_database_with_escapes_and_long_text_opens_safely(table, size):
    long = "L" * 300
    ledger = table.ledger()
    data = soe_session_file()
    game = ledger.create_game("soe", "Old game", data["settings"], data["players"])
    rewrite_as_an_old_version_would_have(ledger, game.id, OLD_TEXT, long)
    ledger = table.ledger()  # a fresh start: nothing cached from before the rewrite
    app = table.app(ledger=ledger)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        text = screen_text(app)
        assert "\x1b" not in text and "\x07" not in text
        assert "\\x1b[2J\\x1b]0;pwned\\x07" in text  # the title, its escapes visible

        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SoeGameScreen)
        old_name = screen.state.seats[1].name
        assert old_name == OLD_TEXT + "Bo" + long  # read as it was stored
        text = screen_text(app)
        assert "\x1b" not in text and "\x07" not in text
        assert "\\x1b" in text

        # A step recorded on the old game: the folds and the projections take the old name.
        ledger.record(game.id, data["steps"][0])
        await settle(pilot)
        app.open_game(game.id)
        await settle(pilot)
        assert app.screen.state.phase == "upkeep"
        text = screen_text(app)
        assert "\x1b" not in text and "\\x1b" in text

        app.screen.action_history()
        await settle(pilot)
        text = screen_text(app)
        assert "\x1b" not in text and "\\x1b" in text
        await pilot.press("escape")
        await settle(pilot)

        await pilot.press("f1")
        await settle(pilot)
        assert "\x1b" not in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.is_running

    assert [r.title for r in ledger.games()] == [OLD_TEXT + long]
    assert ledger.load(game.id).seq == 1


async def test_an_old_finished_game_shows_results_and_league_safely(table):
    long = "L" * 300
    ledger = table.ledger()
    game = ledger.replay(soe_session_file())
    rewrite_as_an_old_version_would_have(ledger, game.id, OLD_TEXT, long)
    ledger = table.ledger()
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "\x1b" not in text and "\\x1b" in text
        app.pop_screen()
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LeagueScreen)
        text = screen_text(app)
        assert "\x1b" not in text and "\\x1b" in text
        app.screen.query_one("#standings").move_cursor(row=0)
        for row in range(4):
            app.screen.query_one("#standings").move_cursor(row=row)
            await pilot.press("enter")
            await settle(pilot)
            assert "\x1b" not in screen_text(app)
            await pilot.press("escape")
            await settle(pilot)
        assert app.is_running
