"""Words and numbers as the screens show them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.names import PHASE_NAMES, game_name

if TYPE_CHECKING:
    from rules.outcome import Progress

__all__ = ["describe_where", "game_name", "local_time", "signed"]


def describe_where(listing) -> str:
    """'War 2 · upkeep', 'Round 5', or 'Finished' for a saved game."""
    if listing.finished:
        return "Finished"
    return where(listing.game, listing.progress).capitalize()


def where(game: str, progress: Progress) -> str:
    """'war 2 · upkeep', 'round 5', 'round 10 · tie to settle'."""
    at = f"{progress.unit} {progress.number}"
    return f"{at} · {phase_name(game, progress.phase)}" if progress.named else at


def phase_name(game: str, phase: str) -> str:
    """A phase as the rules name it ("End of war"), lower case for the middle of a line."""
    names = PHASE_NAMES.get(game, {})
    return names[phase].lower() if phase in names else phase.replace("_", " ")


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def local_time(moment, pattern: str = "EEE dd MMM HH:mm") -> str:
    """A stored (UTC) time in the player's own time zone and language (`pattern` is CLDR's:
    EEE the day, MMM the month, HH:mm the time)."""
    from datetime import UTC

    from i18n import format_moment

    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return format_moment(moment.astimezone(), pattern)
