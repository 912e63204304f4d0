"""The rules' words in Romanian (issue 24): a Struggle of Empires refusal, a history line, a
region's reasons, the checklist and the phases read in Romanian; counts in Romanian's three
forms; powers and regions typed in the reader's language, still kept by their English ids.
Everything is told when it is read, so a state made in one language reads in the other."""

from __future__ import annotations

import pickle

import pytest

from i18n import set_language
from rules.errors import RuleError
from rules.fields import whole
from rules.game import describe_history
from rules.names import phase_named, unit_numbered, units_counted
from rules.session_file import read_session
from rules.soe import SOE, power_named, region_named, score_region
from rules.soe.ending import revolution_words
from rules.soe.settings import counts_said, read_settings
from rules.timeline import Timeline, Undo

pytestmark = pytest.mark.unit

REGION_VALUES = {
    "German States": [8, 5, 3], "Baltic": [6, 3], "Mediterranean": [7, 4, 2],
    "Central Europe": [6, 4, 2], "Ottoman Empire": [5, 3], "North America": [9, 5, 2],
    "Caribbean": [7, 4, 1], "South America": [5, 2], "Africa": [6, 3, 1],
    "India": [10, 6, 3], "East Indies": [8, 4],
}
PLAYERS = [{"name": "Ana", "power": "France", "gold": 0, "population": 0},
           {"name": "Bo", "power": "Spain"}]


def session(*steps: dict, players: list | None = None):
    return read_session({"format": "warledger/1", "game": "soe", "title": "T",
                         "settings": {"regions": REGION_VALUES},
                         "players": players or PLAYERS, "steps": list(steps)})


def history(*steps: dict) -> list[str]:
    sf = session(*steps)
    return describe_history(sf.rules, sf.settings, sf.seats, sf.steps)


# ---------------------------------------------------------------- refusals

def test_a_refusal_reads_in_romanian():
    set_language("ro")
    start = Timeline(SOE, SOE.start(read_settings({}), SOE.read_players(PLAYERS, None)))
    with pytest.raises(RuleError, match="^Nu e nimic de luat înapoi$"):
        start.then(Undo())
    # Upkeep France cannot pay: the power by its Romanian name, the count in its form.
    t = start.then(SOE.read_step({"kind": "income", "markers": {}}))
    with pytest.raises(RuleError) as refused:
        t.then(SOE.read_step({"kind": "upkeep", "units": {"France": {"armies": 3}}}))
    assert str(refused.value) == ("Franța trebuie să plătească 3 întreținere cu 0 aur: e "
                                  "nevoie de 2 impozitări, s-au dat 0")
    with pytest.raises(RuleError, match="^Războiul 1 este la întreținere: următorul pas "
                                        "este întreținere, nu punctare$"):
        t.then(SOE.read_step({"kind": "scoring"}))


def test_a_number_out_of_bounds_is_refused_in_romanian_with_its_grouping():
    set_language("ro")
    with pytest.raises(RuleError, match="^Aur pe impozitare trebuie să fie cel mult 20, nu "
                                        "12.345$"):
        read_settings({"gold_per_tax": 12345})
    with pytest.raises(RuleError, match="^x trebuie să fie un număr întreg, nu 'a'$"):
        whole("a", "x")


def test_the_same_refusal_reads_in_english():
    with pytest.raises(RuleError, match="^There is nothing to undo$"):
        Timeline(SOE, SOE.start(read_settings({}), SOE.read_players(PLAYERS, None))).then(
            Undo())
    with pytest.raises(RuleError, match="^Gold per taxation must be at most 20, not 12,345$"):
        read_settings({"gold_per_tax": 12345})


# ---------------------------------------------------------------- the history

def test_history_lines_read_in_romanian():
    steps = ({"kind": "tax", "power": "Spain", "unrest": 3}, {"kind": "undo"},
             {"kind": "income", "markers": {"France": 4}})
    english = history(*steps)
    set_language("ro")
    assert history(*steps) == [
        "Războiul 1, impozitare: Bo (Spania) +2 aur, jeton de neliniște 3 "
        "(aur 10 → 12, neliniște 0 → 3)",
        "Pasul #1 luat înapoi: războiul 1, la acțiuni și venituri; "
        "Bo (Spania) aur 12 → 10, neliniște 3 → 0",
        "Războiul 1, venituri (jetoane pe putere): Ana (Franța) +4 aur (populație 0 + 4 "
        "jetoane de control, 0 → 4); Bo (Spania) +5 aur (populație 5 + 0 jetoane de control, "
        "10 → 15)",
    ]
    set_language("en")
    assert history(*steps) == english
    assert english[0] == ("War 1 taxation: Bo (Spain) +2 gold, unrest token 3 "
                          "(gold 10 → 12, unrest 0 → 3)")


def test_a_history_line_counts_in_romanian_forms():
    set_language("ro")
    lines = history({"kind": "income", "markers": {"France": 1, "Spain": 20}})
    assert "populație 0 + 1 jeton de control," in lines[0]
    assert "populație 5 + 20 de jetoane de control," in lines[0]


# ---------------------------------------------------------------- counts, phases, checklist

def test_a_count_takes_its_three_romanian_forms():
    set_language("ro")
    assert [units_counted("war", n) for n in (1, 2, 20)] == [
        "1 război", "2 războaie", "20 de războaie"]
    assert [units_counted("round", n) for n in (1, 19, 101, 120)] == [
        "1 rundă", "19 runde", "101 runde", "120 de runde"]
    set_language("en")
    assert [units_counted("war", n) for n in (1, 2, 20)] == ["1 war", "2 wars", "20 wars"]


def test_phases_and_progress_are_named_when_shown():
    assert phase_named("soe", "end_war") == "End of war"
    assert unit_numbered("war", 2) == "war 2"
    assert counts_said(range(4, 8)) == "4 to 7" and revolution_words() == "20 or more"
    set_language("ro")
    assert phase_named("soe", "end_war") == "Sfârșitul războiului"
    assert phase_named("risk", "round") == "În joc"
    assert phase_named("soe", "no_such_phase") == "no such phase"
    assert unit_numbered("war", 2) == "războiul 2"
    assert counts_said(range(2, 4)) == "2 sau 3" and revolution_words() == "20 sau mai mult"


def test_the_checklist_is_read_in_the_language_of_the_moment():
    t = session({"kind": "income", "regions": {}}, {"kind": "upkeep"}, {"kind": "population"},
                {"kind": "scoring"}).timeline
    assert t.state.checklist[-1] == "Place 10 new neutral region tokens on the board"
    set_language("ro")  # the same state, read again
    assert t.state.checklist[0] == "Dă înapoi jetoanele de alianță locală proprietarilor lor"
    assert t.state.checklist[-1] == "Pune pe tablă 10 jetoane noi de regiune neutră"


# ---------------------------------------------------------------- a region's reasons

def test_a_tie_is_explained_in_the_language_it_is_read_in():
    awards = score_region("Mediterranean", (7, 4, 2), {"France": 2, "Spain": 2, "Britain": 1},
                          frozenset({"France", "Britain", "Austria", "Prussia"}),
                          player_count=4)
    kept = pickle.loads(pickle.dumps(awards))  # as a fold snapshot keeps them
    set_language("ro")
    assert {a.power: a.reason for a in kept} == {
        "France": "Franța și Spania la egalitate pe locul 1: (7+4)/2 = câte 5 "
                  "(Spania: putere non-jucător, PV anulate)",
        "Spain": "Franța și Spania la egalitate pe locul 1: (7+4)/2 = câte 5 "
                 "(Spania: putere non-jucător, PV anulate)",
        "Britain": "Marea Britanie locul 3: 2"}
    unfriendly = score_region("German States", (8, 5, 3), {"France": 1, "Spain": 1},
                              frozenset({"France", "Spain"}), player_count=2)
    assert unfriendly[0].reason == ("Franța și Spania la egalitate pe locul 1, "
                                    "neprietenoasă: câte 5, valoarea de pe locul 2")


# ---------------------------------------------------------------- typed in Romanian

@pytest.mark.parametrize("typed", ["Franța", "franța", "FRANȚA", " Franța ", "Franţa",
                                   "franta", "France", "france"])
def test_a_power_typed_in_romanian_is_kept_by_its_id(typed):
    set_language("ro")
    assert power_named(typed) == "France"


@pytest.mark.parametrize("typed, region", [
    ("Statele Germane", "German States"), ("marea baltica", "Baltic"),
    ("MAREA BALTICĂ", "Baltic"), ("Indiile de Est", "East Indies"), ("Caraibe", "Caribbean"),
    ("Italy", "Mediterranean"), ("Italia", "Mediterranean"), ("italia", "Mediterranean"),
    ("India", "India"), ("Baltic", "Baltic")])
def test_a_region_typed_in_romanian_is_kept_by_its_id(typed, region):
    set_language("ro")
    assert region_named(typed) == region


def test_a_romanian_name_is_refused_in_english_and_in_romanian_a_wrong_one():
    with pytest.raises(RuleError, match="^'Franța' is not a major power"):
        power_named("Franța")
    with pytest.raises(RuleError, match="^'Statele Germane' is not one of the 11 VP regions$"):
        region_named("Statele Germane")
    with pytest.raises(RuleError, match="^'Italia' is not one of the 11 VP regions$"):
        region_named("Italia")
    set_language("ro")
    with pytest.raises(RuleError) as refused:
        power_named("Franța Mare")
    assert str(refused.value) == (
        "'Franța Mare' nu este o mare putere (una dintre Austria, Marea Britanie, Franța, "
        "Prusia, Rusia, Spania, Provinciile Unite)")


def test_a_session_file_in_romanian_names_keeps_english_ids():
    set_language("ro")
    sf = session({"kind": "tax", "power": "Spania"},
                 {"kind": "income", "regions": {"Statele Germane": {"Franța": 2}}},
                 players=[{"name": "Ana", "power": "Franța"}, {"name": "Bo", "power": "spania"}])
    assert [seat.power for seat in sf.seats] == ["France", "Spain"]
    steps = [step.to_json() for step in sf.steps]
    assert steps[0] == {"kind": "tax", "power": "Spain", "unrest": 1}
    assert steps[1] == {"kind": "income", "regions": {"German States": {"France": 2}}}
    # One power named twice, once in each language, is refused.
    with pytest.raises(RuleError, match="Franța apare de două ori"):
        session({"kind": "income", "markers": {"France": 1, "Franța": 2}})
