"""Risk in the TUI, by keys alone: setup, rounds (by player and by territory), events,
fixed-round scoring with a tie-break, secret missions, refused entries and resume. One game
is set up by keys (the missions game); the others are set up through the ledger and opened.
What a player types goes in bursts, as a quick typist's (pilot_pace.typing), and each wait
is for a condition: the screen, the dialog or the palette entry the keys bring up.

Every finished game is compared with `replay` of the same game written as a session file.
"""

from __future__ import annotations

import html
import re

import pytest
from pilot_pace import (  # noqa: F401 - a fixture
    highlighted,
    pause_skips_the_live_look,
    shows,
    text_keys,
    typing,
    until,
)
from textual.command import CommandPalette

from rules.risk import CONTINENTS
from tui.games.risk.dialogs import StalemateDialog
from tui.games.risk.game import RiskGameScreen
from tui.games.risk.setup import NewRiskGameScreen
from tui.screens.results import ResultsScreen

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")
SIZE = (120, 40)


async def settle(pilot, times: int = 1) -> None:
    """The keys' work done: pilot.pause() waits for the ledger work they started too."""
    for _ in range(times):
        await pilot.pause()


async def type_text(pilot, text: str) -> None:
    await typing(pilot, *text_keys(text))


def choice(search: str) -> list[str]:
    """The keys that take an option in a focused Select: open it, type to find it, Enter."""
    return ["enter", *text_keys(search), "enter"]


async def choose(pilot, search: str) -> None:
    await typing(pilot, *choice(search))


async def new_missions_game(pilot, players: list[str], missions: list[str]) -> int:
    """Set up a secret-missions Risk game from the home screen by keys, the cards dealt by
    hand (`missions`: what to type to find each player's card); returns its id once it is
    open."""
    await settle(pilot)
    await typing(pilot, "r")
    await shows(pilot, NewRiskGameScreen)
    await typing(pilot, "tab", *choice("secret"))  # title -> victory mode
    await typing(pilot, "tab", "tab", *choice("hand"))  # deck -> how the cards are dealt
    await typing(pilot, "tab")
    for name, mission in zip(players, missions, strict=True):
        # the name, the colour (the prefilled one), the card
        await typing(pilot, *text_keys(name), "tab", "tab", *choice(mission), "tab")
    await typing(pilot, "ctrl+s")
    await shows(pilot, RiskGameScreen)
    return pilot.app.screen.game.id


async def open_new(pilot, players: list[dict], settings: dict) -> int:
    """A Risk game created through the ledger, then opened from the home screen as a saved
    game; returns its id once its screen is up."""
    await settle(pilot)
    game = pilot.app.ledger.create_game("risk", "Tonight", settings, players)
    pilot.app.open_game(game.id)
    await shows(pilot, RiskGameScreen)
    assert pilot.app.screen.game.id == game.id
    return game.id


async def type_positions(pilot, rows: list[tuple[int, int, set[str]]]) -> None:
    """Type territories, armies and continents held into the focused round grid, row by row
    (the cursor starts on the first row's territories; a continent takes one digit, 1 held
    or 0 not, and the cursor moves on, to the next row after the last)."""
    keys = []
    for territories, armies, held in rows:
        keys += [*str(territories), "tab", *str(armies), "tab"]
        keys += ["1" if continent in held else "0" for continent in CONTINENTS]
    await typing(pilot, *keys)


def screen_text(app) -> str:
    """What is on the terminal, as plain text (from the SVG screenshot)."""
    svg = app.export_screenshot()
    text = " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    return html.unescape(text).replace("\xa0", " ")


def pos(territories: int, armies: int, *continents: str) -> dict:
    return {"territories": territories, "armies": armies, "continents": list(continents)}


def session(players: list[dict], settings: dict, steps: list[dict]) -> dict:
    return {"format": "warledger/1", "game": "risk", "title": "replayed",
            "settings": settings, "players": players, "steps": steps}


def assert_same(app, game_id: int, file: dict) -> dict:
    ledger = app.ledger
    played = ledger.load(game_id).report().to_json()
    replayed = ledger.replay(file).report().to_json()
    assert played["standings"] == replayed["standings"]
    assert played == replayed
    return played


THREE = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
         {"name": "Cy", "color": "green"}]


async def test_fixed_round_game_with_a_tie_broken_on_continents(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_new(pilot, THREE, {"mode": "fixed_rounds", "rounds": 2})
        screen = app.screen
        assert "Round 1 of 2" in str(screen.query_one("#phase-bar").render())

        # Round 1 by territory: owners' seat numbers; counts and continents are derived.
        await pilot.press("ctrl+g")
        await settle(pilot)
        owner = {"North America": "1", "South America": "1", "Europe": "2", "Africa": "2",
                 "Asia": "3", "Australia": "3"}
        await typing(pilot, *(key for continent, (names, _) in CONTINENTS.items()
                               for _ in names  # the owner's seat number, then . to the next
                               for key in (owner[continent], "full_stop")))
        await settle(pilot)
        assert "Cy 16 terr., 16 armies, Asia, Aus" in str(
            screen.query_one("#derived").render())
        await pilot.press("enter")
        await settle(pilot)
        assert app.ledger.load(game_id).state.round == 1

        # Round 2, the last, by player: RULES.md A.3 row 3, A wins on continents (2 > 1).
        await pilot.press("ctrl+g")
        await settle(pilot)
        await type_positions(pilot, [(14, 24, {"South America", "Australia"}),
                                     (14, 27, {"Africa"}), (14, 20, set())])
        await settle(pilot)
        explained = str(screen.query_one("#explain").render())
        assert "Ana and Bo 22 each; equal territories; Ana holds 2 continents to Bo's 1" \
            in explained
        await pilot.press("enter")
        await shows(pilot, ResultsScreen)
        assert "Ana holds 2 continents to Bo's 1" in screen_text(app)

        report = assert_same(app, game_id, session(THREE, {"mode": "fixed_rounds", "rounds": 2}, [
            {"kind": "round", "positions": {
                "Ana": pos(13, 13, "North America", "South America"),
                "Bo": pos(13, 13, "Europe", "Africa"),
                "Cy": pos(16, 16, "Asia", "Australia")}},
            {"kind": "round", "positions": {
                "Ana": pos(14, 24, "South America", "Australia"),
                "Bo": pos(14, 27, "Africa"), "Cy": pos(14, 20)}}]))
        assert report["winners"] == ["Ana"] and report["format"] == "fixed_round"
        assert [r["score"] for r in report["standings"]] == [22, 22, 18]


async def test_full_tie_offers_shared_victory_or_an_extra_round(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_new(pilot, THREE[:2], {"mode": "fixed_rounds", "rounds": 1})
        await type_positions(pilot, [(21, 22, {"Australia"}), (21, 22, {"South America"})])
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.state.phase == "tiebreak"
        assert "still tied" in str(app.screen.query_one("#explain").render())
        await pilot.press("e")  # one extra round
        await settle(pilot)
        assert "Round 2 (extra round)" in str(app.screen.query_one("#phase-bar").render())
        await type_positions(pilot, [(21, 22, {"Australia"}), (21, 22, {"South America"})])
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("s")  # shared victory
        await shows(pilot, ResultsScreen)
        tie = {"Ana": pos(21, 22, "Australia"), "Bo": pos(21, 22, "South America")}
        report = assert_same(app, game_id, session(THREE[:2], {"mode": "fixed_rounds",
                                                               "rounds": 1}, [
            {"kind": "round", "positions": tie},
            {"kind": "tiebreak", "resolution": "extra_round"},
            {"kind": "round", "positions": tie},
            {"kind": "tiebreak", "resolution": "shared"}]))
        assert report["result"] == "shared" and report["rounds"] == 2


MISSIONS = [{"name": "Ana", "color": "red", "mission": "destroy:green"},
            {"name": "Bo", "color": "blue", "mission": "asia+africa"},
            {"name": "Cy", "color": "green", "mission": "18x2"}]


async def test_missions_game_target_eliminated_by_another_then_claim(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await new_missions_game(pilot, ["Ana", "Bo", "Cy"],
                                          ["green", "Asia and Africa", "18"])
        screen = app.screen
        assert screen.state.missions == {m["name"]: m["mission"] for m in MISSIONS}
        await pilot.press("enter")  # round 1 closed without positions
        await settle(pilot)

        # Bo eliminates Cy: Ana's 'destroy green' becomes 'occupy 24', and the table is told
        # nothing of it (issue 44): not who, not how many.
        await pilot.press("ctrl+x")
        await settle(pilot)
        await typing(pilot, *choice("Cy"), "tab", *choice("Bo"), "ctrl+s")
        await settle(pilot)
        message = str(screen.query_one("#message").render())
        assert "Cy eliminated by Bo" in message
        assert "replaced" not in message and "mission" not in message
        assert not any("mission" in str(n.message) for n in app._notifications)
        assert app.ledger.load(game_id).state.missions["Ana"] == "24"

        # A claim the counts refute is refused with the reason; nothing is written.
        head = app.ledger.head(game_id)
        await pilot.press("ctrl+f")
        await settle(pilot)
        await typing(pilot, "tab")  # who claims: Ana (first) -> the position grid
        await type_positions(pilot, [(20, 30, set()), (22, 30, set())])
        await typing(pilot, "ctrl+s")
        await settle(pilot)
        refusal = str(app.screen.query_one("#dialog-message").render())
        assert "Ana holds 20 territories and needs 24" in refusal
        await pilot.press("escape")
        await settle(pilot)
        assert app.ledger.head(game_id) == head

        await pilot.press("ctrl+f")
        await settle(pilot)
        await typing(pilot, "tab")
        await type_positions(pilot, [(24, 30, set()), (18, 20, set())])
        await typing(pilot, "ctrl+s")
        await shows(pilot, ResultsScreen)

        report = assert_same(app, game_id, session(MISSIONS, {"mode": "missions"}, [
            {"kind": "round"},
            {"kind": "eliminate", "player": "Cy", "by": "Bo"},
            {"kind": "mission_complete", "player": "Ana",
             "positions": {"Ana": pos(24, 30), "Bo": pos(18, 20)}}]))
        assert report["winners"] == ["Ana"] and report["format"] == "secret_mission"


async def test_mission_stays_secret_until_revealed(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await open_new(pilot, MISSIONS, {"mode": "missions"})
        secret = "Destroy all green armies"
        assert secret not in screen_text(app)
        await pilot.press("ctrl+u")
        await settle(pilot)
        assert secret not in screen_text(app)  # first: whose mission (Ana is highlighted)
        await pilot.press("enter")
        await settle(pilot)
        assert secret in screen_text(app)
        assert "Asia and Africa" not in screen_text(app)  # Bo's card stays hidden
        await pilot.press("space")  # any key hides it
        await settle(pilot)
        assert isinstance(app.screen, RiskGameScreen)
        assert secret not in screen_text(app)


async def test_over_ssh_a_player_sees_only_their_own_mission(table):
    game_id = table.ledger().create_game("risk", "Tonight", {"mode": "missions"}, MISSIONS).id
    ssh = table.app(player="Bo")
    async with ssh.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # the only saved game
        await settle(pilot)
        assert ssh.screen.game.id == game_id
        await pilot.press("ctrl+u")  # no choice of player: straight to Bo's own card
        await settle(pilot)
        text = screen_text(ssh)
        assert "Conquer Asia and Africa" in text and "Destroy all green" not in text


async def test_game_ended_by_concession(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_new(pilot, THREE, {"mode": "conquest"})
        # Cy offers to concede; the group refuses (kept in the history).
        await pilot.press("ctrl+k")
        await settle(pilot)
        await typing(pilot, *choice("Cy"), "tab", *choice("no,"), "ctrl+s")
        await settle(pilot)
        assert "the group refused" in str(app.screen.query_one("#message").render())
        # Cy again, accepted: the territories go to the next seat, Ana, by default.
        await pilot.press("ctrl+k")
        await settle(pilot)
        await typing(pilot, *choice("Cy"), "ctrl+s")
        await settle(pilot)
        assert app.ledger.load(game_id).state.eliminated == {"Cy": "Ana"}
        # Bo concedes to Ana (the default, the next seat still in the game): Ana wins.
        await pilot.press("ctrl+k")
        await settle(pilot)
        await typing(pilot, *choice("Bo"), "ctrl+s")
        await shows(pilot, ResultsScreen)
        report = assert_same(app, game_id, session(THREE, {"mode": "conquest"}, [
            {"kind": "concede", "player": "Cy", "accepted": False},
            {"kind": "concede", "player": "Cy", "accepted": True, "to": "Ana"},
            {"kind": "concede", "player": "Bo", "accepted": True, "to": "Ana"}]))
        assert report["winners"] == ["Ana"] and report["format"] == "concession"


async def test_game_ended_by_stalemate_draw(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_new(pilot, THREE, {"mode": "fixed_rounds"})
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert app.screen.state.round == 0
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert app.screen.state.round == 1
        assert "Round 2 of 10" in str(app.screen.query_one("#phase-bar").render())
        await pilot.press("ctrl+p")  # the stalemate from the command palette this time
        await shows(pilot, CommandPalette)
        await type_text(pilot, "Record: stalemate")
        await until(pilot, lambda: "stalemate" in highlighted(app), "the palette's search")
        await pilot.press("enter")
        await shows(pilot, StalemateDialog)
        await pilot.press("ctrl+s")  # a draw is the first choice
        await shows(pilot, ResultsScreen)
        assert "A draw" in screen_text(app)
        report = assert_same(app, game_id, session(THREE, {"mode": "fixed_rounds"}, [
            {"kind": "round"}, {"kind": "stalemate", "resolution": "draw"}]))
        assert report["result"] == "draw" and report["winners"] == []


async def test_round_that_does_not_add_up_to_42_is_refused(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_new(pilot, THREE, {"mode": "fixed_rounds"})
        head = app.ledger.head(game_id)
        await type_positions(pilot, [(10, 10, set()), (10, 10, set()), (10, 10, set())])
        await settle(pilot)
        message = app.screen.query_one("#message")
        assert message.has_class("-warning")  # told while typing
        await pilot.press("enter")
        await settle(pilot)
        assert message.has_class("-error")
        assert "30 in all, but every one of the 42 territories is held" in str(message.render())
        assert app.ledger.head(game_id) == head
        assert app.ledger.load(game_id).state.round == 0


async def test_resume_at_the_same_round_with_the_same_totals_and_draft(table):
    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        game_id = await open_new(pilot, THREE, {"mode": "fixed_rounds", "rounds": 8})
        await type_positions(pilot, [(16, 40, {"Australia", "South America"}),
                                     (14, 37, {"Africa"}), (12, 30, set())])
        await pilot.press("enter")
        await settle(pilot)
        await type_text(pilot, "15")  # typed into round 2, not confirmed
        await settle(pilot)
        rows = app.screen.rows(app.screen.state)
        await pilot.press("ctrl+o")  # back to the saved games: the draft is kept
        await settle(pilot)
    again = table.app()
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await shows(pilot, RiskGameScreen)
        screen = again.screen
        assert isinstance(screen, RiskGameScreen) and screen.game.id == game_id
        assert screen.state.round == 1
        assert "Round 2 of 8" in str(screen.query_one("#phase-bar").render())
        assert screen.rows(screen.state) == rows
        assert rows[0] == ["Ana", "red", 16, 2, 40, 28, ""]
        assert screen.form.grid.values["Ana"]["territories"] == 15


async def test_the_other_side_of_an_elimination_or_concession_is_never_the_player(table):
    """The 'eliminated by' list (and a concession's 'go to' list) offers every player
    still in but the one going out, as it opens and after another is chosen (issue 44)."""
    from textual.widgets import Select

    from tui.games.risk.dialogs import ConcedeDialog, EliminateDialog

    def offered(dialog, id: str) -> set[str]:
        return {value for _prompt, value in dialog.query_one(f"#{id}", Select)._options}

    app = table.app()
    async with app.run_test(size=SIZE) as pilot:
        await open_new(pilot, THREE, {"mode": "conquest"})
        for key, dialog_type, other in (("ctrl+x", EliminateDialog, "by"),
                                        ("ctrl+k", ConcedeDialog, "to")):
            await pilot.press(key)
            await shows(pilot, dialog_type)
            dialog = app.screen
            first = dialog.query_one("#player", Select).value
            assert first not in offered(dialog, other)
            for name in ("Bo", "Cy", "Ana"):
                await choose(pilot, name)  # the first list: who goes out
                await settle(pilot)
                going = dialog.query_one("#player", Select).value
                assert going == name
                assert offered(dialog, other) == {"Ana", "Bo", "Cy"} - {name}
                assert dialog.query_one(f"#{other}", Select).value != name
            await pilot.press("escape")
            await settle(pilot)


@pytest.mark.parametrize("lang, scored, printed_as", [
    ("en", "stalemate, scored", "Result: win (stalemate, fixed_round), winners: Ana"),
    ("ro", "impas, punctat", "Rezultat: victorie (impas, runde fixe), câștigători: Ana"),
])
async def test_a_stalemate_result_names_the_stalemate(table, lang, scored, printed_as):
    """A stalemate scored as a fixed round is named as a stalemate wherever the result's
    format is shown: the results screen, the scoreboard, a player's games in the league and
    the printed result (issue 44); a stalemate drawn says it too."""
    from types import SimpleNamespace

    from i18n import set_language
    from tui.cli.printed import outcome
    from tui.scoreboard.screen import ScoreboardScreen
    from tui.text.formatting import format_name

    ledger = table.ledger()
    game = ledger.create_game("risk", "Stuck", {"mode": "conquest"}, THREE)
    ledger.record(game.id, {"kind": "round", "positions": {
        "Ana": pos(20, 30), "Bo": pos(12, 20), "Cy": pos(10, 10)}})
    ledger.record(game.id, {"kind": "stalemate", "resolution": "fixed_round"})
    drawn = ledger.create_game("risk", "Drawn", {"mode": "conquest"}, THREE)
    ledger.record(drawn.id, {"kind": "stalemate", "resolution": "draw"})
    set_language(lang)
    report = ledger.load(game.id).report()
    assert report.format == "fixed_round" and report.to_json()["format"] == "fixed_round"
    assert outcome(report) == printed_as
    said = ScoreboardScreen.where_words(SimpleNamespace(report=report)).plain
    assert said.endswith(f"({scored})")
    games = {entry.title: entry for entry in ledger.history("Ana")}
    assert format_name("risk", games["Stuck"].format, games["Stuck"].stalemate) == scored
    stalemate = "impas" if lang == "ro" else "stalemate"
    assert format_name("risk", games["Drawn"].format, games["Drawn"].stalemate) == stalemate
    app = table.app(ledger=ledger)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for game_id, named in ((game.id, scored), (drawn.id, stalemate)):
            app.open_game(game_id)
            await shows(pilot, ResultsScreen)
            headline = str(app.screen.query_one("#headline").render())
            assert f"·  {named}  ·" in headline, headline
            await pilot.press("ctrl+o")
            await settle(pilot)
