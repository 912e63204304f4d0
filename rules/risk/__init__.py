"""Risk (RULES.md part A): world conquest, secret missions, fixed-round scoring.

board      continents, territories, bonuses, a player's position and its score
missions   the two mission decks, their texts, dealing, what counts can prove
settings   the victory mode, rounds, mission deck; the seats
state      the state and the fold (start, apply)
positions  positions read, worked out from territory owners, checked against the board
steps      every step: round, eliminate, concede, stalemate, mission_complete, tiebreak
           (each reads, writes and applies itself)
scoring    the ranking, the report and summary, scores and tie-breaks explained
describe   each step told in the players' words, for the history

Everything here is pure: values in, values out. A step is checked against the state it
is applied to and refused with a RuleError in the players' words.
"""

from rules.names import GAME_NAMES
from rules.risk.board import (
    CONTINENTS,
    DEFAULT_COLOURS,
    TERRITORIES,
    TERRITORY_COUNT,
    Position,
    board_order,
    bonus,
    colour_named,
    colour_played,
    continent_named,
    size,
    territory_named,
)
from rules.risk.describe import WORDS, describe
from rules.risk.missions import DECKS, deal, deck, mission_text
from rules.risk.positions import (
    MAX_ARMIES,
    Positions,
    check_positions,
    positions_from_owners,
    read_position,
    read_positions,
)
from rules.risk.scoring import (
    column_heading,
    explain_scores,
    explain_tiebreak,
    progress_of,
    ranked,
    report,
    summary,
    value_shown,
)
from rules.risk.settings import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    MISSION_LIMIT,
    MODES,
    RiskSeat,
    RiskSettings,
    read_players,
    read_settings,
)
from rules.risk.state import (
    PHASE_NAMES,
    STEPS,
    Announcement,
    Concession,
    RiskState,
    apply,
    start,
)
from rules.risk.steps import (
    Concede,
    Eliminate,
    MissionComplete,
    RoundStep,
    Stalemate,
    Tiebreak,
    read_step,
    unproven_claim,
)
from rules.ruleset import GameRules, Listed

RISK = GameRules(
    game="risk", name=GAME_NAMES["risk"], players=(MIN_PLAYERS, MAX_PLAYERS),
    phase_names=PHASE_NAMES, steps=STEPS, read_settings=read_settings,
    read_players=read_players, read_step=read_step, start=start, apply=apply, report=report,
    summary=summary, describe=describe,
    words=WORDS, column_heading=column_heading, value_shown=value_shown,
    # An id goes in only when it is known for certain, with where it came from: a wrong
    # id would file our plays under another game.
    elsewhere=Listed("Risk", 181, "https://boardgamegeek.com/boardgame/181/risk (the game's "
                     "page on BoardGameGeek: the classic Risk, Parker Brothers 1959)",
                     "color", "score", "round", colour_played),
)

__all__ = [
    "CONTINENTS", "DECKS", "DEFAULT_COLOURS", "MAX_ARMIES", "MAX_PLAYERS", "MIN_PLAYERS",
    "MISSION_LIMIT", "MODES", "PHASE_NAMES", "RISK", "STEPS", "TERRITORIES",
    "TERRITORY_COUNT", "Announcement", "Concede", "Concession", "Eliminate",
    "MissionComplete", "Position", "Positions", "RiskSeat", "RiskSettings", "RiskState",
    "RoundStep", "Stalemate", "Tiebreak", "apply", "board_order", "bonus", "check_positions",
    "colour_named", "colour_played", "continent_named", "deal", "deck", "describe", "explain_scores",
    "explain_tiebreak",
    "mission_text", "positions_from_owners", "progress_of", "ranked", "read_players",
    "read_position",
    "read_positions", "read_settings", "read_step", "report", "size", "start", "summary",
    "territory_named", "unproven_claim",
]
