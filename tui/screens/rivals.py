"""Head to head (from the league): how often each player finished ahead of each other, each
cell with the games the two played together, and each player's nemesis and victim."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from i18n import N_, _
from rules.stats import GroupStats, Meeting
from tui.screens.story import StoryScreen, ahead_of
from tui.text.literal import filled, literal
from tui.widgets.measured_table import MeasuredTable

NAMES_HEADINGS = (N_("Player"), N_("Nemesis"), N_("Victim"))


def ordered_players(stats: GroupStats) -> list[str]:
    """The players who met anyone, the most games first, then by name."""
    met = [p for p, them in stats.head_to_head.items() if them]
    return sorted(met, key=lambda p: (-stats.players[p].games if p in stats.players else 0,
                                      p.casefold(), p))


def cell(meeting: Meeting | None) -> Text:
    """'5/8': ahead 5 times in 8 games together; '·' for two who never met."""
    if meeting is None or not meeting.games:
        return literal("·", justify="center")
    return literal(ahead_of(meeting.ahead, meeting.games), justify="center")


def named(name: str | None, meeting: Meeting | None, ahead: bool) -> Text:
    """'Bo 5/8': a nemesis (who was ahead that often) or a victim; '—' for nobody."""
    if name is None or meeting is None:
        return literal("—")
    times = meeting.ahead if ahead else meeting.behind
    # TRANSLATORS: a nemesis or victim with the head-to-head count: "Bo 5/8".
    return filled(_("{name} {count}"), name=name, count=ahead_of(times, meeting.games))


class HeadToHeadScreen(StoryScreen):
    """Every pair of players who met in the games counted: who finished ahead how often."""

    HELP_TITLE = N_("Head to head")

    def again(self) -> HeadToHeadScreen:
        return HeadToHeadScreen(self.counted)

    def title_line(self) -> Text:
        return filled(_("Head to head: {where}"), where=self.counted.where())

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="rivals"):
            yield Static(_("Row ahead of column: times ahead / games together."),
                         id="rivals-hint", classes="hint")
            yield MeasuredTable(id="head-to-head", show_cursor=False, zebra_stripes=True)
            yield MeasuredTable(id="nemeses", show_cursor=False, zebra_stripes=True)

    def on_mount(self) -> None:
        # (StoryScreen's on_mount runs too: Textual calls each class's handler.)
        for table in self.query(DataTable):
            table.can_focus = False  # the page scrolls as one (its arrows), not each table
        self.query_one("#rivals").focus()

    def load(self, ledger) -> GroupStats:
        return ledger.stats(self.counted.group, self.counted.season)

    def show(self, stats: GroupStats) -> None:
        players = ordered_players(stats)
        matrix = self.query_one("#head-to-head", DataTable)
        matrix.clear(columns=True)
        nemeses = self.query_one("#nemeses", DataTable)
        nemeses.clear(columns=True)
        if not players:
            self.query_one("#rivals-hint", Static).update(filled(
                _("Nobody has played anyone in {where} yet."), where=self.counted.where()))
            matrix.display = nemeses.display = False
            return
        # The columns are numbered as the rows: names would make the table too wide.
        matrix.add_column("#")
        matrix.add_column(_("Player"))
        for n in range(1, len(players) + 1):
            matrix.add_column(str(n))
        for n, player in enumerate(players, 1):
            met = stats.head_to_head.get(player, {})
            matrix.add_row(n, literal(player),
                           *(literal("—", justify="center") if other == player
                             else cell(met.get(other)) for other in players))
        nemeses.add_columns(*(_(heading) for heading in NAMES_HEADINGS))
        for player in players:
            record = stats.players.get(player)
            met = stats.head_to_head.get(player, {})
            nemesis = record.nemesis if record else None
            victim = record.victim if record else None
            nemeses.add_row(literal(player),
                            named(nemesis, met.get(nemesis) if nemesis else None, ahead=False),
                            named(victim, met.get(victim) if victim else None, ahead=True))

    def help_text(self) -> str:
        return _("How often each player finished ahead of each other in every game of the "
                 "league's group and season. A cell says how many times the row's player "
                 "finished ahead of the column's, of the games they played together (the "
                 "columns are numbered as the rows). A nemesis is who finished ahead of a "
                 "player most often, a victim whom they finished ahead of most often, each "
                 "with the same count. The arrows scroll; Escape goes back to the league.")

    def commands(self):
        yield SystemCommand(_("Back to the league"), _("Leave head to head ({key})").format(
            key=self.key_of("back")), self.action_back)
