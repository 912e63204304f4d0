"""The game screen: phase bar, the form of the current step, the totals panel.

This base class knows the ledger side (record, undo, redo, drafts, live refresh, messages);
each game's screen supplies its forms and totals.
"""

from __future__ import annotations

import contextlib
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Static

from rules.errors import RuleError
from tui.literal import literal
from tui.widgets.phase_bar import PhaseBar

LIVE_EVERY = 0.5  # seconds between looks at the database for steps from other terminals
DRAFT_AFTER = 0.4  # seconds of quiet typing before the draft is saved


def open_game(app: App, session_id: int) -> None:
    """Show a saved game: its game screen, or its results once it is finished."""
    from storage.service import explain

    try:
        game = app.ledger.load(session_id)
    except Exception as e:  # noqa: BLE001 - told to the player, not thrown
        app.notify(explain(e), severity="error")
        return
    app.push_screen(screen_for(game))


def screen_for(game) -> Screen:
    if game.state.finished:
        from tui.screens.results import ResultsScreen

        return ResultsScreen(game)
    if game.game == "soe":
        from tui.screens.soe_game import SoeGameScreen

        return SoeGameScreen(game)
    from tui.screens.risk_game import RiskGameScreen

    return RiskGameScreen(game)


class GameScreen(Screen):
    """One game at the table. Subclasses build the form and the totals of their game."""

    BINDINGS = [
        Binding("enter", "confirm", "Confirm step", id="confirm", priority=False),
        Binding("ctrl+z", "undo", "Undo", id="undo"),
        Binding("ctrl+y", "redo", "Redo", id="redo"),
        Binding("ctrl+o", "home", "Saved games", id="home"),
    ]

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game
        self._form_key: tuple | None = None
        self._draft_timer: Timer | None = None

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        yield PhaseBar(id="phase-bar")
        with Horizontal(id="body"):
            with Vertical(id="form-area"):
                yield Static("", classes="title", id="step-title")
                yield Static("", classes="hint", id="step-hint")
                yield Vertical(id="form")
                yield Static("", classes="message", id="message")
                explain = VerticalScroll(Static("", id="explain"), id="explain-box")
                explain.can_focus = False
                yield explain
            yield from self.compose_totals()
        yield Footer()

    def compose_totals(self) -> ComposeResult:
        raise NotImplementedError

    def on_mount(self) -> None:
        self.show(self.game)
        self.set_interval(LIVE_EVERY, self.look_for_changes)

    # ------------------------------------------------------------ what subclasses give

    def form_key(self) -> tuple:
        """When this changes, the form is built anew."""
        return (self.game.seq, self.game.state.phase)

    def build_form(self):
        """The form widget of the current step (has pending_step/draft/restore)."""
        raise NotImplementedError

    def show_header(self) -> None:
        """Phase bar and step title for self.game."""
        raise NotImplementedError

    def show_totals(self, preview: Any | None) -> None:
        raise NotImplementedError

    def explain(self, preview: Any | None) -> Text | str:
        """Why the totals are what they are (player text in it is shown literally)."""
        return ""

    # ------------------------------------------------------------ showing

    @property
    def form(self):
        children = self.query_one("#form", Vertical).children
        return children[0] if children else None

    def show(self, game) -> None:
        """Show `game`; the form is rebuilt only when the step it belongs to changed."""
        self.game = game
        self.title = f"{game.title}"
        if game.state.finished:
            self.app.switch_screen(screen_for(game))
            return
        self.show_header()
        self.sub_title = self.app.as_seen_by_player(self.sub_title)
        key = self.form_key()
        if key != self._form_key:
            self._form_key = key
            box = self.query_one("#form", Vertical)
            box.remove_children()
            box.mount(self.build_form())  # its Ready message focuses it and restores a draft
        else:
            self.preview()

    def on_step_form_ready(self, event) -> None:
        event.stop()
        self.focus_form()
        self.restore_draft()
        self.preview()

    def focus_form(self) -> None:
        form = self.form
        if form is not None:
            target = getattr(form, "focus_target", lambda: form)()
            if target is not None and target.focusable:
                target.focus()

    def say(self, text: str, kind: str = "error") -> None:
        message = self.query_one("#message", Static)
        message.set_classes(f"message -{kind}")
        message.update(literal(text))

    def pending(self) -> dict[str, Any] | None:
        form = self.form
        return form.pending_step() if form is not None else None

    def preview(self) -> None:
        """Totals as they would be after the pending entry; a live hint if it breaks a rule."""
        if not self.is_mounted or self.form is None:
            return
        state = self.game.state
        pending = self.pending()
        after, problem = None, ""
        if pending is not None:
            try:
                after = self.game.rules.apply(state, self.game.rules.read_step(pending))
            except RuleError as e:
                problem = str(e)
        self.show_totals(after)
        reasons = self.explain(after)
        self.query_one("#explain", Static).update(
            literal(reasons) if isinstance(reasons, str) else reasons)
        message = self.query_one("#message", Static)
        if problem:
            self.say(problem, "warning")
        elif message.has_class("-warning"):
            self.say("")

    # ------------------------------------------------------------ recording

    def record(self, step: dict[str, Any] | str, done: str = "") -> bool:
        """Record a step (or "undo"/"redo") through the ledger; tell the player what happened."""
        from storage.ledger import StaleGame
        from storage.service import explain

        ledger = self.app.ledger
        try:
            if step == "undo":
                game = ledger.undo(self.game.id, expected_seq=self.game.seq,
                                   author=self.app.player)
            elif step == "redo":
                game = ledger.redo(self.game.id, expected_seq=self.game.seq,
                                   author=self.app.player)
            else:
                game = ledger.record(self.game.id, step, expected_seq=self.game.seq,
                                     author=self.app.player)
        except RuleError as e:
            self.say(str(e), "error")
            return False
        except StaleGame as e:
            self.show(e.game)
            self.say(str(e), "error")
            return False
        except Exception as e:  # noqa: BLE001 - a database failure is told, never thrown
            self.say(explain(e) + "; nothing was written", "error")
            return False
        self.show(game)
        if done:
            self.say(done, "ok")
        return True

    def action_confirm(self) -> None:
        form = self.form
        if form is None:
            return
        problem = getattr(form, "not_ready", lambda: "")()
        if problem:
            self.say(problem, "error")
            return
        step = form.pending_step()
        if step is not None:
            self.record(step, f"Recorded: {step['kind'].replace('_', ' ')}.")

    def on_number_grid_submitted(self, event) -> None:
        event.stop()
        self.action_confirm()

    def on_number_grid_changed(self, event) -> None:
        self.preview()
        self.schedule_draft()

    def action_undo(self) -> None:
        self.record("undo", "Took back the last step (ctrl+y brings it back).")

    def action_redo(self) -> None:
        self.record("redo", "Brought the step back.")

    def action_home(self) -> None:
        self.save_draft()
        self.app.pop_screen()

    # ------------------------------------------------------------ live refresh

    def look_for_changes(self) -> None:
        """Another terminal may have recorded a step: show it within a second."""
        try:
            head = self.app.ledger.head(self.game.id)
            if head == self.game.seq:
                return
            game = self.app.ledger.load(self.game.id)
        except Exception:  # noqa: BLE001 - a busy database is looked at again shortly
            return
        self.show(game)
        if not game.state.finished:
            self.notify("Another terminal recorded a step: the game is up to date.",
                        timeout=3)

    # ------------------------------------------------------------ drafts

    def schedule_draft(self) -> None:
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(DRAFT_AFTER, self.save_draft)

    def save_draft(self) -> None:
        form = self.form
        if form is None or not hasattr(form, "draft"):
            return
        # A lost draft costs some typing, never a step: a failure here is not worth a message.
        with contextlib.suppress(Exception):
            self.app.ledger.save_draft(self.game.id, {
                "seq": self.game.seq, "phase": self.game.state.phase, "form": form.draft()})

    def restore_draft(self) -> None:
        try:
            draft = self.app.ledger.draft(self.game.id)
        except Exception:  # noqa: BLE001
            return
        form = self.form
        if (draft and form is not None and draft.get("seq") == self.game.seq
                and draft.get("phase") == self.game.state.phase and hasattr(form, "restore")):
            form.restore(draft.get("form") or {})

    # ------------------------------------------------------------ palette

    def commands(self):
        yield SystemCommand("Undo: last step", "Take back the last confirmed step (ctrl+z)",
                            self.action_undo)
        yield SystemCommand("Redo: step", "Bring back the step just taken back (ctrl+y)",
                            self.action_redo)
        yield SystemCommand("Open: saved games", "Back to the list of games (ctrl+o)",
                            self.action_home)
        yield SystemCommand("Show: history", "Every step recorded in this game",
                            self.action_history)

    def action_history(self) -> None:
        from tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.game))
