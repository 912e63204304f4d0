"""A third game fits in its own folder (issue 23): Race to 10 (tests/race_game) is registered
with the rules and with the screens, and played through Pilot from the home screen: setup,
a step, undo, results, league; then exported and replayed by the command line. Nothing in
the shared files knows of it. And the shared screens name no game at all."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from textual.widgets import DataTable, Input, Static
from waiting import until

from tests import race_game
from tests.test_cli import ok, refused, run, write
from tui.screens.home import HomeScreen
from tui.screens.league import LeagueScreen
from tui.screens.results import ResultsScreen

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

ROOT = Path(__file__).parent.parent


@pytest.fixture
def race():
    race_game.register()
    yield
    race_game.unregister()


async def settled(pilot, condition, what: str) -> None:
    await until(condition, what=what)
    await pilot.pause()


async def test_a_game_of_its_own_is_set_up_played_undone_finished_and_in_the_league(
        table, race, tmp_path):
    from tests.race_game.screens import NewRaceScreen, RaceScreen

    app = table.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        # the home screen offers it, by its own key, in the footer and the palette
        assert app.screen.key_of("new_race") == "t"
        assert "New Race to 10" in [b.description for _, b, *_ in
                                    app.screen.active_bindings.values()]
        await pilot.press("t")
        await settled(pilot, lambda: isinstance(app.screen, NewRaceScreen), "setup")
        app.screen.query_one("#title", Input).value = "Race night"
        app.screen.query_one("#name-1", Input).value = "Ana"
        app.screen.query_one("#name-2", Input).value = "Bo"
        await pilot.press("ctrl+s")
        await settled(pilot, lambda: isinstance(app.screen, RaceScreen), "the race opened")
        screen = app.screen
        assert screen.query_one("#phase-bar") is not None
        # a step: Ana 6, Bo 2 (one digit a cell, the cursor moves on), Enter records it
        await pilot.press("6", "2", "enter")
        await settled(pilot, lambda: app.screen.game.seq == 1, "turn 1 recorded")
        assert app.screen.game.state.points == (6, 2)
        # undo takes it back
        await pilot.press("ctrl+z")
        await settled(pilot, lambda: app.screen.game.seq == 2, "the undo recorded")
        assert app.screen.game.state.points == (0, 0)
        # two turns, and Ana is past 10: the results
        await pilot.press("6", "2", "enter")
        await settled(pilot, lambda: app.screen.game.state.turn == 2, "turn 1 again")
        await pilot.press("5", "1", "enter")
        await settled(pilot, lambda: isinstance(app.screen, ResultsScreen), "the results")
        headline = str(app.screen.query_one("#headline", Static).render())
        assert "Ana wins" in headline and "points" in headline and "2 turns" in headline
        fitted = app.screen.standings()
        assert fitted.headings == ["#", "player", "points"]
        assert [[cell.plain for cell in row] for row in fitted.rows] == [
            ["1", "Ana", "11"], ["2", "Bo", "3"]]
        game_id = app.screen.game.id
        # the league counts it, with a key for its games only
        await pilot.press("l")
        await settled(pilot, lambda: isinstance(app.screen, LeagueScreen), "the league")
        await pilot.press("t")
        await settled(pilot, lambda: app.screen.game == "race", "race games only")
        table_ = app.screen.query_one("#standings", DataTable)
        await until(lambda: table_.row_count == 2, what="two players in the league")
        assert [table_.get_row_at(i)[0].plain for i in range(2)] == ["Ana", "Bo"]
        assert "League: Race only" in str(app.screen.query_one("#league-filter",
                                                             Static).render())

    league = json.loads(ok(run("league", "--game", "race", "--json", db=table.url)))
    assert [(r["player"], r["points"]) for r in league["standings"]] == [("Ana", 3), ("Bo", 0)]
    # exported, and replayed into another database: the same game
    exported = json.loads(ok(run("export", str(game_id), db=table.url)))
    assert exported["game"] == "race" and len(exported["steps"]) == 4  # undo kept
    path = tmp_path / "race.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    other = f"sqlite:///{tmp_path / 'other.db'}"
    replayed = json.loads(ok(run("replay", str(path), "--json", db=other)))
    assert replayed["winners"] == ["Ana"] and replayed["rounds"] == 2
    assert [(s["player"], s["points"], s["rank"]) for s in replayed["standings"]] == [
        ("Ana", 11, 1), ("Bo", 3, 2)]
    listed = ok(run("sessions", db=other))
    assert "Race night" in listed and "Finished" in listed


def test_once_unregistered_the_game_is_unknown(race):
    race_game.unregister()
    from rules.names import GAME_NAMES
    from tui.screens.registry import screens_of

    assert "race" not in GAME_NAMES and screens_of("race") is None
    race_game.register()


@pytest.mark.unit
def test_no_shared_screen_names_a_game():
    """Only the games' own packages name a game by its tag: each registers itself."""
    tags = re.compile(r"""["'](soe|risk)["']""")
    named = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tui").rglob("*.py")
                   if tags.search(path.read_text(encoding="utf-8")))
    assert [p for p in named if not p.startswith(("tui/games/soe/", "tui/games/risk/"))] == []


RACE_FILE = {
    "format": "warledger/1", "game": "race", "title": "Race night",
    "players": [{"name": "Ana"}, {"name": "Bo"}],
    "steps": [{"kind": "turn", "points": {"Ana": 6, "Bo": 2}},
              {"kind": "turn", "points": {"Ana": 5, "Bo": 1}}],
}


def test_the_game_goes_to_every_file_and_comes_back_from_boardgamegeek(race, tmp_path):
    """Its registration says how BoardGameGeek and BG Stats list it (GameRules.elsewhere):
    it is written to all four formats, and its BoardGameGeek file is read back as the
    same game, in a league of its own."""
    from rules.plays import read_plays

    db = f"sqlite:///{tmp_path / 'table.db'}"
    ok(run("replay", str(write(tmp_path, "race.json", RACE_FILE)), db=db))
    [game] = json.loads(ok(run("sessions", "--json", db=db)))
    game_id = str(game["id"])
    assert json.loads(ok(run("export", game_id, "--format", "json", db=db)))["game"] == "race"
    assert ok(run("export", game_id, "--format", "csv", db=db)).splitlines() == [
        "player,points,rank", "Ana,11,1", "Bo,3,2"]
    # BG Stats: by its name, no BoardGameGeek id, the scores and the winner
    bgstats = json.loads(ok(run("export", game_id, "--format", "bgstats", db=db)))
    assert [(g["name"], g["bggId"]) for g in bgstats["games"]] == [("Race to 10", 0)]
    assert [(s["score"], s["winner"], s["role"]) for s in bgstats["plays"][0]["playerScores"]
            ] == [("11", True, ""), ("3", False, "")]
    assert read_plays(json.dumps(bgstats).encode()).plays[0].game == "race"
    # BoardGameGeek: by its name alone, and read back into another database
    bgg = ok(run("export", game_id, "--format", "bgg", db=db))
    assert '<item name="Race to 10" objecttype="thing">' in bgg
    path = tmp_path / "race.xml"
    path.write_text(bgg, encoding="utf-8")
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert "1 play stored from BoardGameGeek" in ok(run("import", str(path), db=other))
    [back] = json.loads(ok(run("sessions", "--json", db=other)))
    assert back["game"] == "race"
    # the same game: read into the database it came from, it is there already
    assert "1 play was stored already" in ok(run("import", str(path), db=db))
    league = json.loads(ok(run("league", "--game", "race", "--json", db=other)))
    assert [(r["player"], r["points"]) for r in league["standings"]] == [("Ana", 3), ("Bo", 0)]
    # ...and written out again from there, the same play
    again = ok(run("export", str(back["id"]), "--format", "bgg", db=other))
    assert read_plays(again.encode()).plays[0].players == read_plays(bgg.encode()).plays[0].players


def test_a_game_the_files_do_not_know_is_refused_in_one_line(race, tmp_path):
    """A game whose registration says nothing of BoardGameGeek or BG Stats is written to
    neither: one line says so, and nothing is written."""
    from dataclasses import replace

    from rules.game import register
    from tests.race_game.rules import RACE

    register(replace(RACE, elsewhere=None), short_name="Race")
    db = f"sqlite:///{tmp_path / 'table.db'}"
    ok(run("replay", str(write(tmp_path, "race.json", RACE_FILE)), db=db))
    for format in ("bgg", "bgstats"):
        output = tmp_path / f"race.{format}"
        line = refused(run("export", "--all", "--format", format, "--output", str(output),
                           db=db))
        assert line == ("warledger: Race to 10 is not a game BoardGameGeek or BG Stats files "
                        "know; nothing was written")
        assert not output.exists()


def test_an_import_of_other_games_names_every_game_the_files_can_hold(race, tmp_path):
    """The games an import looks for are the registry's, the third one too."""
    chess = ('<plays><play id="7" date="2025-12-05" quantity="1" length="30" incomplete="0">'
             '<item name="Chess" objecttype="thing" objectid="171"/><players>'
             '<player name="Ana" win="1"/><player name="Bo" win="0"/></players></play></plays>')
    said = ok(run("import", str(write(tmp_path, "chess.xml", chess)),
                  db=f"sqlite:///{tmp_path / 'table.db'}"))
    assert ("holds no finished play of Struggle of Empires, Risk or Race to 10; nothing was "
            "stored") in said
