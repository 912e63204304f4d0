"""`warledger serve web` in a real browser: Debian's Chromium (/usr/bin/chromium, driven by
Playwright; no browser is downloaded) opens the table's page as a player would: by their own
link (issue 26), or on an open table (`--open`).

What the page shows is read as words from xterm.js's text buffer, never from pixels.
Deselect with `-m "not browser"`; without Chromium they skip and say how to install it.
"""

from __future__ import annotations

import http.server
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from i18n import translation_of
from storage.engine import make_engine
from storage.ledger import Ledger
from tests import test_hosting
from tui.games.soe.game import STEP_TITLES
from tui.hosting.ssh_terminal import TABLE_FULL
from tui.hosting.web_links import NO_LINK

# test_hosting's fixtures: the table's database, and the Friday game at war 1's population.
db, game = test_hosting.db, test_hosting.game

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
PUBLIC_NAME = "table.example.org"  # the name a proxy would give the table
FOREIGN_NAME = "elsewhere.example"  # another site a player has open, on the same network
SCREEN_WAIT = 20.0  # seconds for a tab's app to start and draw

# Runs in every page before its own scripts. The page keeps its xterm.js Terminal in
# `this.terminal` of an object it does not expose: a setter on Object.prototype catches
# that assignment (and is removed once it has), so the test can read the terminal's buffer.
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal",
                          {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer && value.buffer.active) {
      window.xtermOfTheTable = value;
      delete Object.prototype.terminal;
    }
  },
});
window.screenOfTheTable = () => {
  const terminal = window.xtermOfTheTable;
  if (!terminal) return null;
  const buffer = terminal.buffer.active, lines = [];
  for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y).translateToString(true));
  return lines.join("\\n");
};
"""
# A page of another site opening the table's websocket: "open", or how it was closed.
KNOCK = """url => new Promise(resolve => {
  const socket = new WebSocket(url);
  socket.onopen = () => { resolve("open"); socket.close(); };
  socket.onclose = event => resolve(`closed ${event.code}`);
})"""


@dataclass
class WebHost:
    """`warledger serve web` running in its own process, and what it has said so far."""
    process: subprocess.Popen
    said: list[str] = field(default_factory=list)
    port: int = 0

    def __post_init__(self) -> None:
        self.reading = threading.Thread(target=self.read, daemon=True)
        self.reading.start()

    def wait_said(self, pattern: str, timeout: float = 20.0) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.said):
                if found := re.search(pattern, line):
                    return found
            if self.process.poll() is not None and not self.reading.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"the host never said {pattern!r}; it said {self.said}")

    def read(self) -> None:
        for line in self.process.stdout:
            self.said.append(line.rstrip("\n"))

    def link(self, player: str | None) -> str:
        """The link the host was given for `player` (None: the spectators')."""
        if player is None:
            return self.wait_said(r"^spectators open (\S+) ")[1]
        return self.wait_said(rf"^{re.escape(player)} opens (\S+)$")[1]

    def tabs(self) -> list[int]:
        """The processes of the tabs seated: the server's children."""
        pid = self.process.pid
        try:
            return [int(p) for p in
                    Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            return []


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            # Both names lead to this machine. The other site is served from it too: Chromium
            # itself stops public sites from reaching loopback (Local Network Access), and
            # what is tested here is the table's own check, against a site it cannot tell
            # from a neighbour's.
            args=[f"--host-resolver-rules=MAP {PUBLIC_NAME} 127.0.0.1,"
                  f"MAP {FOREIGN_NAME} 127.0.0.1"])
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Browser):
    """Opens pages, each in a fresh browser profile, able to read its terminal."""
    contexts = []

    def new_page_() -> Page:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        contexts.append(context)
        context.add_init_script(CATCH_TERMINAL)
        return context.new_page()

    yield new_page_
    for context in contexts:
        context.close()


@pytest.fixture
def serve_web(db, game):
    """Starts `warledger --db DB serve web OPTIONS` on a free loopback port (unless the
    options give one); each is stopped with SIGTERM afterwards."""
    hosts: list[WebHost] = []

    def serve_web_(*options: str) -> WebHost:
        port = [] if "--port" in options else ["--port", "0"]
        host = WebHost(subprocess.Popen(
            [sys.executable, "-m", "tui", "--db", db, "serve", "web", *port, *options],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        hosts.append(host)
        host.port = int(host.wait_said(r"listening on 127\.0\.0\.1:(\d+)")[1])
        return host

    yield serve_web_
    for host in hosts:
        host.process.terminate()
        try:
            host.process.wait(10)
        except subprocess.TimeoutExpired:
            host.process.kill()
            host.process.wait()
    for host in hosts:
        assert host.process.returncode == 0, host.said


@pytest.fixture
def foreign_site() -> Iterator[str]:
    """Another site's page, served from this machine on a port of its own."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<html><body>another site</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://{FOREIGN_NAME}:{server.server_address[1]}/"
        server.shutdown()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def screen(page: Page) -> str | None:
    text = page.evaluate("() => window.screenOfTheTable()")
    return None if text is None else "\n".join(line.rstrip() for line in text.splitlines())


def shows(page: Page, *words: str, timeout: float = SCREEN_WAIT) -> str:
    """Waits until the page's terminal shows every one of `words`; returns its text."""
    try:
        page.wait_for_function(
            "words => { const text = window.screenOfTheTable();"
            " return text !== null && words.every(word => text.includes(word)); }",
            arg=list(words), timeout=timeout * 1000)
    except PlaywrightTimeout:
        raise AssertionError(f"the page never showed {words}; its terminal shows:\n"
                             f"{screen(page)}") from None
    return screen(page)


def text_of(page: Page) -> str:
    return page.locator("body").inner_text().strip()


def test_a_named_player_records_a_step_and_the_history_names_them(
        serve_web, new_page, db, game):
    table = serve_web()  # the players of the game in progress: Ana, Bo, Cy and Di
    page = new_page()
    page.goto(table.link("Cy") + "&delay=1")  # the splash waits for a click
    page.wait_for_url(f"http://127.0.0.1:{table.port}/?delay=1")  # the token left behind
    start = page.locator("#start")
    assert start.is_visible() and "warledger" in page.locator(".intro").first.inner_text()
    assert not any("sat down" in line for line in table.said)
    start.click()
    shows(page, "you are Cy", "New Struggle of Empires", "Friday", "War 1 · population")
    page.focus(".xterm-helper-textarea")  # the keys go to the terminal (no mouse click)
    page.keyboard.press("Enter")  # open the highlighted game, the only one
    shows(page, test_hosting.POPULATION, "Friday — Struggle of Empires")
    page.keyboard.press("Enter")  # confirm the population step; scoring follows by itself
    shows(page, STEP_TITLES["end_war"])
    assert Ledger(make_engine(db)).authors(game)[-2:] == [(3, "population", "Cy"),
                                                          (4, "scoring", "Cy")]
    page.keyboard.press("Control+p")  # the palette: Show: history
    shows(page, "Search for commands")
    page.keyboard.type("Show: history")
    shows(page, "Every step recorded in this game")
    page.keyboard.press("Enter")
    history = shows(page, "History of Friday", "#4, recorded by Cy")
    assert re.search(r"^\W*3 +\S+ +Cy +War 1 population", history, re.MULTILINE)
    assert re.search(r"^\W*4 +\S+ +Cy +War 1 scoring", history, re.MULTILINE)
    assert "Cy sat down from a browser at 127.0.0.1" in table.said


def test_a_link_clicked_on_another_site_seats_its_player(serve_web, new_page, foreign_site):
    """A link sent in a chat: opened from another site's page, it still seats its player
    (its cookie is SameSite=Strict, and the tab goes on from the table's own page)."""
    table = serve_web()
    page = new_page()
    page.goto(foreign_site)
    page.evaluate("url => { const a = document.createElement('a'); a.href = url;"
                  " a.id = 'link'; a.textContent = 'your seat'; document.body.append(a); }",
                  table.link("Bo"))
    page.click("#link")
    shows(page, "you are Bo", "Friday")
    assert page.url == f"http://127.0.0.1:{table.port}/"
    assert page.context.cookies()[0]["httpOnly"]


@pytest.mark.parametrize("how", ["no link", "a wrong link", "an old link"])
def test_a_tab_without_a_link_or_with_a_wrong_one_gets_no_process(
        serve_web, new_page, how):
    table = serve_web("--player", "Ana", "--player", "Bo")
    old = serve_web("--player", "Ana") if how == "an old link" else None
    url = {"no link": f"http://127.0.0.1:{table.port}/",
           "a wrong link": table.link("Ana")[:-3] + "abc",
           "an old link": old and old.link("Ana").replace(f":{old.port}/", f":{table.port}/")
           }[how]
    page = new_page()
    response = page.goto(url)
    assert response.status == 403 and text_of(page) == NO_LINK
    page.goto(f"http://127.0.0.1:{table.port}/?lang=ro")
    assert text_of(page) == translation_of("ro").gettext(NO_LINK)
    # And the table's own page, had it been loaded, could not open a websocket either.
    knocked = page.evaluate(KNOCK, f"ws://127.0.0.1:{table.port}/ws?width=80&height=24")
    assert knocked == "closed 1006"  # the handshake got HTTP 403
    table.wait_said(r"^refused a websocket from 127\.0\.0\.1: no link of this table$")
    assert table.tabs() == [] and not any("sat down" in line for line in table.said)
    for line in table.said:
        assert "token=" not in line or " opens http" in line or line.startswith("spectators")


def scoreboard_is_there() -> bool:
    """Whether `warledger scoreboard` is a command yet (issue 26's other half)."""
    return subprocess.run([sys.executable, "-m", "tui", "scoreboard", "--help"],
                          capture_output=True).returncode == 0


def test_the_spectators_link_shows_the_scoreboard_and_no_key_records(
        serve_web, new_page, db, game):
    if not scoreboard_is_there():
        pytest.skip("no `warledger scoreboard` command yet")
    table = serve_web()
    page = new_page()
    page.goto(table.link(None))
    shows(page, "Scoreboard", "Friday", "Ana", "Bo")
    table.wait_said(r"^a spectator sat down at the scoreboard from a browser at 127\.0\.0\.1$")
    before = Ledger(make_engine(db)).authors(game)
    page.focus(".xterm-helper-textarea")
    for key in ("Enter", "Control+z", "Control+y", "Control+s", "Tab", "1", "Enter",
                "Control+o", "Enter", "Delete", "Enter"):
        page.keyboard.press(key)
    page.keyboard.press("Control+p")
    page.keyboard.type("record")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    shows(page, "Scoreboard", "Friday")
    assert Ledger(make_engine(db)).authors(game) == before
    assert len(table.tabs()) == 1  # the spectator's, still there


def test_a_page_served_under_its_public_url_connects(serve_web, new_page):
    port = free_port()
    url = f"http://{PUBLIC_NAME}:{port}"
    table = serve_web("--port", str(port), "--public-url", url)
    link = table.link("Ana")
    assert link.startswith(f"{url}/?token=")
    page = new_page()
    with page.expect_websocket() as opened:
        page.goto(link)
    assert opened.value.url.startswith(f"ws://{PUBLIC_NAME}:{port}/ws")
    shows(page, "you are Ana", "New Struggle of Empires", "Friday")


def test_an_open_table_under_its_public_url_connects(serve_web, new_page):
    port = free_port()
    url = f"http://{PUBLIC_NAME}:{port}"
    table = serve_web("--open", "--port", str(port), "--public-url", url)
    table.wait_said(rf"^players open {re.escape(url)}$")
    page = new_page()
    with page.expect_websocket() as opened:
        page.goto(f"{url}/")
    assert opened.value.url.startswith(f"ws://{PUBLIC_NAME}:{port}/ws")
    shows(page, "New Struggle of Empires", "Friday")


def test_a_tab_beyond_max_sessions_is_told_the_table_is_full(serve_web, new_page):
    table = serve_web("--open", "--max-sessions", "1")
    first, late = new_page(), new_page()
    first.goto(f"http://127.0.0.1:{table.port}/")
    shows(first, "War 1 · population")  # the saved games listed: Enter opens Friday
    late.goto(f"http://127.0.0.1:{table.port}/")
    shows(late, TABLE_FULL.format(max=1))
    late.locator(".closed-dialog").get_by_text("Session ended.").wait_for()
    table.wait_said(r"^a browser at 127\.0\.0\.1 turned away: the table is full$")
    first.focus(".xterm-helper-textarea")  # the first player still plays
    first.keyboard.press("Enter")
    shows(first, test_hosting.POPULATION)


def test_a_page_of_another_site_cannot_open_the_tables_websocket(
        serve_web, new_page, foreign_site):
    table = serve_web("--open")
    page = new_page()
    page.goto(foreign_site)
    knocked = page.evaluate(KNOCK, f"ws://127.0.0.1:{table.port}/ws?width=80&height=24")
    assert knocked == "closed 1006"  # the handshake got HTTP 403
    table.wait_said(rf"^refused a websocket from {re.escape(foreign_site.rstrip('/'))} "
                    r"\(127\.0\.0\.1\)$")
    assert not any("sat down" in line for line in table.said)


def test_a_page_asked_in_romanian_plays_in_romanian(serve_web, new_page, db, game):
    """?lang=ro on the page's address: its tab's app runs in Romanian, the step recorded
    as in English."""
    table = serve_web("--open")
    page = new_page()
    with page.expect_websocket() as opened:
        page.goto(f"http://127.0.0.1:{table.port}/?lang=ro")
    assert f"127.0.0.1:{table.port}/ws/ro?" in opened.value.url
    ro = translation_of("ro").gettext
    shows(page, "Friday", ro("New {game}").format(game="Struggle of Empires"))
    page.focus(".xterm-helper-textarea")
    page.keyboard.press("Enter")  # open the highlighted game, the only one
    shows(page, ro("France"), ro("Britain"))
    page.keyboard.press("Enter")  # confirm the population step; scoring follows by itself
    shows(page, ro(STEP_TITLES["end_war"]))
    assert Ledger(make_engine(db)).authors(game)[-2:] == [(3, "population", None),
                                                          (4, "scoring", None)]
