"""Round trips keep the group's story (issue 44): a history played through the ledger, with
several games on one day and players out in the order they went, written with `export --all
--format bgg`, `--format bgstats` or as session files (`export N` each) and read into a new
SQLite database (`import`, `replay`) gives the same league, the same order of games and the
same `stats --json`, byte for byte. Where a file cannot carry a moment whole, the moments of
`rating_history` are what it carries and every other byte is the same: BoardGameGeek gives
each play its day alone (the moments are noon UTC that day, a second apart in the day's
order). BG Stats gives a start to the second and a length in minutes: warledger writes the
start that keeps the end to the second (the moments `stats --json` prints)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from cli_runner import CliRunner

import storage.ledger
from storage.engine import make_engine
from storage.ledger import Ledger
from tests.at_head import new_database
from tests.short_games import soe_war
from tui.cli.typer_app import app

PLAIN = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": "1"}
RISK = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
        {"name": "Cy", "color": "green"}, {"name": "Di", "color": "yellow"}]
MOMENT = re.compile(r'"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00"')


def run(*args, db: str) -> str:
    said = CliRunner().invoke(app, [str(a) for a in args] + ["--db", db], env=PLAIN)
    assert said.exit_code == 0, said.stderr
    return said.stdout


class Clock:
    """The ledger's clock, set by the test: each game at the hour it was played."""

    def __init__(self) -> None:
        self.at = datetime(2026, 1, 1, tzinfo=UTC)

    def evening(self, day: int, hour: int, minute: int = 0) -> None:
        """This machine's local time on a November day: the day a BoardGameGeek file says."""
        self.at = datetime(2026, 11, day, hour, minute).astimezone().astimezone(UTC)

    def later(self, minutes: int) -> None:
        """Some minutes later, and some seconds: no clock ticks in whole minutes."""
        self.at += timedelta(minutes=minutes, seconds=17, microseconds=123_457)

    def __call__(self) -> datetime:
        return self.at


def pos(territories: int, armies: int) -> dict:
    return {"territories": territories, "armies": armies, "continents": []}


def play(ledger: Ledger, clock: Clock, game: str | int, title: str, settings: dict,
         players: list, steps: list, minutes: int) -> None:
    """A game set up now (or the game of that number, set up before) and played step by
    step, its steps `minutes` apart in all."""
    made = ledger.create_game(game, title, settings, players).id if isinstance(game, str) \
        else game
    for step in steps:
        clock.later(max(minutes // len(steps), 1))
        ledger.record(made, step)


def evening(ledger: Ledger, clock: Clock) -> None:
    """Two evenings: on the first, a long Struggle of Empires game and then two short Risk
    games (the second the issue's: Di out first, then Bo, and Cy wins); on the next, a
    Struggle of Empires game set up, a short Risk game played while it waited, then the
    long game and a Risk game; and one left unfinished."""
    soe = soe_war(["Bo", "Ana", "Cy", "Di"], 2)
    clock.evening(6, 18)
    play(ledger, clock, "soe", "Empires", soe["settings"], soe["players"], soe["steps"], 200)
    clock.later(10)
    play(ledger, clock, "risk", "Quick", {"mode": "fixed_rounds", "rounds": 1}, RISK,
         [{"kind": "round", "positions": {"Ana": pos(8, 20), "Bo": pos(14, 25),
                                          "Cy": pos(11, 30), "Di": pos(9, 12)}}], 25)
    clock.later(5)
    three = [p for p in RISK if p["name"] != "Ana"]
    play(ledger, clock, "risk", "Out twice", {"mode": "conquest"}, three,
         [{"kind": "eliminate", "player": "Di", "by": "Cy"},
          {"kind": "concede", "player": "Bo", "accepted": True, "to": "Cy"}], 40)
    clock.evening(7, 18)
    waiting = soe_war(["Di", "Cy", "Bo", "Ana"], 1)
    long = ledger.create_game("soe", "Set up first", waiting["settings"], waiting["players"])
    clock.later(5)
    play(ledger, clock, "risk", "Meanwhile", {"mode": "conquest"}, three,
         [{"kind": "concede", "player": "Cy", "accepted": True, "to": "Di"},
          {"kind": "eliminate", "player": "Di", "by": "Bo"}], 30)
    play(ledger, clock, long.id, "", {}, [], waiting["steps"], 180)
    clock.later(5)
    play(ledger, clock, "risk", "Missions", {"mode": "fixed_rounds", "rounds": 1}, RISK,
         [{"kind": "eliminate", "player": "Bo", "by": "Ana"},
          {"kind": "round", "positions": {"Ana": pos(15, 30), "Cy": pos(15, 30),
                                          "Di": pos(12, 20)}},
          {"kind": "tiebreak", "resolution": "shared"}], 60)
    clock.later(5)
    ledger.create_game("risk", "Unfinished", {"mode": "conquest"}, RISK)


def told(db: str) -> tuple:
    """What a database says of the group: its league, its finished games in order (game,
    each player's place and outcome), and `stats --json` as printed."""
    engine = make_engine(f"sqlite:///{db}")
    try:
        ledger = Ledger(engine)
        league = [(r.player, r.played, r.wins, r.draws, r.losses, r.points)
                  for r in ledger.league()]
        games = [(g.game, [(f.player, f.place, f.outcome, f.score) for f in g.finishes])
                 for g in ledger.finished_games()]
    finally:
        engine.dispose()
    return league, games, run("stats", "--json", db=db)


@pytest.fixture
def history(tmp_path, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(storage.ledger, "now", clock)
    db = new_database(tmp_path / "here.db")
    engine = make_engine(f"sqlite:///{db}")
    evening(Ledger(engine), clock)
    engine.dispose()
    monkeypatch.undo()
    return db


@pytest.mark.parametrize("format", ["bgg", "bgstats", "session"])
def test_a_round_trip_keeps_the_league_the_order_and_the_ratings(history, tmp_path, format):
    db = history
    league, games, stats = told(db)
    assert [g for g, _f in games] == ["soe", "risk", "risk", "risk", "soe", "risk"]
    assert games[3][1][0][:3] == ("Bo", 1, "win")  # 'Meanwhile', ended before 'Set up first'
    assert ("Bo", 2, "loss", 0) in games[2][1] and ("Di", 3, "loss", 0) in games[2][1]
    elsewhere = new_database(tmp_path / "elsewhere.db")
    if format == "session":
        sessions = json.loads(run("sessions", "--json", db=db))
        files = []
        for game in sorted(sessions, key=lambda g: g["id"]):
            files.append(tmp_path / f"game{game['id']}.json")
            run("export", game["id"], "-o", files[-1], db=db)
        run("replay", *files, db=elsewhere)
    else:
        written = tmp_path / f"plays.{format}"
        run("export", "--all", "--format", format, "-o", written, db=db)
        run("import", written, db=elsewhere)
    league_there, games_there, stats_there = told(elsewhere)
    assert league_there == league
    assert games_there == games
    if format == "bgg":  # a day, no time: the moments are the day's, every other byte kept
        here, there = moments(stats), moments(stats_there)
        assert here and [m.astimezone().date() for m in there] == \
            [m.astimezone().date() for m in here]
        stats, stats_there = (MOMENT.sub('"(a moment)"', s) for s in (stats, stats_there))
    assert stats_there == stats


def moments(stats: str) -> list[datetime]:
    """The moments of `stats --json` (its rating_history's), in their order."""
    return [datetime.fromisoformat(m.group()[1:-1]) for m in MOMENT.finditer(stats)]


def test_a_days_boardgamegeek_plays_keep_the_order_they_were_logged_in():
    """BoardGameGeek lists a day's plays newest first: their ids, which grow as plays are
    logged, give the order, whatever their lengths; without ids, the file's order does."""
    from rules.plays import read_plays, report_of

    def bgg_play(attrs: str, minutes: int, winner: str) -> str:
        players = "".join(f'<player name="{n}" win="{int(n == winner)}" score=""/>'
                          for n in ("Ana", "Bo"))
        return (f'<play {attrs} date="2025-11-07" quantity="1" length="{minutes}" '
                f'incomplete="0"><item name="Risk" objecttype="thing" objectid="181"/>'
                f'<players>{players}</players></play>')

    logged = ("<plays>" + bgg_play('id="20"', 30, "Bo") + bgg_play('id="10"', 180, "Ana")
              + "</plays>").encode()
    first, second = read_plays(logged).plays
    noon = datetime(2025, 11, 7, 12, tzinfo=UTC)
    assert (second.finished_at, first.finished_at) == (noon, noon + timedelta(seconds=1))
    assert (first.ended_by_length, second.ended_by_length) == (
        noon + timedelta(minutes=30), noon + timedelta(minutes=180))  # lengths kept
    unlogged = logged.replace(b'id="20" ', b"").replace(b'id="10" ', b"")
    first, second = read_plays(unlogged).plays
    assert (first.finished_at, second.finished_at) == (noon, noon + timedelta(seconds=1))
    # A file's own places, where it has none: the winner first, the others level.
    assert [(s.player, s.rank) for s in report_of(first).standings] == [("Bo", 1), ("Ana", 2)]


def test_bg_stats_ranks_place_the_players_where_every_player_has_one():
    from rules.plays import read_plays, report_of

    def file(ranks: list) -> bytes:
        return json.dumps({
            "players": [{"id": n, "name": name} for n, name in enumerate(("Ana", "Bo", "Cy"))],
            "games": [{"id": 1, "name": "Risk", "bggId": 181}],
            "plays": [{"uuid": "p-1", "gameRefId": 1, "playDate": "2025-11-07 20:00:00",
                       "playerScores": [{"playerRefId": n, "score": "", "winner": n == 2,
                                         "seatOrder": n + 1, "rank": rank}
                                        for n, rank in enumerate(ranks)]}]}).encode()

    def ranked(ranks: list) -> dict:
        (play,) = read_plays(file(ranks)).plays
        return {s.player: s.rank for s in report_of(play).standings}

    assert ranked([3, 2, 1]) == {"Cy": 1, "Bo": 2, "Ana": 3}
    assert ranked([0, 0, 0]) == ranked([3, 0, 1]) == ranked([3, "x", 1]) == ranked([9, 2, 1]) \
        == {"Cy": 1, "Ana": 2, "Bo": 2}
