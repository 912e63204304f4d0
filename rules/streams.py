"""Files of plays read as streams, with ceilings, so that no file of any shape fills the
host's memory: a 12 MB BoardGameGeek file of 1.75 million nested elements took 483 MB read
whole, 16 MB of empty elements 354 MB, and 14 MB of empty JSON objects 373 MB (issue 46).

XML is read element by element (defusedxml's iterparse: no DTD, no entities), each play
handed over whole as it ends and cleared after. JSON is read twice: once as events, to
check its shape (valid, not too deep, keys short and given once, each item of a list not
too big), then each list the reader asks for item by item (ijson).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

import ijson

from i18n import _
from rules.errors import RuleError
from rules.fields import shown

DEPTH_LIMIT = 16  # levels of nesting: a plays file needs 5 (XML) or 4 (JSON)
ITEM_PARTS_LIMIT = 2_000  # elements (XML) or values (JSON) of one play, player or game
OTHERS_LIMIT = 10_000  # elements beside the plays (XML)
KEY_LIMIT = 256  # characters of a JSON key
KEYS_LIMIT = 512  # keys of one JSON object


def xml_children(source: BinaryIO, root_tag: str, child_tag: str) -> Iterator[Any]:
    """Each `<child_tag>` child of the root, whole, as it ends (cleared once the next is
    read). RuleError for a file that is not XML, declares a DTD or entities, has another
    root, is nested deeper than DEPTH_LIMIT, holds a child of more than ITEM_PARTS_LIMIT
    elements, or more than OTHERS_LIMIT other children."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import iterparse

    depth = parts = others = 0
    root = None
    try:
        source.seek(0)
        for event, element in iterparse(source, events=("start", "end"),
                                        forbid_dtd=True, forbid_entities=True,
                                        forbid_external=True):
            if event == "start":
                depth += 1
                if root is None:
                    root = element
                    if element.tag != root_tag:
                        raise RuleError(_("a BoardGameGeek plays file starts with <{root}>, "
                                          "not <{tag}>").format(root=root_tag,
                                                               tag=shown(element.tag)))
                    continue
                if depth > DEPTH_LIMIT:
                    raise RuleError(too_deep())
                parts = 0 if depth == 2 else parts + 1
                if parts > ITEM_PARTS_LIMIT:
                    raise RuleError(_("a <{tag}> of the file holds over {n} elements").format(
                        tag=child_tag, n=ITEM_PARTS_LIMIT))
                continue
            depth -= 1
            if depth != 1:
                continue
            if element.tag == child_tag:
                yield element
            else:
                others += 1
                if others > OTHERS_LIMIT:
                    raise RuleError(too_many_others())
            if root is not None:
                root.clear()  # what was read is gone: the file's memory stays flat
    except DefusedXmlException:
        raise RuleError(_("the file declares entities or a DTD, which plays files never "
                          "need: it is not read")) from None
    except ParseError as e:
        # TRANSLATORS: {problem} is the XML parser's own words, in English.
        raise RuleError(_("the file is not valid XML: {problem}").format(
            problem=e)) from None


def json_shape(source: BinaryIO, start: int, lists: dict[str, int]) -> set[str]:
    """Check a JSON file (from byte `start`) as a stream of events: an object, no deeper than DEPTH_LIMIT, its
    keys at most KEY_LIMIT characters, given once in an object and at most KEYS_LIMIT of
    them, and each top-level list named in `lists` (the ones that will be read, item by
    item) of at most that many items, each of at most ITEM_PARTS_LIMIT values. Returns the
    top-level keys whose values are lists. RuleError naming the first problem."""
    keys: list[set[str]] = []  # the keys of each object open
    kinds: list[str] = []  # "map" or "array", for each container open
    listed: set[str] = set()
    top_key = ""
    items = parts = 0
    try:
        source.seek(start)
        for event, value in ijson.basic_parse(source, use_float=True):
            depth = len(kinds)
            if depth >= 2 and kinds[1] == "array" and top_key in lists:  # an item read later
                if depth == 2 and event != "end_array":
                    items += 1  # an item begins
                    parts = 0
                    if items > lists[top_key]:
                        raise RuleError(_("the file's {key} hold over {n} items").format(
                            key=top_key, n=lists[top_key]))
                parts += 1
                if parts > ITEM_PARTS_LIMIT:
                    raise RuleError(_("an item of the file's {key} holds over {n} "
                                      "values").format(key=top_key, n=ITEM_PARTS_LIMIT))
            if event == "map_key":
                if len(value) > KEY_LIMIT:
                    raise RuleError(_("the file has a key of over {n} characters").format(
                        n=KEY_LIMIT))
                if value in keys[-1]:
                    raise RuleError(_("the file gives the key {key} twice in one object; say "
                                      "it once").format(key=shown(value)))
                if len(keys[-1]) >= KEYS_LIMIT:
                    raise RuleError(_("an object of the file has over {n} keys").format(
                        n=KEYS_LIMIT))
                keys[-1].add(value)
                if depth == 1:
                    top_key = value
            elif event in ("start_map", "start_array"):
                if depth == 0 and event != "start_map":
                    raise RuleError(_("a BG Stats file is an object with players, games and "
                                      "plays"))
                if depth >= DEPTH_LIMIT:
                    raise RuleError(too_deep())
                if depth == 1 and event == "start_array":
                    listed.add(top_key)
                    items = 0
                kinds.append("map" if event == "start_map" else "array")
                if event == "start_map":
                    keys.append(set())
            elif event in ("end_map", "end_array"):
                if kinds.pop() == "map":
                    keys.pop()
            elif depth == 0:
                raise RuleError(_("a BG Stats file is an object with players, games and "
                                  "plays"))
    except RuleError:
        raise
    except ijson.JSONError as e:
        # TRANSLATORS: {problem} is the JSON parser's own words, in English.
        raise RuleError(_("the file is not valid JSON: {problem}").format(
            problem=str(e).splitlines()[0][:120] if str(e) else type(e).__name__)) from None
    except ValueError:  # an integer of thousands of digits (Python's int_max_str_digits)
        raise RuleError(_("the file holds a number too long to be a count")) from None
    return listed


def json_items(source: BinaryIO, start: int, key: str) -> Iterator[Any]:
    """Each item of the top-level list `key` of a file `json_shape` passed, one by one."""
    source.seek(start)
    items: Iterator[Any] = ijson.items(source, f"{key}.item", use_float=True)
    return items


def too_deep() -> str:
    return _("the file is nested too deeply to be a file of plays")


def too_many_others() -> str:
    return _("the file holds over {n} elements that are not plays").format(n=OTHERS_LIMIT)
