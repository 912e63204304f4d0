"""The base of every game's entry forms (each game's forms.py in tui/games).

A form turns what was typed into the step's session-file JSON (`pending_step`), and can
save and restore what was typed (`draft`, `restore`). It computes nothing of the rules: the
screen previews the pending step through rules/ and the ledger records it. It tells the
screen what happens by messages (Ready, Changed, Confirmed), never by calling it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, cast

from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget

from tui.widgets.number_grid import NumberGrid

if TYPE_CHECKING:
    from tui.widgets.number_grid import Column


class StepForm(Vertical):
    """A form of one step: a grid (or a list, or nothing) to type into. `keys` names the
    screen's keys the form's words mention, by binding id ({"tick_all": "a"})."""

    DEFAULT_CSS = "StepForm { height: auto; }"

    class FormMessage(Message):
        """A message about one form (its `control`, for `on_step_form_...` handlers)."""

        def __init__(self, form: StepForm) -> None:
            super().__init__()
            self.form = form

        @property
        def control(self) -> StepForm:
            return self.form

    class Ready(FormMessage):
        """The form is mounted: the screen can focus it and put back a draft."""

    class Changed(FormMessage):
        """What the form holds changed: the screen previews the step again."""

    class Confirmed(FormMessage):
        """The players confirmed the form (Enter in its grid or list)."""

    class Moved(FormMessage):
        """The cursor moved: where it is belongs to the draft."""

    def __init__(self, state: Any, keys: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.state = state
        self.keys = dict(keys or {})

    def on_mount(self) -> None:
        self.post_message(self.Ready(self))

    # A grid's news is the form's news: the screen listens to forms, not to their parts.

    def on_number_grid_changed(self, event: NumberGrid.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(self))

    def on_number_grid_submitted(self, event: NumberGrid.Submitted) -> None:
        event.stop()
        self.post_message(self.Confirmed(self))

    def on_number_grid_moved(self, event: NumberGrid.Moved) -> None:
        event.stop()
        self.post_message(self.Moved(self))

    # ------------------------------------------------------------ what the screen asks

    def pending_step(self) -> dict[str, Any] | None:
        """The step's JSON as typed so far (None while the form is not composed yet)."""
        raise NotImplementedError

    def not_ready(self) -> str:
        """Why the step cannot be confirmed yet, in the players' words; "" when it can."""
        return ""

    def draft(self) -> dict[str, Any]:
        """The cells the player typed and where the cursor is: kept if the players leave
        before confirming, and put over a new base when the form is built anew for the same
        step (the cells nobody typed follow the base)."""
        grid = self.grid
        if grid is None:
            return {}
        return {"values": grid.typed_values(), "cursor": list(grid.cursor_at or ())}

    def restore(self, draft: dict[str, Any]) -> None:
        """Put back what `draft` kept (its cells count as typed)."""
        grid = self.grid
        if grid is not None:
            for row, cells in (draft.get("values") or {}).items():
                for col, value in (cells if isinstance(cells, dict) else {}).items():
                    if row in grid.values and col in grid.values[row]:
                        grid.set_value(row, col, value)
            cursor = draft.get("cursor")
            if isinstance(cursor, list) and len(cursor) == 2:
                grid.put_cursor(*map(str, cursor))

    @classmethod
    def draft_of(cls, step: dict[str, Any]) -> dict[str, Any]:
        """The draft that puts an undone step's values back into this form."""
        return {}

    # ------------------------------------------------------------ seats' parts

    # A form whose rows are the seats (upkeep): a seated player's part is their row, typed on
    # their own terminal (tui/screens/seats.py). Such a form gives the class methods below.
    by_seat = False

    @classmethod
    def check_part(cls, rules: Any, state: Any, row: str, cells: dict[str, Any]) -> None:
        """Refuse a seat's part (RuleError, the players' words) by the rules' checks that it
        answers alone: by default the step of that row alone, applied."""
        # Asked only of a by-seat form (by_seat), which gives step_from.
        by_seat = cast("BySeatForm", cls)
        rules.apply(state, rules.read_step(by_seat.step_from(state, {row: cells})))

    def show_parts(self, rows: dict[str, dict[str, Any]]) -> None:
        """Other terminals' parts (row -> cells) in the grid: over the base, never over a
        cell typed here."""
        grid = self.grid
        if grid is None:
            return
        for row, cells in rows.items():
            for col, value in cells.items():
                if (row in grid.values and col in grid.values[row]
                        and (row, col) not in grid.typed and grid.values[row][col] != value):
                    grid.set_value(row, col, value, typed=False)

    @property
    def grid(self) -> NumberGrid | None:
        found = self.query(NumberGrid)
        return found.first() if found else None

    def focus_target(self) -> Widget | None:
        """What takes the focus when the form opens (None: nothing to type)."""
        return self.grid


class BySeatForm(Protocol):
    """A StepForm class whose rows are the seats (`by_seat`: Struggle of Empires' upkeep,
    Risk's round by player): the class methods the seats' side (tui/screens/seats.py) and
    SeatForm ask of it."""

    def columns(self) -> list[Column]: ...

    def seat_rows(self, state: Any) -> list[tuple[str, str]]: ...

    def seat_players(self, state: Any) -> dict[str, str]: ...

    def base_rows(self, state: Any) -> dict[str, dict[str, Any]]: ...

    def step_from(self, state: Any, rows: dict[str, dict[str, Any]]) -> dict[str, Any]: ...

    def check_part(self, rules: Any, state: Any, row: str, cells: dict[str, Any]) -> None: ...
