"""The history in the players' words (rules/soe/describe.py, rules/risk/describe.py,
rules.game.describe_history): every step kind of both games, undo and redo, told as one
line naming the war or round, the players and powers, and the figures that changed.

Every expected line is worked out by hand from RULES.md, never taken from the code.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.game import describe_history
from rules.risk import RISK
from rules.risk.describe import TELLERS as RISK_TELLERS
from rules.session_file import read_session
from rules.soe import SOE, Tax
from rules.soe.describe import TELLERS as SOE_TELLERS
from rules.timeline import TIMELINE_STEPS

pytestmark = pytest.mark.unit  # no app, database or subprocess: `pytest -m unit`

REGION_VALUES = {  # German States is the 2004 board; the rest are test values
    "German States": [8, 5, 3], "Baltic": [6, 3], "Mediterranean": [7, 4, 2],
    "Central Europe": [6, 4, 2], "Ottoman Empire": [5, 3], "North America": [9, 5, 2],
    "Caribbean": [7, 4, 1], "South America": [5, 2], "Africa": [6, 3, 1],
    "India": [10, 6, 3], "East Indies": [8, 4],
}
# Ana plays France with nothing (to force taxes at upkeep), Bo Spain with the defaults.
SOE_PLAYERS = [{"name": "Ana", "power": "France", "gold": 0, "population": 0},
               {"name": "Bo", "power": "Spain"}]


def soe_lines(*steps: dict, settings: dict | None = None) -> list[str]:
    """The history of a two-player Struggle of Empires game with these steps."""
    return told("soe", {"regions": REGION_VALUES, **(settings or {})}, SOE_PLAYERS, steps)


def told(game: str, settings: dict, players: list, steps: Any) -> list[str]:
    sf = read_session({"format": "warledger/1", "game": game, "title": "T",
                       "settings": settings, "players": players, "steps": list(steps)})
    return describe_history(sf.rules, sf.settings, sf.seats, sf.steps)


def war(*grid_rows: tuple[str, dict], end: str = "end_war") -> list[dict]:
    """A war with no units on the map: income by region grid, the grid scored again."""
    grid = dict(grid_rows)
    return [{"kind": "income", "regions": grid}, {"kind": "upkeep"}, {"kind": "population"},
            {"kind": "scoring"}, {"kind": end}]


def test_every_step_kind_of_both_games_is_told():
    undo_redo = set(TIMELINE_STEPS.kinds)
    assert undo_redo == {"undo", "redo"}
    assert set(SOE_TELLERS) == set(SOE.steps.kinds) | undo_redo
    assert set(RISK_TELLERS) == set(RISK.steps.kinds) | undo_redo


# ---------------------------------------------------------------- Struggle of Empires

def test_taxation_names_the_war_the_player_and_the_figures():
    start = SOE.start(SOE.read_settings({}), SOE.read_players(SOE_PLAYERS, None))
    step = Tax("Spain", 3)
    assert SOE.describe(start, step, SOE.apply(start, step)) == (
        "War 1 taxation: Bo (Spain) +2 gold, unrest token 3 (gold 10 → 12, unrest 0 → 3)")
    # The gold a taxation gives is the group's option.
    assert soe_lines({"kind": "tax", "power": "Spain"}, settings={"gold_per_tax": 3}) == [
        "War 1 taxation: Bo (Spain) +3 gold, unrest token 1 (gold 10 → 13, unrest 0 → 1)"]


def test_correction_gives_each_change_and_the_reason():
    assert soe_lines(
        {"kind": "adjust", "power": "Spain", "gold": -3, "note": "lost a battle"},
        {"kind": "adjust", "power": "France", "population": 2, "unrest": 1, "note": "colony"},
        {"kind": "adjust", "power": "Spain", "note": "nothing after all"},
    ) == [
        "War 1 correction for Bo (Spain): gold -3 (10 → 7) — lost a battle",
        "War 1 correction for Ana (France): population +2 (0 → 2), unrest +1 (0 → 1) — colony",
        "War 1 correction for Bo (Spain): no change — nothing after all",
    ]


def test_income_by_totals_and_by_region_grid():
    assert soe_lines({"kind": "income", "markers": {"France": 4}}) == [
        "War 1 income (markers per power): Ana (France) +4 gold (population 0 + 4 markers, "
        "0 → 4); Bo (Spain) +5 gold (population 5 + 0 markers, 10 → 15)"]
    grid = {"German States": {"France": 2, "Spain": 1, "Prussia": 3}, "Baltic": {"France": 1}}
    assert soe_lines({"kind": "income", "regions": grid}) == [
        "War 1 income (region grid): Ana (France) +3 gold (population 0 + 3 markers, 0 → 3); "
        "Bo (Spain) +6 gold (population 5 + 1 marker, 10 → 16)"]


def test_upkeep_says_what_each_paid_and_the_taxes_it_took():
    # France: 3 gold after income, 5 armies and 2 fleets cost 7: short by 4, two taxations
    # (tokens 1 and 2): 3 + 4 - 7 = 0 gold, unrest 3. Spain: nothing on the map.
    lines = soe_lines({"kind": "income", "markers": {"France": 3}},
                      {"kind": "upkeep", "units": {"France": {"armies": 5, "fleets": 2}},
                       "taxes": {"France": [1, 2]}})
    assert lines[1] == ("War 1 upkeep: Ana (France) paid 7 and taxed twice (+3 unrest): "
                        "gold 3 → 0, unrest 0 → 3; Bo (Spain) paid nothing")
    lines = soe_lines({"kind": "income", "markers": {}},
                      {"kind": "upkeep", "units": {"Spain": {"fortresses": 4}},
                       "taxes": {"France": [2], "Spain": [1, 1, 1]}})
    assert lines[1] == ("War 1 upkeep: Ana (France) paid nothing and taxed once (+2 unrest): "
                        "gold 0 → 2, unrest 0 → 2; Bo (Spain) paid 4 and taxed 3 times "
                        "(+3 unrest): gold 15 → 17, unrest 0 → 3")


def test_population_grows_by_five_up_to_nine():
    lines = soe_lines({"kind": "income", "markers": {}}, {"kind": "upkeep"},
                      {"kind": "population"})
    assert lines[2] == ("War 1 population (+5, at most 9): Ana (France) 0 → 5, "
                        "Bo (Spain) 5 → 9")
    players = [{"name": "Ana", "power": "France", "population": 9},
               {"name": "Bo", "power": "Spain", "population": 9}]
    lines = told("soe", {}, players, [{"kind": "income", "markers": {}}, {"kind": "upkeep"},
                                      {"kind": "population"}])
    assert lines[2] == "War 1 population (+5, at most 9): every population already at 9"


def test_scoring_from_the_income_grid_and_from_a_new_grid():
    # German States 8/5/3: France 2 markers first (8), Spain 1 second (5); Baltic 6/3:
    # France alone (6). India 10/6/3: France alone (10), Spain has nothing.
    first = war(("German States", {"France": 2, "Spain": 1}), ("Baltic", {"France": 1}))
    lines = soe_lines(*first, {"kind": "income", "markers": {}}, {"kind": "upkeep"},
                      {"kind": "population"},
                      {"kind": "scoring", "regions": {"India": {"France": 1}}})
    assert lines[3] == ("War 1 scoring (the income grid): Ana (France) +14 VP (0 → 14), "
                        "Bo (Spain) +5 VP (0 → 5)")
    assert lines[4] == "End of war 1: Ana (France) 14 VP, Bo (Spain) 5 VP; war 2 begins"
    assert lines[8] == ("War 2 scoring (a new region grid): Ana (France) +10 VP (14 → 24); "
                        "no VP for Bo (Spain)")


def test_scoring_where_nobody_wins_anything():
    lines = soe_lines({"kind": "income", "markers": {}}, {"kind": "upkeep"},
                      {"kind": "population"}, {"kind": "scoring", "regions": {}})
    assert lines[3] == "War 1 scoring (a new region grid): no VP won"


def test_end_of_game_with_an_unrest_penalty():
    # France wins German States in every war: 3 x 8 = 24; Spain 3 x 5 = 15, and with the
    # higher unrest of two players (a token of 4) Spain loses 7: 8.
    steps = (war(("German States", {"France": 2, "Spain": 1}))
             + [{"kind": "tax", "power": "Spain", "unrest": 4}]
             + war(("German States", {"France": 2, "Spain": 1}))
             + war(("German States", {"France": 2, "Spain": 1}), end="end_game"))
    assert soe_lines(*steps)[-1] == (
        "End of the game after war 3: Ana (France) wins with 24 VP; final VP Ana (France) 24, "
        "Bo (Spain) 8 (15 - 7 for unrest 4)")


def test_end_of_game_shared_and_drawn():
    # 8 + 5 + 5 (a tie of two players: each gets the next place's 5) = 18 each.
    shared = (war(("German States", {"France": 2, "Spain": 1}))
              + war(("German States", {"France": 1, "Spain": 2}))
              + war(("German States", {"France": 1, "Spain": 1}), end="end_game"))
    assert soe_lines(*shared)[-1] == (
        "End of the game after war 3: Ana (France), Bo (Spain) share the victory with 18 VP "
        "each; final VP Ana (France) 18, Bo (Spain) 18")
    revolt = [{"kind": "adjust", "power": p, "unrest": 20, "note": "riots"}
              for p in ("France", "Spain")]
    assert soe_lines(*revolt, *shared)[-1] == (
        "End of the game after war 3: a draw: every power is in revolution; final VP "
        "Ana (France) 0 (revolution: unrest 20), Bo (Spain) 0 (revolution: unrest 20)")


def test_region_values_filled_in_and_corrected():
    regions = {r: v for r, v in REGION_VALUES.items() if r != "Baltic"}
    assert told("soe", {"regions": regions}, SOE_PLAYERS, [
        {"kind": "board", "regions": {"Baltic": [6, 3], "India": [9, 6, 3]}},
        {"kind": "undo"},
    ]) == [
        "War 1 region values: Baltic 6/3, India 9/6/3 (was 10/6/3)",
        "Undo of #1: war 1 at actions & income; Baltic 6/3 → none; India 9/6/3 → 10/6/3",
    ]


def test_undo_and_redo_name_the_step_where_the_game_stands_and_what_moved():
    lines = soe_lines(
        {"kind": "tax", "power": "Spain", "unrest": 3},  # 1
        {"kind": "income", "markers": {"France": 1}},  # 2
        {"kind": "undo"},  # 3: takes back #2
        {"kind": "undo"},  # 4: takes back #1
        {"kind": "redo"},  # 5: brings back #1
        {"kind": "adjust", "power": "France", "gold": 1, "note": "a loan"},  # 6: #2 is gone
        {"kind": "undo"},  # 7: takes back #6
        {"kind": "redo"},  # 8: brings back #6
    )
    assert lines[2:] == [
        "Undo of #2: war 1 at actions & income; Ana (France) gold 1 → 0; "
        "Bo (Spain) gold 17 → 12",
        "Undo of #1: war 1 at actions & income; Bo (Spain) gold 12 → 10, unrest 3 → 0",
        "Redo of #1: war 1 at actions & income; Bo (Spain) gold 10 → 12, unrest 0 → 3",
        "War 1 correction for Ana (France): gold +1 (0 → 1) — a loan",
        "Undo of #6: war 1 at actions & income; Ana (France) gold 1 → 0",
        "Redo of #6: war 1 at actions & income; Ana (France) gold 0 → 1",
    ]


def test_undo_of_the_end_of_the_game_and_of_a_phase_step():
    steps = (war(("German States", {"France": 2})) + war(("German States", {"France": 2}))
             + war(("German States", {"France": 2}), end="end_game"))
    lines = soe_lines(*steps, {"kind": "undo"}, {"kind": "undo"}, {"kind": "redo"})
    assert lines[-3:] == [
        "Undo of #15: war 3 at end of game; no totals change",
        "Undo of #14: war 3 at scoring; Ana (France) VP 24 → 16",
        "Redo of #14: war 3 at end of game; Ana (France) VP 16 → 24",
    ]


# ---------------------------------------------------------------- Risk

RISK_PLAYERS = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
                {"name": "Cy", "color": "green"}]


def held(territories: int, armies: int, *continents: str) -> dict:
    return {"territories": territories, "armies": armies, "continents": list(continents)}


def risk_lines(*steps: dict, mode: str = "fixed_rounds", rounds: int = 10,
               players: list | None = None) -> list[str]:
    return told("risk", {"mode": mode, "rounds": rounds}, players or RISK_PLAYERS, steps)


def test_rounds_closed_with_and_without_positions():
    positions = {"Ana": held(25, 40, "Australia"), "Bo": held(16, 20), "Cy": held(1, 1)}
    assert risk_lines({"kind": "round"}, {"kind": "round", "positions": positions}) == [
        "Round 1 of 10 closed",
        "Round 2 of 10 closed: Ana 25 territories, 40 armies, Australia; "
        "Bo 16 territories, 20 armies; Cy 1 territory, 1 army",
    ]
    assert risk_lines({"kind": "round"}, mode="conquest") == ["Round 1 closed"]


def test_the_last_round_is_scored_and_won():
    # Ana 25 + 2 (Australia) + 40 // 5 = 35; Bo 16 + 20 // 5 = 20; Cy 1 + 0 = 1.
    positions = {"Ana": held(25, 40, "Australia"), "Bo": held(16, 20), "Cy": held(1, 1)}
    assert risk_lines({"kind": "round", "positions": positions}, rounds=1) == [
        "Round 1 of 1 closed and scored: Ana score 35 (25 territories, 40 armies, Australia); "
        "Bo score 20 (16 territories, 20 armies); Cy score 1 (1 territory, 1 army): "
        "Ana leads with 35 to Bo's 20 and Cy's 1; Ana wins on score"]


def test_a_tied_score_then_the_tie_break_both_ways():
    # 21 + 2 + 4 = 27 each, equal on every count: a tie to settle.
    tie = {"kind": "round", "positions": {"Ana": held(21, 22, "Australia"),
                                          "Bo": held(21, 22, "South America")}}
    two = RISK_PLAYERS[:2]
    lines = risk_lines(tie, {"kind": "tiebreak", "resolution": "extra_round"}, tie,
                       {"kind": "tiebreak", "resolution": "shared"}, rounds=1, players=two)
    assert lines == [
        "Round 1 of 1 closed and scored: Ana score 27 (21 territories, 22 armies, Australia); "
        "Bo score 27 (21 territories, 22 armies, South America): Ana and Bo 27 each; "
        "equal territories; equal continents; equal armies; still tied; a tie to settle",
        "After round 1: Ana and Bo play one extra round (round 2), then the scores again",
        "Round 2 (extra) closed and scored: Ana score 27 (21 territories, 22 armies, Australia); "
        "Bo score 27 (21 territories, 22 armies, South America): Ana and Bo 27 each; "
        "equal territories; equal continents; equal armies; still tied; a tie to settle",
        "After round 2: Ana and Bo share the victory",
    ]


def test_elimination_and_world_conquest():
    assert risk_lines({"kind": "round"}, {"kind": "eliminate", "player": "cy", "by": "Ana"},
                      {"kind": "eliminate", "player": "Bo", "by": "Ana"}, mode="conquest") == [
        "Round 1 closed",
        "Round 2: Cy eliminated by Ana",
        "Round 2: Bo eliminated by Ana; Ana wins by world conquest",
    ]


def test_concessions_refused_and_accepted():
    assert risk_lines({"kind": "concede", "player": "Cy", "accepted": False},
                      {"kind": "concede", "player": "Cy", "accepted": True, "to": "Bo"},
                      {"kind": "concede", "player": "Ana", "accepted": True, "to": "Bo"},
                      mode="conquest") == [
        "Round 1: Cy offered to concede; the group refused",
        "Round 1: Cy conceded; their territories go to Bo",
        "Round 1: Ana conceded; their territories go to Bo; Bo wins as the others conceded",
    ]


def test_an_elimination_replaces_a_mission_without_a_word_to_the_table():
    """The history is the table's: a replacement is its holder's alone (issue 44), and how
    many were replaced would say who held what."""
    players = [{"name": "Ana", "color": "red", "mission": "destroy:green"},
               {"name": "Bo", "color": "blue", "mission": "18x2"},
               {"name": "Cy", "color": "green", "mission": "24"}]
    lines = risk_lines({"kind": "eliminate", "player": "Cy", "by": "Bo"}, mode="missions",
                       players=players)
    assert lines == ["Round 1: Cy eliminated by Bo"]
    # A destroy mission done by its holder wins the game.
    assert risk_lines({"kind": "eliminate", "player": "Cy", "by": "Ana"}, mode="missions",
                      players=players) == [
        "Round 1: Cy eliminated by Ana; Ana wins by secret mission"]


def test_stalemates_drawn_agreed_and_scored():
    positions = {"Ana": held(25, 40), "Bo": held(16, 20), "Cy": held(1, 1)}
    assert risk_lines({"kind": "stalemate", "resolution": "draw"}, mode="conquest") == [
        "Round 1: stalemate; the game is a draw"]
    assert risk_lines({"kind": "stalemate", "resolution": "agreed", "winner": "bo"},
                      mode="conquest") == ["Round 1: stalemate; Bo wins as the players agreed"]
    # Ana 25 + 8 = 33, Bo 16 + 4 = 20, Cy 1.
    assert risk_lines({"kind": "round", "positions": positions},
                      {"kind": "stalemate", "resolution": "fixed_round"}, mode="conquest")[1] == (
        "Round 2: stalemate, scored: Ana score 33 (25 territories, 40 armies); Bo score 20 "
        "(16 territories, 20 armies); Cy score 1 (1 territory, 1 army): Ana leads with 33 "
        "to Bo's 20 and Cy's 1; Ana wins on score")


def test_a_completed_mission_is_named_when_it_wins():
    players = [{"name": "Ana", "color": "red", "mission": "24"},
               {"name": "Bo", "color": "blue", "mission": "asia+africa"}]
    assert risk_lines({"kind": "round"},
                      {"kind": "mission_complete", "player": "Ana",
                       "positions": {"Ana": held(24, 50), "Bo": held(18, 20)}},
                      mode="missions", players=players)[1] == (
        "Round 2: Ana completed the secret mission 'Occupy 24 territories' "
        "(24 territories, 50 armies); Ana wins by secret mission")
    assert risk_lines({"kind": "mission_complete", "player": "Bo"}, mode="missions",
                      players=players) == [
        "Round 1: Bo completed the secret mission 'Conquer Asia and Africa'; "
        "Bo wins by secret mission"]


def test_risk_undo_and_redo():
    positions = {"Ana": held(25, 40), "Bo": held(16, 20), "Cy": held(1, 1)}
    lines = risk_lines(
        {"kind": "round", "positions": positions},  # 1
        {"kind": "eliminate", "player": "Cy", "by": "Ana"},  # 2
        {"kind": "undo"}, {"kind": "redo"},  # 3, 4: #2
        {"kind": "eliminate", "player": "Bo", "by": "Ana"},  # 5: Ana wins
        {"kind": "undo"}, {"kind": "undo"}, {"kind": "undo"},  # 6, 7, 8: #5, #2, #1
        {"kind": "redo"},  # 9: #1
        mode="conquest")
    assert lines[2:] == [
        "Undo of #2: round 2 in play; Cy back in the game (1 territory, 1 army)",
        "Redo of #2: round 2 in play; Cy out (eliminated by Ana)",
        "Round 2: Bo eliminated by Ana; Ana wins by world conquest",
        "Undo of #5: round 2 in play; Bo back in the game (16 territories, 20 armies); "
        "the result is taken back",
        "Undo of #2: round 2 in play; Cy back in the game (1 territory, 1 army)",
        "Undo of #1: round 1 in play; Ana's position taken back; Bo's position taken back; "
        "Cy's position taken back",
        "Redo of #1: round 2 in play; Ana 25 territories, 40 armies; "
        "Bo 16 territories, 20 armies; Cy 1 territory, 1 army",
    ]


def test_risk_undo_of_a_tie_break_and_a_redo_that_wins():
    tie = {"kind": "round", "positions": {"Ana": held(21, 22), "Bo": held(21, 22)}}
    lines = risk_lines(tie, {"kind": "tiebreak", "resolution": "shared"}, {"kind": "undo"},
                       {"kind": "redo"}, rounds=1, players=RISK_PLAYERS[:2])
    assert lines[2:] == [
        "Undo of #2: a tie to settle after round 1; the result is taken back",
        "Redo of #2: the game is over; Ana and Bo share the victory",
    ]
