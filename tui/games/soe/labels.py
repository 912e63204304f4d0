"""How the grids and lists of Struggle of Empires name their rows and columns: keyed by the
English ids the steps store, labelled in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable

from i18n import pgettext
from rules.soe import SoeState
from rules.soe.regions import shown
from tui.widgets.number_grid import Column


def region_rows(regions: Iterable[str]) -> list[tuple[str, str]]:
    """A grid's rows for `regions`: keyed by the region's id, labelled as the reader names
    it (its letters jump to the row)."""
    return [(r, shown(r)) for r in regions]


def places() -> list[Column]:
    """The columns of a region's printed values: the VP of 1st, 2nd and 3rd place."""
    # TRANSLATORS: headings of the columns of a region's printed values (1st place...).
    return [Column("1", pgettext("place", "1st")), Column("2", pgettext("place", "2nd")),
            Column("3", pgettext("place", "3rd"))]


def seat_rows(state: SoeState) -> list[tuple[str, str]]:
    """A grid's rows for the players: keyed by their power's id, labelled 'Ana (France)'."""
    return [(s.power, f"{s.name} ({shown(s.power)})") for s in state.seats]
