"""The games and their phases as players name them: the light half of the rules' registry
(rules/game.py), kept apart from the rules so that what only names a saved game (the home
screen's list, `warledger sessions`) does not load them. `rules.game.register` adds a game
here too."""

from __future__ import annotations

GAME_NAMES = {"soe": "Struggle of Empires", "risk": "Risk"}
SHORT_NAMES = {"soe": "SoE", "risk": "Risk"}  # as players write them, where room is short

# Each phase as the screens name it.
PHASE_NAMES = {
    "soe": {"actions": "Actions & income", "upkeep": "Upkeep", "population": "Population",
            "scoring": "Scoring", "end_war": "End of war", "end_game": "End of game",
            "finished": "Finished"},
    "risk": {"round": "Playing", "tiebreak": "Tie to settle", "finished": "Finished"},
}


def game_name(game: str, *, short: bool = False) -> str:
    """The game's name as players know it (`short`: as they write it); a tag no rules know
    is shown as it is."""
    return (SHORT_NAMES if short else GAME_NAMES).get(game, game)
