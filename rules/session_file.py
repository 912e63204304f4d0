"""The `warledger/1` session file: one game's settings, seats and steps, as JSON.

This is the one place that maps a whole file to typed values and back; the ledger stores
the same step objects as its `step` payloads.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from i18n import _
from rules.errors import RuleError
from rules.fields import TITLE_LIMIT, listing, obj, shown, text
from rules.game import GameRules, Step, rules_for
from rules.timeline import Timeline, read_step

FORMAT = "warledger/1"
# A game's own id: a UUID in its usual written form (any version; warledger makes random ones).
GAME_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True)
class SessionFile:
    """A checked session file: every step has been applied without breaking a rule."""

    rules: GameRules
    title: str
    settings: Any
    seats: tuple[Any, ...]
    steps: tuple[Step, ...]
    timeline: Timeline
    uid: str | None = None  # the game's own id ("id"), if the file carries one
    # When the game was set up and, once over, when it ended, if the file says: a game
    # replayed late keeps its place among the group's games (ratings go in date order).
    created_at: datetime | None = None
    finished_at: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return session_json(self.rules, self.title, self.settings, self.seats, self.steps,
                            uid=self.uid, created_at=self.created_at,
                            finished_at=self.finished_at)


class StepError(RuleError):
    """A step of a file that breaks a rule; `number` counts from 1."""

    def __init__(self, number: int, kind: str, reason: str) -> None:
        # TRANSLATORS: a session file's step refused: {kind} is its kind as the file writes
        # it ("tax"), {reason} the rule it breaks.
        super().__init__(_("step {number} ({kind}): {reason}").format(
            number=number, kind=kind, reason=reason))
        self.number = number


def session_json(rules: GameRules, title: str, settings: Any, seats: tuple[Any, ...],
                 steps: tuple[Step, ...] | list[dict[str, Any]], *,
                 uid: str | None = None, created_at: datetime | None = None,
                 finished_at: datetime | None = None) -> dict[str, Any]:
    """The session file object for a game (with its own id as "id", when it has one, and
    when it was set up and ended, when known)."""
    moments = {key: moment_json(when) for key, when in (("created_at", created_at),
                                                         ("finished_at", finished_at))
               if when is not None}
    return {
        "format": FORMAT, **({"id": uid} if uid is not None else {}), "game": rules.game,
        "title": title, **moments, "settings": settings.to_json(),
        "players": [seat.to_json() for seat in seats],
        "steps": [s if isinstance(s, dict) else s.to_json() for s in steps],
    }


def moment_json(when: datetime) -> str:
    """'2026-03-06T21:40:00.123456+00:00': a moment as session files write it (UTC, as
    exact as the database keeps it, so that a game replayed keeps its place to the
    microsecond)."""
    return when.astimezone(UTC).isoformat()


def moment(value: Any, what: str) -> datetime:
    """A moment a session file gives ("2026-03-06T21:40:00+00:00"; without an offset, UTC)."""
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) and len(value) <= 40 \
            else None
    except ValueError:
        when = None
    if when is None:
        # TRANSLATORS: {what} is the file's key (created_at, finished_at): keep it.
        raise RuleError(_("{what} must be a date and time like 2026-03-06T21:40:00+00:00, "
                          "not {value}").format(what=what, value=shown(value)))
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def game_id(value: Any) -> str:
    """A session file's "id": a UUID written 8-4-4-4-12 hex digits (any case; kept in lower
    case, as warledger writes it), or a RuleError naming what it is instead."""
    if isinstance(value, str) and len(value) == 36 and GAME_ID.fullmatch(value.lower()):
        return value.lower()
    raise RuleError(_("the game's id must be a UUID like {example}, not {value}").format(
        example="'0b6c1a9e-3f1d-4c55-9a4e-2d7f0c8b1e42'", value=shown(value)))


class DuplicateKey(ValueError):
    """A JSON object with the same key twice: which value was meant cannot be told."""


def _without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict; a key given twice is refused (json.loads would keep the
    last value without a word)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise DuplicateKey(key)
        found[key] = value
    return found


def parse_text(raw: str | bytes) -> Any:
    """JSON text to objects, or a RuleError that says where it broke. An object with a key
    twice is refused, the key named."""
    try:
        return json.loads(raw, object_pairs_hook=_without_duplicates)
    except UnicodeDecodeError:
        raise RuleError(_("the file is not text (UTF-8 JSON expected)")) from None
    except json.JSONDecodeError as e:
        # TRANSLATORS: {problem} is Python's own words, in English ("Expecting value").
        raise RuleError(_("the file is not valid JSON: {problem} at line {line} column "
                          "{column}").format(problem=e.msg, line=e.lineno,
                                             column=e.colno)) from None
    except RecursionError:
        raise RuleError(_("the file is nested too deeply to be a session file")) from None
    except DuplicateKey as e:
        raise RuleError(_("the file gives the key {key} twice in one object; say it "
                          "once").format(key=shown(e.args[0]))) from None
    except ValueError:  # an integer of thousands of digits (Python's int_max_str_digits)
        raise RuleError(_("the file holds a number too long to be a count")) from None


def read_session(data: Any) -> SessionFile:
    """Check a whole session file and fold its steps; raises RuleError (StepError for a step)."""
    d = obj(data, _("the session file"), {"format", "game", "players", "steps"},
            {"id", "title", "settings", "created_at", "finished_at"})
    if d["format"] != FORMAT:
        # TRANSLATORS: format is the session file's key: keep it.
        raise RuleError(_("format must be {expected}, not {value}").format(
            expected=repr(FORMAT), value=repr(d["format"])))
    uid = game_id(d["id"]) if "id" in d else None
    rules = rules_for(d["game"])
    title = text(d.get("title") or _("Untitled game"), _("The title"), TITLE_LIMIT)
    settings = rules.read_settings(d.get("settings"))
    seats = rules.read_players(d["players"], settings)
    timeline = Timeline(rules, rules.start(settings, seats))
    steps: list[Step] = []
    # TRANSLATORS: the session file's list of steps.
    for number, raw in enumerate(listing(d["steps"], _("steps")), 1):
        kind = raw.get("kind", "?") if isinstance(raw, dict) else "?"
        try:
            step = read_step(rules, raw)
            timeline = timeline.then(step)
        except RuleError as e:
            raise StepError(number, str(kind), str(e)) from None
        steps.append(step)
    created = moment(d["created_at"], "created_at") if "created_at" in d else None
    finished = moment(d["finished_at"], "finished_at") if "finished_at" in d else None
    if finished is not None and not timeline.state.finished:
        raise RuleError(_("finished_at is given but the game is not over after its steps"))
    if finished is not None and created is not None and finished < created:
        raise RuleError(_("finished_at is before created_at"))
    return SessionFile(rules, title, settings, seats, tuple(steps), timeline, uid, created,
                       finished)
