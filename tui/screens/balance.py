"""Balance (from the league): which sides and seats win, per game, in the game's own words
(Struggle of Empires' powers with their average final VP, Risk's seats and colours), each
figure with the games it rests on so that a small sample shows as small."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from i18n import N_, _
from rules.stats import Balance, GroupStats, Tally
from tui.screens.registry import GameScreens
from tui.screens.registry import games as registered
from tui.screens.story import FEW_GAMES, StoryScreen, percent
from tui.text.formatting import game_name, one_decimal
from tui.text.literal import filled, literal
from tui.widgets.measured_table import MeasuredTable
from tui.widgets.themed import part_style

FIGURES_HEADINGS = (N_("Games"), N_("Wins"), N_("Win rate"))


def sides_in_order(tallies: dict) -> list:
    """The most winning first (win rate, then games), then in their own order."""
    return sorted(tallies, key=lambda k: (-tallies[k].win_rate, -tallies[k].games, k))


class BalanceScreen(StoryScreen):
    """Per game: each side's (and, where the order of play matters, each seat's) games,
    wins, win rate and, where the game has a score, its average."""

    HELP_TITLE = N_("Balance")
    COMPONENT_CLASSES = {"balance--few"}  # a figure on fewer than FEW_GAMES games

    def again(self) -> BalanceScreen:
        return BalanceScreen(self.counted)

    def title_line(self) -> Text:
        return filled(_("Balance: {where}"), where=self.counted.where())

    def compose_body(self) -> ComposeResult:
        yield VerticalScroll(Static(_("Each figure with the games it rests on; dimmed: fewer "
                                      "than {games} games, which say little.").format(
                                          games=FEW_GAMES), id="balance-hint", classes="hint"),
                             id="balance")

    def on_mount(self) -> None:
        # (StoryScreen's on_mount runs too: Textual calls each class's handler.)
        self.query_one("#balance").focus()

    def load(self, ledger) -> GroupStats:
        return ledger.stats(self.counted.group, self.counted.season)

    def show(self, stats: GroupStats) -> None:
        page = self.query_one("#balance", VerticalScroll)
        page.query(".balance-part").remove()
        parts = []
        for entry in registered():
            balance = stats.balance.get(entry.game)
            if balance is not None:
                parts += self.parts_of(entry, balance)
        if not parts:
            parts = [Static(filled(_("No finished games in {where} yet."),
                                   where=self.counted.where()), classes="balance-part")]
        page.mount(*parts)

    def parts_of(self, entry: GameScreens, balance: Balance) -> list:
        """A heading and a table for the game's sides, and for its seats where they
        matter."""
        parts: list = []
        game = game_name(entry.game)
        if entry.side_word is not None and balance.sides:
            score = entry.score_word if any(t.scored for t in balance.sides.values()) else None
            # TRANSLATORS: a part of the balance: "Struggle of Empires · Power".
            parts.append(Static(literal(_("{game} · {what}").format(
                game=game, what=_(entry.side_word))), classes="balance-part title"))
            parts.append(self.table(_(entry.side_word), [
                (entry.side_name(side), balance.sides[side])
                for side in sides_in_order(balance.sides)], score))
        if entry.seat_balance and balance.seats:
            parts.append(Static(literal(_("{game} · {what}").format(
                game=game, what=_("Seat"))), classes="balance-part title"))
            parts.append(self.table(_("Seat"), [
                (_("Seat {n}").format(n=seat + 1), balance.seats[seat])
                for seat in sorted(balance.seats)], None))
        return parts

    def table(self, heading: str, rows: list[tuple[str, Tally]],
              score: str | None) -> DataTable:
        few = part_style(self, "balance--few")
        table = MeasuredTable(show_cursor=False, zebra_stripes=True, classes="balance-part")
        table.can_focus = False  # the page scrolls as one
        table.add_columns(heading, *(_(h) for h in FIGURES_HEADINGS),
                          *((_(score),) if score else ()))
        for name, tally in rows:
            style = few if tally.games < FEW_GAMES else ""
            average = tally.average_score
            figures = [str(tally.games), str(tally.wins), percent(tally.win_rate)]
            if score:
                figures.append("—" if average is None else one_decimal(average))
            table.add_row(literal(name, style),
                          *(literal(f, style, justify="right") for f in figures))
        return table

    def help_text(self) -> str:
        return _("Which sides and seats win, in every game of the league's group and season: "
                 "for each, the games it was played in, the games won (a shared win counts), "
                 "the win rate and, where the game keeps a score, the average final score. "
                 "A figure on fewer than {games} games is dimmed: it says little. The arrows "
                 "scroll; Escape goes back to the league.").format(games=FEW_GAMES)

    def commands(self):
        yield SystemCommand(_("Back to the league"), _("Leave the balance ({key})").format(
            key=self.key_of("back")), self.action_back)
