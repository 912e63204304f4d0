"""The parts of a play as a file gives them, read without trusting them: its players,
their names, sides and scores checked as typed ones are, its numbers, days and moments."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Any, NamedTuple, TypeGuard

from i18n import _
from rules.errors import RuleError
from rules.fields import distinct_name, plain_text, player_name, shown
from rules.game import rules_for
from rules.plays.play import (
    ANONYMOUS,
    ANONYMOUS_NAME,
    EARLIEST,
    PLAYER_COUNT,
    PLAYS_LIMIT,
    SCORE_LIMIT,
    Play,
    Player,
    PlaysFile,
    Said,
    listed,
    said_of,
)


def plays_of(format: str, items: Iterable[Any],
              read: Callable[[Any, Counter[str], dict[str, None], dict[Said, Said]], Play | None]
              ) -> PlaysFile:
    """Each of `items` read as a play (None: left, and counted in `skips` by why), the
    first problem named with the play's number; what the reading changed, said once each
    in `notes`."""
    skips: Counter[str] = Counter()
    notes: dict[str, None] = {}
    shared: dict[Said, Said] = {}
    plays: list[Play] = []
    for number, item in enumerate(items, 1):
        if number > PLAYS_LIMIT:
            raise RuleError(_("the file holds over {n} plays").format(n=PLAYS_LIMIT))
        try:
            play = read(item, skips, notes, shared)
        except RuleError as e:
            raise RuleError(_("play {number}: {reason}").format(number=number,
                                                                reason=e)) from None
        if play is not None:
            plays.append(play)
    distinct_sources(plays)
    return PlaysFile(format, tuple(plays), dict(skips), tuple(notes))



def kept_text(value: Any) -> str | None:
    """A text a file gives, kept as written to be written back; None when empty."""
    return value if isinstance(value, str) and value.strip() else None


class Raw(NamedTuple):
    """A player as a file gives them, before their name and side are checked."""

    name: str | None
    order: int | None  # where they sat, where the file says (a number orders the seats)
    side: Any
    score: Any
    won: bool
    place: int | None = None
    anonymous: bool = False
    position: str | None = None
    first: bool = False
    new: bool = False
    username: str | None = None
    userid: str | None = None
    uuid: str | None = None
    rank: int | None = None



ROLE_LIMIT = 1_000  # characters of a role kept as written: more is no role


def players_of(game: str, raw: list[Raw], notes: dict[str, None], shared: dict[Said, Said]
             ) -> tuple[Player, ...]:
    """The players of a play in seat order (its start positions, else the file's order),
    each name checked as one typed, two names that pass for each other refused; an
    anonymous player is a seat without a name to check. A name trimmed, or a role that
    cannot be kept, is said in `notes`; what the file says of each besides is one object
    for the same (`shared`)."""
    side_named = listed(game).side_named  # the game is one the files know
    order = sorted(range(len(raw)), key=lambda i: (raw[i].order is None, raw[i].order or 0, i))
    players: list[Player] = []
    for seat, i in enumerate(order):
        r = raw[i]
        anonymous = r.anonymous or r.name is None
        if anonymous:
            name = ANONYMOUS_NAME
        else:
            # TRANSLATORS: a play's player, by their place in the file.
            name = player_name(r.name, _("player {number}'s name").format(number=i + 1))
            distinct_name(name, (p.name for p in players if not p.anonymous))
            if isinstance(r.name, str) and r.name.strip() != r.name:
                # TRANSLATORS: {written} is the name as the file writes it, quoted, spaces
                # and all; {name} the name stored.
                notes[_("the name {written} was trimmed to {name}").format(
                    written=shown(r.name), name=shown(name))] = None
        # The texts kept are shared, not one copy a play: a file of 15,000 plays repeats
        # a few colours, positions and accounts (a copy each grew its import by 17 MiB).
        side = side_named(r.side, name) if isinstance(r.side, str) and r.side.strip() \
            else None
        role = _role(r.side, name, notes)
        said = said_of({"position": r.position, "first": r.first,
                        "role": None if role == side else role, "new": r.new,
                        "username": r.username, "userid": r.userid, "uuid": r.uuid,
                        "rank": r.rank}, shared)
        players.append(Player(name, seat, side, _score(r.score, name), r.won, r.place,
                              anonymous=anonymous, said=said))
    return tuple(players)


def _role(value: Any, name: str, notes: dict[str, None]) -> str | None:
    """What a player played as, as written, kept to be written back; a role that cannot
    be kept (control characters, or over ROLE_LIMIT characters) is said in `notes`."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        plain_text(value, _("{player}'s role").format(player=name), ROLE_LIMIT)
    except RuleError as e:
        # TRANSLATORS: {reason} says what is wrong with the role.
        notes[_("a role was not kept: {reason}").format(reason=e)] = None
        return None
    return value


def seats_the_game(game: str, players: list[Raw], skips: Counter[str]) -> bool:
    """Whether the play has as many players as the game takes, one a person at least (a
    play logged alone, with more than the box seats, or of anonymous players alone, is
    counted and left)."""
    low, high = rules_for(game).players
    if not low <= len(players) <= high:
        skips[PLAYER_COUNT] += 1
        return False
    if all(r.anonymous or r.name is None for r in players):
        skips[ANONYMOUS] += 1
        return False
    return True



def _score(value: Any, name: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,7}(\.0*)?\s*", value):
        value = int(float(value))
    elif isinstance(value, float) and value.is_integer():  # 12.0: a whole number still
        value = int(value)
    if not is_int(value) or abs(value) > SCORE_LIMIT:
        raise RuleError(_("{player}'s score must be a whole number, not {value}").format(
            player=name, value=shown(value)))
    return value


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(value: Any, what: str, high: int) -> int:
    if not is_int(value) or not 0 <= value <= high:
        raise RuleError(_("{what} must be a whole number from {low} to {high}, not {value}")
                        .format(what=what, low=0, high=high, value=shown(value)))
    return value


def number_in(value: str | None, what: str, *, low: int, high: int) -> int | None:
    """An attribute holding a whole number; None when it is missing or empty."""
    if value is None or not value.strip():
        return None
    # TRANSLATORS: {what} is the file's own name of the value (length, durationMin): keep it.
    if not re.fullmatch(r"\s*\d{1,13}\s*", value) or not low <= int(value) <= high:
        raise RuleError(_("{what} must be a whole number from {low} to {high}, not {value}")
                        .format(what=what, low=low, high=high, value=shown(value)))
    return int(value)


def day_of(value: Any) -> date:
    """A play's day, 2026-03-06."""
    try:
        day = date.fromisoformat(value) if isinstance(value, str) and \
            re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else None
    except ValueError:
        day = None
    if day is None or not EARLIEST <= day <= date.today() + timedelta(days=1):
        raise RuleError(_("its date must be a day like 2026-03-06 since 1950 and not "
                          "ahead of today, not {value}").format(value=shown(value)))
    return day


def moment_of(value: Any) -> datetime:
    """A BG Stats play's start, '2026-03-06 21:40:00' in the time of the phone that kept
    it: read in this machine's time zone."""
    when = None
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?",
                                               value):
        try:
            when = datetime.fromisoformat(value.replace(" ", "T"))
        except ValueError:
            when = None
    if when is None or not EARLIEST <= when.date() <= date.today() + timedelta(days=1):
        raise RuleError(_("its playDate must be a moment like 2026-03-06 21:40:00 since "
                          "1950 and not ahead of today, not {value}").format(
                              value=shown(value)))
    return when.astimezone(UTC)


def digest(*parts: Any) -> str:
    """An id for a play that carries none, from what it says (the same play, the same id)."""
    return "~" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


def distinct_sources(plays: list[Play]) -> None:
    """RuleError for a play given twice in one file: the same source, or the same own id."""
    seen: set[str] = set()
    for play in plays:
        for key in (play.source or "", play.own_id()):
            if key in seen:
                raise RuleError(_("the same play is in the file twice ({source})").format(
                    source=shown(key)))
            seen.add(key)
