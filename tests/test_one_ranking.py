"""One ranking of a game (issue 44): players who went out are ranked the same on the results
screen, in `replay --json`, in the CSV export, in the BoardGameGeek and BG Stats files, in the
league's places and in the ratings' head to head: below everyone still in, the last out
highest (RULES.md; rules.outcome.ranks)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from cli_runner import CliRunner
from textual.widgets import Static

from rules.plays import bgg_xml, bgstats_json, read_plays, report_of
from storage.engine import make_engine
from storage.ledger import Ledger
from tests.at_head import new_database
from tests.pilot_pace import shows
from tui.cli import app
from tui.screens.results import ResultsScreen

PLAIN = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": "1"}
THREE = [{"name": "Bo", "color": "blue"}, {"name": "Cy", "color": "green"},
         {"name": "Di", "color": "yellow"}]


def run(*args, db: str):
    said = CliRunner().invoke(app, [str(a) for a in args] + ["--db", db], env=PLAIN)
    assert said.exit_code == 0, said.stderr
    return said.stdout


def risk_out_twice(ledger: Ledger) -> int:
    """The issue's game, through the ledger: Di is eliminated by Cy, then Bo concedes to
    Cy, accepted: Cy wins. Bo went out last, so Bo is second and Di third."""
    game = ledger.create_game("risk", "Out twice", {"mode": "conquest"}, THREE)
    ledger.record(game.id, {"kind": "eliminate", "player": "Di", "by": "Cy"})
    ledger.record(game.id, {"kind": "concede", "player": "Bo", "accepted": True, "to": "Cy"})
    return game.id


def drawn_with_one_out(ledger: Ledger) -> int:
    """A stalemate declared a draw after Di was eliminated: Bo and Cy, still in, draw and
    tie for first whatever the position said; Di is below them."""
    game = ledger.create_game("risk", "Drawn", {"mode": "fixed_rounds", "rounds": 5}, THREE)
    ledger.record(game.id, {"kind": "round", "positions": {
        "Bo": {"territories": 12, "armies": 20, "continents": []},
        "Cy": {"territories": 20, "armies": 30, "continents": []},
        "Di": {"territories": 10, "armies": 12, "continents": []}}})
    ledger.record(game.id, {"kind": "eliminate", "player": "Di", "by": "Bo"})
    ledger.record(game.id, {"kind": "stalemate", "resolution": "draw"})
    return game.id


def test_players_who_went_out_rank_the_same_everywhere(tmp_path):
    db = new_database(tmp_path / "w.db")
    engine = make_engine(f"sqlite:///{db}")
    ledger = Ledger(engine)
    out_twice, drawn = risk_out_twice(ledger), drawn_with_one_out(ledger)
    expected = {out_twice: {"Cy": 1, "Bo": 2, "Di": 3}, drawn: {"Bo": 1, "Cy": 1, "Di": 3}}

    for game_id, ranks in expected.items():
        # The standings every screen and file reads (the results screen shows `rank`).
        report = ledger.load(game_id).report()
        assert {s.player: s.rank for s in report.standings} == ranks
        assert [s.rank for s in report.standings] == sorted(ranks.values())  # best first
        # The CSV export and `replay --json`'s standings.
        rows = list(csv.DictReader(io.StringIO(run("export", game_id, "--format", "csv",
                                                   db=db))))
        assert {row["player"]: int(row["rank"]) for row in rows} == ranks
        exported = tmp_path / f"{game_id}.json"
        run("export", game_id, "-o", exported, db=db)
        replayed = json.loads(run("replay", exported, "--copy", "--json",
                                  db=new_database(tmp_path / f"r{game_id}.db")))
        standings = replayed[0]["standings"] if isinstance(replayed, list) else \
            replayed["standings"]
        assert {s["player"]: s["rank"] for s in standings} == ranks
        # The files for BoardGameGeek and BG Stats, and what they read back as.
        (play,) = ledger.plays([game_id])
        assert {p.name: p.place for p in play.players} == ranks
        for written in (bgg_xml([play]), json.dumps(bgstats_json([play]))):
            (back,) = read_plays(written.encode()).plays
            assert {s.player: s.rank for s in report_of(back).standings} == ranks
        stats_ranks = bgstats_json([play])["plays"][0]["playerScores"]
        assert sorted(s["rank"] for s in stats_ranks) == sorted(ranks.values())
    # The league's places, which the ratings and the head to head read.
    places = {g.key: {f.player: f.place for f in g.finishes} for g in ledger.finished_games()}
    assert places == expected
    head = json.loads(run("stats", "--json", db=db))["head_to_head"]
    assert head["Bo"]["Di"] == {"ahead": 2, "behind": 0, "level": 0}
    assert head["Bo"]["Cy"] == {"ahead": 0, "behind": 1, "level": 1}
    league = {r.player: (r.wins, r.draws, r.losses) for r in ledger.league()}
    assert league == {"Cy": (1, 1, 0), "Bo": (0, 1, 1), "Di": (0, 0, 2)}
    engine.dispose()


async def test_the_results_screen_ranks_the_last_out_above_the_first_out(table):
    ledger = table.ledger()
    game_id = risk_out_twice(ledger)
    app_ = table.app(ledger=ledger)
    async with app_.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app_.open_game(game_id)
        await shows(pilot, ResultsScreen)
        shown = app_.screen.query_one("#standings", Static).content  # a FittedTable
        rows = [[cell.plain for cell in row] for row in shown.rows]
        assert {row[1]: row[0] for row in rows} == {"Cy": "1", "Bo": "2", "Di": "3"}, rows


def test_the_docs_say_the_order_among_the_players_out():
    readme = (Path(__file__).parent.parent / "docs" / "story.md").read_text()
    said = re.sub(r"\s+", " ", readme)
    ranking = said[said.index("Each finished game is a ranking"):]
    assert "the one `rank` that the results screen, `replay --json`, the CSV" in ranking
    assert "then whoever went out before the end: in Risk the eliminated and those who " \
           "conceded, the last out highest" in ranking
