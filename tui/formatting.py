"""Words and numbers as the screens show them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from i18n import _, pgettext
from rules.names import game_name, phase_named, unit_numbered, units_counted

if TYPE_CHECKING:
    from rules.outcome import Progress

__all__ = ["and_joined", "describe_where", "format_name", "game_name", "local_time",
           "outcome_name", "signed", "step_name", "units_counted"]


def describe_where(listing) -> str:
    """'War 2 · upkeep', 'Round 5', or 'Finished' for a saved game."""
    if listing.finished:
        return _("Finished")
    return capitalized(where(listing.game, listing.progress))


def where(game: str, progress: Progress) -> str:
    """'war 2 · upkeep', 'round 5', 'round 10 · tie to settle'."""
    at = unit_numbered(progress.unit, progress.number)
    return f"{at} · {phase_name(game, progress.phase)}" if progress.named else at


def phase_name(game: str, phase: str) -> str:
    """A phase as the rules name it ("End of war"), lower case for the middle of a line."""
    return phase_named(game, phase).lower()


def capitalized(text: str) -> str:
    """`text` with its first letter a capital (the rest as it is)."""
    return text[:1].upper() + text[1:]


def format_name(fmt: str | None) -> str:
    """How a finished game was decided (Report.format, RULES.md A.5), in words: 'world
    conquest'."""
    if not fmt:
        return ""
    names = {
        "victory_points": pgettext("how a game was decided", "victory points"),
        "world_conquest": pgettext("how a game was decided", "world conquest"),
        "secret_mission": pgettext("how a game was decided", "secret mission"),
        "concession": pgettext("how a game was decided", "concession"),
        "fixed_round": pgettext("how a game was decided", "fixed round"),
        "agreed": pgettext("how a game was decided", "agreed"),
        "draw": pgettext("how a game was decided", "draw"),
    }
    return names.get(fmt) or fmt.replace("_", " ")


def outcome_name(outcome: str) -> str:
    """A player's league outcome in a game (rules.league.POINTS) in words: 'win'."""
    names = {"win": pgettext("league outcome", "win"),
             "draw": pgettext("league outcome", "draw"),
             "loss": pgettext("league outcome", "loss")}
    return names.get(outcome) or outcome


def step_name(kind: str) -> str:
    """A kind of step as a sentence names it ("Recorded: upkeep."): 'end war'."""
    names = {
        "tax": pgettext("step", "tax"), "adjust": pgettext("step", "adjust"),
        "board": pgettext("step", "board"), "income": pgettext("step", "income"),
        "upkeep": pgettext("step", "upkeep"), "population": pgettext("step", "population"),
        "scoring": pgettext("step", "scoring"), "end_war": pgettext("step", "end war"),
        "end_game": pgettext("step", "end game"), "round": pgettext("step", "round"),
        "eliminate": pgettext("step", "eliminate"), "concede": pgettext("step", "concede"),
        "stalemate": pgettext("step", "stalemate"),
        "mission_complete": pgettext("step", "mission complete"),
        "tiebreak": pgettext("step", "tiebreak"), "undo": pgettext("step", "undo"),
        "redo": pgettext("step", "redo"),
    }
    return names.get(kind) or kind.replace("_", " ")


def and_joined(names: Iterable[str]) -> str:
    """'Ana', 'Ana and Bo', 'Ana and Bo and Cy': names (or words) in one line."""
    joined = ""
    for i, name in enumerate(names):
        # TRANSLATORS: two names (or the names so far, and one more) in a line: "Ana and Bo".
        joined = _("{first} and {second}").format(first=joined, second=name) if i else name
    return joined


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
