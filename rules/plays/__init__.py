"""Plays kept elsewhere: BoardGameGeek's plays XML and the BG Stats app's export JSON, read
and written. A `Play` is a game as both files tell it: its date, length, players, sides,
scores and winners, no steps. Files are read without trusting them (defused XML, a size
limit, the text rules for names and dates); nothing here knows a database or a screen.

The formats, as their documentation gives them:
- BoardGameGeek XML API2 plays: `<plays>` holding `<play id date quantity length
  incomplete location>`, each with `<item name objecttype="thing" objectid>`,
  `<comments>` and `<players>` of `<player username userid name startposition color score
  new rating win/>`.
- BG Stats export: `{"players": [{"id", "name", "isAnonymous", "uuid", "bggUsername"}],
  "games": [{"id", "name", "bggId", "uuid"}], "locations": [{"id", "name", "uuid"}],
  "plays": [{"uuid", "gameRefId", "playDate", "durationMin", "ignored", "manualWinner",
  "rounds", "sourcePlayId", "bggId", "locationRefId", "comments", "playerScores":
  [{"playerRefId", "score", "winner", "newPlayer", "startPlayer", "startPosition",
  "seatOrder", "rank", "role"}]}]}` (newer exports seat players by `startPosition`, their
  `seatOrder` 0).
What a file says of a play besides its result is kept (Play, Player.said) and written
back, and nothing it did not say is made up (issue 49).

play      a Play and its players, what is kept of it besides its result, its report
reading   the parts of a play read from a file: players, sides, scores, days
bgg       BoardGameGeek's plays XML, written and read
bgstats   BG Stats' export JSON, written and read

Which games the files hold is each game's registration (`GameRules.elsewhere`): a game
that has none is refused in one line (`listed`), never written under another's name.
"""

from __future__ import annotations

import io
from typing import BinaryIO

from i18n import _
from rules.errors import RuleError
from rules.plays.bgg import (
    NOT_IN_XML,
    bgg_texts,
    bgg_tree,
    bgg_xml,
    in_the_days_order,
    read_bgg,
    warledger_line,
)
from rules.plays.bgstats import BGStatsRefs, bgstats_json, bgstats_texts, read_bgstats
from rules.plays.play import (
    ANONYMOUS,
    ANONYMOUS_NAME,
    BOM,
    FILE_LIMIT,
    HEAD_BYTES,
    OTHER_GAMES,
    PLAYER_COUNT,
    SEVERAL,
    UNFINISHED,
    Play,
    Player,
    PlaysFile,
    Said,
    game_played,
    kept_in,
    kept_json,
    key_of,
    listed,
    local_day,
    report_of,
    said_of,
    with_kept,
)

__all__ = [
    "ANONYMOUS", "ANONYMOUS_NAME", "BGStatsRefs", "FILE_LIMIT", "NOT_IN_XML", "OTHER_GAMES",
    "PLAYER_COUNT", "SEVERAL", "UNFINISHED", "Play", "Player", "PlaysFile", "Said", "bgg_texts",
    "bgg_tree", "bgg_xml", "bgstats_json", "bgstats_texts", "game_played", "in_the_days_order",
    "kept_in", "kept_json", "key_of", "listed", "local_day", "read_bgg", "read_bgstats",
    "read_plays", "report_of", "said_of", "warledger_line", "with_kept",
]


def read_plays(raw: bytes | BinaryIO) -> PlaysFile:
    """A file of plays (its bytes, or a binary file that can seek), BoardGameGeek XML or BG
    Stats JSON (told apart by its first character), checked whole and read as a stream;
    RuleError naming the first problem. Plays of other games, unfinished plays and plays
    logged several at once are counted, not read."""
    source = io.BytesIO(raw) if isinstance(raw, bytes | bytearray) else raw
    if source.seek(0, io.SEEK_END) > FILE_LIMIT:
        raise RuleError(_("the file is over {size} MB: too big to be a file of plays").format(
            size=FILE_LIMIT // (1024 * 1024)))
    source.seek(0)
    head = source.read(HEAD_BYTES)
    start = len(BOM) if head.startswith(BOM) else 0
    first = head[start:].lstrip()[:1]
    if first == b"<":
        return read_bgg(source)
    if first == b"{":
        return read_bgstats(source, start)
    raise RuleError(_("the file is neither BoardGameGeek plays XML nor BG Stats JSON"))

