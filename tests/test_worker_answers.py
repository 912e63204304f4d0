"""A ledger answer lands only on a screen that is composed, mounted and still there
(tui/plumbing/ledger_calls.py): one that comes before the screen is shown waits for it, and one that
comes while the screen is being removed (popped, or the app closing) is dropped. Each test
makes the answer arrive at that moment on purpose, with events, not with timing."""

from __future__ import annotations

import threading

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import Worker

from tests.waiting import until
from tui.plumbing.ledger_calls import LedgerCalls, is_live, while_live

ANSWER = "the games"


class Probe(LedgerCalls, Screen[None]):
    """A screen that shows what the ledger answered, and records the order of events."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[str] = []
        self.answering: Worker | None = None
        self.when_removed = threading.Event()  # set as the screen is being taken down

    def compose(self) -> ComposeResult:
        yield Static("", id="answer")

    def on_mount(self) -> None:
        self.events.append("mounted")

    def show_answer(self, answer: str) -> None:
        self.query_one("#answer", Static).update(answer)
        self.events.append("answered")

    async def on_unmount(self) -> None:
        # Runs before Textual's own Unmount handler (which cancels the screen's workers),
        # with the screen's children already gone: the ledger answers now, and a timer's
        # callback (a draft being saved) comes due.
        self.events.append("unmounting")
        while_live(self, self.show_answer)("a timer's")
        self.when_removed.set()
        await until(lambda: self.answering is not None and self.answering.is_finished,
                    what="the answer to arrive")


class Table(App[None]):
    ledger = None  # the work below never looks at it


def blocking(release: threading.Event):
    def work(_ledger) -> str:
        assert release.wait(30), "never released"
        return ANSWER

    return work


async def test_an_answer_that_comes_before_the_screen_is_shown_waits_for_it():
    app = Table()
    async with app.run_test() as pilot:
        probe = Probe()
        worked = threading.Event()

        def work(_ledger) -> str:
            worked.set()
            return ANSWER

        worker = probe.answering = probe.call_ledger(work, probe.show_answer)  # not shown yet
        await until(worked.is_set, what="the work")
        # Before, the answer went straight to the screen: NoMatches for '#answer'.
        assert not is_live(probe) and probe.events == []
        await app.push_screen(probe)
        await until(lambda: worker.is_finished, what="the answer")
        await pilot.pause()
        assert probe.events == ["mounted", "answered"]
        assert str(probe.query_one("#answer", Static).render()) == ANSWER


async def test_an_answer_that_comes_as_the_screen_is_popped_is_dropped():
    app = Table()
    async with app.run_test() as pilot:
        probe = Probe()
        await app.push_screen(probe)
        release = probe.when_removed
        probe.answering = probe.call_ledger(blocking(release), probe.show_answer)
        await app.pop_screen()
        await until(lambda: "unmounting" in probe.events and probe.answering.is_finished)
        await pilot.pause()
        assert probe.events == ["mounted", "unmounting"]  # never answered, nor the timer
        assert app.is_running and app.screen is not probe


async def test_the_saved_games_arriving_as_the_app_closes_are_dropped(monkeypatch):
    """What failed test_a_player_over_ssh_is_not_offered_screenshots: the home screen's
    list of games came back while the app was closing, and `#games` was gone already."""
    import tui.screens.home
    from tui.app import WarledgerApp

    release = threading.Event()
    asked = threading.Event()

    class SlowLedger:
        def games_page(self, *args, **kwargs):
            from storage.listing import Page

            asked.set()
            assert release.wait(30), "never released"
            return Page([], None)

    class ClosingHome(tui.screens.home.HomeScreen):
        async def on_unmount(self) -> None:  # before Textual cancels its workers
            assert not self.query(DataTable)  # `#games` is gone already
            release.set()
            await until(lambda: all(w.is_finished for w in app.workers if w.node is self),
                        what="the list of games to arrive")

    monkeypatch.setattr(tui.screens.home, "HomeScreen", ClosingHome)
    app = WarledgerApp(ledger=SlowLedger())
    async with app.run_test():
        await until(asked.is_set, what="the home screen to ask for the games")
    # run_test re-raises what failed in the app: before, NoMatches for '#games'
    assert release.is_set()


async def test_a_watch_made_as_its_game_screen_goes_is_closed(table):
    """The game screen's first look makes its watch (a kept connection) in a thread. If the
    screen goes while the watch is being made, nobody is left to close it but that look."""
    from tui.games.risk.demo import RISK_DEMO
    from tui.screens.game import GameScreen
    from tui.screens.home import HomeScreen

    ledger = table.ledger()
    game_id = ledger.replay(RISK_DEMO).id
    asked, release, made = threading.Event(), threading.Event(), []
    real_watch = ledger.watch

    def slow_watch(session_id: int):
        asked.set()
        assert release.wait(30), "never released"
        made.append(real_watch(session_id))
        return made[-1]

    ledger.watch = slow_watch
    app = table.app(ledger=ledger)
    async with app.run_test() as pilot:
        await until(lambda: isinstance(app.screen, HomeScreen), what="home")
        app.open_game(game_id)
        await until(lambda: isinstance(app.screen, GameScreen), what="the game")
        screen = app.screen
        await until(asked.is_set, what="the first look to make its watch")
        await pilot.press("ctrl+o")
        await until(lambda: screen._gone, what="the game screen to go")
        release.set()
        await until(lambda: made and made[0]._closed, what="the watch to be closed")
        assert screen._watch is None


async def test_a_keys_marker_that_arrives_as_the_app_closes_is_dropped(table):
    """What failed busy run 4 of 34e6c41: the marker that follows a key (tui/plumbing/key_order.py)
    reached the app after it had taken its screens down as it closed, and asking for the
    screen raised ScreenStackError: a traceback on the player's way out. Here the marker,
    a new lap and a key arrive once the app is closed, on purpose."""
    from textual import events

    from tui.plumbing.key_order import Settled

    app = table.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")
    assert not app.screen_stack  # closed: every screen taken down
    app._lap_round()  # the watchdog's next lap: it has no screen to post its marker to
    await app.on_settled(Settled(app._lap))  # the marker of a key handled as it closed
    app._waiting_keys.append(events.Key("x", "x"))
    await app._pump()
    assert len(app._waiting_keys) == 1  # kept, with nowhere to go, and nothing raised
