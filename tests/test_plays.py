"""Plays kept in BoardGameGeek and BG Stats, in and out of the database (issue 27):
imported plays are result-only games that count in the league and the ratings and are
stored once; export then import gives the same league, import then export the same plays;
a hostile file stores nothing; the migration that made room for them goes down and up; the
command line says each thing in a line; the home screen lists them as results and opens
them to a results screen with nothing to undo."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from cli_runner import CliRunner
from sqlalchemy import inspect, text
from textual.widgets import DataTable

from rules.errors import RuleError
from rules.plays import bgg_xml, bgstats_json, read_plays
from storage.ledger import Ledger
from storage.migrate import current_revision, downgrade, head_revision, upgrade
from tests.at_head import new_database
from tests.pilot_pace import shows, until
from tests.short_games import risk_night, soe_war
from tests.test_tui_hostile import screen_text
from tui.cli.typer_app import app
from tui.screens.results import ResultsScreen

DATA = Path(__file__).parent / "data"
BGG = (DATA / "bgg_plays.xml").read_bytes()
BGSTATS = (DATA / "bgstats_plays.json").read_bytes()
PLAIN = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": "1"}


def league(ledger) -> list[tuple]:
    return [(r.player, r.played, r.wins, r.draws, r.losses, r.points) for r in ledger.league()]


def played_here(ledger) -> None:
    """Games played step by step: a Risk win with a player out, a shared Risk win, a Struggle
    of Empires win, and one still in progress."""
    ledger.replay(risk_night(["Ana", "Bo", "Cy"], out=("Di",)))
    ledger.replay(risk_night(["Bo", "Ana"], shared=True))
    ledger.replay(soe_war(["Ana", "Bo", "Cy", "Di"], 2))
    half = soe_war(["Di", "Cy", "Bo", "Ana"], 1)
    half["steps"] = half["steps"][:4]
    ledger.replay(half)


def test_imported_plays_count_in_the_league_and_the_ratings_once(ledger):
    found = read_plays(BGG)
    got = ledger.import_plays(found.plays)
    assert (len(got.stored), got.already) == (4, 0)
    assert league(ledger) == [("Bo", 4, 2, 1, 1, 7), ("Ana", 4, 1, 1, 2, 4),
                              ("Cy", 3, 0, 0, 3, 0), ("Di", 1, 0, 0, 1, 0)]
    stats = ledger.stats()
    assert stats.games == 4 and set(stats.ratings["all"]) == {"Ana", "Bo", "Cy", "Di"}
    assert [g.key for g in ledger.finished_games()] == list(got.stored)  # in date order
    again = ledger.import_plays(read_plays(BGG).plays)
    assert (again.stored, again.already) == ((), 4)
    assert len(ledger.games()) == 4 and league(ledger)[0] == ("Bo", 4, 2, 1, 1, 7)


def test_a_result_only_game_has_a_result_and_no_steps(ledger):
    (risk, *_rest) = ledger.import_plays(read_plays(BGG).plays).stored
    game = ledger.load(risk)
    assert game.result_only and game.source == "bgg:9001" and game.source_name == "BoardGameGeek"
    report = game.report()
    assert (report.result, report.format, report.winners) == ("win", "imported", ("Ana",))
    assert [s.to_json() for s in report.standings] == [
        {"player": "Ana", "color": "red", "score": None, "rank": 1},
        {"player": "Bo", "color": "blue", "score": None, "rank": 2},
        {"player": "Cy", "color": "green", "score": None, "rank": 2}]
    listing = next(g for g in ledger.games() if g.id == risk)
    assert (listing.status, listing.progress.phase, listing.leader) == ("finished", "imported",
                                                                        "Ana")
    with pytest.raises(RuleError, match="imported as a result only"):
        ledger.record(risk, {"kind": "stalemate", "resolution": "draw"})
    with pytest.raises(RuleError, match="no steps for a session file"):
        ledger.export(risk)
    assert ledger.step_log(risk) == []
    ledger.delete_game(risk)
    assert ("Cy", 2, 0, 0, 2, 0) in league(ledger)


def test_export_then_import_gives_the_same_league(make_ledger):
    here = make_ledger()
    played_here(here)
    plays = here.plays()
    assert [p.finished for p in plays] == [True, True, True, False]
    for written in (bgg_xml(plays).encode(), json.dumps(bgstats_json(plays)).encode()):
        elsewhere = make_ledger()
        found = read_plays(written)
        assert found.skipped == {"unfinished": 1}
        elsewhere.import_plays(found.plays)
        assert league(elsewhere) == league(here)
        assert set(elsewhere.stats().ratings["all"]) == set(here.stats().ratings["all"])
        # Back where they were played, they are recognised by their own id.
        assert here.import_plays(found.plays) == ((), 3)


@pytest.mark.parametrize("sample", [BGG, BGSTATS])
def test_import_then_export_gives_the_same_plays(ledger, sample):
    original = read_plays(sample)
    ledger.import_plays(original.plays)
    plays = ledger.plays()
    exported = bgg_xml(plays) if original.format == "bgg" else json.dumps(bgstats_json(plays))
    back = read_plays(exported.encode())

    def kept(play):  # a title, an own id and places are warledger's: the files had none
        return replace(play, title=None, uid=None,
                       players=tuple(replace(p, place=None) for p in play.players))

    assert sorted(map(kept, back.plays), key=lambda p: p.started) == \
        sorted(original.plays, key=lambda p: p.started)
    assert ledger.import_plays(back.plays).already == len(original.plays)


def test_an_export_reads_imported_plays_together_whatever_their_number(ledger):
    """Imported plays are read in a few statements for them all, not several per play (an
    export of 5,000 made 25,000 queries), and read the same as one at a time."""
    from datetime import timedelta

    from sqlalchemy import event

    sample = read_plays(BGG).plays
    many = [replace(play, source=f"bgg:{n}", bgg_play=n,
                    started=play.started + timedelta(days=n))
            for n in range(1, 61) for play in sample[:1]]
    ledger.import_plays(many)
    played_here(ledger)
    statements: list[str] = []

    def told(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    event.listen(ledger.engine, "before_cursor_execute", told)
    plays = ledger.plays()
    event.remove(ledger.engine, "before_cursor_execute", told)
    # Four games played here are folded one by one; the sixty imported ones come together.
    assert len(plays) == 64 and len(statements) < 30, len(statements)
    alone = {g.source: g.play() for g in map(ledger.load, (g.id for g in ledger.games()))
             if getattr(g, "result_only", False)}
    assert len(alone) == 60
    assert {p.source: p for p in plays if p.source} == alone


def test_a_name_that_passes_for_a_stored_players_stores_nothing(ledger):
    ledger.replay(risk_night(["Ana", "Bo"]))
    lookalike = BGG.replace(b'name="Cy"', "name=\"\u0421y\"".encode()).replace(
        b'name="Di"', "name=\"\u0410na\"".encode())
    with pytest.raises(RuleError, match="look alike"):
        ledger.import_plays(read_plays(lookalike).plays)
    assert len(ledger.games()) == 1 and [r[0] for r in league(ledger)] == ["Ana", "Bo"]


def test_export_of_a_group_and_a_season(ledger):
    ledger.import_plays(read_plays(BGG).plays, group="Fridays")
    ledger.import_plays(read_plays(BGSTATS).plays, group="Mondays")
    ledger.add_season("Fridays", "Late 2025", "2025-11-10", "2025-11-30")
    assert [p.source for p in ledger.plays(group="Fridays", season="Late 2025")] == [
        "bgg:9002", "bgg:9003"]
    assert len(ledger.plays(group="Mondays")) == 3
    assert [p.source for p in ledger.plays([4, 1])] == ["bgg:9004", "bgg:9001"]


def test_migration_0006_down_forgets_imported_games_and_up_makes_room_again(ledger):
    ledger.replay(risk_night(["Ana", "Bo"]))
    ledger.import_plays(read_plays(BGG).plays)
    engine = ledger.engine
    downgrade(engine, "0005")
    assert current_revision(engine) == "0005"
    with engine.connect() as conn:
        assert "source" not in {c["name"] for c in inspect(conn).get_columns("game_session")}
        assert conn.execute(text("SELECT count(*) FROM game_session")).scalar_one() == 1
        assert conn.execute(text("SELECT count(*) FROM result_entry")).scalar_one() == 2
    upgrade(engine)
    assert current_revision(engine) == head_revision()
    fresh = Ledger(engine)
    assert league(fresh) == [("Ana", 1, 1, 0, 0, 3), ("Bo", 1, 0, 0, 1, 0)]
    assert len(fresh.import_plays(read_plays(BGG).plays).stored) == 4


# ---------------------------------------------------------------- the command line

def run(*args, db: Path):
    return CliRunner().invoke(app, [str(a) for a in args] + ["--db", str(db)], env=PLAIN)


def test_import_and_export_on_the_command_line(tmp_path):
    db = new_database(tmp_path / "w.db")
    said = run("import", DATA / "bgg_plays.xml", db=db)
    assert said.exit_code == 0, said.stderr
    assert said.stdout.splitlines() == ["4 plays stored from BoardGameGeek",
                                        "1 unfinished or ignored play skipped",
                                        "2 plays of other games skipped"]
    again = run("import", DATA / "bgg_plays.xml", db=db)
    assert again.stdout.splitlines()[:2] == ["0 plays stored from BoardGameGeek",
                                             "4 plays were stored already"]
    out = tmp_path / "plays.json"
    assert run("export", "--all", "--format", "bgstats", "-o", out, db=db).exit_code == 0
    assert len(json.loads(out.read_text())["plays"]) == 4
    xml = run("export", "1", "2", "--format", "bgg", db=db)
    assert xml.exit_code == 0 and xml.stdout.count("<play ") == 2
    sessions = json.loads(run("sessions", "--json", db=db).stdout)
    assert {s["phase"] for s in sessions} == {"imported"}


@pytest.mark.parametrize("args, said", [
    (("export", "1"), "imported as a result only"),
    (("export", "1", "2", "--format", "json"), "writes one game"),
    (("export", "--format", "bgg"), "name the games to write, or give --all"),
    (("export", "1", "--all", "--format", "bgg"), "name the games to write, or give --all"),
    (("export", "--all", "--format", "xml"), "must be json, csv, bgg or bgstats"),
    (("export", "9", "--format", "bgg"), "There is no game 9"),
])
def test_export_refusals_are_one_line(tmp_path, args, said):
    db = new_database(tmp_path / "w.db")
    run("import", DATA / "bgg_plays.xml", db=db)
    result = run(*args, db=db)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], result.stderr


@pytest.mark.parametrize("content", [
    b'<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
    b'<plays><play date="2025-01-01"><item name="Risk"/><players><player name="&b;"/>'
    b"</players></play></plays>",
    b'<plays><play id="7" date="2025-02-30"><item name="Risk" objectid="181"/></play></plays>',
    BGG.replace(b'name="Bo"', b'name="Bo\xc2\x9b"'),
    b"\x00\x01binary",
])
def test_a_hostile_file_stores_nothing_and_says_why_in_one_line(tmp_path, content):
    db = new_database(tmp_path / "w.db")
    hostile = tmp_path / "plays.xml"
    hostile.write_bytes(content)
    result = run("import", hostile, db=db)
    assert result.exit_code == 1 and "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith("nothing was stored"), result.stderr
    assert "\x9b" not in lines[0] and "\x1b" not in lines[0]
    assert json.loads(run("sessions", "--json", db=db).stdout) == []


def test_a_huge_file_is_not_read_whole(tmp_path):
    from rules.plays import FILE_LIMIT

    huge = tmp_path / "huge.xml"
    with huge.open("wb") as f:
        f.write(b"<plays>")
        f.seek(FILE_LIMIT * 4)
        f.write(b"</plays>")
    result = run("import", huge, db=new_database(tmp_path / "w.db"))
    assert result.exit_code == 1 and "too big" in result.stderr


# ---------------------------------------------------------------- the screens

async def test_home_lists_imported_results_and_opens_them_to_results(table):
    ledger = table.ledger()
    marked = BGG.replace(b'name="Ana"', b'name="[b]Ana[/b]"').replace(b'name="Bo"',
                                                                     b'name="Bo[/]"')
    ledger.import_plays(read_plays(marked).plays)
    app = table.app(ledger=ledger)
    async with app.run_test(size=(100, 30)) as pilot:
        games = app.screen.query_one("#games", DataTable)
        await until(pilot, lambda: games.row_count == 4, "the imported games listed")
        await pilot.pause()  # drawn
        assert screen_text(app).count("Result only") == 4
        app.open_game(1)
        await shows(pilot, ResultsScreen)
        shown = screen_text(app)
        assert "[b]Ana[/b] wins" in shown and "Bo[/]" in shown
        assert "result imported" in shown and "colour" in shown
        footer = {b.binding.action for b in app.screen.active_bindings.values()
                  if app.screen.check_action(b.binding.action, ())}
        assert "undo" not in footer and "history" not in footer
        await pilot.press("ctrl+z")  # nothing to take back: the game stays as it was
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        assert ledger.load(1).report().winners == ("[b]Ana[/b]",)


def test_plays_stored_by_another_terminal_meanwhile_are_counted_not_doubled(ledger,
                                                                            monkeypatch):
    import storage.kept_plays

    ledger.import_plays(read_plays(BGG).plays)
    looks = []
    real = storage.kept_plays.stored_already

    def late(conn, plays):  # the first look misses what another terminal just stored
        looks.append(len(plays))
        return set() if len(looks) == 1 else real(conn, plays)

    monkeypatch.setattr(storage.kept_plays, "stored_already", late)
    assert ledger.import_plays(read_plays(BGG).plays) == ((), 4)
    assert len(looks) == 2 and len(ledger.games()) == 4
