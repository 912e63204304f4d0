"""Risk rules (RULES.md part A): board, settings, seats, missions, steps, scoring, report."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.outcome import Progress, Summary
from rules.risk import (
    CONTINENTS,
    DEFAULT_COLOURS,
    RISK,
    Position,
    continent_named,
    deal,
    deck,
    explain_scores,
    explain_tiebreak,
    mission_text,
    positions_from_owners,
    read_players,
    read_settings,
    summary,
)
from rules.timeline import Timeline, read_step

pytestmark = pytest.mark.unit  # no app, database or subprocess: `pytest -m unit`

# The printed board, written out again so the tests do not trust the module's table.
BOARD = {"North America": (9, 5), "South America": (4, 2), "Europe": (7, 5),
         "Africa": (6, 3), "Asia": (12, 7), "Australia": (4, 2)}
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay")


def new_game(n: int = 3, colours=None, missions=None, **opts) -> Timeline:
    """A timeline at the start of a Risk game with the first n names."""
    settings_ = RISK.read_settings(opts)
    colours = colours or DEFAULT_COLOURS
    players = []
    for i in range(n):
        seat = {"name": NAMES[i], "color": colours[i]}
        if missions:
            seat["mission"] = missions[i]
        players.append(seat)
    return Timeline(RISK, RISK.start(settings_, RISK.read_players(players, settings_)))


def play(t: Timeline, *steps: dict) -> Timeline:
    """Record JSON steps one after the other."""
    for step in steps:
        t = t.then(read_step(RISK, step))
    return t


def P(territories: int, armies: int, *continents: str) -> dict:
    return {"territories": territories, "armies": armies, "continents": list(continents)}


def rnd(**positions) -> dict:
    return {"kind": "round", "positions": positions} if positions else {"kind": "round"}


def to_last_round(t: Timeline) -> Timeline:
    """Play empty rounds until the next round is the scored one."""
    while t.state.round + 1 < t.state.rounds_target:
        t = play(t, rnd())
    return t


def refused(t: Timeline, step: dict, *fragments: str) -> None:
    with pytest.raises(RuleError) as err:
        play(t, step)
    for fragment in fragments:
        assert fragment in str(err.value), str(err.value)


def standing(t: Timeline, name: str) -> dict:
    return next(s for s in RISK.report(t.state).to_json()["standings"] if s["player"] == name)


# --- board, settings, seats ---------------------------------------------------------------


def test_board_matches_rules():
    assert {c: (len(ts), b) for c, (ts, b) in CONTINENTS.items()} == BOARD
    assert list(CONTINENTS) == list(BOARD)
    names = [t for ts, _ in CONTINENTS.values() for t in ts]
    assert len(names) == len(set(names)) == 42
    assert "Kamchatka" in CONTINENTS["Asia"][0] and "Peru" in CONTINENTS["South America"][0]
    assert DEFAULT_COLOURS == ("red", "blue", "green", "yellow", "black", "pink")


@pytest.mark.parametrize("name,canonical", [
    ("Australasia", "Australia"), ("oceania", "Australia"), ("ASIA", "Asia"),
    ("south-america", "South America"), (" north  america ", "North America"),
])
def test_continent_named(name, canonical):
    assert continent_named(name) == canonical


def test_unknown_continent():
    with pytest.raises(RuleError, match="'Atlantis' is not a continent"):
        continent_named("Atlantis")


def test_settings_defaults_and_round_trip():
    for empty in (None, {}):
        s = read_settings(empty)
        assert (s.mode, s.rounds, s.mission_deck) == ("fixed_rounds", 10, "european")
    s = read_settings({"mode": "missions", "rounds": 8, "mission_deck": "us1993"})
    assert read_settings(s.to_json()) == s
    assert s.to_json() == {"mode": "missions", "rounds": 8, "mission_deck": "us1993"}


@pytest.mark.parametrize("data,fragment", [
    ({"rounds": 0}, "at least 1"), ({"rounds": 51}, "at most 50"),
    ({"rounds": "10"}, "whole number"), ({"rounds": 9.5}, "whole number"),
    ({"rounds": True}, "whole number"), ({"mode": "domination"}, "must be one of"),
    ({"mission_deck": "asian"}, "must be one of"), ({"turns": 3}, "unknown key 'turns'"),
    ([], "must be an object"),
])
def test_bad_settings(data, fragment):
    with pytest.raises(RuleError, match=fragment):
        read_settings(data)


def seats(*rows, **opts):
    return read_players([dict(r) for r in rows], read_settings(opts))


def test_players_read_and_round_trip():
    got = seats({"name": " Ana ", "color": "Red"}, {"name": "Bo", "color": "blue"})
    assert [(s.name, s.color, s.mission) for s in got] == [("Ana", "red", None),
                                                           ("Bo", "blue", None)]
    assert got[0].to_json() == {"name": "Ana", "color": "red"}
    m = seats({"name": "Ana", "color": "red", "mission": "24"},
              {"name": "Bo", "color": "blue", "mission": "Asia+Africa"}, mode="missions")
    assert m[1].to_json() == {"name": "Bo", "color": "blue", "mission": "asia+africa"}


@pytest.mark.parametrize("rows,opts,fragment", [
    ([{"name": "Ana", "color": "red"}], {}, "2 to 6 players, not 1"),
    ([{"name": n, "color": c} for n, c in zip(NAMES + ("Gus",), DEFAULT_COLOURS + ("white",),
                                               strict=True)], {}, "not 7"),
    ([{"name": "Ana", "color": "red"}, {"name": "ANA", "color": "blue"}], {},
     "Two players are named ANA"),
    ([{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "RED"}], {},
     "Ana and Bo both play red"),
    ([{"name": "Ana"}, {"name": "Bo", "color": "blue"}], {}, "missing 'color'"),
    ([{"name": "Ana", "color": "red", "age": 3}, {"name": "Bo", "color": "blue"}], {},
     "unknown key 'age'"),
    ([{"name": "", "color": "red"}, {"name": "Bo", "color": "blue"}], {}, "non-empty"),
    ([{"name": "Ana", "color": "red", "mission": "24"}, {"name": "Bo", "color": "blue"}], {},
     "Ana has a mission, but missions are only dealt in a missions game"),
    ([{"name": "Ana", "color": "red", "mission": "24"}, {"name": "Bo", "color": "blue"}],
     {"mode": "missions"}, "Bo needs a mission card"),
    ([{"name": "Ana", "color": "red", "mission": "moon"},
      {"name": "Bo", "color": "blue", "mission": "24"}], {"mode": "missions"},
     "Ana's mission 'moon' is not a card of the european deck"),
    ([{"name": "Ana", "color": "red", "mission": "24"},
      {"name": "Bo", "color": "blue", "mission": "24"}], {"mode": "missions"},
     "Ana and Bo both hold the card 'Occupy 24 territories'"),
    ([{"name": "Ana", "color": "red", "mission": "europe+australia+any"},
      {"name": "Bo", "color": "blue", "mission": "24"}],
     {"mode": "missions", "mission_deck": "us1993"}, "only in the european deck"),
    ([{"name": "Ana", "color": "red", "mission": "destroy:pink"},
      {"name": "Bo", "color": "blue", "mission": "24"}],
     {"mode": "missions", "mission_deck": "us1993"},
     "'Destroy all pink armies' is not in the us1993 deck"),
])
def test_bad_players(rows, opts, fragment):
    with pytest.raises(RuleError, match=fragment):
        seats(*rows, **opts)


def test_decks_and_deal():
    eu = deck(read_settings({"mission_deck": "european"}), ["red", "blue", "green"])
    assert len(eu) == 14 and "destroy:pink" in eu and "europe+australia+any" in eu
    us = deck(read_settings({"mission_deck": "us1993"}), ["red", "blue", "green"])
    assert len(deck(read_settings({"mission_deck": "us1993"}), DEFAULT_COLOURS)) == 12
    assert sorted(c for c in us if c.startswith("destroy:")) == [
        "destroy:blue", "destroy:green", "destroy:red"]
    assert "europe+australia+any" not in us
    s = read_settings({"mode": "missions"})
    hands = deal(s, ["red", "blue", "green", "pink"], random.Random(7))
    assert len(hands) == len(set(hands)) == 4 and set(hands) <= set(deck(s, DEFAULT_COLOURS))
    assert hands == deal(s, ["red", "blue", "green", "pink"], random.Random(7))


@pytest.mark.parametrize("card,words", [
    ("asia+south-america", "Conquer Asia and South America"),
    ("north-america+australia", "Conquer North America and Australia"),
    ("europe+south-america+any", "Conquer Europe, South America and one more continent"),
    ("18x2", "Occupy 18 territories with at least 2 armies on each"),
    ("24", "Occupy 24 territories"), ("destroy:blue", "Destroy all blue armies"),
])
def test_mission_text(card, words):
    assert mission_text(card).startswith(words)


# --- worked examples (RULES.md A.3) -------------------------------------------------------

EXAMPLES = [
    ({"Ana": P(16, 40, "Australia", "South America"), "Bo": P(14, 37, "Africa"),
      "Cy": P(12, 30)}, {"Ana": 28, "Bo": 24, "Cy": 18}, "Ana"),
    ({"Ana": P(15, 22, "North America"), "Bo": P(17, 29, "Australia"), "Cy": P(10, 12)},
     {"Ana": 24, "Bo": 24, "Cy": 12}, "Bo"),
    ({"Ana": P(14, 24, "South America", "Australia"), "Bo": P(14, 27, "Africa"),
      "Cy": P(14, 20)}, {"Ana": 22, "Bo": 22, "Cy": 18}, "Ana"),
    ({"Ana": P(14, 29, "Australia"), "Bo": P(14, 25, "South America"), "Cy": P(14, 18)},
     {"Ana": 21, "Bo": 21, "Cy": 17}, "Ana"),
]


@pytest.mark.parametrize("positions,scores,winner", EXAMPLES)
def test_worked_examples(positions, scores, winner):
    t = to_last_round(new_game(3, rounds=8))
    assert t.state.round == 7 and not t.state.finished
    t = play(t, rnd(**positions))
    rep = RISK.report(t.state).to_json()
    assert (rep["status"], rep["result"], rep["format"], rep["winners"], rep["rounds"]) == (
        "finished", "win", "fixed_round", [winner], 8)
    assert {s["player"]: s["score"] for s in rep["standings"]} == scores
    assert rep["standings"][0]["player"] == winner and rep["standings"][0]["rank"] == 1
    assert [s["rank"] for s in rep["standings"]] == [1, 2, 3]


def test_explanations_of_the_examples():
    def positions(i):
        return {n: Position(p["territories"], p["armies"], tuple(p["continents"]))
                for n, p in EXAMPLES[i][0].items()}
    assert explain_scores(positions(0))["Ana"] == (
        "16 territories + 4 (Australia 2, South America 2) + 40/5 = 8 -> 28")
    assert explain_scores(positions(0))["Cy"] == "12 territories + 0 + 30/5 = 6 -> 18"
    assert explain_tiebreak(positions(1)) == "Ana and Bo 24 each; Bo holds 17 territories to Ana's 15"
    assert explain_tiebreak(positions(2)) == (
        "Ana and Bo 22 each; equal territories; Ana holds 2 continents to Bo's 1")
    assert explain_tiebreak(positions(3)) == (
        "Ana and Bo 21 each; equal territories; equal continents; Ana has 29 armies to Bo's 25")
    assert explain_tiebreak(positions(0)) == "Ana leads with 28 to Bo's 24 and Cy's 18"


def test_territories_break_a_tie_before_continents():
    positions = {"Ana": P(22, 22), "Bo": P(20, 20, "Australia")}  # 26 each
    t = play(to_last_round(new_game(2, rounds=2)), rnd(**positions))
    assert t.state.winners == ("Ana",)
    assert [(s["player"], s["score"], s["rank"]) for s in RISK.report(t.state).to_json()["standings"]] == [
        ("Ana", 26, 1), ("Bo", 26, 2)]
    assert explain_tiebreak({n: Position(p["territories"], p["armies"], tuple(p["continents"]))
                             for n, p in positions.items()}) == (
        "Ana and Bo 26 each; Ana holds 22 territories to Bo's 20")


TIE = {"Ana": P(21, 22, "Australia"), "Bo": P(21, 22, "South America")}


def test_full_tie_then_shared_victory():
    t = play(to_last_round(new_game(2, rounds=3)), rnd(**TIE))
    assert (t.state.phase, t.state.finished, t.state.tied) == ("tiebreak", False, ("Ana", "Bo"))
    rep = RISK.report(t.state).to_json()
    assert rep["status"] == "in_progress" and rep["phase"] == "tiebreak" and rep["round"] == 3
    assert [(s["score"], s["rank"]) for s in rep["standings"]] == [(27, 1), (27, 1)]
    refused(t, {"kind": "stalemate", "resolution": "draw"}, "Ana and Bo are tied after round 3")
    t = play(t, {"kind": "tiebreak", "resolution": "shared"})
    rep = RISK.report(t.state).to_json()
    assert (rep["result"], rep["format"], rep["winners"], rep["rounds"]) == (
        "shared", "fixed_round", ["Ana", "Bo"], 3)
    assert summary(t.state).leader == "Ana and Bo"


def test_full_tie_then_extra_round_counts():
    t = play(to_last_round(new_game(2, rounds=3)), rnd(**TIE),
             {"kind": "tiebreak", "resolution": "extra_round"})
    assert (t.state.phase, t.state.rounds_target) == ("round", 4)
    refused(t, rnd(), "Round 4 is an extra round")
    t = play(t, rnd(Ana=P(20, 30), Bo=P(22, 22, "South America")))
    assert (t.state.winners, t.state.rounds_played, t.state.format) == (("Bo",), 4, "fixed_round")
    assert RISK.report(t.state).to_json()["rounds"] == 4


def test_tiebreak_only_after_a_tie():
    refused(new_game(), {"kind": "tiebreak", "resolution": "shared"}, "There is no tie to break")


def test_last_round_needs_positions_earlier_ones_do_not():
    t = play(new_game(3, rounds=2), rnd())
    assert t.state.round == 1 and t.state.positions == {}
    refused(t, rnd(), "Round 2 is the last agreed round")


def test_which_round_is_scored():
    t = new_game(3, rounds=2)
    assert not t.state.scores_this_round
    assert play(t, rnd()).state.scores_this_round  # round 2 of 2 is scored
    assert not new_game(3, mode="conquest").state.scores_this_round


def test_next_in_seat_order_skips_the_eliminated():
    t = new_game(4, mode="conquest")
    assert t.state.next_in_seat_order("Ana") == "Bo"
    assert t.state.next_in_seat_order("Di") == "Ana"
    t = play(t, {"kind": "eliminate", "player": "Bo", "by": "Cy"})
    assert t.state.next_in_seat_order("Ana") == "Cy"


def test_positions_from_territory_owners():
    state = play(new_game(3), {"kind": "eliminate", "player": "Cy", "by": "Bo"}).state
    owners = {t: 2 for names, _ in CONTINENTS.values() for t in names}  # Bo holds all...
    australia = CONTINENTS["Australia"][0]
    owners |= {australia[0]: 1, australia[1]: "Ana", australia[2]: "bo", australia[3]: 1}
    armies = {australia[0]: 0, australia[1]: 4}  # 0 armies on a held territory count as 1
    got = positions_from_owners(state, owners, armies)
    assert got == {"Ana": Position(3, 6),  # ...but Australia, split between seats
                   "Bo": Position(39, 39, ("North America", "South America", "Europe",
                                           "Africa", "Asia"))}


def test_positions_so_far_leave_out_territories_with_no_owner():
    state = new_game(2).state
    owners = dict.fromkeys(CONTINENTS["Australia"][0], 1) | {"Alaska": 2, "Peru": 0}
    got = positions_from_owners(state, owners, {"Alaska": 3}, so_far=True)
    assert got == {"Ana": Position(4, 4, ("Australia",)), "Bo": Position(1, 3)}


def everyone(owner):
    """Every territory of the board held by `owner`, written out again from BOARD's sizes."""
    return {t: owner for names, _ in CONTINENTS.values() for t in names}


@pytest.mark.parametrize("owners,armies,message", [
    ({"Alaska": 4}, {}, "Alaska: there is no seat 4 (the seats are 1 to 3)"),
    ({"Alaska": -1}, {}, "Alaska: there is no seat -1 (the seats are 1 to 3)"),
    ({"Peru": 3}, {}, "Peru: Cy (seat 3) is out of the game and holds no territory"),
    ({"Peru": "cy"}, {}, "Peru: Cy (seat 3) is out of the game and holds no territory"),
    ({"Peru": "Dan"}, {}, "Dan is not a player in this game (the players are Ana, Bo and Cy)"),
    ({"Atlantis": 1}, {}, "Atlantis is not a territory of the board"),
    ({}, {"Atlantis": 2}, "Atlantis is not a territory of the board"),
    ({}, {"Peru": -2}, "The armies on Peru must be at least 0, not -2"),
    ({"Peru": 0}, {}, "1 of the 42 territories has no owner yet (Peru): type the owner's "
                      "seat number, 1 to 3"),
    ({"Peru": None, "Brazil": 0, "Alaska": 0, "Ontario": 0, "Siam": 0}, {},
     "5 of the 42 territories have no owner yet (Alaska, Ontario, Brazil, Peru, …): type "
     "the owner's seat number, 1 to 3"),
])
def test_positions_from_owners_refuse_what_the_board_cannot_hold(owners, armies, message):
    """Nothing is dropped in silence: a seat not at the table, a player out of the game, a
    territory not on the board or held by nobody is refused in the players' words."""
    state = play(new_game(3), {"kind": "eliminate", "player": "Cy", "by": "Bo"}).state
    with pytest.raises(RuleError) as caught:
        positions_from_owners(state, everyone(1) | owners, armies)
    assert str(caught.value) == message


def test_positions_from_owners_count_42_territories():
    state = new_game(2).state
    short = everyone(2)
    del short["Japan"]  # a board of 41: Japan has no owner
    with pytest.raises(RuleError, match=r"^1 of the 42 territories has no owner yet \(Japan\)"):
        positions_from_owners(state, short, {})
    assert positions_from_owners(state, short, {}, so_far=True)["Bo"].territories == 41


# --- position checks ----------------------------------------------------------------------

OK = {"Ana": P(16, 40, "Australia", "South America"), "Bo": P(14, 37, "Africa"),
      "Cy": P(12, 30)}


@pytest.mark.parametrize("change,fragments", [
    ({"Cy": P(10, 30)}, ["Ana holds 16 territories and Bo 14 and Cy 10: 40 in all, "
                         "but every one of the 42 territories is held by someone"]),
    ({"Cy": P(14, 30)}, ["44 in all", "only 42 territories"]),
    ({"Cy": P(9, 30, "Asia")}, ["Cy cannot hold Asia with 9 territories: Asia has 12"]),
    ({"Bo": P(14, 37, "Asia", "Africa")},
     ["Bo cannot hold Africa and Asia with 14 territories: they have 18 between them"]),
    ({"Bo": P(14, 12)}, ["Bo has 12 armies on 14 territories: every territory needs"]),
    ({"Bo": P(14, 37, "Australia")}, ["Australia cannot be held by both Ana and Bo"]),
    ({"Cy": None}, ["leave out Cy, who is still in the game"]),
    ({"Dan": P(0, 0)}, ["Dan is not a player in this game"]),
    ({"cy": P(12, 30)}, ["The positions list Cy twice"]),
    ({"Cy": P(-1, 30)}, ["Cy's territories must be at least 0"]),
    ({"Cy": P(43, 50)}, ["Cy's territories must be at most 42"]),
    ({"Cy": {"territories": "12", "armies": 30}}, ["Cy's territories must be a whole number"]),
    ({"Cy": {"territories": 12, "armies": 30, "cards": 2}}, ["unknown key 'cards'"]),
    ({"Cy": {"territories": 12}}, ["missing 'armies'"]),
    ({"Cy": P(12, 30, "Mu")}, ["'Mu' is not a continent"]),
    ({"Cy": P(12, 30, "Asia", "asia")}, ["Cy's continents list Asia twice"]),
    ({"Cy": {"territories": 12, "armies": 30, "continents": "Asia"}}, ["must be a list"]),
])
def test_position_checks(change, fragments):
    positions = dict(OK) | change
    positions = {k: v for k, v in positions.items() if v is not None}
    t = new_game(3, rounds=2)
    refused(t, rnd(**positions), *fragments)
    refused(t, {"kind": "round", "positions": ["Ana"]}, "positions must be an object")


def test_positions_accept_any_case_and_alias():
    t = play(new_game(3), rnd(ana=P(16, 40, "oceania", "south america"), BO=P(14, 37, "africa"),
                              Cy=P(12, 30)))
    assert t.state.positions["Ana"] == Position(16, 40, ("South America", "Australia"))
    assert standing(t, "Ana")["continents"] == ["South America", "Australia"]
    assert standing(t, "Ana")["score"] == 28


def test_all_42_needs_eliminations_first():
    t = new_game(3)
    refused(t, rnd(Ana=P(42, 60, *BOARD), Bo=P(0, 0), Cy=P(0, 0)),
            "Ana holds all 42 territories: record the elimination of Bo and Cy first")


def test_eliminated_player_must_not_be_listed():
    t = play(new_game(3, mode="conquest"), {"kind": "eliminate", "player": "Cy", "by": "Ana"})
    refused(t, rnd(**OK), "Cy is out of the game (eliminated by Ana): leave Cy out")
    t = play(t, rnd(Ana=P(28, 40, "Australia", "South America"), Bo=P(14, 37, "Africa")))
    assert set(t.state.positions) == {"Ana", "Bo"}


# --- conquest, eliminations, concessions, stalemates --------------------------------------


def test_world_conquest():
    t = play(new_game(3, mode="conquest"), rnd(), rnd(),
             {"kind": "eliminate", "player": "Bo", "by": "Cy"})
    assert not t.state.finished and t.state.in_game == ("Ana", "Cy")
    refused(t, {"kind": "eliminate", "player": "Bo", "by": "Ana"}, "Bo is out of the game")
    refused(t, {"kind": "eliminate", "player": "Ana", "by": "Bo"}, "Bo is out of the game")
    refused(t, {"kind": "eliminate", "player": "Ana", "by": "Ana"}, "Ana cannot be eliminated by Ana")
    t = play(t, {"kind": "eliminate", "player": "cy", "by": "Ana"})
    rep = RISK.report(t.state).to_json()
    assert (rep["result"], rep["format"], rep["winners"], rep["rounds"]) == (
        "win", "world_conquest", ["Ana"], 3)
    assert [(s["player"], s["rank"], s["eliminated"]) for s in rep["standings"]] == [
        ("Ana", 1, False), ("Cy", 2, True), ("Bo", 3, True)]  # the last out highest
    with pytest.raises(RuleError, match="The game is over"):
        play(t, rnd())


def test_concession_refused_changes_nothing_but_is_kept():
    t = play(new_game(3, mode="conquest"), rnd())
    t2 = play(t, {"kind": "concede", "player": "Bo", "accepted": False})
    assert t2.state.in_game == t.state.in_game and t2.state.round == t.state.round
    assert not t2.state.finished and t2.state.eliminated == {}
    assert [(c.player, c.accepted) for c in t2.state.concessions] == [("Bo", False)]
    assert t2.steps[-1].to_json() == {"kind": "concede", "player": "Bo", "accepted": False}


def test_concession_accepted():
    t = play(new_game(3, mode="conquest"), {"kind": "concede", "player": "Bo", "accepted": True,
                                            "to": "Cy"})
    assert t.state.eliminated == {"Bo": "Cy"} and not t.state.finished
    t = play(t, {"kind": "concede", "player": "Cy", "accepted": True, "to": "Ana"})
    assert (t.state.result, t.state.format, t.state.winners) == ("win", "concession", ("Ana",))
    refused(new_game(2), {"kind": "concede", "player": "Bo", "accepted": True},
            "Bo's accepted concession must say who receives")
    refused(new_game(2), {"kind": "concede", "player": "Bo", "accepted": True, "to": "Bo"},
            "Bo's territories cannot go to Bo")
    refused(new_game(2), {"kind": "concede", "player": "Bo", "accepted": "yes", "to": "Ana"},
            "must be true or false")


def test_stalemate_draw_and_agreed():
    t = play(new_game(3, mode="conquest"), {"kind": "stalemate", "resolution": "draw"})
    rep = RISK.report(t.state).to_json()
    assert (rep["result"], rep["format"], rep["winners"]) == ("draw", "draw", [])
    t = play(new_game(3, mode="conquest"), {"kind": "stalemate", "resolution": "agreed",
                                            "winner": "Cy"})
    assert (t.state.result, t.state.format, t.state.winners) == ("win", "agreed", ("Cy",))
    assert RISK.report(t.state).to_json()["standings"][0]["player"] == "Cy"
    refused(new_game(), {"kind": "stalemate", "resolution": "agreed"}, "must name the winner")
    refused(new_game(), {"kind": "stalemate", "resolution": "draw", "winner": "Ana"},
            "names no winner")
    refused(new_game(), {"kind": "stalemate", "resolution": "agreed", "winner": "Zed"},
            "Zed is not a player")


def test_stalemate_fixed_round_scores_latest_positions():
    t = new_game(3, mode="conquest")
    refused(t, {"kind": "stalemate", "resolution": "fixed_round"}, "No position has been recorded")
    t = play(t, rnd(**EXAMPLES[1][0]), rnd(), {"kind": "stalemate", "resolution": "fixed_round"})
    # Declared during round 3: the round in progress counts, as for any ending during play.
    assert (t.state.winners, t.state.format, t.state.rounds_played) == (("Bo",), "fixed_round", 3)
    t = play(new_game(2, mode="conquest"), rnd(**TIE),
             {"kind": "stalemate", "resolution": "fixed_round"})
    assert t.state.phase == "tiebreak"
    t = play(t, {"kind": "tiebreak", "resolution": "extra_round"})
    assert t.state.rounds_target == 3
    t = play(t, rnd(Ana=P(22, 22, "Australia"), Bo=P(20, 22, "South America")))
    assert (t.state.winners, t.state.rounds_played) == (("Ana",), 3)


# --- missions -----------------------------------------------------------------------------


def missions_game(cards, deck_="european", n=None):
    return new_game(n or len(cards), missions=cards, mode="missions", mission_deck=deck_)


@pytest.mark.parametrize("deck_", ["european", "us1993"])
def test_own_colour_destroy_becomes_24(deck_):
    t = missions_game(["destroy:red", "destroy:green", "24"], deck_)
    assert t.state.missions == {"Ana": "24", "Bo": "destroy:green", "Cy": "24"}
    assert [(a.player, a.text) for a in t.state.announcements] == [
        ("Ana", "Ana's mission 'Destroy all red armies' names Ana's own colour: "
                "it becomes 'Occupy 24 territories'")]
    assert standing(t, "Ana")["mission"] == "24"
    assert t.state.seat("Ana").to_json()["mission"] == "destroy:red"  # the card is kept


def test_absent_colour_destroy_becomes_24_in_european():
    t = missions_game(["destroy:pink", "asia+africa", "18x2"])
    assert t.state.missions["Ana"] == "24"
    assert t.state.announcements[0].text == (
        "Ana's mission 'Destroy all pink armies' names a colour not in the game: "
        "it becomes 'Occupy 24 territories'")
    t = play(t, rnd())
    assert t.state.announcements == ()  # announcements belong to the latest step


def test_absent_colour_card_is_not_dealt_in_us1993():
    with pytest.raises(RuleError, match="not in the us1993 deck"):
        missions_game(["destroy:pink", "asia+africa", "18x2"], "us1993")


def test_destroy_target_eliminated_by_another_european():
    t = missions_game(["destroy:green", "asia+africa", "18x2", "24"])  # Ana must destroy Cy
    t = play(t, {"kind": "eliminate", "player": "Cy", "by": "Bo"})
    assert not t.state.finished and t.state.missions["Ana"] == "24"
    assert t.state.announcements[0].player == "Ana"
    assert "Bo eliminated green (Cy)" in t.state.announcements[0].text
    assert t.state.announcements[0].text.endswith("it becomes 'Occupy 24 territories'")
    refused(t, {"kind": "mission_complete", "player": "Ana",
                "positions": {"Ana": P(20, 40), "Bo": P(12, 30), "Di": P(10, 10)}},
            "Ana holds 20 territories and needs 24")


def test_destroy_target_eliminated_by_another_us1993_wins():
    t = missions_game(["destroy:green", "asia+africa", "18x2", "24"], "us1993")
    t = play(t, rnd(), {"kind": "eliminate", "player": "Cy", "by": "Bo"})
    rep = RISK.report(t.state).to_json()
    assert (rep["result"], rep["format"], rep["winners"], rep["rounds"]) == (
        "win", "secret_mission", ["Ana"], 2)


@pytest.mark.parametrize("deck_", ["european", "us1993"])
def test_destroy_target_eliminated_by_holder_wins(deck_):
    t = missions_game(["destroy:green", "asia+africa", "18x2", "24"], deck_)
    t = play(t, {"kind": "eliminate", "player": "Cy", "by": "Ana"})
    assert (t.state.result, t.state.format, t.state.winners) == ("win", "secret_mission", ("Ana",))


def test_concession_to_the_holder_completes_destroy():
    t = missions_game(["destroy:green", "asia+africa", "18x2"])
    t = play(t, {"kind": "concede", "player": "Cy", "accepted": True, "to": "Ana"})
    assert (t.state.format, t.state.winners) == ("secret_mission", ("Ana",))
    t = missions_game(["destroy:green", "asia+africa", "18x2", "24"])
    t = play(t, {"kind": "concede", "player": "Cy", "accepted": True, "to": "Di"})
    assert t.state.missions["Ana"] == "24" and not t.state.finished


MISSION_POS = {"Ana": P(20, 40, "Asia", "Africa"), "Bo": P(12, 30), "Cy": P(10, 10)}


@pytest.mark.parametrize("card,positions,fragment", [
    ("asia+south-america", MISSION_POS, "Ana does not hold South America"),
    ("europe+australia+any", {"Ana": P(13, 40, "Europe", "Australia"), "Bo": P(19, 30),
                              "Cy": P(10, 10)}, "Ana holds Europe and Australia but no third"),
    ("24", MISSION_POS, "Ana holds 20 territories and needs 24"),
    ("18x2", {"Ana": P(17, 40), "Bo": P(15, 30), "Cy": P(10, 10)}, "holds 17 territories and needs 18"),
    ("18x2", {"Ana": P(20, 37), "Bo": P(12, 30), "Cy": P(10, 10)},
     "Ana has 37 armies on 20 territories, and 2 on each of 18 with 1 on the others needs 38"),
])
def test_mission_claim_refused(card, positions, fragment):
    t = missions_game([card, "destroy:red", "north-america+africa"])
    refused(t, {"kind": "mission_complete", "player": "Ana", "positions": positions},
            f"Ana's mission '{mission_text(card)}' is not complete", fragment)


@pytest.mark.parametrize("card,positions", [
    ("asia+africa", MISSION_POS),
    ("europe+australia+any", {"Ana": P(25, 40, "Europe", "Australia", "Asia"), "Bo": P(7, 30),
                              "Cy": P(10, 10)}),
    ("24", {"Ana": P(24, 24), "Bo": P(8, 30), "Cy": P(10, 10)}),
    ("18x2", {"Ana": P(20, 38), "Bo": P(12, 30), "Cy": P(10, 10)}),
])
def test_mission_claim_accepted(card, positions):
    t = missions_game([card, "destroy:red", "north-america+africa"])
    t = play(t, rnd(), {"kind": "mission_complete", "player": "Ana", "positions": positions})
    rep = RISK.report(t.state).to_json()
    assert (rep["result"], rep["format"], rep["winners"], rep["rounds"]) == (
        "win", "secret_mission", ["Ana"], 2)
    assert standing(t, "Ana")["territories"] == positions["Ana"]["territories"]


def test_mission_claims_other_cases():
    t = missions_game(["destroy:blue", "24", "18x2"])
    refused(t, {"kind": "mission_complete", "player": "Ana"},
            "'Destroy all blue armies' is not complete: blue (Bo) is still in the game")
    refused(new_game(3), {"kind": "mission_complete", "player": "Ana"}, "no secret missions")
    # Without positions the group's word is taken (counts cannot be checked).
    t = play(missions_game(["24", "asia+africa"]), {"kind": "mission_complete", "player": "Bo"})
    assert t.state.winners == ("Bo",)
    # A mission winner ranks first even with a lower score.
    t = play(missions_game(["24", "asia+africa"]),
             {"kind": "mission_complete", "player": "Bo",
              "positions": {"Ana": P(24, 50), "Bo": P(18, 18, "Asia", "Africa")}})
    assert [s["player"] for s in RISK.report(t.state).to_json()["standings"]] == ["Bo", "Ana"]
    assert standing(t, "Ana")["score"] > standing(t, "Bo")["score"]


# --- steps, JSON, undo --------------------------------------------------------------------

STEPS = [
    {"kind": "round"},
    {"kind": "round", "positions": {"Ana": P(16, 40, "South America", "Australia")}},
    {"kind": "eliminate", "player": "Cy", "by": "Ana"},
    {"kind": "concede", "player": "Bo", "accepted": True, "to": "Ana"},
    {"kind": "concede", "player": "Bo", "accepted": False},
    {"kind": "stalemate", "resolution": "draw"},
    {"kind": "stalemate", "resolution": "agreed", "winner": "Ana"},
    {"kind": "mission_complete", "player": "Ana"},
    {"kind": "mission_complete", "player": "Ana", "positions": {"Ana": P(24, 30)}},
    {"kind": "tiebreak", "resolution": "extra_round"},
]


@pytest.mark.parametrize("data", STEPS)
def test_steps_round_trip(data):
    step = RISK.read_step(data)
    assert step.kind == data["kind"] and step.to_json() == data
    assert RISK.read_step(step.to_json()) == step


@pytest.mark.parametrize("data,fragment", [
    ({"kind": "attack"}, "must be one of"), ("round", "must be an object"),
    ({"kind": "round", "turn": 3}, "unknown key 'turn'"),
    ({"kind": "eliminate", "player": "Cy"}, "missing 'by'"),
    ({"kind": "eliminate", "player": 3, "by": "Ana"}, "non-empty text"),
    ({"kind": "stalemate", "resolution": "peace"}, "must be one of draw, fixed_round, agreed"),
    ({"kind": "tiebreak", "resolution": "coin"}, "must be one of shared, extra_round"),
    ({"kind": "round", "positions": {"Ana": [16, 40]}}, "Ana's position must be an object"),
])
def test_malformed_steps(data, fragment):
    with pytest.raises(RuleError, match=fragment):
        RISK.read_step(data)


def test_undo_and_redo():
    t = to_last_round(new_game(3, rounds=3))
    before = t.state
    t = play(t, rnd(**EXAMPLES[0][0]))
    assert t.state.finished
    t = play(t, {"kind": "undo"})
    assert t.state == before and not t.state.finished
    assert RISK.report(t.state).to_json()["status"] == "in_progress"
    t = play(t, {"kind": "redo"})
    assert t.state.winners == ("Ana",)
    t = play(t, {"kind": "undo"}, rnd(**EXAMPLES[1][0]))
    assert t.state.winners == ("Bo",) and not t.can_redo


def test_report_and_summary_in_progress():
    t = new_game(3)
    rep = RISK.report(t.state).to_json()
    assert (rep["status"], rep["phase"], rep["round"], rep["result"], rep["winners"]) == (
        "in_progress", "round", 0, None, [])
    assert all(s["score"] is None and s["rank"] == 1 for s in rep["standings"])
    assert summary(t.state) == Summary(Progress("round", 1, "round", named=False), None)
    t = play(t, rnd(**EXAMPLES[1][0]))
    assert summary(t.state) == Summary(Progress("round", 2, "round", named=False), "Bo")
    assert [s["player"] for s in RISK.report(t.state).to_json()["standings"]] == ["Bo", "Ana", "Cy"]
    t = play(t, {"kind": "eliminate", "player": "Bo", "by": "Cy"})
    assert RISK.report(t.state).to_json()["standings"][-1] == {
        "player": "Bo", "color": "blue", "territories": 0, "continents": [], "armies": 0,
        "score": 0, "eliminated": True, "mission": None, "rank": 3}
    assert RISK.game == "risk" and RISK.name == "Risk"


# --- property: scores and ranking ---------------------------------------------------------


@st.composite
def boards(draw):
    n = draw(st.integers(2, 6))
    owners = draw(st.lists(st.integers(0, n - 1), min_size=42, max_size=42))
    extra = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    positions, at = {}, 0
    held: dict[int, list[str]] = {i: [] for i in range(n)}
    for continent, (count, _) in BOARD.items():
        block = owners[at:at + count]
        at += count
        if len(set(block)) == 1:
            held[block[0]].append(continent)
    for i in range(n):
        t = owners.count(i)
        positions[NAMES[i]] = P(t, t + extra[i], *held[i])
    return n, positions


@settings(max_examples=150, deadline=None)
@given(boards())
def test_scores_and_ranking_follow_the_chain(board):
    n, positions = board
    assume(all(p["territories"] < 42 for p in positions.values()))
    t = play(new_game(n, rounds=1), rnd(**positions))
    rep = RISK.report(t.state).to_json()
    chain = {}
    for s in rep["standings"]:
        p = positions[s["player"]]
        expected = (p["territories"] + sum(BOARD[c][1] for c in p["continents"])
                    + p["armies"] // 5)
        assert s["score"] == expected
        chain[s["player"]] = (expected, p["territories"], len(p["continents"]), p["armies"])
    rows = rep["standings"]
    for a, b in zip(rows, rows[1:], strict=False):
        assert chain[a["player"]] >= chain[b["player"]]
        assert (a["rank"] == b["rank"]) == (chain[a["player"]] == chain[b["player"]])
    for s in rows:
        assert s["rank"] == 1 + sum(chain[o] > chain[s["player"]] for o in chain)
    top = [p for p in chain if chain[p] == max(chain.values())]
    if len(top) == 1:
        assert rep["winners"] == top and rep["format"] == "fixed_round"
    else:
        assert t.state.phase == "tiebreak" and list(t.state.tied) == top
