"""What is stored never depends on the language it was typed in (issue 24): a war played by
keys on Romanian screens exports the session file the same war gives in English, and that
file replays identically with English screens."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from test_tui_soe import WARS, new_game, open_first_game, play_war, session_file

from i18n import set_language
from storage.engine import make_engine
from storage.ledger import Ledger
from tui.games.soe.game import SoeGameScreen

# Pauses leave out a game screen's live look (a long poll for other terminals' steps).
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")


async def test_a_war_typed_in_romanian_exports_the_english_ids_and_replays_in_english(
        table, tmp_path):
    set_language("ro")
    game_id = new_game(table)
    app = table.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_first_game(pilot)
        assert isinstance(app.screen, SoeGameScreen)
        assert "Întreținere" in str(app.screen.query_one("PhaseBar").render())
        await play_war(pilot, WARS[0], last=False)
    exported = table.ledger().export(game_id)
    reference = session_file()
    # Ids, not words: the powers, the regions and the step kinds of the file as written.
    assert exported["steps"] == reference["steps"][:len(exported["steps"])]
    assert [s["kind"] for s in exported["steps"]] == ["income", "upkeep", "population",
                                                      "scoring", "end_war"]
    in_romanian = table.ledger().load(game_id).report().to_json()

    set_language("en")
    replayed = Ledger(make_engine(str(tmp_path / "elsewhere.db"))).replay(exported)
    assert replayed.report().to_json() == in_romanian
    assert Ledger(make_engine(str(tmp_path / "elsewhere.db"))).export(replayed.id)["steps"] \
        == exported["steps"]
