"""The entry forms of Risk: closing a round (by player or by territory) and settling a tie.

Each is a StepForm (step_form.py): it turns what was typed into the step's session-file
JSON and can save and restore it; the rules check it, not the form.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from i18n import N_, _, ngettext, pgettext
from rules.errors import RuleError
from rules.risk import (
    CONTINENTS,
    MAX_ARMIES,
    TERRITORY_COUNT,
    RiskState,
    positions_from_owners,
)
from rules.risk.board import shown
from rules.risk.positions import check_position, read_position
from tui.text.literal import literal
from tui.widgets.number_grid import Column, NumberGrid
from tui.widgets.step_form import StepForm
from tui.widgets.themed import part_style


def short(continent: str) -> str:
    """A continent in a few letters: a grid's column heading, a list of continents held."""
    # TRANSLATORS: the continents in four letters or fewer (column headings).
    return {"North America": pgettext("continent in 4 letters", "N.Am"),
            "South America": pgettext("continent in 4 letters", "S.Am"),
            "Europe": pgettext("continent in 4 letters", "Eur"),
            "Africa": pgettext("continent in 4 letters", "Afr"),
            "Asia": pgettext("continent in 4 letters", "Asia"),
            "Australia": pgettext("continent in 4 letters", "Aus")}[continent]


def position_columns() -> list[Column]:
    """Territories, armies, then one 'holds it' column per continent (1 or x marks it)."""
    return ([Column("territories", _("Terr."), most=TERRITORY_COUNT),
             Column("armies", _("Armies"), most=MAX_ARMIES)]
            + [Column(c, short(c), quick=True, toggle=True) for c in CONTINENTS])


class PositionGrid(NumberGrid):
    """A player-by-number grid whose continent columns are yes/no cells (1/0, or x)."""

    COMPONENT_CLASSES = {"position-grid--held"}  # a continent held (app.tcss colours it)

    def _cell_text(self, row: str, column: Column) -> Text:
        if column.key in CONTINENTS:
            held = bool(self.values[row][column.key])
            return Text("✓" if held else "·", justify="center", style=part_style(
                self, "position-grid--held" if held else "number-grid--empty"))
        return super()._cell_text(row, column)


def player_rows(state: RiskState) -> list[tuple[str, str]]:
    """The players still in the game, as grid rows: name (colour)."""
    return [(name, f"{name} ({shown(state.seat(name).color)})") for name in state.in_game]


def grid_positions(grid: NumberGrid) -> dict[str, dict[str, Any]] | None:
    """The positions typed in a PositionGrid, or None when nothing was typed."""
    if not any(v for row in grid.values.values() for v in row.values()):
        return None
    return {name: {"territories": int(row["territories"]), "armies": int(row["armies"]),
                   "continents": [c for c in CONTINENTS if row[c]]}
            for name, row in ((n, grid.values[n]) for n in grid.row_keys)}


def position_values(positions: dict[str, dict[str, Any]]) -> dict[str, dict[str, object]]:
    """Positions (as a round step writes them) as the values of a PositionGrid."""
    return {name: {"territories": p.get("territories", 0), "armies": p.get("armies", 0),
                   **{c: int(c in p.get("continents", ())) for c in CONTINENTS}}
            for name, p in positions.items()}


class RoundForm(StepForm):
    """Close a round: each player's territories, armies and the continents they hold. The
    grid starts from the latest position: players type what changed."""

    mode = "players"

    def __init__(self, state: RiskState, keys: dict[str, str] | None = None, *,
                 values: dict[str, dict[str, object]] | None = None) -> None:
        super().__init__(state, keys)
        self.values = values

    def compose(self) -> ComposeResult:
        values = self.values
        if values is None:
            values = position_values({name: pos.to_json()
                                      for name, pos in self.state.positions.items()})
        yield PositionGrid(player_rows(self.state), position_columns(), values=values,
                           id="grid")

    def pending_step(self) -> dict[str, Any] | None:
        if self.grid is None:  # not composed yet
            return None
        positions = grid_positions(self.grid)
        return {"kind": "round"} if positions is None else {"kind": "round",
                                                            "positions": positions}

    def draft(self) -> dict[str, Any]:
        return {"mode": self.mode, **super().draft()}

    @classmethod
    def draft_of(cls, step: dict[str, Any]) -> dict[str, Any]:
        return {"mode": cls.mode, "values": position_values(step.get("positions") or {})}

    # Each row is a player's own position: a seated player types theirs (tui/screens/seats.py).
    by_seat = True

    @staticmethod
    def columns() -> list[Column]:
        return position_columns()

    @staticmethod
    def seat_rows(state: RiskState) -> list[tuple[str, str]]:
        return player_rows(state)

    @staticmethod
    def seat_players(state: RiskState) -> dict[str, str]:
        """Each row's player: the players still in the game, by name."""
        return {name: name for name in state.in_game}

    @staticmethod
    def base_rows(state: RiskState) -> dict[str, dict[str, Any]]:
        """Each player's row before anyone types: their latest position (nothing yet: 0)."""
        latest = position_values({n: p.to_json() for n, p in state.positions.items()})
        empty = {"territories": 0, "armies": 0, **dict.fromkeys(CONTINENTS, 0)}
        return {name: latest.get(name, empty) for name in state.in_game}

    @classmethod
    def step_from(cls, state: RiskState, rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """The round of `rows` (player -> cells), each row over its base; only those rows."""
        base = cls.base_rows(state)
        positions = {}
        for name, cells in rows.items():
            row = {**base.get(name, {}), **cells}
            positions[name] = {"territories": int(row["territories"]),
                               "armies": int(row["armies"]),
                               "continents": [c for c in CONTINENTS if row.get(c)]}
        return {"kind": "round", "positions": positions}

    @classmethod
    def check_part(cls, rules: Any, state: RiskState, row: str, cells: dict[str, Any]) -> None:
        # A round needs every position at once: a part is checked as a position alone.
        position = cls.step_from(state, {row: cells})["positions"][row]
        check_position(row, read_position(position, row))


class TerritoryForm(StepForm):
    """Close a round territory by territory: the owner's seat number and the armies there."""

    mode = "territories"

    def compose(self) -> ComposeResult:
        seats = "  ".join(f"{i} {s.name} ({shown(s.color)})"
                          for i, s in enumerate(self.state.seats, 1)
                          if s.name in self.state.in_game)
        yield Static(literal(_("Seat numbers: {seats}").format(seats=seats)), classes="hint",
                     id="seat-numbers")
        rows = []
        # The continents' names in a column of their own, a space after the longest.
        width = max(len(shown(continent)) for continent in CONTINENTS) + 1
        for continent, (names, _bonus) in CONTINENTS.items():
            for i, territory in enumerate(names):
                # The continent's name on its first row groups the territories under it.
                group = shown(continent) if i == 0 else ""
                rows.append((territory, f"{group:<{width}}{shown(territory)}"))
        # TRANSLATORS: a column heading, kept short: the seat number of a territory's owner.
        yield NumberGrid(rows, [Column("owner", _("Owner"), quick=True,
                                       most=len(self.state.seats)),
                                Column("armies", _("Armies"), most=MAX_ARMIES)],
                         id="grid")
        yield Static("", classes="hint", id="derived")

    def on_number_grid_changed(self, event: NumberGrid.Changed) -> None:
        self.query_one("#derived", Static).update(literal(self.describe()))

    def owners(self) -> dict[str, int] | None:
        """The seat number typed for each territory (0: nobody yet); None when nothing is
        typed or the grid is not composed yet."""
        grid = self.grid
        if grid is None:
            return None
        owners = {t: int(grid.values[t]["owner"]) for t in grid.row_keys}
        return owners if any(owners.values()) else None

    def counted(self, *, so_far: bool) -> dict[str, dict[str, Any]]:
        """Positions per player still in the game, as the rules work them out from the grid
        (positions_from_owners), or its RuleError. Call only when owners() is not None."""
        grid, owners = self.grid, self.owners()
        assert grid is not None and owners is not None  # asked only when owners() is not None
        armies = {t: int(grid.values[t]["armies"]) for t in grid.row_keys}
        return {name: pos.to_json() for name, pos in
                positions_from_owners(self.state, owners, armies, so_far=so_far).items()}

    def derived(self) -> dict[str, dict[str, Any]] | None:
        """The positions typed so far (territories with no owner yet left out); None when
        nothing is typed or the rules refuse an owner (not_ready says why)."""
        if self.owners() is None:
            return None
        try:
            return self.counted(so_far=True)
        except RuleError:
            return None

    def describe(self) -> str:
        counts = self.derived()
        if counts is None:
            return ""
        parts = []
        for name, c in counts.items():
            armies = ngettext("{n} army", "{n} armies", c["armies"]).format(n=c["armies"])
            # TRANSLATORS: a player's counts as typed by territory: "Cy 16 terr., 16 armies"
            # ({armies} is "16 armies"); the continents held may follow.
            part = _("{player} {territories} terr., {armies}").format(
                player=name, territories=c["territories"], armies=armies)
            if c["continents"]:
                part += ", " + ", ".join(short(x) for x in c["continents"])
            parts.append(part)
        return " · ".join(parts)

    def not_ready(self) -> str:
        if self.owners() is None:
            return ""
        try:
            self.counted(so_far=False)
        except RuleError as e:
            return str(e)
        return ""

    def pending_step(self) -> dict[str, Any] | None:
        if self.grid is None:  # not composed yet
            return None
        if self.owners() is None:
            return {"kind": "round"}
        positions = self.derived()
        return None if positions is None else {"kind": "round", "positions": positions}

    def draft(self) -> dict[str, Any]:
        return {"mode": self.mode, **super().draft()}


class TiebreakForm(StepForm):
    """Players still tied after the whole chain: the group shares the victory or plays on.
    Each choice names the screen's key for it (`keys`, by binding id)."""

    CHOICES = (("shared", N_("Shared victory")), ("extra_round", N_("One extra round")))

    def compose(self) -> ComposeResult:
        yield OptionList(*(Option(f"{_(label)} ({self.keys[key]})", id=key)
                           for key, label in self.CHOICES), id="tiebreak-choice")

    @property
    def choice(self) -> OptionList:
        return self.query_one(OptionList)

    def pending_step(self) -> dict[str, Any] | None:
        if not self.query(OptionList):  # not composed yet
            return None
        index = self.choice.highlighted or 0
        return {"kind": "tiebreak", "resolution": self.CHOICES[index][0]}

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.post_message(self.Changed(self))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Confirmed(self))

    def draft(self) -> dict[str, Any]:
        return {}

    def restore(self, draft: dict[str, Any]) -> None:
        pass

    def focus_target(self):
        return self.choice
