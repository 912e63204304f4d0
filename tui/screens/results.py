"""Results: final standings, the result and its format, and a chart of the game."""

from __future__ import annotations

from rich import box
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Static

from rules.risk.progress import score_by_round, territories_by_round
from tui.formatting import game_name
from tui.ledger_calls import LedgerCalls
from tui.literal import literal
from tui.screens.base import WarledgerScreen

# The chart goes beside the tables only with at least this many cells of width left for it.
CHART_AT_LEAST = 44


class ResultsScreen(LedgerCalls, WarledgerScreen[None]):
    """A finished game. ctrl+z takes back the last step and reopens the game."""

    HELP_TITLE = "Results"
    BINDINGS = [
        Binding("ctrl+o", "home", "Saved games", id="home"),
        Binding("ctrl+z", "undo", "Undo last step", id="undo"),
        Binding("l", "league", "League", id="league"),
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
                with Vertical(id="results-tables"):
                    yield Static(standings, id="standings")
                    yield Static(explanation, classes="hint", id="explanation")
        # The tables keep the width they need; the chart gets what is left, if enough.
        console = self.app.console
        unbounded = console.options.update_width(1_000)
        self.tables_width = max(Measurement.get(console, unbounded, standings).maximum,
                                Measurement.get(console, unbounded, explanation).maximum
                                + 2)  # the hint's padding
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
        """Risk fixed-round scoring: how each score adds up and how the top was decided."""
        state = self.game.state
        if self.game.game != "risk" or state.format != "fixed_round":
            return ""
        from tui.screens.risk_game import scoring_lines

        return scoring_lines("How the scores add up", state)

    def standings(self) -> Table:
        report = self.game.report()
        table = Table(title="Final standings", title_justify="left", box=box.SIMPLE_HEAD)
        rows = report["standings"]
        # A column nobody has a value in (missions outside a missions game) is left out.
        columns = [c for c in rows[0] if c != "rank" and any(r[c] is not None for r in rows)]
        table.add_column("#", justify="right")
        for col in columns:
            table.add_column(col.replace("_", " "),
                             justify="left" if col in ("player", "power", "color", "continents",
                                                       "mission") else "right")
        for row in rows:
            table.add_row(literal(row["rank"]), *(literal(cell(row[c], c)) for c in columns))
        return table

    def help_text(self) -> str:
        return ("The game is over and its result is in the league. If the last step was "
                f"wrong, {self.key_of('undo')} takes it back and reopens the game.")

    def action_home(self) -> None:
        self.app.pop_screen()

    def action_league(self) -> None:
        from tui.screens.league import LeagueScreen

        self.app.push_screen(LeagueScreen())

    def action_undo(self) -> None:
        session_id, seq, author = self.game.id, self.game.seq, self.app.player
        self.call_ledger(lambda ledger: ledger.undo(session_id, expected_seq=seq, author=author),
                         lambda game: self.app.show_game(game, instead=True))

    def commands(self):
        key = self.key_of
        yield SystemCommand("Undo: last step", f"Reopen the game ({key('undo')})",
                            self.action_undo)
        yield SystemCommand("Open: league", f"League table ({key('league')})", self.action_league)


def cell(value, column: str = "") -> str:
    if column == "mission" and value:
        from rules.risk import mission_text

        return mission_text(value)  # the game is over: the cards are shown
    if isinstance(value, list):
        return ", ".join(value)
    if isinstance(value, bool):
        return "yes" if value else ""
    return "" if value is None else str(value)


def rounds_chart(timeline, fixed_rounds: bool) -> tuple[str, list[str], dict[str, list[int]]]:
    """A Risk game's chart: the score after each round with positions (fixed rounds), or
    the territories held (a conquest or missions game); no points if none was entered."""
    if fixed_rounds:
        heading, got = "Score after each round", score_by_round(timeline)
    else:
        heading, got = "Territories after each round", territories_by_round(timeline)
    return (heading, [str(r) for r in got.rounds],
            {name: list(values) for name, values in got.values.items()})
