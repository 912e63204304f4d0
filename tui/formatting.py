"""Words and numbers as the screens show them."""

from __future__ import annotations

GAME_NAMES = {"soe": "Struggle of Empires", "risk": "Risk"}
PHASE_WORDS = {
    "actions": "actions & income", "upkeep": "upkeep", "population": "population",
    "scoring": "scoring", "end_war": "end of war", "end_game": "end of game",
    "round": "playing", "tiebreak": "tie to settle", "finished": "finished",
}


def game_name(game: str) -> str:
    return GAME_NAMES.get(game, game)


def describe_where(listing) -> str:
    """'War 2 · upkeep', 'Round 5', or 'Finished' for a saved game."""
    if listing.status == "finished":
        return "Finished"
    phase = PHASE_WORDS.get(listing.phase, listing.phase.replace("_", " "))
    if listing.game == "soe":
        return f"War {listing.war or 1} · {phase}"
    where = f"Round {(listing.round or 0) + 1}"
    return where if listing.phase == "round" else f"{where} · {phase}"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def local_time(moment, fmt: str = "%a %d %b %H:%M") -> str:
    """A stored (UTC) time in the player's own time zone."""
    from datetime import UTC

    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime(fmt)
