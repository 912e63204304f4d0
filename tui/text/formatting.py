"""Words and numbers as the screens show them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from i18n import N_, _, language, pgettext
from rules.names import game_name, phase_named, unit_numbered, units_counted
from rules.progress import IMPORTED

if TYPE_CHECKING:
    from rules.progress import Progress
    from rules.ruleset import Words

__all__ = ["and_joined", "describe_where", "format_name", "game_name", "local_time",
           "outcome_name", "signed", "step_name", "units_counted"]


def describe_where(listing) -> str:
    """'War 2 · upkeep', 'Round 5', 'Finished' or 'Result only' for a saved game."""
    if listing.finished:
        # A game imported as a result only has no steps to be at.
        return _("Result only") if listing.progress.phase == IMPORTED else _("Finished")
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


def words_of(game: str) -> Words:
    """The game's own words (its rules' `words`); none for a game no rules know."""
    from rules.game import GAMES
    from rules.ruleset import Words

    rules = GAMES.get(game)
    return rules.words if rules is not None else Words()


def format_name(game: str, fmt: str | None, stalemate: bool = False) -> str:
    """How a finished game was decided (Report.format, RULES.md A.5), in words, as its game
    says it: 'world conquest'; a game ended in a stalemate (Report.stalemate) says so:
    'stalemate, scored'."""
    if not fmt:
        return ""
    if fmt == IMPORTED:
        return pgettext("how a game was decided", "result imported")
    words = words_of(game)
    return (stalemate and words.stalemate(fmt)) or words.decided(fmt) or fmt.replace("_", " ")


def outcome_name(outcome: str) -> str:
    """A player's league outcome in a game (rules.league.POINTS) in words: 'win'."""
    names = {"win": pgettext("league outcome", "win"),
             "draw": pgettext("league outcome", "draw"),
             "loss": pgettext("league outcome", "loss")}
    return names.get(outcome) or outcome


def step_name(game: str, kind: str) -> str:
    """A kind of step as a sentence names it ("Recorded: upkeep."), as its game says it:
    'end war'; undo and redo, the timeline's own."""
    names = {"undo": pgettext("step", "undo"), "redo": pgettext("step", "redo")}
    return names.get(kind) or words_of(game).step(kind) or kind.replace("_", " ")


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


# A rating on fewer than PROVISIONAL_BELOW games carries this mark (explained in the help
# and in a hint line under the table).
PROVISIONAL = "*"
# TRANSLATORS: the hint under the league table and on a player's screen; {mark} is "*",
# {games} is 5.
RATING_HINT = N_("Rating: μ − 3σ ± σ, its uncertainty; {mark} provisional, fewer than "
                 "{games} games.")


def one_decimal(number: float) -> str:
    """'18.2' (Romanian '18,2'): a rating as the reader writes a number, one decimal."""
    from babel.numbers import format_decimal

    rounded = round(number, 1)
    return format_decimal(rounded + 0.0 if rounded else 0.0, format="0.0", locale=language())


def rating_words(rating) -> str:
    """'18.2 ±2.1', and '3.0 ±6.2*' for a provisional rating (the mark's room kept by a
    space otherwise, so that figures stay in line)."""
    # TRANSLATORS: a rating and its uncertainty: "18.2 ±2.1".
    said = _("{rating} ±{sigma}").format(rating=one_decimal(rating.conservative),
                                         sigma=one_decimal(rating.sigma))
    return said + (PROVISIONAL if rating.provisional else " ")


def rating_hint() -> str:
    from rules.ratings import PROVISIONAL_BELOW

    return _(RATING_HINT).format(mark=PROVISIONAL, games=PROVISIONAL_BELOW)
