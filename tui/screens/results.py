"""Results: final standings, the result and its format, and a chart of the game."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from tui.formatting import game_name
from tui.ledger_calls import LedgerCalls
from tui.literal import literal
from tui.screens.base import WarledgerScreen
from tui.widgets.themed import follow_theme, part_style

BAR = "█"


class ResultsScreen(LedgerCalls, WarledgerScreen[None]):
    """A finished game. ctrl+z takes back the last step and reopens the game."""

    HELP_TITLE = "Results"
    # The colour of each war's bars in the Struggle of Empires chart (app.tcss).
    COMPONENT_CLASSES = {"results--war-1", "results--war-2", "results--war-3"}
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
            yield Static(self.standings(), id="standings")
            yield Static(self.explanation(), classes="hint", id="explanation")
            yield Static("", id="chart")
        yield Footer()

    @property
    def game_shown(self) -> str:
        return self.game.game

    def on_mount(self) -> None:
        self.title = self.game.title
        self.sub_title = self.app.as_seen_by_player(f"{game_name(self.game.game)} · results")
        self.show_chart()
        follow_theme(self, self.show_chart)

    def show_chart(self) -> None:
        self.query_one("#chart", Static).update(self.chart())

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

    def chart(self) -> Table:
        """VP after each war (Struggle of Empires) or each player's score (Risk), as bars."""
        state = self.game.state
        table = Table(box=None, show_header=False, padding=(0, 1), title_justify="left")
        table.add_column(style="bold")
        table.add_column()
        table.add_column()
        if self.game.game == "soe":
            table.title = "VP after each war"
            peak = max((v for vp in state.vp_by_war for v in vp.values()), default=0) or 1
            for seat in state.seats:
                for war, vp in enumerate(state.vp_by_war, 1):
                    value = vp[seat.power]
                    bar = part_style(self, f"results--war-{min(war, 3)}")
                    table.add_row(literal(seat.name if war == 1 else ""), f"war {war}",
                                  Text(BAR * round(30 * value / peak), style=bar)
                                  + Text(f" {value}"))
            return table
        rows = [r for r in self.game.report()["standings"] if r.get("score") is not None]
        if all(r.get("eliminated") for r in rows):
            rows = []  # no position was recorded: only the eliminated players' zeros
        table.title = "Score" if rows else None
        peak = max((r["score"] for r in rows), default=0) or 1
        for r in rows:
            table.add_row(literal(r["player"]), "", Text(BAR * round(30 * r["score"] / peak),
                                                style=bar_style(r.get("color")))
                          + Text(f" {r['score']}"))
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


# Table colours Rich has no name for, or that vanish on a dark background.
BAR_COLOURS = {"pink": "hot_pink", "black": "grey50"}


def bar_style(colour: str | None) -> str:
    """A Rich style for a player's colour; a colour Rich cannot draw gives plain bars."""
    from rich.color import Color, ColorParseError

    name = BAR_COLOURS.get(colour or "", colour or "")
    try:
        Color.parse(name)
    except ColorParseError:
        return ""
    return name
