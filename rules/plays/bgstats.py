"""The BG Stats app's export JSON, written and read: `{"players": [{"id", "name",
"isAnonymous", "uuid", "bggUsername"}], "games": [{"id", "name", "bggId", "uuid"}],
"locations": [{"id", "name", "uuid"}], "plays": [{"uuid", "gameRefId", "playDate",
"durationMin", "ignored", "manualWinner", "rounds", "sourcePlayId", "bggId",
"locationRefId", "comments", "playerScores": [{"playerRefId", "score", "winner",
"newPlayer", "startPlayer", "startPosition", "seatOrder", "rank", "role"}]}]}` (newer
exports seat players by `startPosition`, their `seatOrder` 0)."""

from __future__ import annotations

import functools
import json
import re
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any, BinaryIO

from i18n import _
from rules.errors import RuleError
from rules.fields import TITLE_LIMIT, plain_text, shown
from rules.plays.play import (
    ANONYMOUS_NAME,
    MINUTES_LIMIT,
    NAMESPACE,
    NOTHING_SAID,
    OTHER_GAMES,
    PLAYERS_LIMIT,
    PLAYS_LIMIT,
    REFS_LIMIT,
    UNFINISHED,
    Play,
    Player,
    PlaysFile,
    Said,
    game_played,
    listed,
    local_time,
)
from rules.plays.reading import (
    Raw,
    digest,
    is_int,
    kept_text,
    moment_of,
    players_of,
    plays_of,
    seats_the_game,
    whole_number,
)
from rules.session_file import GAME_ID
from rules.streams import json_items, json_shape


@functools.lru_cache(maxsize=4096)
def _uuid_of(what: str) -> str:
    """The uuid a player, game or location with no uuid of its own is written with: the
    same at every day of plays an export writes."""
    return str(uuid.uuid5(NAMESPACE, what))


class BGStatsRefs:
    """The players, games and locations of a BG Stats file, each numbered as its plays
    first name it (from 1); a player's BoardGameGeek account is the first one said."""

    def __init__(self) -> None:
        self.players: dict[tuple[str, bool], dict[str, Any]] = {}
        self.games: dict[str, dict[str, Any]] = {}
        self.locations: dict[str, dict[str, Any]] = {}

    def player(self, p: Player, said: Said) -> int:
        """The number of `p` (what they are `said`), met at a play."""
        name = p.name if not p.anonymous else "Anonymous"
        entry = self.players.get((name, p.anonymous))
        if entry is None:  # its uuid worked out once, not at every play
            entry = self.players[name, p.anonymous] = {
                "id": len(self.players) + 1, "name": name, "isAnonymous": p.anonymous,
                "uuid": said.uuid or _uuid_of("player:" + name)}
        if said.username and not p.anonymous:
            entry.setdefault("bggUsername", said.username)
        ref: int = entry["id"]  # set just above, or when the player was first met
        return ref

    def game(self, play: Play) -> int:
        """The number of the game `play` is of."""
        game = self.games.get(play.game)
        if game is None:
            listed_as = listed(play.game)
            game = self.games[play.game] = {
                "id": len(self.games) + 1, "name": listed_as.name,
                "bggId": listed_as.bgg_id or 0,
                "uuid": play.game_uuid or _uuid_of("game:" + play.game),
                "cooperative": False, "highestWins": True, "noPoints": False}
        ref: int = game["id"]
        return ref

    def location(self, play: Play) -> int | None:
        """The number of the place `play` was played at; None where no place is said."""
        if not play.location:
            return None
        place = self.locations.get(play.location)
        if place is None:
            place = self.locations[play.location] = {
                "id": len(self.locations) + 1, "name": play.location,
                "uuid": play.location_uuid or _uuid_of("location:" + play.location)}
        ref: int = place["id"]
        return ref

    def tables(self) -> dict[str, Any]:
        """The file's players, games and (where any) locations, as BG Stats lists them."""
        out: dict[str, Any] = {"players": list(self.players.values()),
                               "games": list(self.games.values())}
        if self.locations:
            out["locations"] = list(self.locations.values())
        return out


def bgstats_json(plays: Iterable[Play]) -> dict[str, Any]:
    """The JSON BG Stats imports: its players, games, locations and plays. Each play's
    `sourcePlayId` is the warledger game's own id, so that a second import is recognised; a
    play kept in BG Stats keeps its uuid there, one kept on BoardGameGeek its play id
    (`bggId`). What a file said of a play is written back, and nothing it did not say:
    seats only where start positions were given (`startPosition`, and `seatOrder` for the
    older readers). An unfinished game is an ignored play (BG Stats has no unfinished
    plays: it stays out of its statistics)."""
    refs = BGStatsRefs()
    out_plays = []
    for play in plays:
        game = refs.game(play)
        uid = play.own_id()
        written: dict[str, Any] = {
            "uuid": _kept_uuid(play, uid), "gameRefId": game,
            "playDate": play_date(play),
            "durationMin": play.minutes or 0, "ignored": not play.finished,
            "manualWinner": play.manual_winner, "rounds": play.rounds, "usesTeams": False,
            "sourcePlayId": uid,
            "comments": play.comments if play.comments is not None else play.title or ""}
        if play.bgg_id is not None:
            written["bggId"] = play.bgg_id
        place = refs.location(play)
        if place is not None:
            written["locationRefId"] = place
        scores = []
        for p in play.players:
            said = p.said or NOTHING_SAID
            position = _position(said)
            score = {"playerRefId": refs.player(p, said),
                     "score": "" if p.score is None else str(p.score), "winner": p.won,
                     "newPlayer": said.new, "startPlayer": said.first,
                     "seatOrder": position or 0,
                     "rank": said.rank if said.rank is not None else p.place or 0,
                     "role": said.role if said.role is not None else p.side or ""}
            if position is not None:
                score["startPosition"] = position
            scores.append(score)
        written["playerScores"] = scores
        out_plays.append(written)
    out = refs.tables()
    out["plays"] = out_plays
    return out


def bgstats_texts(plays: Iterable[Play], refs: BGStatsRefs) -> Iterator[str]:
    """Each play of bgstats_json(plays) as `json.dumps(indent=2, ensure_ascii=False)`
    writes it in the file (an item of "plays", its first line not indented), its players,
    games and locations numbered in `refs` (the file's head, written after): the same
    text without building the objects and encoding them again, where an export of thousands
    of plays spent most of its time (storage/exports.py; tests/test_exports.py)."""
    for play in plays:
        uid = play.own_id()
        comments = play.comments if play.comments is not None else play.title or ""
        parts = [
            f'{{\n      "uuid": {_string(_kept_uuid(play, uid))},\n'
            f'      "gameRefId": {refs.game(play)},\n'
            f'      "playDate": {_string(play_date(play))},\n'
            f'      "durationMin": {_int(play.minutes or 0)},\n'
            f'      "ignored": {_bool(not play.finished)},\n'
            f'      "manualWinner": {_bool(play.manual_winner)},\n'
            f'      "rounds": {_int(play.rounds)},\n      "usesTeams": false,\n'
            f'      "sourcePlayId": {_string(uid)},\n      "comments": {_string(comments)},\n']
        if play.bgg_id is not None:
            parts.append(f'      "bggId": {_int(play.bgg_id)},\n')
        place = refs.location(play)
        if place is not None:
            parts.append(f'      "locationRefId": {place},\n')
        if not play.players:
            parts.append('      "playerScores": []\n    }')
            yield "".join(parts)
            continue
        parts.append('      "playerScores": [\n')
        between = ""
        for p in play.players:
            said = p.said or NOTHING_SAID
            position = _position(said)
            role = said.role if said.role is not None else p.side or ""
            score = p.score
            # a whole number's digits need no escaping
            score_text = '""' if score is None else f'"{score}"' if type(score) is int \
                else _string(str(score))
            parts.append(
                f'{between}        {{\n'
                f'          "playerRefId": {refs.player(p, said)},\n'
                f'          "score": {score_text},\n'
                f'          "winner": {_bool(p.won)},\n'
                f'          "newPlayer": {_bool(said.new)},\n'
                f'          "startPlayer": {_bool(said.first)},\n'
                f'          "seatOrder": {position or 0},\n'
                f'          "rank": {_int(said.rank if said.rank is not None else p.place or 0)},\n'
                f'          "role": {_kept_string(role)}')
            if position is not None:
                parts.append(f',\n          "startPosition": {position}')
            parts.append("\n        }")
            between = ",\n"
        parts.append("\n      ]\n    }")
        yield "".join(parts)


def _kept_uuid(play: Play, uid: str) -> str:
    """A play's uuid: the one BG Stats kept it by, else (one it had none of, or a play kept
    elsewhere) its own id."""
    source = play.source
    if source and source.startswith("bgstats:") and not source.startswith("bgstats:~"):
        return source[len("bgstats:"):]
    return uid


def _position(said: Said) -> int | None:
    """A player's start position, where it is said as a number."""
    position = said.position
    return int(position) if position and position.isdigit() else None


def play_date(play: Play) -> str:
    """A play's `playDate`: the start that keeps its end, in this machine's time."""
    return local_time(start_keeping_the_end(play)).strftime("%Y-%m-%d %H:%M:%S")


# json's text of a value, by the exact types a play's values have; anything else as json
# writes it (a subclass of int, a float)
_encoded = json.JSONEncoder(ensure_ascii=False).encode


def _string(value: str) -> str:
    return _encoded(value)


# A club's few colours and powers come again at every play: encoded once each.
_kept_string = functools.lru_cache(maxsize=4096)(_string)


def _int(value: int) -> str:
    return int.__repr__(value) if type(value) is int else _encoded(value)


def _bool(value: bool) -> str:
    return "true" if value is True else "false" if value is False else _encoded(value)


def start_keeping_the_end(play: Play) -> datetime:
    """The start a file of start and whole minutes gives a play so that it ends when it
    did (`ends`), to the second: its start, less the part of a minute its length was
    rounded by. A play whose end is not its start and length (a BoardGameGeek play, which
    counts at noon) keeps its start."""
    if play.ends is None:
        return play.started
    start = play.ends - timedelta(minutes=play.minutes or 0)
    return start if abs(start - play.started) < timedelta(minutes=1) else play.started



def read_bgstats(source: BinaryIO, start: int = 0) -> PlaysFile:
    """BG Stats export JSON, its shape checked as a stream, then its players, games and
    locations read, then its plays one by one (rules.streams); its other keys are left
    alone."""
    keys = json_shape(source, start, {"players": REFS_LIMIT, "games": REFS_LIMIT,
                                        "locations": REFS_LIMIT, "plays": PLAYS_LIMIT})
    if not {"players", "games", "plays"} <= keys:
        raise RuleError(_("a BG Stats file is an object with players, games and plays"))
    players = _refs(json_items(source, start, "players"), "players",
                    ("name", "isAnonymous", "uuid", "bggUsername"))
    games = _refs(json_items(source, start, "games"), "games", ("name", "bggId", "uuid"))
    locations = _refs(json_items(source, start, "locations"), "locations",
                      ("name", "uuid")) if "locations" in keys else {}
    return plays_of("bgstats", json_items(source, start, "plays"),
                     lambda play, skips, notes, shared: _bgstats_play(
                         play, players, games, locations, skips, notes, shared))


def _refs(entries: Iterable[Any], what: str, kept: tuple[str, ...]
          ) -> dict[object, dict[str, Any]]:
    """Each entry by its id, with only the fields `kept` (a file's players and games). The
    ids are whole numbers; a play's references, looked up here, may be anything."""
    out: dict[object, dict[str, Any]] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not is_int(entry.get("id")):
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


def _bgstats_play(raw: Any, players: Mapping[object, dict[str, Any]],
                  games: Mapping[object, dict[str, Any]],
                  locations: Mapping[object, dict[str, Any]], skips: Counter[str],
                  notes: dict[str, None],
                  shared: dict[Said, Said]) -> Play | None:
    if not isinstance(raw, dict):
        raise RuleError(_("a play must be an object"))
    game_entry = games.get(raw.get("gameRefId"))
    if game_entry is None:
        raise RuleError(_("its gameRefId names no game of the file"))
    bgg_id = game_entry.get("bggId")
    game = game_played(game_entry.get("name"), bgg_id if is_int(bgg_id) else None)
    if game is None:
        skips[OTHER_GAMES] += 1
        return None
    play_uuid = raw.get("uuid")
    if play_uuid is not None and _uuid(play_uuid) is None:
        raise RuleError(_("its uuid must be letters, digits and dashes, not {value}").format(
            value=shown(play_uuid)))
    started = moment_of(raw.get("playDate"))
    if raw.get("ignored") is True:
        skips[UNFINISHED] += 1
        return None
    minutes = whole_number(raw.get("durationMin") or 0, "durationMin", MINUTES_LIMIT) or None
    rounds = whole_number(raw.get("rounds") or 0, "rounds", 1000)
    source_play = raw.get("sourcePlayId")
    uid = source_play.lower() if isinstance(source_play, str) and len(source_play) == 36 \
        and GAME_ID.fullmatch(source_play.lower()) else None
    # The play's BoardGameGeek play id (0: none): the same play in a BoardGameGeek file.
    bgg_play = raw.get("bggId")
    bgg_play = bgg_play if is_int(bgg_play) and 0 < bgg_play <= 10**12 else None
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
                found = whole_number(score[key], key, 99)
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
            rank if is_int(rank) and 1 <= rank <= len(scores) else None,
            anonymous=anonymous, position=str(seat) if seat else None,
            first=score.get("startPlayer") is True, new=score.get("newPlayer") is True,
            username=kept_text(player.get("bggUsername")) if not anonymous else None,
            uuid=_uuid(player.get("uuid")),
            rank=rank if is_int(rank) and 0 <= rank <= 10**6 else None))
    if not seats_the_game(game, raw_players, skips):
        return None
    if any(r.place is None for r in raw_players):  # places of some players say nothing
        raw_players = [r._replace(place=None) for r in raw_players]
    else:  # the rank as written is kept where it is no place (0, or some players' alone)
        raw_players = [r._replace(rank=None) for r in raw_players]
    play_players = players_of(game, raw_players, notes, shared)
    comments = raw.get("comments") if isinstance(raw.get("comments"), str) and \
        raw["comments"].strip() else None
    title = None
    if comments is not None:
        try:
            title = plain_text(comments, _("The title"), TITLE_LIMIT)
        except RuleError:
            title = None
    location = locations.get(raw.get("locationRefId")) or {}
    source = f"bgstats:{play_uuid}" if play_uuid else "bgstats:" + digest(
        game, started.isoformat(), [(p.name, p.side, p.score, p.won) for p in play_players])
    return Play(game, started, minutes, True, play_players, title, rounds, uid, source,
                location=kept_text(location.get("name")),
                location_uuid=_uuid(location.get("uuid")), comments=comments,
                bgg_play=bgg_play, manual_winner=raw.get("manualWinner") is True,
                game_uuid=_uuid(game_entry.get("uuid")))
