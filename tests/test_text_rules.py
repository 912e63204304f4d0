"""Player text is data (issue 11), at the rules: `rules.fields.text` and the readers that use
it take names like `[b]Ana[/b]` as they are, trim and NFC-normalise them, and refuse control
and text-direction characters and over-long text with a message naming the problem. Numbers
have bounds, named with their owner in the message; the bounds never refuse legal play. Rows
an earlier version stored are read without the new limits (`stored_rows`)."""

from __future__ import annotations

import copy
import json
import time
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from rules.errors import RuleError
from rules.fields import (
    COLOUR_LIMIT,
    NAME_LIMIT,
    NOTE_LIMIT,
    TITLE_LIMIT,
    note,
    stored_rows,
    text,
    unsafe_char,
    whole,
)
from rules.risk import MAX_ARMIES, RISK
from rules.session_file import read_session
from rules.soe import MAX_GOLD, MAX_TAXATIONS, MAX_TOKEN, SOE
from tests.hostile import hostile_text

pytestmark = pytest.mark.unit  # no app, database or subprocess: `pytest -m unit`

DATA = Path(__file__).parent / "data"


def sample(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def soe_file(names: list[str] | None = None, title: str = "Friday",
             **first_player: Any) -> dict[str, Any]:
    """A 4-player Struggle of Empires session file with no steps."""
    names = names or ["Ana", "Bo", "Cy", "Di"]
    powers = ["France", "Britain", "Austria", "Russia"]
    players = [{"name": n, "power": p} for n, p in zip(names, powers, strict=True)]
    players[0].update(first_player)
    return {"format": "warledger/1", "game": "soe", "title": title, "players": players,
            "steps": []}


def risk_file(names: list[str] | None = None, title: str = "Risk night",
              colours: list[str] | None = None) -> dict[str, Any]:
    names = names or ["Ana", "Bo", "Cy"]
    colours = colours or ["red", "blue", "green", "yellow"][:len(names)]
    return {"format": "warledger/1", "game": "risk", "title": title,
            "settings": {"mode": "fixed_rounds", "rounds": 3},
            "players": [{"name": n, "color": c} for n, c in zip(names, colours, strict=True)],
            "steps": []}


def refused(data: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as caught:
        read_session(data)
    return str(caught.value)


# ---------------------------------------------------------------- names taken as they are

MARKUP_NAMES = ["[Bo]", "[b]Ana[/b]", "Bo[/]", "[@click=app.quit]Cy[/]",
                "[link=http://x]Di[/link]"]


@pytest.mark.parametrize("name", MARKUP_NAMES)
def test_markup_looking_names_are_accepted_unchanged(name):
    assert text(name, "player 1's name") == name
    names = [name, "Other", "Third", "Fourth"]
    sf = read_session(soe_file(names))
    assert sf.seats[0].name == name
    sf = read_session(risk_file(names[:3]))
    assert sf.seats[0].name == name


def test_all_four_markup_names_in_one_game():
    names = ["[b]Ana[/b]", "Bo[/]", "[@click=app.quit]Cy[/]", "[link=http://x]Di[/link]"]
    assert [s.name for s in read_session(soe_file(names)).seats] == names
    assert [s.name for s in read_session(risk_file(names[:3])).seats] == names[:3]


def test_text_is_trimmed_and_nfc_normalised():
    assert text("  Ana \u00a0 ", "a name") == "Ana"
    decomposed = "Rene\u0301"
    assert text(decomposed, "a name") == "René"
    assert text(decomposed, "a name") == unicodedata.normalize("NFC", decomposed)
    assert text("e\u0301", "a name") == "é"
    assert len(text("e\u0301", "a name")) == 1
    sf = read_session(soe_file(["  e\u0301  ", "Bo", "Cy", "Di"], title="  Friday  "))
    assert sf.seats[0].name == "é" and sf.title == "Friday"


def test_names_differing_only_in_normalisation_are_the_same_name():
    with pytest.raises(RuleError, match="Two players are named"):
        read_session(soe_file(["Ren\u00e9", "Rene\u0301", "Cy", "Di"]))


def test_the_limits_themselves_are_accepted():
    assert text("x" * NAME_LIMIT, "a name") == "x" * NAME_LIMIT
    assert text("t" * TITLE_LIMIT, "The title", TITLE_LIMIT) == "t" * TITLE_LIMIT
    assert note("n" * NOTE_LIMIT, "The correction's reason") == "n" * NOTE_LIMIT
    assert note("", "The correction's reason") == ""
    assert text("c" * COLOUR_LIMIT, "a colour", COLOUR_LIMIT) == "c" * COLOUR_LIMIT


# ---------------------------------------------------------------- refused characters

BAD_CHARS = [
    ("\x1b", "a control character (\\x1b)"),  # ESC
    ("\x07", "a control character (\\x07)"),  # BEL
    ("\x7f", "a control character (\\x7f)"),  # DEL
    ("\x9b", "a control character (\\x9b)"),  # C1: CSI
    ("\u202e", "a text-direction override (\\u202e)"),
    ("\u2066", "a text-direction override (\\u2066)"),
    ("\n", "a line break (\\x0a)"),
    ("\t", "a tab (\\x09)"),
]


@pytest.mark.parametrize(("char", "named"), BAD_CHARS,
                         ids=["ESC", "BEL", "DEL", "C1", "RLO", "LRI", "newline", "tab"])
def test_control_and_direction_characters_are_refused_with_their_name(char, named):
    for value in (f"An{char}a", f"[b]{char}[2J", f"Ana{char}Bo"):
        with pytest.raises(RuleError) as caught:
            text(value, "player 1's name")
        message = str(caught.value)
        assert message.startswith(f"player 1's name holds {named}")
        assert char not in message  # the message itself is safe to print
    message = refused(soe_file([f"Ana{char}x", "Bo", "Cy", "Di"]))
    assert "player 1's name holds" in message and char not in message
    message = refused(soe_file(title=f"Fri{char}day"))
    assert "The title holds" in message


def test_escape_sequence_in_a_title_is_refused():
    message = refused(soe_file(title="\x1b[2J\x1b]0;pwned\x07"))
    assert message.startswith("The title holds a control character (\\x1b)")


def test_newline_is_named_a_line_break_and_tab_a_tab():
    with pytest.raises(RuleError, match=r"a line break \(\\x0a\)"):
        text("An\na", "a name")
    with pytest.raises(RuleError, match=r"a tab \(\\x09\)"):
        text("An\ta", "a name")


def test_trailing_newline_and_tab_are_trimmed_not_refused():
    # Trimming comes first: a name pasted with its line end is still a name.
    assert text("Ana\n", "a name") == "Ana"
    assert text("\tAna", "a name") == "Ana"


def test_risk_colour_and_mission_are_checked_too():
    data = risk_file(colours=["re\x1bd", "blue", "green"])
    assert "Ana's colour holds a control character (\\x1b)" in refused(data)
    data = risk_file(colours=["r" * (COLOUR_LIMIT + 1), "blue", "green"])
    assert f"at most {COLOUR_LIMIT} fit" in refused(data)


# ---------------------------------------------------------------- refused lengths

def test_a_25_character_name_is_refused():
    with pytest.raises(RuleError) as caught:
        text("x" * 25, "player 1's name")
    assert str(caught.value) == ("player 1's name is 25 characters long: at most 24 fit on "
                                 "the screens")
    assert "at most 24 fit" in refused(soe_file(["y" * 25, "Bo", "Cy", "Di"]))
    assert "at most 24 fit" in refused(risk_file(["y" * 25, "Bo", "Cy"]))


def test_a_61_character_title_is_refused():
    message = refused(soe_file(title="t" * 61))
    assert message == "The title is 61 characters long: at most 60 fit on the screens"
    assert "at most 60 fit" in refused(risk_file(title="t" * 61))


def test_a_201_character_note_is_refused_in_an_adjust_step():
    step = {"kind": "adjust", "power": "France", "gold": 1, "note": "n" * 201}
    with pytest.raises(RuleError) as caught:
        SOE.read_step(step)
    assert str(caught.value) == ("The correction's reason is 201 characters long: at most 200 "
                                 "fit on the screens")
    step["note"] = "n" * 200
    assert SOE.read_step(step).note == "n" * 200
    data = soe_file()
    data["steps"] = [{"kind": "adjust", "power": "France", "gold": 1, "note": "n" * 201}]
    assert "step 1 (adjust): The correction's reason is 201 characters" in refused(data)


def test_a_note_with_a_control_character_is_refused():
    with pytest.raises(RuleError, match=r"The correction's reason holds a control character"):
        SOE.read_step({"kind": "adjust", "power": "France", "gold": 1,
                       "note": "lost\x1b[2J a battle"})


def test_a_200000_character_name_is_refused_quickly():
    huge = "e\u0301" * 100_000  # 200,000 characters, and costly to normalise
    start = time.perf_counter()
    with pytest.raises(RuleError) as caught:
        text(huge, "player 1's name")
    with pytest.raises(RuleError):
        read_session(soe_file([huge, "Bo", "Cy", "Di"]))
    with pytest.raises(RuleError):
        text("x" * 200_000, "The title", TITLE_LIMIT)
    assert time.perf_counter() - start < 0.5
    message = str(caught.value)
    assert "200,000 characters long" in message and "at most 24" in message
    assert len(message) < 200


# ---------------------------------------------------------------- numbers

def test_starting_gold_of_ten_to_the_thirty_is_refused():
    message = refused(soe_file(gold=10**30))
    assert message.startswith("Ana's starting gold must be at most 9,999, not ")
    assert len(message) < 120  # the number is cut, not printed in full


def test_starting_gold_9999_is_accepted():
    sf = read_session(soe_file(gold=MAX_GOLD))
    assert sf.seats[0].gold == 9_999
    assert "at most 9,999" in refused(soe_file(gold=MAX_GOLD + 1))


def test_a_huge_gold_correction_is_refused_naming_the_power_and_the_bound():
    for change in (99999999999999999999999, -99999999999999999999999):
        with pytest.raises(RuleError) as caught:
            SOE.read_step({"kind": "adjust", "power": "France", "gold": change,
                           "note": "typo"})
        message = str(caught.value)
        assert message.startswith("France's gold change must be at ")
        assert "9,999" in message
    assert SOE.read_step({"kind": "adjust", "power": "France", "gold": 9_999}).gold == 9_999
    assert SOE.read_step({"kind": "adjust", "power": "France", "gold": -9_999}).gold == -9_999


def test_an_unrest_token_of_10_is_refused():
    with pytest.raises(RuleError) as caught:
        SOE.read_step({"kind": "tax", "power": "France", "unrest": 10})
    assert str(caught.value) == "France's unrest token must be at most 9, not 10"
    assert SOE.read_step({"kind": "tax", "power": "France", "unrest": MAX_TOKEN}).unrest == 9
    with pytest.raises(RuleError, match=r"Russia's unrest token must be at most 9, not 10"):
        SOE.read_step({"kind": "upkeep", "units": {}, "taxes": {"Russia": [1, 10]}})


def test_100_taxations_are_refused():
    with pytest.raises(RuleError) as caught:
        SOE.read_step({"kind": "upkeep", "units": {"Russia": {"armies": 1}},
                       "taxes": {"Russia": [1] * 100}})
    assert str(caught.value) == "Russia's number of taxations must be at most 99, not 100"
    step = SOE.read_step({"kind": "upkeep", "units": {}, "taxes": {"Russia": [1] * MAX_TAXATIONS}})
    assert len(step.taxes["Russia"]) == 99


def test_risk_armies_of_10000_are_refused():
    step = {"kind": "round", "positions": {
        "Ana": {"territories": 20, "armies": 10_000},
        "Bo": {"territories": 22, "armies": 30}}}
    with pytest.raises(RuleError) as caught:
        RISK.read_step(step)
    assert str(caught.value) == "Ana's armies must be at most 9,999, not 10,000"
    step["positions"]["Ana"]["armies"] = MAX_ARMIES
    assert dict(RISK.read_step(step).positions)["Ana"].armies == 9_999


def test_number_messages_cut_absurd_numbers():
    with pytest.raises(RuleError) as caught:
        whole(10**400, "Ana's gold", high=9)
    assert len(str(caught.value)) < 80 and str(caught.value).endswith("…")


def test_booleans_and_floats_are_not_numbers():
    with pytest.raises(RuleError, match="must be a whole number"):
        whole(True, "Ana's gold")
    with pytest.raises(RuleError, match="must be a whole number"):
        whole(1.5, "Ana's gold")


# ---------------------------------------------------------------- legal play never refused

@pytest.mark.parametrize("name", ["soe_full_game.json", "risk_fixed_rounds.json"])
def test_worked_examples_still_replay(name):
    sf = read_session(sample(name))
    assert len(sf.steps) == len(sample(name)["steps"])


def test_the_tui_test_game_still_replays():
    from tests.test_tui_soe import session_file

    sf = read_session(session_file())
    assert sf.rules.report(sf.timeline.state).to_json()["status"] == "finished"


# ---------------------------------------------------------------- rows stored earlier

def test_stored_rows_reads_what_an_earlier_version_stored():
    old_name = "\x1b[2J" + "x" * 300
    with stored_rows():
        assert text(old_name, "player 1's name") == old_name
        assert text("  \x1b]0;pwned\x07 ", "The title", TITLE_LIMIT) == "\x1b]0;pwned\x07"
        assert note("\u202e" * 500, "The correction's reason") == "\u202e" * 500
        assert whole(10**30, "Ana's starting gold", high=MAX_GOLD) == 10**30
        data = soe_file([old_name, "Bo", "Cy", "Di"], title="\x1b[2J" + "t" * 300, gold=10**30)
        seats = SOE.read_players(data["players"], SOE.read_settings(None))
        assert seats[0].name == old_name and seats[0].gold == 10**30
        step = SOE.read_step({"kind": "tax", "power": "France", "unrest": 10})
        assert step.unrest == 10
    # ... and only inside: new text is checked again afterwards.
    with pytest.raises(RuleError):
        text(old_name, "player 1's name")


def test_stored_rows_still_checks_the_shape():
    with stored_rows(), pytest.raises(RuleError):
        text("   ", "player 1's name")
    with stored_rows(), pytest.raises(RuleError):
        whole("12", "Ana's gold")


def test_stored_rows_is_left_when_the_block_raises():
    with pytest.raises(KeyError), stored_rows():
        raise KeyError("boom")
    with pytest.raises(RuleError):
        text("x" * 25, "a name")


# ---------------------------------------------------------------- property

@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=hostile_text)
def test_text_either_gives_safe_text_or_a_rule_error(value):
    for limit in (NAME_LIMIT, TITLE_LIMIT):
        try:
            out = text(value, "a name", limit)
        except RuleError as e:
            assert str(e)  # never another exception type
            assert "\x1b" not in str(e)
            continue
        assert isinstance(out, str) and out
        assert not any(unsafe_char(c) for c in out)
        assert len(out) <= limit
        assert out == unicodedata.normalize("NFC", out).strip()


@settings(max_examples=200, deadline=None)
@given(value=hostile_text)
def test_note_either_gives_safe_text_or_a_rule_error(value):
    try:
        out = note(value, "The correction's reason")
    except RuleError:
        return
    assert not any(unsafe_char(c) for c in out)
    assert len(out) <= NOTE_LIMIT
    assert out == unicodedata.normalize("NFC", out).strip()


@settings(max_examples=100, deadline=None)
@given(value=hostile_text)
def test_a_session_file_with_hostile_names_is_stored_safely_or_refused(value):
    data = soe_file([value, "Bo", "Cy", "Di"], title=value)
    try:
        sf = read_session(copy.deepcopy(data))
    except RuleError:
        return
    for shown in (sf.title, sf.seats[0].name):
        assert not any(unsafe_char(c) for c in shown)
