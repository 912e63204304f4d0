"""Every screen and dialog read in Romanian shows no English message of the catalogs (issue
24): the scenes of the snapshots and the dialogs each key opens, on the demo games, with
what is on the terminal compared against every message whose Romanian differs."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.pofile import read_po
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from scenes import RISK_LAST_ROUND, SOE_WAR_2, WAR_3, Scene, app_for, play
from test_tui_risk import screen_text

from i18n import DOMAIN, LOCALE_DIR
from tui.widgets.footer import Footer

# Pauses leave out a game screen's live look (a long poll that records nothing).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

LETTER = "A-Za-zĂÂÎȘȚăâîșțÀ-ÿ"
# Words both languages write the same way, and which English therefore shares with
# Romanian sentences (a power's name, "Total", "Risk"): never evidence of English.
SAME_IN_BOTH = {"Risk", "Total", "Struggle of Empires", "PV", "VP"}


@cache
def english_pieces() -> dict[str, re.Pattern[str]]:
    """The English of every message whose Romanian differs, cut at its placeholders: the
    pieces of two words or more, or one word of five letters or more."""
    with (LOCALE_DIR / "ro" / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        catalog = read_po(f, locale="ro")
    pieces: dict[str, re.Pattern[str]] = {}
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (
            message.string,)
        if not message.id or any(i in strings for i in ids):
            continue
        for english in ids:
            for piece in re.split(r"\{[^{}]*\}", english):
                piece = piece.strip(" .,:;·()[]—–-+=/→'\"…!?\n")
                words = re.findall(f"[{LETTER}]+", piece)
                if piece in SAME_IN_BOTH or not words:
                    continue
                if len(words) >= 2 or len(words[0]) >= 5:
                    pieces[piece] = re.compile(
                        f"(?<![{LETTER}]){re.escape(piece)}(?![{LETTER}])")
    return pieces


def english_on(text: str) -> list[str]:
    return sorted(piece for piece, pattern in english_pieces().items()
                  if pattern.search(text))


def romanian(name: str, **kwargs) -> Scene:
    return Scene(name, name, lang="ro", screenshot=False, **kwargs)


FINISHED = {"finish_soe": True, "risk_steps": (RISK_LAST_ROUND,)}
VISITS = [
    romanian("home"),
    romanian("home_empty", demos=False),
    romanian("home_delete", press=("delete",)),
    romanian("home_help", press=("f1",)),
    romanian("home_palette", press=("ctrl+p",)),
    romanian("soe_setup", press=("n",)),
    romanian("soe_setup_refused", press=("n", "ctrl+s")),
    romanian("risk_setup", press=("r",)),
    romanian("board_profiles", press=("b",)),
    romanian("soe_income", press=("enter",), soe_steps=SOE_WAR_2),
    romanian("soe_upkeep", press=("enter",)),
    romanian("soe_tax", press=("enter", "ctrl+x")),
    romanian("soe_correction", press=("enter", "ctrl+e")),
    romanian("soe_population", press=("enter",), soe_steps=SOE_WAR_2[:1]),
    romanian("soe_scoring", press=("enter",), soe_steps=SOE_WAR_2[:2]),
    romanian("soe_end_of_war", press=("enter",), soe_steps=SOE_WAR_2[:3]),
    romanian("soe_end_of_game", press=("enter",), soe_steps=(*SOE_WAR_2, *WAR_3)),
    romanian("soe_help", press=("enter", "f1")),
    romanian("soe_palette", press=("enter", "ctrl+p")),
    romanian("soe_history", press=("enter",), actions=("screen.history",)),
    romanian("soe_results", press=("enter",), finish_soe=True),
    romanian("risk_round", press=("down", "enter")),
    romanian("risk_out", press=("down", "enter", "ctrl+x")),
    romanian("risk_concession", press=("down", "enter", "ctrl+k")),
    romanian("risk_stalemate", press=("down", "enter", "ctrl+d")),
    romanian("risk_help", press=("down", "enter", "f1")),
    romanian("risk_results", press=("down", "enter"), risk_steps=(RISK_LAST_ROUND,)),
    romanian("league", press=("l",), **FINISHED),
    romanian("league_games", press=("l", "enter"), **FINISHED),
]


@pytest.fixture
def never_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.plumbing.ledger_calls

    monkeypatch.setattr(tui.plumbing.ledger_calls, "SAY_WAITING_AFTER", 60.0)


def same_games(visits: list[Scene]) -> list[list[Scene]]:
    """The visits by the games they need: each group is one app on one database, which goes
    back to the home screen between visits (an app and its database cost more than a
    visit)."""
    groups: dict[tuple, list[Scene]] = {}
    for visit in visits:
        key = (visit.demos, repr(visit.soe_steps), visit.finish_soe, repr(visit.risk_steps))
        groups.setdefault(key, []).append(visit)
    # At most six to an app, so the workers share a long group.
    return [group[i:i + 6] for group in groups.values() for i in range(0, len(group), 6)]


GROUPS = same_games(VISITS)


@pytest.mark.parametrize("visits", GROUPS, ids=["+".join(v.name for v in g) for g in GROUPS])
async def test_no_english_message_is_left_on_a_romanian_screen(visits, tmp_path,
                                                               never_waiting, migrated_file):
    from textual.widgets import DataTable

    from tui.screens.home import HomeScreen

    app = app_for(visits[0], tmp_path, migrated_file)
    seen: dict[str, tuple[list[str], bool, str]] = {}
    async with app.run_test(size=visits[0].size) as pilot:
        for visit in visits:
            await pilot.pause()
            while len(app.screen_stack) > 1:  # back to the saved games, the first one lit
                await app.pop_screen()
                await pilot.pause()
            app.screen.query_one(DataTable).move_cursor(row=0)
            await play(visit, pilot)
            text = screen_text(app)
            # Romanian words are longer: the footer still shows every key, none cut.
            whole = all(footer.max_scroll_x == 0 for footer in app.screen.query(Footer))
            seen[visit.name] = (english_on(text), whole, text)
            # Each visit went where its keys lead, not left on the saved games.
            assert visit.name.startswith("home") or not isinstance(app.screen, HomeScreen), \
                visit.name
    assert {name: english for name, (english, _w, _t) in seen.items() if english} == {}, seen
    assert [name for name, (_e, whole, _t) in seen.items() if not whole] == [], seen


@pytest.mark.parametrize("lang", ["en", "ro"])
async def test_the_footer_of_a_missions_game_is_whole_at_80_columns(table, lang):
    """The longest footer: a secret-missions game (Out, Claim and My mission besides the
    game screen's own keys)."""
    from pilot_pace import shows
    from test_risk_in_romanian import MISSIONS

    from i18n import set_language
    from tui.games.risk.game import RiskGameScreen

    set_language(lang)
    game_id = table.ledger().create_game("risk", "Friday", {"mode": "missions"}, MISSIONS).id
    app = table.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_game(game_id)
        await shows(pilot, RiskGameScreen)
        footer = app.screen.query_one(Footer)
        assert footer.max_scroll_x == 0, screen_text(app)


@pytest.mark.unit
def test_the_scan_finds_english_where_there_is_some():
    """The check can fail: an English message on a screen is found."""
    assert "Saved games" in english_on("^o Saved games f1 Ajutor")
    assert english_on("^o Jocuri f1 Ajutor") == []
    assert english_on("Upkeep: 1 gold per army") != []


SMALL_PHASES = [
    romanian(f"soe_{name}_80x24", press=("enter",), soe_steps=steps, size=(80, 24))
    for name, steps in (("upkeep", ()), ("scoring", SOE_WAR_2[:2]),
                        ("end_of_war", SOE_WAR_2[:3]), ("end_of_game", (*SOE_WAR_2, *WAR_3)))]


@pytest.mark.parametrize("visit", SMALL_PHASES, ids=[v.name for v in SMALL_PHASES])
async def test_the_phase_bar_keeps_the_current_step_in_view_at_80_columns(
        visit, tmp_path, never_waiting, migrated_file):
    from tui.widgets.phase_bar import PhaseBar

    app = app_for(visit, tmp_path, migrated_file)
    async with app.run_test(size=visit.size) as pilot:
        await play(visit, pilot)
        bar = app.screen.query_one(PhaseBar)
        drawn = bar.render()
        assert bar.current and bar.current in drawn.plain
        assert drawn.cell_len <= bar.content_region.width


async def test_the_palette_searches_and_finds_nothing_in_romanian(table):
    """Textual writes its palette's placeholder and "No matches found" in English; ours
    reads them from the catalogs."""
    from pilot_pace import until

    from i18n import set_language

    set_language("ro")
    app = table.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await until(pilot, lambda: "Caută comenzi…" in screen_text(app), "the palette")
        await pilot.press(*"qqqzzz")
        await until(pilot, lambda: "Nicio potrivire" in screen_text(app), "no matches")
        assert english_on(screen_text(app)) == []
