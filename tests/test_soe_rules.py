"""Struggle of Empires rules (RULES.md part B): reading, the fold, region scoring, the end.

Expected values are worked out by hand from RULES.md (B.4, B.6, B.7), never taken from the
code under test.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.session_file import StepError, parse_text, read_session, session_json
from rules.soe import (
    FRIENDLY_COUNTS,
    REVOLUTION_WORDS,
    SOE,
    UNFRIENDLY_COUNTS,
    counts_said,
    grown,
    in_revolution,
    non_players_matter,
    score_region,
    ties_are_friendly,
    unrest_penalties,
    vp_of_last_scoring,
)
from rules.timeline import Redo, Timeline, Undo, read_step

pytestmark = pytest.mark.unit  # no app, database or subprocess: `pytest -m unit`

# The board, written out again so the tests do not trust the module's tables.
ALL_POWERS = ("Austria", "Britain", "France", "Prussia", "Russia", "Spain",
              "United Provinces")
ALL_REGIONS = ("German States", "Baltic", "Mediterranean", "Central Europe",
               "Ottoman Empire", "North America", "Caribbean", "South America", "Africa",
               "India", "East Indies")
GS = (8, 5, 3)  # German States, 2004 edition
X = (6, 3)  # the two-value region of the worked examples; played here as the Baltic
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus")


def board(**values: tuple[int, ...]) -> dict[str, list[int]]:
    """Printed values for all 11 regions (made up where the tests do not care)."""
    table = {r: [4, 2] for r in ALL_REGIONS}
    table["German States"] = list(GS)
    table["Baltic"] = list(X)
    for key, v in values.items():
        table[key.replace("_", " ")] = list(v)
    return table


def new_game(powers, seats=None, **opts) -> Timeline:
    """A timeline at the start of a game; `seats` adds starting totals per power."""
    opts.setdefault("regions", board())
    settings_ = SOE.read_settings(opts)
    players = []
    for i, power in enumerate(powers):
        players.append({"name": NAMES[i], "power": power, **(seats or {}).get(power, {})})
    return Timeline(SOE, SOE.start(settings_, SOE.read_players(players, settings_)))


def play(t: Timeline, *steps: dict) -> Timeline:
    for step in steps:
        t = t.then(read_step(SOE, step))
    return t


INCOME0 = {"kind": "income", "markers": {}}
UPKEEP0 = {"kind": "upkeep"}
POP = {"kind": "population"}
END_WAR = {"kind": "end_war"}
END_GAME = {"kind": "end_game"}


def scoring(grid=None) -> dict:
    return {"kind": "scoring"} if grid is None else {"kind": "scoring", "regions": grid}


def quiet_war(t: Timeline) -> Timeline:
    """A war where nothing scores; ends at the end_war (or end_game) phase."""
    return play(t, INCOME0, UPKEEP0, POP, scoring({}))


def three_quiet_wars(t: Timeline) -> Timeline:
    return play(quiet_war(play(quiet_war(play(quiet_war(t), END_WAR)), END_WAR)), END_GAME)


def vp_of(state) -> dict[str, int]:
    return {p: e.vp for p, e in state.empires.items()}


# ------------------------------------------------------------- B.7 region scoring

# (players, region, markers, VP each player wins, NPPs present with their place)
REGION_ROWS = [
    pytest.param(("France", "Austria", "Prussia", "Spain", "Britain"), "German States",
                 {"France": 3, "Austria": 2, "Prussia": 1},
                 {"France": 8, "Austria": 5, "Prussia": 3, "Spain": 0, "Britain": 0}, {},
                 id="1-five-players-no-tie"),
    pytest.param(("France", "Austria", "Prussia", "Spain"), "German States",
                 {"France": 2, "Austria": 2, "Prussia": 1},
                 {"France": 6, "Austria": 6, "Prussia": 3, "Spain": 0}, {},
                 id="2-friendly-tie-for-first"),
    pytest.param(("France", "Austria", "Prussia", "Spain"), "German States",
                 {"France": 4, "Austria": 2, "Prussia": 2, "Spain": 2},
                 {"France": 8, "Austria": 2, "Prussia": 2, "Spain": 2}, {},
                 id="3-three-way-tie-past-the-printed-values"),
    pytest.param(("Austria", "Britain", "France", "Prussia"), "Baltic",
                 {"Austria": 2, "Britain": 2, "France": 1},
                 {"Austria": 4, "Britain": 4, "France": 0, "Prussia": 0}, {},
                 id="4-two-value-region"),
    pytest.param(("France", "Austria", "Britain"), "German States",
                 {"France": 2, "Austria": 1, "Russia": 3},
                 {"France": 5, "Austria": 3, "Britain": 0}, {"Russia": 1},
                 id="5-npp-first"),
    pytest.param(("France", "Austria", "Britain"), "German States",
                 {"France": 2, "Austria": 2, "Spain": 1},
                 {"France": 5, "Austria": 5, "Britain": 0}, {"Spain": 3},
                 id="6-unfriendly-tie-demoted"),
    pytest.param(("France", "Britain"), "Baltic",
                 {"France": 3, "Britain": 1, "Austria": 1},
                 {"France": 6, "Britain": 0}, {"Austria": 2},
                 id="7-two-players-tie-demoted-off-the-table"),
]


@pytest.mark.parametrize("players, region, markers, expected, npps", REGION_ROWS)
def test_worked_region_examples_with_score_region(players, region, markers, expected, npps):
    values = GS if region == "German States" else X
    awards = score_region(region, values, markers, frozenset(players),
                          player_count=len(players))
    got = {a.power: a.vp for a in awards}
    for power in players:
        assert got.get(power, 0) == expected[power], power
    # Only powers with at least one marker are ranked.
    assert {a.power for a in awards} == {p for p, n in markers.items() if n >= 1}
    for npp, place in npps.items():
        award = next(a for a in awards if a.power == npp)
        assert award.position == place
        assert award.scores is False and award.vp == 0
        assert "discarded" in award.reason


def test_npp_takes_the_place_a_player_would_have_taken():
    # Example 6: Spain as a non-player would have had the 3 of 3rd place.
    as_player = score_region("German States", GS, {"France": 2, "Austria": 2, "Spain": 1},
                             frozenset({"France", "Austria", "Spain"}), player_count=3)
    assert {a.power: a.vp for a in as_player} == {"France": 5, "Austria": 5, "Spain": 3}
    # Example 5: Russia with 3 markers would have taken the 8.
    as_player = score_region("German States", GS, {"France": 2, "Austria": 1, "Russia": 3},
                             frozenset({"France", "Austria", "Russia"}), player_count=3)
    assert {a.power: a.vp for a in as_player} == {"Russia": 8, "France": 5, "Austria": 3}


@pytest.mark.parametrize("players, region, markers, expected, npps", REGION_ROWS)
def test_worked_region_examples_through_the_fold(players, region, markers, expected, npps):
    t = new_game(players)
    t = play(t, {"kind": "income", "regions": {region: markers}}, UPKEEP0, POP)
    assert t.state.phase == "scoring"
    t = play(t, scoring())  # reuses the grid given at income
    state = t.state
    assert vp_of(state) == expected
    assert state.vp_by_war == (expected,)
    # Income counted each player's markers in the grid (NPP markers go to nobody).
    for power in players:
        assert state.empires[power].gold == 10 + 5 + markers.get(power, 0)
    result = next(r for r in state.last_scoring if r.region == region)
    for npp, place in npps.items():
        award = next(a for a in result.awards if a.power == npp)
        assert (award.position, award.scores, award.vp) == (place, False, 0)
    assert state.phase == "end_war" and state.war == 1


# ------------------------------------------------------------- tie options

def test_friendly_full_gives_each_tied_power_the_block_value():
    players = frozenset({"France", "Austria", "Prussia", "Spain"})
    awards = score_region("German States", GS, {"France": 2, "Austria": 2, "Prussia": 1},
                          players, player_count=4, friendly_ties="full")
    assert {a.power: a.vp for a in awards} == {"France": 8, "Austria": 8, "Prussia": 3}
    awards = score_region("German States", GS,
                          {"France": 4, "Austria": 2, "Prussia": 2, "Spain": 2},
                          players, player_count=4, friendly_ties="full")
    assert {a.power: a.vp for a in awards} == {"France": 8, "Austria": 5, "Prussia": 5,
                                               "Spain": 5}


def test_friendly_full_through_the_fold():
    t = new_game(("France", "Austria", "Prussia", "Spain"), friendly_ties="full")
    t = play(t, INCOME0, UPKEEP0, POP,
             scoring({"German States": {"France": 2, "Austria": 2, "Prussia": 1}}))
    assert vp_of(t.state) == {"France": 8, "Austria": 8, "Prussia": 3, "Spain": 0}


def test_unfriendly_cascade():
    three = frozenset({"France", "Austria", "Britain"})
    awards = score_region("German States", GS, {"France": 2, "Austria": 2, "Britain": 1},
                          three, player_count=3, unfriendly_ties="cascade")
    # The tied block covers places 1-2: each gets place 3's value; Britain is 3rd.
    assert {a.power: a.vp for a in awards} == {"France": 3, "Austria": 3, "Britain": 3}
    demote = score_region("German States", GS, {"France": 2, "Austria": 2, "Britain": 1},
                          three, player_count=3)
    assert {a.power: a.vp for a in demote} == {"France": 5, "Austria": 5, "Britain": 3}
    # Three tied: cascade goes past the printed values, demote takes 2nd place's.
    awards = score_region("German States", GS, {"France": 1, "Austria": 1, "Britain": 1},
                          three, player_count=3, unfriendly_ties="cascade")
    assert {a.vp for a in awards} == {0}
    demote = score_region("German States", GS, {"France": 1, "Austria": 1, "Britain": 1},
                          three, player_count=3)
    assert {a.vp for a in demote} == {5}


def test_unfriendly_cascade_through_the_fold():
    t = new_game(("France", "Austria", "Britain"), unfriendly_ties="cascade")
    t = play(t, INCOME0, UPKEEP0, POP,
             scoring({"German States": {"France": 2, "Austria": 2, "Britain": 1},
                      "Baltic": {"Britain": 2, "France": 1, "Russia": 1}}))
    # GS: France/Austria take 3rd place's 3, Britain 3rd 3. Baltic: Britain 6;
    # France and NPP Russia tied for 2nd -> place 4, not printed.
    assert vp_of(t.state) == {"France": 3, "Austria": 3, "Britain": 9}


def test_player_count_decides_friendly_or_unfriendly():
    markers = {"France": 2, "Austria": 2}
    three = score_region("German States", GS, markers, frozenset(markers), player_count=3)
    four = score_region("German States", GS, markers, frozenset(markers), player_count=4)
    assert {a.vp for a in three} == {5}  # demoted
    assert {a.vp for a in four} == {6}  # (8+5)//2


def test_zero_markers_are_not_ranked():
    awards = score_region("German States", GS, {"France": 0, "Austria": 1},
                          frozenset({"France", "Austria"}), player_count=2)
    assert [(a.power, a.vp, a.position) for a in awards] == [("Austria", 8, 1)]


# ------------------------------------------------------------- B.7 unrest penalties

PENALTY_ROWS = [
    pytest.param(5, [12, 9, 6, 3, 0], [7, 4, 0, 0, 0], set(), id="1-five-players"),
    pytest.param(4, [10, 10, 8, 2], [7, 7, 4, 0], set(), id="2-tie-at-top-distinct"),
    pytest.param(5, [22, 15, 15, 4, 1], [0, 7, 7, 4, 0], {0}, id="3-revolution"),
    pytest.param(2, [9, 6], [7, 0], set(), id="4a-two-players"),
    pytest.param(2, [7, 7], [0, 0], set(), id="4b-two-players-tied"),
]


@pytest.mark.parametrize("n, unrest, expected, revolution", PENALTY_ROWS)
def test_worked_penalty_examples(n, unrest, expected, revolution):
    powers = ALL_POWERS[:n]
    penalty, rev = unrest_penalties(dict(zip(powers, unrest, strict=True)), n)
    assert penalty == dict(zip(powers, expected, strict=True))
    assert rev == {powers[i] for i in revolution}


# (unrest, starting VP, final VP, winners' indexes, result)
END_ROWS = [
    pytest.param([12, 9, 6, 3, 0], [30, 27, 24, 10, 5], [23, 23, 24, 10, 5], [2], "win",
                 set(), id="1"),
    pytest.param([10, 10, 8, 2], [16, 16, 13, 9], [9, 9, 9, 9], [0, 1, 2, 3], "shared",
                 set(), id="2-shared"),
    pytest.param([22, 15, 15, 4, 1], [40, 20, 18, 10, 0], [0, 13, 11, 6, 0], [1], "win",
                 {0}, id="3-revolution-cannot-win"),
    pytest.param([9, 6], [10, 5], [3, 5], [1], "win", set(), id="4a"),
    pytest.param([7, 7], [10, 10], [10, 10], [0, 1], "shared", set(), id="4b-shared"),
]


@pytest.mark.parametrize("unrest, vp, final, winners, result, revolution", END_ROWS)
def test_worked_penalty_examples_through_end_game(unrest, vp, final, winners, result,
                                                  revolution):
    powers = ALL_POWERS[:len(unrest)]
    seats = {p: {"unrest": u, "vp": v} for p, u, v in zip(powers, unrest, vp, strict=True)}
    t = three_quiet_wars(new_game(powers, seats))
    state = t.state
    assert state.finished and state.phase == "finished"
    ending = state.ending
    assert dict(ending.final_vp) == dict(zip(powers, final, strict=True))
    assert ending.revolution == {powers[i] for i in revolution}
    assert set(ending.winners) == {powers[i] for i in winners}
    assert ending.result == result
    for p, v, f in zip(powers, vp, final, strict=True):
        if p not in ending.revolution:
            assert ending.penalty[p] == v - f
    report = SOE.report(state).to_json()
    assert report["status"] == "finished" and report["result"] == result
    assert report["format"] == "victory_points" and report["rounds"] == 3
    assert set(report["winners"]) == {NAMES[i] for i in winners}
    by_name = {row["player"]: row for row in report["standings"]}
    for i, p in enumerate(powers):
        row = by_name[NAMES[i]]
        assert row["power"] == p and row["final_vp"] == final[i]
        assert row["revolution"] == (i in revolution)
        if i in winners:
            assert row["rank"] == 1


def test_revolution_ranks_after_everyone_even_on_equal_final_vp():
    powers = ALL_POWERS[:5]
    t = three_quiet_wars(new_game(powers, {
        powers[0]: {"unrest": 22, "vp": 40}, powers[1]: {"unrest": 15, "vp": 20},
        powers[2]: {"unrest": 15, "vp": 18}, powers[3]: {"unrest": 4, "vp": 10},
        powers[4]: {"unrest": 1, "vp": 0}}))
    rank = {row["power"]: row["rank"] for row in SOE.report(t.state).to_json()["standings"]}
    assert rank == {powers[1]: 1, powers[2]: 2, powers[3]: 3, powers[4]: 4, powers[0]: 5}
    order = [row["power"] for row in SOE.report(t.state).to_json()["standings"]]
    assert order[-1] == powers[0]


def test_competition_ranking():
    four = ALL_POWERS[:4]
    penalty, _ = unrest_penalties(dict(zip(four, [10, 10, 8, 2], strict=True)), 4,
                                  "competition")
    assert penalty == dict(zip(four, [7, 7, 0, 0], strict=True))
    five = ALL_POWERS[:5]
    penalty, rev = unrest_penalties(dict(zip(five, [22, 15, 15, 4, 1], strict=True)), 5,
                                    "competition")
    assert penalty == dict(zip(five, [0, 7, 7, 0, 0], strict=True)) and rev == {five[0]}
    # Without a tie at the top, competition is the same as distinct.
    penalty, _ = unrest_penalties(dict(zip(five, [12, 9, 6, 3, 0], strict=True)), 5,
                                  "competition")
    assert penalty == dict(zip(five, [7, 4, 0, 0, 0], strict=True))


def test_competition_through_end_game():
    powers = ALL_POWERS[:4]
    seats = {p: {"unrest": u, "vp": 20} for p, u in zip(powers, [10, 10, 8, 2], strict=True)}
    t = three_quiet_wars(new_game(powers, seats, unrest_ranking="competition"))
    assert dict(t.state.ending.final_vp) == dict(zip(powers, [13, 13, 20, 20], strict=True))
    assert set(t.state.ending.winners) == {powers[2], powers[3]}
    assert t.state.ending.result == "shared"


def test_three_players_use_the_same_penalties():
    three = ALL_POWERS[:3]
    penalty, _ = unrest_penalties(dict(zip(three, [5, 5, 3], strict=True)), 3)
    assert penalty == dict(zip(three, [7, 7, 4], strict=True))


def test_zero_unrest_is_never_penalised():
    four = ALL_POWERS[:4]
    penalty, _ = unrest_penalties(dict(zip(four, [6, 6, 0, 0], strict=True)), 4)
    assert penalty == dict(zip(four, [7, 7, 0, 0], strict=True))
    penalty, _ = unrest_penalties(dict(zip(four, [0, 0, 0, 0], strict=True)), 4)
    assert set(penalty.values()) == {0}
    three = ALL_POWERS[:3]
    penalty, _ = unrest_penalties(dict(zip(three, [5, 0, 0], strict=True)), 3)
    assert penalty == dict(zip(three, [7, 0, 0], strict=True))
    two = ALL_POWERS[:2]
    penalty, _ = unrest_penalties(dict(zip(two, [0, 0], strict=True)), 2)
    assert penalty == {two[0]: 0, two[1]: 0}
    penalty, _ = unrest_penalties(dict(zip(two, [3, 0], strict=True)), 2)
    assert penalty == {two[0]: 7, two[1]: 0}


def test_fewer_than_two_left_after_revolutions_means_no_penalties():
    three = ALL_POWERS[:3]
    penalty, rev = unrest_penalties(dict(zip(three, [25, 20, 5], strict=True)), 3)
    assert rev == {three[0], three[1]} and set(penalty.values()) == {0}
    two = ALL_POWERS[:2]
    penalty, rev = unrest_penalties(dict(zip(two, [21, 4], strict=True)), 2)
    assert rev == {two[0]} and set(penalty.values()) == {0}
    # 19 is not a revolution.
    penalty, rev = unrest_penalties(dict(zip(two, [19, 4], strict=True)), 2)
    assert rev == set() and penalty == {two[0]: 7, two[1]: 0}


def test_final_vp_never_below_zero():
    powers = ALL_POWERS[:3]
    seats = {powers[0]: {"unrest": 9, "vp": 3}, powers[1]: {"unrest": 5, "vp": 2},
             powers[2]: {"unrest": 0, "vp": 1}}
    t = three_quiet_wars(new_game(powers, seats))
    assert dict(t.state.ending.final_vp) == {powers[0]: 0, powers[1]: 0, powers[2]: 1}
    assert t.state.ending.winners == (powers[2],)
    assert SOE.report(t.state).to_json()["standings"][0]["penalty"] == 0
    penalties = {r["power"]: r["penalty"] for r in SOE.report(t.state).to_json()["standings"]}
    assert penalties == {powers[0]: 7, powers[1]: 4, powers[2]: 0}


def test_equal_final_vp_is_a_shared_victory():
    powers = ("France", "Britain", "Russia")
    seats = {"France": {"unrest": 3, "vp": 17}, "Britain": {"unrest": 0, "vp": 10},
             "Russia": {"unrest": 1, "vp": 9}}
    t = three_quiet_wars(new_game(powers, seats))
    ending = t.state.ending
    assert dict(ending.final_vp) == {"France": 10, "Britain": 10, "Russia": 5}
    assert set(ending.winners) == {"France", "Britain"} and ending.result == "shared"
    report = SOE.report(t.state).to_json()
    assert report["result"] == "shared" and set(report["winners"]) == {"Ana", "Bo"}
    assert [r["rank"] for r in report["standings"]] == [1, 1, 3]


# ------------------------------------------------------------- income and upkeep

@pytest.mark.parametrize("by_grid", [False, True])
def test_income_and_upkeep_row_1(by_grid):
    t = new_game(("France", "Britain"), {"France": {"gold": 2, "population": 5}})
    income = ({"kind": "income", "regions": {"Baltic": {"France": 3}, "India": {"France": 1}}}
              if by_grid else {"kind": "income", "markers": {"France": 4}})
    t = play(t, income)
    assert t.state.empires["France"].gold == 11
    t = play(t, {"kind": "upkeep",
                 "units": {"France": {"armies": 3, "fleets": 1, "fortresses": 1}}}, POP)
    france = t.state.empires["France"]
    assert (france.gold, france.population, france.unrest) == (6, 9, 0)
    # Britain: 10 + 5 population, no markers, no units; population 5 -> 10 -> 9.
    assert (t.state.empires["Britain"].gold, t.state.empires["Britain"].population) == (15, 9)


def test_income_and_upkeep_row_2():
    t = new_game(("France", "Britain"), {"France": {"gold": 0, "population": 3}})
    t = play(t, {"kind": "income", "markers": {"France": 2}})
    assert t.state.empires["France"].gold == 5
    units = {"France": {"armies": 6, "fleets": 2}}
    with pytest.raises(RuleError) as e:
        play(t, {"kind": "upkeep", "units": units})
    assert str(e.value) == "France must pay 8 upkeep with 5 gold: 2 taxations needed, 0 given"
    with pytest.raises(RuleError) as e:
        play(t, {"kind": "upkeep", "units": units, "taxes": {"France": [3]}})
    assert str(e.value) == "France must pay 8 upkeep with 5 gold: 2 taxations needed, 1 given"
    t = play(t, {"kind": "upkeep", "units": units, "taxes": {"France": [1, 2]}}, POP)
    france = t.state.empires["France"]
    assert (france.gold, france.unrest, france.population) == (1, 3, 8)


def test_forced_taxation_message():
    t = new_game(("Prussia", "Austria"), {"Prussia": {"gold": 5, "population": 5}})
    t = play(t, {"kind": "income", "markers": {"Prussia": 4}})
    with pytest.raises(RuleError) as e:
        play(t, {"kind": "upkeep",
                 "units": {"Prussia": {"armies": 20, "fleets": 6, "fortresses": 3}},
                 "taxes": {"Prussia": [1]}})
    assert str(e.value) == ("Prussia must pay 29 upkeep with 14 gold: "
                            "8 taxations needed, 1 given")
    assert t.state.phase == "upkeep"


def test_one_taxation_message_is_singular():
    t = new_game(("Prussia", "Austria"), {"Prussia": {"gold": 0, "population": 0}})
    t = play(t, INCOME0)
    with pytest.raises(RuleError) as e:
        play(t, {"kind": "upkeep", "units": {"Prussia": {"armies": 1}}})
    assert str(e.value) == "Prussia must pay 1 upkeep with 0 gold: 1 taxation needed, 0 given"


def test_upkeep_exactly_covered_needs_no_taxation():
    t = new_game(("Prussia", "Austria"), {"Prussia": {"gold": 0, "population": 5}})
    t = play(t, INCOME0, {"kind": "upkeep", "units": {"Prussia": {"armies": 5}}})
    assert t.state.empires["Prussia"].gold == 0


def test_voluntary_extra_taxations():
    t = new_game(("France", "Britain"))
    t = play(t, INCOME0, {"kind": "upkeep", "units": {"France": {"armies": 3}},
                          "taxes": {"France": [2, 1], "Britain": [4]}})
    assert t.state.empires["France"].gold == 15 + 4 - 3
    assert t.state.empires["France"].unrest == 3
    assert t.state.empires["Britain"].gold == 15 + 2
    assert t.state.empires["Britain"].unrest == 4


def test_gold_per_tax_other_than_two():
    t = new_game(("France", "Britain"), {"France": {"gold": 0, "population": 1}},
                 gold_per_tax=3)
    t = play(t, {"kind": "tax", "power": "Britain", "unrest": 2})
    assert (t.state.empires["Britain"].gold, t.state.empires["Britain"].unrest) == (13, 2)
    t = play(t, INCOME0)  # France: 0 + 1
    units = {"France": {"armies": 8}}  # short by 7: ceil(7/3) = 3
    with pytest.raises(RuleError, match="3 taxations needed, 2 given"):
        play(t, {"kind": "upkeep", "units": units, "taxes": {"France": [1, 1]}})
    t = play(t, {"kind": "upkeep", "units": units, "taxes": {"France": [1, 1, 1]}})
    assert t.state.empires["France"].gold == 1 + 9 - 8


def test_upkeep_of_a_power_not_in_the_game_is_refused():
    t = play(new_game(("France", "Britain")), INCOME0)
    with pytest.raises(RuleError, match="Russia is not played"):
        play(t, {"kind": "upkeep", "units": {"Russia": {"armies": 1}}})
    with pytest.raises(RuleError, match="Russia is not played"):
        play(t, {"kind": "upkeep", "taxes": {"Russia": [1]}})


def test_income_markers_of_a_power_not_in_the_game_are_refused_but_grid_npps_are_fine():
    t = new_game(("France", "Britain"))
    with pytest.raises(RuleError, match="Spain is not played"):
        play(t, {"kind": "income", "markers": {"Spain": 2}})
    t = play(t, {"kind": "income", "regions": {"Africa": {"Spain": 2, "France": 1}}})
    assert t.state.empires["France"].gold == 16 and t.state.empires["Britain"].gold == 15


def test_population_is_clamped():
    t = new_game(("France", "Britain"), {"France": {"population": 0},
                                         "Britain": {"population": 9}})
    t = play(t, INCOME0, UPKEEP0, POP)
    assert t.state.empires["France"].population == 5
    assert t.state.empires["Britain"].population == 9


# ------------------------------------------------------------- phase order

def test_upkeep_before_income_is_refused_naming_the_expected_step():
    t = new_game(("France", "Britain"))
    with pytest.raises(RuleError) as e:
        play(t, UPKEEP0)
    assert "the next step is income" in str(e.value)
    assert "not upkeep" in str(e.value)


@pytest.mark.parametrize("done, wrong, expected", [
    ([], POP, "income"),
    ([], END_GAME, "income"),
    ([INCOME0], POP, "upkeep"),
    ([INCOME0], INCOME0, "upkeep"),
    ([INCOME0, UPKEEP0], scoring({}), "population"),
    ([INCOME0, UPKEEP0, POP], END_WAR, "scoring"),
    ([INCOME0, UPKEEP0, POP, scoring({})], INCOME0, "end war"),
    ([INCOME0, UPKEEP0, POP, scoring({})], END_GAME, "end war"),
])
def test_phase_order(done, wrong, expected):
    t = play(new_game(("France", "Britain")), *done)
    with pytest.raises(RuleError) as e:
        play(t, wrong)
    assert f"the next step is {expected}" in str(e.value)


def test_three_wars_then_end_game_only():
    t = new_game(("France", "Britain"))
    for war in (1, 2):
        t = quiet_war(t)
        assert (t.state.war, t.state.phase) == (war, "end_war")
        t = play(t, END_WAR)
        assert (t.state.war, t.state.phase) == (war + 1, "actions")
    t = quiet_war(t)
    assert (t.state.war, t.state.phase) == (3, "end_game")
    with pytest.raises(RuleError, match="the next step is end game"):
        play(t, END_WAR)
    assert not t.state.finished
    assert SOE.report(t.state).to_json()["status"] == "in_progress"
    t = play(t, END_GAME)
    assert t.state.finished
    for step in (END_GAME, INCOME0, {"kind": "tax", "power": "France"}):
        with pytest.raises(RuleError, match="over"):
            play(t, step)


def test_bookkeeping_is_allowed_between_end_of_war_steps():
    t = play(new_game(("France", "Britain")), INCOME0,
             {"kind": "tax", "power": "France", "unrest": 1})
    assert t.state.phase == "upkeep"
    assert t.state.empires["France"].gold == 15 + 2


def test_scoring_refused_while_a_region_lacks_values():
    regions = board()
    regions["India"] = []
    t = play(new_game(("France", "Britain"), regions=regions), INCOME0, UPKEEP0, POP)
    with pytest.raises(RuleError) as e:
        play(t, scoring({"German States": {"France": 1}}))
    assert "India" in str(e.value)
    assert "Baltic" not in str(e.value)
    assert t.state.phase == "scoring"


def test_default_board_lacks_all_but_german_states():
    t = new_game(("France", "Britain"), regions={"German States": [8, 5, 3]})
    t = play(t, INCOME0, UPKEEP0, POP)
    with pytest.raises(RuleError) as e:
        play(t, scoring({}))
    for region in ALL_REGIONS[1:]:
        assert region in str(e.value)
    t2 = Timeline(SOE, SOE.start(SOE.read_settings({}), SOE.read_players(
        [{"name": "A", "power": "France"}, {"name": "B", "power": "Spain"}],
        SOE.read_settings({}))))
    t2 = play(t2, INCOME0, UPKEEP0, POP)
    with pytest.raises(RuleError, match="East Indies"):
        play(t2, scoring({}))


def test_scoring_without_regions_after_income_as_totals_is_refused():
    t = play(new_game(("France", "Britain")), {"kind": "income", "markers": {"France": 2}},
             UPKEEP0, POP)
    with pytest.raises(RuleError, match="region"):
        play(t, scoring())
    # With a grid it is accepted.
    t = play(t, scoring({"German States": {"France": 2}}))
    assert t.state.empires["France"].vp == 8


def test_scoring_grid_overrides_the_income_grid():
    t = play(new_game(("France", "Britain")),
             {"kind": "income", "regions": {"German States": {"France": 2}}}, UPKEEP0, POP,
             scoring({"German States": {"Britain": 1}}))
    assert vp_of(t.state) == {"France": 0, "Britain": 8}


def test_income_grid_is_forgotten_at_the_end_of_the_war():
    t = play(new_game(("France", "Britain")),
             {"kind": "income", "regions": {"German States": {"France": 2}}}, UPKEEP0, POP,
             scoring(), END_WAR, {"kind": "income", "markers": {"France": 1}}, UPKEEP0, POP)
    with pytest.raises(RuleError):
        play(t, scoring())


def test_vp_by_war():
    t = new_game(("France", "Britain", "Austria", "Russia"))
    t = play(t, INCOME0, UPKEEP0, POP, scoring({"German States": {"France": 1}}), END_WAR,
             INCOME0, UPKEEP0, POP, scoring({"Baltic": {"Britain": 2, "France": 1}}), END_WAR,
             INCOME0, UPKEEP0, POP, scoring({}))
    assert [dict(v) for v in t.state.vp_by_war] == [
        {"France": 8, "Britain": 0, "Austria": 0, "Russia": 0},
        {"France": 11, "Britain": 6, "Austria": 0, "Russia": 0},
        {"France": 11, "Britain": 6, "Austria": 0, "Russia": 0},
    ]


# ------------------------------------------------------------- bookkeeping

def test_tax_adds_gold_and_the_token():
    t = play(new_game(("France", "Britain")), {"kind": "tax", "power": "France", "unrest": 3})
    assert (t.state.empires["France"].gold, t.state.empires["France"].unrest) == (12, 3)
    t = play(t, {"kind": "tax", "power": "france"})  # default token 1
    assert (t.state.empires["France"].gold, t.state.empires["France"].unrest) == (14, 4)
    assert t.state.empires["Britain"].gold == 10
    with pytest.raises(RuleError):
        play(t, {"kind": "tax", "power": "France", "unrest": 0})
    with pytest.raises(RuleError, match="Spain is not played"):
        play(t, {"kind": "tax", "power": "Spain"})


def test_adjust_changes_totals():
    t = play(new_game(("France", "Britain")),
             {"kind": "adjust", "power": "France", "gold": -3, "population": -1,
              "unrest": 1, "note": "lost a battle"})
    e = t.state.empires["France"]
    assert (e.gold, e.population, e.unrest, e.vp) == (7, 4, 1, 0)
    t = play(t, {"kind": "adjust", "power": "France", "population": 5, "gold": -7,
                 "unrest": -1, "note": "colonies"})
    e = t.state.empires["France"]
    assert (e.gold, e.population, e.unrest) == (0, 9, 0)


@pytest.mark.parametrize("change, word", [
    ({"gold": -11}, "gold"),
    ({"unrest": -1}, "unrest"),
    ({"population": -6}, "population"),
    ({"population": 5}, "population"),
])
def test_adjust_out_of_bounds_is_refused_and_changes_nothing(change, word):
    t = new_game(("France", "Britain"), {"France": {"gold": 10, "population": 5}})
    before_state, before_count = t.state, t.count
    with pytest.raises(RuleError) as e:
        t.then(read_step(SOE, {"kind": "adjust", "power": "France", **change}))
    assert word in str(e.value) and "France" in str(e.value)
    assert t.state is before_state and t.count == before_count and t.steps == []
    assert t.state.empires["France"].gold == 10


def test_adjust_of_a_power_not_in_the_game():
    with pytest.raises(RuleError, match="Russia is not played"):
        play(new_game(("France", "Britain")), {"kind": "adjust", "power": "Russia", "gold": 1})


def test_refused_step_leaves_the_timeline_intact():
    t = play(new_game(("France", "Britain")), INCOME0)
    steps, states = list(t.steps), list(t.states)
    with pytest.raises(RuleError):
        t.then(read_step(SOE, {"kind": "upkeep", "units": {"France": {"armies": 99}}}))
    assert t.steps == steps and t.states == states and t.state.phase == "upkeep"


# ------------------------------------------------------------- reading

def seats_json(*powers):
    return [{"name": NAMES[i], "power": p} for i, p in enumerate(powers)]


@pytest.mark.parametrize("data", [
    {"colour": "red"},
    {"friendly_ties": "half"},
    {"unfriendly_ties": "split"},
    {"unrest_ranking": "dense"},
    {"gold_per_tax": 0},
    {"gold_per_tax": 2.0},
    {"gold_per_tax": "2"},
    {"gold_per_tax": True},
    {"regions": {"Atlantis": [5, 2]}},
    {"regions": {"German States": [8, 5, 3, 1]}},
    {"regions": {"German States": [8]}},
    {"regions": {"German States": [3, 5, 8]}},
    {"regions": {"German States": [8, 5, -1]}},
    {"regions": {"German States": [8, 5, True]}},
    {"regions": {"German States": "8/5/3"}},
    {"regions": [["German States", [8, 5, 3]]]},
    [],
])
def test_bad_settings(data):
    with pytest.raises(RuleError):
        SOE.read_settings(data)


def test_settings_defaults_and_aliases():
    s = SOE.read_settings(None)
    assert (s.friendly_ties, s.unfriendly_ties, s.gold_per_tax, s.unrest_ranking) == (
        "split", "demote", 2, "distinct")
    assert tuple(s.regions["German States"]) == GS
    assert set(s.regions) == set(ALL_REGIONS)
    assert all(not s.regions[r] for r in ALL_REGIONS if r != "German States")
    s = SOE.read_settings({"regions": {"Italy": [7, 4, 2], "german states": [8, 5, 3]}})
    assert tuple(s.regions["Mediterranean"]) == (7, 4, 2)
    assert tuple(s.regions["German States"]) == GS
    assert "Italy" not in s.regions


@pytest.mark.parametrize("players, message", [
    (seats_json("France"), "2 to 7"),
    ([{"name": n, "power": "France"} for n in NAMES + ("Hal",)], "2 to 7"),
    ([], "2 to 7"),
    (seats_json("France", "Sweden"), "Sweden"),
    (seats_json("France", "france"), "France"),
    ([{"name": "Ana", "power": "France"}, {"name": "ana", "power": "Spain"}], "ana"),
    ([{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Spain", "colour": "red"}],
     "colour"),
    ([{"name": "Ana", "power": "France"}, {"power": "Spain"}], "name"),
    ([{"name": "Ana", "power": "France"}, {"name": "", "power": "Spain"}], "name"),
    ([{"name": "Ana", "power": "France", "gold": "10"}, {"name": "Bo", "power": "Spain"}],
     "gold"),
    ([{"name": "Ana", "power": "France", "gold": True}, {"name": "Bo", "power": "Spain"}],
     "gold"),
    ([{"name": "Ana", "power": "France", "gold": -1}, {"name": "Bo", "power": "Spain"}],
     "gold"),
    ([{"name": "Ana", "power": "France", "population": 10}, {"name": "Bo", "power": "Spain"}],
     "population"),
    ([{"name": "Ana", "power": "France", "unrest": 1.5}, {"name": "Bo", "power": "Spain"}],
     "unrest"),
    ([{"name": "Ana", "power": 3}, {"name": "Bo", "power": "Spain"}], "major power"),
    ({"Ana": "France"}, "list"),
])
def test_bad_players(players, message):
    settings_ = SOE.read_settings({})
    with pytest.raises(RuleError) as e:
        SOE.read_players(players, settings_)
    assert message in str(e.value)


def test_power_names_are_case_insensitive():
    settings_ = SOE.read_settings({})
    seats = SOE.read_players([{"name": " Ana ", "power": "  uNiTeD provinces"},
                              {"name": "Bo", "power": "PRUSSIA"}], settings_)
    assert [(s.name, s.power) for s in seats] == [("Ana", "United Provinces"),
                                                  ("Bo", "Prussia")]
    assert (seats[0].gold, seats[0].population, seats[0].unrest, seats[0].vp) == (10, 5, 0, 0)
    seven = SOE.read_players(seats_json(*ALL_POWERS), settings_)
    assert len(seven) == 7


@pytest.mark.parametrize("step", [
    {"power": "France"},
    "tax",
    {"kind": "bribe"},
    {"kind": "tax", "power": "France", "unrest": 1, "gold": 2},
    {"kind": "tax", "power": "Sweden"},
    {"kind": "tax", "power": "France", "unrest": True},
    {"kind": "tax", "power": "France", "unrest": 1.0},
    {"kind": "adjust", "power": "France", "gold": "3"},
    {"kind": "adjust", "power": "France", "gold": False},
    {"kind": "adjust", "power": "France", "note": 3},
    {"kind": "adjust", "power": "France", "vp": 3},
    {"kind": "income"},
    {"kind": "income", "markers": {"France": 1}, "regions": {}},
    {"kind": "income", "markers": {"France": -1}},
    {"kind": "income", "markers": {"France": True}},
    {"kind": "income", "markers": {"Holland": 1}},
    {"kind": "income", "markers": [["France", 1]]},
    {"kind": "income", "regions": {"Atlantis": {"France": 1}}},
    {"kind": "income", "regions": {"Italy": {"France": 1}, "Mediterranean": {"Spain": 1}}},
    {"kind": "upkeep", "units": {"France": {"armies": 1, "ships": 2}}},
    {"kind": "upkeep", "units": {"France": {"armies": -1}}},
    {"kind": "upkeep", "units": {"France": {"armies": True}}},
    {"kind": "upkeep", "units": {"France": 3}},
    {"kind": "upkeep", "taxes": {"France": 2}},
    {"kind": "upkeep", "taxes": {"France": [0]}},
    {"kind": "upkeep", "taxes": {"Narnia": [1]}},
    {"kind": "upkeep", "gold": 3},
    {"kind": "population", "amount": 5},
    {"kind": "scoring", "regions": {"German States": {"France": 1.5}}},
    {"kind": "scoring", "regions": {"German States": {"Sweden": 1}}},
    {"kind": "scoring", "regions": {"German States": {"France": 100}}},
    {"kind": "scoring", "regions": {"German States": [1, 2]}},
    {"kind": "end_war", "war": 1},
    {"kind": "end_game", "winner": "France"},
])
def test_bad_steps(step):
    with pytest.raises(RuleError):
        read_step(SOE, step)


def test_step_names_and_aliases_are_canonical():
    step = read_step(SOE, {"kind": "scoring", "regions": {
        "italy": {"france": 2, "UNITED PROVINCES": 1}}})
    assert {r: dict(row) for r, row in step.regions.items()} == {
        "Mediterranean": {"France": 2, "United Provinces": 1}}
    step = read_step(SOE, {"kind": "income", "markers": {"russia": 3}})
    assert dict(step.markers) == {"Russia": 3}


def test_italy_is_the_mediterranean_in_scoring():
    t = new_game(("France", "Britain", "Spain", "Austria"), regions=board(Mediterranean=(7, 4, 2)))
    t = play(t, {"kind": "income", "regions": {"Italy": {"Spain": 2, "France": 1}}},
             UPKEEP0, POP, scoring())
    assert vp_of(t.state) == {"France": 4, "Britain": 0, "Spain": 7, "Austria": 0}
    assert t.state.empires["Spain"].gold == 17


# ------------------------------------------------------------- session file

FULL_GAME = {
    "format": "warledger/1", "game": "soe", "title": "Friday",
    "settings": {"friendly_ties": "split", "unfriendly_ties": "demote", "gold_per_tax": 2,
                 "unrest_ranking": "distinct", "regions": board()},
    "players": [{"name": "Ana", "power": "France", "gold": 10, "population": 5},
                {"name": "Bo", "power": "Austria", "gold": 10, "population": 5},
                {"name": "Cy", "power": "Britain", "gold": 10, "population": 5}],
    "steps": [
        # war 1
        {"kind": "tax", "power": "France", "unrest": 2},
        {"kind": "adjust", "power": "France", "gold": -3, "population": -1, "unrest": 1,
         "note": "lost a battle"},
        {"kind": "income", "markers": {"France": 4, "Austria": 2}},
        {"kind": "upkeep", "units": {"France": {"armies": 3, "fleets": 1, "fortresses": 0},
                                     "Austria": {"armies": 18}},
         "taxes": {"Austria": [1, 2]}},
        {"kind": "population"},
        {"kind": "scoring", "regions": {"German States": {"France": 2, "Russia": 3},
                                        "Baltic": {"Austria": 1, "Britain": 1}}},
        {"kind": "end_war"},
        # war 2
        {"kind": "income", "regions": {"Italy": {"Britain": 3, "France": 1},
                                       "India": {"Britain": 2}}},
        {"kind": "upkeep", "units": {"Britain": {"fleets": 5}}},
        {"kind": "population"},
        {"kind": "scoring"},
        {"kind": "end_war"},
        # war 3
        {"kind": "tax", "power": "Britain", "unrest": 1},
        {"kind": "income", "markers": {}},
        {"kind": "upkeep", "units": {}},
        {"kind": "population"},
        {"kind": "scoring", "regions": {"German States": {"Austria": 3, "France": 3,
                                                          "Prussia": 1}}},
        {"kind": "end_game"},
    ],
}


def test_read_session_whole_file():
    sf = read_session(json.loads(json.dumps(FULL_GAME)))
    state = sf.timeline.state
    assert sf.title == "Friday" and len(sf.steps) == len(FULL_GAME["steps"])
    # Worked out by hand:
    # war 1: France 10+2-3 = 9 gold, pop 4, unrest 3; income France 9+4+4 = 17,
    #   Austria 17, Britain 15; upkeep France 17-4 = 13, Austria 17+4-18 = 3 (unrest 3);
    #   population 9 each; GS: NPP Russia 1st, France 2nd 5; Baltic: Austria and Britain
    #   tied for 1st, demoted to 3 each.
    # war 2: income France 13+9+1 = 23, Austria 3+9 = 12, Britain 15+9+5 = 29; upkeep
    #   Britain 24; Mediterranean 4/2: Britain 4, France 2; India 4/2: Britain 4.
    # war 3: Britain taxes 24+2 = 26, unrest 1; income +9 each: 32, 21, 35; GS: France and
    #   Austria tied for 1st, demoted to 5 each, Prussia (NPP) discarded.
    # end: unrest 3, 3, 1 -> France and Austria -7, Britain -4.
    assert [dict(v) for v in state.vp_by_war] == [
        {"France": 5, "Austria": 3, "Britain": 3},
        {"France": 7, "Austria": 3, "Britain": 11},
        {"France": 12, "Austria": 8, "Britain": 11},
    ]
    report = sf.rules.report(state).to_json()
    assert report == {
        "game": "soe", "status": "finished", "result": "win", "format": "victory_points",
        "rounds": 3, "winners": ["Cy"],
        "standings": [
            {"player": "Cy", "power": "Britain", "gold": 35, "population": 9, "unrest": 1,
             "vp": 11, "penalty": 4, "final_vp": 7, "revolution": False, "rank": 1},
            {"player": "Ana", "power": "France", "gold": 32, "population": 9, "unrest": 3,
             "vp": 12, "penalty": 7, "final_vp": 5, "revolution": False, "rank": 2},
            {"player": "Bo", "power": "Austria", "gold": 21, "population": 9, "unrest": 3,
             "vp": 8, "penalty": 7, "final_vp": 1, "revolution": False, "rank": 3},
        ]}
    # The file written back reads back to the same game.
    again = read_session(parse_text(json.dumps(sf.to_json())))
    assert SOE.report(again.timeline.state).to_json() == report


def test_session_in_progress_report():
    data = json.loads(json.dumps(FULL_GAME))
    data["steps"] = data["steps"][:8]
    report = SOE.report(read_session(data).timeline.state).to_json()
    assert report["status"] == "in_progress" and report["result"] is None
    assert (report["phase"], report["war"]) == ("upkeep", 2)
    assert report["winners"] == []


@pytest.mark.parametrize("index, bad, kind, reason", [
    (0, {"kind": "upkeep"}, "upkeep", "the next step is income"),
    (2, {"kind": "tax", "power": "Sweden"}, "tax", "Sweden"),
    (3, {"kind": "upkeep", "units": {"Austria": {"armies": 18}}}, "upkeep",
     "Austria must pay 18 upkeep with 17 gold: 1 taxation needed, 0 given"),
    (5, {"kind": "scoring", "regions": {"German States": {"France": 2}}, "x": 1}, "scoring",
     "unknown key"),
    (17, {"kind": "end_war"}, "end_war", "the next step is end game"),
])
def test_bad_step_in_a_session_file(index, bad, kind, reason):
    data = json.loads(json.dumps(FULL_GAME))
    data["steps"][index] = bad
    with pytest.raises(StepError) as e:
        read_session(data)
    message = str(e.value)
    assert message.startswith(f"step {index + 1} ({kind}): ")
    assert reason in message
    assert e.value.number == index + 1


def test_step_that_is_not_an_object_in_a_session_file():
    data = json.loads(json.dumps(FULL_GAME))
    data["steps"][1] = 5
    with pytest.raises(StepError) as e:
        read_session(data)
    assert str(e.value).startswith("step 2 (?): ")


@pytest.mark.parametrize("change", [
    {"format": "warledger/2"},
    {"game": "chess"},
    {"extra": 1},
    {"players": [{"name": "Ana", "power": "France"}]},
    {"settings": {"gold_per_tax": -1}},
    {"steps": {}},
])
def test_bad_session_file(change):
    data = {**json.loads(json.dumps(FULL_GAME)), **change}
    with pytest.raises(RuleError):
        read_session(data)


def test_session_file_with_undo_and_redo():
    data = json.loads(json.dumps(FULL_GAME))
    data["steps"][1:1] = [{"kind": "undo"}, {"kind": "redo"}]
    assert SOE.report(read_session(data).timeline.state) == SOE.report(
        read_session(FULL_GAME).timeline.state)


# ------------------------------------------------------------- undo and redo

def test_undo_then_redo_is_the_identity():
    t = play(new_game(("France", "Britain")), {"kind": "tax", "power": "France"}, INCOME0)
    u = t.then(Undo())
    assert u.state == t.states[-2] and u.state.phase == "actions"
    assert u.state.empires["France"].gold == 12
    r = u.then(Redo())
    assert r.state == t.state and r.steps == t.steps
    assert SOE.report(r.state).to_json() == SOE.report(t.state).to_json()
    # The redone timeline goes on like the original.
    assert play(r, UPKEEP0).state == play(t, UPKEEP0).state


def test_new_step_after_undo_forgets_the_redo():
    t = play(new_game(("France", "Britain")), {"kind": "tax", "power": "France"})
    u = t.then(Undo())
    assert u.can_redo
    n = play(u, {"kind": "tax", "power": "Britain"})
    assert not n.can_redo
    with pytest.raises(RuleError, match="nothing to redo"):
        n.then(Redo())
    assert n.state.empires["France"].gold == 10 and n.state.empires["Britain"].gold == 12


def test_undo_after_the_end_of_the_game():
    t = three_quiet_wars(new_game(("France", "Britain")))
    u = t.then(Undo())
    assert not u.state.finished and u.state.phase == "end_game"
    with pytest.raises(RuleError, match="nothing to undo"):
        new_game(("France", "Britain")).then(Undo())


# ------------------------------------------------------------- properties

@st.composite
def printed_values(draw):
    n = draw(st.sampled_from([2, 3]))
    return tuple(sorted(draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)),
                        reverse=True))


@given(values=printed_values(), n=st.integers(4, 7),
       markers=st.dictionaries(st.sampled_from(ALL_POWERS), st.integers(0, 6)))
def test_split_never_hands_out_more_than_printed(values, n, markers):
    # Everyone counted as a player: the VP before NPPs' shares are discarded.
    awards = score_region("German States", values, markers, frozenset(ALL_POWERS),
                          player_count=n)
    assert sum(a.vp for a in awards) <= sum(values)
    assert all(a.vp >= 0 for a in awards)
    # Marking some powers as NPPs changes no share, it only discards it.
    players = frozenset(ALL_POWERS[:n])
    real = score_region("German States", values, markers, players, player_count=n)
    full = {a.power: a.vp for a in awards}
    for a in real:
        assert a.vp == (full[a.power] if a.power in players else 0)
        assert a.scores == (a.power in players)


@given(unrest=st.lists(st.integers(0, 30), min_size=2, max_size=7),
       ranking=st.sampled_from(["distinct", "competition"]))
def test_penalties_only_at_the_two_highest_levels(unrest, ranking):
    powers = ALL_POWERS[:len(unrest)]
    table = dict(zip(powers, unrest, strict=True))
    penalty, rev = unrest_penalties(table, len(unrest), ranking)
    assert rev == {p for p, u in table.items() if u >= 20}
    rest = {p: u for p, u in table.items() if p not in rev}
    levels = sorted(set(rest.values()), reverse=True)
    assert set(penalty) == set(powers)
    for p, pen in penalty.items():
        assert pen in (0, 4, 7)
        if pen == 0:
            continue
        assert p in rest and table[p] > 0
        assert table[p] in levels[:2]
        if pen == 7:
            assert table[p] == levels[0]
    if len(rest) < 2:
        assert set(penalty.values()) == {0}
        return
    top = [p for p, u in rest.items() if u == levels[0]]
    if len(unrest) == 2:
        winner_loses = len(top) == 1 and levels[0] > 0
        assert sum(penalty.values()) == (7 if winner_loses else 0)
        return
    # 3+ players: every player at the highest positive level loses 7.
    if levels[0] > 0:
        assert all(penalty[p] == 7 for p in top)
    second = levels[1] if len(levels) > 1 else 0
    second_penalised = second > 0 and (ranking == "distinct" or len(top) == 1)
    for p, u in rest.items():
        if u == second and u != levels[0]:
            assert penalty[p] == (4 if second_penalised else 0)


def units_json(draw, powers):
    units = {}
    for p in draw(st.lists(st.sampled_from(powers), unique=True)):
        units[p] = {k: draw(st.integers(0, 6)) for k in
                    draw(st.lists(st.sampled_from(["armies", "fleets", "fortresses"]),
                                  unique=True))}
    return units


def grid_json(draw, powers):
    names = list(ALL_REGIONS) + ["Italy"]
    grid = {}
    for region in draw(st.lists(st.sampled_from(names), unique=True, max_size=5)):
        if region in ("Italy", "Mediterranean") and ({"Italy", "Mediterranean"} & set(grid)):
            continue
        grid[region] = draw(st.dictionaries(st.sampled_from(ALL_POWERS), st.integers(0, 5),
                                            max_size=4))
    return grid


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fold_export_and_read_back_gives_the_same_report(data):
    draw = data.draw
    n = draw(st.integers(2, 7), label="players")
    powers = draw(st.permutations(ALL_POWERS))[:n]
    gpt = draw(st.integers(1, 4))
    settings_json = {
        "friendly_ties": draw(st.sampled_from(["split", "full"])),
        "unfriendly_ties": draw(st.sampled_from(["demote", "cascade"])),
        "unrest_ranking": draw(st.sampled_from(["distinct", "competition"])),
        "gold_per_tax": gpt,
        "regions": {r: list(draw(printed_values())) for r in ALL_REGIONS},
    }
    players = [{"name": f"P{i}", "power": draw(st.sampled_from([p, p.lower(), p.upper()])),
                "gold": draw(st.integers(0, 15)), "population": draw(st.integers(0, 9)),
                "unrest": draw(st.integers(0, 25)), "vp": draw(st.integers(0, 20))}
               for i, p in enumerate(powers)]
    settings_ = SOE.read_settings(settings_json)
    seats = SOE.read_players(players, settings_)
    t = Timeline(SOE, SOE.start(settings_, seats))
    recorded = []
    for _ in range(draw(st.integers(0, 60), label="length")):
        state = t.state
        if state.finished and draw(st.integers(0, 3)) > 0:
            break
        # Mostly the next end-of-war step, so that many games reach the end.
        options = [] if state.finished else ["next"] * 6 + ["tax", "adjust"]
        if t.can_undo:
            options.append("undo")
        if t.can_redo:
            options.append("redo")
        what = draw(st.sampled_from(options))
        if what == "undo":
            step = Undo()
        elif what == "redo":
            step = Redo()
        elif what == "tax":
            step = read_step(SOE, {"kind": "tax", "power": draw(st.sampled_from(powers)),
                                   "unrest": draw(st.integers(1, 4))})
        elif what == "adjust":
            p = draw(st.sampled_from(powers))
            e = state.empires[p]
            step = read_step(SOE, {
                "kind": "adjust", "power": p, "gold": draw(st.integers(-e.gold, 5)),
                "population": draw(st.integers(-e.population, 9 - e.population)),
                "unrest": draw(st.integers(-e.unrest, 5)), "note": "battle"})
        else:
            kind = state.expected
            if kind == "income":
                if draw(st.booleans()):
                    raw = {"kind": kind, "regions": grid_json(draw, list(powers))}
                else:
                    raw = {"kind": kind, "markers": draw(st.dictionaries(
                        st.sampled_from(powers), st.integers(0, 8)))}
            elif kind == "upkeep":
                units = units_json(draw, list(powers))
                taxes = {}
                for p in powers:
                    cost = sum(units.get(p, {}).values())
                    short = cost - state.empires[p].gold
                    needed = -(-short // gpt) if short > 0 else 0
                    count = needed + draw(st.integers(0, 2))
                    if count:
                        taxes[p] = [draw(st.integers(1, 3)) for _ in range(count)]
                raw = {"kind": kind, "units": units, "taxes": taxes}
            elif kind == "scoring" and (state.grid is None or draw(st.booleans())):
                raw = {"kind": kind, "regions": grid_json(draw, list(powers))}
            else:
                raw = {"kind": kind}
            step = read_step(SOE, raw)
        t = t.then(step)
        recorded.append(step)
    event(f"ended in war {t.state.war} at {t.state.phase}")
    exported = json.dumps(session_json(SOE, "Random", settings_, seats, recorded))
    back = read_session(parse_text(exported))
    assert SOE.report(back.timeline.state).to_json() == SOE.report(t.state).to_json()
    assert back.timeline.state == t.state
    assert len(back.steps) == len(recorded)
    assert json.loads(exported) == back.to_json()


@pytest.mark.parametrize("step, message", [
    ({"kind": "income", "markers": {"France": 1, "france": 2}}, "France is given twice"),
    ({"kind": "scoring", "regions": {"Italy": {}, "Mediterranean": {}}},
     "Mediterranean is given twice"),
    ({"kind": "upkeep", "units": {"Spain": {}, "SPAIN": {"armies": 1}}}, "Spain is given twice"),
    ({"kind": "income", "regions": {"Baltic": {"Russia": 1, "russia": 2}}},
     "Russia is given twice"),
])
def test_a_name_given_twice_in_another_spelling_is_refused(step, message):
    with pytest.raises(RuleError, match=message):
        SOE.read_step(step)


# ------------------------------------------------------------- numbers the screens read

def test_vp_of_last_scoring_is_what_the_awards_gave():
    # Worked example 5 (RULES.md B.4.4): Russia, a non-player power, takes 1st; its 8 is
    # thrown away, France 5, Austria 3, Britain nothing.
    t = new_game(("France", "Austria", "Britain"), seats={"France": {"vp": 4}})
    assert vp_of_last_scoring(t.state) == {"France": 0, "Austria": 0, "Britain": 0}
    t = play(t, {"kind": "income", "regions": {
        "German States": {"France": 2, "Austria": 1, "Russia": 3}}}, UPKEEP0, POP, scoring())
    assert vp_of_last_scoring(t.state) == {"France": 5, "Austria": 3, "Britain": 0}
    # The next war's scoring: only what it gave, not the VP since the start.
    t = play(t, END_WAR, {"kind": "income", "regions": {"German States": {"Britain": 1}}},
             UPKEEP0, POP, scoring())
    assert vp_of_last_scoring(t.state) == {"France": 0, "Austria": 0, "Britain": 8}
    assert vp_of(t.state) == {"France": 9, "Austria": 3, "Britain": 8}


@pytest.mark.parametrize("unrest, revolution", [(0, False), (19, False), (20, True),
                                                (35, True)])
def test_revolution_from_unrest_20(unrest, revolution):
    assert in_revolution(unrest) is revolution
    assert REVOLUTION_WORDS == "20 or more"


@pytest.mark.parametrize("before, after", [(0, 5), (3, 8), (4, 9), (5, 9), (9, 9)])
def test_population_grows_by_5_up_to_9(before, after):
    assert grown(before) == after
    t = play(new_game(("France", "Spain"), seats={"France": {"population": before}}),
             INCOME0, UPKEEP0, POP)
    assert t.state.empires["France"].population == after


@pytest.mark.parametrize("players, friendly", [(2, False), (3, False), (4, True), (7, True)])
def test_player_count_decides_ties_and_whether_non_players_matter(players, friendly):
    assert ties_are_friendly(players) is friendly
    assert non_players_matter(players) is not friendly
    assert (players in FRIENDLY_COUNTS) is friendly
    assert (players in UNFRIENDLY_COUNTS) is not friendly


def test_player_counts_said_as_the_rules_say_them():
    assert counts_said(FRIENDLY_COUNTS) == "4 to 7"
    assert counts_said(UNFRIENDLY_COUNTS) == "2 or 3"
    assert counts_said(range(5, 6)) == "5"


def test_the_last_war_and_its_checklist():
    t = new_game(("France", "Spain"))
    assert not t.state.last_war
    assert t.state.checklist[-1] == "Place 10 new neutral region tokens on the board"
    assert len(t.state.checklist) == 6
    t = play(quiet_war(play(quiet_war(t), END_WAR)), END_WAR)
    assert t.state.war == 3 and t.state.last_war
    assert "Place 10 new neutral region tokens on the board" not in t.state.checklist
    assert len(t.state.checklist) == 5
    assert play(quiet_war(t)).state.phase == "end_game"  # the last war's scoring ends it
