"""League: standings over every finished game (win 3, draw 1, loss 0), by game, a chart of
the leaders' points game after game, and each player's history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import partial
from itertools import accumulate

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Header, Static

from tui.formatting import game_name, local_time
from tui.games import games as registered
from tui.keys import bind_more
from tui.ledger_calls import LedgerCalls, while_live
from tui.literal import literal, words
from tui.screens.base import WIDE_FROM, WarledgerScreen
from tui.widgets.footer import Footer
from tui.widgets.themed import follow_theme, part_style
from tui.widgets.totals import cut, give_way

EMPTY = "No finished games yet: finish a game and it counts here. Win 3, draw 1, loss 0."
# Players drawn on the chart, from the top of the table: more lines could not be told apart.
CHART_PLAYERS = 6
# The chart goes beside the table only with at least this many cells of width left for it.
CHART_AT_LEAST = 44
# A player's games: the title gives way (cut with "…", down to this) so that the outcome,
# points and format stay in sight; under WIDE_FROM columns the game's short name and the
# date without its weekday leave it more room.
GAMES_HEADINGS = ("Date", "Game", "Title", "Outcome", "Points", "Format")
TITLE = GAMES_HEADINGS.index("Title")
TITLE_AT_LEAST = 12
SCROLLBAR = 2  # the list's own, when it holds more games than it shows


class LeagueScreen(LedgerCalls, WarledgerScreen[None]):
    """The league table; Enter on a player shows the games they finished."""

    HELP_TITLE = "League"
    COMPONENT_CLASSES = {"league--keys"}  # the reminder of the filter keys (app.tcss)
    AUTO_FOCUS = "#standings"
    BINDINGS = [
        Binding("enter", "history", "Player's games", id="history"),
        Binding("a", "show('')", "All games", id="all"),
        # then a key per game, for its games only (__init__),
        Binding("escape", "back", "Back", id="back"),
    ]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        bind_more(self, [Binding(g.league_key, f"show({g.game!r})", game_name(g.game),
                                 id=g.league_binding) for g in registered()], after="a")
        self.game = game
        self.player: str | None = None
        self.player_games: list = []  # the games of `player`, listed under the table
        self.listed_at = 0  # the width they were listed at

    @property
    def game_shown(self) -> str | None:
        return self.game

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="league-filter", classes="title")
        yield Static("", id="league-empty", classes="hint")
        yield Static("", id="league-message", classes="message -error")
        with Horizontal(id="league-top"):
            yield DataTable(id="standings", cursor_type="row", zebra_stripes=True)
        yield Static("", id="player-games-title", classes="title")
        yield DataTable(id="player-games", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#standings", DataTable).add_columns(
            "Player", "Played", "Wins", "Draws", "Losses", "Points")
        follow_theme(self, self.show_filter)
        self.refresh_league()

    # ------------------------------------------------------------ showing

    @property
    def narrow(self) -> bool:
        # The window's width, not the -narrow class: that comes with the first resize.
        return self.app.size.width < WIDE_FROM

    def which_games(self, game: str | None) -> str:
        """'all games', 'Risk only'; a game's short name on a narrow screen."""
        return f"{game_name(game, short=self.narrow)} only" if game else "all games"

    def show_filter(self) -> None:
        """Which games count, and the keys that choose (on one line at 80 columns)."""
        key = self.key_of
        self.query_one("#league-filter", Static).update(words(
            f"League: {self.which_games(self.game)}   ",
            (f"({key('all')} all · "
             + "".join(f"{key(g.league_binding)} {game_name(g.game, short=self.narrow)} · "
                       for g in registered())
             + "Enter: a player's games)", part_style(self, "league--keys"))))

    def refresh_league(self) -> None:
        self.show_filter()
        self.hide_history()
        game = self.game
        self.call_ledger(lambda ledger: standings_and_leaders(ledger, game), self.show_league)

    def ledger_failed(self, message: str, error: BaseException) -> None:
        self.query_one("#league-message", Static).update(literal(message))

    def show_league(self, got: tuple[list, dict[str, list]]) -> None:
        rows, histories = got
        self.list_standings(rows)
        self.show_chart(histories, len(rows))

    def list_standings(self, rows: list) -> None:
        self.query_one("#league-message", Static).update("")
        table = self.query_one("#standings", DataTable)
        table.clear()
        for r in rows:
            table.add_row(literal(r.player), r.played, r.wins, r.draws, r.losses, r.points,
                          key=r.player)
        empty = self.query_one("#league-empty", Static)
        empty.update(EMPTY if self.game is None else
                     f"No finished {game_name(self.game)} games yet. Win 3, draw 1, loss 0.")
        empty.display = not rows
        table.display = bool(rows)
        if rows:
            table.focus()

    def show_chart(self, histories: Mapping[str, Sequence], players: int) -> None:
        """The leaders' points after each of their games, beside the table (or under it
        when the screen is too narrow for both); no chart before the first game."""
        dates, lines = points_over_time(histories)
        heading = ("League points, game after game" if players <= len(histories)
                   else f"League points of the top {len(histories)}, game after game")
        points = [local_time(when, "dd MMM") for when in dates]
        shown = self.query("#league-chart")
        if shown and dates:
            shown.first().show(heading, points, lines)
        elif dates:
            from tui.widgets.charts import LineChart  # plotext: only once there is a chart

            self.query_one("#league-top").mount(LineChart(heading, points, lines,
                                                          id="league-chart"))
        else:
            shown.remove()
        self.call_after_refresh(while_live(self, self.place_chart))  # once the table has its new width

    def on_resize(self) -> None:
        self.place_chart()
        self.show_filter()
        if self.player is not None and self.listed_at != self.size.width:
            self.list_history(self.player, self.player_games)  # fitted to the new width

    def place_chart(self) -> None:
        """Beside the table when both fit the width, else under it."""
        table = self.query_one("#standings", DataTable)
        wide = table.virtual_size.width + table.styles.gutter.width
        self.set_class(self.size.width < wide + CHART_AT_LEAST, "-chart-under")

    def hide_history(self) -> None:
        self.player, self.player_games = None, []
        self.remove_class("-history")
        self.query_one("#player-games-title", Static).display = False
        history = self.query_one("#player-games", DataTable)
        history.clear()
        history.display = False

    def show_history(self, player: str) -> None:
        game = self.game
        self.call_ledger(lambda ledger: ledger.history(player, game),
                         lambda games: self.list_history(player, games))

    def list_history(self, player: str, games: list) -> None:
        self.player, self.player_games, self.listed_at = player, games, self.size.width
        title = self.query_one("#player-games-title", Static)
        title.update(literal(f"{player}'s games ({self.which_games(self.game)})"))
        title.display = True
        short = self.narrow
        rows = [[literal(local_time(g.finished_at, "dd MMM yyyy" if short else "EEE dd MMM yyyy")),
                 literal(game_name(g.game, short=short)), literal(g.title),
                 literal(g.outcome), literal(g.points),
                 literal((g.format or "").replace("_", " "))] for g in games]
        history = self.query_one("#player-games", DataTable)
        widths = [max([len(heading), *(row[j].cell_len for row in rows)])
                  for j, heading in enumerate(GAMES_HEADINGS)]
        padding = 2 * history.cell_padding
        give_way(widths, [TITLE], sum(widths) + padding * len(widths) + SCROLLBAR
                 - self.size.width, TITLE_AT_LEAST)
        # Columns afresh: a DataTable's own widths only ever grow, and a long title listed
        # once would keep pushing the outcome out of sight.
        history.clear(columns=True)
        history.add_columns(*GAMES_HEADINGS)
        for row in rows:
            row[TITLE] = cut(row[TITLE], widths[TITLE])
            history.add_row(*row)
        history.display = True
        self.add_class("-history")  # a narrow screen shows it instead of the chart

    def selected_player(self) -> str | None:
        table = self.query_one("#standings", DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    # ------------------------------------------------------------ reacting

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "standings":
            self.action_history()

    def action_history(self) -> None:
        player = self.selected_player()
        if player is not None:
            self.show_history(player)

    def action_show(self, game: str) -> None:
        self.game = game or None
        self.refresh_league()

    def action_back(self) -> None:
        if self.player is not None:
            self.hide_history()
            self.query_one("#standings", DataTable).focus()
        else:
            self.dismiss()

    # ------------------------------------------------------------ help

    def help_text(self) -> str:
        key = self.key_of
        only = ", ".join(f"{key(g.league_binding)} {game_name(g.game)} only" for g in registered())
        return ("Every finished game counts: a win is 3 points, a shared victory or a drawn "
                f"game 1, a loss 0. {key('all')} shows all games, {only}. Highlight a player "
                "and press Enter to see the games they finished; Escape hides that list, and "
                "Escape again goes back.")

    def commands(self):
        key = self.key_of
        yield SystemCommand("League: all games", f"Standings over every finished game "
                            f"({key('all')})", lambda: self.action_show(""))
        for g in registered():
            yield SystemCommand(f"League: {game_name(g.game)} only", "Standings for one game "
                                f"({key(g.league_binding)})", partial(self.action_show, g.game))
        yield SystemCommand("League: highlighted player's games", "Their finished games",
                            self.action_history)


def standings_and_leaders(ledger, game: str | None) -> tuple[list, dict[str, list]]:
    """The league table, and the finished games of the players at its top (for the chart)."""
    rows = ledger.league(game)
    return rows, {r.player: ledger.history(r.player, game) for r in rows[:CHART_PLAYERS]}


def points_over_time(histories: Mapping[str, Sequence]) -> tuple[list[datetime],
                                                                  dict[str, list[int]]]:
    """The games these players finished, oldest first (when each finished), and each
    player's league points after each of them: a game a player was not in leaves their
    points as they were."""
    games = sorted({(g.finished_at, g.session_id) for played in histories.values()
                    for g in played})
    at = {game: i for i, game in enumerate(games)}
    lines = {}
    for player, played in histories.items():
        gained = [0] * len(games)
        for g in played:
            gained[at[g.finished_at, g.session_id]] += g.points
        lines[player] = list(accumulate(gained))
    return [when for when, _ in games], lines
