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

from i18n import N_, _, ngettext
from tui.formatting import format_name, game_name, local_time, outcome_name
from tui.games import games as registered
from tui.keys import bind_more
from tui.ledger_calls import LedgerCalls, while_live
from tui.literal import filled, literal
from tui.screens.base import WIDE_FROM, WarledgerScreen
from tui.widgets.footer import Footer
from tui.widgets.themed import follow_theme, part_style
from tui.widgets.totals import cut, give_way

EMPTY = N_("No finished games yet: finish a game and it counts here. Win 3, draw 1, loss 0.")
STANDINGS_HEADINGS = (N_("Player"), N_("Played"), N_("Wins"), N_("Draws"), N_("Losses"),
                      N_("Points"))
# Players drawn on the chart, from the top of the table: more lines could not be told apart.
CHART_PLAYERS = 6
# The chart goes beside the table only with at least this many cells of width left for it.
CHART_AT_LEAST = 44
# A player's games: the title gives way (cut with "…", down to this) so that the outcome,
# points and format stay in sight; under WIDE_FROM columns the game's short name and the
# date without its weekday leave it more room.
GAMES_HEADINGS = (N_("Date"), N_("Game"), N_("Title"), N_("Outcome"), N_("Points"),
                  N_("Format"))
TITLE = GAMES_HEADINGS.index("Title")
TITLE_AT_LEAST = 12
SCROLLBAR = 2  # the list's own, when it holds more games than it shows


class LeagueScreen(LedgerCalls, WarledgerScreen[None]):
    """The league table; Enter on a player shows the games they finished."""

    HELP_TITLE = N_("League")
    COMPONENT_CLASSES = {"league--keys"}  # the reminder of the filter keys (app.tcss)
    AUTO_FOCUS = "#standings"
    BINDINGS = [
        Binding("enter", "history", N_("Player's games"), id="history"),
        Binding("a", "show('')", N_("All games"), id="all"),
        # then a key per game, for its games only (__init__),
        Binding("escape", "back", N_("Back"), id="back"),
    ]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        bind_more(self, [Binding(g.league_key, f"show({g.game!r})", game_name(g.game),
                                 id=g.league_binding) for g in registered()], after="a")
        self.game = game
        self.player: str | None = None
        self.player_games: list = []  # the games of `player`, listed under the table
        self.listed_at = 0  # the width they were listed at
        self.reopen: str | None = None  # a player whose games to list once the table is in

    def again(self) -> LeagueScreen:
        screen = LeagueScreen(self.game)
        screen.reopen = self.player  # their games listed again, in the new language
        return screen

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
            *(_(heading) for heading in STANDINGS_HEADINGS))
        follow_theme(self, self.show_filter)
        self.refresh_league()

    # ------------------------------------------------------------ showing

    @property
    def narrow(self) -> bool:
        # The window's width, not the -narrow class: that comes with the first resize.
        return self.app.size.width < WIDE_FROM

    def which_games(self, game: str | None) -> str:
        """'all games', 'Risk only'; a game's short name on a narrow screen."""
        if not game:
            return _("all games")
        return _("{game} only").format(game=game_name(game, short=self.narrow))

    def show_filter(self) -> None:
        """Which games count, and the keys that choose (on one line at 80 columns)."""
        key = self.key_of
        # TRANSLATORS: the league's filter keys: "(a all · s SoE · k Risk · Enter: a
        # player's games)"; {games} is a key and a game's name for each game, each followed
        # by " · ".
        keys = _("({all} all · {games}Enter: a player's games)").format(
            all=key("all"), games="".join(f"{key(g.league_binding)} "
                                          f"{game_name(g.game, short=self.narrow)} · "
                                          for g in registered()))
        self.query_one("#league-filter", Static).update(filled(
            _("League: {which}   {keys}"), which=self.which_games(self.game),
            keys=(keys, part_style(self, "league--keys"))))

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
        empty.update(_(EMPTY) if self.game is None else
                     _("No finished {game} games yet. Win 3, draw 1, loss 0.").format(
                         game=game_name(self.game)))
        empty.display = not rows
        table.display = bool(rows)
        if rows:
            table.focus()
        reopen, self.reopen = self.reopen, None
        if reopen is not None and any(r.player == reopen for r in rows):
            table.move_cursor(row=next(i for i, r in enumerate(rows) if r.player == reopen))
            self.show_history(reopen)

    def show_chart(self, histories: Mapping[str, Sequence], players: int) -> None:
        """The leaders' points after each of their games, beside the table (or under it
        when the screen is too narrow for both); no chart before the first game."""
        dates, lines = points_over_time(histories)
        top = len(histories)
        heading = (_("League points, game after game") if players <= top
                   else ngettext("League points of the top {n}, game after game",
                                 "League points of the top {n}, game after game",
                                 top).format(n=top))
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
        title.update(literal(_("{player}'s games ({which})").format(
            player=player, which=self.which_games(self.game))))
        title.display = True
        short = self.narrow
        rows = [[literal(local_time(g.finished_at, "dd MMM yyyy" if short else "EEE dd MMM yyyy")),
                 literal(game_name(g.game, short=short)), literal(g.title),
                 literal(outcome_name(g.outcome)), literal(g.points),
                 literal(format_name(g.format))] for g in games]
        history = self.query_one("#player-games", DataTable)
        headings = [_(heading) for heading in GAMES_HEADINGS]
        widths = [max([len(heading), *(row[j].cell_len for row in rows)])
                  for j, heading in enumerate(headings)]
        padding = 2 * history.cell_padding
        give_way(widths, [TITLE], sum(widths) + padding * len(widths) + SCROLLBAR
                 - self.size.width, TITLE_AT_LEAST)
        # Columns afresh: a DataTable's own widths only ever grow, and a long title listed
        # once would keep pushing the outcome out of sight.
        history.clear(columns=True)
        history.add_columns(*headings)
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
        # TRANSLATORS: the league's keys for one game each, listed with ", " between them:
        # "s Struggle of Empires only".
        only = ", ".join(_("{key} {game} only").format(key=key(g.league_binding),
                                                       game=game_name(g.game))
                         for g in registered())
        return _("Every finished game counts: a win is 3 points, a shared victory or a drawn "
                 "game 1, a loss 0. {all} shows all games, {only}. Highlight a player and "
                 "press Enter to see the games they finished; Escape hides that list, and "
                 "Escape again goes back.").format(all=key("all"), only=only)

    def commands(self):
        key = self.key_of
        yield SystemCommand(_("League: all games"), _("Standings over every finished game "
                                                      "({key})").format(key=key("all")),
                            lambda: self.action_show(""))
        for g in registered():
            yield SystemCommand(_("League: {game} only").format(game=game_name(g.game)),
                                _("Standings for one game ({key})").format(
                                    key=key(g.league_binding)),
                                partial(self.action_show, g.game))
        yield SystemCommand(_("League: highlighted player's games"), _("Their finished games"),
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
    return [when for when, _session in games], lines
