"""The registry of the games' screens, by the rules' tag: what the shared screens need to
know of each game, and nothing more.

Each game keeps every screen of its own in one package (`tui/games/<game>/`: its game
screen, setup, forms, dialogs, result words, demo), beside its rules in `rules/<game>/`, and
its package's `__init__` registers its `GameScreens` entry here. The shared screens (home,
results, league, help, rules help) and the command line know a game only through its entry,
so adding a game is a package of rules, a package of screens and one `register` call for
each (rules.game.register, register here); no shared file changes.

The registry sits below the screens, which import it as any module; the games' packages,
which build on the screens, register into it. What runs the screens (the app, the command
line) imports `tui.games`, which brings in the games of this warledger.

Entries name their screens as "module:attribute" and load them when first asked: the home
screen lists the games without importing any game's screens.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any, NamedTuple


# Records as NamedTuples, not dataclasses: this module loads before the home screen's
# first frame, where each dataclass made costs over half a millisecond.
class MoreScreen(NamedTuple):
    """A screen of a game's own that the home screen offers (Struggle of Empires' board
    profiles): its key, its footer word, its palette entry and the screen, made with no
    argument. The words are message ids (N_): the home screen shows them through `_()`."""

    key: str
    binding_id: str
    footer: str
    palette: tuple[str, str]  # (title, help) in the command palette
    screen: str  # "module:Class"


class Figure(NamedTuple):
    """A figure the scoreboard shows of each player in large digits: the key of a
    `Standing`'s details (rules/outcome.py) it reads, and its label (a message id)."""

    key: str
    label: str


class GameScreens(NamedTuple):
    """One game's screens, as the shared screens ask for them."""

    game: str  # the rules' tag (rules.game.GAMES)
    new_key: str  # home: the key that sets up a new game of it
    league_key: str  # league: the key that shows its games only
    setup: str  # "module:Class": made with no argument; dismisses with the new game's number
    play: str  # "module:Class": made with (game, draft), while the game is played
    results: str  # "module:attribute": its ResultWords (tui/screens/results.py)
    rules_section: str  # the anchor of its section in rules/README.md
    demo: str | None = None  # "module:function": (ledger) -> (game number, stored now)
    more: tuple[MoreScreen, ...] = ()
    # What a player plays as, for the group's statistics (the balance, a player's best):
    # the game's word for it (a message id: N_("Power")), and "module:function" showing a
    # side's stored id in the reader's language (the rules' `shown`). None: no sides.
    side_word: str | None = None
    side_names: str | None = None
    # The balance's column of the average final score (a message id), or None for none.
    score_word: str | None = None
    # Whether the balance shows the win rate by seat (where the order of play matters).
    seat_balance: bool = False
    # The scoreboard's figures of each player, in order; none: the Standing's score.
    scoreboard: tuple[Figure, ...] = ()

    @property
    def new_binding(self) -> str:
        return f"new_{self.game}"

    @property
    def league_binding(self) -> str:
        return f"league_{self.game}"

    def side_name(self, side: str) -> str:
        """A side (stored by its id) as the reader's language names it."""
        return load(self.side_names)(side) if self.side_names else side


SCREENS: dict[str, GameScreens] = {}


def register(entry: GameScreens) -> GameScreens:
    """`entry`'s game gets its screens; its rules are registered with rules.game.register.
    Registering a tag again replaces its entry (a test's game, registered per test)."""
    taken = {other.new_key for other in SCREENS.values() if other.game != entry.game}
    if entry.new_key in taken:
        raise ValueError(f"{entry.game}: the home key {entry.new_key!r} is another game's")
    SCREENS[entry.game] = entry
    return entry


def unregister(game: str) -> None:
    SCREENS.pop(game, None)


def games() -> Iterator[GameScreens]:
    """Every game with screens, in the order registered."""
    return iter(tuple(SCREENS.values()))


def screens_of(game: str) -> GameScreens | None:
    return SCREENS.get(game)


def load(where: str) -> Any:
    """The attribute a "module:attribute" names, imported now."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def store_demos(ledger) -> list[tuple[int, bool]]:
    """Store the demo games this database does not hold yet (each game's own, its entry's
    `demo`): (game number, whether it was stored now) of each, in the order the games are
    registered. Each has a fixed id of its own, so asking again (`warledger demo`, `d` on
    the home screen) keeps the ones stored as they are, played or not."""
    return [load(g.demo)(ledger) for g in games() if g.demo]
