"""What the two new-game screens share (each game's setup.py in tui/games): the evening's title,
the group the game goes in, one row per possible player with names from earlier games
offered and, once everyone seated has a rating in the game, their chance to win, the
message line, the Start / Back buttons and keys, and the creating of the game through the
ledger. Each game's screen adds only its own fields and reading of them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.suggester import SuggestFromList
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static
from textual.widgets.select import InvalidSelectValueError
from textual.worker import Worker

from i18n import N_, _, format_moment, ngettext
from rules.errors import RuleError
from rules.fields import TITLE_LIMIT, player_name, whole
from rules.ruleset import GameRules
from tui.plumbing.ledger_calls import LedgerCalls, while_live
from tui.screens.base import GRID_HEIGHT, GRID_WIDTH, WarledgerScreen
from tui.text.literal import TYPED_TEXT, filled, literal, visible
from tui.widgets.footer import Footer
from tui.widgets.header import Header

if TYPE_CHECKING:
    from textual.css.query import DOMQuery

# A group name typed: its players' ratings are read once the typing pauses this long.
GROUP_TYPING_PAUSE = 0.3  # seconds


def group_ratings(ledger, group: str, game: str) -> dict:
    """The ratings in `game` of the group named `group`; none for a group not made yet
    (the game creates it)."""
    if group not in {g.name for g in ledger.groups()}:
        return {}
    return dict(ledger.stats(group).ratings.get(game, {}))


def today() -> datetime:
    """Now, where the table is (the tests fix it)."""
    return datetime.now().astimezone()


def default_title(game: str, names: list[str],
                  taken: set[str] | frozenset[str] = frozenset()) -> str:
    """'Risk: Ana, Bo, Cy, 4 Dec': the game, who plays it and the day, in the reader's
    language, so that an evening's games are told apart (issue 44). Names that would pass
    the title's length are counted instead ('Ana, Bo +5'); a title `taken` by a game
    already saved gets the first number free after it ('… (2)')."""
    day = format_moment(today(), "d MMM")

    def title(players: str) -> str:
        if not players:
            # TRANSLATORS: a new game's title when no player is named yet: "Risk, 4 Dec".
            return _("{game}, {date}").format(game=game, date=day)
        # TRANSLATORS: a new game's title: "Risk: Ana, Bo, Cy, 4 Dec" ({players} with
        # commas).
        return _("{game}: {players}, {date}").format(game=game, players=players, date=day)

    shown = len(names)
    made = title(", ".join(names))
    while len(made) > TITLE_LIMIT - 4 and shown > 1:  # room for " (2)"
        shown -= 1
        made = title(", ".join(names[:shown]) + f" +{len(names) - shown}")
    made = made[:TITLE_LIMIT - 4]  # one name longer than the room: never a refused title
    number = 2
    first = made
    while made in taken:
        made, number = f"{first} ({number})", number + 1
    return made


class NewGameScreen(LedgerCalls, WarledgerScreen[int | None]):
    """Set up a game of `RULES`; dismisses with the new game's id, or None when left with
    Escape. A game's screen composes its fields around the player rows
    (`compose_before_players`, `compose_player`, `compose_after_players`) and reads them
    (`player`, `settings`)."""

    LEAST_SIZE = (GRID_WIDTH, GRID_HEIGHT)  # a row of the form needs 76 columns
    RULES: ClassVar[GameRules]
    # After "Players: 2 to 7": ", each with a different power" (a message id, or "").
    # The hint over the players' rows, one whole sentence per game ({low} and {high}: how
    # many may play); a game says more of its players in its own.
    PLAYERS_HINT: ClassVar[str] = N_("Players: {low} to {high}. A row with no name is left "
                                     "out; → takes a name offered from earlier games.")
    AUTO_FOCUS = "#title"
    BINDINGS = [
        Binding("ctrl+s", "start", N_("Start game"), id="start", priority=True),
        Binding("escape", "cancel", N_("Back"), id="cancel"),
    ]
    # What was typed, by field id, to put back into this screen made again (again()); the
    # fields that cannot take theirs yet (a list still loading) are tried again later.
    typed_before: dict[str, object] | None = None
    focus_before: str | None = None  # the id of the field that had the focus, then
    # Made again: whoever opened the first one no longer waits for its answer, so this one
    # opens the game it creates itself.
    remade = False
    # The ratings in this game of the group typed (player -> rules.ratings.Rating), and the
    # group they are of.
    _ratings: dict | None = None
    _rated_group: str | None = None
    _group_timer: Timer | None = None  # reads the ratings once the group's typing pauses
    # The game on its way to the database, and whether Back was typed behind it.
    _creating: Worker | None = None
    _back_when_created = False
    # The titles of the saved games (a default title is numbered past them), once read;
    # and whether the title field holds words of the user's, not the default.
    _titles: frozenset[str] = frozenset()
    own_title = False

    @property
    def game_shown(self) -> str:
        return self.RULES.game

    @property
    def seats(self) -> range:
        """The player rows' numbers, 1 to the most players the game takes."""
        return range(1, self.RULES.players[1] + 1)

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="setup", can_focus=False):
            yield Static(literal(_("New game: {game}").format(game=self.RULES.name)),
                         classes="title")
            with Horizontal(classes="setup-row"):
                yield Label(_("Title"), classes="setup-label")
                yield Input(self.default_title(), id="title", compact=True, restrict=TYPED_TEXT,
                            placeholder=_("what you will call this game"))
            yield from self.compose_before_players()
            yield Static(self.players_hint(), classes="hint", id="players-hint")
            for i in self.seats:
                with Horizontal(classes="setup-row player-row"):
                    yield Label(_("Player {n}").format(n=i), classes="setup-label")
                    yield Static("", id=f"chance-{i}", classes="win-chance")
                    yield Input(restrict=TYPED_TEXT, id=f"name-{i}", compact=True,
                                placeholder=_("name"), classes="player-name")
                    yield from self.compose_player(i)
            yield Static("", id="chances-hint", classes="hint")
            yield from self.compose_after_players()
            # Last of the fields, so that Tab goes from the title to the players as before.
            with Horizontal(classes="setup-row"):
                yield Label(_("Group"), classes="setup-label")
                yield Input(id="group", compact=True, restrict=TYPED_TEXT,
                            placeholder=_("the table it is played at; a new name makes one"))
            yield Static("", id="message", classes="message -error")
            with Horizontal(classes="setup-buttons"):
                yield Button(_("Start ({key})").format(key=self.key_of("start")), id="start",
                             variant="primary")
                yield Button(_("Back ({key})").format(key=self.key_of("cancel")), id="cancel")
        yield Footer()

    def compose_before_players(self) -> ComposeResult:
        """The game's fields above the player rows."""
        return ()

    def compose_player(self, seat: int) -> ComposeResult:
        """The fields of player row `seat` after the name."""
        return ()

    def compose_after_players(self) -> ComposeResult:
        """The game's fields below the player rows."""
        return ()

    def players_hint(self) -> str:
        low, high = self.RULES.players
        return _(self.PLAYERS_HINT).format(low=low, high=high)

    def default_title(self) -> str:
        """The title the game gets unless one is typed: the game, the names typed so far
        and the day (default_title)."""
        names = [field.value.strip() for field in self.query(".player-name").results(Input)]
        return default_title(self.RULES.name, [n for n in names if n], self._titles)

    def show_default_title(self) -> None:
        """The title field follows the players typed, until the user types a title."""
        if self.own_title:
            return
        field = self.query_one("#title", Input)
        title = self.default_title()
        if field.value != title:
            with field.prevent(Input.Changed):
                field.value = title
            if field.has_focus:  # as on focus: what is typed replaces the default
                field.select_all()

    def read_titles(self) -> None:
        def read(titles: list[str]) -> None:
            self._titles = frozenset(titles)
            self.show_default_title()

        self.call_ledger(lambda ledger: [g.title for g in ledger.games()], read, quiet=True)

    def on_mount(self) -> None:
        self.read_titles()
        self.offer_names()
        self.offer_groups()
        if self.typed_before:
            self.call_after_refresh(while_live(self, self.put_back_typing))

    # ------------------------------------------------------------ another language

    def again(self) -> NewGameScreen:
        """The same form, made again (in another language), with what was typed and
        chosen in it, and the focus where it was."""
        screen = type(self)()
        screen.remade = True
        fields = cast("DOMQuery[Input | Select[Any]]",  # what the selector matches
                      self.query("Input, Select"))
        screen.typed_before = {field.id: field.value for field in fields if field.id}
        screen.own_title = self.own_title
        if not self.own_title:  # the default, in the new language
            screen.typed_before.pop("title", None)
        screen.focus_before = self.focused.id if self.focused is not None else None
        return screen

    def put_back_typing(self, tries: int = 5) -> None:
        """The fields take back what was typed before the screen was made again, in the
        order they are on the screen (a choice can change the fields after it); a list
        whose choices are not in yet (they load from the database) is tried again in a
        moment."""
        typed = self.typed_before or {}
        for field in list(self.query("Input, Select")):
            if field.id not in typed:
                continue
            value = typed[field.id]
            try:
                if isinstance(field, Select) and field.value != value:
                    field.value = value
                elif isinstance(field, Input) and field.value != value:
                    field.value = str(value)
            except InvalidSelectValueError:  # not a choice of the list (yet): tried later
                continue
            del typed[field.id]
        if self.focus_before is not None:
            found: list[Widget] = list(self.query(f"#{self.focus_before}"))
            if found and found[0].focusable:
                found[0].focus()
                self.focus_before = None
        if (typed or self.focus_before) and tries > 1:
            self.set_timer(0.2, while_live(self, lambda: self.put_back_typing(tries - 1)))

    def offer_names(self) -> None:
        """The name fields offer the names of everyone who played before, once the ledger
        has said them (suggestions are a comfort: the form works without)."""
        def offer(names: list[str]) -> None:
            names = [n for n in names if visible(n) == n]  # an old row's controls never offered
            if names:
                suggester = SuggestFromList(names, case_sensitive=False)
                for field in self.query(".player-name").results(Input):
                    field.suggester = suggester

        self.call_ledger(lambda ledger: ledger.player_names(), offer, quiet=True)

    def group_help(self) -> str:
        """The help's words on the group field and the chances to win (each game's help
        ends with them)."""
        return _("Group, the last field: the table of friends the game goes in (the group "
                 "of the game created last, unless you type another; a new name makes a new "
                 "group). Once everyone seated has a rating in this game in that group, each "
                 "seat shows the player's chance to win, from the ratings.")

    def offer_groups(self) -> None:
        """The group field: the group of the game created last (unless something was typed
        meanwhile), the other groups offered, and the ratings of the group's players."""
        game = self.RULES.game

        def read(ledger) -> tuple[str, list[str], dict]:
            group = ledger.default_group()
            return group, [g.name for g in ledger.groups()], group_ratings(ledger, group, game)

        def offer(got: tuple[str, list[str], dict]) -> None:
            group, names, ratings = got
            field = self.query_one("#group", Input)
            names = [n for n in names if visible(n) == n]
            if names:
                field.suggester = SuggestFromList(names, case_sensitive=False)
            if not field.value and not (self.typed_before and "group" in self.typed_before):
                with field.prevent(Input.Changed):
                    field.value = group
            if field.value.strip() == group:
                self._ratings, self._rated_group = ratings, group
                self.show_chances()
            else:
                self.read_ratings()

        self.call_ledger(read, offer, quiet=True)

    def read_ratings(self) -> None:
        """The ratings of the group typed now (after a pause in the typing)."""
        group, game = self.query_one("#group", Input).value.strip(), self.RULES.game
        if group == self._rated_group:
            self.show_chances()
            return

        def rated(ratings: dict) -> None:
            self._ratings, self._rated_group = ratings, group
            self.show_chances()

        self.call_ledger(lambda ledger: group_ratings(ledger, group, game), rated,
                         group="ratings", quiet=True)

    def show_chances(self) -> None:
        """Each seated player's chance to win beside their row, once every one of them has
        a rating in this game in the group typed; nothing otherwise."""
        from rules.fields import person
        from rules.ratings import win_chances
        from tui.screens.story import percent

        seated = [(i, self.query_one(f"#name-{i}", Input).value.strip()) for i in self.seats]
        seated = [(i, name) for i, name in seated if name]
        # A name is its player's case aside (`cy` is the rated Cy): the game stores it so.
        rated = {person(name): name for name in self._ratings or ()}
        chances = (win_chances(self._ratings, [rated.get(person(name), name)
                                               for _i, name in seated])
                   if self._ratings and self.query_one("#group", Input).value.strip()
                   == self._rated_group else None)
        self.set_class(chances is not None, "-chances")
        hint = self.query_one("#chances-hint", Static)
        hint.display = chances is not None
        if chances is None:
            for i in self.seats:
                self.query_one(f"#chance-{i}", Static).update("")
            return
        by_seat = {i: chance for (i, _name), chance in zip(seated, chances, strict=True)}
        for i in self.seats:
            self.query_one(f"#chance-{i}", Static).update(
                percent(by_seat[i]) if i in by_seat else "")
        hint.update(filled(_("Beside each seat: the chance to win, from the ratings in {game} "
                             "of {group}."), game=self.RULES.name, group=self._rated_group))

    # ------------------------------------------------------------ reacting

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "title":
            # Typed over (emptied, the default comes back and follows the players again).
            self.own_title = bool(event.value.strip()) and event.value != self.default_title()
        if event.input.id == "group":
            self.show_chances()  # none until the group's ratings are read
            if self._group_timer is not None:
                self._group_timer.stop()
            self._group_timer = self.set_timer(GROUP_TYPING_PAUSE,
                                               while_live(self, self.read_ratings))
        elif event.input.has_class("player-name"):
            self.show_chances()
            self.show_default_title()

    def ledger_failed(self, message: str, error: BaseException) -> None:
        self.show_error(message)

    def show_error(self, text: str) -> None:
        self.query_one("#message", Static).update(literal(text))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter in a field moves on, as Tab does; ctrl+s starts the game.
        event.stop()
        self.focus_next()

    def button_actions(self) -> dict[str, Callable[[], None]]:
        """What each button does, by its id."""
        return {"start": self.action_start, "cancel": self.action_cancel}

    def on_button_pressed(self, event: Button.Pressed) -> None:
        action = self.button_actions().get(event.button.id or "")
        if action is not None:
            action()

    # ------------------------------------------------------------ reading the form

    def player(self, seat: int, name: str) -> dict[str, Any]:
        """Player row `seat`, named `name`, as a session-file player."""
        raise NotImplementedError

    def players(self) -> list[dict[str, Any]]:
        """The named rows as session-file players, in seat order. A name is checked here,
        under its row's number: the rules count only the named rows, and a wrong name in
        row 3 below an empty row 2 would be "player 2's name" there."""
        rows = []
        for i in self.seats:
            name = self.query_one(f"#name-{i}", Input).value.strip()
            if name:
                rows.append(self.player(i, player_name(name, _("player {n}'s name").format(n=i))))
        return rows

    def settings(self, players: list[dict[str, Any]]) -> dict[str, Any]:
        """The session file's settings from the game's fields (may complete `players`);
        RuleError, in the players' words, when a field is wrong."""
        raise NotImplementedError

    def whole_number(self, field_id: str, what: str, *, low: int | None = 0,
                     high: int | None = None) -> int:
        """The number in a field, within [low, high]; `what` is the field's label, so a
        refusal names the field as the screen does."""
        raw = self.query_one(f"#{field_id}", Input).value.strip()
        try:
            value = int(raw)
        except ValueError:
            raise RuleError(_("{what} must be a whole number").format(what=what)) from None
        return whole(value, what, low=low, high=high)

    # ------------------------------------------------------------ actions

    def action_start(self) -> None:
        if self._creating is not None and self._creating.is_running:
            return  # a doubled ctrl+s: this game is already on its way, once
        self.show_error("")
        title = self.query_one("#title", Input).value.strip() or self.default_title()
        try:
            players = self.players()
            low, high = self.RULES.players
            if len(players) < low:
                named = len(players)
                raise RuleError(ngettext(
                    "Name at least {low} players: {game} takes {low} to {high}, and {n} is "
                    "named",
                    "Name at least {low} players: {game} takes {low} to {high}, and {n} are "
                    "named", named).format(low=low, high=high, game=self.RULES.name, n=named))
            settings = self.settings(players)
        except RuleError as e:
            self.show_error(str(e))
            return
        self._back_when_created = False
        self._creating = self.create(title, settings, players)

    def create(self, title: str, settings: dict[str, Any],
               players: list[dict[str, Any]]) -> Worker:
        """Create the game through the ledger (the rules check it there), then leave with
        its id (`created`)."""
        game, group = self.RULES.game, self.group_typed()
        return self.call_ledger(lambda ledger: ledger.create_game(game, title, settings,
                                                                  players, group=group),
                                self.created)

    def group_typed(self) -> str | None:
        """The group the game goes in, as typed; None (the ledger's default) if empty."""
        return self.query_one("#group", Input).value.strip() or None

    def created(self, game) -> None:
        if self._back_when_created:
            self.dismiss(None)  # home, which lists the new game now that it is stored
            return
        self.dismiss(game.id)
        if self.remade:
            self.app.open_game(game.id)

    def action_cancel(self) -> None:
        if self._creating is not None and self._creating.is_running:
            # ctrl+s then Escape in one burst: the game is created, as the first key
            # asked, and Escape then goes home instead of into it (a failure stays here to
            # say why).
            self._back_when_created = True
            return
        self.dismiss(None)

    def commands(self):
        yield SystemCommand(_("Start game"), _("Create this {game} game and open it ({key})")
                            .format(game=self.RULES.name, key=self.key_of("start")),
                            self.action_start)
        yield SystemCommand(_("Back"), _("Leave without creating a game ({key})").format(
            key=self.key_of("cancel")), self.action_cancel)
