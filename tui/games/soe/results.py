"""Struggle of Empires on the results screen: the columns of its standings, who fell into
revolution, VP after each war, and where each power's VP came from, region by region."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.widget import Widget
from textual.widgets import DataTable, Static

from i18n import N_, _, pgettext
from rules.soe.ending import REVOLUTION_AT
from rules.soe.progress import vp_by_region
from rules.soe.regions import shown
from tui.games.soe.forms import short
from tui.screens.base import GRID_WIDTH
from tui.screens.results import Chart, ResultsScreen, ResultWords
from tui.text.literal import filled, literal, words
from tui.widgets.measured_table import MeasuredTable


class SoeResultWords(ResultWords):
    # Short, so that at 80 columns a name of 24 characters fits whole (in every language:
    # the translations may be cut short, "pop."). Message ids: the results screen shows
    # them through _().
    headings = {"power": N_("power"), "gold": N_("gold"), "population": N_("pop."),
                "unrest": N_("unrest"), "vp": N_("VP"), "penalty": N_("penalty"),
                "final_vp": N_("final\nVP")}
    word_columns = ("power",)
    spare_columns = ("power", "gold", "population")  # the player's name tells the row
    hidden_columns = ("revolution",)
    help = N_("Tab goes to the VP by region, and its arrows scroll it.")

    def value(self, column: str, value) -> str:
        """A power by its name in the reader's language (the report keeps its id)."""
        if column == "power" and isinstance(value, str):
            value = shown(value)
        return super().value(column, value)

    def explanation(self, game) -> Text | str:
        """Who fell into revolution."""
        fallen = [s for s in game.report().standings if s.details["revolution"]]
        if not fallen:
            return ""
        names = words(*(part for i, s in enumerate(fallen)
                        for part in ((", " if i else ""), (s.player, "bold"),
                                     f" ({shown(s.details['power'])})")))
        # TRANSLATORS: {at}: the unrest from which a power is in revolution (20); {players}:
        # "Ana (France), Bo (Britain)".
        return filled(_("In revolution (unrest {at} or more), final VP 0: {players}"),
                      at=REVOLUTION_AT, players=names)

    def chart(self, game):
        """Each player's VP after each war's scoring, then their final VP (after the unrest
        penalties and revolutions)."""
        state, report = game.state, game.report()

        def vp_by_war() -> Chart:
            final = {s.player: s.score for s in report.standings}
            # TRANSLATORS: the points along the chart: "war 1", "war 2", ..., "final".
            points = [_("war {war}").format(war=war)
                      for war in range(1, len(state.vp_by_war) + 1)] + [_("final")]
            return (_("VP after each war, and final VP"), points,
                    {seat.name: [vp[seat.power] for vp in state.vp_by_war] + [final[seat.name]]
                     for seat in state.seats})

        return vp_by_war

    def more(self, game) -> Iterable[Widget]:
        yield Static("", classes="title", id="regions-title")
        yield MeasuredTable(id="regions", cursor_type="row", zebra_stripes=True)

    def shown(self, screen: ResultsScreen) -> None:
        # Each war's scoring is read back from the timeline, off the event loop.
        timeline = screen.game.timeline
        screen.call_ledger(lambda _ledger: vp_by_region(timeline),
                           lambda by_region: show_regions(screen, by_region))


def show_regions(screen: ResultsScreen, by_region: dict[str, dict[str, int]]) -> None:
    """Where each power's VP came from: a row per region, the wars added up, and their
    total (the VP before the unrest penalties). Its own keys scroll it (Tab to it)."""
    if not by_region:
        return
    state = screen.game.state
    powers = [seat.power for seat in state.seats]
    wars = len(state.vp_by_war)
    screen.query_one("#regions-title", Static).update(
        _("VP by region, wars 1 to {wars} added up").format(wars=wars) if wars > 1
        else _("VP by region"))
    table = screen.query_one("#regions", DataTable)
    table.clear(columns=True)
    table.fixed_columns = 1  # the region stays in sight while the powers scroll
    # TRANSLATORS: the heading of the column of regions (lower case, as the table has it).
    table.add_column(literal(pgettext("column", "region")), key="region")
    # Under 76 columns (a phone) a power's three letters, as in the grids: four powers fit
    # beside the regions at 40 columns.
    pocket = screen.app.size.width < GRID_WIDTH
    screen.regions_in_pocket = pocket
    for power in powers:
        table.add_column(literal(short(power) if pocket else shown(power), justify="right"),
                         key=power)
    total = {p: sum(row.get(p, 0) for row in by_region.values()) for p in powers}
    for region, vp, said in [*((r, vp, shown(r)) for r, vp in by_region.items()),
                             ("Total", total, _("Total"))]:
        table.add_row(literal(said), *(literal(vp.get(p) or "·", justify="right")
                                       for p in powers), key=region)


RESULT_WORDS = SoeResultWords()
