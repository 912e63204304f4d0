"""A third game, kept in the tests: two players race to 10 points, one step kind. It proves
that a game fits in its own packages (its rules here in rules.py, its screens in screens.py)
and joins warledger through the two registries, with no shared file changed.

`register()` adds it; `unregister()` takes it out again (tests/test_third_game.py does both
around each test)."""

from __future__ import annotations


def register() -> None:
    from rules.game import register as register_rules
    from tests.race_game.rules import RACE
    from tests.race_game.screens import SCREENS
    from tui.screens.registry import register as register_screens

    register_rules(RACE, short_name="Race")
    register_screens(SCREENS)


def unregister() -> None:
    from rules.game import unregister as unregister_rules
    from tests.race_game.rules import RACE
    from tui.screens.registry import unregister as unregister_screens

    unregister_screens(RACE.game)
    unregister_rules(RACE.game)
