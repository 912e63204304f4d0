"""The screens of warledger as scenes: a database prepared from the demo games, and the keys
that bring a screen up. The snapshot tests check each scene; `main` regenerates the pictures
in screenshots/ from them:

    uv run python tests/scenes.py
"""

from __future__ import annotations

import copy
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZE = (120, 40)
SMALL = (80, 24)  # the smallest terminal every main screen is pictured at
FIXED_NOW = datetime(2026, 3, 13, 20, 30, tzinfo=UTC)  # a Friday evening


@dataclass(frozen=True)
class Scene:
    """A screen to picture: which extra steps the demo games get, and the keys to press."""

    name: str
    about: str
    press: tuple[str, ...] = ()
    soe_steps: tuple[dict, ...] = ()
    finish_soe: bool = False
    risk_steps: tuple[dict, ...] = ()
    demos: bool = True
    setup: Callable | None = field(default=None, compare=False)
    soe_names: tuple[str, ...] = ()  # other names for the SoE demo's players, in seat order
    # Actions run after the keys ("screen.history"), for a screen only the palette opens.
    actions: tuple[str, ...] = ()
    size: tuple[int, int] = SIZE
    screenshot: bool = True  # copied to screenshots/ (the README's pictures)
    lang: str = "en"  # the language the screen is shown in
    scoreboard: str | None = None  # the spectator's app, showing the game of this tag
    # The player the app seats (their own part of a step), on the newest game, opened at once.
    player: str | None = None


SOE_UPKEEP = {"kind": "upkeep", "units": {
    "France": {"armies": 8, "fleets": 2, "fortresses": 1},
    "Britain": {"armies": 3, "fleets": 7, "fortresses": 2},
    "Austria": {"armies": 9, "fleets": 0, "fortresses": 2},
    "Russia": {"armies": 14, "fleets": 1, "fortresses": 0}}, "taxes": {"Russia": [2, 1]}}
WAR_3 = [
    {"kind": "income", "regions": {
        "German States": {"France": 2, "Austria": 4}, "Africa": {"Britain": 2, "France": 2},
        "East Indies": {"Britain": 3}, "Ottoman Empire": {"Russia": 3, "Austria": 1},
        "India": {"Britain": 2, "France": 2, "Russia": 1}}},
    {"kind": "upkeep", "units": {"Russia": {"armies": 6}}, "taxes": {}},
    {"kind": "population"}, {"kind": "scoring"},
]

SOE_WAR_2 = (SOE_UPKEEP, {"kind": "population"}, {"kind": "scoring"}, {"kind": "end_war"})

RISK_LAST_ROUND = {"kind": "round", "positions": {
    "Ana": {"territories": 17, "armies": 40, "continents": ["Australia", "Africa"]},
    "Bo": {"territories": 15, "armies": 38, "continents": ["South America"]},
    "Cy": {"territories": 7, "armies": 22, "continents": []},
    "Di": {"territories": 3, "armies": 8, "continents": []}}}

# The group's story (issue 25): a group's evenings over two seasons, Risk and Struggle of
# Empires, with names that look like markup.
STORY_GROUP = "Thursday club"
STORY_NAMES = ("[b]Ana[/b]", "Bo[/]", "Cy", "Di")
# Each Risk evening: the players' territories in seat order (the most wins the fixed round).
STORY_RISK = ((20, 10, 7, 5), (8, 18, 10, 6), (21, 9, 6, 6), (6, 9, 20, 7), (17, 16, 5, 4),
              (9, 8, 7, 18), (22, 7, 8, 5))
# Each Struggle of Empires evening: who sits in each of the demo's seats (Britain's
# player wins).
STORY_SOE = ((1, 0, 2, 3), (0, 2, 1, 3), (2, 0, 3, 1))


def story(ledger) -> None:
    """Ten evenings of the Thursday club from January to March 2026 (a season of winter,
    and a spring that carries its ratings over), besides the demo games in the group the
    demos went in."""
    import storage.ledger
    from tui.games.soe.demo import soe_demo

    colours = ("red", "blue", "green", "yellow")
    evenings = [("risk", i) for i in range(len(STORY_RISK))] + [
        ("soe", i) for i in range(len(STORY_SOE))]
    evenings.sort(key=lambda e: (e[1] * 3 + (1 if e[0] == "soe" else 0)))
    real_now = storage.ledger.now
    try:
        for day, (game, i) in enumerate(evenings):
            when = datetime(2026, 1, 8, 21, tzinfo=UTC) + timedelta(weeks=day)
            storage.ledger.now = lambda when=when: when
            if game == "risk":
                seats = [STORY_NAMES[(i + n) % 4] for n in range(4)]
                created = ledger.create_game(
                    "risk", f"Thursday {day + 1}", {"mode": "fixed_rounds", "rounds": 1},
                    [{"name": name, "color": colour} for name, colour in zip(seats, colours,
                                                                             strict=True)],
                    group=STORY_GROUP)
                ledger.record(created.id, {"kind": "round", "positions": {
                    name: {"territories": t, "armies": 10 + t, "continents": []}
                    for name, t in zip(seats, STORY_RISK[i], strict=True)}})
            else:
                data = soe_demo()
                del data["id"]
                data["title"] = f"Thursday {day + 1}"
                for player, n in zip(data["players"], STORY_SOE[i], strict=True):
                    player["name"] = STORY_NAMES[n]
                data["steps"] += [SOE_UPKEEP, {"kind": "population"}, {"kind": "scoring"},
                                  {"kind": "end_war"}, *WAR_3, {"kind": "end_game"}]
                ledger.replay(data, group=STORY_GROUP)
    finally:
        storage.ledger.now = real_now
    ledger.add_season(STORY_GROUP, "Winter 2026", date(2026, 1, 1), date(2026, 2, 28))
    ledger.add_season(STORY_GROUP, "Spring 2026", date(2026, 3, 1), date(2026, 5, 31),
                      carry_over=True)


def imported(ledger) -> None:
    """BoardGameGeek plays of tests/data, imported as results (issue 27)."""
    from rules.plays import read_plays

    ledger.import_plays(read_plays((ROOT / "tests" / "data" / "bgg_plays.xml").read_bytes()
                                   ).plays)


SCENES = [
    Scene("home", "Home: saved games, newest first"),
    Scene("home_empty", "Home on a first start", demos=False),
    Scene("soe_setup", "New Struggle of Empires game", press=("n",)),
    Scene("board_profiles", "Board profiles: the printed VP values", press=("b",)),
    Scene("soe_upkeep", "Struggle of Empires: upkeep, with a forced taxation",
          press=("enter", "equals_sign", "1", "2", "right", "3", "down", "down", "down",
                 "left", "left", "equals_sign", "3", "0", "tab", "tab", "tab", "2")),
    Scene("soe_scoring", "Struggle of Empires: scoring with the reasons for ties",
          press=("enter",), soe_steps=(SOE_UPKEEP, {"kind": "population"})),
    Scene("soe_end_of_war", "Struggle of Empires: the end-of-war checklist",
          press=("enter", "space"),
          soe_steps=(SOE_UPKEEP, {"kind": "population"}, {"kind": "scoring"})),
    Scene("soe_end_of_game", "Struggle of Empires: revolution, penalties and final VP",
          press=("enter",), soe_steps=(SOE_UPKEEP, {"kind": "population"}, {"kind": "scoring"},
                                       {"kind": "end_war"}, *WAR_3)),
    Scene("soe_results", "Struggle of Empires: final standings and VP per war",
          press=("enter",), finish_soe=True),
    Scene("soe_help", "Help on the game screen", press=("enter", "f1")),
    Scene("soe_literal_names", "Names are shown exactly as typed, brackets and all",
          press=("enter",), soe_names=("[b]Ana[/b]", "Bo[/]", "[@click=app.quit]Cy[/]", "[Di]"),
          soe_steps=(SOE_UPKEEP, {"kind": "population"}, {"kind": "scoring"},
                     {"kind": "end_war"}, *WAR_3)),
    Scene("league", "League across finished games", press=("l",), finish_soe=True,
          risk_steps=(RISK_LAST_ROUND,)),
    Scene("risk_setup", "New Risk game", press=("r",)),
    Scene("risk_round", "Risk: the last agreed round, typed in", press=(
        "down", "enter", "1", "7", "right", "4", "0", "right", "right", "right", "right",
        "1", "right", "right", "1")),
    Scene("risk_results", "Risk: fixed-round scoring and the tie-break chain",
          press=("down", "enter"), risk_steps=(RISK_LAST_ROUND,)),
    Scene("league_seasons", "League of a group's season: ratings with their uncertainty",
          press=("l", "e", "s"), setup=story),
    Scene("player", "A player's story: rating over time, best power and seat, nemesis",
          press=("l", "p"), setup=story),
    Scene("head_to_head", "Head to head: who finished ahead of whom", press=("l", "h"),
          setup=story),
    Scene("balance", "Balance: which powers, seats and colours win", press=("l", "b"),
          setup=story),
    Scene("scoreboard_soe", "The scoreboard of a Struggle of Empires game, for a TV",
          scoreboard="soe", soe_steps=SOE_WAR_2[:3]),
    Scene("scoreboard_risk", "The scoreboard of a Risk game, on a 200-column terminal",
          scoreboard="risk", size=(200, 60)),
]


def seats_typing(ledger) -> None:
    """At the Struggle of Empires demo's upkeep, Ana's part is ready and Cy is typing his."""
    from storage.parts import save_part

    game = ledger.games()[0]
    seq = ledger.head(game.id)
    save_part(ledger, game.id, seq, "upkeep", "Ana",
              {"armies": 3, "fleets": 1, "fortresses": 0, "tokens": []}, True)
    save_part(ledger, game.id, seq, "upkeep", "Cy",
              {"armies": 5, "fleets": 0, "fortresses": 1, "tokens": []}, False)


def small(name: str, about: str, **kwargs) -> Scene:
    """A main screen at 80x24: checked by the snapshot tests, not a README picture."""
    return Scene(f"{name}_80x24", f"{about}, at 80x24", size=SMALL, screenshot=False,
                 **kwargs)


SCENES += [
    Scene("seat_upkeep_40x20", "Bo's own upkeep on a phone: Ana ready, Cy typing",
          player="Bo", size=(40, 20), press=("2", "4"), setup=seats_typing),
    small("home", "Home with saved games"),
    small("soe_setup", "New Struggle of Empires game", press=("n",)),
    small("risk_setup", "New Risk game", press=("r",)),
    small("soe_income", "Struggle of Empires: income, the region grid", press=("enter",),
          soe_steps=SOE_WAR_2),
    small("soe_upkeep", "Struggle of Empires: upkeep", press=("enter",)),
    small("soe_scoring", "Struggle of Empires: scoring", press=("enter",),
          soe_steps=SOE_WAR_2[:2]),
    small("soe_end_of_game", "Struggle of Empires: end of game", press=("enter",),
          soe_steps=(*SOE_WAR_2, *WAR_3)),
    small("risk_round", "Risk: the last agreed round", press=("down", "enter")),
    small("risk_results", "Risk: fixed-round results", press=("down", "enter"),
          risk_steps=(RISK_LAST_ROUND,)),
    small("soe_results", "Struggle of Empires: final standings and VP by region",
          press=("enter",), finish_soe=True),
    small("league", "League", press=("l",), finish_soe=True, risk_steps=(RISK_LAST_ROUND,)),
    small("history", "History of a game", press=("enter",), actions=("screen.history",)),
    small("league_seasons", "League of a group's season, with ratings", press=("l", "e", "s"),
          setup=story),
    small("player", "A player's story", press=("l", "p"), setup=story),
    small("head_to_head", "Head to head", press=("l", "h"), setup=story),
    small("soe_help", "Help on the game screen", press=("enter", "f1")),
    small("scoreboard_soe", "The scoreboard of a Struggle of Empires game", scoreboard="soe",
          soe_steps=SOE_WAR_2[:3]),
    small("scoreboard_risk", "The scoreboard of a Risk game", scoreboard="risk"),
    small("result_only", "A Struggle of Empires play imported from BoardGameGeek",
          press=("down", "down", "enter"), setup=imported),
]


POCKET = (40, 20)  # a phone in portrait (issue 45): the smallest a seated player's screens take
POCKET_NAMES = ("[b]Ana[/b]", "Bo[/]", "Cy", "Di")


def pocket(name: str, about: str, *, screenshot: bool = True, **kwargs) -> Scene:
    """A seated player's screen at 40x20, the SoE demo's players named like markup:
    checked by the snapshot tests, and a README picture."""
    return Scene(f"{name}_40x20", f"{about}, at 40x20", size=POCKET, screenshot=screenshot,
                 soe_names=POCKET_NAMES, **kwargs)


SCENES += [
    pocket("home", "Home on a phone: title, game and where it stands"),
    pocket("soe_upkeep", "Struggle of Empires: upkeep on a phone", press=("enter",)),
    pocket("soe_scoring", "Struggle of Empires: scoring and the VP it gives, on a phone",
           press=("enter",), soe_steps=SOE_WAR_2[:2]),
    pocket("risk_round", "Risk: a round on a phone", press=("down", "enter")),
    pocket("soe_help", "Help on the game screen, on a phone", press=("enter", "f1")),
    pocket("history", "History of a game, on a phone", press=("enter",),
           actions=("screen.history",)),
    pocket("soe_results", "Struggle of Empires: final standings, on a phone",
           press=("enter",), finish_soe=True),
    pocket("league", "League of a group's season, on a phone", press=("l", "e", "s"),
           setup=story),
    pocket("scoreboard_soe", "The scoreboard of a Struggle of Empires game, on a phone",
           scoreboard="soe", soe_steps=SOE_WAR_2[:3]),
]


def romanian(scene: Scene, *, screenshot: bool = False) -> Scene:
    """`scene` in Romanian (issue 24): its name ends in _ro."""
    from dataclasses import replace

    return replace(scene, name=f"{scene.name}_ro", about=f"{scene.about} (română)", lang="ro",
                   screenshot=screenshot)


# The main screens at 80x24 in Romanian (longer words, the same room), and the README's
# Romanian pictures beside the English ones.
SCENES += [romanian(scene) for scene in SCENES if scene.size == SMALL]
SCENES += [romanian(scene, screenshot=True) for scene in SCENES
           if scene.name in ("home", "soe_upkeep", "soe_scoring", "risk_results", "league")]
PICTURES = [scene for scene in SCENES if scene.screenshot]  # copied to screenshots/


def prepare(scene: Scene, db: str) -> None:
    """The scene's database: the demo games with the scene's extra steps, at a fixed time."""
    import storage.ledger
    from i18n import _
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.games.risk.demo import RISK_DEMO
    from tui.games.soe.demo import DEMO_BOARD, DEMO_REGIONS, soe_demo

    real_now = storage.ledger.now
    storage.ledger.now = lambda: FIXED_NOW
    try:
        ledger = Ledger(make_engine(db))
        if not scene.demos:
            return
        ledger.save_board_profile(_(DEMO_BOARD), DEMO_REGIONS)
        risk = copy.deepcopy(RISK_DEMO)
        risk["steps"] += list(scene.risk_steps)
        ledger.replay(risk)
        soe = soe_demo()
        soe["steps"] += list(scene.soe_steps)
        for player, name in zip(soe["players"], scene.soe_names, strict=False):
            player["name"] = name
        if scene.finish_soe:
            soe["steps"] += [SOE_UPKEEP, {"kind": "population"}, {"kind": "scoring"},
                             {"kind": "end_war"}, *WAR_3, {"kind": "end_game"}]
        ledger.replay(soe)  # the newest game: first on the home screen
        if scene.setup is not None:
            scene.setup(ledger)
        ledger.engine.dispose()
    finally:
        storage.ledger.now = real_now


def app_for(scene: Scene, folder: Path, migrated: Path | None = None):
    """A WarledgerApp on the scene's database, with the date fixed for the setup screen.
    `migrated`: a database file at the newest schema to start from (conftest's
    migrated_file), instead of migrating a new one."""
    import tui.screens.setup
    from i18n import set_language
    from tui.app import WarledgerApp

    db = str(folder / f"{scene.name}.db")
    if migrated is not None:
        shutil.copyfile(migrated, db)
    set_language(scene.lang)  # the tests' fixture sets English again after each test
    prepare(scene, db)
    # The evening the pictures are set on.
    tui.screens.setup.today = lambda: FIXED_NOW
    if scene.scoreboard:
        return scoreboard_for(scene, db)
    return WarledgerApp(db, player=scene.player)


def scoreboard_for(scene: Scene, db: str):
    """The spectator's app on the scene's game of its `scoreboard` tag."""
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.scoreboard.app import ScoreboardApp

    engine = make_engine(db)
    game = next(g.id for g in Ledger(engine).games() if g.game == scene.scoreboard)
    engine.dispose()
    return ScoreboardApp(db, game)


async def play(scene: Scene, pilot) -> None:
    """Press the scene's keys, then stop every cursor blinking so the picture is the same
    every time."""
    from textual.widgets import Input

    await pilot.pause()
    if scene.player:  # a seat's terminal opens the game (a phone-sized window may be too
        # small for home)
        pilot.app.open_game(pilot.app.ledger.games()[0].id)
        await pilot.pause()
    for key in scene.press:
        await pilot.press(key)
        await pilot.pause()
    for action in scene.actions:
        await pilot.app.run_action(action)
        await pilot.pause()
    for text_field in pilot.app.screen.query(Input):
        text_field.cursor_blink = False
    await laid_out(pilot)


async def laid_out(pilot, pauses_at_most: int = 50) -> None:
    """Pause until the screen has settled: no widget has a message waiting or a measure
    owed (a DataTable given rows measures itself when it is next idle), and two pauses in a
    row leave every widget where it was. Layout alone was not enough: on a busy machine the
    player's story was taken twice with its table of bests given rows but not yet measured,
    since Textual's idle check (little CPU used during a sleep) also holds for a process the
    machine is not running. These are Textual's own names: should one go, this fails."""
    from textual.widgets import DataTable

    def layout() -> list:
        return [(widget, widget.region, widget.virtual_size)
                for widget in pilot.app.screen.walk_children(with_self=True)]

    def owing() -> list:
        nodes = [pilot.app, *pilot.app.screen.walk_children(with_self=True)]
        return [node for node in nodes if node.message_queue_size
                # a screen whose widgets changed size (a title updated late, wrapped
                # anew) and is not laid out again yet
                or getattr(node, "_layout_required", False)
                or getattr(node, "_require_update_dimensions", False)
                or getattr(node, "_updated_cells", None)
                or (isinstance(node, DataTable) and node.display and node.row_count
                    and not node.virtual_size.height)]

    before = None
    for _ in range(pauses_at_most):
        await pilot.pause()
        now = layout()
        if now == before and not owing():
            return
        before = now
    raise AssertionError(f"the screen did not settle in {pauses_at_most} pauses: {owing()}")


def main() -> None:
    """Regenerate the snapshots, then copy them to screenshots/ (PNG too where rsvg-convert is)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--snapshot-update", "-k", "not screenshot_is_current",
                           str(ROOT / "tests" / "test_snapshots.py")], cwd=ROOT)
    if done.returncode:
        sys.exit(done.returncode)
    shots = ROOT / "screenshots"
    shots.mkdir(exist_ok=True)
    converter = shutil.which("rsvg-convert")
    for scene in PICTURES:
        svg = snapshot_path(scene)
        target = shots / f"{scene.name}.svg"
        shutil.copyfile(svg, target)
        if converter:
            subprocess.run([converter, "-o", str(target.with_suffix(".png")), str(target)],
                           check=True)
    print(f"{len(PICTURES)} screenshots in {shots}" + ("" if converter else
          " (no PNGs: install librsvg2-bin for rsvg-convert)"))


def snapshot_path(scene: Scene) -> Path:
    """Where pytest-textual-snapshot keeps the scene's accepted picture."""
    return (ROOT / "tests" / "__snapshots__" / "test_snapshots"
            / f"test_screen[{scene.name}].raw")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
