"""The players' rules reference (rules/README.md): it names every option value and step kind
the rules accept, its worked examples agree with the rules, and the rules screen opens from
the help screen (F1, then r) and closes with Escape."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pilot_pace import pause_skips_the_live_look, until  # noqa: F401 - a fixture

import rules
from rules import league, risk, soe
from rules.errors import RuleError
from rules.game import GAMES
from rules.league import POINTS
from rules.risk import CONTINENTS, missions
from rules.session_file import read_session
from rules.soe import POWERS, REGIONS, score_region, unrest_penalties
from rules.timeline import TIMELINE_STEPS
from storage.engine import make_engine
from storage.ledger import Ledger
from tui.app import WarledgerApp
from tui.games.risk.demo import RISK_DEMO
from tui.plumbing.keys import key_of
from tui.screens.help import HelpScreen
from tui.screens.rules_help import README, RulesScreen, game_of, rules_text

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

TEXT = (Path(rules.__file__).parent / "README.md").read_text(encoding="utf-8")
FLAT = " ".join(TEXT.split())  # for phrases that a line break may split


def named(word: str) -> bool:
    return f"`{word}`" in TEXT


# ---------------------------------------------------------------- the reference names everything

@pytest.mark.unit
def test_reference_ships_in_the_rules_package():
    assert Path(rules.__file__).parent / "README.md" == README
    assert README.is_file()
    assert rules_text().startswith("# Rules and options")
    for heading in ("## Struggle of Empires", "## Risk", "## League points",
                    "## The session file"):
        assert f"\n{heading}\n" in TEXT


@pytest.mark.unit
def test_every_soe_option_value_is_explained():
    options = soe.OPTIONS
    assert options == {"friendly_ties": ("split", "full"),
                       "unfriendly_ties": ("demote", "cascade"),
                       "unrest_ranking": ("distinct", "competition")}
    for key, words in options.items():
        assert named(key) or key.replace("_", " ") in TEXT.lower(), key
        for word in words:
            assert named(word), f"{key}: `{word}` is not in rules/README.md"
    assert named("gold_per_tax")
    defaults = soe.SoeSettings()
    assert defaults.gold_per_tax == 2 and "`gold_per_tax` = 2" in FLAT
    assert "1 to 20" in FLAT  # read_settings accepts 1..20
    with pytest.raises(RuleError):
        soe.SOE.read_settings({"gold_per_tax": 21})
    soe.SOE.read_settings({"gold_per_tax": 20})


@pytest.mark.unit
def test_every_risk_option_and_resolution_is_explained():
    assert risk.MODES == ("fixed_rounds", "conquest", "missions")
    assert missions.DECKS == ("european", "us1993")
    assert risk.Stalemate.RESOLUTIONS == ("draw", "fixed_round", "agreed")
    assert risk.Tiebreak.RESOLUTIONS == ("shared", "extra_round")
    for words in (risk.MODES, missions.DECKS, risk.Stalemate.RESOLUTIONS,
                  risk.Tiebreak.RESOLUTIONS):
        for word in words:
            assert named(word), f"`{word}` is not in rules/README.md"
    for key in risk.RiskSettings().to_json():
        assert named(key), key
    assert risk.RiskSettings().rounds == 10 and "10 rounds" in FLAT
    assert "1 to 50" in FLAT


@pytest.mark.unit
def test_every_settings_key_is_named():
    for key in soe.SoeSettings(board="x").to_json():
        assert named(key), key


def registered_kinds() -> dict[str, set[str]]:
    """Every step kind the rules read, asked of the registries: game (or timeline) -> kinds."""
    kinds = {game: set(rules_.steps.kinds) for game, rules_ in GAMES.items()}
    return kinds | {"timeline": set(TIMELINE_STEPS.kinds)}


@pytest.mark.unit
def test_every_step_kind_is_listed():
    kinds = registered_kinds()
    assert kinds == {
        "soe": {"tax", "adjust", "income", "upkeep", "population", "scoring", "board",
                "end_war", "end_game"},
        "risk": {"round", "eliminate", "concede", "stalemate", "mission_complete", "tiebreak"},
        "timeline": {"undo", "redo"},
    }
    assert not kinds["timeline"] & (kinds["soe"] | kinds["risk"])  # undo is never a game's
    section = TEXT[TEXT.index("## The session file"):]
    for kind in set().union(*kinds.values()):
        assert f"| `{kind}` |" in section, f"step kind {kind} is not in the session file table"


@pytest.mark.unit
def test_a_step_kind_is_registered_once_and_whole():
    with pytest.raises(TypeError, match="a kind of its own"):
        soe.STEPS.register(soe.Tax)

    class Half:
        kind = "half"

        def to_json(self):
            return {"kind": self.kind}

    with pytest.raises(TypeError, match="needs from_json"):
        risk.STEPS.register(Half)
    assert "half" not in risk.STEPS.kinds


# A worked example of every step kind: the steps of a game leading up to it, then the step
# itself. A kind the registries hold without an example here fails the test below.
FRANCE_AUSTRIA = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Austria"}]
SOE_REGIONS = {"German States": [8, 5, 3], "Baltic": [6, 3], "Mediterranean": [7, 4, 2],
               "Central Europe": [6, 3], "Ottoman Empire": [6, 3], "North America": [8, 4],
               "Caribbean": [6, 3], "South America": [6, 3], "Africa": [5, 2],
               "India": [10, 6, 3], "East Indies": [8, 4]}
WAR = [{"kind": "income", "regions": {"German States": {"France": 2, "Austria": 1}}},
       {"kind": "upkeep", "units": {"France": {"armies": 2, "fleets": 1, "fortresses": 0}},
        "taxes": {}},
       {"kind": "population"},
       {"kind": "scoring"}]
TIED = {"Ana": {"territories": 21, "armies": 22, "continents": ["Australia"]},
        "Bo": {"territories": 21, "armies": 22, "continents": ["South America"]}}
ANA_BO = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"}]
WORKED = {
    "tax": ("soe", [], {"kind": "tax", "power": "France", "unrest": 2}),
    "adjust": ("soe", [], {"kind": "adjust", "power": "France", "gold": -3, "unrest": 1,
                           "note": "lost a battle"}),
    "board": ("soe", [], {"kind": "board", "regions": {"Baltic": [6, 3]}}),
    "income": ("soe", [], WAR[0]),
    "upkeep": ("soe", WAR[:1], WAR[1]),
    "population": ("soe", WAR[:2], WAR[2]),
    "scoring": ("soe", WAR[:3], WAR[3]),
    "end_war": ("soe", WAR, {"kind": "end_war"}),
    "end_game": ("soe", (WAR + [{"kind": "end_war"}]) * 2 + WAR, {"kind": "end_game"}),
    "round": ("risk", [], {"kind": "round", "positions": TIED}),
    "eliminate": ("risk", [], {"kind": "eliminate", "player": "Bo", "by": "Ana"}),
    "concede": ("risk", [], {"kind": "concede", "player": "Bo", "accepted": True, "to": "Ana"}),
    "stalemate": ("risk", [], {"kind": "stalemate", "resolution": "agreed", "winner": "Bo"}),
    "mission_complete": ("risk", [], {"kind": "mission_complete", "player": "Ana", "positions": {
        "Ana": {"territories": 24, "armies": 30, "continents": []},
        "Bo": {"territories": 18, "armies": 20, "continents": []}}}),
    "tiebreak": ("risk", [{"kind": "round", "positions": TIED}],
                 {"kind": "tiebreak", "resolution": "shared"}),
    "undo": ("risk", [{"kind": "round"}], {"kind": "undo"}),
    "redo": ("risk", [{"kind": "round"}, {"kind": "undo"}], {"kind": "redo"}),
}


@pytest.mark.unit
@pytest.mark.parametrize("kind", sorted(set().union(*registered_kinds().values())))
def test_every_step_kind_has_a_worked_example(kind):
    assert kind in WORKED, f"step kind {kind} has no worked example"
    game, before, step = WORKED[kind]
    if game == "soe":
        players, settings = FRANCE_AUSTRIA, {"regions": SOE_REGIONS}
    elif kind == "tiebreak":  # a tie follows a fixed-round score
        players, settings = ANA_BO, {"rounds": 1}
    else:
        players = [{**p, "mission": m} for p, m in zip(ANA_BO, ("24", "18x2"), strict=True)]
        settings = {"mode": "missions"}
    game_file = {"format": "warledger/1", "game": game, "players": players,
                 "settings": settings, "steps": [*before, step]}
    read = read_session(game_file)
    assert read.steps[-1].kind == kind
    assert read.steps[-1].to_json() == step  # read and written back the same
    assert read.to_json()["steps"] == game_file["steps"]


@pytest.mark.unit
def test_every_result_format_powers_regions_and_continents_are_named():
    for fmt in ("world_conquest", "secret_mission", "fixed_round", "concession", "draw",
                "agreed", "victory_points"):
        assert named(fmt), fmt
    for name in (*POWERS, *REGIONS, *CONTINENTS):
        assert name in TEXT, name
    for continent, (territories, bonus) in CONTINENTS.items():
        assert re.search(rf"\| {continent}[^|]* \| {len(territories)} \| {bonus} \|", TEXT)


# ---------------------------------------------------------------- the examples agree with the rules

GS, X = (8, 5, 3), (6, 3)


def vp(values, markers, players, count, **options) -> dict[str, int]:
    return {a.power: a.vp for a in score_region("R", values, markers, frozenset(players),
                                                player_count=count, **options)}


FIVE = {"France", "Austria", "Prussia", "Spain", "Russia"}
FOUR = {"France", "Austria", "Prussia", "Spain"}


@pytest.mark.unit
@pytest.mark.parametrize(("values", "markers", "players", "options", "expected", "line"), [
    (GS, {"France": 3, "Austria": 2, "Prussia": 1}, FIVE, {},
     {"France": 8, "Austria": 5, "Prussia": 3}, "France 8, Austria 5, Prussia 3"),
    (GS, {"France": 2, "Austria": 2, "Prussia": 1}, FOUR, {},
     {"France": 6, "Austria": 6, "Prussia": 3}, "France 6, Austria 6 ((8+5)/2 = 6), Prussia 3"),
    (GS, {"France": 4, "Austria": 2, "Prussia": 2, "Spain": 2}, FOUR, {},
     {"France": 8, "Austria": 2, "Prussia": 2, "Spain": 2}, "the others 2 each ((5+3+0)/3 = 2)"),
    (X, {"France": 2, "Austria": 2, "Prussia": 1}, FOUR, {},
     {"France": 4, "Austria": 4, "Prussia": 0}, "A 4, B 4 ((6+3)/2 = 4), C 0"),
    (GS, {"France": 2, "Austria": 1, "Russia": 3}, {"France", "Austria", "Prussia"}, {},
     {"France": 5, "Austria": 3, "Russia": 0}, "Russia 1st (its 8 thrown away), P1 5, P2 3"),
    (GS, {"France": 2, "Austria": 2, "Spain": 1}, {"France", "Austria", "Prussia"}, {},
     {"France": 5, "Austria": 5, "Spain": 0}, "P1 5, P2 5 (demoted)"),
    (X, {"France": 3, "Britain": 1, "Austria": 1}, {"France", "Britain"}, {},
     {"France": 6, "Britain": 0, "Austria": 0}, "P1 6, P2 0 (tied for 2nd, demoted"),
    # options
    (GS, {"France": 3, "Austria": 3, "Prussia": 1}, FIVE, {"friendly_ties": "split"},
     {"France": 6, "Austria": 6, "Prussia": 3}, "France 6, Austria 6 ((8+5)/2), Prussia 3"),
    (GS, {"France": 3, "Austria": 3, "Prussia": 1}, FIVE, {"friendly_ties": "full"},
     {"France": 8, "Austria": 8, "Prussia": 3}, "France 8, Austria 8, Prussia 3"),
    (GS, {"France": 4, "Austria": 2, "Prussia": 2, "Spain": 2}, FIVE, {"friendly_ties": "full"},
     {"France": 8, "Austria": 5, "Prussia": 5, "Spain": 5}, "France 8; the others 5 each"),
    (GS, {"France": 2, "Austria": 2, "Spain": 1}, {"France", "Austria", "Prussia"},
     {"unfriendly_ties": "cascade"}, {"France": 3, "Austria": 3, "Spain": 0},
     "France 3, Austria 3 (3rd place)"),
    (GS, {"France": 3, "Austria": 2, "Russia": 2}, {"France", "Austria"},
     {"unfriendly_ties": "demote"}, {"France": 8, "Austria": 3, "Russia": 0},
     "France 8; Austria 3 (3rd place)"),
    (GS, {"France": 3, "Austria": 2, "Russia": 2}, {"France", "Austria"},
     {"unfriendly_ties": "cascade"}, {"France": 8, "Austria": 0, "Russia": 0},
     "France 8; Austria 0 (4th place, not printed)"),
])
def test_region_examples(values, markers, players, options, expected, line):
    assert vp(values, markers, players, len(players), **options) == expected
    assert line in TEXT


@pytest.mark.unit
@pytest.mark.parametrize(("unrest", "started", "ranking", "expected"), [
    ((12, 9, 6, 3, 0), 5, "distinct", (7, 4, 0, 0, 0)),
    ((12, 9, 6, 3, 0), 5, "competition", (7, 4, 0, 0, 0)),
    ((10, 10, 8, 2), 4, "distinct", (7, 7, 4, 0)),
    ((10, 10, 8, 2), 4, "competition", (7, 7, 0, 0)),
    ((8, 8, 5), 3, "distinct", (7, 7, 4)),
    ((8, 8, 5), 3, "competition", (7, 7, 0)),
    ((22, 15, 15, 4, 1), 5, "distinct", (0, 7, 7, 4, 0)),
    ((9, 6), 2, "distinct", (7, 0)),
    ((7, 7), 2, "distinct", (0, 0)),
])
def test_unrest_examples(unrest, started, ranking, expected):
    penalty, revolution = unrest_penalties({f"p{i}": u for i, u in enumerate(unrest)},
                                           started, ranking)
    assert tuple(penalty[f"p{i}"] for i in range(len(unrest))) == expected
    assert revolution == ({"p0"} if unrest[0] >= 20 else set())
    assert ", ".join(map(str, unrest)) in TEXT


def soe_game(players, steps, settings=None):
    return read_session({"format": "warledger/1", "game": "soe", "players": players,
                         "steps": steps, "settings": settings or {}}).timeline.state


@pytest.mark.unit
@pytest.mark.parametrize(("gold_per_tax", "taxes", "gold"), [(1, 5, 0), (2, 3, 1), (3, 2, 1)])
def test_gold_per_taxation_example(gold_per_tax, taxes, gold):
    players = [{"name": "Ana", "power": "France", "gold": 3, "population": 0},
               {"name": "Bo", "power": "Austria"}]
    income = [{"kind": "income", "markers": {}}]
    settings = {"gold_per_tax": gold_per_tax}
    after_income = soe_game(players, income, settings)
    assert after_income.upkeep_needs("France", soe.Units(5, 2, 1)) == taxes

    def upkeep(n):
        return {"kind": "upkeep", "units": {"France": {"armies": 5, "fleets": 2, "fortresses": 1}},
                "taxes": {"France": [1] * n}}

    state = soe_game(players, income + [upkeep(taxes)], settings)
    assert state.empires["France"].gold == gold
    assert state.empires["France"].unrest == taxes
    with pytest.raises(RuleError, match="taxations needed"):
        soe_game(players, income + [upkeep(taxes - 1)], settings)
    assert f"3 + {taxes * gold_per_tax} − 8 = {gold}" in TEXT


@pytest.mark.unit
def test_income_and_upkeep_example():
    state = soe_game(
        [{"name": "Ana", "power": "France", "gold": 2, "population": 5},
         {"name": "Bo", "power": "Austria", "gold": 0, "population": 3}],
        [{"kind": "income", "markers": {"France": 4, "Austria": 2}},
         {"kind": "upkeep", "units": {"France": {"armies": 3, "fleets": 1, "fortresses": 1},
                                      "Austria": {"armies": 6, "fleets": 2}},
          "taxes": {"Austria": [1, 2]}},
         {"kind": "population"}])
    assert state.empires["France"].gold == 6 and state.empires["France"].population == 9
    assert state.empires["Austria"].gold == 1 and state.empires["Austria"].population == 8
    assert "11 − 5 = 6" in TEXT and "5 + 4 − 8 = 1" in TEXT


def risk_game(players, steps, settings=None):
    return read_session({"format": "warledger/1", "game": "risk", "players": players,
                         "steps": steps, "settings": settings or {}}).timeline.state


def pos(territories, armies, *continents):
    return {"territories": territories, "armies": armies, "continents": list(continents)}


ABC = [{"name": "A", "color": "red"}, {"name": "B", "color": "blue"},
       {"name": "C", "color": "green"}]


@pytest.mark.unit
@pytest.mark.parametrize(("positions", "scores", "winner"), [
    ({"A": pos(16, 40, "Australia", "South America"), "B": pos(14, 37, "Africa"),
      "C": pos(12, 30)}, (28, 24, 18), "A"),
    ({"A": pos(15, 22, "North America"), "B": pos(17, 29, "Australia"), "C": pos(10, 12)},
     (24, 24, 12), "B"),
    ({"A": pos(14, 24, "South America", "Australia"), "B": pos(14, 27, "Africa"),
      "C": pos(14, 20)}, (22, 22, 18), "A"),
    ({"A": pos(14, 29, "Australia"), "B": pos(14, 25, "South America"), "C": pos(14, 18)},
     (21, 21, 17), "A"),
])
def test_fixed_round_examples(positions, scores, winner):
    state = risk_game(ABC, [{"kind": "round"}] * 9 + [{"kind": "round", "positions": positions}])
    assert tuple(state.positions[p].score for p in "ABC") == scores
    assert state.winners == (winner,) and state.format == "fixed_round"


@pytest.mark.unit
def test_tie_then_shared_or_extra_round():
    tied = {"A": pos(21, 22, "Australia"), "B": pos(21, 22, "South America")}
    steps = [{"kind": "round"}] * 9 + [{"kind": "round", "positions": tied}]
    assert risk_game(ABC[:2], steps).tied == ("A", "B")
    shared = risk_game(ABC[:2], steps + [{"kind": "tiebreak", "resolution": "shared"}])
    report = risk.report(shared).to_json()
    assert (report["result"], report["winners"], report["rounds"]) == ("shared", ["A", "B"], 10)
    extra = risk_game(ABC[:2], steps + [
        {"kind": "tiebreak", "resolution": "extra_round"},
        {"kind": "round", "positions": {"A": pos(22, 24, "Australia"),
                                        "B": pos(20, 21, "South America")}}])
    assert (extra.winners, extra.rounds_played) == (("A",), 11)
    assert "A wins; 11 rounds" in FLAT


@pytest.mark.unit
def test_mission_decks_and_replacement():
    six = ["red", "blue", "green", "yellow", "black", "pink"]
    sizes = {deck: (len(missions.deck(risk.RiskSettings(mission_deck=deck), six)),
                    len(missions.deck(risk.RiskSettings(mission_deck=deck), six[:4])))
             for deck in missions.DECKS}
    assert sizes == {"european": (14, 14), "us1993": (12, 10)}
    added = len(missions.deck(risk.RiskSettings(), ["red", "blue", "purple"]))
    assert added == 15 and "(red, blue and purple: 15 cards)" in FLAT
    assert "| cards with 6 players in the printed colours | 14 | 12 |" in TEXT
    assert "| cards with 4 players (red, blue, green, yellow) | 14 | 10 |" in TEXT
    players = [{"name": "Ana", "color": "red", "mission": "destroy:blue"},
               {"name": "Bo", "color": "blue", "mission": "24"},
               {"name": "Cy", "color": "green", "mission": "18x2"}]
    step = [{"kind": "eliminate", "player": "Bo", "by": "Cy"}]
    european = risk_game(players, step, {"mode": "missions", "mission_deck": "european"})
    assert not european.finished and european.missions["Ana"] == "24"
    us1993 = risk_game(players, step, {"mode": "missions", "mission_deck": "us1993"})
    assert us1993.winners == ("Ana",) and us1993.format == "secret_mission"


@pytest.mark.unit
def test_concession_and_stalemate_examples():
    players = [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"},
               {"name": "Cy", "color": "green"}]
    rounds = [{"kind": "round"}] * 3
    conceded = risk_game(players, rounds + [
        {"kind": "concede", "player": "Bo", "accepted": True, "to": "Cy"},
        {"kind": "concede", "player": "Ana", "accepted": True, "to": "Cy"}], {"mode": "conquest"})
    assert (conceded.winners, conceded.format, conceded.rounds_played) == (("Cy",), "concession", 4)
    last = {"Ana": pos(20, 40, "North America"), "Bo": pos(12, 20), "Cy": pos(10, 15, "Australia")}
    played = [{"kind": "round"}] * 5 + [{"kind": "round", "positions": last}]
    scored = risk_game(players, played + [{"kind": "stalemate", "resolution": "fixed_round"}],
                       {"mode": "conquest"})
    assert [scored.positions[p].score for p in ("Ana", "Bo", "Cy")] == [33, 16, 15]
    assert scored.winners == ("Ana",)
    assert "Ana 20 + 5 + 8 = 33, Bo 12 + 0 + 4 = 16, Cy 10 + 2 + 3 = 15" in TEXT


@pytest.mark.unit
def test_league_examples():
    assert POINTS == {"win": 3, "draw": 1, "loss": 0}
    players = [{"name": n, "color": c} for n, c in
               (("Ana", "red"), ("Bo", "blue"), ("Cy", "green"), ("Di", "yellow"))]
    drawn = risk_game(players, [{"kind": "round"},
                                {"kind": "eliminate", "player": "Di", "by": "Ana"},
                                {"kind": "stalemate", "resolution": "draw"}], {"mode": "conquest"})
    points = {p: POINTS[o] for p, o in league.outcomes(risk.report(drawn)).items()}
    assert points == {"Ana": 1, "Bo": 1, "Cy": 1, "Di": 0}
    assert "| Ana 1, Bo 1, Cy 1, Di 0 |" in TEXT


# ---------------------------------------------------------------- the rules screen

async def loaded(pilot, screen: RulesScreen) -> None:
    """Wait until the rules screen has filled in its document (after its first frame)."""
    for _ in range(200):
        if screen.loaded:
            break
        await pilot.pause(0.05)
    await pilot.pause()
    assert screen.loaded


async def test_help_then_r_opens_the_rules_and_escape_returns(tmp_path):
    app = WarledgerApp(ledger=Ledger(make_engine(str(tmp_path / "t.db"))))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        home = app.screen
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press(key_of(HelpScreen, "rules"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        await loaded(pilot, screen)
        from textual.widgets import Markdown, MarkdownViewer

        viewer = screen.query_one(MarkdownViewer)
        assert viewer.show_table_of_contents
        headings = [block.source for block in screen.query("MarkdownH2")]
        assert any("Struggle of Empires" in (h or "") for h in headings)
        assert "Struggle of Empires" in viewer.document.source
        assert screen.query_one(Markdown) is viewer.document
        assert app.focused is viewer.document  # the arrow keys scroll the reference
        assert viewer.scroll_y == 0  # not opened over a game: the top
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is home


async def test_rules_open_at_the_game_of_the_screen_below(tmp_path):
    ledger = Ledger(make_engine(str(tmp_path / "t.db")))
    ledger.replay(RISK_DEMO)
    app = WarledgerApp(ledger=ledger)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the only saved game
        await pilot.pause()
        game_screen = app.screen
        assert game_of(game_screen) == "risk"
        await pilot.press("f1", key_of(HelpScreen, "rules"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RulesScreen) and screen.game == "risk"
        await loaded(pilot, screen)
        from textual.widgets import MarkdownViewer

        viewer = screen.query_one(MarkdownViewer)
        heading = next(b for b in screen.query("MarkdownH2") if b.source.strip() == "## Risk")
        # The guide scrolls to the section once it has been laid out (after its refresh).
        await until(pilot, lambda: viewer.scroll_y > 0
                    and 0 <= heading.region.y - viewer.region.y <= 3,
                    "the Risk section at the top")
        await pilot.press("f1")  # help over the rules: its rules key just goes back to them
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press(key_of(HelpScreen, "rules"))
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game_screen


def test_game_of_screens():
    """A screen says which game it shows (`game_shown`); nothing is guessed from names."""
    from tui.games.risk.setup import NewRiskGameScreen
    from tui.games.soe.setup import NewSoeGameScreen
    from tui.screens.home import HomeScreen

    assert game_of(NewSoeGameScreen()) == "soe"
    assert game_of(NewRiskGameScreen()) == "risk"
    assert game_of(HomeScreen()) is None
    assert game_of(object()) is None
    assert RulesScreen("chess").game is None
