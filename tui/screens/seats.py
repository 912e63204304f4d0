"""Seats: every player enters their own part of a step, at once, from their own terminal.

In a step whose rows are the seats (a form with `by_seat`: Struggle of Empires' upkeep), the
player this terminal seats (`WarledgerApp.player`) types their own row: on a wide screen in
the grid, the cursor on their row; on a narrow one in a SeatForm, a field per line. What they
type is their part, kept through the ledger as they type (storage/parts.py, in a thread of
its own, the newest only, as drafts are) and shown live on every screen of the table. Enter
marks it ready, once the rules take it alone (an upkeep they cannot pay is refused at once).
The part that makes every seat's ready records the step, once: the parts' rows in one step,
recorded with the head expected, so two terminals completing it at once record it once.

Anyone may still type the whole grid (one typist): a seated player who types another row,
or a terminal seating no one, records the grid as before, the parts shown in it; a part not
ready then is named by the step ("missing"), and the history says so.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import SystemCommand

from i18n import _
from rules.errors import RuleError
from rules.fields import person
from tui.plumbing.drafts import DraftKeeper
from tui.text.formatting import step_name
from tui.text.literal import show_in, words
from tui.widgets.seat_form import SeatForm
from tui.widgets.step_form import BySeatForm, StepForm

if TYPE_CHECKING:
    from storage.ledger import Ledger
    from storage.parts import Part
    from storage.records import LoadedGame
    from tui.screens.base import WarledgerScreen

    # For the type checker only: the screen this is mixed into (GameScreen is one).
    GameScreenBase = WarledgerScreen[None]
else:
    GameScreenBase = object

NARROW_BELOW = 76  # columns: under this a seated player's part is a form of a field per line


class PartKeeper(DraftKeeper):
    """A seat's part on its way to the ledger: the newest only, one write at a time, in the
    order typed (a key after Enter makes the part not ready again, never the other way
    round). A part marked ready carries `then`, run in the writer thread with the parts as
    they stand after it."""

    def save(self, ledger: Ledger, session_id: int, draft: dict[str, Any]) -> None:
        from storage.parts import save_part

        parts = save_part(ledger, session_id, draft["seq"], draft["phase"], draft["player"],
                          draft["values"], draft["ready"])
        then = draft.get("then")
        if then is not None:
            then(ledger, parts)


class Seats(GameScreenBase):
    """The seat's side of a game screen (mixed into tui.screens.game.GameScreen)."""

    if TYPE_CHECKING:  # what it asks of the game screen (tui.screens.game.GameScreen)
        game: LoadedGame
        _form_key: tuple[Any, ...] | None

        @property
        def form(self) -> StepForm | None: ...

        @property
        def keys(self) -> dict[str, str]: ...

        def show(self, game: Any) -> None: ...

        def say(self, text: str, kind: str = "error") -> None: ...

        def record(self, step: dict[str, Any] | str, done: str = "",
                   then: Callable[[], Any] | None = None) -> None: ...

        def form_key(self) -> tuple[Any, ...]: ...

        def step_at(self, state: Any) -> tuple[Any, ...]: ...

        def step_by_itself(self, state: Any) -> dict[str, Any] | None: ...

    _parts: dict[str, Part] | None = None
    _parts_at: tuple[int, str] | None = None  # (seq, phase) the parts shown belong to
    # The last part sent: its cells, whether ready, and the game's sequence and step then.
    _part_sent: dict[str, Any] | None = None
    _part_keeper: PartKeeper | None = None
    _send_again: bool | None = None  # the seat's part to send again (ready or not)
    _own_part_at: tuple[int, str] | None = None  # the step whose own part the form took up

    # ------------------------------------------------------------ what the game gives

    def by_seat_form(self) -> BySeatForm | None:
        """The form of the current step when its rows are the seats (each player's numbers
        their own), else None: steps of the table stay as they are."""
        return None

    # ------------------------------------------------------------ the seat

    def seat_row(self) -> str | None:
        """The row of the player this terminal seats, in the current by-seat step."""
        form, player = self.by_seat_form(), self.app.player
        if form is None or not player:
            return None
        return next((row for row, name in form.seat_players(self.game.state).items()
                     if person(name) == person(player)), None)

    def seats_someone(self) -> bool:
        """Whether this terminal seats a player of the game (whatever the step)."""
        player = self.app.player
        if not player:
            return False
        return any(person(s.name) == person(player) for s in self.game.seats)

    def seat_layout(self) -> str:
        """How this terminal enters the current step: 'part' (a seat's form, narrow),
        'row' (the grid, the cursor on the seat's row), '' (the grid, as anyone)."""
        if self.seat_row() is None:
            return ""
        return "part" if self.app.size.width < NARROW_BELOW else "row"

    def build_seat_form(self) -> StepForm | None:
        """The seat's form, when this terminal enters its own part field by field."""
        if self.seat_layout() != "part":
            return None
        form, row = self.by_seat_form(), self.seat_row()
        assert form is not None and row is not None  # the seat's row found in the form
        label = dict(form.seat_rows(self.game.state))[row]
        return SeatForm(self.game.state, self.keys, form, row, label)

    def on_resize(self, event) -> None:
        # Textual runs SizedScreen's on_resize too (each class's handler in the MRO).
        if self.is_mounted and self._form_key is not None and self.form_key() != self._form_key:
            self.show(self.game)  # the seat's layout changed: the form built anew

    def seat_opened(self) -> None:
        """The form of a by-seat step is ready: on a wide screen the cursor goes to the
        seat's row (unless a draft put it somewhere)."""
        form, row = self.form, self.seat_row()
        self.set_class(self.seat_layout() == "part", "-seat-part")
        self.send_again()
        if form is None or row is None or isinstance(form, SeatForm) or form.grid is None:
            return
        if not form.grid.typed:
            form.grid.put_cursor(row, form.grid.grid_columns[0].key)

    # ------------------------------------------------------------ the parts

    def parts_now(self) -> dict[str, Part]:
        """The parts of the step shown, as last seen (by player)."""
        at = (self.game.seq, self.game.state.phase)
        return (self._parts or {}) if self._parts_at == at else {}

    def parts_watched(self) -> tuple[str | None, dict | None]:
        """What the look for other terminals asks about parts: the phase of a by-seat step
        (None: no parts to watch) and the parts shown."""
        if self.by_seat_form() is None:
            return None, None
        at = (self.game.seq, self.game.state.phase)
        return self.game.state.phase, (self._parts if self._parts_at == at else None)

    def parts_arrived(self, parts: dict[str, Part], seq: int, phase: str) -> None:
        """Parts as they stand (another terminal typed, or marked theirs ready)."""
        if (seq, phase) != (self.game.seq, self.game.state.phase) or not self.is_mounted:
            return
        self._parts, self._parts_at = parts, (seq, phase)
        form, cls = self.form, self.by_seat_form()
        if form is not None and cls is not None:
            players = cls.seat_players(self.game.state)
            mine = self.seat_row()
            form.show_parts({row: parts[name].values for row, name in players.items()
                             if name in parts and row != mine})
            # This seat's own part, typed on another terminal or before the game was left,
            # comes back into the form once, unless something is typed here already: a
            # draft is its player's, wherever they typed it.
            own = parts.get(players.get(mine, "")) if mine is not None else None
            if own is not None and self._own_part_at != (seq, phase) and not self.form_typed():
                form.restore({"values": {mine: own.values}})
            if mine is not None:
                self._own_part_at = (seq, phase)
        self.show_table()

    def show_table(self) -> None:
        """Who has entered their part, who is ready, who not yet: beside the form."""
        cls = self.by_seat_form()
        line = self.table_line() if cls is not None else Text("")
        seats = self.query_one("#seats")
        show_in(seats, line)
        # A terminal seating no one hears of parts once there are some: one typist as before.
        seats.display = (cls is not None and not isinstance(self.form, SeatForm)
                         and bool(self.parts_now() or self.seat_row() is not None))
        form = self.form
        if isinstance(form, SeatForm):
            form.tell(self.own_line(form), line)

    def table_line(self) -> Text:
        cls = self.by_seat_form()
        assert cls is not None  # asked of a by-seat step only (show_table)
        parts = self.parts_now()
        ready: list[str] = []
        typing: list[str] = []
        waiting: list[str] = []
        for name in cls.seat_players(self.game.state).values():
            part = parts.get(name)
            (waiting if part is None else ready if part.ready else typing).append(name)
        said: list[Any] = []
        for heading, names, style in ((_("Ready"), ready, "bold"), (_("Typing"), typing, ""),
                                      (_("Not yet"), waiting, "dim")):
            if names:
                if said:
                    said.append(" · ")
                said += [f"{heading}: ", (", ".join(names), style)]
        return words(*said)

    def own_line(self, form: SeatForm) -> Text:
        """The seat's totals and what its part changes (the game's words)."""
        after, _problem = self.seat_preview(form)
        return self.seat_totals(form.row, after, form.cells())

    def seat_preview(self, form: SeatForm) -> tuple[Any | None, str]:
        """The game after the seat's part alone (None where the rules need every part to
        say), and what is wrong with the part, in the players' words ("" if nothing)."""
        cls, state, rules = form.form, self.game.state, self.game.rules
        cells = form.cells()
        try:
            cls.check_part(rules, state, form.row, cells)
        except RuleError as e:
            return None, str(e)
        try:
            return rules.apply(state, rules.read_step(cls.step_from(state, {form.row: cells}))), ""
        except RuleError:
            return None, ""

    def seat_totals(self, row: str, after: Any | None, cells: dict[str, Any]) -> Text:
        """One seat's totals now, and after its part (`after`: the game after the part
        alone, None where the rules cannot say; `cells`: the part as typed)."""
        return Text("")

    def typed_part(self) -> dict[str, Any] | None:
        """The seat's row as this terminal holds it, when what was typed here is only the
        seat's own row (else the terminal is one typist for the whole grid: None)."""
        form, row = self.form, self.seat_row()
        if form is None or row is None:
            return None
        if isinstance(form, SeatForm):
            return form.cells() if form.grid is not None else None
        grid = form.grid
        if grid is None or {r for r, _c in grid.typed} - {row}:
            return None
        return {c: (list(v) if isinstance(v, list) else v) for c, v in grid.values[row].items()}

    def part_changed(self) -> None:
        """The form changed: the seat's part goes to the table (not ready: a change after
        Enter makes it not ready again)."""
        cells = self.typed_part()
        sent = self._part_sent
        if cells is None or (sent is not None and sent["values"] == cells
                             and sent["seq"] == self.game.seq):
            return  # nothing changed (a cell typed over with its own value: still ready)
        if self._part_sent is None and self.form is not None and not self.form_typed():
            return  # a form just opened: nothing of the seat's typed yet
        self.send_part(cells, ready=False)

    def form_typed(self) -> bool:
        form = self.form
        return bool(form is not None and form.grid is not None and form.grid.typed)

    def confirm_part(self, *, quiet: bool = False) -> bool:
        """Enter on a seated terminal: the part is checked alone and marked ready (True), or
        this is not a seat's part (False: the step is recorded as one typist's)."""
        cls, cells = self.by_seat_form(), self.typed_part()
        if cls is None or cells is None:
            return False
        state, row = self.game.state, self.seat_row()
        assert row is not None  # typed_part found the seat's row
        try:  # the rules' own checks, on this part alone
            cls.check_part(self.game.rules, state, row, cells)
        except RuleError as e:
            self.say(str(e), "error")
            return True
        self.send_part(cells, ready=True)
        if quiet:
            return True
        self.say(_("Your part is ready: the {step} is recorded once every player's part is "
                   "(a key changes yours again).").format(step=step_name(
                       self.game.game, cls.step_from(state, {})["kind"])), "ok")
        return True

    def send_part(self, cells: dict[str, Any], *, ready: bool) -> None:
        game, player, cls = self.game, self.app.player, self.by_seat_form()
        self._part_sent = {"values": cells, "ready": ready, "seq": game.seq,
                           "step": self.step_at(game.state)}
        draft = {"seq": game.seq, "phase": game.state.phase, "player": player,
                 "values": cells, "ready": ready}
        if ready:
            assert cls is not None  # a part is marked ready in a by-seat step (confirm_part)
            draft["then"] = self.completing(game, cls)
        if self._part_keeper is None:
            app = self.app
            self._part_keeper = PartKeeper(lambda: app.ledger)
        self._part_keeper.note(game.id, draft)

    def completing(self, game: LoadedGame, cls: BySeatForm) -> Callable[[Ledger, Any], None]:
        """What the writer thread does once a ready part is written: if every seat's part is
        ready, record the step made of them (once: the head expected), then tell the
        screen."""
        from storage.ledger import StaleGame
        from storage.parts import all_ready

        state, author, app = game.state, self.app.player, self.app
        players = cls.seat_players(state)

        def then(ledger: Ledger, parts: dict[str, Part] | None) -> None:
            after, problem, followed = None, "", []
            if parts is not None and all_ready(parts, list(players.values())):
                rows = {row: parts[name].values for row, name in players.items()}
                try:
                    after = ledger.record(game.id, cls.step_from(state, rows),
                                          expected_seq=game.seq, author=author)
                    while (step := self.step_by_itself(after.state)) is not None:
                        after = ledger.record(game.id, step, expected_seq=after.seq,
                                              author=author)
                        followed.append(step["kind"])
                except StaleGame as e:  # recorded by another terminal meanwhile
                    after = e.game
                except RuleError as e:  # the checks across players, at recording
                    problem = str(e)
            # The app may be gone: the step (if any) is recorded all the same.
            with contextlib.suppress(RuntimeError):
                app.call_from_thread(self.part_answer, game.seq, game.state.phase, parts,
                                     after, problem)

        return then

    def part_answer(self, seq: int, phase: str, parts: dict[str, Part] | None, after: Any,
                    problem: str) -> None:
        if not self.is_mounted:
            return
        if after is not None and after.seq != self.game.seq:
            self.show(after)
            self.say(_("Every part was ready: recorded."), "ok")
            return
        if parts is not None:
            self.parts_arrived(parts, seq, phase)
        if problem:
            self.say(problem, "error")

    def missing_rows(self) -> list[str]:
        """The rows of a by-seat step recorded as the grid stands whose players had not
        marked their part ready (and which were not typed here); none when nobody entered
        a part (one typist, as before parts)."""
        cls, parts = self.by_seat_form(), self.parts_now()
        form = self.form
        if cls is None or not parts or form is None:
            return []
        typed = {r for r, _c in form.grid.typed} if form.grid is not None else set()
        mine = self.seat_row()
        return [row for row, name in cls.seat_players(self.game.state).items()
                if not (name in parts and parts[name].ready) and row not in typed
                and row != mine]

    def step_with_parts(self) -> dict[str, Any] | None:
        """The step as this terminal would record it now, with the other seats' parts: the
        grid (parts shown in it), or the seat's form over the parts; `missing` names the
        seats whose part is not ready."""
        form, cls = self.form, self.by_seat_form()
        if form is None or cls is None:
            return None
        step: dict[str, Any] | None
        if isinstance(form, SeatForm):
            players = cls.seat_players(self.game.state)
            parts = self.parts_now()
            rows = {row: parts[name].values for row, name in players.items() if name in parts}
            rows[form.row] = form.cells()
            step = cls.step_from(self.game.state, rows)
        else:
            step = form.pending_step()
        missing = self.missing_rows()
        if step is not None and missing:
            step["missing"] = missing
        return step

    def action_record_without_parts(self) -> None:
        """Record the step now, the parts not ready named as missing (the host's way on)."""
        step = self.step_with_parts()
        if step is not None:
            self.record(step, _("Recorded: {step}.").format(step=step_name(self.game.game, step["kind"])))

    def seat_commands(self):
        if self.by_seat_form() is not None:
            yield SystemCommand(_("Record without missing parts"),
                                _("Record the step now; the players whose part is not ready "
                                  "are named in the history"), self.action_record_without_parts)

    def close_parts(self) -> None:
        if self._part_keeper is not None:
            self._part_keeper.close()

    def note_sent(self) -> None:
        """The game moved (a step recorded, here or elsewhere): a part belongs to the game's
        head, so the seat's part of the same step (a taxation recorded during the upkeep) is
        sent again, ready again if it was and the rules still take it; a new step starts
        with nothing sent."""
        sent = self._part_sent
        if sent is None or sent["seq"] == self.game.seq:
            return
        if sent["step"] != self.step_at(self.game.state) or self.game.state.finished:
            self._part_sent = None
            return
        self._send_again = sent["ready"]  # once the form built anew holds the typing

    def send_again(self) -> None:
        ready, self._send_again = self._send_again, None
        cells = self.typed_part()
        if ready is None or cells is None:
            return
        if ready:
            self.confirm_part(quiet=True)
        else:
            self.send_part(cells, ready=False)
