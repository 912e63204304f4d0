"""BoardGameGeek's plays XML, written and read (XML API2 plays: `<plays>` holding `<play
id date quantity length incomplete location>`, each with `<item name objecttype="thing"
objectid>`, `<comments>` and `<players>` of `<player username userid name startposition
color score new rating win/>`)."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from typing import BinaryIO, cast
from xml.etree.ElementTree import Element

from i18n import _
from rules.errors import RuleError
from rules.fields import TITLE_LIMIT, escaped, plain_text, shown
from rules.plays.play import (
    ANONYMOUS_NAME,
    MINUTES_LIMIT,
    OTHER_GAMES,
    SEVERAL,
    UNFINISHED,
    Play,
    PlaysFile,
    Said,
    game_played,
    listed,
    local_day,
)
from rules.plays.reading import (
    Raw,
    day_of,
    digest,
    kept_text,
    number_in,
    players_of,
    plays_of,
    seats_the_game,
)
from rules.session_file import GAME_ID
from rules.streams import xml_children


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


def bgg_tree(plays: Iterable[Play]) -> Element:
    """The `<plays>` element bgg_xml writes (storage/exports.py writes it a day at a time)."""
    from xml.etree import ElementTree as ET

    root = ET.Element("plays")
    count = 0
    for play in in_the_order_they_ended(list(plays)):
        count += 1
        listed_as = listed(play.game)
        attributes = {}
        if play.bgg_id is not None:
            attributes["id"] = str(play.bgg_id)
        attributes.update(date=local_day(play.started).isoformat(), quantity="1",
                          length=str(play.minutes or 0),
                          incomplete="0" if play.finished else "1", nowinstats="0",
                          location=xml_text(play.location or ""))
        element = ET.SubElement(root, "play", attributes)
        item = {"name": listed_as.name, "objecttype": "thing"}
        if listed_as.bgg_id is not None:
            item["objectid"] = str(listed_as.bgg_id)
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


def bgg_texts(plays: Iterable[Play]) -> Iterator[str]:
    """Each `<play>` element of bgg_tree(plays) as bgg_xml writes it (ElementTree indented
    by two spaces, the play one level in), without building the elements: an export of
    thousands of plays spent most of its time there (storage/exports.py). The same
    bytes: tests/test_exports.py."""
    for play in in_the_order_they_ended(list(plays)):
        listed_as = listed(play.game)
        head = f'<play id="{play.bgg_id}" ' if play.bgg_id is not None else "<play "
        said = play.comments if play.comments is not None else play.title
        lines = [xml_text(said)] if said else []
        if play.bgg_id is None:
            lines.append(warledger_line(play))
        objectid = (f' objectid="{listed_as.bgg_id}"' if listed_as.bgg_id is not None
                    else "")
        parts = [
            f'{head}date="{local_day(play.started).isoformat()}" quantity="1" '
            f'length="{play.minutes or 0}" incomplete="{"0" if play.finished else "1"}" '
            f'nowinstats="0" location="{_attribute(xml_text(play.location or ""))}">\n'
            f'    <item name="{_attribute(listed_as.name)}" objecttype="thing"{objectid}>\n'
            '      <subtypes>\n        <subtype value="boardgame" />\n      </subtypes>\n'
            '    </item>']
        if lines:
            text = "\n".join(lines)
            parts.append(f"\n    <comments>{_text(text)}</comments>" if text
                         else "\n    <comments />")
        if not play.players:
            parts.append("\n    <players />")
        else:
            parts.append("\n    <players>")
            for p in play.players:
                if p.anonymous:
                    name, username, userid = ANONYMOUS_NAME, "", "0"
                else:
                    name, username, userid = _name(p.name), p.username or "", p.userid or "0"
                color = p.role if p.role is not None else p.side or ""
                parts.append(
                    f'\n      <player username="{_kept(username)}" '
                    f'userid="{_attribute(userid)}" name="{name}" '
                    f'startposition="{_kept(p.position or "")}" '
                    f'color="{_kept(color)}" '
                    f'score="{"" if p.score is None else p.score}" '
                    f'new="{"1" if p.new else "0"}" rating="0" win="{"1" if p.won else "0"}" />')
            parts.append("\n    </players>")
        parts.append("\n  </play>")
        yield "".join(parts)


# What ElementTree escapes in an attribute's value (an element's text: the first three).
_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"),
            ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;"))
_TO_ESCAPE = re.compile('[&<>"\r\n\t]')


def _attribute(value: str) -> str:
    """An attribute's value escaped as ElementTree escapes it."""
    if _TO_ESCAPE.search(value) is None:
        return value
    for plain, escape in _ESCAPES:
        value = value.replace(plain, escape)
    return value


# A club's few names, colours and positions come again at every play: escaped once each.
@functools.lru_cache(maxsize=4096)
def _kept(value: str) -> str:
    """A text kept from a file, as an attribute's value."""
    return _attribute(xml_text(value))


@functools.lru_cache(maxsize=4096)
def _name(name: str) -> str:
    """A player's name as an attribute's value; RuleError if XML cannot hold it."""
    _xml_can_hold(name)
    return _attribute(name)


def _text(value: str) -> str:
    """An element's text escaped as ElementTree escapes it."""
    for plain, escape in _ESCAPES[:3]:
        if plain in value:
            value = value.replace(plain, escape)
    return value


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
            # every play of the day has its end (checked just above)
            for i, play in zip(found, sorted(day, key=lambda p: cast(datetime, p.ends)),
                               strict=True):
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


def read_bgg(source: BinaryIO) -> PlaysFile:
    """BoardGameGeek plays XML, read play by play (rules.streams: a DTD, entities or a file
    of any shape that is no plays file is refused, in flat memory)."""
    found = plays_of("bgg", xml_children(source, "plays", "play"), _bgg_play)
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


def _bgg_play(element: Element, skips: Counter[str], notes: dict[str, None], shared: dict[Said, Said]
              ) -> Play | None:
    attrs = element.attrib
    item = element.find("item")
    name: str | None = item.get("name", "") if item is not None else ""  # the game's; then a player's
    objectid = number_in(item.get("objectid") if item is not None else None, "objectid",
                       low=0, high=10**9)
    game = game_played(name, objectid)
    if game is None:
        skips[OTHER_GAMES] += 1
        return None
    play_id = number_in(attrs.get("id"), "id", low=1, high=10**12)
    day = day_of(attrs.get("date"))
    if attrs.get("incomplete", "0").strip() not in ("", "0"):
        skips[UNFINISHED] += 1
        return None
    quantity = number_in(attrs.get("quantity"), "quantity", low=0, high=10**6)
    if quantity is not None and quantity > 1:
        skips[SEVERAL] += 1
        return None
    minutes = number_in(attrs.get("length"), "length", low=0, high=MINUTES_LIMIT) or None
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
            anonymous=anonymous, position=kept_text(a.get("startposition")),
            new=a.get("new", "0").strip() not in ("", "0"),
            username=kept_text(username), userid=userid if re.fullmatch(r"\d{1,12}", userid)
            and userid != "0" else None))
    if not seats_the_game(game, raw_players, skips):
        return None
    players = players_of(game, raw_players, notes, shared)
    if places is not None and len(places) == len(players) and \
            all(1 <= place <= len(players) for place in places):
        players = tuple(replace(p, place=place) for p, place in zip(players, places,
                                                                    strict=True))
    source = f"bgg:{play_id}" if play_id is not None else "bgg:" + digest(
        game, day.isoformat(), [(p.name, p.side, p.score, p.won) for p in players])
    started = datetime.combine(day, time(12), UTC)
    return Play(game, started, minutes, True, players, title, 0, uid, source,
                location=kept_text(attrs.get("location")), comments=comments,
                bgg_play=play_id)



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



def _position(value: str | None) -> int | None:
    """A BoardGameGeek start position: free text there ("1", "first"); a number orders the
    seats, anything else leaves the player in the file's order."""
    value = (value or "").strip()
    return int(value) if re.fullmatch(r"\d{1,2}", value) else None


