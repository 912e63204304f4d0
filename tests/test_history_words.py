"""The history of a game as the table reads it: the ledger's step log (who, when, and the
line in the players' words) and the history screen showing it, names taken literally.
The lines themselves are tested step kind by step kind in test_history_words_rules.py."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from sqlalchemy import delete, update
from textual.widgets import DataTable, Static

from storage.tables import FoldSnapshot, Step
from tests.test_tui_hostile import screen_text, settle
from tests.test_tui_soe import REGION_VALUES
from tui.screens.history import HistoryScreen

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")

STEP = Step.__table__
ANA, BO = "[b]Ana[/b]", "Bo[/]"  # names that would be markup if a screen read them so


def hostile_game(ledger) -> int:
    """War 1 income and upkeep from a file (no author), then a correction by Bo, a
    taxation by Ana, its undo and redo by Cy."""
    data = {"format": "warledger/1", "game": "soe", "title": "Friday",
            "settings": {"regions": REGION_VALUES},
            "players": [{"name": ANA, "power": "France"}, {"name": BO, "power": "Britain"}],
            "steps": [{"kind": "income", "regions": {
                          "German States": {"France": 2, "Austria": 2, "Prussia": 1},
                          "India": {"Britain": 2, "France": 1}}},
                      {"kind": "upkeep", "units": {
                          "France": {"armies": 3, "fleets": 1},
                          "Britain": {"armies": 2, "fleets": 4, "fortresses": 1}}}]}
    game = ledger.replay(data).id
    ledger.record(game, {"kind": "adjust", "power": "Britain", "gold": -3,
                         "note": "lost [b]a battle[/]"}, author=BO)
    ledger.record(game, {"kind": "tax", "power": "France", "unrest": 3}, author=ANA)
    ledger.undo(game, author="Cy")
    ledger.redo(game, author="Cy")
    return game


# What that gives, worked out by hand (RULES.md B.2, B.3):
# France 5 population + 3 markers (German States 2, India 1), 10 -> 18; upkeep 3 armies and
# 1 fleet, 18 -> 14. Britain 5 + 2 markers, 10 -> 17; upkeep 2 + 4 + 1 = 7, 17 -> 10.
TAX = f"War 1 taxation: {ANA} (France) +2 gold, unrest token 3 (gold 14 → 16, unrest 0 → 3)"
LINES = [
    (None, f"War 1 income (region grid): {ANA} (France) +8 gold (population 5 + 3 markers, "
           f"10 → 18); {BO} (Britain) +7 gold (population 5 + 2 markers, 10 → 17)"),
    (None, f"War 1 upkeep: {ANA} (France) paid 4: gold 18 → 14; {BO} (Britain) paid 7: "
           "gold 17 → 10"),
    (BO, f"War 1 correction for {BO} (Britain): gold -3 (10 → 7) — lost [b]a battle[/]"),
    (ANA, TAX),
    ("Cy", f"Undo of #4: war 1 at population; {ANA} (France) gold 16 → 14, unrest 3 → 0"),
    ("Cy", f"Redo of #4: war 1 at population; {ANA} (France) gold 14 → 16, unrest 0 → 3"),
]


def test_the_step_log_says_who_when_and_what(ledger):
    began = datetime.now(UTC) - timedelta(seconds=1)
    game = hostile_game(ledger)
    ended = datetime.now(UTC) + timedelta(seconds=1)
    log = ledger.step_log(game)
    assert [s.seq for s in log] == [1, 2, 3, 4, 5, 6]
    assert [s.kind for s in log] == ["income", "upkeep", "adjust", "tax", "undo", "redo"]
    assert [(s.author, s.said) for s in log] == LINES
    for step in log:  # stored in UTC (SQLite gives it back without a time zone)
        at = step.recorded_at if step.recorded_at.tzinfo else step.recorded_at.replace(tzinfo=UTC)
        assert began <= at <= ended


def test_a_step_an_earlier_version_stored_is_still_told(make_ledger):
    """A correction without a reason (refused today) is read as it was stored."""
    ledger = make_ledger()
    game = hostile_game(ledger)
    with ledger.engine.begin() as conn:
        conn.execute(update(STEP).where(STEP.c.session_id == game, STEP.c.seq == 3)
                     .values(payload={"kind": "adjust", "power": "Britain", "gold": -3}))
        conn.execute(delete(FoldSnapshot.__table__))
    fresh = make_ledger()  # nothing cached from before the rewrite
    assert fresh.step_log(game)[2].said == "War 1 correction for Bo[/] (Britain): gold -3 (10 → 7)"


@pytest.fixture
def far_from_utc(monkeypatch: pytest.MonkeyPatch):
    """The terminal's local time is 5 h 30 min ahead of UTC, so a time shown in UTC shows."""
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


async def test_the_history_screen_reads_like_the_table_speaks(table, far_from_utc):
    ledger = table.ledger()
    game = hostile_game(ledger)
    recorded = [s.recorded_at for s in ledger.step_log(game)]
    app = table.app(ledger=ledger)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_game(game)
        await settle(pilot)
        app.screen.action_history()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        rows = screen.query_one(DataTable)
        assert rows.row_count == len(LINES)
        for number, (author, said) in enumerate(LINES):
            seq, when, by, what = (cell.plain for cell in rows.get_row_at(number))
            assert (seq, by, what) == (str(number + 1), author or "", said)
            local = recorded[number].replace(tzinfo=UTC) + timedelta(hours=5, minutes=30)
            assert when == local.strftime("%H:%M")

        # On screen: each line begins as written, the names literal, cut to fit 80 columns.
        text = screen_text(app)
        assert "\x1b" not in text
        for _, said in LINES:
            assert said[:30] in text
        assert f"{BO} " in text and f"{ANA} " in text  # in the "by" column
        # The line under the cursor (the last, at first) in full below the table.
        detail = screen.query_one("#step-said", Static).render().plain
        assert detail.startswith("#6, recorded by Cy on ")
        assert detail.endswith(LINES[5][1])
        await pilot.press("up", "up", "up")
        await settle(pilot)
        detail = screen.query_one("#step-said", Static).render().plain
        assert detail.startswith(f"#3, recorded by {BO} on ")
        assert LINES[2][1] in " ".join(screen_text(app).replace("█", "").split())

        # A wider terminal gives the line more room in the table.
        narrow = max(len(line.rstrip()) for line in screen_text(app).splitlines())
        await pilot.resize_terminal(140, 30)
        await settle(pilot)
        assert max(len(line.rstrip()) for line in screen_text(app).splitlines()) > narrow
        assert LINES[1][1] in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HistoryScreen)
