"""Words and numbers as the screens show them."""

from __future__ import annotations

from rules.names import PHASE_NAMES, game_name

__all__ = ["describe_where", "game_name", "local_time", "signed"]


def describe_where(listing) -> str:
    """'War 2 · upkeep', 'Round 5', or 'Finished' for a saved game."""
    if listing.status == "finished":
        return "Finished"
    # The rules name each phase ("End of war"); in the middle of a line it reads lower case.
    names = PHASE_NAMES.get(listing.game, {})
    phase = (names[listing.phase].lower() if listing.phase in names
             else listing.phase.replace("_", " "))
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
