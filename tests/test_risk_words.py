"""Risk's rules in the reader's language (issue 24): refusals, the history, mission texts
and counts read in Romanian; continents, territories and colours typed in Romanian are
read as the English ids they are stored by; words folded in one language are said in the
language of the moment they are shown."""

from __future__ import annotations

import pytest

from i18n import set_language
from rules.errors import RuleError
from rules.game import describe_history
from rules.risk import (
    RISK,
    Position,
    colour_named,
    continent_named,
    explain_scores,
    mission_text,
    positions_from_owners,
    read_players,
    read_settings,
    territory_named,
)
from rules.risk.board import armies_counted, territories_counted
from rules.session_file import read_session
from rules.timeline import Timeline, read_step

pytestmark = pytest.mark.unit

PLAYERS = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
           {"name": "Cy", "color": "green"}]


def held(territories: int, armies: int, *continents: str) -> dict:
    return {"territories": territories, "armies": armies, "continents": list(continents)}


def history(*steps: dict, rounds: int = 10, players=None) -> list[str]:
    sf = read_session({"format": "warledger/1", "game": "risk", "title": "T",
                       "settings": {"mode": "fixed_rounds", "rounds": rounds},
                       "players": players or PLAYERS, "steps": list(steps)})
    return describe_history(sf.rules, sf.settings, sf.seats, sf.steps)


def game(players=None, **settings) -> Timeline:
    chosen = RISK.read_settings(settings)
    return Timeline(RISK, RISK.start(chosen, RISK.read_players(players or PLAYERS, chosen)))


def play(t: Timeline, *steps: dict) -> Timeline:
    for step in steps:
        t = t.then(read_step(RISK, step))
    return t


def refusal(t: Timeline, step: dict) -> str:
    with pytest.raises(RuleError) as err:
        play(t, step)
    return str(err.value)


# ---------------------------------------------------------------- counts

def test_counts_take_the_three_romanian_forms():
    set_language("ro")
    assert [territories_counted(n) for n in (1, 2, 19, 20, 42, 101)] == [
        "1 teritoriu", "2 teritorii", "19 teritorii", "20 de teritorii", "42 de teritorii",
        "101 teritorii"]
    assert [armies_counted(n) for n in (1, 0, 20)] == ["1 armată", "0 armate", "20 de armate"]


def test_english_counts_say_one_in_the_singular():
    assert [territories_counted(n) for n in (1, 2)] == ["1 territory", "2 territories"]
    assert armies_counted(1) == "1 army"


# ---------------------------------------------------------------- the history

def test_a_round_closed_told_in_romanian():
    positions = {"Ana": held(25, 40, "Australia"), "Bo": held(16, 20), "Cy": held(1, 1)}
    set_language("ro")
    assert history({"kind": "round"}, {"kind": "round", "positions": positions}) == [
        "Runda 1 din 10 s-a încheiat",
        "Runda 2 din 10 s-a încheiat: Ana 25 de teritorii, 40 de armate, Australia; "
        "Bo 16 teritorii, 20 de armate; Cy 1 teritoriu, 1 armată",
    ]


def test_the_last_round_scored_and_won_told_in_romanian():
    positions = {"Ana": held(25, 40, "South America"), "Bo": held(16, 20), "Cy": held(1, 1)}
    set_language("ro")
    assert history({"kind": "round", "positions": positions}, rounds=1) == [
        "Runda 1 din 1 s-a încheiat și a fost punctată: Ana scor 35 (25 de teritorii, "
        "40 de armate, America de Sud); Bo scor 20 (16 teritorii, 20 de armate); Cy scor 1 "
        "(1 teritoriu, 1 armată): Ana conduce cu 35, față de Bo cu 20 și Cy cu 1; "
        "Ana câștigă la scor"]


def test_an_elimination_told_in_romanian_without_the_mission_it_replaced():
    """The mission replaced is its holder's alone (issue 44): the history says nothing."""
    players = [{"name": "Ana", "color": "red", "mission": "destroy:green"},
               {"name": "Bo", "color": "blue", "mission": "18x2"},
               {"name": "Cy", "color": "green", "mission": "24"}]
    sf = read_session({"format": "warledger/1", "game": "risk", "title": "T",
                       "settings": {"mode": "missions"}, "players": players,
                       "steps": [{"kind": "eliminate", "player": "Cy", "by": "Bo"}]})
    set_language("ro")
    assert describe_history(sf.rules, sf.settings, sf.seats, sf.steps) == [
        "Runda 1: Cy eliminat de Bo"]


# ---------------------------------------------------------------- refusals

def test_a_refusal_read_in_romanian():
    t = play(game(), {"kind": "eliminate", "player": "Cy", "by": "Ana"})
    set_language("ro")
    assert refusal(t, {"kind": "eliminate", "player": "Cy", "by": "Bo"}) == (
        "Cy e afară din joc (eliminat de Ana) și nu poate fi eliminat din nou")


def test_a_refusal_names_the_continent_in_romanian():
    t = game(PLAYERS[:2])
    set_language("ro")
    said = refusal(t, {"kind": "round", "positions": {"Ana": held(39, 40),
                                                      "Bo": held(3, 3, "South America")}})
    assert said == "Bo nu poate deține America de Sud cu 3 teritorii: America de Sud are 4"


def test_what_the_positions_predate_is_said_when_refused():
    positions = {"Ana": held(25, 40), "Bo": held(16, 20), "Cy": held(1, 1)}
    t = play(game(), {"kind": "round", "positions": positions},
             {"kind": "eliminate", "player": "Cy", "by": "Ana"})
    set_language("ro")
    assert refusal(t, {"kind": "stalemate", "resolution": "fixed_round"}).startswith(
        "Ultima poziție a fost introdusă înainte de eliminarea lui Cy de către Ana: ")


# ---------------------------------------------------------------- missions

def test_mission_texts_in_romanian():
    set_language("ro")
    assert mission_text("asia+south-america") == "Cucerește Asia și America de Sud"
    assert mission_text("destroy:red") == "Distruge toate armatele roșii"
    assert mission_text("destroy:purple") == "Distruge toate armatele purple"  # the group's
    assert mission_text("24") == "Ocupă 24 de teritorii"


def test_a_replaced_mission_is_told_in_the_language_it_is_read_in():
    """The notice is kept as what happened, and said when shown: a game folded in English
    tells it in Romanian once the palette switches."""
    players = [{"name": "Ana", "color": "red", "mission": "destroy:red"},
               {"name": "Bo", "color": "blue", "mission": "24"}]
    t = game(players, mode="missions")
    (note,) = t.state.announcements
    assert note.text == ("Ana's mission 'Destroy all red armies' names Ana's own colour: "
                         "it becomes 'Occupy 24 territories'")
    set_language("ro")
    assert note.text == ("Misiunea lui Ana, „Distruge toate armatele roșii”, numește chiar "
                         "culoarea lui Ana: devine „Ocupă 24 de teritorii”")


def test_scores_explained_in_romanian():
    set_language("ro")
    assert explain_scores({"Ana": Position(16, 40, ("South America", "Australia"))}) == {
        "Ana": "16 teritorii + 4 (America de Sud 2, Australia 2) + 40/5 = 8 -> 28"}


# ---------------------------------------------------------------- what players type

def test_a_continent_typed_in_romanian_is_its_english_id():
    set_language("ro")
    assert continent_named("America de Sud") == "South America"
    assert continent_named("  america-de-NORD ") == "North America"
    assert continent_named("EUROPA") == "Europe"
    assert continent_named("South America") == "South America"  # English is still read
    assert continent_named("Oceania") == "Australia"


def test_a_continent_in_another_language_than_the_readers_is_refused():
    with pytest.raises(RuleError) as err:
        continent_named("America de Sud")
    assert "the continents are North America, South America" in str(err.value)
    set_language("ro")
    with pytest.raises(RuleError) as err:
        continent_named("Atlantida")
    assert str(err.value) == (
        "'Atlantida' nu e un continent: continentele sunt America de Nord, America de Sud, "
        "Europa, Africa, Asia, Australia (Australia se mai numește Australasia sau Oceania)")


def test_a_territory_typed_in_romanian_is_its_english_id():
    set_language("ro")
    assert territory_named("groenlanda") == "Greenland"
    assert territory_named("Iakuția") == "Yakutsk"
    assert territory_named("great britain") == "Great Britain"
    with pytest.raises(RuleError, match="nu e un teritoriu de pe tablă"):
        territory_named("Atlantida")


def test_owners_by_territory_names_in_romanian():
    state = game(PLAYERS[:2]).state
    set_language("ro")
    found = positions_from_owners(state, {"Groenlanda": 1, "alaska": 2}, {"GROENLANDA": 3},
                                  so_far=True)
    assert found == {"Ana": Position(1, 3), "Bo": Position(1, 1)}


def test_a_colour_typed_in_romanian_is_stored_by_its_english_id():
    set_language("ro")
    assert colour_named("Roșu") == "red"
    assert colour_named(" ALBASTRU ") == "blue"
    assert colour_named("Purple") == "purple"  # a colour the group added, as written
    settings = read_settings({"mode": "missions"})
    seats = read_players([{"name": "Ana", "color": "Roșu", "mission": "destroy:Verde"},
                          {"name": "Bo", "color": "verde", "mission": "24"}], settings)
    assert [(s.color, s.mission) for s in seats] == [("red", "destroy:green"),
                                                     ("green", "24")]


def test_a_romanian_colour_is_a_colour_of_its_own_in_english():
    settings = read_settings({})
    seats = read_players([{"name": "Ana", "color": "Roșu"}, {"name": "Bo", "color": "red"}],
                         settings)
    assert [s.color for s in seats] == ["roșu", "red"]
