"""Results: final standings, the result and its format, and a chart of the game."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Footer, Header, Static

from rules.fields import NAME_LIMIT
from rules.risk.progress import score_by_round, territories_by_round
from rules.soe.progress import vp_by_region
from tui.formatting import game_name
from tui.ledger_calls import LedgerCalls
from tui.literal import lines, literal, words
from tui.screens.base import WarledgerScreen
from tui.widgets.totals import give_way

# The chart goes beside the tables only with at least this many cells of width left for it.
CHART_AT_LEAST = 44
# The standings' headings: short, so that at 80 columns a name of 24 characters fits whole.
HEADINGS = {"population": "pop.", "vp": "VP", "final_vp": "final\nVP", "color": "colour",
            "territories": "terr.", "eliminated": "out"}
# Columns of words (the rest hold numbers); the player's name gives way last.
WORD_COLUMNS = ("player", "power", "color", "continents")
WRAPPED_COLUMNS = ("continents",)  # a list of names: on two lines rather than cut
GAP = 2  # cells between two columns of the standings


class ResultsScreen(LedgerCalls, WarledgerScreen[None]):
    """A finished game. ctrl+z takes back the last step and reopens the game."""

    HELP_TITLE = "Results"
    BINDINGS = [
        Binding("ctrl+o", "home", "Saved games", id="home"),
        Binding("ctrl+z", "undo", "Undo last step", id="undo"),
        Binding("l", "league", "League", id="league"),
        Binding("h", "history", "History", id="history",
                tooltip="Every step recorded in this game"),
    ]

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="results"):
            yield Static(self.headline(), classes="title", id="headline")
            with Horizontal(id="results-body"):
                standings, explanation = self.standings(), self.explanation()
                missions = self.missions()
                with Vertical(id="results-tables"):
                    yield Static(standings, id="standings")
                    for text, widget in ((explanation, Static(explanation, classes="hint",
                                                              id="explanation")),
                                         (missions, Static(missions, id="missions"))):
                        widget.display = bool(text)  # no empty line where there is nothing
                        yield widget
                    if self.game.game == "soe":
                        yield Static("", classes="title", id="regions-title")
                        yield DataTable(id="regions", cursor_type="row", zebra_stripes=True)
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
        self.sub_title = self.app.as_seen_by_player(f"{game_name(self.game.game)} · results")
        if self.game.game == "soe":
            self.show_chart(*self.vp_by_war())
            # Each war's scoring is read back from the timeline, off the event loop.
            timeline = self.game.timeline
            self.call_ledger(lambda _ledger: vp_by_region(timeline), self.show_regions)
            return
        # The rounds are read back from the game's timeline, which may fold its past from
        # the database: off the event loop, like every ledger call.
        timeline, fixed = self.game.timeline, self.game.settings.mode == "fixed_rounds"
        self.call_ledger(lambda _ledger: rounds_chart(timeline, fixed),
                         lambda chart: self.show_chart(*chart))

    def vp_by_war(self) -> tuple[str, list[str], dict[str, list[int]]]:
        """Each player's VP after each war's scoring, then their final VP (after the unrest
        penalties and revolutions)."""
        state = self.game.state
        final = {row["player"]: row["final_vp"] for row in self.game.report()["standings"]}
        points = [f"war {war}" for war in range(1, len(state.vp_by_war) + 1)] + ["final"]
        return ("VP after each war, and final VP", points,
                {seat.name: [vp[seat.power] for vp in state.vp_by_war] + [final[seat.name]]
                 for seat in state.seats})

    def show_chart(self, heading: str, points: list[str], lines: dict[str, list[int]]) -> None:
        """The chart beside the tables, or under them when the screen is too narrow for
        both; no chart at all when no round was recorded with positions."""
        if not points:
            return
        from tui.widgets.charts import LineChart

        self.query_one("#results-body").mount(LineChart(heading, points, lines, id="progress"))
        self.place_chart()

    def show_regions(self, by_region: dict[str, dict[str, int]]) -> None:
        """Where each power's VP came from: a row per region, the wars added up, and their
        total (the VP before the unrest penalties). Its own keys scroll it (Tab to it)."""
        if not by_region:
            return
        powers = [seat.power for seat in self.game.state.seats]
        wars = len(self.game.state.vp_by_war)
        self.query_one("#regions-title", Static).update(
            "VP by region" + (f", wars 1 to {wars} added up" if wars > 1 else ""))
        table = self.query_one("#regions", DataTable)
        table.clear(columns=True)
        table.fixed_columns = 1  # the region stays in sight while the powers scroll
        table.add_column(literal("region"), key="region")
        for power in powers:
            table.add_column(literal(power, justify="right"), key=power)
        for region, vp in [*by_region.items(),
                           ("Total", {p: sum(row.get(p, 0) for row in by_region.values())
                                      for p in powers})]:
            table.add_row(literal(region), *(literal(vp.get(p) or "·", justify="right")
                                             for p in powers), key=region)

    def on_resize(self) -> None:
        self.place_chart()

    def place_chart(self) -> None:
        """Beside the tables when both fit the width, else under them (the screen scrolls)."""
        self.set_class(self.size.width < self.tables_width + CHART_AT_LEAST, "-chart-under")

    def headline(self) -> Text:
        report = self.game.report()
        winners = " and ".join(report["winners"])
        word = {"win": f"{winners} wins", "shared": f"Shared victory: {winners}",
                "draw": "A draw"}[report["result"]]
        unit = "war" if self.game.game == "soe" else "round"
        unit += "" if report["rounds"] == 1 else "s"
        return literal(f"{word}  ·  {report['format'].replace('_', ' ')}  ·  "
                       f"{len(report['standings'])} players  ·  {report['rounds']} {unit}")

    def explanation(self) -> Text | str:
        """Risk fixed-round scoring: how each score adds up and how the top was decided;
        Struggle of Empires: who fell into revolution."""
        state = self.game.state
        if self.game.game == "soe":
            from rules.soe.ending import REVOLUTION_AT

            fallen = [row for row in self.game.report()["standings"] if row["revolution"]]
            if not fallen:
                return ""
            names = [part for i, row in enumerate(fallen)
                     for part in ((", " if i else ""), (row["player"], "bold"),
                                  f" ({row['power']})")]
            return words(f"In revolution (unrest {REVOLUTION_AT} or more), final VP 0: ",
                         *names)
        if state.format != "fixed_round":
            return ""
        from tui.games.risk.game import scoring_lines

        return scoring_lines("How the scores add up", state)

    def standings(self) -> FittedTable:
        report = self.game.report()
        rows = report["standings"]
        # A column nobody has a value in (missions outside a missions game, nobody out) is
        # left out; missions and revolutions are sentences of their own, under the table.
        columns = [c for c in rows[0] if c not in ("rank", "mission", "revolution")
                   and any(r[c] is not None and r[c] is not False and r[c] != []
                           for r in rows)]
        return FittedTable(
            "Final standings", ["#", *(HEADINGS.get(c, c.replace("_", " ")) for c in columns)],
            [[literal(row["rank"]), *(literal(cell(row[c])) for c in columns)] for row in rows],
            word_columns=[i for i, c in enumerate(columns, 1) if c in WORD_COLUMNS[1:]],
            wrapped=[i for i, c in enumerate(columns, 1) if c in WRAPPED_COLUMNS],
            name=columns.index("player") + 1)

    def missions(self) -> Text | str:
        """Each player's secret mission, as a sentence: the game is over, the cards shown."""
        rows = [row for row in self.game.report()["standings"] if row.get("mission")]
        if not rows:
            return ""
        from rules.risk import mission_text

        return lines(words(("Missions", "bold")),
                     *(words((row["player"], "bold"), f" ({row['color']}): ",
                             mission_text(row["mission"])) for row in rows))

    def help_text(self) -> str:
        key = self.key_of
        regions = (" Tab goes to the VP by region, and its arrows scroll it."
                   if self.game.game == "soe" else "")
        return ("The game is over and its result is in the league. The arrows and Page "
                f"Up/Down scroll the results.{regions} {key('history')} shows every step "
                f"recorded. If the last step was wrong, {key('undo')} takes it back and "
                "reopens the game.")

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
        yield SystemCommand("Undo: last step", f"Reopen the game ({key('undo')})",
                            self.action_undo)
        yield SystemCommand("Open: league", f"League table ({key('league')})", self.action_league)
        yield SystemCommand("Show: history", f"Every step recorded in this game "
                            f"({key('history')})", self.action_history)


def cell(value) -> str:
    if isinstance(value, list):
        return ", ".join(value)
    if isinstance(value, bool):
        return "yes" if value else ""
    return "" if value is None else str(value)


class FittedTable:
    """A table drawn at the width it is given: every number whole; when the width is short,
    the `wrapped` columns (lists of names) go on more lines first, then the other
    `word_columns` are cut with "…", and the player's name (column `name`) last."""

    def __init__(self, title: str, headings: Sequence[str], rows: Sequence[Sequence[Text]],
                 *, word_columns: Sequence[int], wrapped: Sequence[int], name: int) -> None:
        self.title, self.headings, self.rows = title, list(headings), rows
        self.words, self.wrapped, self.name = list(word_columns), list(wrapped), name
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

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
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


def rounds_chart(timeline, fixed_rounds: bool) -> tuple[str, list[str], dict[str, list[int]]]:
    """A Risk game's chart: the score after each round with positions (fixed rounds), or
    the territories held (a conquest or missions game); no points if none was entered."""
    if fixed_rounds:
        heading, got = "Score after each round", score_by_round(timeline)
    else:
        heading, got = "Territories after each round", territories_by_round(timeline)
    return (heading, [str(r) for r in got.rounds],
            {name: list(values) for name, values in got.values.items()})
