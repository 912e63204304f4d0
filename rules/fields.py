"""Strict readers for the JSON objects of the session file (unknown keys are an error),
and the one rule for text that people type: names, titles, colours and notes.

New input (a session file, a form, a key comment) is checked here: trimmed, NFC, no control
or text-direction characters, a length that fits the screens, numbers within the game's
bounds. A player's name is checked further (`player_name`, `looks_alike`): it never starts
with `-`, holds nothing invisible, and no two players' names look the same. Rows an earlier
version stored are read as they were (`stored_rows`): a database must keep opening whatever
it already holds; the screens show such text safely.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from typing import Any

from i18n import N_, _, format_number, ngettext
from rules.errors import RuleError

# Lengths that fit the screens: a name in a grid row label and a totals column, a title in
# the header and the list of saved games.
NAME_LIMIT = 24
TITLE_LIMIT = 60
BOARD_LIMIT = 60
COLOUR_LIMIT = 16
NOTE_LIMIT = 200

# Characters that reorder the text around them (U+202A-202E, U+2066-2069): a name holding
# one can show as another name, or turn a whole line of a screen around.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), as code point ranges:
# characters drawn as nothing (zero-width space, the Hangul fillers, tag characters), so a
# name holding one looks like the name without it.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


@cache
def _ignorable() -> frozenset[str]:
    """DEFAULT_IGNORABLE as a set: every character of every name of an import is asked (a
    16 MB file of plays spent 29 of its 92 profiled seconds scanning the ranges). Made at
    the first name checked, not at import: the TUI imports this module before its first
    frame, which no name waits for (a few milliseconds of 4,300 characters)."""
    return frozenset(chr(code) for low, high in DEFAULT_IGNORABLE
                     for code in range(low, high + 1))

# The invisible characters a name may still hold, because writing needs them: the joiners
# (Persian, the Indic scripts, emoji sequences) and the variation selectors (the emoji ❤️).
NAME_INVISIBLES_KEPT = frozenset("\u200c\u200d") | frozenset(map(chr, range(0xFE00, 0xFE10)))
BLANK_LOOKING = frozenset("\u2800")  # BRAILLE PATTERN BLANK: a symbol drawn as a space

_stored = ContextVar("reading_stored_rows", default=False)


@contextmanager
def stored_rows() -> Iterator[None]:
    """Read what the database already holds: the limits on new text and numbers are not
    applied (the shape still is), so a game an earlier version stored still opens."""
    token = _stored.set(True)
    try:
        yield
    finally:
        _stored.reset(token)


def reading_stored() -> bool:
    """Whether rows the database already holds are being read and folded (`stored_rows`):
    a rule added since an earlier version stored them is not applied to them."""
    return _stored.get()


def obj(data: Any, what: str, required: AbstractSet[str],
        optional: AbstractSet[str] = frozenset()) -> dict[str, Any]:
    """Check that `data` is an object with exactly the allowed keys; return it as a dict."""
    if not isinstance(data, Mapping):
        # TRANSLATORS: {what} names the object ("player 2", "the session file"), {kind}
        # what came instead ("a list").
        raise RuleError(_("{what} must be an object, not {kind}").format(
            what=what, kind=type_name(data)))
    keys = set(data)
    unknown = sorted(keys - required - set(optional))
    if unknown:
        # TRANSLATORS: {keys} are the session file's keys, quoted: 'gold', 'vp'.
        raise RuleError(_("{what} has unknown key {keys}").format(
            what=what, keys=", ".join(repr(k) for k in unknown)))
    missing = sorted(required - keys)
    if missing:
        raise RuleError(_("{what} is missing {keys}").format(
            what=what, keys=", ".join(repr(k) for k in missing)))
    return dict(data)


def whole(value: Any, what: str, *, low: int | None = 0, high: int | None = None) -> int:
    """A whole number within [low, high]; booleans and floats are refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(_("{what} must be a whole number, not {value}").format(
            what=what, value=shown(value)))
    if _stored.get():  # checked against the bounds of its day when it was stored
        return value
    if low is not None and value < low:
        raise RuleError(_("{what} must be at least {low}, not {value}").format(
            what=what, low=number_shown(low), value=number_shown(value)))
    if high is not None and value > high:
        raise RuleError(_("{what} must be at most {high}, not {value}").format(
            what=what, high=number_shown(high), value=number_shown(value)))
    return value


def number_shown(value: int) -> str:
    """A number as a message shows it: grouped as the reader groups digits, and cut when
    it is absurdly long."""
    out = f"{value:,}" if len(str(abs(value))) > 24 else format_number(value)
    return out if len(out) <= 24 else out[:20] + "…"


def text(value: Any, what: str, limit: int = NAME_LIMIT) -> str:
    """Text a person typed: trimmed and NFC-normalised; refused when empty, longer than
    `limit` characters, or holding a control or text-direction character."""
    if not isinstance(value, str) or not value.strip():
        raise RuleError(_("{what} must be a non-empty text, not {value}").format(
            what=what, value=shown(value)))
    if _stored.get():
        return value.strip()
    return plain_text(value, what, limit)


def player_name(value: Any, what: str) -> str:
    """A player's name: `text` up to NAME_LIMIT, and more. It may not start with `-` (it is
    passed to a player's process on its command line), hold an invisible character (beyond
    the joiners and variation selectors writing needs), or look blank (`ㅤ`, zero-width
    characters only). Whether two names look the same is `looks_alike`."""
    name = text(value, what, NAME_LIMIT)
    if _stored.get():
        return name
    if name.startswith("-"):
        # TRANSLATORS: {name} is the name typed, quoted; an option: of the command line.
        raise RuleError(_("{what} may not start with '-': {name} would read as an "
                          "option").format(what=what, name=shown(name)))
    for char in name:
        if default_ignorable(char) and char not in NAME_INVISIBLES_KEPT:
            # TRANSLATORS: {char} is the character's escape, such as \u200b.
            raise RuleError(_("{what} holds an invisible character ({char}): use letters, "
                              "digits, spaces and punctuation only").format(
                                  what=what, char=escaped(char)))
    if not any(unicodedata.category(c)[0] in "LNPS" and c not in BLANK_LOOKING
               for c in name if not default_ignorable(c)):
        # TRANSLATORS: {chars} is every character of the name as its escape (\u3164).
        raise RuleError(_("{what} looks blank ({chars}): a name needs a letter, a digit or "
                          "a sign that shows").format(
                              what=what, chars="".join(map(escaped, name))))
    return name


def looks_alike(first: str, second: str) -> bool:
    """Whether two players' names would pass for each other: the same name, case aside, or
    names that differ only by look-alike or invisible characters (`Аna` with a Cyrillic А
    beside `Ana`, `Ana` + ZERO WIDTH JOINER beside `Ana`). Each name's Unicode TR39 skeleton
    is compared, as written and case-folded. Names an earlier version stored are compared
    as it did: case aside."""
    if first.casefold() == second.casefold():
        return True
    if _stored.get():
        return False
    return not _skeletons(first).isdisjoint(_skeletons(second))


class LookAlikes:
    """Names met so far, each found again by what `looks_alike` compares (the name case
    aside, its skeletons) instead of by comparing a new name with each of them: an import
    naming hundreds of players made hundreds of thousands of comparisons."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._folded: dict[str, str] = {}
        self._skeletons: dict[str, str] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        self._folded.setdefault(name.casefold(), name)
        for shape in _skeletons(name):
            self._skeletons.setdefault(shape, name)

    def alike(self, name: str) -> str | None:
        """A name met that `name` would pass for (looks_alike), None when there is none."""
        found = self._folded.get(name.casefold())
        if found is not None or _stored.get():
            return found
        return next((self._skeletons[shape] for shape in _skeletons(name)
                     if shape in self._skeletons), None)


def person(name: str) -> str:
    """Who a player's name means across games, and at a terminal seated by name: the name
    trimmed, NFC-normalised and case-folded. `Ana`, `ana` and `ANA ` are one person in the
    league, and a key's `player="ana"` sits as the seat `Ana`."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


def distinct_name(name: str, others: Iterable[str]) -> None:
    """RuleError when `name` would pass for one of the players' names `others`
    (`looks_alike`), naming both."""
    for other in others:
        if other.casefold() == name.casefold():
            raise RuleError(_("Two players are named {name}: names must differ").format(
                name=name))
        if looks_alike(other, name):
            raise RuleError(_("{first} and {second} look alike: names must differ by more "
                              "than look-alike or invisible characters").format(
                                  first=spelled(other), second=spelled(name)))


def spelled(name: str) -> str:
    """A name with, after it, every character past ASCII as its escape, so two names that
    look alike show how they differ: 'Аna (\\u0410na)'."""
    if name.isascii():
        return name
    return f"{name} ({''.join(c if c.isascii() else escaped(c) for c in name)})"


def default_ignorable(char: str) -> bool:
    """A character Unicode says is drawn as nothing (Default_Ignorable_Code_Point)."""
    return char in _ignorable()


def skeleton(value: str) -> str:
    """Unicode TR39's skeleton of `value`: NFD, without default-ignorable characters, each
    character replaced by the prototype of the characters it can be confused with, NFD
    again. Two texts with one skeleton look alike."""
    prototypes = _prototypes()
    out = unicodedata.normalize("NFD", value)
    for _pass in range(3):  # a prototype of several characters is mapped once more
        mapped = unicodedata.normalize("NFD", "".join(
            prototypes.get(c, c) for c in out if not default_ignorable(c)))
        if mapped == out:
            break
        out = mapped
    return out


@lru_cache(maxsize=256)
def _skeletons(name: str) -> frozenset[str]:
    return frozenset({skeleton(name), skeleton(name.casefold())})


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and its prototype, from Unicode's confusables.txt as the
    confusable_homoglyphs package ships it: a link for each line of the file (character and
    prototype, both ways). A prototype is never itself mapped, so each prototype is linked
    to the characters confused with it and each of those to it alone: a character linked to
    several is a prototype, and of two linked only to each other either stands for both."""
    from importlib import resources  # not at import: the TUI's start needs none of it

    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json")
                      .read_text(encoding="utf-8"))
    plain = str.maketrans("", "", "\u200e\u200f")  # the marks the file puts round RTL letters
    prototypes: dict[str, str] = {}
    for char, homoglyphs in data.items():
        if len(homoglyphs) != 1:
            continue  # a prototype: it stands for itself
        other = homoglyphs[0]["c"]
        one, two = char.translate(plain), other.translate(plain)
        if len(one) == 1 and one != two:
            prototypes[one] = (two if len(two) > 1 or len(data.get(other, ())) > 1
                               else min(one, two))
    return prototypes


def plain_text(value: str, what: str, limit: int) -> str:
    """`value` trimmed and NFC-normalised, or a RuleError saying what is wrong with it
    (an empty result is allowed: `text` refuses it where a text is required)."""
    if len(value) > 16 * limit:  # refused before normalising: NFC of a huge text is slow
        raise RuleError(ngettext("{what} is {length} character long: at most {limit} fit",
                                 "{what} is {length} characters long: at most {limit} fit",
                                 len(value)).format(
            what=what, length=number_shown(len(value)), limit=limit))
    value = unicodedata.normalize("NFC", value).strip()
    for char in value:
        if unsafe_char(char):
            # TRANSLATORS: {char} names the character: "a tab (\x09)".
            raise RuleError(_("{what} holds {char}: use letters, digits, spaces and "
                              "punctuation only").format(what=what, char=char_name(char)))
    if len(value) > limit:
        raise RuleError(ngettext(
            "{what} is {length} character long: at most {limit} fit on the screens",
            "{what} is {length} characters long: at most {limit} fit on the screens",
            len(value)).format(what=what, length=number_shown(len(value)), limit=limit))
    return value


def unsafe_char(char: str) -> bool:
    """A character that must never reach a terminal as it is: controls (C0, DEL, C1, ESC
    above all), text-direction overrides, line and paragraph separators, lone surrogates."""
    return (char in BIDI_CONTROLS
            or unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp"))


def char_name(char: str) -> str:
    """'a control character (\\x1b)': how a refused character is named in a message."""
    # TRANSLATORS: {char} is the character's escape: \u202e, \n, \x1b.
    said = (_("a text-direction override ({char})") if char in BIDI_CONTROLS
            else _("a line break ({char})") if char in "\n\r\u2028\u2029"
            else _("a tab ({char})") if char == "\t"
            else _("a control character ({char})"))
    return said.format(char=escaped(char))


def escaped(char: str) -> str:
    """A character as Python writes it in a string: \\x1b, \\u202e."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def note(value: Any, what: str) -> str:
    """An optional note (a correction's reason): text up to NOTE_LIMIT, may be empty."""
    if not isinstance(value, str):
        raise RuleError(_("{what} must be a text, not {value}").format(
            what=what, value=shown(value)))
    if _stored.get():
        return value.strip()
    return plain_text(value, what, NOTE_LIMIT)


def choice(value: Any, what: str, options: tuple[str, ...]) -> str:
    """One of a fixed set of words."""
    if value not in options:
        # TRANSLATORS: {options} are the session file's words, as they are: split, full.
        raise RuleError(_("{what} must be one of {options}, not {value}").format(
            what=what, options=", ".join(options), value=shown(value)))
    return str(value)


def flag(value: Any, what: str) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        # TRANSLATORS: true and false are the session file's words (JSON): keep them.
        raise RuleError(_("{what} must be true or false, not {value}").format(
            what=what, value=shown(value)))
    return value


def listing(value: Any, what: str) -> list[Any]:
    """A JSON list."""
    if not isinstance(value, list):
        raise RuleError(_("{what} must be a list, not {value}").format(
            what=what, value=shown(value)))
    return value


def mapping(value: Any, what: str) -> dict[str, Any]:
    """A JSON object with any keys."""
    if not isinstance(value, Mapping):
        raise RuleError(_("{what} must be an object, not {value}").format(
            what=what, value=shown(value)))
    return dict(value)


# What a JSON value is, as a refusal says it (message ids; `type_name` shows one).
TYPE_NAMES = {dict: N_("an object"), list: N_("a list"), str: N_("a text"),
              bool: N_("true/false"), int: N_("a number"), float: N_("a number"),
              type(None): "null"}
OTHER_TYPE = N_("a value")


def type_name(value: Any) -> str:
    """'an object', 'a list': what a JSON value is, in the reader's language."""
    return _(TYPE_NAMES.get(type(value), OTHER_TYPE))


def and_list(items: Iterable[str]) -> str:
    """'Spain', 'Spain and Russia', 'France, Spain and Russia', in the reader's language."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    # TRANSLATORS: the end of a list: {names} is "France, Spain", {last} "Russia".
    return _("{names} and {last}").format(names=", ".join(items[:-1]), last=items[-1])


def or_list(items: Iterable[str]) -> str:
    """'soe or risk', 'a, b or c': a choice of words, in the reader's language."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    # TRANSLATORS: the end of a choice: {names} is "a, b", {last} "c".
    return _("{names} or {last}").format(names=", ".join(items[:-1]), last=items[-1])


def shown(value: Any) -> str:
    """A value quoted in a message: its repr (controls escaped), cut to 40 characters."""
    if isinstance(value, int) and not isinstance(value, bool):
        return number_shown(value)
    text_ = repr(value) if not isinstance(value, str) or len(value) <= 40 else repr(value[:37])
    return text_ if len(text_) <= 40 else text_[:37] + "..."
