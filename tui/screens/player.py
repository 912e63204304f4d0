"""A player's story in the group (from the league, on the highlighted player): games, wins,
rating with its uncertainty and over time, best side and seat per game (with the games each
rests on), longest winning run, nemesis and victim."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.widgets import DataTable, Static

from i18n import N_, _, ngettext
from rules.ratings import PROVISIONAL_BELOW, Rating
from rules.stats import Meeting, PlayerRecord, Tally
from tui.screens.registry import screens_of
from tui.screens.story import Counted, StoryScreen, rating_text, scope_name
from tui.text.formatting import PROVISIONAL, game_name, local_time, rating_hint
from tui.text.literal import filled, lines, literal
from tui.widgets.measured_table import MeasuredTable

if TYPE_CHECKING:
    from tui.widgets.charts import LineChart

BEST_HEADINGS = (N_("Game"), N_("Best"), N_("Won"))


@dataclass
class PlayerStory:
    """What the player screen shows, read in one worker."""

    record: PlayerRecord | None
    rating: Rating | None
    course: list  # [(when, conservative rating)] in the screen's scope, oldest first
    # (game, what: "side" or "seat", the side's id or the seat (0 first), its tally)
    best: list[tuple[str, str, object, Tally]] = field(default_factory=list)
    nemesis: Meeting | None = None  # as the player saw it
    victim: Meeting | None = None


def player_story(ledger, player: str, counted: Counted) -> PlayerStory:
    """`player`'s record, rating and course in the games `counted`, and how many games
    their best side and seat of each game rest on (all from the statistics)."""
    stats = ledger.stats(counted.group, counted.season)
    record = stats.players.get(player)
    story = PlayerStory(record, stats.rating(player, counted.scope),
                        list(stats.history.get(counted.scope, {}).get(player, [])))
    if record is None:
        return story
    for game in sorted(set(record.best_side) | set(record.best_seat)):
        side, seat = record.best_side.get(game), record.best_seat.get(game)
        if side is not None and side in record.sides.get(game, {}):
            story.best.append((game, "side", side, record.sides[game][side]))
        if seat is not None and seat in record.seats.get(game, {}):
            story.best.append((game, "seat", seat, record.seats[game][seat]))
    met = stats.head_to_head.get(player, {})
    story.nemesis = met.get(record.nemesis) if record.nemesis else None
    story.victim = met.get(record.victim) if record.victim else None
    return story


def best_of(game: str, what: str, which: object) -> str:
    """'Power: France', 'Seat 2': a best side in the game's own words, or a seat."""
    if what == "seat":
        return _("Seat {n}").format(n=int(which) + 1)  # type: ignore[call-overload]
    entry = screens_of(game)
    if entry is None or entry.side_word is None:
        return str(which)
    # TRANSLATORS: a player's best side: "Power: France", "Colour: red".
    return _("{side}: {name}").format(side=_(entry.side_word), name=entry.side_name(str(which)))


class PlayerScreen(StoryScreen):
    """One player's story in the games counted (the league's group and season; the
    rating in the league's game, or across every game)."""

    HELP_TITLE = N_("Player")

    def __init__(self, player: str, counted: Counted) -> None:
        super().__init__(counted)
        self.player = player

    def again(self) -> PlayerScreen:
        return PlayerScreen(self.player, self.counted)

    def title_line(self) -> Text:
        return filled(_("{player}: {where}"), player=(self.player, "bold"),
                      where=self.counted.where())

    def compose_body(self) -> ComposeResult:
        yield Static("", id="player-summary")
        yield Static("", id="player-hint", classes="hint")
        yield MeasuredTable(id="player-best", cursor_type="none", zebra_stripes=True,
                            show_cursor=False)

    def load(self, ledger) -> PlayerStory:
        return player_story(ledger, self.player, self.counted)

    def show(self, story: PlayerStory) -> None:
        self.story = story
        record = story.record
        summary = self.query_one("#player-summary", Static)
        if record is None:
            summary.update(filled(_("{player} has no finished game in {where}."),
                                  player=self.player, where=self.counted.where()))
            self.query_one("#player-hint", Static).display = False
            self.query_one("#player-best", DataTable).display = False
            return
        summary.update(lines(*self.summary_lines(story)))
        self.query_one("#player-hint", Static).update(rating_hint())
        self.list_best(story)
        self.show_course(story.course)

    def summary_lines(self, story: PlayerStory) -> list[Text]:
        record = story.record
        assert record is not None
        said = [
            literal(_("Games: {games} · wins: {wins} · longest winning run: {run}").format(
                games=record.games, wins=record.wins, run=record.longest_run)),
            filled(_("Rating in {scope}: {rating}"), scope=scope_name(self.counted.scope),
                   rating=(rating_text(story.rating), "bold")),
        ]
        if story.nemesis is not None:
            met = story.nemesis.games
            # TRANSLATORS: {nemesis} finished ahead of the player in {ahead} of the {games}
            # games they played together.
            said.append(filled(ngettext("Nemesis: {nemesis}, ahead of them in {ahead} of "
                                        "{games} game",
                                        "Nemesis: {nemesis}, ahead of them in {ahead} of "
                                        "{games} games", met),
                               nemesis=(record.nemesis, "bold"), ahead=story.nemesis.behind,
                               games=met))
        else:
            said.append(literal(_("Nemesis: nobody has finished ahead of them yet")))
        if story.victim is not None:
            met = story.victim.games
            # TRANSLATORS: the player finished ahead of {victim} in {behind} of the {games}
            # games they played together.
            said.append(filled(ngettext("Victim: {victim}, behind them in {behind} of "
                                        "{games} game",
                                        "Victim: {victim}, behind them in {behind} of "
                                        "{games} games", met),
                               victim=(record.victim, "bold"), behind=story.victim.ahead,
                               games=met))
        else:
            said.append(literal(_("Victim: they have not finished ahead of anyone yet")))
        return said

    def list_best(self, story: PlayerStory) -> None:
        table = self.query_one("#player-best", DataTable)
        table.clear(columns=True)
        table.add_columns(*(_(heading) for heading in BEST_HEADINGS))
        for game, what, which, tally in story.best:
            table.add_row(literal(game_name(game, short=self.narrow)),
                          literal(best_of(game, what, which)),
                          # TRANSLATORS: games won with a side or seat, of the games with it.
                          literal(_("{wins} of {games}").format(wins=tally.wins,
                                                                games=tally.games)))
        table.display = bool(story.best)

    def show_course(self, course: list) -> None:
        """The rating after each of their games, one line; none before a game is rated."""
        shown = self.query("#rating-chart")
        if not course:
            shown.remove()
            return
        heading = _("Rating in {scope}, game after game").format(
            scope=scope_name(self.counted.scope))
        points = [local_time(when, "dd MMM") for when, _rating in course]
        values = {self.player: [figure for _when, figure in course]}
        if shown:
            # #rating-chart is the RatingChart (a LineChart) made by rating_chart
            cast("LineChart", shown.first()).show(heading, points, values)
        else:
            self.mount(rating_chart(heading, points, values), before=self.query_one("Footer"))

    def help_text(self) -> str:
        return _("{player}'s games and wins in the group and season of the league, the "
                 "rating in the league's game (or across every game) with its uncertainty, "
                 "and the rating after each game. Best: the side and the seat they won most "
                 "often with, and in how many of their games with it. Nemesis: who finished "
                 "ahead of them most often; victim: whom they finished ahead of most often. "
                 "{mark} marks a provisional rating, resting on fewer than {games} games. "
                 "Escape goes back to the league.").format(
            player=self.player, mark=PROVISIONAL, games=PROVISIONAL_BELOW)

    def commands(self):
        yield SystemCommand(_("Back to the league"), _("Leave this player's story ({key})")
                            .format(key=self.key_of("back")), self.action_back)


def rating_chart(heading: str, points: list[str], values: dict[str, list[float]]):
    """A LineChart of ratings: figures with decimals, below zero too."""
    from tui.widgets.charts import LineChart, ticks_between  # plotext: only with a chart

    class RatingChart(LineChart):
        def value_ticks(self, values):
            return ticks_between(min(values, default=0), max(values, default=0))

    return RatingChart(heading, points, values, id="rating-chart")
