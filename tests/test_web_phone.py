"""The table's page on a phone (issue 45, part 4): in Debian's Chromium emulating a Pixel 7 and
an iPhone 13 in portrait (Playwright's device descriptors, at their real pixel ratio), a
player's link loads the whole page from the table alone (every other host refused, as with no
internet), asks for the device's width, gives a terminal of 40 to 50 columns with text at
least 12 CSS px high, and a row of keys at least 44 CSS px high under it. The terminal follows
the visual viewport (the phone turned, the soft keyboard up: emulated by the viewport's size)
and tells the app; a soft keyboard's line break confirms like Enter.

What the page shows is read as words from xterm.js's text buffer (test_web_browser's way).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, WebSocket, sync_playwright

from storage.engine import make_engine
from storage.ledger import Ledger
from tests import test_hosting, test_web_browser
from tests.at_head import new_database
from tests.test_tui_soe import session_file
from tests.test_web_browser import CATCH_TERMINAL, CHROMIUM, shows
from tui.games.soe.game import STEP_TITLES
from tui.hosting.web_page import KEYS, UNDO_KEY

# The fixtures: the table's database, the game at war 1's population, `serve web`.
db, game = test_hosting.db, test_hosting.game
serve_web = test_web_browser.serve_web

PHONES = ("Pixel 7", "iPhone 13")
VIEWPORT = "width=device-width, initial-scale=1"
COLUMNS = range(40, 51)  # a phone in portrait: 40 to 50 columns
TEXT_AT_LEAST = 12  # CSS px
KEY_AT_LEAST = 44  # CSS px: a finger's target
# What the page measures of itself: the viewport asked for, the terminal's size and font,
# a row's height, each key's box, and the page's own width.
MEASURE = """() => {
  const terminal = window.xtermOfTheTable;
  const row = document.querySelector(".xterm-rows > div");
  return {
    viewport: document.querySelector('meta[name="viewport"]').content,
    width: window.innerWidth, height: window.innerHeight,
    cols: terminal.cols, rows: terminal.rows,
    fontSize: parseFloat(getComputedStyle(document.querySelector(".xterm-rows")).fontSize),
    rowHeight: row.getBoundingClientRect().height,
    keys: [...document.querySelectorAll("#keys button")].map(button => {
      const box = button.getBoundingClientRect();
      return {id: button.id, top: box.top, bottom: box.bottom, height: box.height};
    }),
  };
}"""


@dataclass
class Chromium:
    browser: Browser
    devices: dict[str, dict]  # Playwright's device descriptors

    def context(self, device: str | None = None) -> BrowserContext:
        """A fresh profile emulating `device` (portrait; else a laptop's window), able to
        read its terminal."""
        if device is None:
            descriptor = {"viewport": {"width": 1280, "height": 800}}
        else:
            descriptor = dict(self.devices[device])
            descriptor.pop("default_browser_type", None)
        context = self.browser.new_context(**descriptor)
        context.add_init_script(CATCH_TERMINAL)
        return context


@pytest.fixture(scope="module")
def chromium() -> Iterator[Chromium]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield Chromium(browser, playwright.devices)
        browser.close()


class Requests:
    """Every request the page makes; any to another host than the table's is refused, as
    a table with no internet would have it."""

    def __init__(self, context: BrowserContext, port: int) -> None:
        self.table = f"127.0.0.1:{port}"
        self.seen: list[str] = []
        context.route("**/*", self.route)
        context.on("request", lambda request: self.seen.append(request.url))

    def route(self, route: Route) -> None:
        if urlsplit(route.request.url).netloc == self.table:
            route.continue_()
        else:
            route.abort("internetdisconnected")

    def elsewhere(self) -> list[str]:
        return [url for url in self.seen
                if urlsplit(url).netloc != self.table and not url.startswith("data:")]


class Sizes:
    """The sizes the page tells the app: in its socket's address, then in resize messages."""

    def __init__(self, page: Page) -> None:
        self.sent: list[tuple[int, int]] = []
        page.on("websocket", self.opened)

    def opened(self, socket: WebSocket) -> None:
        query = dict(part.split("=", 1) for part in urlsplit(socket.url).query.split("&"))
        self.sent.append((int(query["width"]), int(query["height"])))
        socket.on("framesent", self.frame)

    def frame(self, payload: str | bytes) -> None:
        message = json.loads(payload) if isinstance(payload, str) else None
        if isinstance(message, list) and message and message[0] == "resize":
            self.sent.append((message[1]["width"], message[1]["height"]))


def terminal_size(page: Page) -> tuple[int, int]:
    return tuple(page.evaluate("() => [window.xtermOfTheTable.cols,"
                               " window.xtermOfTheTable.rows]"))


def told(page: Page, sizes: Sizes, size: tuple[int, int]) -> None:
    """Wait until the page has told the app `size` last."""
    page.wait_for_function("size => window.xtermOfTheTable.cols === size[0]"
                           " && window.xtermOfTheTable.rows === size[1]", arg=list(size))
    for _ in range(100):
        if sizes.sent and sizes.sent[-1] == size:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the page told the app {sizes.sent}, not {size} last")


@pytest.mark.browser
@pytest.mark.parametrize("device", PHONES)
def test_a_phone_loads_the_page_from_the_table_alone_at_its_own_width(
        serve_web, chromium, device):
    table = serve_web()
    context = chromium.context(device)
    try:
        requests = Requests(context, table.port)
        page = context.new_page()
        sizes = Sizes(page)
        with page.expect_event("load"):
            page.goto(table.link("Ana"))
        page.wait_for_url(f"http://127.0.0.1:{table.port}/")
        page.wait_for_function("() => window.screenOfTheTable()"
                               " && window.screenOfTheTable().trim() !== ''")
        measured = page.evaluate(MEASURE)
        print(f"{device}: {measured}; requests: {requests.seen}")
        assert requests.elsewhere() == []  # nothing asked of another host
        assert len(requests.seen) >= 6  # the link, the page, its styles, scripts, xterm.js
        assert measured["viewport"] == VIEWPORT
        assert measured["width"] == chromium.devices[device]["viewport"]["width"]  # not 980
        assert measured["cols"] in COLUMNS
        assert sizes.sent[0] == (measured["cols"], measured["rows"])  # what the app got
        assert measured["fontSize"] >= TEXT_AT_LEAST and measured["rowHeight"] >= TEXT_AT_LEAST
        assert [key["id"] for key in measured["keys"]] == [key for key, _label, _ in KEYS]
        for key in measured["keys"]:  # under the terminal, whole, a finger's size
            assert key["height"] >= KEY_AT_LEAST, key
            assert key["bottom"] <= measured["height"], key
        table.wait_said(r"^Ana sat down from a browser at 127\.0\.0\.1$")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("device", PHONES)
def test_the_terminal_follows_the_phone_turned_and_the_soft_keyboard(
        serve_web, chromium, device):
    """Turned to landscape, the terminal gets wider and shorter; with the soft keyboard up
    (less height), shorter; each new size is sent to the app."""
    table = serve_web("--open")
    context = chromium.context(device)
    try:
        page = context.new_page()
        sizes = Sizes(page)
        page.goto(f"http://127.0.0.1:{table.port}/")
        page.wait_for_function("() => window.screenOfTheTable()"
                               " && window.screenOfTheTable().trim() !== ''")
        portrait = terminal_size(page)
        told(page, sizes, portrait)
        width, height = (chromium.devices[device]["viewport"][side] for side in ("width", "height"))
        page.set_viewport_size({"width": height, "height": width})  # turned
        page.wait_for_function("cols => window.xtermOfTheTable.cols > cols", arg=portrait[0])
        landscape = terminal_size(page)
        told(page, sizes, landscape)
        assert landscape[0] > portrait[0] and landscape[1] < portrait[1]
        assert landscape[1] >= 20  # the keys at the side leave the terminal the height
        turned = page.evaluate(MEASURE)
        assert all(key["height"] >= KEY_AT_LEAST and key["bottom"] <= width
                   for key in turned["keys"]), turned["keys"]
        page.set_viewport_size({"width": width, "height": height})  # back, then a keyboard
        told(page, sizes, portrait)
        page.set_viewport_size({"width": width, "height": height - 300})
        page.wait_for_function("rows => window.xtermOfTheTable.rows < rows", arg=portrait[1])
        typing = terminal_size(page)
        told(page, sizes, typing)
        assert typing[0] == portrait[0]
        keys = page.evaluate(MEASURE)["keys"]
        assert all(key["bottom"] <= height - 300 for key in keys)  # the keys stay in sight
        print(f"{device}: portrait {portrait}, landscape {landscape}, keyboard up {typing}")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("device", PHONES)
def test_a_phone_turned_keeps_20_rows_with_its_keys_at_the_side(serve_web, chromium, device):
    """In landscape (the descriptor's own, the browser's bars taken off), the keys stand
    at the side and the font gives way, down to 12 px, so the app gets 20 rows or more."""
    table = serve_web("--open")
    context = chromium.context(f"{device} landscape")
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{table.port}/")
        page.wait_for_function("() => window.screenOfTheTable()"
                               " && window.screenOfTheTable().trim() !== ''")
        measured = page.evaluate(MEASURE)
        print(f"{device} landscape: {measured['cols']}x{measured['rows']} at"
              f" {measured['fontSize']:g} px")
        assert measured["rows"] >= 20 and measured["fontSize"] >= TEXT_AT_LEAST
        assert measured["cols"] >= 60
        for key in measured["keys"]:
            assert key["height"] >= KEY_AT_LEAST and key["bottom"] <= measured["height"], key
    finally:
        context.close()


@pytest.mark.browser
def test_a_soft_keyboards_line_break_confirms_like_enter(serve_web, chromium, db, game):
    """A soft keyboard that sends "\\n" for its Enter (inserted as text, not a key press)
    opens the highlighted game and confirms the step, as Enter does."""
    table = serve_web()
    context = chromium.context()
    try:
        page = context.new_page()
        page.goto(table.link("Cy"))
        shows(page, "you are Cy", "War 1 · population")
        page.focus(".xterm-helper-textarea")
        page.keyboard.insert_text("\n")  # open the highlighted game, the only one
        shows(page, test_hosting.POPULATION, "Friday — Struggle of Empires")
        page.keyboard.insert_text("\n")  # confirm the population step
        shows(page, STEP_TITLES["end_war"])
        assert Ledger(make_engine(db)).authors(game)[-2:] == [(3, "population", "Cy"),
                                                              (4, "scoring", "Cy")]
    finally:
        context.close()


@pytest.mark.browser
def test_the_key_row_types_enter_and_undo_by_taps(serve_web, chromium, db, game):
    """On a touch screen wide enough for today's game screen (an iPad Mini), a player taps
    Enter under the terminal to open the game and to confirm its step, and Undo to take it
    back: the ledger has the steps, then the last one's undoing."""
    table = serve_web()
    context = chromium.context("iPad Mini")
    try:
        page = context.new_page()
        page.goto(table.link("Cy"))
        shows(page, "you are Cy", "War 1 · population")
        page.tap("#enter")  # open the highlighted game
        shows(page, test_hosting.POPULATION, "Friday — Struggle of Empires")
        page.tap("#enter")  # confirm the population step; scoring follows by itself
        shows(page, STEP_TITLES["end_war"])
        assert Ledger(make_engine(db)).authors(game)[-2:] == [(3, "population", "Cy"),
                                                              (4, "scoring", "Cy")]
        page.tap("#undo")  # the last step (scoring) taken back
        shows(page, "Took back the last step", "Scoring: the 11 VP regions")
        assert Ledger(make_engine(db)).authors(game)[-1][1:] == ("undo", "Cy")
    finally:
        context.close()


@pytest.fixture
def upkeep_game(db) -> int:
    """A Struggle of Empires game at war 1's upkeep (its income done)."""
    data = session_file()
    data["steps"] = data["steps"][:1]
    return Ledger(make_engine(new_database(db))).replay(data).id


def open_own_upkeep(page: Page, link: str, player: str) -> None:
    """A player's phone: their link, the game opened by a tap, their own part of the upkeep
    (a field per line, the cursor on Armies) with the number pad up."""
    page.goto(link)
    shows(page, f"you are {player}", "War 1 · upkeep")
    page.tap("#enter")  # open the highlighted game
    shows(page, "Armies", "Fleets", "Forts", "Gold")
    page.focus(".xterm-helper-textarea")
    assert page.locator(".xterm-helper-textarea").get_attribute("inputmode") == "numeric"


def number_pad(page: Page, digits: str) -> None:
    """Digits as a soft keyboard's number pad puts them in the terminal's field."""
    for digit in digits:
        page.keyboard.insert_text(digit)


@pytest.mark.browser
@pytest.mark.parametrize("device", PHONES)
def test_a_player_enters_their_own_upkeep_by_taps_and_sees_their_totals(
        serve_web, chromium, db, upkeep_game, device):
    """On a phone in portrait, by the number pad and the key row only: Di opens their link
    and the game, types their armies, fleets and forts (3 digits: each cell takes one and
    moves on), taps Enter, and their part is ready, their gold after the upkeep shown; the
    text is 12 CSS px or more and the keys 44 or more. The step waits for the other seats."""
    table = serve_web()
    context = chromium.context(device)
    try:
        page = context.new_page()
        open_own_upkeep(page, table.link("Di"), "Di")
        number_pad(page, "210")
        page.tap("#enter")
        said = shows(page, "Ready: Di", "Not yet: Ana, Bo, Cy")
        assert re.search(r"Gold \d+ → \d+", said), said
        measured = page.evaluate(MEASURE)
        assert measured["cols"] in COLUMNS and measured["fontSize"] >= TEXT_AT_LEAST
        assert all(key["height"] >= KEY_AT_LEAST for key in measured["keys"])
        ledger = Ledger(make_engine(db))
        assert [kind for _n, kind, _by in ledger.authors(upkeep_game)][-1] == "income"
    finally:
        context.close()


@pytest.mark.browser
def test_four_phones_enter_their_own_upkeep_at_once_and_one_step_is_recorded(
        serve_web, chromium, db, upkeep_game, capsys):
    """Ana, Bo, Cy and Di, each on a Pixel 7, type their own upkeep at once and tap Enter:
    the ledger holds one upkeep step with every power's row, the history names it once, and
    every phone moves on to the end of the war. (How soon each phone shows it after the last
    part is printed, not asserted: the machine's load decides it.)"""
    table = serve_web()
    players = {"Ana": "France", "Bo": "Britain", "Cy": "Austria", "Di": "Russia"}
    typed = {"Ana": "100", "Bo": "010", "Cy": "110", "Di": "200"}
    contexts = [chromium.context("Pixel 7") for _ in players]
    try:
        pages = {player: context.new_page() for player, context in zip(players, contexts, strict=True)}
        for player, page in pages.items():
            open_own_upkeep(page, table.link(player), player)
        for player, page in pages.items():
            number_pad(page, typed[player])
        for page in pages.values():
            page.tap("#enter")
        last = time.monotonic()
        after = {}
        for player, page in pages.items():
            shows(page, STEP_TITLES["end_war"])
            after[player] = time.monotonic() - last
        ledger = Ledger(make_engine(db))
        kinds = [kind for _n, kind, _by in ledger.authors(upkeep_game)]
        assert kinds.count("upkeep") == 1 and kinds[-3:] == ["upkeep", "population", "scoring"]
        upkeep = ledger.export(upkeep_game)["steps"][1]
        assert upkeep["kind"] == "upkeep" and "missing" not in upkeep
        assert {power: [units["armies"], units["fleets"], units["fortresses"]]
                for power, units in upkeep["units"].items()} == {
            players[player]: [int(digit) for digit in typed[player]] for player in players}
        history = [line.said for line in ledger.step_log(upkeep_game)]
        assert sum("upkeep" in line.lower() for line in history) == 1, history
        with capsys.disabled():
            print("\nseconds from the last part to each phone's next step: "
                  + ", ".join(f"{player} {seconds:.2f}" for player, seconds in after.items()))
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
def test_the_switch_gives_the_number_pad_or_letters(serve_web, chromium):
    """The terminal's hidden field asks for a number pad first; the switch asks for letters
    and back, and leaves the focus (and the soft keyboard) on the terminal."""
    table = serve_web("--open")
    context = chromium.context("Pixel 7")
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{table.port}/")
        page.wait_for_function("() => window.xtermOfTheTable")
        field = page.locator(".xterm-helper-textarea")
        assert field.get_attribute("inputmode") == "numeric"
        page.focus(".xterm-helper-textarea")
        switch = page.locator("#letters")
        assert switch.inner_text() == "abc"
        page.tap("#letters")
        assert field.get_attribute("inputmode") == "text"
        assert switch.inner_text() == "123" and switch.get_attribute("aria-pressed") == "true"
        assert page.evaluate("() => document.activeElement.className") == \
            "xterm-helper-textarea"
        page.tap("#letters")
        assert field.get_attribute("inputmode") == "numeric"
    finally:
        context.close()


# ---------------------------------------------------------------- no browser


def test_the_undo_key_is_the_games():
    from tui.plumbing.keys import key_of
    from tui.screens.game import GameScreen

    assert key_of(GameScreen, "undo") == UNDO_KEY
    assert dict((key, sends) for key, _label, sends in KEYS)["undo"] == "\x1a"  # ctrl+z


@pytest.mark.unit
def test_the_page_has_its_policy_and_names_no_other_host():
    """The page and every file it loads say no other host (no font, script or style from
    elsewhere); the page's policy allows the table alone."""
    from tui.hosting import web_page

    text = web_page.page("ws://127.0.0.1:8000/ws", lambda text: text, "en")
    assert f'<meta name="viewport" content="{VIEWPORT}">' in text
    for name in ("index.html", "table.js", "table.css", "xterm.css"):
        loaded = (web_page.PAGE_DIR / name).read_text()
        assert not re.search(r"(src|href|url|import)\W+(https?:)?//", loaded), name
    policy = web_page.policy("ws://127.0.0.1:8000/ws")
    assert "default-src 'none'" in policy and "script-src 'self';" in policy
    assert re.findall(r"\w+://\S+", policy) == ["ws://127.0.0.1:8000;"]
