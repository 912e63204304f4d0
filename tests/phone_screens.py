"""The table's page on phones, pictured: `serve web` on a game at war 1's upkeep, each
player's link opened in Debian's Chromium emulating a phone in portrait (Playwright's device
descriptors, at their real pixel ratio), the game opened by a tap and the player's own part of
the upkeep half typed by the number pad, and the page written to screenshots/ as PNG:

    uv run python tests/phone_screens.py

It prints what each phone measured: the terminal's columns x rows, the font size and a row's
height (CSS px), and the keys' height.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402

from storage.engine import make_engine  # noqa: E402
from storage.ledger import Ledger  # noqa: E402
from tests.at_head import new_database  # noqa: E402
from tests.test_tui_soe import session_file  # noqa: E402
from tests.test_web_browser import CATCH_TERMINAL, CHROMIUM  # noqa: E402
from tests.test_web_phone import MEASURE  # noqa: E402

# (device, picture, player): each phone opens its player's link.
PHONES = (("Pixel 7", "phone-pixel7.png", "Ana"), ("iPhone 13", "phone-iphone13.png", "Bo"))
DRAWN_WAIT = 30.0  # seconds for a tab's app to start and draw


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "table.db")
        data = session_file()
        data["steps"] = data["steps"][:1]  # war 1's income done: upkeep is next
        Ledger(make_engine(new_database(db))).replay(data)
        host = subprocess.Popen([sys.executable, "-m", "tui", "--db", db, "serve", "web",
                                 "--port", "0"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        try:
            links = links_of(host)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
                for device, picture, player in PHONES:
                    descriptor = dict(playwright.devices[device])
                    descriptor.pop("default_browser_type", None)
                    context = browser.new_context(**descriptor)
                    context.add_init_script(CATCH_TERMINAL)
                    page = context.new_page()
                    page.goto(links[player])
                    page.wait_for_function("() => window.screenOfTheTable()"
                                           " && window.screenOfTheTable().trim() !== ''",
                                           timeout=DRAWN_WAIT * 1000)
                    page.wait_for_timeout(1500)  # the app's first frames settle
                    page.tap("#enter")  # open the highlighted game: their own part
                    page.wait_for_function("() => window.screenOfTheTable().includes('Armies')",
                                           timeout=DRAWN_WAIT * 1000)
                    page.focus(".xterm-helper-textarea")
                    for digit in "21":  # the number pad's digits: armies, then fleets
                        page.keyboard.insert_text(digit)
                    page.wait_for_timeout(800)  # drawn, the part shown to the table
                    measured = page.evaluate(MEASURE)
                    page.screenshot(path=str(ROOT / "screenshots" / picture))
                    keys = sorted({key["height"] for key in measured["keys"]})
                    print(f"{device} ({player}): {measured['cols']}x{measured['rows']} cells,"
                          f" font {measured['fontSize']:g} px, row {measured['rowHeight']:g}"
                          f" px, keys {keys} px high -> screenshots/{picture}")
                    context.close()
                browser.close()
        finally:
            host.terminate()
            host.wait(10)


def links_of(host: subprocess.Popen) -> dict[str, str]:
    """Each player's link, as the host prints them."""
    links: dict[str, str] = {}
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and len(links) < len(PHONES):
        line = host.stdout.readline()
        if not line:
            break
        if found := re.match(r"^(\w+) opens (http\S+)$", line.strip()):
            links[found[1]] = found[2]
    return links


if __name__ == "__main__":
    main()
