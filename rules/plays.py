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
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, BinaryIO, NamedTuple

from i18n import _
from rules.errors import RuleError
from rules.fields import (
    COLOUR_LIMIT,
    TITLE_LIMIT,
    distinct_name,
    escaped,
    plain_text,
    player_name,
    shown,
)
from rules.outcome import FINISHED, IMPORTED, Placing, Report, Standing, ranks
from rules.session_file import GAME_ID
from rules.streams import json_items, json_shape, xml_children

# A file of plays: years of a group's plays are a few megabytes.
FILE_LIMIT = 16 * 1024 * 1024
PLAYS_LIMIT = 100_000  # plays in one file
HEAD_BYTES = 4096  # read to tell the formats apart
BOM = b"\xef\xbb\xbf"
REFS_LIMIT = 20_000  # players, or games, a BG Stats file lists
PLAYERS_LIMIT = 20  # players in one play (more is no game of ours; the file is refused)
SCORE_LIMIT = 1_000_000
MINUTES_LIMIT = 7 * 24 * 60  # a week of play
EARLIEST = date(1950, 1, 1)  # Risk is from 1957: an older date is a mistake
# The ids of the games warledger writes, from the games' own: the same in every file.
NAMESPACE = uuid.UUID("5b0f7f57-3c1a-4f1e-9a43-1f6d2c7e8a90")


class Listed(NamedTuple):
    """A game as BoardGameGeek and BG Stats list it: its name there, its BoardGameGeek id
    (None where it is not known for certain: its plays are matched by name) and where that
    id came from; how its side and its score are named in its standings."""

    name: str
    bgg_id: int | None
    bgg_id_from: str
    side: str  # the standings' key of what a player played as
    score: str  # the standings' key of the score the game ranks by
    unit: str  # what its rounds count


# The one table of the games' names and BoardGameGeek ids. An id goes in only when it is
# known for certain, with where it came from; a wrong id would file our plays under
# another game.
ELSEWHERE: dict[str, Listed] = {
    "risk": Listed("Risk", 181, "https://boardgamegeek.com/boardgame/181/risk (the game's "
                   "page on BoardGameGeek: the classic Risk, Parker Brothers 1959)",
                   "color", "score", "round"),
    "soe": Listed("Struggle of Empires", 9625, "https://boardgamegeek.com/boardgame/9625/"
                  "struggle-of-empires (the game's page on BoardGameGeek: Martin Wallace, "
                  "Warfrog 2004; real plays files give it as objectid 9625)",
                  "power", "final_vp", "war"),
}


@dataclass(frozen=True, slots=True)  # slots: a file holds tens of thousands
class Player:
    """One player of a play: `seat` counts from 0 in table order."""

    name: str
    seat: int
    side: str | None  # a Risk colour, a Struggle of Empires power, by its stored id
    score: int | None
    won: bool
    # Where they finished (rules.outcome.ranks), where the file says: BG Stats' `rank`, the
    # places a warledger game writes in its BoardGameGeek comments; None where it does not.
    place: int | None = None
    anonymous: bool = False  # a seat without a person (BoardGameGeek's "Anonymous player")
    said: Said | None = None  # what the file says of them besides (None: nothing)

    # What the file says of them besides, kept to be written back (issue 49).
    @property
    def position(self) -> str | None:
        return self.said.position if self.said else None

    @property
    def first(self) -> bool:
        return self.said.first if self.said else False

    @property
    def role(self) -> str | None:
        return self.said.role if self.said else None

    @property
    def new(self) -> bool:
        return self.said.new if self.said else False

    @property
    def username(self) -> str | None:
        return self.said.username if self.said else None

    @property
    def userid(self) -> str | None:
        return self.said.userid if self.said else None

    @property
    def uuid(self) -> str | None:
        return self.said.uuid if self.said else None

    @property
    def rank(self) -> int | None:
        return self.said.rank if self.said else None


@dataclass(frozen=True, slots=True)
class Said:
    """What a file says of a player besides their result, kept to be written back (issue
    49). One object for the players of a file who are said the same (Player.said): a file
    of 15,000 plays repeats a few colours and positions."""

    position: str | None = None  # their start position as written ("2"); None: not said
    first: bool = False  # the start player, where the file says so (BG Stats)
    role: str | None = None  # what they played as, as written, where it is not `side`
    new: bool = False  # new to the game (BoardGameGeek's new, BG Stats' newPlayer)
    username: str | None = None  # their BoardGameGeek account (bggUsername in BG Stats)
    userid: str | None = None  # its number on BoardGameGeek
    uuid: str | None = None  # their own id in BG Stats
    rank: int | None = None  # BG Stats' rank as written, where it is not a place (0)


NOTHING_SAID = Said()


@dataclass(frozen=True, slots=True)
class Play:
    """One game as the files tell it."""

    game: str  # the rules' tag
    started: datetime  # when it began (a file that gives only a day: noon UTC that day)
    minutes: int | None  # how long it lasted, where known
    finished: bool
    players: tuple[Player, ...]  # in seat order
    title: str | None = None
    rounds: int = 0
    uid: str | None = None  # a warledger game's own id, where the file carries it
    source: str | None = None  # where it was kept: "bgg:123", "bgstats:<uuid>"
    # When it ended as the league counts it: a game played here, when it ended; a play the
    # file gives a day alone (BoardGameGeek), noon UTC that day, a second after the play
    # before it that day (read_bgg), so a day's plays keep their order whatever their
    # lengths. None: its start and length say when.
    ends: datetime | None = None
    # What the file says of it besides, kept to be written back (issue 49):
    location: str | None = None  # where it was played
    location_uuid: str | None = None  # the location's own id in BG Stats
    comments: str | None = None  # its comments as written (without a warledger line)
    bgg_play: int | None = None  # its BoardGameGeek play id (BG Stats' play bggId)
    manual_winner: bool = False  # BG Stats: the winners were picked by hand
    game_uuid: str | None = None  # the game's own id in BG Stats

    @property
    def finished_at(self) -> datetime:
        """When it ended: `ends`, else its start and length."""
        return self.ends or self.ended_by_length

    @property
    def ended_by_length(self) -> datetime:
        """Its start and its length: what the files' `length` and `durationMin` keep."""
        return self.started + timedelta(minutes=self.minutes or 0)

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players if p.won)

    @property
    def people(self) -> tuple[Player, ...]:
        """Its players who are persons of the league: every seat but the anonymous ones."""
        return tuple(p for p in self.players if not p.anonymous)

    def own_id(self) -> str:
        """The game's own id in warledger: the one the file carries, else one made from
        its BoardGameGeek play id (so one play seen in a BoardGameGeek file and a BG Stats
        file is the same game), else from where it was kept (the same at each import, so a
        play is stored once)."""
        if self.uid:
            return self.uid
        if self.bgg_play is not None:
            return str(uuid.uuid5(NAMESPACE, f"bgg:{self.bgg_play}"))
        return str(uuid.uuid5(NAMESPACE, self.source or ""))

    @property
    def bgg_id(self) -> int | None:
        """Its BoardGameGeek play id, where known."""
        if self.bgg_play is not None:
            return self.bgg_play
        source = self.source or ""
        return int(source[4:]) if source.startswith("bgg:") and source[4:].isdigit() else None


@dataclass(frozen=True)
class PlaysFile:
    """What a file of plays holds for warledger: the plays of its games, and how many
    plays it left, by why."""

    format: str  # "bgg" or "bgstats"
    plays: tuple[Play, ...]
    skipped: Mapping[str, int] = field(default_factory=dict)  # reason (a message id) -> n
    # What reading changed that a group should know (a name trimmed, a role that could not
    # be kept), each said once, in the words the import's report prints.
    notes: tuple[str, ...] = ()


# Why a play was left (message ids: the command line says them with their counts).
OTHER_GAMES = "other games"
UNFINISHED = "unfinished"
SEVERAL = "several"
PLAYER_COUNT = "player count"  # fewer or more players than the game takes
ANONYMOUS = "anonymous"  # anonymous players alone: no person of the league played


def kept_in(source: str) -> str:
    """Where a play of `source` ("bgg:123", "bgstats:<uuid>") was kept, by its name."""
    return "BG Stats" if source.startswith("bgstats:") else "BoardGameGeek"


def key_of(player: Player) -> str:
    """A player's name in a play's report: their name, or for an anonymous seat one no
    person can have (two anonymous players in one play are two seats)."""
    return f"\x00{player.seat}" if player.anonymous else player.name


def report_of(play: Play) -> Report:
    """A finished play as every finished game reports, ranked by rules.outcome.ranks: the
    players marked as winners win (two or more share the victory; none: a draw); the others
    rank by the places the file gives (every player's, else none), else by score, higher
    first, else level. In a play nobody won, a player placed below first lost: a warledger
    Risk draw's players out of the game come back out of it. An anonymous seat is ranked
    as any (its standing named by key_of), so the persons' places count it."""
    listed = ELSEWHERE[play.game]
    winners = tuple(key_of(p) for p in play.players if p.won)
    result = "draw" if not winners else "win" if len(winners) == 1 else "shared"
    placed = all(p.place is not None for p in play.players)

    def ahead(p: Player) -> tuple[int]:
        if placed:
            return (-(p.place or 0),)
        return (p.score if p.score is not None else -SCORE_LIMIT - 1,)

    best = min((p.place or 0 for p in play.players), default=1) if placed else 1
    placing = ranks((Placing(key_of(p), p.won, 0, ahead(p)) for p in play.players),
                    drawn=False)
    ranked = sorted(play.players, key=lambda p: (placing[key_of(p)], p.seat))
    standings = tuple(
        Standing(key_of(p), placing[key_of(p)], result == "draw" and placed and p.place != best,
                 p.score, {listed.side: p.side, listed.score: p.score}, p.side)
        for p in ranked)
    return Report(play.game, FINISHED, result, IMPORTED, play.rounds, listed.unit, winners,
                  standings, None)


# ---------------------------------------------------------------- kept besides

# The fields of a play and of a player kept besides its result, by their names in the
# JSON a stored play keeps them in (storage.plays): written only where they say something.
PLAY_KEPT = ("location", "location_uuid", "comments", "bgg_play", "manual_winner",
             "game_uuid")
PLAYER_KEPT = ("position", "first", "role", "new", "username", "userid", "uuid", "rank")
ANONYMOUS_NAME = "Anonymous player"  # as BoardGameGeek writes a player with no account


def kept_json(play: Play) -> dict[str, Any]:
    """What a play says besides its result, as JSON: its own fields, and by seat its
    players' (an anonymous seat whole: it is no person of the league)."""
    out: dict[str, Any] = {name: getattr(play, name) for name in PLAY_KEPT
                           if _says(getattr(play, name))}
    seats = {}
    for p in play.players:
        said = {name: getattr(p, name) for name in PLAYER_KEPT if _says(getattr(p, name))}
        if p.anonymous:
            said.update(anonymous=True, name=p.name, side=p.side, score=p.score, won=p.won,
                        place=p.place)
        if said:
            seats[str(p.seat)] = said
    if seats:
        out["seats"] = seats
    return out


def said_of(kept: Mapping[str, Any], shared: dict[Said, Said] | None = None) -> Said | None:
    """The Said of a player's kept fields (None where they say nothing), one object for
    the same in `shared`."""
    said = Said(**{name: kept[name] for name in PLAYER_KEPT if name in kept})
    if said == NOTHING_SAID:
        return None
    return said if shared is None else shared.setdefault(said, said)


def _says(value: Any) -> bool:
    return value is not None and value is not False


def with_kept(play: Play, kept: Mapping[str, Any]) -> Play:
    """`play` (its persons, seated) with what kept_json kept of it: its anonymous seats
    back among them, and every field besides."""
    seats = kept.get("seats") or {}
    players = list(play.players)
    for seat, said in seats.items():
        if said.get("anonymous"):
            players.append(Player(said["name"], int(seat), said.get("side"), said.get("score"),
                                  bool(said.get("won")), said.get("place"), anonymous=True))
    players.sort(key=lambda p: p.seat)
    players = [replace(p, said=said_of(seats.get(str(p.seat), {}))) for p in players]
    return replace(play, players=tuple(players),
                   **{name: kept[name] for name in PLAY_KEPT if name in kept})


# ---------------------------------------------------------------- writing

def bgg_xml(plays: Iterable[Play]) -> str:
    """BoardGameGeek plays XML: a `<plays>` root, a `<play>` each. A play with a
    BoardGameGeek id keeps it; a warledger game says its own id in its comments. What a
    file said of a play (location, comments, accounts, start positions, colours as
    written, new players) is written back; nothing a file did not say is made up (no start
    position where none was given)."""
    from xml.etree import ElementTree as ET

    root = bgg_tree(plays)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def bgg_tree(plays: Iterable[Play]) -> Any:
    """The `<plays>` element bgg_xml writes (storage/exports.py writes it a day at a time)."""
    from xml.etree import ElementTree as ET

    root = ET.Element("plays")
    count = 0
    for play in in_the_order_they_ended(list(plays)):
        count += 1
        listed = ELSEWHERE[play.game]
        attributes = {}
        if play.bgg_id is not None:
            attributes["id"] = str(play.bgg_id)
        attributes.update(date=local_day(play.started).isoformat(), quantity="1",
                          length=str(play.minutes or 0),
                          incomplete="0" if play.finished else "1", nowinstats="0",
                          location=xml_text(play.location or ""))
        element = ET.SubElement(root, "play", attributes)
        item = {"name": listed.name, "objecttype": "thing"}
        if listed.bgg_id is not None:
            item["objectid"] = str(listed.bgg_id)
        subtypes = ET.SubElement(ET.SubElement(element, "item", item), "subtypes")
        ET.SubElement(subtypes, "subtype", value="boardgame")
        said = play.comments if play.comments is not None else play.title
        lines = [xml_text(said)] if said else []
        if "id" not in attributes:
            lines.append(warledger_line(play))
        if lines:
            ET.SubElement(element, "comments").text = "\n".join(lines)
        players = ET.SubElement(element, "players")
        for p in play.players:
            if p.anonymous:
                name, username, userid = ANONYMOUS_NAME, "", "0"
            else:
                _xml_can_hold(p.name)
                name, username, userid = p.name, p.username or "", p.userid or "0"
            ET.SubElement(players, "player", {
                "username": xml_text(username), "userid": userid, "name": name,
                "startposition": xml_text(p.position or ""),
                "color": xml_text(p.role if p.role is not None else p.side or ""),
                "score": "" if p.score is None else str(p.score), "new": "1" if p.new else "0",
                "rating": "0", "win": "1" if p.won else "0"})
    root.set("total", str(count))
    root.set("page", "1")
    return root


def xml_text(text: str) -> str:
    """A text kept from a BG Stats file as XML can hold it: a character XML 1.0 has no
    room for (a control) becomes U+FFFD."""
    return NOT_IN_XML.sub("\ufffd", text)


def in_the_order_they_ended(plays: list[Play]) -> list[Play]:
    """`plays` as given, but those of one day (the day a BoardGameGeek file says) in the
    order they ended where each finished one says when (`ends`): a reader that takes a
    day's plays in the file's order (in_the_days_order) counts them in the order the
    league did, also when a game was set up before the one before it ended. Unfinished
    plays (which no reader counts) keep their places."""
    days: dict[date, list[int]] = {}
    for i, play in enumerate(plays):
        if play.finished:
            days.setdefault(local_day(play.started), []).append(i)
    out = list(plays)
    for found in days.values():
        day = [plays[i] for i in found]
        if all(play.ends is not None for play in day):
            for i, play in zip(found, sorted(day, key=lambda p: p.ends), strict=True):
                out[i] = play
    return out


def warledger_line(play: Play) -> str:
    """The last line of a warledger game's BoardGameGeek comments: its own id and, once it
    is over, each player's place in seat order (BoardGameGeek has no word for a place):
    'warledger 0b6c1a9e-... places 2 1 3'."""
    line = f"warledger {play.own_id()}"
    places = [p.place for p in play.players]
    if play.finished and places and all(place is not None for place in places):
        line += " places " + " ".join(str(place) for place in places)
    return line


# What XML 1.0 can carry at all: a name the rules take may still hold a noncharacter.
NOT_IN_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_can_hold(name: str) -> None:
    if (found := NOT_IN_XML.search(name)) is not None:
        # TRANSLATORS: {char} is the character's escape, such as \ufffe.
        raise RuleError(_("{player}'s name holds a character no XML file can hold ({char}): "
                          "write these plays with --format bgstats").format(
                              player=shown(name), char=escaped(found.group())))


def bgstats_json(plays: Iterable[Play]) -> dict[str, Any]:
    """The JSON BG Stats imports: its players, games, locations and plays. Each play's
    `sourcePlayId` is the warledger game's own id, so that a second import is recognised; a
    play kept in BG Stats keeps its uuid there, one kept on BoardGameGeek its play id
    (`bggId`). What a file said of a play is written back, and nothing it did not say:
    seats only where start positions were given (`startPosition`, and `seatOrder` for the
    older readers). An unfinished game is an ignored play (BG Stats has no unfinished
    plays: it stays out of its statistics)."""
    players: dict[tuple[str, bool], dict[str, Any]] = {}
    games: dict[str, dict[str, Any]] = {}
    locations: dict[str, dict[str, Any]] = {}
    out_plays = []

    def player_ref(p: Player) -> int:
        name = p.name if not p.anonymous else "Anonymous"
        entry = players.setdefault((name, p.anonymous), {
            "id": len(players) + 1, "name": name, "isAnonymous": p.anonymous,
            "uuid": p.uuid or str(uuid.uuid5(NAMESPACE, "player:" + name))})
        if p.username and not p.anonymous:
            entry.setdefault("bggUsername", p.username)
        return entry["id"]

    for play in plays:
        game = games.setdefault(play.game, {
            "id": len(games) + 1, "name": ELSEWHERE[play.game].name,
            "bggId": ELSEWHERE[play.game].bgg_id or 0,
            "uuid": play.game_uuid or str(uuid.uuid5(NAMESPACE, "game:" + play.game)),
            "cooperative": False, "highestWins": True, "noPoints": False})
        uid = play.own_id()
        # A play BG Stats kept keeps its uuid (one it had none of is known by its own id).
        kept = play.source[len("bgstats:"):] if play.source and \
            play.source.startswith("bgstats:") and not play.source.startswith("bgstats:~") \
            else uid
        written: dict[str, Any] = {
            "uuid": kept, "gameRefId": game["id"],
            "playDate": local_time(start_keeping_the_end(play)).strftime("%Y-%m-%d %H:%M:%S"),
            "durationMin": play.minutes or 0, "ignored": not play.finished,
            "manualWinner": play.manual_winner, "rounds": play.rounds, "usesTeams": False,
            "sourcePlayId": uid,
            "comments": play.comments if play.comments is not None else play.title or ""}
        if play.bgg_id is not None:
            written["bggId"] = play.bgg_id
        if play.location:
            written["locationRefId"] = locations.setdefault(play.location, {
                "id": len(locations) + 1, "name": play.location,
                "uuid": play.location_uuid or str(uuid.uuid5(NAMESPACE,
                                                             "location:" + play.location))})["id"]
        scores = []
        for p in play.players:
            position = int(p.position) if p.position and p.position.isdigit() else None
            score = {"playerRefId": player_ref(p),
                     "score": "" if p.score is None else str(p.score), "winner": p.won,
                     "newPlayer": p.new, "startPlayer": p.first, "seatOrder": position or 0,
                     "rank": p.rank if p.rank is not None else p.place or 0,
                     "role": p.role if p.role is not None else p.side or ""}
            if position is not None:
                score["startPosition"] = position
            scores.append(score)
        written["playerScores"] = scores
        out_plays.append(written)
    out: dict[str, Any] = {"players": list(players.values()), "games": list(games.values())}
    if locations:
        out["locations"] = list(locations.values())
    out["plays"] = out_plays
    return out


def start_keeping_the_end(play: Play) -> datetime:
    """The start a file of start and whole minutes gives a play so that it ends when it
    did (`ends`), to the second: its start, less the part of a minute its length was
    rounded by. A play whose end is not its start and length (a BoardGameGeek play, which
    counts at noon) keeps its start."""
    if play.ends is None:
        return play.started
    start = play.ends - timedelta(minutes=play.minutes or 0)
    return start if abs(start - play.started) < timedelta(minutes=1) else play.started


def local_time(when: datetime) -> datetime:
    """A moment in this machine's time zone, as the apps write it (without a zone)."""
    return when.astimezone().replace(tzinfo=None)


def local_day(when: datetime) -> date:
    return when.astimezone().date()


# ---------------------------------------------------------------- reading

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


def read_bgg(source: BinaryIO) -> PlaysFile:
    """BoardGameGeek plays XML, read play by play (rules.streams: a DTD, entities or a file
    of any shape that is no plays file is refused, in flat memory)."""
    found = _plays_of("bgg", xml_children(source, "plays", "play"), _bgg_play)
    return replace(found, plays=in_the_days_order(found.plays))


def in_the_days_order(plays: tuple[Play, ...]) -> tuple[Play, ...]:
    """BoardGameGeek's plays with the moment each ended (`ends`): a file gives only their
    day, so the plays of a day end at noon UTC, a second apart, in the order they were
    logged (their BoardGameGeek ids, which grow as plays are logged; a day with a play
    that has none, as warledger writes its own games: the file's order)."""
    days: dict[datetime, list[int]] = {}
    for i, play in enumerate(plays):
        days.setdefault(play.started, []).append(i)
    ends: dict[int, datetime] = {}
    for noon, found in days.items():
        ids = [_play_id(plays[i]) for i in found]
        if all(n is not None for n in ids):
            found = [i for _n, i in sorted(zip(ids, found, strict=True))]
        for second, i in enumerate(found):
            ends[i] = noon + timedelta(seconds=second)
    return tuple(replace(play, ends=ends[i]) for i, play in enumerate(plays))


def _play_id(play: Play) -> int | None:
    source = play.source or ""
    return int(source[4:]) if source.startswith("bgg:") and source[4:].isdigit() else None


def _plays_of(format: str, items: Iterable[Any],
              read: Callable[[Any, Counter, dict[str, None], dict[Said, Said]], Play | None]
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
    _distinct_sources(plays)
    return PlaysFile(format, tuple(plays), dict(skips), tuple(notes))


def _bgg_play(element, skips: Counter, notes: dict[str, None], shared: dict[Said, Said]
              ) -> Play | None:
    attrs = element.attrib
    item = element.find("item")
    name = item.get("name", "") if item is not None else ""
    objectid = _number(item.get("objectid") if item is not None else None, "objectid",
                       low=0, high=10**9)
    game = game_played(name, objectid)
    if game is None:
        skips[OTHER_GAMES] += 1
        return None
    play_id = _number(attrs.get("id"), "id", low=1, high=10**12)
    day = _day(attrs.get("date"))
    if attrs.get("incomplete", "0").strip() not in ("", "0"):
        skips[UNFINISHED] += 1
        return None
    quantity = _number(attrs.get("quantity"), "quantity", low=0, high=10**6)
    if quantity is not None and quantity > 1:
        skips[SEVERAL] += 1
        return None
    minutes = _number(attrs.get("length"), "length", low=0, high=MINUTES_LIMIT) or None
    comments, title, uid, places = _said_in_comments(element.findtext("comments") or "")
    raw_players = []
    players_element = element.find("players")
    for p in (players_element.findall("player") if players_element is not None else []):
        a = p.attrib
        username = (a.get("username") or "").strip()
        userid = (a.get("userid") or "").strip()
        name = a.get("name") or username or None
        anonymous = not username and userid in ("", "0") and \
            (name or "").strip() in ("", ANONYMOUS_NAME)
        raw_players.append(Raw(
            ANONYMOUS_NAME if anonymous else name, _position(a.get("startposition")),
            a.get("color") or "", a.get("score"), a.get("win", "0").strip() not in ("", "0"),
            anonymous=anonymous, position=_kept_text(a.get("startposition")),
            new=a.get("new", "0").strip() not in ("", "0"),
            username=_kept_text(username), userid=userid if re.fullmatch(r"\d{1,12}", userid)
            and userid != "0" else None))
    if not _seats_the_game(game, raw_players, skips):
        return None
    players = _players(game, raw_players, notes, shared)
    if places is not None and len(places) == len(players) and \
            all(1 <= place <= len(players) for place in places):
        players = tuple(replace(p, place=place) for p, place in zip(players, places,
                                                                    strict=True))
    source = f"bgg:{play_id}" if play_id is not None else "bgg:" + _digest(
        game, day.isoformat(), [(p.name, p.side, p.score, p.won) for p in players])
    started = datetime.combine(day, time(12), UTC)
    return Play(game, started, minutes, True, players, title, 0, uid, source,
                location=_kept_text(attrs.get("location")), comments=comments,
                bgg_play=play_id)


def _kept_text(value: Any) -> str | None:
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


def _said_in_comments(comments: str
                      ) -> tuple[str | None, str | None, str | None, list[int] | None]:
    """A play's comments as written, without the line a warledger export ends them with
    (warledger_line), and what that line says: the title (the comments' first line), the
    game's own id and the players' places in seat order."""
    none = (comments if comments.strip() else None), None, None, None
    lines = comments.strip().splitlines()
    if not lines:
        return none
    found = re.fullmatch(r"warledger (\S+)(?: places((?: \d{1,2}){1,20}))?", lines[-1].strip())
    if found is None or not GAME_ID.fullmatch(found.group(1).lower()):
        return none
    places = [int(n) for n in found.group(2).split()] if found.group(2) else None
    title = None
    if len(lines) > 1:
        try:
            title = plain_text(lines[0], _("The title"), TITLE_LIMIT)
        except RuleError:
            title = None
    rest = "\n".join(lines[:-1])
    return (rest if rest.strip() else None), title, found.group(1).lower(), places


def read_bgstats(source: BinaryIO, start: int = 0) -> PlaysFile:
    """BG Stats export JSON, its shape checked as a stream, then its players, games and
    locations read, then its plays one by one (rules.streams); its other keys are left
    alone."""
    listed = json_shape(source, start, {"players": REFS_LIMIT, "games": REFS_LIMIT,
                                        "locations": REFS_LIMIT, "plays": PLAYS_LIMIT})
    if not {"players", "games", "plays"} <= listed:
        raise RuleError(_("a BG Stats file is an object with players, games and plays"))
    players = _refs(json_items(source, start, "players"), "players",
                    ("name", "isAnonymous", "uuid", "bggUsername"))
    games = _refs(json_items(source, start, "games"), "games", ("name", "bggId", "uuid"))
    locations = _refs(json_items(source, start, "locations"), "locations",
                      ("name", "uuid")) if "locations" in listed else {}
    return _plays_of("bgstats", json_items(source, start, "plays"),
                     lambda play, skips, notes, shared: _bgstats_play(
                         play, players, games, locations, skips, notes, shared))


def _refs(entries: Iterable[Any], what: str, kept: tuple[str, ...]) -> dict[int, dict]:
    """Each entry by its id, with only the fields `kept` (a file's players and games)."""
    out = {}
    for entry in entries:
        if not isinstance(entry, dict) or not _is_int(entry.get("id")):
            # TRANSLATORS: {what} is the file's key: players or games.
            raise RuleError(_("every entry of {what} needs a whole-number id").format(what=what))
        if entry["id"] in out:
            # Two entries of one id: which one a play's reference means cannot be told.
            # TRANSLATORS: {what} is the file's key: players or games; {id} a number.
            raise RuleError(_("two entries of {what} have the id {id}").format(
                what=what, id=entry["id"]))
        out[entry["id"]] = {name: entry[name] for name in kept if name in entry}
    return out


UUID = re.compile(r"[0-9A-Za-z-]{1,64}")


def _uuid(value: Any) -> str | None:
    """An id a file gives (letters, digits and dashes), kept; None for anything else."""
    return value if isinstance(value, str) and UUID.fullmatch(value) else None


def _bgstats_play(raw: Any, players: Mapping[int, dict], games: Mapping[int, dict],
                  locations: Mapping[int, dict], skips: Counter, notes: dict[str, None],
                  shared: dict[Said, Said]) -> Play | None:
    if not isinstance(raw, dict):
        raise RuleError(_("a play must be an object"))
    game_entry = games.get(raw.get("gameRefId"))
    if game_entry is None:
        raise RuleError(_("its gameRefId names no game of the file"))
    bgg_id = game_entry.get("bggId")
    game = game_played(game_entry.get("name"), bgg_id if _is_int(bgg_id) else None)
    if game is None:
        skips[OTHER_GAMES] += 1
        return None
    play_uuid = raw.get("uuid")
    if play_uuid is not None and _uuid(play_uuid) is None:
        raise RuleError(_("its uuid must be letters, digits and dashes, not {value}").format(
            value=shown(play_uuid)))
    started = _moment(raw.get("playDate"))
    if raw.get("ignored") is True:
        skips[UNFINISHED] += 1
        return None
    minutes = _whole(raw.get("durationMin") or 0, "durationMin", MINUTES_LIMIT) or None
    rounds = _whole(raw.get("rounds") or 0, "rounds", 1000)
    source_play = raw.get("sourcePlayId")
    uid = source_play.lower() if isinstance(source_play, str) and len(source_play) == 36 \
        and GAME_ID.fullmatch(source_play.lower()) else None
    # The play's BoardGameGeek play id (0: none): the same play in a BoardGameGeek file.
    bgg_play = raw.get("bggId")
    bgg_play = bgg_play if _is_int(bgg_play) and 0 < bgg_play <= 10**12 else None
    scores = raw.get("playerScores")
    if not isinstance(scores, list) or len(scores) > PLAYERS_LIMIT:
        raise RuleError(_("its playerScores must be a list of at most {n}").format(
            n=PLAYERS_LIMIT))
    raw_players = []
    for score in scores:
        if not isinstance(score, dict):
            raise RuleError(_("a player's score must be an object"))
        player = players.get(score.get("playerRefId"))
        if player is None:
            raise RuleError(_("a playerRefId names no player of the file"))
        # Its seat: startPosition in newer exports (their seatOrder is 0), else seatOrder;
        # 0 or none says none.
        seat = None
        for key in ("startPosition", "seatOrder"):
            if score.get(key) is not None:
                found = _whole(score[key], key, 99)
                if found:
                    seat = found
                    break
        rank = score.get("rank")
        anonymous = player.get("isAnonymous") is True
        raw_players.append(Raw(
            ANONYMOUS_NAME if anonymous else player.get("name"), seat,
            score.get("role") or "", score.get("score"), score.get("winner") is True,
            # BG Stats' rank: 1 for the first; 0 (or none) where not ranked, and anything
            # but a place among the players says nothing
            rank if _is_int(rank) and 1 <= rank <= len(scores) else None,
            anonymous=anonymous, position=str(seat) if seat else None,
            first=score.get("startPlayer") is True, new=score.get("newPlayer") is True,
            username=_kept_text(player.get("bggUsername")) if not anonymous else None,
            uuid=_uuid(player.get("uuid")),
            rank=rank if _is_int(rank) and 0 <= rank <= 10**6 else None))
    if not _seats_the_game(game, raw_players, skips):
        return None
    if any(r.place is None for r in raw_players):  # places of some players say nothing
        raw_players = [r._replace(place=None) for r in raw_players]
    else:  # the rank as written is kept where it is no place (0, or some players' alone)
        raw_players = [r._replace(rank=None) for r in raw_players]
    play_players = _players(game, raw_players, notes, shared)
    comments = raw.get("comments") if isinstance(raw.get("comments"), str) and \
        raw["comments"].strip() else None
    title = None
    if comments is not None:
        try:
            title = plain_text(comments, _("The title"), TITLE_LIMIT)
        except RuleError:
            title = None
    location = locations.get(raw.get("locationRefId")) or {}
    source = f"bgstats:{play_uuid}" if play_uuid else "bgstats:" + _digest(
        game, started.isoformat(), [(p.name, p.side, p.score, p.won) for p in play_players])
    return Play(game, started, minutes, True, play_players, title, rounds, uid, source,
                location=_kept_text(location.get("name")),
                location_uuid=_uuid(location.get("uuid")), comments=comments,
                bgg_play=bgg_play, manual_winner=raw.get("manualWinner") is True,
                game_uuid=_uuid(game_entry.get("uuid")))


# ---------------------------------------------------------------- the parts of a play

def game_played(name: Any, bgg_id: int | None) -> str | None:
    """The tag of our game a play is of: by its BoardGameGeek id where we know the id for
    certain, else by its name; None for another game."""
    for tag, listed in ELSEWHERE.items():
        if bgg_id and listed.bgg_id == bgg_id:
            return tag
    for tag, listed in ELSEWHERE.items():
        if isinstance(name, str) and name.strip().casefold() == listed.name.casefold():
            if listed.bgg_id is not None and bgg_id and bgg_id != listed.bgg_id:
                return None  # another game of that name: its own id says so
            return tag
    return None


ROLE_LIMIT = 1_000  # characters of a role kept as written: more is no role


def _players(game: str, raw: list[Raw], notes: dict[str, None], shared: dict[Said, Said]
             ) -> tuple[Player, ...]:
    """The players of a play in seat order (its start positions, else the file's order),
    each name checked as one typed, two names that pass for each other refused; an
    anonymous player is a seat without a name to check. A name trimmed, or a role that
    cannot be kept, is said in `notes`; what the file says of each besides is one object
    for the same (`shared`)."""
    from rules.game import rules_for

    rules_for(game)  # the game is known to this warledger
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
        side = side_of(game, r.side, name)
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


def _seats_the_game(game: str, players: list[Raw], skips: Counter) -> bool:
    """Whether the play has as many players as the game takes, one a person at least (a
    play logged alone, with more than the box seats, or of anonymous players alone, is
    counted and left)."""
    low, high = player_bounds(game)
    if not low <= len(players) <= high:
        skips[PLAYER_COUNT] += 1
        return False
    if all(r.anonymous or r.name is None for r in players):
        skips[ANONYMOUS] += 1
        return False
    return True


def player_bounds(game: str) -> tuple[int, int]:
    if game == "risk":
        from rules.risk import MAX_PLAYERS, MIN_PLAYERS
    else:
        from rules.soe.settings import MAX_PLAYERS, MIN_PLAYERS
    return MIN_PLAYERS, MAX_PLAYERS


def _position(value: str | None) -> int | None:
    """A BoardGameGeek start position: free text there ("1", "first"); a number orders the
    seats, anything else leaves the player in the file's order."""
    value = (value or "").strip()
    return int(value) if re.fullmatch(r"\d{1,2}", value) else None


def side_of(game: str, value: Any, name: str) -> str | None:
    """What a player played as, as stored: a Struggle of Empires power by its id (None
    when the colour names none), a Risk colour by its id, or as written (None when it is
    longer than a colour: a note, not a colour)."""
    if not isinstance(value, str) or not value.strip():
        return None
    if game == "soe":
        from rules.soe.regions import power_named

        try:
            return power_named(value.strip())
        except RuleError:
            return None
    from rules.risk.board import colour_named

    if len(value.strip()) > COLOUR_LIMIT:
        return None
    colour = plain_text(value, _("{player}'s colour").format(player=name), COLOUR_LIMIT)
    return colour_named(colour)


def _score(value: Any, name: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,7}(\.0*)?\s*", value):
        value = int(float(value))
    elif isinstance(value, float) and value.is_integer():  # 12.0: a whole number still
        value = int(value)
    if not _is_int(value) or abs(value) > SCORE_LIMIT:
        raise RuleError(_("{player}'s score must be a whole number, not {value}").format(
            player=name, value=shown(value)))
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value: Any, what: str, high: int) -> int:
    if not _is_int(value) or not 0 <= value <= high:
        raise RuleError(_("{what} must be a whole number from {low} to {high}, not {value}")
                        .format(what=what, low=0, high=high, value=shown(value)))
    return value


def _number(value: str | None, what: str, *, low: int, high: int) -> int | None:
    """An attribute holding a whole number; None when it is missing or empty."""
    if value is None or not value.strip():
        return None
    # TRANSLATORS: {what} is the file's own name of the value (length, durationMin): keep it.
    if not re.fullmatch(r"\s*\d{1,13}\s*", value) or not low <= int(value) <= high:
        raise RuleError(_("{what} must be a whole number from {low} to {high}, not {value}")
                        .format(what=what, low=low, high=high, value=shown(value)))
    return int(value)


def _day(value: Any) -> date:
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


def _moment(value: Any) -> datetime:
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


def _digest(*parts: Any) -> str:
    """An id for a play that carries none, from what it says (the same play, the same id)."""
    return "~" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


def _distinct_sources(plays: list[Play]) -> None:
    """RuleError for a play given twice in one file: the same source, or the same own id."""
    seen: set[str] = set()
    for play in plays:
        for key in (play.source or "", play.own_id()):
            if key in seen:
                raise RuleError(_("the same play is in the file twice ({source})").format(
                    source=shown(key)))
            seen.add(key)
