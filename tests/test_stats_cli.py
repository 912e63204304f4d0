"""`warledger stats`, `league --group --season`, `group`, `season` and `move` (issue 25),
on real databases (SQLite, and PostgreSQL where WARLEDGER_TEST_PG names one)."""

from __future__ import annotations

import json
from datetime import date, timedelta

from openskill.models import PlackettLuce
from test_cli import SOE_FILE, ok, refused, risk_duel, run, write

from tui.cli.start import quick_command

STATS_KEYS = {"format", "group", "season", "games", "ratings", "rating_history",
              "head_to_head", "balance", "players"}


def stored_duels(tmp_path, db_url, *duels, group=None):
    for i, (a, b, tie) in enumerate(duels):
        args = ["replay", write(tmp_path, f"d{i}-{a}-{b}.json", risk_duel(a, b, tie=tie))]
        ok(run(*args, *(["--group", group] if group else []), db=db_url))


def test_stats_json_is_openskill_on_the_games_in_order(db_url, tmp_path):
    stored_duels(tmp_path, db_url, ("Ana", "Bo", False), ("Bo", "Cy", False),
                 ("Ana", "Cy", True))
    got = json.loads(ok(run("stats", "--json", db=db_url)))
    assert set(got) == STATS_KEYS
    assert (got["format"], got["group"], got["season"], got["games"]) == (
        "warledger-stats/1", None, None, 3)
    model, now = PlackettLuce(), {}
    for a, b, ranks in (("Ana", "Bo", [1, 2]), ("Bo", "Cy", [1, 2]), ("Ana", "Cy", [1, 1])):
        (ra,), (rb,) = model.rate([[now.get(a, model.rating())], [now.get(b, model.rating())]],
                                  ranks=ranks)
        now[a], now[b] = ra, rb
    for scope in ("all", "risk"):
        assert {p: (r["mu"], r["sigma"]) for p, r in got["ratings"][scope].items()} == {
            p: (r.mu, r.sigma) for p, r in now.items()}
    ana = got["ratings"]["all"]["Ana"]
    assert ana["rating"] == ana["mu"] - 3 * ana["sigma"] and ana["provisional"] is True
    assert got["head_to_head"]["Ana"]["Cy"] == {"ahead": 0, "behind": 0, "level": 1}
    assert got["players"]["Ana"]["wins"] == 2  # the shared win counts
    assert got["players"]["Cy"]["nemesis"] == "Bo"
    assert got["balance"]["risk"]["sides"]["red"]["games"] == 3
    assert got["balance"]["risk"]["seats"]["1"]["wins"] == 3


def test_stats_for_one_player_and_in_words(db_url, tmp_path):
    stored_duels(tmp_path, db_url, ("Ana", "Bo", False), ("Bo", "Ana", False))
    ok(run("replay", SOE_FILE, db=db_url))
    bo = json.loads(ok(run("stats", "--player", "Bo", "--json", db=db_url)))
    assert set(bo) == {"format", "group", "season", "player", "games", "record", "ratings",
                       "rating_history", "head_to_head"}
    assert bo["record"]["games"] == 3 and set(bo["ratings"]) == {"all", "risk", "soe"}
    words = ok(run("stats", db=db_url))
    for heading in ("Ratings: all games", "Head to head", "Struggle of Empires by power",
                    "Risk by seat"):
        assert heading in words
    assert "Zed has no finished game" in refused(run("stats", "--player", "Zed", db=db_url))


def test_groups_seasons_and_moving_a_game(db_url, tmp_path):
    stored_duels(tmp_path, db_url, ("Ana", "Bo", False))
    stored_duels(tmp_path, db_url, ("Cy", "Di", False), group="Club")
    assert ok(run("group", "list", db=db_url)).splitlines() == [
        "Club: 1 game", "Our table: 1 game"]
    club = json.loads(ok(run("league", "--group", "Club", "--json", db=db_url)))
    assert [r["player"] for r in club["standings"]] == ["Cy", "Di"]
    # The next game goes in the group of the last one created.
    stored_duels(tmp_path, db_url, ("Cy", "Ed", False))
    assert "Club: 2 games" in ok(run("group", "list", db=db_url))
    ok(run("move", "3", "Our table", db=db_url))
    table = json.loads(ok(run("stats", "--group", "Our table", "--json", db=db_url)))
    assert table["games"] == 2 and "Ed" in table["players"]
    today = date.today()
    added = ok(run("season", "add", "Now", "--from", (today - timedelta(days=1)).isoformat(),
                   "--to", (today + timedelta(days=1)).isoformat(), "--group", "Club",
                   db=db_url))
    assert "Club: Now" in added and "ratings start afresh" in added
    now = json.loads(ok(run("league", "--season", "Now", "--json", db=db_url)))
    assert [r["player"] for r in now["standings"]] == ["Cy", "Di"]
    assert "must be a day written as 2026-03-01, not 1 March" in refused(
        run("season", "add", "Later", "--from", "1 March", "--to", "2026-05-01", db=db_url))
    assert "nothing was changed" in refused(
        run("season", "add", "Again", "--from", today.isoformat(), "--to",
            today.isoformat(), "--group", "Club", db=db_url))  # overlaps Now
    assert "There is no season Spring" in refused(
        run("league", "--season", "Spring", db=db_url))
    ok(run("group", "rename", "Club", "[b]Club[/b]", db=db_url))
    assert "[b]Club[/b]: 1 game" in ok(run("group", "list", db=db_url))


def test_the_quick_forms_take_group_and_season():
    assert quick_command(["league", "--group", "Club", "--season=Spring", "--json"])
    assert quick_command(["stats", "--player", "Ana", "--json"])
    assert quick_command(["replay", "x.json", "--group", "Club"])
    assert quick_command(["stats", "extra"]) is None


def test_a_game_replayed_late_keeps_its_place_in_the_ratings(db_url, tmp_path):
    stored_duels(tmp_path, db_url, ("Ana", "Bo", False), ("Bo", "Ana", False),
                 ("Ana", "Bo", True))
    before = json.loads(ok(run("stats", "--json", db=db_url)))
    second = tmp_path / "second.json"
    ok(run("export", "2", "-o", second, db=db_url))
    ok(run("delete", "2", "--yes", db=db_url))
    assert json.loads(ok(run("stats", "--json", db=db_url)))["ratings"] != before["ratings"]
    ok(run("replay", second, db=db_url))  # a week later: it goes back where it was played
    after = json.loads(ok(run("stats", "--json", db=db_url)))
    assert after["ratings"] == before["ratings"]
    assert after["rating_history"] == before["rating_history"]


def test_moments_in_a_session_file_are_checked(db_url, tmp_path):
    duel = risk_duel("Ana", "Bo", tie=False)
    for extra, said in (
            ({"created_at": "last Friday"}, "created_at must be a date and time like "
                                            "2026-03-06T21:40:00+00:00, not 'last Friday'"),
            ({"finished_at": 20260306}, "finished_at must be a date and time"),
            ({"created_at": "2026-03-06T22:00:00+00:00",
              "finished_at": "2026-03-06T21:00:00+00:00"}, "finished_at is before created_at"),
            ({"finished_at": "2026-03-06T21:00:00", "steps": []},
             "finished_at is given but the game is not over")):
        assert said in refused(run("replay", write(tmp_path, "x.json", {**duel, **extra}),
                                   db=db_url))
    ok(run("replay", write(tmp_path, "y.json", {**duel, "finished_at": "2026-03-06T21:00:00"}),
           db=db_url))
    listed = json.loads(ok(run("sessions", "--json", db=db_url)))
    assert listed[0]["updated_at"].startswith("2026-03-06T21:00:00")


def test_the_league_chart_follows_every_change(ledger):
    from rules.league import points_over_time

    for a, b in (("Ana", "Bo"), ("Bo", "Ana"), ("Ana", "Cy")):
        ledger.replay(risk_duel(a, b, tie=False))

    def fresh():
        return points_over_time({p: ledger.history(p) for p in ("Ana", "Bo")})

    assert ledger.league_chart(None, None, None, ["Ana", "Bo"]) == fresh()
    assert ledger.league_chart(None, None, None, ["Ana", "Bo"]) == fresh()  # from the cache
    ledger.delete_game(2)
    dates, lines = ledger.league_chart(None, None, None, ["Ana", "Bo"])
    assert (dates, lines) == fresh() and lines["Bo"] == [0, 0]
