"""One person, one player in the league (issue 44): a name is its player's case aside, so
the seat `Ana`, a seat typed `ana` in a later game, a file's `ANA` and a terminal seated
over SSH by the key's `player="ana"` are the same person. Before, the league kept `Ana` and
`ana` apart (its players were keyed by the name exactly as typed)."""

from __future__ import annotations

from test_tui_risk import SIZE, open_new, settle
from textual.widgets import Static

from rules.plays import read_plays
from tests.test_plays import BGG

PLAYERS = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"}]


def won_by(ledger, names: list[str], winner: str, title: str = "Tonight"):
    players = [{"name": n, "color": c} for n, c in zip(names, ("red", "blue"), strict=True)]
    game = ledger.create_game("risk", title, {"mode": "conquest"}, players)
    loser = next(s.name for s in game.state.seats if s.name != winner)
    return ledger.record(game.id, {"kind": "eliminate", "player": loser, "by": winner})


def league(ledger) -> list[tuple]:
    return [(r.player, r.played, r.wins) for r in ledger.league()]


def test_a_name_typed_in_another_case_is_the_same_player(ledger):
    won_by(ledger, ["Ana", "Bo"], "Ana")
    later = won_by(ledger, ["ana", "BO"], "Ana")  # typed as the seated player sees herself
    assert league(ledger) == [("Ana", 2, 2), ("Bo", 2, 0)]
    # The new game's seats are written as the league knows them, everywhere.
    assert [s.name for s in later.state.seats] == ["Ana", "Bo"]
    assert later.state.winners == ("Ana",)
    assert [g.players for g in ledger.games()] == [["Ana", "Bo"], ["Ana", "Bo"]]
    assert ledger.player_names() == ["Ana", "Bo"]


def test_a_file_with_steps_keeps_its_spelling_and_counts_for_the_same_player(ledger):
    won_by(ledger, ["Ana", "Bo"], "Ana")
    data = ledger.export(won_by(ledger, ["Cy", "Bo"], "Cy", "Elsewhere").id)
    data.pop("id")
    data["players"][0]["name"] = "ANA"  # its steps name ANA: the file is stored as it is
    for step in data["steps"]:
        step["by"] = "ANA"
    stored = ledger.replay(data)
    assert [s.name for s in stored.state.seats] == ["ANA", "Bo"]
    assert dict((p, n) for p, n, _w in league(ledger))["Ana"] == 2
    assert "ANA" not in ledger.player_names()


def test_plays_imported_in_another_case_are_the_same_player(ledger):
    won_by(ledger, ["Di", "Bo"], "Di")
    plays = read_plays(BGG.replace(b'name="Di"', b'name="di"')).plays
    ledger.import_plays(plays)  # not refused as a look-alike: the same person
    names = ledger.player_names()
    assert "Di" in names and "di" not in names


async def test_a_terminal_seated_by_key_as_ana_sits_as_the_seat_ana(table):
    """The keys file's player="ana" names the league's Ana: her card is hers to see."""
    players = [{"name": "Ana", "color": "red", "mission": "24"},
               {"name": "Bo", "color": "blue", "mission": "18x2"}]
    app = table.app("ana")
    async with app.run_test(size=SIZE) as pilot:
        await open_new(pilot, players, {"mode": "missions"})
        await pilot.press("ctrl+u")
        await settle(pilot)
        shown = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert "Ana's secret mission" in shown


async def test_the_new_game_form_knows_a_rated_player_typed_in_another_case(table):
    """The chances to win beside the seats: `cy` typed is the rated Cy."""
    from pilot_pace import shows, until
    from test_league_stats import club
    from textual.widgets import Input

    from rules.ratings import win_chances
    from tui.games.soe.setup import NewSoeGameScreen
    from tui.screens.story import percent

    ledger = club(table.ledger())
    ratings = ledger.stats(ledger.default_group()).ratings["soe"]
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await shows(pilot, NewSoeGameScreen)
        screen = app.screen
        group = screen.query_one("#group", Input)
        await until(pilot, lambda: group.value == ledger.default_group(), "the default group")
        for i, name in enumerate(["CY", "di"], 1):
            screen.query_one(f"#name-{i}", Input).value = name
        await until(pilot, lambda: screen.has_class("-chances"), "the chances to win")
        await pilot.pause()
        want = win_chances(ratings, ["Cy", "Di"])
        assert [str(screen.query_one(f"#chance-{i}", Static).render()) for i in (1, 2)] == \
            [percent(c) for c in want]
