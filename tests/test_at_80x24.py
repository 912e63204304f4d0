"""Every screen at 80x24, in English and in Romanian, shows its footer whole and its title
readable (issue 44): the home screen empty and with games, both games' setup, the board
profiles, each phase of both games and their dialogs, the results, the league (with no game
finished too), a player, head to head, balance, the help and the scoreboard. The games are
set up through the ledger (tests/scenes.py); keys only open the screens. What is checked is
what the terminal shows (the compositor's lines): each key of the footer, its key and its
words, on the footer's line; the header's title and sub-title on its line, with no "…" for
the part cut; and each heading and hint of the screen, every word of it, where it stands."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from scenes import (
    RISK_LAST_ROUND,
    SMALL,
    SOE_WAR_2,
    WAR_3,
    Scene,
    app_for,
    imported,
    laid_out,
    play,
    story,
)
from textual.widgets import DataTable, Static
from textual.widgets._footer import FooterKey
from textual.widgets._header import HeaderTitle

from tests.test_tui_hostile import screen_text
from tui.widgets.footer import Footer

pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

FINISHED = {"finish_soe": True, "risk_steps": (RISK_LAST_ROUND,)}
# The last round with Ana and Bo level on every count (the same territories, armies and
# continents held, each a continent of two bonus armies): the table settles the tie.
TIED = {"risk_steps": ({"kind": "round", "positions": {
    **RISK_LAST_ROUND["positions"],
    "Ana": {"territories": 16, "armies": 39, "continents": ["Australia"]},
    "Bo": {"territories": 16, "armies": 39, "continents": ["South America"]}}},)}
END_OF_GAME = (*SOE_WAR_2, *WAR_3)
# Each screen: its name, the keys from the saved games (the first one lit: the Struggle of
# Empires demo; the Risk demo under it), and the games it needs.
SCREENS: list[tuple[str, tuple[str, ...], dict]] = [
    ("home", (), {}),
    ("home_delete", ("delete",), {}),
    ("home_help", ("f1",), {}),
    ("home_empty", (), {"demos": False}),
    ("home_empty_help", ("f1",), {"demos": False}),
    ("soe_setup", ("n",), {}),
    ("soe_setup_help", ("n", "f1"), {}),
    ("risk_setup", ("r",), {}),
    ("board_profiles", ("b",), {}),
    ("soe_income", ("enter",), {"soe_steps": SOE_WAR_2}),
    ("soe_upkeep", ("enter",), {}),
    ("soe_tax", ("enter", "ctrl+x"), {}),
    ("soe_correction", ("enter", "ctrl+e"), {}),
    ("soe_help", ("enter", "f1"), {}),
    ("soe_population", ("enter",), {"soe_steps": SOE_WAR_2[:1]}),
    ("soe_scoring", ("enter",), {"soe_steps": SOE_WAR_2[:2]}),
    ("soe_end_of_war", ("enter",), {"soe_steps": SOE_WAR_2[:3]}),
    ("soe_end_of_game", ("enter",), {"soe_steps": END_OF_GAME}),
    ("soe_results", ("enter",), FINISHED),
    ("risk_round", ("down", "enter"), {}),
    ("risk_out", ("down", "enter", "ctrl+x"), {}),
    ("risk_concession", ("down", "enter", "ctrl+k"), {}),
    ("risk_stalemate", ("down", "enter", "ctrl+d"), {}),
    ("risk_help", ("down", "enter", "f1"), {}),
    ("risk_tiebreak", ("down", "enter"), TIED),
    ("risk_results", ("down", "enter"), FINISHED),
    ("league", ("l",), FINISHED),
    ("league_games", ("l", "enter"), FINISHED),
    ("league_help", ("l", "f1"), FINISHED),
    ("league_none_finished", ("l",), {}),
    ("league_seasons", ("l", "e", "s"), {"setup": story}),
    ("player", ("l", "p"), {"setup": story}),
    ("head_to_head", ("l", "h"), {"setup": story}),
    ("balance", ("l", "b"), {"setup": story}),
    ("result_only", ("down", "down", "enter"), {"setup": imported}),
    ("scoreboard_soe", (), {"scoreboard": "soe", "soe_steps": SOE_WAR_2[:3]}),
    ("scoreboard_risk", (), {"scoreboard": "risk"}),
]


def visits(lang: str) -> list[Scene]:
    return [Scene(f"{name}_{lang}", name, press=keys, size=SMALL, lang=lang,
                  screenshot=False, **games) for name, keys, games in SCREENS]


def same_games(scenes: list[Scene]) -> list[list[Scene]]:
    """The visits by the games they need: one app on one database each, going back to the
    saved games between visits (as tests/test_romanian_screens.py does); a scoreboard is an
    app of its own."""
    groups: dict[tuple, list[Scene]] = {}
    for scene in scenes:
        key = (scene.demos, repr(scene.soe_steps), scene.finish_soe, repr(scene.risk_steps),
               scene.setup, scene.scoreboard or "")
        groups.setdefault(key, []).append(scene)
    return [group[i:i + 6] for group in groups.values() for i in range(0, len(group), 6)]


GROUPS = [(lang, group) for lang in ("en", "ro") for group in same_games(visits(lang))]


def plain(widget) -> str:
    drawn = widget.render()
    return str(getattr(drawn, "plain", drawn))


def words(text: str) -> str:
    return " ".join(text.split())


def region_text(lines: list[str], widget) -> str:
    r = widget.region
    return "\n".join(line[r.x:r.right] for line in lines[r.y:r.bottom])


def cut_on(app, only: list | None = None) -> tuple[list[str], list]:
    """What the terminal shows cut: a footer key not whole on the footer's line, a header
    title cut, a heading, hint, label or button of the screen not whole where it stands;
    and the ones out of sight in a container that scrolls (to be scrolled to)."""
    lines = screen_text(app).splitlines()
    screen = app.screen
    cut: list[str] = []
    if only is None:
        for footer in screen.query(Footer):
            line = lines[footer.region.y]
            if footer.max_scroll_x:
                cut.append(f"the footer scrolls by {footer.max_scroll_x}: {line.rstrip()!r}")
            for key in footer.query(FooterKey):
                if not key.display:
                    continue
                shown = words(plain(key))
                if shown not in words(line):
                    cut.append(f"footer key {shown!r} not whole in {line.rstrip()!r}")
        for title in screen.query(HeaderTitle):
            line = lines[title.region.y]
            shown = words(plain(title))
            if shown not in words(line) or ("…" in line and "…" not in shown):
                cut.append(f"title {shown!r} cut: {line.strip()!r}")
    unseen = []
    for widget in only if only is not None else screen.query(".title, .hint, Button, Label"):
        name = widget.id or "".join(sorted(widget.classes)) or type(widget).__name__
        if not widget.display or not widget.region.area or not plain(widget).strip():
            continue
        if not seen_whole(screen, widget):
            if only is None and scrolls_to(widget):
                unseen.append(widget)
            else:
                cut.append(f"{name} out of sight: {plain(widget)!r}")
            continue
        if words(plain(widget)) not in words(region_text(lines, widget)):
            cut.append(f"{name} cut: {plain(widget)!r} shows "
                       f"{region_text(lines, widget)!r}")
    return cut, unseen


def seen_whole(screen, widget) -> bool:
    """Whether the whole of `widget` is in sight: not scrolled partly away, not past the
    screen's edge, no row of it under another widget (a docked message)."""
    geometry = screen._compositor.full_map.get(widget)
    if geometry is None or not (geometry.clip.contains_region(geometry.region)
                                and screen.region.contains_region(geometry.region)):
        return False
    r = geometry.region
    for y in range(r.y, r.bottom):
        try:
            on_top, _region = screen.get_widget_at(r.x, y)
        except Exception:  # noqa: BLE001 - nothing there
            return False
        if on_top is not widget and widget not in on_top.ancestors:
            return False
    return True


def scrolls_to(widget) -> bool:
    """Whether a container around `widget` scrolls, so that it can be brought into sight."""
    return any(node.max_scroll_y or node.max_scroll_x for node in widget.ancestors
               if hasattr(node, "max_scroll_y"))


async def every_cut(app, pilot) -> list[str]:
    """cut_on, and each widget out of sight scrolled to and checked in its turn."""
    cut, unseen = cut_on(app)
    for widget in unseen:
        widget.scroll_visible(animate=False, immediate=True)
        await laid_out(pilot)
        cut += cut_on(app, [widget])[0]
    return cut


@pytest.mark.parametrize("lang,scenes", GROUPS,
                         ids=[f"{lang}:" + "+".join(s.about for s in g) for lang, g in GROUPS])
async def test_every_screen_is_whole_at_80x24(lang, scenes, tmp_path, migrated_file,
                                              monkeypatch):
    import tui.plumbing.ledger_calls

    monkeypatch.setattr(tui.plumbing.ledger_calls, "SAY_WAITING_AFTER", 60.0)  # no "waiting…" line
    app = app_for(scenes[0], tmp_path, migrated_file)
    found: dict[str, list[str]] = {}
    async with app.run_test(size=SMALL) as pilot:
        for scene in scenes:
            await pilot.pause()
            if not scene.scoreboard:
                while len(app.screen_stack) > 1:  # back to the saved games, the first lit
                    await app.pop_screen()
                    await pilot.pause()
                for table in app.screen.query(DataTable):
                    table.move_cursor(row=0)
            await play(scene, pilot)
            found[scene.about] = await every_cut(app, pilot)
            if scene.about == "risk_tiebreak":
                assert app.screen.state.phase == "tiebreak"
            if scene.about == "soe_end_of_game":
                # What Enter does now: said at 80x24 too, not only from 30 rows.
                hint = app.screen.query_one("#step-hint", Static)
                assert hint.display and hint.region.area, found
    assert {about: cut for about, cut in found.items() if cut} == {}


async def test_the_title_is_fitted_again_when_the_window_narrows(tmp_path, migrated_file,
                                                                 monkeypatch):
    """A game opened at 120 columns, then the window made 80 wide: the header leaves out
    the game's name from the sub-title then, not the end of the title line."""
    import tui.plumbing.ledger_calls

    monkeypatch.setattr(tui.plumbing.ledger_calls, "SAY_WAITING_AFTER", 60.0)
    scene = Scene("resized_ro", "resized", press=("enter",), lang="ro", screenshot=False)
    app = app_for(scene, tmp_path, migrated_file)
    async with app.run_test(size=(120, 40)) as pilot:
        await play(scene, pilot)
        wide = screen_text(app).splitlines()[0]
        assert "Demo: Struggle of Empires — Struggle of Empires · războiul 2 din 3" in wide
        await pilot.resize_terminal(80, 24)
        await laid_out(pilot)
        assert cut_on(app)[0] == []
        assert "Demo: Struggle of Empires — războiul 2 din 3" in screen_text(app).splitlines()[0]
