"""Struggle of Empires: the end of each war and the end of the game (RULES.md part B).

regions    the powers, the 11 VP regions, their printed values, scoring one region
settings   the options, the seats, the bounds on numbers typed
state      the state, the phase order and the fold (start, apply)
steps      every step: tax, adjust, board; income, upkeep, population, scoring, end_war;
           end_game (each reads, writes and applies itself)
scoring    the regions scored at the end of a war
ending     revolutions, unrest penalties, final VP, winners; the report and summary
describe   each step told in the players' words, for the history
"""

from rules.names import GAME_NAMES
from rules.ruleset import GameRules, Listed
from rules.soe.describe import WORDS, describe
from rules.soe.ending import (
    REVOLUTION_AT,
    REVOLUTION_WORDS,
    column_heading,
    in_revolution,
    report,
    revolution_words,
    summary,
    unrest_penalties,
    value_shown,
)
from rules.soe.regions import (
    KNOWN_VALUES,
    POWERS,
    REGIONS,
    Award,
    default_regions,
    non_players_matter,
    power_named,
    power_played,
    region_named,
    regions_missing_values,
    score_region,
    ties_are_friendly,
)
from rules.soe.scoring import score_regions, vp_of_last_scoring
from rules.soe.settings import (
    FRIENDLY_COUNTS,
    MAX_GOLD,
    MAX_MARKERS,
    MAX_PLAYERS,
    MAX_POPULATION,
    MAX_REGION_MARKERS,
    MAX_TAXATIONS,
    MAX_TOKEN,
    MAX_UNITS,
    MAX_UNREST,
    MAX_VP,
    MIN_PLAYERS,
    OPTIONS,
    UNFRIENDLY_COUNTS,
    SoeSeat,
    SoeSettings,
    counts_said,
    read_board,
    read_players,
    read_settings,
)
from rules.soe.state import (
    END_OF_WAR_CHECKLIST,
    EXPECTED,
    NEUTRAL_TOKENS_REMINDER,
    PHASE_NAMES,
    PHASES,
    STEPS,
    WARS,
    Empire,
    Ending,
    Grid,
    RegionResult,
    SoeState,
    Units,
    apply,
    start,
)
from rules.soe.steps import (
    POPULATION_GROWTH,
    Adjust,
    Board,
    EndGame,
    EndWar,
    Income,
    Population,
    Scoring,
    Tax,
    Upkeep,
    grown,
    read_grid,
    read_step,
)

SOE = GameRules(
    game="soe", name=GAME_NAMES["soe"], players=(MIN_PLAYERS, MAX_PLAYERS),
    phase_names=PHASE_NAMES, steps=STEPS, read_settings=read_settings,
    read_players=read_players, read_step=read_step, start=start, apply=apply,
    report=report, summary=summary, describe=describe,
    words=WORDS, column_heading=column_heading, value_shown=value_shown,
    read_board=read_board,
    # An id goes in only when it is known for certain, with where it came from.
    elsewhere=Listed("Struggle of Empires", 9625, "https://boardgamegeek.com/boardgame/9625/"
                     "struggle-of-empires (the game's page on BoardGameGeek: Martin Wallace, "
                     "Warfrog 2004; real plays files give it as objectid 9625)",
                     "power", "final_vp", "war", power_played),
)

__all__ = [
    "END_OF_WAR_CHECKLIST", "FRIENDLY_COUNTS", "REVOLUTION_WORDS", "UNFRIENDLY_COUNTS",
    "counts_said", "grown", "in_revolution", "non_players_matter", "revolution_words",
    "ties_are_friendly", "vp_of_last_scoring", "EXPECTED", "KNOWN_VALUES", "MAX_GOLD", "MAX_MARKERS",
    "MAX_PLAYERS", "MAX_POPULATION", "MAX_REGION_MARKERS", "MAX_TAXATIONS", "MAX_TOKEN",
    "MAX_UNITS", "MAX_UNREST",
    "MAX_VP", "MIN_PLAYERS", "NEUTRAL_TOKENS_REMINDER", "OPTIONS", "PHASES", "PHASE_NAMES",
    "POPULATION_GROWTH", "POWERS", "REGIONS", "REVOLUTION_AT", "SOE", "STEPS", "WARS",
    "Adjust", "Award", "Board", "Empire", "EndGame", "EndWar", "Ending", "Grid", "Income",
    "Population", "RegionResult", "Scoring", "SoeSeat", "SoeSettings", "SoeState", "Tax",
    "Units", "Upkeep", "apply", "default_regions", "describe", "power_named", "power_played", "read_grid",
    "read_players", "read_settings", "read_step", "region_named", "regions_missing_values",
    "report", "score_region", "score_regions", "start", "summary",
    "unrest_penalties",
]
