"""Every main screen against its accepted picture (pytest-textual-snapshot), at 120x40 and
at 80x24, and screenshots/ kept in step with the README's pictures."""

from __future__ import annotations

import pytest
from pilot_pace import pause_skips_the_live_look  # noqa: F401 - a fixture
from scenes import PICTURES, SCENES, Scene, app_for, play, snapshot_path

# A scene's pauses leave out a game screen's live look: a long poll for other terminals'
# steps (there are none) that each key's pause waited up to 0.5 s for.
pytestmark = pytest.mark.usefixtures("pause_skips_the_live_look")


@pytest.fixture
def never_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture does not depend on the machine's speed: on a busy machine (the suite runs on
    every core) opening a game can take longer than the 0.3 s after which a screen says it
    is waiting for the database, and the notice would be in the picture."""
    import tui.plumbing.ledger_calls

    monkeypatch.setattr(tui.plumbing.ledger_calls, "SAY_WAITING_AFTER", 60.0)


@pytest.mark.parametrize("scene", SCENES, ids=[s.name for s in SCENES])
def test_screen(scene: Scene, snap_compare, tmp_path, never_waiting, migrated_file):
    assert snap_compare(app_for(scene, tmp_path, migrated_file), terminal_size=scene.size,
                        run_before=lambda pilot: play(scene, pilot))


@pytest.mark.parametrize("scene", PICTURES, ids=[s.name for s in PICTURES])
def test_screenshot_is_current(scene: Scene):
    """A screen that changed needs `uv run python tests/scenes.py` to refresh screenshots/."""
    from scenes import ROOT

    picture = ROOT / "screenshots" / f"{scene.name}.svg"
    assert picture.exists(), f"screenshots/{scene.name}.svg is missing"
    assert picture.read_text() == snapshot_path(scene).read_text(), (
        f"screenshots/{scene.name}.svg is older than the screen: "
        "run `uv run python tests/scenes.py`")
