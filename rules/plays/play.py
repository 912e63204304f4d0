"""A play as BoardGameGeek's and BG Stats' files tell it (rules/plays), and what is kept of
it besides its result. Each game says how the files list it in its registration
(`GameRules.elsewhere`, rules/ruleset.py): its name and id there, its side and score."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any

from i18n import _
from rules.errors import RuleError
from rules.game import GAMES, game_name
from rules.outcome import FINISHED, IMPORTED, Placing, Report, Standing, ranks
from rules.ruleset import Listed

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


def listed(game: str) -> Listed:
    """How BoardGameGeek and BG Stats list `game` (its registration says); a RuleError in
    one line for a game their files do not know."""
    rules = GAMES.get(game)
    if rules is None or rules.elsewhere is None:
        raise RuleError(_("{game} is not a game BoardGameGeek or BG Stats files know").format(
            game=game_name(game)))
    return rules.elsewhere


def game_played(name: Any, bgg_id: int | None) -> str | None:
    """The tag of our game a play is of: by its BoardGameGeek id where we know the id for
    certain, else by its name; None for another game."""
    known = [(tag, rules.elsewhere) for tag, rules in GAMES.items() if rules.elsewhere]
    for tag, listed_as in known:
        if bgg_id and listed_as.bgg_id == bgg_id:
            return tag
    for tag, listed_as in known:
        if isinstance(name, str) and name.strip().casefold() == listed_as.name.casefold():
            if listed_as.bgg_id is not None and bgg_id and bgg_id != listed_as.bgg_id:
                return None  # another game of that name: its own id says so
            return tag
    return None


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
    listed_as = listed(play.game)
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
                 p.score, listed_as.details(p.side, p.score), p.side)
        for p in ranked)
    return Report(play.game, FINISHED, result, IMPORTED, play.rounds, listed_as.unit, winners,
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



def local_time(when: datetime) -> datetime:
    """A moment in this machine's time zone, as the apps write it (without a zone)."""
    return when.astimezone().replace(tzinfo=None)


def local_day(when: datetime) -> date:
    return when.astimezone().date()

