"""The scoreboard: a game as the whole table sees it on a shared screen (a TV, a spare
laptop), read-only and live.

Each player's figures in large digits (which figures: the game's `GameScreens.scoreboard`
in tui/games), the war or round and its phase, who leads (who won, once over), and the last
step in the history's words. It follows other terminals' steps as the game screen does
(storage/watch.py, in a worker) and, when it was opened without a game, follows the table
from game to game: a game that starts being played takes the board. Nothing on it records:
its only key leaves it.

It fills the window it gets: `fit` picks how many cards a row holds and whether there is
room for Textual's Digits (three rows high) or only for a line of bold figures per player;
`big_scale` draws the figures larger (tui/scoreboard/digits.py) where a card has the room.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.renderables.digits import Digits as DigitsShape
from textual.screen import Screen
from textual.widgets import Digits, Static
from textual.worker import Worker

from i18n import N_, _, ngettext, pgettext
from tui.plumbing.ledger_calls import LedgerCalls, while_live
from tui.scoreboard.digits import BigDigits, big_rows, big_width
from tui.screens.base import ScreenFeatures
from tui.screens.registry import Figure, screens_of
from tui.text.formatting import and_joined, capitalized, format_name, where
from tui.text.literal import filled, literal, words
from tui.widgets.footer import Footer
from tui.widgets.header import Header

if TYPE_CHECKING:
    from rules.outcome import Report, Standing
    from storage.ledger import Ledger
    from storage.records import LoggedStep
    from storage.watch import GameWatch

# Another terminal's steps: a look waits (in a worker thread) up to LOOK_WAITS seconds for
# one; a new look starts within LIVE_EVERY of the last one's end (as on the game screen).
LIVE_EVERY = 0.05
LOOK_WAITS = 0.5

# A card with digits: its border (2 rows), the figures' labels (1) and the digits (3).
CARD_ROWS = 6
# Rows that are not cards: the header, the line saying where the game is, the footer, and
# the last step's lines (more of them from 30 rows: app.tcss, -short and -tall).
CHROME_ROWS = 3
LAST_STEP_ROWS = {True: 2, False: 3}  # short window: its lines
SHORT_BELOW = 30
# BigDigits where a card has room for them at this scale at least (10 rows high, more than
# three times Digits' 3), up to BIG_AT_MOST (a 300x80 TV's cards).
BIG_FROM, BIG_AT_MOST = 2, 8
NAME_ROOM = 14  # of a name in a card's border: what is longer is cut there
# What a figure is shown as when the game has none (a Risk score in a game with no score).
NO_FIGURE = "-"
SCORE = Figure("", N_("Score"))  # a game that names no figures: each player's score


@dataclass(frozen=True)
class Board:
    """What the scoreboard shows of a game, read in a worker: its number, title and tag,
    where its steps are (seq, when the last was recorded), its players in seat order, its
    report, who leads, its last step as the history says it, and where its result was kept
    (an imported game's 'BoardGameGeek'; None for a game played here)."""

    id: int
    title: str
    game: str
    seq: int
    updated_at: datetime
    players: tuple[str, ...]
    report: Report
    leader: str | None
    last: LoggedStep | None
    kept_in: str | None = None


def board_of(ledger: Ledger, session_id: int) -> Board:
    """The board of game `session_id`. In a worker thread: it folds the game's steps."""
    game = ledger.load(session_id)
    report = game.report()
    state = getattr(game, "state", None)
    if state is None:  # known by its result alone (imported): no steps, nobody leads
        players = tuple(getattr(game, "seated", ()) or (s.player for s in report.standings))
        leader, log = None, []
    else:
        from storage.records import LoadedGame  # in the worker: storage is there already

        assert isinstance(game, LoadedGame)  # a game with a state took steps
        players = tuple(seat.name for seat in state.seats)
        leader, log = game.rules.summary(state).leader, ledger.step_log(session_id)
    return Board(game.id, game.title, game.game, game.seq, game.updated_at, players, report,
                 leader, log[-1] if log else None, getattr(game, "source_name", None))


@dataclass(frozen=True)
class Fit:
    """How the cards fill the window: so many to a row, with digits or as lines."""

    columns: int
    digits: bool


def fit(width: int, height: int, players: int, card_width: int) -> Fit:
    """The way `players` cards of at least `card_width` columns fill a window of
    `width` x `height`: digits wherever they fit, in the number of columns that makes the
    cards nearest to square on the screen (a cell is about twice as tall as it is wide);
    else one line of bold figures per player, in as many columns as the rows need."""
    room = height - CHROME_ROWS - LAST_STEP_ROWS[height < SHORT_BELOW]
    players = max(players, 1)
    best: tuple[float, int] | None = None
    for columns in range(1, players + 1):
        rows = math.ceil(players / columns)
        card_w, card_h = width // columns, room // rows
        if card_w < card_width or card_h < CARD_ROWS:
            continue
        squareness = min(card_w / 3, card_h)
        if best is None or squareness > best[0]:
            best = (squareness, columns)
    if best is not None:
        return Fit(best[1], True)
    return Fit(min(players, max(1, math.ceil(players / max(room, 1)))), False)


def big_scale(card_width: int, card_height: int, figures: list[tuple[int, int]]) -> int:
    """The scale of BigDigits that fills a card of `card_width` x `card_height` best, for
    `figures` of (label's length, most characters) each; 0 (Textual's Digits, three rows)
    when the card has no room for BIG_FROM."""
    inner_width, inner_height = card_width - 4, card_height - 3  # border, padding, label
    for scale in range(BIG_AT_MOST, BIG_FROM - 1, -1):
        wide = (sum(max(label, big_width(characters, scale)) for label, characters in figures)
                + (len(figures) + 1) * figure_margin(scale))
        if big_rows(scale) <= inner_height and wide <= inner_width:
            return scale
    return 0


def figure_margin(scale: int) -> int:
    """Columns on each side of a figure (Textual collapses the two between figures into
    one): with BigDigits, a digit's width (three pixels), so that two figures never read
    as one number; else one."""
    return 6 * scale if scale else 1


def digits_width(value: str) -> int:
    return DigitsShape.get_width(value)


class FigureBox(Vertical):
    """One figure of a player: its label over its digits (Textual's Digits, three rows; or,
    on a big screen, BigDigits at the scale the screen gives it)."""

    def __init__(self, label: str, value: str) -> None:
        super().__init__(classes="sb-figure")
        self.label, self.value = label, value
        self.scale = 0  # 0: Digits; else BigDigits at this scale

    def compose(self) -> ComposeResult:
        yield Static(literal(self.label), classes="sb-label")
        yield Digits(self.value)
        yield BigDigits(self.value, self.scale or BIG_FROM)

    def on_mount(self) -> None:
        # The scale the screen chose while this box was being made.
        self.show(self.value, getattr(self.screen, "figure_scale", 0))

    def width_needed(self) -> int:
        """As wide as its label or its figure, whichever is wider."""
        figure = (big_width(len(self.value), self.scale) if self.scale
                  else digits_width(self.value))
        return max(len(self.label), figure)

    def show(self, value: str, scale: int | None = None) -> None:
        """Show `value`, and at `scale` when given (0: Digits, else BigDigits)."""
        if scale is not None:
            self.scale = scale
        if value != self.value:
            self.value = value
            for digits in self.query(Digits).results(Digits):  # none until composed
                digits.update(value)
        for big in self.query(BigDigits).results(BigDigits):
            big.value, big.scale = value, self.scale or BIG_FROM
        self.styles.width = self.width_needed()
        self.styles.margin = (0, figure_margin(self.scale))


class PlayerCard(Vertical):
    """A player's card: their name in its border, their side beneath, their figures in
    digits (or, in a small window, one line with the figures in bold)."""

    def __init__(self, player: str, figures: tuple[Figure, ...]) -> None:
        super().__init__(classes="sb-card")
        self.player = player
        self.figures = figures
        self.values = [NO_FIGURE] * len(figures)
        self.shown: tuple[Standing | None, str, bool] = (None, "", False)
        self.border_title = literal(player)

    def compose(self) -> ComposeResult:
        yield Static(self.line(), classes="sb-line")
        with Horizontal(classes="sb-figures"):
            for figure, value in zip(self.figures, self.values, strict=True):
                yield FigureBox(_(figure.label), value)

    def show(self, standing: Standing | None, side: str, leads: bool) -> None:
        """The player's figures as `standing` has them; `side` is what they play as, in
        words; `leads`: the board singles them out (the leader, a winner)."""
        self.values = [figure_of(standing, figure) for figure in self.figures]
        self.shown = (standing, side, leads)
        out = standing is not None and standing.out
        self.set_class(leads, "-leader")
        self.set_class(out, "-out")
        aside = out_word() if out else ""
        self.border_subtitle = literal(" · ".join(part for part in (side, aside) if part))
        if self.is_mounted:
            self._draw()

    def on_mount(self) -> None:
        self._draw()

    def _draw(self) -> None:
        """What the card holds shows the figures (none of it before it is composed)."""
        for line in self.query(".sb-line").results(Static):
            line.update(self.line())
        for box, value in zip(self.query(FigureBox), self.values, strict=False):
            box.show(value)

    def line(self) -> Text:
        """The card in a line, for a window with no room for digits: 'Ana (France)  VP 12'."""
        standing, side, _leads = self.shown
        parts: list[Any] = [(self.player, "bold")]
        if side:
            parts.append(f" ({side})")
        for figure, value in zip(self.figures, self.values, strict=True):
            parts += ["  ", _(figure.label), " ", (value, "bold")]
        if standing is not None and standing.out:
            parts.append("  · " + out_word())
        return words(*parts)

    def width_needed(self) -> int:
        """Columns the card needs for its digits: each figure as wide as its label or its
        digits, two between them, its border and padding, a name's room in the border."""
        figures = sum(max(len(_(f.label)), digits_width(v))
                      for f, v in zip(self.figures, self.values, strict=True))
        figures += 2 * (len(self.figures) - 1)
        return max(figures, min(len(self.player), NAME_ROOM)) + 4


def out_word() -> str:
    """What a card says of a player out of the game (eliminated, conceded, in revolution)."""
    return pgettext("a player on the scoreboard", "out of the game")


def figure_of(standing: Standing | None, figure: Figure) -> str:
    """A player's figure as the digits show it."""
    if standing is None:
        return NO_FIGURE
    value = standing.details.get(figure.key) if figure.key else standing.score
    if isinstance(value, bool) or not isinstance(value, int):
        return NO_FIGURE
    return str(value)


class ScoreboardScreen(LedgerCalls, ScreenFeatures, Screen[None]):
    """The scoreboard of game `session`, or (None) of the game played last, following the
    table to the next game as it starts."""

    HELP_TITLE = N_("Scoreboard")
    BINDINGS = [Binding("escape,ctrl+o", "back", N_("Back"), id="back",
                        tooltip=N_("Back to the screen before the scoreboard"))]

    def __init__(self, session: int | None = None, board: Board | None = None) -> None:
        super().__init__()
        self.following = session is None
        self.session = session
        self.board = board  # what is shown; None until the first look answers
        self._cards_for: tuple | None = None  # the game and players the cards are for
        self._cards: list[PlayerCard] = []
        self._watch: GameWatch | None = None  # on the game shown, made in a look
        self._watching: int | None = None  # the game it watches
        self._gone = False
        self._looking: Worker | None = None
        self.figure_scale = 0  # BigDigits' scale where the cards have room, else 0: Digits

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(_("Reading the game…"), id="sb-where")
        yield Grid(id="sb-players")
        yield Static("", id="sb-last")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.heading()
        if self.board is not None:
            self.show(self.board)
        else:  # the first board is ledger work like any screen's (tests wait for it)
            self._looking = self.call_ledger(self.first_board, self._looked_at)
        self.set_interval(LIVE_EVERY, while_live(self, self.look_for_changes))

    def first_board(self, ledger: Ledger) -> Board | None:
        """The game named, else the game played last; None when there is no game."""
        session = self.session
        if session is None:
            latest = ledger.last_played()
            if latest is None:
                return None
            session = latest[0]
        return board_of(ledger, session)

    def on_unmount(self) -> None:
        self._gone = True
        watch, self._watch = self._watch, None
        if watch is not None:  # in a worker: closing may talk to the database
            # both apps that show the scoreboard (its own, WarledgerApp) call the ledger
            assert isinstance(self.app, LedgerCalls)
            self.app.call_ledger(lambda ledger: watch.close(), group="watch-close",
                                 quiet=True)

    def heading(self) -> str:
        said = (_("Scoreboard: following the table") if self.following
                else _("Scoreboard"))
        viewer = getattr(self.app, "as_seen_by_player", None)
        return viewer(said) if viewer is not None else said

    # ------------------------------------------------------------ looking

    def look_for_changes(self) -> None:
        """A look in a worker: has the game shown moved (another terminal's step), or, when
        following the table, has another game started being played since?"""
        if self._looking is not None and self._looking.is_running:
            return
        shown, following = self.board, self.following
        if shown is None and not following:
            return  # the game named could not be read: said on the board
        session = shown.id if shown is not None else None

        def look(ledger: Ledger) -> Board | None:
            from storage.connection import StorageError

            moved = False
            if shown is not None:
                try:
                    watch = self._watch_on(ledger, shown.id)
                    if watch is None:
                        return None  # the screen has gone: nobody to show a board to
                    moved = watch.newer_than(shown.seq, wait=LOOK_WAITS) is not None
                except StorageError:  # the game was deleted
                    if not following:
                        return None
            else:
                time.sleep(LOOK_WAITS)  # no game yet: looks come no more often than this
            if following:
                latest = ledger.last_played()
                if latest is not None and latest[0] != session and (
                        shown is None or (latest[1] and latest[2] > shown.updated_at)):
                    return board_of(ledger, latest[0])
            # moved only when a game is shown
            return board_of(ledger, shown.id) if moved and shown is not None else None

        self._looking = self.call_ledger(look, self._looked_at, group="watch", quiet=True)

    def _watch_on(self, ledger: Ledger, session: int) -> GameWatch | None:
        """The watch on game `session` (in the look's thread), made anew for another game;
        None once the screen has gone."""
        if self._watch is not None and self._watching != session:
            old, self._watch = self._watch, None
            old.close()
        if self._watch is None:
            self._watch, self._watching = ledger.watch(session), session
            if self._gone:  # the screen went while the watch was made: close it here
                watch, self._watch = self._watch, None
                watch.close()
        return self._watch

    def _looked_at(self, board: Board | None) -> None:
        if board is not None:
            self.show(board)
        elif self.board is None and self.following:
            self.query_one("#sb-where", Static).update(
                _("No game to show yet: the scoreboard shows the next game as soon as it is "
                  "set up."))

    def ledger_failed(self, message: str, error: BaseException) -> None:
        self.query_one("#sb-where", Static).update(literal(message))

    # ------------------------------------------------------------ showing

    def show(self, board: Board) -> None:
        """Show `board`: the cards are made anew only for another game or other players."""
        self.board = board
        self.session = board.id
        self.title = board.title
        entry = screens_of(board.game)
        figures = (entry.scoreboard if entry is not None else ()) or (SCORE,)
        key = (board.id, board.players, figures)
        grid = self.query_one("#sb-players", Grid)
        if key != self._cards_for:
            self._cards_for = key
            grid.remove_children()
            self._cards = [PlayerCard(name, figures) for name in board.players]
            grid.mount_all(self._cards)
        standings = {standing.player: standing for standing in board.report.standings}
        leaders = (set(board.report.winners) if board.report.finished
                   else {board.leader} if board.leader else set())
        for card in self.cards():
            standing = standings.get(card.player)
            side = (entry.side_name(standing.side) if entry is not None and standing
                    and standing.side else "")
            card.show(standing, side, card.player in leaders)
        self.fit_window()
        self.query_one("#sb-where", Static).update(self.where_words(board))
        self.query_one("#sb-last", Static).update(self.last_words(board.last,
                                                                     board.kept_in))

    @staticmethod
    def where_words(board: Board) -> Text:
        """'War 2 · upkeep · Leader: Bo', or how the game ended."""
        report = board.report
        if report.finished:
            if report.result == "draw" or not report.winners:
                said = literal(_("Finished: a draw"))
            else:
                said = filled(ngettext("Finished: {players} won", "Finished: {players} won",
                                       len(report.winners)),
                              players=(and_joined(report.winners), "bold"))
            how = format_name(report.game, report.format, report.stalemate)
            return words(said, f" ({how})") if how else said
        at = capitalized(where(board.game, report.progress)) if report.progress else ""
        if not board.leader:
            return literal(at)
        return words(at, " · ", filled(_("Leader: {player}"), player=(board.leader, "bold")))

    @staticmethod
    def last_words(last: LoggedStep | None, kept_in: str | None = None) -> Text:
        """The last step recorded, as the history tells it, and who recorded it; of an
        imported game, where its result came from."""
        if kept_in is not None:
            # TRANSLATORS: {source} is BoardGameGeek or BG Stats.
            return literal(_("Result imported from {source}: no steps were recorded here.")
                           .format(source=kept_in))
        if last is None:
            return literal(_("No step recorded yet."))
        if last.author:
            # TRANSLATORS: {player} recorded the last step; {step} is the history's line.
            return filled(_("Last step, by {player}: {step}"), player=(last.author, "bold"),
                          step=last.said)
        return filled(_("Last step: {step}"), step=last.said)

    # ------------------------------------------------------------ the window

    def on_resize(self, event: events.Resize) -> None:
        self.fit_window()

    def cards(self) -> list[PlayerCard]:
        """The cards of the game shown (those of the game before may be on their way out)."""
        return self._cards

    def fit_window(self) -> None:
        cards = self.cards()
        if not cards:
            return
        size = self.app.size
        chosen = fit(size.width, size.height, len(cards),
                     max(card.width_needed() for card in cards))
        rows = math.ceil(len(cards) / chosen.columns)
        scale = 0
        if chosen.digits:
            room = size.height - CHROME_ROWS - LAST_STEP_ROWS[size.height < SHORT_BELOW]
            figures = [(max(len(_(card.figures[i].label)) for card in cards),
                        max(len(card.values[i]) for card in cards))
                       for i in range(len(cards[0].figures))]
            scale = big_scale((size.width - 2 - (chosen.columns - 1)) // chosen.columns,
                              room // rows, figures)
        self.set_class(chosen.digits, "-digits")
        self.set_class(not chosen.digits, "-lines")
        self.set_class(bool(scale), "-big")
        self.figure_scale = scale
        for box in self.query(FigureBox):
            box.show(box.value, scale)
        grid = self.query_one("#sb-players", Grid)
        grid.styles.grid_size_columns = chosen.columns
        grid.styles.grid_size_rows = rows
        grid.styles.grid_rows = "1fr" if chosen.digits else "1"

    # ------------------------------------------------------------ what the app asks

    def action_back(self) -> None:
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back":  # the spectator's app has no screen to go back to
            stack = self.app.screen_stack
            return self in stack and stack.index(self) > 1
        return True

    def help_text(self) -> str:
        return _("The game as the whole table sees it: it follows every step recorded at "
                 "any terminal, and records nothing.")

    def again(self) -> ScoreboardScreen:
        return ScoreboardScreen(None if self.following else self.session, self.board)
