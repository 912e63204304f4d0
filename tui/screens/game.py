"""The game screen: phase bar, the form of the current step, the totals panel.

This base class knows the ledger side (record, undo, redo, drafts, live refresh, messages),
all of it in workers (tui/plumbing/ledger_calls.py): the keys keep answering while the database
works; each game's screen supplies its forms and totals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static
from textual.worker import Worker

from i18n import N_, _
from rules.errors import RuleError
from tui.plumbing.keys import keys_by_id
from tui.plumbing.ledger_calls import LedgerCalls, is_going, while_live
from tui.screens.base import WarledgerScreen
from tui.screens.live import LIVE_EVERY, LiveGame, Overtaken
from tui.screens.seats import Seats
from tui.text.formatting import and_joined, step_name
from tui.text.literal import literal, show_in
from tui.widgets.footer import Footer
from tui.widgets.header import Header
from tui.widgets.phase_bar import PhaseBar
from tui.widgets.seat_form import SeatForm
from tui.widgets.step_form import StepForm

if TYPE_CHECKING:
    from textual.screen import Screen

    from storage.ledger import Ledger



class GameScreen(LiveGame, Seats, LedgerCalls, WarledgerScreen[None]):
    """One game at the table. Subclasses build the form and the totals of their game."""

    BINDINGS = [
        # Short words in the footer (at 80 columns Quit and Help fit beside them); the help
        # says them whole (the tooltips).
        Binding("enter", "confirm", N_("Confirm"), id="confirm", priority=False,
                tooltip=N_("Confirm step")),
        Binding("ctrl+z", "undo", N_("Undo"), id="undo"),
        Binding("ctrl+y", "redo", N_("Redo"), id="redo", show=False),
        Binding("ctrl+o", "home", N_("Saved games"), id="home"),
        # Only while a notice says another terminal recorded the step typed here first; in
        # the footer then, where a phone's player can tap them (check_action).
        Binding("ctrl+r", "mine_instead", N_("Mine instead"), id="mine_instead",
                tooltip=N_("Take back the step another terminal recorded first, and put your "
                           "entry in the form")),
        Binding("escape", "dismiss_notice", N_("Keep theirs"), id="dismiss_notice",
                tooltip=N_("Keep the step another terminal recorded, and close "
                                       "the notice")),
    ]

    # The step the table is at; the phase bar carries it as a class (-phase-upkeep), so
    # app.tcss can give a phase its own look. On the bar, not the screen: a class changed on
    # the screen styles every widget of it again.
    phase: reactive[str] = reactive("")

    def __init__(self, game, draft: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.game = game
        self._draft = draft  # typed but not confirmed when the game was opened
        self._form_key: tuple | None = None
        self._form_ready: StepForm | None = None  # the form given its draft (its Ready)
        self._recorder: Worker | None = None  # the worker recording a step
        self._watch = None  # storage.watch.GameWatch, made in the first look
        self._gone = False  # unmounted: no watch is kept any more
        self._looking: Worker | None = None
        self._overtaken: Overtaken | None = None  # the notice shown, if any
        # The game's sequence the words beside the form speak of (say): once the game shown
        # is at another, they describe the past and go (show).
        self._said_at: int | None = None
        # What was typed into a step that an undo or a redo left, by step (step_at): it
        # comes back when the game is at that step again (ctrl+z then ctrl+y).
        self._aside: dict[tuple, dict[str, Any]] = {}

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        yield PhaseBar(id="phase-bar")
        with Horizontal(id="body"):
            with Vertical(id="form-area"):
                yield Static("", classes="title", id="step-title")
                yield Static("", classes="hint", id="step-hint")
                # What the table must do before the game can go on; shown at any height,
                # unlike the hint.
                yield Static("", classes="hint", id="step-warning")
                # Another terminal recorded the step typed here: stays until dismissed.
                yield Static("", classes="message -error", id="overtaken")
                yield Vertical(id="form")
                # Seats' parts of a by-seat step: who is ready, who not yet (tui/screens/seats.py).
                yield Static("", classes="hint", id="seats")
                yield Static("", classes="message", id="message")
                explain = VerticalScroll(Static("", id="explain"), id="explain-box")
                explain.can_focus = False
                yield explain
            yield from self.compose_totals()
        yield Footer()

    def compose_totals(self) -> ComposeResult:
        raise NotImplementedError

    def on_mount(self) -> None:
        self.query_one("#overtaken").display = False
        self.show(self.game)
        # Timers run out of the screen's turn, so their callbacks stop once it is going.
        self.set_interval(LIVE_EVERY, while_live(self, self.look_for_changes))

    def on_unmount(self) -> None:
        self.close_parts()
        self._gone = True  # a look making its watch now closes it itself
        watch, self._watch = self._watch, None
        if watch is not None:  # in a worker: closing may talk to the database
            self.app.call_ledger(lambda ledger: watch.close(), group="watch-close",
                                 quiet=True)

    def watch_phase(self, old: str, new: str) -> None:
        classes = {phase_class(old): False} if old else {}
        if new:
            classes[phase_class(new)] = True
        self.query_one(PhaseBar).update_classes(classes)

    @property
    def game_shown(self) -> str:
        return self.game.game

    @property
    def keys(self) -> dict[str, str]:
        """This screen's keys by binding id, for the words of its forms."""
        return keys_by_id(self)

    # ------------------------------------------------------------ what subclasses give

    def form_key(self) -> tuple:
        """When this changes, the form is built anew."""
        return (self.game.seq, self.game.state.phase, self.seat_layout())

    def step_at(self, state: Any) -> tuple:
        """Which step of the game the form enters (a war's upkeep, a round): typing carries
        over to a form built anew for the same step, never to the next one."""
        return (state.phase,)

    def build_form(self) -> StepForm:
        """The form of the current step."""
        raise NotImplementedError

    def use_draft(self, draft: dict[str, Any]) -> None:
        """Before the form of a draft is built: its way of entry (income by grid or totals,
        a round by player or by territory), so the form reopens the way it was typed."""

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
    def form(self) -> StepForm | None:
        """The step's form: the one built last, not one on its way out (its fields go
        first) while the form built anew takes its place."""
        forms = [child for child in self.query_one("#form", Vertical).children
                 if isinstance(child, StepForm) and not is_going(child)]
        return forms[-1] if forms else None

    def show(self, game) -> None:
        """Show `game`; the form is rebuilt only when the step it belongs to changed. What
        the player typed stays in the form built anew for the same step (a taxation or a
        correction recorded, here or on another terminal, changes its base, not the cells
        typed)."""
        before, self.game = self.game, game
        self.title = f"{game.title}"
        self.forget_the_past(game)
        if game.state.finished:
            self.app.show_game(game, instead=True)
            return
        self.phase = game.state.phase
        self.show_header()
        assert self.sub_title is not None  # each game's show_header has just set it
        self.sub_title = self.app.as_seen_by_player(self.sub_title)
        key = self.form_key()
        if key != self._form_key:
            self.keep_typing(before, game)
            self.take_from_aside(game)
            draft = self._draft or {}
            if draft.get("seq") == game.seq and draft.get("phase") == game.state.phase:
                self.use_draft(draft.get("form") or {})
                key = self.form_key()
            if key[:2] != (self._form_key or ())[:2]:
                self.note_sent()
            self._form_key = key
            box = self.query_one("#form", Vertical)
            # Keys typed meanwhile wait for the new form (tui/plumbing/key_order.py).
            self.app.hold_keys(self, "form")
            box.remove_children()
            box.mount(self.build_seat_form() or self.build_form())  # its Ready message focuses it and restores a draft
        else:
            self.preview()

    def forget_the_past(self, game) -> None:
        """Notices describe the present. What was said beside the form about another
        moment of the game ("Recorded: upkeep", "Another terminal recorded the income
        first...") goes once the game shown has moved (a step recorded, taken back or
        brought back, here or on another terminal); a wait for the ledger is its own to end.
        The lasting notice of a step recorded first elsewhere goes once that step is taken
        back: if the game is back where it was, the entry typed here is put in the form."""
        if self._said_at is not None and self._said_at != game.seq and self.is_mounted:
            message = self.query_one("#message", Static)
            if not message.has_class("-waiting"):
                self.say("")
        notice = self._overtaken
        if notice is not None and game.timeline.depth <= notice.depth:
            if (game.timeline.depth == notice.depth and not game.state.finished
                    and (self._draft or {}).get("seq") != game.seq):  # not an undo's own
                self._draft = {"seq": game.seq, "phase": game.state.phase, "form": notice.mine}
            self.action_dismiss_notice()

    def keep_typing(self, before, game) -> None:
        """The form is built anew for the same step: what the player typed goes into it
        (unless an undo already put the undone step's values there)."""
        form = self.form
        if (form is None or before is None or game.state.finished
                or self.step_at(before.state) != self.step_at(game.state)):
            return
        if self._draft is not None and self._draft.get("seq") == game.seq:
            return
        typed = self.typed() or {}
        typed.pop("mode", None)  # the way of entry is the screen's (a switch just made)
        self._draft = {"seq": game.seq, "phase": game.state.phase, "form": typed}

    def on_step_form_ready(self, event: StepForm.Ready) -> None:
        event.stop()
        if event.form is not self.form:
            return  # built anew twice in a row: the form that replaced it says Ready too
        self.focus_form()
        self.restore_draft()
        self._form_ready = event.form
        self.seat_opened()
        self.preview()
        self.app.release_keys(self, "form")

    def on_number_grid_refused(self, event) -> None:
        event.stop()
        self.say(event.reason, "error")

    def on_step_form_changed(self, event: StepForm.Changed) -> None:
        event.stop()
        self.preview()
        self.schedule_draft()
        self.part_changed()

    def on_step_form_confirmed(self, event: StepForm.Confirmed) -> None:
        event.stop()
        self.action_confirm()

    def on_step_form_moved(self, event: StepForm.Moved) -> None:
        event.stop()
        self.schedule_draft()  # where the cursor is: a resumed game opens there

    def focus_form(self) -> None:
        form = self.form
        if form is not None:
            target = form.focus_target()
            if target is not None and target.focusable:
                target.focus()

    def say(self, text: str, kind: str = "error") -> None:
        message = self.query_one("#message", Static)
        message.set_classes(f"message -{kind}")
        show_in(message, literal(text))
        self._said_at = self.game.seq if text else None

    # The ledger's answers (tui/plumbing/ledger_calls.py), beside the form.

    def ledger_waiting(self, message: str) -> None:
        self.say(message, "waiting")

    def ledger_done(self) -> None:
        if self.query_one("#message", Static).has_class("-waiting"):
            self.say("")

    def ledger_failed(self, message: str, error: BaseException) -> None:
        from storage.ledger import StaleGame

        self.app.release_keys(self, "record")
        if isinstance(error, StaleGame):
            self.arrived(error.game)
        elif not isinstance(error, RuleError):
            # TRANSLATORS: a database failure (in the database layer's words), then this.
            message = _("{error}; nothing was written").format(error=message)
        self.say(message, "error")

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
        if isinstance(self.form, SeatForm):  # a seat's part: the checks it answers alone
            after, problem = self.seat_preview(self.form)
        elif pending is not None:
            try:
                after = self.game.rules.apply(state, self.game.rules.read_step(pending))
            except RuleError as e:
                problem = str(e)
        self.show_totals(after)
        self.show_table()
        reasons = self.explain(after)
        show_in(self.query_one("#explain", Static),
                literal(reasons) if isinstance(reasons, str) else reasons)
        message = self.query_one("#message", Static)
        if problem:
            self.say(problem, "warning")
        elif message.has_class("-warning") or message.has_class("-error"):
            self.say("")  # the entry changed: what was wrong with it is said no more

    # ------------------------------------------------------------ recording

    def record(self, step: dict[str, Any] | str, done: str = "",
               then: Callable[[], Any] | None = None) -> None:
        """Record a step (or "undo"/"redo") through the ledger, in a worker; tell the player
        what happened, and run `then` once it is recorded. An undo puts the undone step's
        values back into its form, so taking a step back never costs its typing."""
        if self.recording:
            self.say(_("Still recording the last step: a moment."), "waiting")
            return
        game, author = self.game, self.app.player
        session_id, seq = game.id, game.seq
        typed = self.typed()

        def write(ledger):
            if step == "undo":
                undone = game.timeline.last_step  # a resumed game's past is read here
                after = ledger.undo(session_id, expected_seq=seq, author=author)
                return after, (undone.to_json() if undone is not None else None), []
            if step == "redo":
                return ledger.redo(session_id, expected_seq=seq, author=author), None, []
            after = ledger.record(session_id, step, expected_seq=seq, author=author)
            followed = []
            # Steps that need nothing from the table follow, each in its own transaction.
            while (next_step := self.step_by_itself(after.state)) is not None:
                after = ledger.record(session_id, next_step, expected_seq=after.seq,
                                      author=author)
                followed.append(next_step["kind"])
            return after, None, followed

        def recorded(answer) -> None:
            after, undone, followed = answer
            if step in ("undo", "redo"):
                self.put_aside(game, after, typed)
            if step == "undo":
                self.keep_undone(after, undone, typed, game.state.phase)
            self.show(after)
            self.app.release_keys(self, "record")
            if followed:
                # TRANSLATORS: {done} is what was recorded ("Recorded: scoring"), {steps}
                # the steps that followed by themselves ("end war and end game").
                self.say(_("{done}; then by itself: {steps} ({undo} takes a step back).")
                         .format(done=done.rstrip("."), undo=self.key_of("undo"),
                                 steps=and_joined(step_name(self.game.game, kind)
                                                  for kind in followed)), "ok")
            elif done:
                self.say(done, "ok")
            if then is not None:
                then()

        # What is typed while the step is recorded goes to the form that follows it.
        self.app.hold_keys(self, "record")
        self._recorder = self.call_ledger(write, recorded, group="record")

    def keep_undone(self, game, undone: dict[str, Any] | None, typed: dict | None,
                    phase: str) -> None:
        """The form the undo reopens starts from the undone step's values; after undoing a
        step of play (a taxation, an elimination), what was being typed stays."""
        form = self.form_of_step(undone["kind"]) if undone is not None else None
        draft: dict[str, Any] | None
        if form is not None and undone is not None:  # a form only for an undone step
            draft = form.draft_of(undone)
        elif game.state.phase == phase:
            draft = typed
        else:
            return
        self._draft = {"seq": game.seq, "phase": game.state.phase, "form": draft}

    def put_aside(self, before, after, typed: dict[str, Any] | None) -> None:
        """An undo or a redo leaves the step typed into: what was typed waits for the game
        to come back to that step (undo and redo leave typed cells alone)."""
        step = self.step_at(before.state)
        if typed and step != self.step_at(after.state):
            self._aside[step] = typed

    def take_from_aside(self, game) -> None:
        """The form is built for a step typed into before an undo or a redo left it: that
        typing is its draft, unless it has one already (an undone step's values)."""
        typing = self._aside.pop(self.step_at(game.state), None)
        draft = self._draft or {}
        if typing is not None and not game.state.finished and not (
                draft.get("seq") == game.seq and draft.get("phase") == game.state.phase):
            self._draft = {"seq": game.seq, "phase": game.state.phase, "form": typing,
                           "aside": True}

    def step_by_itself(self, state: Any) -> dict[str, Any] | None:
        """The next step when it needs nothing from the table (recorded right after the
        step confirmed), or None. Runs beside the ledger, so it only asks the rules."""
        return None

    def form_of_step(self, kind: str) -> type[StepForm] | None:
        """The form that enters steps of this kind (None for steps recorded by dialogs)."""
        return None

    @property
    def recording(self) -> bool:
        """A step is on its way to the database (one at a time: each expects the last)."""
        return self._recorder is not None and self._recorder.is_running

    def action_confirm(self) -> None:
        form = self.form
        if form is None:
            return
        problem = form.not_ready()
        if problem:
            self.say(problem, "error")
            return
        if self.confirm_part():  # a seat's own part: marked ready
            return
        step = self.step_with_parts() if self.by_seat_form() else form.pending_step()
        if step is not None:
            self.record(step, _("Recorded: {step}.").format(
                step=step_name(self.game.game, step["kind"])))

    def action_undo(self) -> None:
        self.record("undo", _("Took back the last step ({redo} brings it back).").format(
            redo=self.key_of("redo")))

    def action_redo(self) -> None:
        self.record("redo", _("Brought the step back."))

    def action_home(self) -> None:
        self.save_draft()
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("mine_instead", "dismiss_notice"):
            return self._overtaken is not None
        return True

    # ------------------------------------------------------------ drafts

    def schedule_draft(self) -> None:
        """Keep what the form holds now: the app's draft keeper writes it in its thread at
        once, or right after the write in flight (tui/plumbing/drafts.py)."""
        self.save_draft()

    def save_draft(self) -> None:
        """Keep what the form holds (also as the screen goes: the keeper writes it then).
        A lost draft costs some typing, never a step, so it is written quietly."""
        typed = self.typed()
        if typed is not None:
            self.app.drafts.note(self.game.id, {"seq": self.game.seq,
                                                "phase": self.game.state.phase, "form": typed,
                                                "player": self.app.player})

    def typed(self) -> dict[str, Any] | None:
        """What the form holds (None: no form). A form built anew and not given its draft
        yet (at its Ready) holds what it is being given (the typing carried over), not an
        empty grid: a draft saved in that moment must not wipe the one it replaces."""
        form = self.form
        if form is None:
            return None
        if form is self._form_ready:
            return form.draft()
        draft = self._draft or {}
        if draft.get("seq") == self.game.seq and draft.get("phase") == self.game.state.phase:
            return dict(draft.get("form") or {})
        return {}  # a new step's form: nothing typed into it yet

    def again(self) -> Screen:
        typed = self.typed()
        draft = {"seq": self.game.seq, "phase": self.game.state.phase,
                 "form": typed} if typed is not None else None
        return self.app.screen_for(self.game, draft)

    def unsaved_draft(self) -> Callable[[Ledger], None] | None:
        drafts, session_id = self.app.drafts, self.game.id
        if not drafts.unwritten(session_id):
            return None
        return lambda ledger: drafts.write(ledger, session_id)

    def restore_draft(self) -> None:
        """Put back what was typed when the game was opened, once (a step clears drafts)."""
        draft, self._draft = self._draft, None
        form = self.form
        if (draft and form is not None and draft.get("seq") == self.game.seq
                and draft.get("phase") == self.game.state.phase):
            form.restore(draft.get("form") or {})
            if draft.get("aside"):  # typing back from aside: kept with the game again
                self.schedule_draft()

    # ------------------------------------------------------------ palette

    def pocket_keys(self) -> tuple[str, ...]:
        # A phone's key row has Enter, Esc and Undo (issue 45); the notice's own keys come
        # first while it shows, ctrl+r being nowhere else to tap.
        if self._overtaken is not None:
            return ("mine_instead", "dismiss_notice", "help")
        return ("confirm", "undo", "help", "quit")

    def commands(self):
        key = self.key_of
        yield SystemCommand(_("Undo: last step"), _("Take back the last confirmed step ({key})")
                            .format(key=key("undo")), self.action_undo)
        yield SystemCommand(_("Redo: step"), _("Bring back the step just taken back ({key})")
                            .format(key=key("redo")), self.action_redo)
        yield SystemCommand(_("Open: saved games"), _("Back to the list of games ({key})")
                            .format(key=key("home")), self.action_home)
        yield SystemCommand(_("Show: history"), _("Every step recorded in this game"),
                            self.action_history)
        yield from self.seat_commands()

    def shown_name(self, name: str) -> str:
        """A row or column of a grid (a power, a region, a territory, a player) as the
        screens show it: an id of the game's in the reader's language; a player's name as
        it is."""
        if not name or any(seat.name == name for seat in self.game.state.seats):
            return name
        return _(name)

    def action_history(self) -> None:
        from tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.game))


def phase_class(phase: str) -> str:
    """The CSS class of a phase: 'end_war' -> '-phase-end-war'."""
    return "-phase-" + phase.replace("_", "-")
