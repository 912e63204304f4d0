"""Results: final standings, the result and its format, and a chart of the game.

What is a game's own (its columns, its sentences under the standings, its chart, any table
of its own) comes from its `ResultWords`, in tui/games/<game>/results.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from i18n import N_, _, ngettext
from rules.fields import NAME_LIMIT
from tui.plumbing.ledger_calls import LedgerCalls
from tui.screens.base import GRID_WIDTH, WarledgerScreen
from tui.screens.registry import load, screens_of
from tui.text.formatting import and_joined, format_name, game_name, units_counted
from tui.text.literal import literal
from tui.widgets.footer import Footer
from tui.widgets.header import Header
from tui.widgets.totals import give_way

# The chart goes beside the tables only with at least this many cells of width left for it.
CHART_AT_LEAST = 44
GAP = 2  # cells between two columns of the standings

# A chart: its heading, the points along it, and each player's line.
Chart = tuple[str, list[str], dict[str, list[int]]]


class ResultWords:
    """What a game shows on its results screen besides what every game shows; the
    defaults add nothing. Words kept in attributes (`headings`, `help`) are message ids
    (N_): the screen shows them through `_()`; the methods return words already in the
    reader's language."""

    # The standings' headings by column (message ids); a column not named here is headed
    # by its name with spaces for underscores (through the catalogs too, when it is a
    # message: "player").
    headings: Mapping[str, str] = {}
    word_columns: tuple[str, ...] = ()  # columns of words (the rest hold numbers)
    wrapped_columns: tuple[str, ...] = ()  # lists of names: on two lines rather than cut
    hidden_columns: tuple[str, ...] = ()  # said in sentences of their own instead
    # Left out when the table would not fit whole (a phone), before anything is cut: what
    # the result does not rest on.
    spare_columns: tuple[str, ...] = ()
    help: str = ""  # a sentence more for the help, about its own parts of the screen

    def value(self, column: str, value) -> str:
        """A cell of the standings as shown: a game's ids (a power, a colour, continents)
        in the reader's language. The default shows them as they are stored."""
        return cell(value)

    def explanation(self, game) -> Text | str:
        """A sentence or table under the standings: how the result came about."""
        return ""

    def notes(self, game) -> Text | str:
        """More under the standings (Risk's missions, now shown)."""
        return ""

    def chart(self, game) -> Callable[[], Chart] | None:
        """Work that makes the game's chart, run off the event loop (it may fold the
        game's past from the database); None for no chart."""
        return None

    def more(self, game) -> Iterable[Widget]:
        """Widgets of the game's own under the tables."""
        return ()

    def shown(self, screen: ResultsScreen) -> None:
        """The screen is mounted: fill what `more` yielded (through `screen.call_ledger`)."""


def words_for(game: str) -> ResultWords:
    entry = screens_of(game)
    return load(entry.results) if entry else ResultWords()


class ResultOnlyWords(ResultWords):
    """A game imported as a result only: its game's columns and the way it shows their
    values, and nothing that would read its steps (it has none)."""

    def __init__(self, words: ResultWords) -> None:
        self.words = words
        self.headings, self.word_columns = words.headings, words.word_columns
        self.wrapped_columns, self.hidden_columns = words.wrapped_columns, words.hidden_columns
        self.spare_columns = words.spare_columns

    def value(self, column: str, value) -> str:
        return self.words.value(column, value)


class ResultsScreen(LedgerCalls, WarledgerScreen[None]):
    """A finished game. ctrl+z takes back the last step and reopens the game; a game
    imported as a result only has no steps to take back or list."""

    HELP_TITLE = N_("Results")
    # Whether a game's own tables (Struggle of Empires: VP by region) were shown for a
    # window under 76 columns; None: it has none.
    regions_in_pocket: bool | None = None
    BINDINGS = [
        Binding("ctrl+o", "home", N_("Saved games"), id="home"),
        Binding("ctrl+z", "undo", N_("Undo last step"), id="undo"),
        Binding("l", "league", N_("League"), id="league"),
        Binding("h", "history", N_("History"), id="history",
                tooltip=N_("Every step recorded in this game")),
    ]

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game
        self.result_only = getattr(game, "result_only", False)
        self.words = words_for(game.game)
        if self.result_only:
            self.words = ResultOnlyWords(self.words)

    def again(self) -> ResultsScreen:
        return ResultsScreen(self.game)

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="results"):
            yield Static(self.headline(), classes="title", id="headline")
            with Horizontal(id="results-body"):
                standings = self.standings()
                explanation = self.words.explanation(self.game)
                missions = self.words.notes(self.game)
                with Vertical(id="results-tables"):
                    yield Static(standings, id="standings")
                    for text, widget in ((explanation, Static(explanation, classes="hint",
                                                              id="explanation")),
                                         (missions, Static(missions, id="missions"))):
                        widget.display = bool(text)  # no empty line where there is nothing
                        yield widget
                    yield from self.words.more(self.game)
        # The tables keep the width they need; the chart gets what is left, if enough.
        console = self.app.console
        unbounded = console.options.update_width(1_000)
        self.tables_width = max(Measurement.get(console, unbounded, text).maximum + padding
                                for text, padding in ((standings, 1), (explanation, 2),
                                                      (missions, 2)))  # app.tcss
        yield Footer()

    @property
    def game_shown(self) -> str:
        return self.game.game

    def on_mount(self) -> None:
        self.query_one("#results-tables").styles.width = self.tables_width
        self.title = self.game.title
        self.sub_title = self.app.as_seen_by_player(
            _("{game} · results").format(game=game_name(self.game.game)))
        self.words.shown(self)
        if (chart := self.words.chart(self.game)) is not None:
            self.call_ledger(lambda _ledger: chart(), lambda got: self.show_chart(*got))

    def show_chart(self, heading: str, points: list[str], lines: dict[str, list[int]]) -> None:
        """The chart beside the tables, or under them when the screen is too narrow for
        both; no chart at all when no round was recorded with positions."""
        if not points:
            return
        from tui.widgets.charts import LineChart

        self.query_one("#results-body").mount(LineChart(heading, points, lines, id="progress"))
        self.place_chart()

    def on_resize(self) -> None:
        self.place_chart()
        pocket = self.app.size.width < GRID_WIDTH
        if self.regions_in_pocket is not None and self.regions_in_pocket != pocket:
            self.words.shown(self)  # across 76 columns: a game's tables shown anew

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A result-only game has no steps: nothing to take back, no history to show.
        return not (self.result_only and action in ("undo", "history"))

    def place_chart(self) -> None:
        """Beside the tables when both fit the width, else under them (the screen scrolls)."""
        self.set_class(self.size.width < self.tables_width + CHART_AT_LEAST, "-chart-under")

    def headline(self) -> Text:
        report = self.game.report()
        winners = and_joined(report.winners)
        word = {"win": _("{winners} wins"), "shared": _("Shared victory: {winners}"),
                "draw": _("A draw")}[report.result].format(winners=winners)
        players = len(report.standings)
        # A drawn game decided as a draw says so once ("A draw", not "A draw · draw"), and
        # names the stalemate that drew it.
        how = "" if report.result == "draw" and report.format == "draw" and \
            not report.stalemate else format_name(report.game, report.format, report.stalemate)
        return literal("  ·  ".join(part for part in (
            word, how, ngettext("{n} player", "{n} players", players).format(n=players),
            units_counted(report.unit, report.rounds) if report.rounds else "") if part))

    def standings(self) -> FittedTable:
        rows = [standing.to_json() for standing in self.game.report().standings]
        # A column nobody has a value in (nobody out) is left out, and so are the ones the
        # game says in sentences of their own, under the table.
        hidden = ("rank", *self.words.hidden_columns)
        columns = [c for c in rows[0] if c not in hidden
                   and any(r[c] is not None and r[c] is not False and r[c] != []
                           for r in rows)]
        headings = {"player": N_("player"), **self.words.headings}
        return FittedTable(
            _("Final standings"),
            ["#", *(_(headings.get(c, c.replace("_", " "))) for c in columns)],
            [[literal(row["rank"]), *(literal(self.words.value(c, row[c])) for c in columns)]
             for row in rows],
            word_columns=[i for i, c in enumerate(columns, 1) if c in self.words.word_columns],
            wrapped=[i for i, c in enumerate(columns, 1) if c in self.words.wrapped_columns],
            name=columns.index("player") + 1,
            spare=[i for i, c in enumerate(columns, 1) if c in self.words.spare_columns])

    def pocket_keys(self) -> tuple[str, ...]:
        return ("home", "league", "help", "quit")

    def help_text(self) -> str:
        key = self.key_of
        if self.result_only:
            # TRANSLATORS: {source} is BoardGameGeek or BG Stats.
            return _("This game was imported from {source} as a result only: who played, "
                     "as what, who won and the scores. It counts in the league and the "
                     "ratings; it has no steps to list or take back. The arrows and Page "
                     "Up/Down scroll the results.").format(source=self.game.source_name)
        # TRANSLATORS: {more} is a sentence of the game's own, with a space before it, or
        # nothing.
        return _("The game is over and its result is in the league. The arrows and Page "
                 "Up/Down scroll the results.{more} {history} shows every step recorded. If "
                 "the last step was wrong, {undo} takes it back and reopens the game.").format(
            more=f" {_(self.words.help)}" if self.words.help else "", history=key("history"),
            undo=key("undo"))

    def action_home(self) -> None:
        self.app.pop_screen()

    def action_league(self) -> None:
        from tui.screens.league import LeagueScreen

        self.app.push_screen(LeagueScreen())

    def action_history(self) -> None:
        from tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.game))

    def action_undo(self) -> None:
        session_id, seq, author = self.game.id, self.game.seq, self.app.player
        self.call_ledger(lambda ledger: ledger.undo(session_id, expected_seq=seq, author=author),
                         lambda game: self.app.show_game(game, instead=True))

    def commands(self):
        key = self.key_of
        if not self.result_only:
            yield SystemCommand(_("Undo: last step"), _("Reopen the game ({key})").format(
                key=key("undo")), self.action_undo)
        yield SystemCommand(_("Open: league"), _("League table ({key})").format(
            key=key("league")), self.action_league)
        if not self.result_only:
            yield SystemCommand(_("Show: history"), _("Every step recorded in this game "
                                                      "({key})").format(key=key("history")),
                                self.action_history)


def cell(value) -> str:
    if isinstance(value, list):
        return ", ".join(value)
    if isinstance(value, bool):
        return _("yes") if value else ""
    return "" if value is None else str(value)


class FittedTable:
    """A table drawn at the width it is given: every number whole; when the width is short,
    the `wrapped` columns (lists of names) go on more lines first, then the other
    `word_columns` are cut with "…", and the player's name (column `name`) last. Before
    any of that, the `spare` columns are left out when the table would not fit whole."""

    def __init__(self, title: str, headings: Sequence[str], rows: Sequence[Sequence[Text]],
                 *, word_columns: Sequence[int], wrapped: Sequence[int], name: int,
                 spare: Sequence[int] = ()) -> None:
        self.title, self.headings, self.rows = title, list(headings), rows
        self.words, self.wrapped, self.name = list(word_columns), list(wrapped), name
        self.spare = list(spare)
        self.natural = [max([*map(len, heading.split("\n")), *(row[j].cell_len for row in rows)])
                        for j, heading in enumerate(headings)]
        for j in (name, *self.words):  # longer only in an older database
            self.natural[j] = min(self.natural[j], NAME_LIMIT)
        # A wrapped column narrows down to its longest word.
        self.at_least = {j: max(len(w) for text in (headings[j], *(row[j].plain for row in rows))
                                for w in text.split()) for j in self.wrapped}

    def widths(self, room: int) -> list[int]:
        widths = list(self.natural)
        excess = sum(widths) + GAP * (len(widths) - 1) - room
        for j in self.wrapped:
            excess = give_way(widths, [j], excess, self.at_least[j])
        excess = give_way(widths, [j for j in self.words if j not in self.wrapped], excess)
        give_way(widths, [self.name], excess)
        return widths

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = sum(self.natural) + GAP * (len(self.natural) - 1)
        return Measurement(sum(self.widths(0)) + GAP * (len(self.natural) - 1), widest)

    def without_spare(self) -> FittedTable:
        """The same table without its spare columns."""
        kept = [j for j in range(len(self.headings)) if j not in self.spare]
        at = {j: i for i, j in enumerate(kept)}
        return FittedTable(self.title, [self.headings[j] for j in kept],
                           [[row[j] for j in kept] for row in self.rows],
                           word_columns=[at[j] for j in self.words if j in at],
                           wrapped=[at[j] for j in self.wrapped if j in at], name=at[self.name])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # The spare columns go only where the table would not fit even with its words
        # cut (a phone); from 76 columns up a long name gives way first (issue 45).
        if self.spare and options.max_width < GRID_WIDTH \
                and sum(self.natural) + GAP * (len(self.natural) - 1) > options.max_width:
            yield from self.without_spare().__rich_console__(console, options)
            return
        # The gap is the box's column separator and one cell of padding; no edge.
        table = Table(title=self.title, title_justify="left", box=box.SIMPLE_HEAD,
                      padding=(0, 0, 0, 1), pad_edge=False, show_edge=False)
        for j, (heading, width) in enumerate(zip(self.headings, self.widths(options.max_width),
                                                 strict=True)):
            table.add_column(heading, width=width, no_wrap=j not in self.wrapped,
                             overflow="ellipsis",
                             justify="left" if j in (self.name, *self.words) else "right")
        for row in self.rows:
            table.add_row(*row)
        yield table
