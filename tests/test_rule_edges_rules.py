"""Rule edges met at the table (issue 14), in the rules alone: a mission claimed without a
position, a stalemate scored after an elimination, a correction without its reason, how
the rounds of a game are counted, and a tie with a non-player power explained once."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.fields import stored_rows
from rules.risk import RISK, unproven_claim
from rules.soe import SOE
from rules.soe.regions import score_region
from rules.timeline import Timeline, read_step

pytestmark = pytest.mark.unit  # no app, database or subprocess: `pytest -m unit`

THREE = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
         {"name": "Cy", "color": "green"}]
MISSIONS = [{**THREE[0], "mission": "asia+africa"}, {**THREE[1], "mission": "24"},
            {**THREE[2], "mission": "destroy:red"}]


def game(rules, settings: dict, players: list[dict]) -> Timeline:
    s = rules.read_settings(settings)
    return Timeline(rules, rules.start(s, rules.read_players(players, s)))


def play(t: Timeline, *steps: dict) -> Timeline:
    for step in steps:
        t = t.then(read_step(t.rules, step))
    return t


def P(territories: int, armies: int, *continents: str) -> dict:
    return {"territories": territories, "armies": armies, "continents": list(continents)}


def closed(**positions: dict) -> dict:
    return {"kind": "round", "positions": positions}


# RULES.md A.4's example: round 6 closed with Ana 20 {North America} 40, Bo 12 20,
# Cy 10 {Australia} 15 (42 territories).
BEFORE = {"Ana": P(20, 40, "North America"), "Bo": P(12, 20), "Cy": P(10, 15, "Australia")}


# ---------------------------------------------------------------- 1. a mission claim

def test_a_claim_with_no_position_ever_entered_is_on_the_tables_word():
    t = play(game(RISK, {"mode": "missions"}, MISSIONS), {"kind": "round"})
    assert unproven_claim(t.state, "Ana") == "No positions were entered"
    # The rules still record it: the group vouched for it at the table.
    won = play(t, {"kind": "mission_complete", "player": "Ana"})
    assert won.state.winners == ("Ana",) and won.state.format == "secret_mission"


def test_a_claim_the_latest_position_contradicts_says_why():
    t = play(game(RISK, {"mode": "missions"}, MISSIONS), closed(**BEFORE))
    assert unproven_claim(t.state, "Ana") == (
        "The latest position entered says otherwise (Ana does not hold Asia and Africa)")
    assert unproven_claim(t.state, "Bo") == (
        "The latest position entered says otherwise (Bo holds 12 territories and needs 24)")


def test_a_claim_the_tracker_can_check_needs_nobody_to_vouch():
    t = play(game(RISK, {"mode": "missions"}, MISSIONS),
             closed(Ana=P(14, 20), Bo=P(24, 30), Cy=P(4, 4)))
    assert unproven_claim(t.state, "Bo") == ""  # the latest position shows 24
    assert unproven_claim(t.state, "Cy") == ""  # a destroy mission: the eliminations prove it


def test_a_claim_with_a_position_is_still_checked_against_it():
    t = play(game(RISK, {"mode": "missions"}, MISSIONS), {"kind": "round"})
    with pytest.raises(RuleError, match="Bo holds 20 territories and needs 24"):
        play(t, {"kind": "mission_complete", "player": "Bo",
                 "positions": {"Ana": P(12, 12), "Bo": P(20, 20), "Cy": P(10, 10)}})


# ---------------------------------------------------------------- 2. a stalemate, scored

def after_elimination() -> Timeline:
    """Round 6 closed with BEFORE, then Ana eliminates Bo and takes his 12 territories."""
    t = play(game(RISK, {"mode": "conquest"}, THREE), *[{"kind": "round"}] * 5,
             closed(**BEFORE))
    return play(t, {"kind": "eliminate", "player": "Bo", "by": "Ana"})


def test_a_stalemate_after_an_elimination_asks_for_the_current_position():
    t = after_elimination()
    with pytest.raises(RuleError) as refused:
        play(t, {"kind": "stalemate", "resolution": "fixed_round"})
    assert str(refused.value) == (
        "The latest position was entered before Bo's elimination by Ana: enter every "
        "player's territories, armies and continents as they stand now to score the stalemate")


def test_a_stalemate_scores_the_position_given_with_it():
    now = {"Ana": P(32, 60, "North America", "South America"), "Cy": P(10, 15, "Australia")}
    t = play(after_elimination(), {"kind": "stalemate", "resolution": "fixed_round",
                                   "positions": now})
    report = RISK.report(t.state).to_json()
    scores = {s["player"]: s["score"] for s in report["standings"]}
    assert scores == {"Ana": 32 + 7 + 12, "Cy": 10 + 2 + 3, "Bo": 0}
    assert sum(s["territories"] for s in report["standings"]) == 42
    assert t.steps[-1].to_json() == {"kind": "stalemate", "resolution": "fixed_round",
                                     "positions": now}


def test_a_concession_also_makes_the_latest_position_old():
    t = play(game(RISK, {"mode": "conquest"}, THREE), closed(**BEFORE),
             {"kind": "concede", "player": "Cy", "accepted": True, "to": "Bo"})
    with pytest.raises(RuleError, match="entered before Cy's concession to Bo"):
        play(t, {"kind": "stalemate", "resolution": "fixed_round"})


def test_a_position_entered_after_the_elimination_is_current():
    t = play(after_elimination(), closed(Ana=P(30, 50, "North America"), Cy=P(12, 20)),
             {"kind": "stalemate", "resolution": "fixed_round"})
    assert t.state.winners == ("Ana",) and t.state.format == "fixed_round"


def test_a_stalemate_an_earlier_version_stored_still_scores_as_it_did():
    t = after_elimination()
    with stored_rows():  # the fold of a stored game: the new rule is not applied
        old = play(t, {"kind": "stalemate", "resolution": "fixed_round"})
    assert old.state.winners == ("Ana",)
    assert sum(p.territories for p in old.state.positions.values()) == 30


@pytest.mark.parametrize("resolution, extra", [("draw", {}), ("agreed", {"winner": "Ana"})])
def test_only_a_scored_stalemate_takes_positions(resolution, extra):
    with pytest.raises(RuleError, match=f"A {resolution} stalemate scores nothing"):
        read_step(RISK, {"kind": "stalemate", "resolution": resolution, **extra,
                         "positions": BEFORE})


# ---------------------------------------------------------------- 3. a correction's reason

def soe_game() -> Timeline:
    return game(SOE, {}, [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"}])


@pytest.mark.parametrize("note", [None, "", "   "])
def test_a_correction_without_its_reason_is_refused(note):
    step = {"kind": "adjust", "power": "France", "gold": -3}
    if note is not None:
        step["note"] = note
    t = soe_game()
    with pytest.raises(RuleError) as refused:
        play(t, step)
    assert str(refused.value) == ("Say why France's correction is made (a battle, a colony, "
                                  "building…): a correction needs its reason")


def test_a_correction_with_its_reason_is_recorded():
    t = play(soe_game(), {"kind": "adjust", "power": "France", "gold": -3,
                          "note": "lost a battle"})
    assert t.state.empires["France"].gold == 7


def test_a_correction_an_earlier_version_stored_without_a_reason_still_folds():
    with stored_rows():
        t = play(soe_game(), {"kind": "adjust", "power": "France", "gold": -3})
    assert t.state.empires["France"].gold == 7


def test_the_numbers_are_checked_before_the_reason():
    with pytest.raises(RuleError, match="France has 10 gold: cannot take off 11"):
        play(soe_game(), {"kind": "adjust", "power": "France", "gold": -11})


# ---------------------------------------------------------------- 4. rounds, counted once

ENDINGS_IN_ROUND_1 = {
    "claim": ({"mode": "missions"}, MISSIONS, {"kind": "mission_complete", "player": "Ana"}),
    "stalemate draw": ({"mode": "conquest"}, THREE, {"kind": "stalemate", "resolution": "draw"}),
    "stalemate agreed": ({"mode": "conquest"}, THREE,
                         {"kind": "stalemate", "resolution": "agreed", "winner": "Bo"}),
    "stalemate scored": ({"mode": "conquest"}, THREE,
                         {"kind": "stalemate", "resolution": "fixed_round", "positions": BEFORE}),
    "conquest": ({"mode": "conquest"}, THREE[:2],
                 {"kind": "eliminate", "player": "Bo", "by": "Ana"}),
    "concession": ({"mode": "conquest"}, THREE[:2],
                   {"kind": "concede", "player": "Bo", "accepted": True, "to": "Ana"}),
}


@pytest.mark.parametrize("ending", ENDINGS_IN_ROUND_1)
def test_any_ending_during_round_1_records_1_round(ending):
    settings, players, step = ENDINGS_IN_ROUND_1[ending]
    t = play(game(RISK, settings, players), step)
    assert t.state.finished
    assert (t.state.rounds_played, RISK.report(t.state).to_json()["rounds"]) == (1, 1)


@pytest.mark.parametrize("ending", ENDINGS_IN_ROUND_1)
def test_any_ending_during_round_4_records_4_rounds(ending):
    settings, players, step = ENDINGS_IN_ROUND_1[ending]
    t = play(game(RISK, settings, players), *[{"kind": "round"}] * 3, step)
    assert RISK.report(t.state).to_json()["rounds"] == 4


def test_a_scored_stalemate_records_the_same_rounds_tied_or_not():
    tie = {"Ana": P(21, 22, "Australia"), "Bo": P(21, 22, "South America")}
    tied = play(game(RISK, {"mode": "conquest"}, THREE[:2]), {"kind": "round"},
                {"kind": "stalemate", "resolution": "fixed_round", "positions": tie},
                {"kind": "tiebreak", "resolution": "shared"})
    won = play(game(RISK, {"mode": "conquest"}, THREE[:2]), {"kind": "round"},
               {"kind": "stalemate", "resolution": "fixed_round",
                "positions": {"Ana": P(22, 22, "Australia"), "Bo": P(20, 22)}})
    assert tied.state.result == "shared" and won.state.winners == ("Ana",)
    assert tied.state.rounds_played == won.state.rounds_played == 2


def test_a_stalemate_scored_to_a_tie_ends_its_round_and_the_extra_round_follows_it():
    tie = {"Ana": P(21, 22, "Australia"), "Bo": P(21, 22, "South America")}
    t = play(game(RISK, {"mode": "conquest"}, THREE[:2]), {"kind": "round"},
             {"kind": "stalemate", "resolution": "fixed_round", "positions": tie})
    with pytest.raises(RuleError, match="Ana and Bo are tied after round 2"):
        play(t, {"kind": "round"})
    t = play(t, {"kind": "tiebreak", "resolution": "extra_round"})
    assert t.state.rounds_target == 3  # one more complete round after the stalemate's
    t = play(t, closed(Ana=P(22, 22, "Australia"), Bo=P(20, 22)))
    assert (t.state.winners, RISK.report(t.state).to_json()["rounds"]) == (("Ana",), 3)


def test_a_fixed_round_game_records_the_rounds_closed():
    t = play(game(RISK, {"mode": "fixed_rounds", "rounds": 2}, THREE), {"kind": "round"},
             closed(**BEFORE))
    assert t.state.finished and RISK.report(t.state).to_json()["rounds"] == 2


def test_a_game_in_progress_reports_the_rounds_closed():
    t = play(game(RISK, {"mode": "conquest"}, THREE), {"kind": "round"}, {"kind": "round"},
             {"kind": "eliminate", "player": "Cy", "by": "Ana"})
    assert not t.state.finished and RISK.report(t.state).to_json()["rounds"] == 2


# ---------------------------------------------------------------- 5. a tie explained once

def test_a_tie_with_a_non_player_power_has_one_reason():
    awards = score_region("Mediterranean", (7, 4, 2), {"France": 2, "Spain": 2, "Britain": 1},
                          frozenset({"France", "Britain", "Austria", "Prussia"}),
                          player_count=4)
    reasons = {a.power: a.reason for a in awards}
    tie = "France and Spain tied for 1st: (7+4)/2 = 5 each (Spain: non-player power, discarded)"
    assert reasons == {"France": tie, "Spain": tie, "Britain": "Britain 3rd: 2"}
    assert {a.power: a.vp for a in awards} == {"France": 5, "Spain": 0, "Britain": 2}


def test_a_tie_of_three_names_every_non_player_power_once():
    awards = score_region("German States", (8, 5, 3), {"France": 1, "Spain": 1, "Russia": 1},
                          frozenset({"France", "Britain"}), player_count=2)
    assert {a.reason for a in awards} == {
        "France, Spain and Russia tied for 1st, unfriendly: 2nd place's 5 each "
        "(Spain and Russia: non-player powers, discarded)"}
