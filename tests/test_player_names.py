"""Players' names (issue 22): a name never starts with `-`, holds nothing invisible and never
looks blank, and no two players' names pass for each other (the same name, or names that
differ only by look-alike or invisible characters: Unicode TR39 skeletons). Checked where
names enter: session files, the setup screen (here) and the host's keys file
(tests/test_keys_file.py). Games an earlier version stored still open."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from textual.widgets import Input, Static

from rules.errors import RuleError
from rules.fields import LookAlikes, looks_alike, player_name, skeleton, stored_rows
from rules.session_file import read_session
from storage.ledger import Ledger
from tests.test_text_rules import risk_file, soe_file
from tui.games.soe.setup import NewSoeGameScreen

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

CYRILLIC_A = "\u0410"  # CYRILLIC CAPITAL LETTER A: looks like A
HANGUL_FILLER = "\u3164"  # drawn as nothing; Python does not call it a space


@pytest.mark.parametrize(("name", "reason"), [
    ("-Ana", "may not start with '-'"),
    ("--db=/x", "may not start with '-'"),
    (HANGUL_FILLER, "invisible character (\\u3164)"),
    ("\u200b", "invisible character (\\u200b)"),
    ("\u200b\u200c\u200d", "invisible character (\\u200b)"),
    ("Ana\u200b", "invisible character (\\u200b)"),
    ("A\u2060na", "invisible character (\\u2060)"),
    ("Ana\U000e0041", "invisible character (\\U000e0041)"),  # a tag character
    ("\u2800", "looks blank (\\u2800)"),  # BRAILLE PATTERN BLANK
    ("\u200d\u200c", "looks blank (\\u200d\\u200c)"),  # only the joiners a name may hold
    ("\u0301\u0301", "looks blank (\\u0301\\u0301)"),  # accents on nothing
])
@pytest.mark.unit
def test_a_bad_name_is_refused_saying_why(name, reason):
    with pytest.raises(RuleError) as refused:
        player_name(name, "player 1's name")
    assert reason in str(refused.value) and str(refused.value).startswith("player 1's name ")
    assert all(c.isascii() for c in str(refused.value).replace("'", ""))  # escapes only


@pytest.mark.unit
def test_names_people_have_are_taken_but_not_with_something_invisible_in_them():
    for name in ["Ana", "Jean-Luc", "Zoë", "Ana ❤️", "Mehr\u200cdad", "[b]Ana[/b]", "Ана",
                 "小明", "O'Neil", "B-"]:
        assert player_name(name, "a name") == name
        with pytest.raises(RuleError, match="invisible character"):
            player_name(f"{name[0]}\u200b{name[1:]}", "a name")


ALIKE = [
    ("Ana", "Ana"), ("Ana", "ana"), ("Ana", "ANA"),
    ("Ana", f"{CYRILLIC_A}na"),  # a Cyrillic А
    ("Ana", "\uff21na"),  # a fullwidth Ａ
    ("Bo", "B\u043e"),  # a Cyrillic о
    ("Ana", "Ana\u200d"),  # a zero-width joiner: differs by an invisible character only
    ("Il", "ll"), ("Bill", "Bi11"),  # I, l and 1
    ("Kim", "Kirn"),  # rn
]
NOT_ALIKE = [("Ana", "Anna"), ("Bo", "Bob"), ("Ана", "Ann"), ("Cy", "Di"), ("Ana", "Ana ❤️")]


@pytest.mark.unit
def test_names_that_pass_for_each_other_look_alike_and_no_others():
    for first, second in ALIKE:
        assert looks_alike(first, second) and looks_alike(second, first), (first, second)
    for first, second in NOT_ALIKE:
        assert not looks_alike(first, second), (first, second)


@pytest.mark.unit
def test_names_met_find_each_name_they_look_alike_as_comparing_with_each_would():
    names = [n for pair in ALIKE + NOT_ALIKE for n in pair] + ["ANA", "rn", "m", "Ana\u200d"]
    for n, name in enumerate(names):
        met = names[:n]
        found = LookAlikes(met).alike(name)
        assert (found is not None) == any(looks_alike(name, other) for other in met), name
        assert found is None or looks_alike(name, found), (name, found)
        with stored_rows():  # as an earlier version compared: case aside
            assert (LookAlikes(met).alike(name) is not None) == any(
                looks_alike(name, other) for other in met), name


@pytest.mark.unit
def test_the_skeleton_is_tr39s():
    assert skeleton(f"{CYRILLIC_A}na") == "Ana"
    assert skeleton("pa\u200bypal") == "paypal"  # the invisible character goes
    assert skeleton("m") == "rn"  # a prototype of two characters


# ---------------------------------------------------------------- session files

@pytest.mark.unit
@pytest.mark.parametrize("make", [soe_file, risk_file], ids=["soe", "risk"])
@pytest.mark.parametrize(("names", "reason"), [
    (["-Ana", "Bo", "Cy"], "player 1's name may not start with '-': '-Ana' would read"),
    (["Ana", "--db=/x", "Cy"], "player 2's name may not start with '-'"),
    (["Ana", HANGUL_FILLER, "Cy"], "player 2's name holds an invisible character (\\u3164)"),
    (["Ana", "Bo\u200b", "Cy"], "player 2's name holds an invisible character (\\u200b)"),
    (["Ana", "Bo", f"{CYRILLIC_A}na"],
     "Ana and \u0410na (\\u0410na) look alike: names must differ by more than look-alike "
     "or invisible characters"),
    (["Ana", "Bo", "Ana\u200d"], "Ana and Ana\u200d (Ana\\u200d) look alike"),
])
def test_a_session_file_with_a_bad_or_look_alike_name_is_refused(make, names, reason):
    if make is soe_file:
        names = [*names, "Di"]
    with pytest.raises(RuleError) as refused:
        read_session(make(names))
    assert str(refused.value).startswith(reason)


@pytest.mark.unit
def test_a_game_an_earlier_version_stored_still_opens():
    names = ["-Ana", f"{CYRILLIC_A}na", HANGUL_FILLER, "Ana"]
    with pytest.raises(RuleError):
        read_session(soe_file(names))  # refused as a new file
    with stored_rows():
        assert player_name("-Ana", "player 1's name") == "-Ana"
        seats = read_session(soe_file(names)).seats
    assert [seat.name for seat in seats] == names
    with stored_rows(), pytest.raises(RuleError, match="Two players are named"):
        read_session(soe_file(["Ana", "ana", "Cy", "Di"]))  # refused then too


# ---------------------------------------------------------------- the setup screen

async def setup_with_names(table, names: list[str]) -> tuple[str, Ledger]:
    """The message the setup screen shows when the game is started with these names (the
    field values set as a paste would), and the ledger."""
    ledger = table.ledger()
    app = table.app(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSoeGameScreen)
        for row, name in enumerate(names, 1):
            app.screen.query_one(f"#name-{row}", Input).value = name
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, NewSoeGameScreen)
        return str(app.screen.query_one("#message", Static).render()), ledger


@pytest.mark.parametrize(("names", "said"), [
    (["Ana", "-Bo"], "player 2's name may not start with '-': '-Bo' would read as an option"),
    (["Ana", HANGUL_FILLER], "player 2's name holds an invisible character (\\u3164)"),
    (["Ana", f"{CYRILLIC_A}na"], "Ana and \u0410na (\\u0410na) look alike"),
])
async def test_setup_refuses_a_bad_or_look_alike_name(table, names, said):
    message, ledger = await setup_with_names(table, names)
    assert message.startswith(said)
    assert ledger.games() == []
