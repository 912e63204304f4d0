"""The games and their phases as players name them: the light half of the rules' registry
(rules/game.py), kept apart from the rules so that what only names a saved game (the home
screen's list, `warledger sessions`) does not load them. `rules.game.register` adds a game
here too.

Game names are names: they are shown as they are printed, in every language. Phases and
what a game counts (wars, rounds) are words: they are kept as message ids and shown through
the catalogs (`phase_named`, `unit_numbered`, `units_counted`).
"""

from __future__ import annotations

from i18n import N_, _, ngettext

GAME_NAMES = {"soe": "Struggle of Empires", "risk": "Risk"}
SHORT_NAMES = {"soe": "SoE", "risk": "Risk"}  # as players write them, where room is short

# Each phase as the screens name it (message ids: `phase_named` shows one).
PHASE_NAMES = {
    "soe": {"actions": N_("Actions & income"), "upkeep": N_("Upkeep"),
            "population": N_("Population"), "scoring": N_("Scoring"),
            "end_war": N_("End of war"), "end_game": N_("End of game"),
            "finished": N_("Finished")},
    "risk": {"round": N_("Playing"), "tiebreak": N_("Tie to settle"),
             "finished": N_("Finished")},
}


def game_name(game: str, *, short: bool = False) -> str:
    """The game's name as players know it (`short`: as they write it); a tag no rules know
    is shown as it is."""
    return (SHORT_NAMES if short else GAME_NAMES).get(game, game)


def phase_named(game: str, phase: str) -> str:
    """A phase of `game` in the reader's language, capitalised as PHASE_NAMES names it
    ("End of war", "Sfârșitul războiului"); a phase no rules name is shown as its tag,
    with spaces for underscores."""
    names = PHASE_NAMES.get(game, {})
    return _(names[phase]) if phase in names else phase.replace("_", " ")


def unit_numbered(unit: str, number: int) -> str:
    """The one of what a game counts that is being played, as a line says it: 'war 2',
    'round 5' (lower case, for the middle of a line)."""
    if unit == "war":
        # TRANSLATORS: the war being played, in the middle of a line ("war 2 · upkeep").
        return _("war {number}").format(number=number)
    if unit == "round":
        # TRANSLATORS: the round being played, in the middle of a line ("round 5").
        return _("round {number}").format(number=number)
    return f"{unit} {number}"


def units_counted(unit: str, n: int) -> str:
    """How many of what a game counts: '1 war', '3 wars', '12 rounds'."""
    if unit == "war":
        return ngettext("{n} war", "{n} wars", n).format(n=n)
    if unit == "round":
        return ngettext("{n} round", "{n} rounds", n).format(n=n)
    return f"{n} {unit}" + ("" if n == 1 else "s")
