"""The entry forms of Struggle of Empires, one per end-of-war step (on StepForm, in
step_form.py: typed values in, the step's JSON out, nothing of the rules computed here)."""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.strip import Strip
from textual.widgets import SelectionList, Static
from textual.widgets.option_list import OptionDoesNotExist

from i18n import N_, _, ngettext, pgettext
from rules.soe import (
    MAX_POPULATION,
    MAX_REGION_MARKERS,
    POPULATION_GROWTH,
    POWERS,
    REGIONS,
    SoeState,
    non_players_matter,
)
from rules.soe.state import Grid
from tui.games.soe.labels import region_rows, seat_rows
from tui.widgets.number_grid import TOGGLE_KEY, Column, NumberGrid
from tui.widgets.step_form import StepForm


def power_columns(state: SoeState, *, non_players: bool = True) -> list[Column]:
    """Players' powers first, then (unless folded away) the non-player powers, dimmed.
    A marker count is one digit: the cursor moves on by itself. A cell takes what the
    rules take (MAX_REGION_MARKERS): more is refused by the grid, the cell kept."""
    played = list(state.powers)
    most = MAX_REGION_MARKERS
    columns = [Column(p, short(p), quick=True, most=most) for p in played]
    if non_players:
        columns += [Column(p, f"{short(p)}°", dim=True, quick=True, most=most)
                    for p in POWERS if p not in played]
    return columns


def shows_non_players(state: SoeState, values: Grid | None, asked: bool) -> bool:
    """Non-player powers get columns where they matter: at the player counts where the
    rules say so (unfriendly ties), when asked for, or when they hold markers already."""
    if asked or non_players_matter(len(state.seats)):
        return True
    return any(n for row in (values or {}).values() if isinstance(row, dict)
               for p, n in row.items() if p in POWERS and p not in state.powers)


def full_grid(grid: Grid | None) -> dict[str, dict[str, int]]:
    """Every region and power of `grid` (0 where it has none): a grid's worth of values."""
    return {r: {p: int((grid or {}).get(r, {}).get(p, 0)) for p in POWERS} for r in REGIONS}


def short(power: str) -> str:
    """Three letters, so all seven powers fit beside the totals (a capital typed in the
    grid jumps to the column whose heading starts with it)."""
    # TRANSLATORS: the major powers in three letters or fewer: the grids' column headings.
    return {"Austria": pgettext("power, in three letters", "Aus"),
            "Britain": pgettext("power, in three letters", "Bri"),
            "France": pgettext("power, in three letters", "Fra"),
            "Prussia": pgettext("power, in three letters", "Pru"),
            "Russia": pgettext("power, in three letters", "Rus"),
            "Spain": pgettext("power, in three letters", "Spa"),
            "United Provinces": pgettext("power, in three letters", "UP")}[power]


def grid_step(grid: NumberGrid) -> dict[str, dict[str, int]]:
    """Region grid JSON: only the markers that are there."""
    out: dict[str, dict[str, int]] = {}
    for region in grid.row_keys:
        row = {p: int(n) for p, n in grid.values[region].items() if n}
        if row:
            out[region] = row
    return out


class IncomeForm(StepForm):
    """Control markers: the region grid, or one total per player. Markers stay on the map
    from war to war, so the grid starts from the last one entered."""

    def __init__(self, state: SoeState, keys: dict[str, str] | None = None, *,
                 mode: str = "grid", non_players: bool = False) -> None:
        super().__init__(state, keys)
        self.mode = mode
        self.non_players = non_players

    def compose(self) -> ComposeResult:
        state = self.state
        if self.mode == "grid":
            values = full_grid(state.markers_map)
            yield NumberGrid(region_rows(REGIONS), power_columns(
                state, non_players=shows_non_players(state, values, self.non_players)),
                values=values, id="grid")
        else:
            values = {p: {"markers": n} for p, n in (state.markers or {}).items()}
            yield NumberGrid(seat_rows(state), [Column("markers", _("Control markers"))],
                             values=values, id="grid")

    def pending_step(self) -> dict[str, Any]:
        grid = self.grid
        assert grid is not None  # composed with its grid, in either mode
        if self.mode == "grid":
            return {"kind": "income", "regions": grid_step(grid)}
        return {"kind": "income",
                "markers": {p: int(grid.values[p]["markers"]) for p in grid.row_keys}}

    def draft(self) -> dict[str, Any]:
        return {"mode": self.mode, **super().draft()}

    @classmethod
    def draft_of(cls, step: dict[str, Any]) -> dict[str, Any]:
        if "regions" in step:
            return {"mode": "grid", "values": full_grid(step["regions"])}
        return {"mode": "totals",
                "values": {p: {"markers": n} for p, n in step.get("markers", {}).items()}}


class BySeat:
    """A form whose rows are the seats, keyed by power: each row its player's own part,
    typed on their own terminal (tui/screens/seats.py)."""

    by_seat = True
    seat_rows = staticmethod(seat_rows)

    @staticmethod
    def seat_players(state: SoeState) -> dict[str, str]:
        """Each row's player: power -> name."""
        return {s.power: s.name for s in state.seats}


class MarkerTotalsForm(BySeat, IncomeForm):
    """Income as one total of control markers per player, each a seat's own."""

    def __init__(self, state: SoeState, keys: dict[str, str] | None = None, **_ignored) -> None:
        super().__init__(state, keys, mode="totals")

    @staticmethod
    def columns() -> list[Column]:
        return [Column("markers", _("Control markers"))]

    @staticmethod
    def base_rows(state: SoeState) -> dict[str, dict[str, Any]]:
        """Each power's total as at the last income (markers stay on the map)."""
        return {p: {"markers": int((state.markers or {}).get(p, 0))} for p in state.powers}

    @classmethod
    def step_from(cls, state: SoeState, rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
        base = cls.base_rows(state)
        return {"kind": "income", "markers": {
            p: int({**base.get(p, {}), **cells}.get("markers", 0)) for p, cells in rows.items()}}


UNITS = ("armies", "fleets", "fortresses")


class UpkeepForm(BySeat, StepForm):
    """Units on the map per player (as at the last upkeep: units stay on the map), and the
    unrest token of each taxation; each row a seat's own."""

    @staticmethod
    def columns() -> list[Column]:
        # TRANSLATORS: the upkeep grid's headings; the hint names the last one in quotes.
        return [Column("armies", _("Armies"), quick=True),
                Column("fleets", _("Fleets"), quick=True),
                Column("fortresses", _("Forts"), quick=True),
                Column("tokens", _("Tax tokens drawn"), tokens=True)]

    @staticmethod
    def base_rows(state: SoeState) -> dict[str, dict[str, Any]]:
        """Each power's row before anyone types: its units as at the last upkeep."""
        units = state.units or {}
        return {p: {**{k: getattr(units[p], k) if p in units else 0 for k in UNITS},
                    "tokens": []} for p in state.powers}

    @classmethod
    def step_from(cls, state: SoeState, rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """The step of `rows` (power -> cells), each row over its base; only those rows."""
        base = cls.base_rows(state)
        units, taxes = {}, {}
        for power, cells in rows.items():
            row = {**base.get(power, {}), **cells}
            units[power] = {k: int(row.get(k, 0)) for k in UNITS}
            if row.get("tokens"):
                taxes[power] = list(row["tokens"])
        return {"kind": "upkeep", "units": units, "taxes": taxes}

    def compose(self) -> ComposeResult:
        yield NumberGrid(seat_rows(self.state), self.columns(),
                         values=self.base_rows(self.state), id="grid")

    def pending_step(self) -> dict[str, Any]:
        grid = self.grid
        assert grid is not None  # composed with its grid
        return self.step_from(self.state, {p: grid.values[p] for p in grid.row_keys})

    @classmethod
    def draft_of(cls, step: dict[str, Any]) -> dict[str, Any]:
        units, taxes = step.get("units", {}), step.get("taxes", {})
        return {"values": {p: {**{k: u.get(k, 0) for k in UNITS}, "tokens": list(taxes.get(p, []))}
                           for p, u in units.items()}}


class PopulationForm(StepForm):
    """Nothing to type: every population rises by the rules' step (rules.soe.grown)."""

    def compose(self) -> ComposeResult:
        yield Static(_("Every player's population rises by {growth} (never above {most}). "
                       "Check the totals and press Enter.").format(growth=POPULATION_GROWTH,
                                                                    most=MAX_POPULATION),
                     classes="hint")

    def pending_step(self) -> dict[str, Any]:
        return {"kind": "population"}

    def focus_target(self):
        return None


class ScoringForm(StepForm):
    """The region grid, prefilled from income (or the last grid entered): who has most
    control markers where."""

    def __init__(self, state: SoeState, keys: dict[str, str] | None = None, *,
                 non_players: bool = False) -> None:
        super().__init__(state, keys)
        self.non_players = non_players

    def compose(self) -> ComposeResult:
        state = self.state
        values = full_grid(state.grid if state.grid is not None else state.markers_map)
        yield NumberGrid(region_rows(REGIONS), power_columns(
            state, non_players=shows_non_players(state, values, self.non_players)),
            values=values, id="grid")

    def pending_step(self) -> dict[str, Any]:
        grid = self.grid
        assert grid is not None  # composed with its grid
        return {"kind": "scoring", "regions": grid_step(grid)}

    @classmethod
    def draft_of(cls, step: dict[str, Any]) -> dict[str, Any]:
        return {"values": full_grid(step["regions"])} if "regions" in step else {}


class Checklist(SelectionList):
    """SelectionList where Enter confirms the step and x ticks a line and moves to the next
    one, as a table works down a list: `x x x x x x` ticks six lines. x on a ticked line
    unticks it and stays there (a tick taken back: the line is still to do). Space toggles
    the line in place, as a SelectionList does. Each line shows [x] or [ ], so a tick reads
    without colour."""

    BINDINGS = [Binding("enter", "submit", N_("Confirm"), show=False),
                Binding(TOGGLE_KEY, "tick", N_("Tick"), show=False)]

    def action_tick(self) -> None:
        index = self.highlighted
        if index is None:
            return
        value = self.get_option_at_index(index).value
        if value in self.selected:
            self.deselect(value)
            return
        self.select(value)
        if index + 1 < self.option_count:
            self.highlighted = index + 1

    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return line
        segments = list(line)
        if len(segments) < 3:
            return line
        # The button's three cells (left edge, mark, right edge) become [x] or [ ].
        mark = "x" if selection.value in self.selected else " "
        left, inner, right = segments[:3]
        return Strip([Segment("[", left.style), Segment(mark, inner.style),
                      Segment("]", right.style), *segments[3:]])

    class Submitted(Message):
        """Enter was pressed on the checklist."""

    def action_submit(self) -> None:
        self.post_message(self.Submitted())


class EndOfWarForm(StepForm):
    """The end-of-war checklist; confirming it starts the next war."""

    def items(self) -> tuple[str, ...]:
        return self.state.checklist

    def compose(self) -> ComposeResult:
        # The checklist's lines come in the reader's language (SoeState.checklist).
        yield Checklist(*((text, i) for i, text in enumerate(self.items())), id="checklist")
        # TRANSLATORS: {tick} and {tick_all} are keys (x, a).
        yield Static(_("{tick} ticks an item, Enter starts the next war; {tick_all}: all done, "
                       "the next war at once.").format(tick=TOGGLE_KEY,
                                                      tick_all=self.keys["tick_all"]),
                     classes="hint")

    def on_checklist_submitted(self, event: Checklist.Submitted) -> None:
        event.stop()
        self.post_message(self.Confirmed(self))

    def tick_all(self) -> None:
        self.query_one(Checklist).select_all()

    def not_ready(self) -> str:
        left = len(self.items()) - len(self.query_one(Checklist).selected)
        if left:
            # TRANSLATORS: {tick} and {tick_all} are keys (x, a).
            return ngettext("{n} item of the checklist is not ticked yet ({tick} ticks, "
                            "{tick_all}: all done)",
                            "{n} items of the checklist are not ticked yet ({tick} ticks, "
                            "{tick_all}: all done)", left).format(
                n=left, tick=TOGGLE_KEY, tick_all=self.keys["tick_all"])
        return ""

    def pending_step(self) -> dict[str, Any]:
        return {"kind": "end_war"}

    def draft(self) -> dict[str, Any]:
        return {"ticked": list(self.query_one(Checklist).selected)}

    def restore(self, draft: dict[str, Any]) -> None:
        checklist = self.query_one(Checklist)
        for i in draft.get("ticked", []):
            checklist.select(i)

    def focus_target(self):
        return self.query_one(Checklist)


class EndOfGameForm(StepForm):
    """Revolutions, unrest penalties and final VP, shown before they are confirmed."""

    def compose(self) -> ComposeResult:
        yield Static(_("The third war is over: below, each player's unrest, penalty and "
                       "final VP."), classes="hint")

    def pending_step(self) -> dict[str, Any]:
        return {"kind": "end_game"}

    def focus_target(self):
        return None


FORMS = {"actions": IncomeForm, "upkeep": UpkeepForm, "population": PopulationForm,
         "scoring": ScoringForm, "end_war": EndOfWarForm, "end_game": EndOfGameForm}
