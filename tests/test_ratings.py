"""Places for ratings from real finished games, ratings equal to openskill's own, and the
group's statistics (rules/league.py placings, rules/ratings.py, rules/stats.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from test_risk_rules import new_game as risk_game
from test_risk_rules import play as risk_play
from test_soe_rules import ALL_POWERS, three_quiet_wars
from test_soe_rules import new_game as soe_game

from rules.league import placings
from rules.played import Finish, FinishedGame, finishes_of
from rules.ratings import ALL, PROVISIONAL_BELOW, Rating, rate, thinned, win_chances
from rules.risk import RISK
from rules.soe import SOE
from rules.stats import GroupStats, group_stats, head_to_head, nemesis, victim

pytestmark = pytest.mark.unit  # no app, database or subprocess: `pytest -m unit`

T0 = datetime(2026, 1, 9, 20, 0)


# ------------------------------------------------------------- places from real games

def test_world_conquest_ranks_the_out_by_when_they_went_out():
    t = risk_play(risk_game(4, mode="conquest"),
                  {"kind": "eliminate", "player": "Cy", "by": "Ana"},
                  {"kind": "eliminate", "player": "Bo", "by": "Ana"},
                  {"kind": "eliminate", "player": "Di", "by": "Ana"})
    assert RISK.report(t.state).result == "win"
    # Di went out last, so Di is second; Cy went out first, so Cy is last.
    assert placings(RISK.report(t.state)) == {"Ana": 1, "Di": 2, "Bo": 3, "Cy": 4}


def test_a_concession_is_going_out():
    t = risk_play(risk_game(3, mode="conquest"),
                  {"kind": "concede", "player": "Bo", "accepted": True, "to": "Cy"},
                  {"kind": "concede", "player": "Cy", "accepted": True, "to": "Ana"})
    assert placings(RISK.report(t.state)) == {"Ana": 1, "Cy": 2, "Bo": 3}


def test_a_stalemate_draw_ties_everyone_still_in():
    t = risk_play(risk_game(4, mode="conquest"),
                  {"kind": "eliminate", "player": "Bo", "by": "Ana"},
                  {"kind": "stalemate", "resolution": "draw"})
    assert RISK.report(t.state).result == "draw"
    assert placings(RISK.report(t.state)) == {"Ana": 1, "Cy": 1, "Di": 1, "Bo": 4}


def test_a_shared_win_ties_for_first():
    powers = ("France", "Britain", "Russia")
    seats = {"France": {"unrest": 3, "vp": 17}, "Britain": {"unrest": 0, "vp": 10},
             "Russia": {"unrest": 1, "vp": 9}}
    report = SOE.report(three_quiet_wars(soe_game(powers, seats)).state)
    assert report.result == "shared"
    assert placings(report) == {"Ana": 1, "Bo": 1, "Cy": 3}


def test_revolution_ranks_last_together_whatever_their_vp():
    powers = ALL_POWERS[:5]
    report = SOE.report(three_quiet_wars(soe_game(powers, {
        powers[0]: {"unrest": 22, "vp": 40}, powers[1]: {"unrest": 21, "vp": 5},
        powers[2]: {"unrest": 15, "vp": 18}, powers[3]: {"unrest": 4, "vp": 10},
        powers[4]: {"unrest": 1, "vp": 0}})).state)
    places = placings(report)
    # Ana (40 VP) and Bo (5 VP) are both in revolution: level, below everyone else.
    assert places["Ana"] == places["Bo"] == 4
    assert sorted(places[p] for p in ("Cy", "Di", "Ed")) == [1, 2, 3]


def test_finishes_carry_seat_side_place_and_score():
    powers = ("France", "Britain", "Russia")
    seats = {"France": {"unrest": 3, "vp": 17}, "Britain": {"unrest": 0, "vp": 10},
             "Russia": {"unrest": 1, "vp": 9}}
    report = SOE.report(three_quiet_wars(soe_game(powers, seats)).state)
    got = finishes_of(report, {"Ana": 0, "Bo": 1, "Cy": 2})
    assert [(f.player, f.seat, f.side, f.place, f.won, f.outcome) for f in got] == [
        ("Ana", 0, "France", 1, True, "draw"), ("Bo", 1, "Britain", 1, True, "draw"),
        ("Cy", 2, "Russia", 3, False, "loss")]
    assert [f.score for f in got] == [s.score for s in sorted(
        report.standings, key=lambda s: s.player)]


# ------------------------------------------------------------- ratings = openskill's

def game(key: int, kind: str, places: dict[str, int], day: int | None = None) -> FinishedGame:
    when = T0 + timedelta(days=key if day is None else day)
    return FinishedGame(key, kind, when, tuple(
        Finish(p, i, None, place, "loss", place == 1, None)
        for i, (p, place) in enumerate(places.items())))


def by_hand(games: list[FinishedGame], scope: str) -> dict[str, tuple[float, float]]:
    """openskill called directly, game after game in date order."""
    model, now = PlackettLuce(), {}
    for g in sorted(games, key=lambda g: (g.finished_at, g.key)):
        if scope not in (ALL, g.game):
            continue
        names = [f.player for f in g.finishes]
        rated = model.rate([[now.get(n, model.rating())] for n in names],
                           ranks=[f.place for f in g.finishes])
        now.update({n: r for n, (r,) in zip(names, rated, strict=True)})
    return {n: (r.mu, r.sigma) for n, r in now.items()}


GAMES = [game(1, "soe", {"Ana": 1, "Bo": 2, "Cy": 3}),
         game(2, "risk", {"Ana": 2, "Bo": 1, "Cy": 1, "Di": 4}),
         game(3, "soe", {"Di": 1, "Bo": 1, "Ana": 3}),
         game(4, "risk", {"Cy": 1, "Ana": 2})]


@pytest.mark.parametrize("scope", [ALL, "soe", "risk"])
def test_ratings_equal_openskill_called_directly(scope):
    book = rate(GAMES)
    assert {p: (r.mu, r.sigma) for p, r in book.of(scope).items()} == by_hand(GAMES, scope)


def test_date_order_not_the_order_given():
    late_first = [GAMES[2], GAMES[0], GAMES[3], GAMES[1]]
    assert rate(late_first).ratings == rate(GAMES).ratings
    # The same day: the game's key settles the order.
    same_day = [game(7, "soe", {"Ana": 1, "Bo": 2}, day=1), game(5, "soe", {"Bo": 1, "Ana": 2},
                                                                 day=1)]
    assert rate(same_day).of("soe") == {p: Rating(*v, 2) for p, v in by_hand(
        sorted(same_day, key=lambda g: g.key), "soe").items()}


def test_conservative_figure_and_provisional_mark():
    book = rate([game(i, "soe", {"Ana": 1, "Bo": 2}) for i in range(PROVISIONAL_BELOW)])
    ana = book.of("soe")["Ana"]
    assert ana.conservative == pytest.approx(ana.mu - 3 * ana.sigma)
    assert ana.games == PROVISIONAL_BELOW and not ana.provisional
    assert rate(GAMES).of("soe")["Ana"].provisional
    course = book.history["soe"]["Ana"]
    assert len(course) == PROVISIONAL_BELOW and course[-1][1] == pytest.approx(ana.conservative)


def test_a_long_course_is_thinned_to_its_first_and_last():
    course = list(range(1000))
    got = thinned(course, 240)
    assert len(got) == 240 and got[0] == 0 and got[-1] == 999 and got == sorted(got)


def test_win_chances_need_everyone_rated():
    book = rate(GAMES).of(ALL)
    chances = win_chances(book, ["Ana", "Bo", "Cy"])
    model = PlackettLuce()
    assert chances == model.predict_win([[model.rating(mu=book[p].mu, sigma=book[p].sigma)]
                                         for p in ("Ana", "Bo", "Cy")])
    assert sum(chances) == pytest.approx(1.0)
    assert win_chances(book, ["Ana", "Zed"]) is None
    assert win_chances(book, ["Ana"]) is None


# ------------------------------------------------------------- rivalries and balance

def test_head_to_head_nemesis_and_victim():
    met = head_to_head(GAMES)
    assert (met["Ana"]["Bo"].ahead, met["Ana"]["Bo"].behind, met["Ana"]["Bo"].level) == (1, 2, 0)
    assert (met["Bo"]["Cy"].ahead, met["Bo"]["Cy"].behind, met["Bo"]["Cy"].level) == (1, 0, 1)
    # Ana finished behind Bo twice, behind Cy twice and behind Di once: of the two, Bo and
    # Cy met her as often (3 and 3 games), and the first by name is named.
    assert (met["Ana"]["Cy"].behind, met["Ana"]["Cy"].games) == (2, 3)
    assert nemesis(met["Ana"]) == "Bo"
    assert victim(met["Cy"]) == "Ana" and victim(met["Ana"]) == "Bo"
    assert nemesis(met["Cy"]) is None or met["Cy"][nemesis(met["Cy"])].behind > 0


def test_sides_seats_and_records():
    won = [FinishedGame(i, "soe", T0 + timedelta(days=i), (
        Finish("Ana", 0, "France", 1 if i != 2 else 2, "win", i != 2, 30),
        Finish("Bo", 1, "Britain", 2 if i != 2 else 1, "loss", i == 2, 20))) for i in range(5)]
    stats = group_stats(won, rate(won))
    france = stats.balance["soe"].sides["France"]
    assert (france.games, france.wins, france.average_score) == (5, 4, 30.0)
    assert stats.balance["soe"].seats[1].wins == 1
    ana = stats.players["Ana"]
    assert (ana.games, ana.wins, ana.longest_run, ana.best_side, ana.best_seat) == (
        5, 4, 2, {"soe": "France"}, {"soe": 0})
    assert (ana.nemesis, ana.victim) == ("Bo", "Bo")


ranked = st.lists(st.permutations(["Ana", "Bo", "Cy", "Di"]).map(lambda p: p[:3]),
                  min_size=1, max_size=8)


@given(ranked)
def test_stats_json_reads_back_the_same(orders):
    games = [game(i, "risk" if i % 2 else "soe", {p: j + 1 for j, p in enumerate(order)})
             for i, order in enumerate(orders)]
    stats = group_stats(games, rate(games))
    again = GroupStats.from_json(stats.to_json())
    assert again.to_json() == stats.to_json()
    assert again.ratings == stats.ratings
