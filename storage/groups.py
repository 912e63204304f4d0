"""Groups of friends and their seasons as the ledger reads them: names checked like any name
typed, a season's days turned into the moments between which a game finished in it, and
which group and season a league, history or statistics call is about.

A season's `starts` and `ends` are calendar days in the host's local time, both included: a
game finished at 23:30 local time on the last day is in; its `finished_at` is stored in UTC
and compared with the UTC moments of the season's first midnight and of the midnight after
its last day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Connection, select

from i18n import _
from rules.errors import RuleError
from rules.fields import looks_alike, player_name, spelled
from storage.connection import StorageError
from storage.core import GROUP_T, SEASON_T
from storage.records import SeasonRow

DEFAULT_GROUP = "Our table"  # where an older database's games went (migration 0005)


def group_name(value: Any) -> str:
    """A group's name as typed: trimmed and checked by a player's name's rules, no invisible
    characters among them (RuleError). Two groups that look alike are `refuse_look_alike`'s."""
    return player_name(value, _("The group's name"))


def season_name(value: Any) -> str:
    """A season's name as typed, checked as a group's is (RuleError). "All time" is not one:
    it is always there."""
    name = player_name(value, _("The season's name"))
    if name.casefold() in {"all time", _("All time").casefold()}:
        raise RuleError(_("{season} is always there: give the season another name").format(
            season=name))
    return name


def a_day(value: Any, what: str) -> date:
    """A calendar day: a date, or its ISO text (2026-03-01)."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    # TRANSLATORS: {what} is "The first day" or "The last day"; {value} what was given.
    raise RuleError(_("{what} must be a date such as 2026-03-01, not {value}").format(
        what=what, value=repr(value)))


def midnight(day: date) -> datetime:
    """The moment (in UTC) a calendar day of the host's local time begins."""
    return datetime.combine(day, time.min).astimezone().astimezone(UTC)


def season_moments(season: SeasonRow) -> tuple[datetime, datetime]:
    """The moments between which a game finished in the season: [first, after)."""
    return midnight(season.starts), midnight(season.ends + timedelta(days=1))


@dataclass(frozen=True)
class Scope:
    """What a league, history or statistics call covers: a group (None: every group) and a
    season of it (None: all time)."""

    group_id: int | None = None
    season_id: int | None = None
    season: SeasonRow | None = None

    @property
    def moments(self) -> tuple[datetime | None, datetime | None]:
        return season_moments(self.season) if self.season else (None, None)

    @property
    def rated_from(self) -> datetime | None:
        """The first moment of the games the ratings rest on: the season's first, unless
        its ratings carry over from every earlier game of the group."""
        if self.season is None or self.season.carry_over:
            return None
        return self.moments[0]

    @property
    def key(self) -> str:
        """Which group and season, as the statistics cache names them."""
        return f"g{self.group_id or '*'}/s{self.season_id or '*'}"


def find_group(conn: Connection, name: Any) -> tuple[int, str] | None:
    """(id, name) of the group called `name` (the same name, else the same but for case)."""
    if not isinstance(name, str) or not name.strip():
        return None
    name = name.strip()
    row = conn.execute(select(GROUP_T.c.id, GROUP_T.c.name)
                       .where(GROUP_T.c.name == name)).one_or_none()
    if row is not None:
        return row.id, row.name
    folded = [(i, n) for i, n in conn.execute(select(GROUP_T.c.id, GROUP_T.c.name))
              if n.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def refuse_look_alike(conn: Connection, name: str, but: int | None = None) -> None:
    """RuleError when a group other than `but` has the name `name`, case aside, or one that
    would pass for it (`Frіday` with a Cyrillic і, `Fri` + ZERO WIDTH JOINER + `day`)."""
    for gid, other in conn.execute(select(GROUP_T.c.id, GROUP_T.c.name)):
        if gid == but:
            continue
        if other.casefold() == name.casefold():
            raise RuleError(group_taken(other))
        if looks_alike(other, name):
            raise RuleError(_("There is a group {group} already, and {new} looks like it: "
                              "names must differ by more than look-alike or invisible "
                              "characters").format(group=spelled(other), new=spelled(name)))


def group_taken(name: str) -> str:
    return _("There is a group named {group} already").format(group=name)


def group_id(conn: Connection, name: Any) -> int:
    """The id of an existing group (StorageError if there is none of that name)."""
    found = find_group(conn, name)
    if found is None:
        raise StorageError(_("There is no group {group}").format(group=name))
    return found[0]


def season_rows(conn: Connection, group: int | None = None) -> list[tuple[int, SeasonRow]]:
    """(id, season) of a group's seasons (of every group when None), by group then start."""
    query = (select(SEASON_T.c.id, GROUP_T.c.name, SEASON_T.c.name, SEASON_T.c.starts,
                    SEASON_T.c.ends, SEASON_T.c.carry_over)
             .join_from(SEASON_T, GROUP_T, GROUP_T.c.id == SEASON_T.c.group_id)
             .order_by(GROUP_T.c.name, SEASON_T.c.starts, SEASON_T.c.name))
    if group is not None:
        query = query.where(SEASON_T.c.group_id == group)
    return [(row[0], SeasonRow(row[1], row[2], row[3], row[4], bool(row[5])))
            for row in conn.execute(query)]


def scope(conn: Connection, group: str | None, season: str | None) -> Scope:
    """The group and season named (StorageError for one not known). A season named without
    a group is looked for in every group: it must be in exactly one."""
    gid = None if group is None else group_id(conn, group)
    if season is None:
        return Scope(gid)
    wanted = season.strip() if isinstance(season, str) else season
    rows = season_rows(conn, gid)
    found = [(i, s) for i, s in rows if s.name == wanted]
    if not found and isinstance(wanted, str):
        found = [(i, s) for i, s in rows if s.name.casefold() == wanted.casefold()]
    if len({s.group for _, s in found}) > 1:
        raise StorageError(_("Season {season} is in more than one group ({groups}): name the "
                             "group").format(season=wanted,
                                             groups=", ".join(sorted({s.group
                                                                      for _, s in found}))))
    if len(found) != 1:
        if gid is not None:
            raise StorageError(_("The group {group} has no season {season}").format(
                group=group, season=wanted))
        raise StorageError(_("There is no season {season}").format(season=wanted))
    (sid, row), = found
    if gid is None:
        gid = conn.execute(select(SEASON_T.c.group_id)
                           .where(SEASON_T.c.id == sid)).scalar_one()
    return Scope(gid, sid, row)


def check_season(conn: Connection, gid: int, group: str, name: str, starts: date,
                 ends: date) -> None:
    """Refuse, in one line, a season that ends before it starts, takes a name the group has
    already, or overlaps another of the group's seasons (RuleError)."""
    if ends < starts:
        raise RuleError(_("The season {season} would end ({ends}) before it starts "
                          "({starts})").format(season=name, ends=ends.isoformat(),
                                               starts=starts.isoformat()))
    for _id, other in season_rows(conn, gid):
        if other.name.casefold() == name.casefold():
            raise RuleError(_("The group {group} has a season named {season} already").format(
                group=group, season=other.name))
        if looks_alike(other.name, name):
            raise RuleError(_("The group {group} has a season {season} already, and {new} "
                              "looks like it: names must differ by more than look-alike or "
                              "invisible characters").format(
                                  group=group, season=spelled(other.name), new=spelled(name)))
    for _id, other in season_rows(conn, gid):
        if other.starts <= ends and starts <= other.ends:
            raise RuleError(_(
                "The season {season} ({starts} to {ends}) would overlap {other} "
                "({other_starts} to {other_ends}): a group's seasons may not overlap").format(
                    season=name, starts=starts.isoformat(), ends=ends.isoformat(),
                    other=other.name, other_starts=other.starts.isoformat(),
                    other_ends=other.ends.isoformat()))


