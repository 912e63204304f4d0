"""League: standings over the finished games (win 3, draw 1, loss 0) of a game, a group and
a season, with each player's rating, a chart of the leaders' points game after game, and
each player's history; from here the group's story: a player, head to head, balance."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Static

from i18n import N_, _, ngettext
from rules.ratings import PROVISIONAL_BELOW, Rating
from tui.plumbing.keys import bind_more
from tui.plumbing.ledger_calls import LedgerCalls, while_live
from tui.screens.base import GRID_WIDTH, WIDE_FROM, WarledgerScreen
from tui.screens.registry import games as registered
from tui.screens.story import Counted, in_palette, rating_text, which_games
from tui.text.formatting import (
    PROVISIONAL,
    format_name,
    game_name,
    local_time,
    outcome_name,
    rating_hint,
)
from tui.text.literal import filled, literal
from tui.widgets.footer import Footer
from tui.widgets.header import Header
from tui.widgets.measured_table import MeasuredTable
from tui.widgets.themed import follow_theme, part_style
from tui.widgets.totals import cut, give_way

if TYPE_CHECKING:
    from tui.widgets.charts import LineChart

EMPTY = N_("No finished games yet: finish a game and it counts here. Win 3, draw 1, loss 0.")
STANDINGS_HEADINGS = (N_("Player"), N_("Played"), N_("Wins"), N_("Draws"), N_("Losses"),
                      N_("Points"), N_("Rating"))
# Under 76 columns (a phone) the table keeps these columns (Player, Played, Wins, Points):
# the rest is in a player's story (p); the chart gives the table its rows.
POCKET_STANDINGS = (0, 1, 2, 5)
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
    _standings: tuple | None = None  # what the table was last given (list_standings)
    COMPONENT_CLASSES = {"league--keys"}  # the reminder of the filter keys (app.tcss)
    AUTO_FOCUS = "#standings"
    # The game filter's keys are in the reminder line, the help and the palette; the footer
    # keeps to the rest, so that it is whole at 80 columns.
    BINDINGS = [
        Binding("enter", "history", N_("Player's games"), id="history"),
        Binding("a", "show('')", N_("All games"), id="all", show=False),
        # then a key per game, for its games only (__init__),
        Binding("g", "next_group", N_("Group"), id="group",
                tooltip=N_("Next group (all groups first)")),
        Binding("e", "next_season", N_("Season"), id="season",
                tooltip=N_("Next season of the group (all time first)")),
        Binding("p", "player", N_("Player"), id="player",
                tooltip=N_("The highlighted player's story")),
        # "Rivals": a short footer word, so that the footer stays whole at 80 columns in
        # longer languages; the help says more.
        Binding("h", "head_to_head", N_("Rivals"), id="head_to_head",
                tooltip=N_("Head to head: who finished ahead of whom")),
        Binding("b", "balance", N_("Balance"), id="balance",
                tooltip=N_("Which sides and seats win")),
        Binding("escape", "back", N_("Back"), id="back"),
    ]

    def __init__(self, game: str | None = None, *, group: str | None = None,
                 season: str | None = None) -> None:
        super().__init__()
        bind_more(self, [Binding(g.league_key, f"show({g.game!r})", game_name(g.game),
                                 id=g.league_binding, show=False) for g in registered()],
                  after="a")
        self.game = game
        self.group = group
        self.season = season
        self.groups: list[str] = []  # every group's name, as the ledger last said
        self.seasons: list = []  # every group's seasons (SeasonRow), as the ledger last said
        self.player: str | None = None
        self.player_games: list = []  # the games of `player`, listed under the table
        self.listed_at = 0  # the width they were listed at
        self.reopen: str | None = None  # a player whose games to list once the table is in

    def again(self) -> LeagueScreen:
        screen = LeagueScreen(self.game, group=self.group, season=self.season)
        screen.reopen = self.player  # their games listed again, in the new language
        return screen

    @property
    def counted(self) -> Counted:
        return Counted(self.game, self.group, self.season)

    @property
    def game_shown(self) -> str | None:
        return self.game

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="league-filter", classes="title")
        yield Static("", id="league-keys")
        yield Static("", id="league-empty", classes="hint")
        yield Static("", id="league-message", classes="message -error")
        with Horizontal(id="league-top"):
            yield MeasuredTable(id="standings", cursor_type="row", zebra_stripes=True)
        yield Static("", id="rating-hint", classes="hint")
        yield Static("", id="player-games-title", classes="title")
        yield MeasuredTable(id="player-games", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.standings_columns()
        follow_theme(self, self.show_filter)
        self.refresh_league()

    # ------------------------------------------------------------ showing

    @property
    def narrow(self) -> bool:
        # The window's width, not the -narrow class: that comes with the first resize.
        return self.app.size.width < WIDE_FROM

    def which_games(self, game: str | None) -> str:
        """'all games', 'Risk only'; a game's short name on a narrow screen."""
        return which_games(game, self.narrow)

    def show_filter(self) -> None:
        """Which games count (a game, a group, a season), and under it the keys that
        choose (each line whole at 80 columns)."""
        key = self.key_of
        self.query_one("#league-filter", Static).update(filled(
            _("League: {which}"), which=self.counted.which(self.narrow)))
        # TRANSLATORS: the league's filter keys: "a all · s SoE · k Risk · g group · e
        # season · Enter: a player's games"; {games} is a key and a game's name for each
        # game, each followed by " · ".
        keys = _("{all} all · {games}{group} group · {season} season · Enter: a player's "
                 "games").format(all=key("all"), group=key("group"), season=key("season"),
                                 games="".join(f"{key(g.league_binding)} "
                                               f"{game_name(g.game, short=True)} · "
                                               for g in registered()))
        self.query_one("#league-keys", Static).update(
            literal(keys, part_style(self, "league--keys")))

    def refresh_league(self) -> None:
        self.show_filter()
        self.hide_history()
        counted = self.counted
        self.call_ledger(lambda ledger: standings_and_leaders(ledger, counted),
                         self.show_league)

    def ledger_failed(self, message: str, error: BaseException) -> None:
        self.query_one("#league-message", Static).update(literal(message))

    def show_league(self, got: LeagueData) -> None:
        self.groups = [g.name for g in got.groups]
        self.seasons = list(got.seasons)
        self.list_standings(got.rows, got.ratings)
        self.show_chart(got.chart, len(got.rows))

    def standings_columns(self) -> tuple[int, ...]:
        """The columns of the table (all, or under 76 columns POCKET_STANDINGS), made anew
        when that changes; their indexes in STANDINGS_HEADINGS."""
        shown = (POCKET_STANDINGS if self.app.size.width < GRID_WIDTH
                 else tuple(range(len(STANDINGS_HEADINGS))))
        table = self.query_one("#standings", DataTable)
        if len(table.columns) != len(shown):
            table.clear(columns=True)
            table.add_columns(*(_(STANDINGS_HEADINGS[j]) for j in shown))
        return shown

    def list_standings(self, rows: list, ratings: Mapping | None = None) -> None:
        self.query_one("#league-message", Static).update("")
        ratings = ratings or {}
        self._standings = (rows, ratings)
        table = self.query_one("#standings", DataTable)
        shown = self.standings_columns()
        table.clear()
        for r in rows:
            cells = (literal(r.player), r.played, r.wins, r.draws, r.losses, r.points,
                     rating_text(ratings.get(r.player)))
            table.add_row(*(cells[j] for j in shown), key=r.player)
        empty = self.query_one("#league-empty", Static)
        if self.group is not None or self.season is not None:
            empty.update(filled(_("No finished games in {which}. Win 3, draw 1, loss 0."),
                                which=self.counted.which()))
        else:
            empty.update(_(EMPTY) if self.game is None else
                         _("No finished {game} games yet. Win 3, draw 1, loss 0.").format(
                             game=game_name(self.game)))
        empty.display = not rows
        table.display = bool(rows)
        self.refresh_bindings()
        hint = self.query_one("#rating-hint", Static)
        hint.update(rating_hint())
        hint.display = bool(rows) and len(shown) == len(STANDINGS_HEADINGS)  # of Rating
        if rows:
            table.focus()
        reopen, self.reopen = self.reopen, None
        if reopen is not None and any(r.player == reopen for r in rows):
            table.move_cursor(row=next(i for i, r in enumerate(rows) if r.player == reopen))
            self.show_history(reopen)

    def show_chart(self, chart: tuple[list[datetime], dict[str, list[int]]],
                   players: int) -> None:
        """The leaders' points after each of their games, beside the table (or under it
        when the screen is too narrow for both); no chart before the first game."""
        dates, lines = chart
        top = len(lines)
        heading = (_("League points, game after game") if players <= top
                   else ngettext("League points of the top {n}, game after game",
                                 "League points of the top {n}, game after game",
                                 top).format(n=top))
        points = [local_time(when, "dd MMM") for when in dates]
        shown = self.query("#league-chart")
        if shown and dates:
            # #league-chart is the LineChart made below
            cast("LineChart", shown.first()).show(heading, points, lines)
        elif dates:
            from tui.widgets.charts import LineChart  # plotext: only once there is a chart

            self.query_one("#league-top").mount(LineChart(heading, points, lines,
                                                          id="league-chart"))
        else:
            shown.remove()
        self.call_after_refresh(while_live(self, self.place_chart))  # once the table has its new width

    def on_resize(self) -> None:
        standings = self._standings
        if standings is not None and len(self.query_one("#standings", DataTable).columns
                                         ) != len(self.standings_columns()):
            self.list_standings(*standings)  # across 76 columns: the columns shown change
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
                 literal(format_name(g.game, g.format, g.stalemate))] for g in games]
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # With no one in the table (no game finished), a player's games and story have no
        # player: their keys leave the footer, so that the rest is whole at 80 columns.
        if action in ("history", "player"):
            standings = self.query("#standings").results(DataTable)
            return any(table.row_count for table in standings)
        return True

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

    def choose(self, group: str | None, season: str | None = None) -> None:
        """Count the games of `group` (None: every group) and its `season` (None: all
        time)."""
        self.group, self.season = group, season
        self.refresh_league()

    def action_next_group(self) -> None:
        """All groups, then each group by name, round again."""
        choices: list[str | None] = [None, *self.groups]
        at = choices.index(self.group) if self.group in choices else 0
        self.choose(choices[(at + 1) % len(choices)])

    def action_next_season(self) -> None:
        """All time, then each season of the group (of every group while all groups
        count: a season chosen chooses its group), round again."""
        seasons = [s for s in self.seasons if self.group is None or s.group == self.group]
        choices = [None, *((s.group, s.name) for s in seasons)]
        now = (self.group, self.season) if self.season is not None else None
        at = choices.index(now) if now in choices else 0
        chosen = choices[(at + 1) % len(choices)]
        if chosen is None:
            self.choose(self.group)
        else:
            self.choose(*chosen)

    def action_player(self) -> None:
        from tui.screens.player import PlayerScreen

        player = self.selected_player()
        if player is not None:
            self.app.push_screen(PlayerScreen(player, self.counted))

    def action_head_to_head(self) -> None:
        from tui.screens.rivals import HeadToHeadScreen

        self.app.push_screen(HeadToHeadScreen(self.counted))

    def action_balance(self) -> None:
        from tui.screens.balance import BalanceScreen

        self.app.push_screen(BalanceScreen(self.counted))

    def action_back(self) -> None:
        if self.player is not None:
            self.hide_history()
            self.query_one("#standings", DataTable).focus()
        else:
            self.dismiss()

    # ------------------------------------------------------------ help

    def pocket_keys(self) -> tuple[str, ...]:
        return ("back", "player", "help", "quit")

    def help_text(self) -> str:
        key = self.key_of
        # TRANSLATORS: the league's keys for one game each, listed with ", " between them:
        # "s Struggle of Empires only".
        only = ", ".join(_("{key} {game} only").format(key=key(g.league_binding),
                                                       game=game_name(g.game))
                         for g in registered())
        return " ".join((
            _("Every finished game counts: a win is 3 points, a shared victory or a drawn "
              "game 1, a loss 0. {all} shows all games, {only}. Highlight a player and "
              "press Enter to see the games they finished; Escape hides that list, and "
              "Escape again goes back.").format(all=key("all"), only=only),
            _("{group} shows the next group (all groups first), {season} the next season of "
              "the group (all time first; a season chosen chooses its group).").format(
                group=key("group"), season=key("season")),
            _("The rating is the skill a player very likely has at least (μ − 3σ, from "
              "OpenSkill), ± its uncertainty σ, in the game shown or across every game; "
              "{mark} marks a provisional rating, resting on fewer than {games} games.")
            .format(mark=PROVISIONAL, games=PROVISIONAL_BELOW),
            _("{player} opens the highlighted player's story, {head_to_head} who finished "
              "ahead of whom, {balance} which sides and seats win.").format(
                player=key("player"), head_to_head=key("head_to_head"),
                balance=key("balance"))))

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
        yield SystemCommand(_("League: all groups"), _("Every group's games ({key})").format(
            key=key("group")), lambda: self.choose(None))
        for group in self.groups:
            yield SystemCommand(_("League: group {group}").format(group=in_palette(group)),
                                _("This group's games ({key})").format(key=key("group")),
                                partial(self.choose, group))
        yield SystemCommand(_("League: all time"), _("Every season of the group ({key})")
                            .format(key=key("season")), lambda: self.choose(self.group))
        for season in self.seasons:
            yield SystemCommand(_("League: season {season} of {group}").format(
                                    season=in_palette(season.name),
                                    group=in_palette(season.group)),
                                _("This season's games ({key})").format(key=key("season")),
                                partial(self.choose, season.group, season.name))
        yield SystemCommand(_("League: highlighted player's story"),
                            _("Games, wins, rating over time, nemesis and victim ({key})")
                            .format(key=key("player")), self.action_player)
        yield SystemCommand(_("League: head to head"),
                            _("How often each player finished ahead of each other ({key})")
                            .format(key=key("head_to_head")), self.action_head_to_head)
        yield SystemCommand(_("League: balance"),
                            _("Win rates by side and by seat ({key})").format(
                                key=key("balance")), self.action_balance)


@dataclass(frozen=True)
class LeagueData:
    """What the league screen shows, read in one worker."""

    rows: list  # LeagueRow
    # The leaders' points after each game, for the chart (Ledger.league_chart).
    chart: tuple[list[datetime], dict[str, list[int]]]
    ratings: dict[str, Rating]  # in the game's scope (or every game's)
    groups: list  # GroupRow
    seasons: list  # SeasonRow


def standings_and_leaders(ledger, counted: Counted) -> LeagueData:
    """The league table with each player's rating, the points of the players at its top
    game after game (for the chart), and the groups and seasons to choose from."""
    game, group, season = counted.game, counted.group, counted.season
    rows = ledger.league(game, group, season)
    stats = ledger.stats(group, season)
    return LeagueData(rows, ledger.league_chart(game, group, season,
                                                [r.player for r in rows[:CHART_PLAYERS]]),
                      stats.ratings.get(counted.scope, {}), ledger.groups(),
                      ledger.seasons(None))
