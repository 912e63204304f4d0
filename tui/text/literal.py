"""Text from people, shown exactly as typed: the one way the screens, the command line and
the host's log show names, titles, colours and notes.

Textual and Rich read a plain `str` as markup (`[b]`, `[/]`, `[link=…]`, `[@click=…]`) in
Static, Label, notify, Select and OptionList prompts, DataTable cells and Rich tables. A
player called `Bo[/]` would crash a screen, and `[@click=app.quit]Cy[/]` would quit it. So
player text never travels as markup: it becomes a Rich `Text` here, whose characters are
only characters. Control characters (ESC above all) and text-direction overrides never
reach a terminal raw: new text is refused where it enters (rules.fields), and text an
earlier version stored is shown with its escapes visible (`\\x1b`).
"""

from __future__ import annotations

from string import Formatter
from typing import Any

from rich.style import Style
from rich.text import Text

from rules.fields import escaped, unsafe_char

# What a text field lets in (Input's `restrict`): no control, text-direction, separator or
# surrogate character (the ones rules.fields.unsafe_char names), so a paste holding ESC is
# refused as it arrives instead of being drawn raw in the field.
TYPED_TEXT = r"[^\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]*"

# Old rows may hold text of any length: enough to recognise it, never pages of it.
SHOW_AT_MOST = 1_000


def visible(text: object, limit: int = SHOW_AT_MOST) -> str:
    """`text` with every character a terminal would obey (but the line break) shown as its
    escape (\\x1b, \\u202e) instead, cut to `limit` characters. Plain words pass unchanged."""
    text = str(text)
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    if not any(shown_escaped(c) for c in text):
        return text
    return "".join(escaped(c) if shown_escaped(c) else c for c in text)


def shown_escaped(char: str) -> bool:
    """Every character a terminal would obey, but the line break: the screens' own
    messages have several lines, and Rich and Textual break the line there themselves."""
    return char != "\n" and unsafe_char(char)


def literal(text: object, style: str | Style = "", **kwargs) -> Text:
    """`text` as a Rich Text shown character for character (never read as markup)."""
    return Text(visible(text), style=style, end="", **kwargs)


def words(*parts: object) -> Text:
    """A line made of literal parts: plain strings (and numbers), or (text, style) pairs
    for the words the screen itself emphasises: `words(("Ana", "bold"), " wins")`."""
    out = Text(end="")
    for part in parts:
        if isinstance(part, tuple):
            value, style = part
            out.append(visible(value), style=style)
        elif isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(visible(part))
    return out


def filled(message: str, style: str | Style = "", /, **values: object) -> Text:
    """A message of the catalogs (already through `_()`) with its `{placeholders}` filled,
    every part literal: a value is plain (a string, a number, a Text) or a (value, style)
    pair for what the screen emphasises: `filled(_("Delete {title}?"), title=(t, "bold"))`.
    The way to style a word inside a translated sentence without gluing the sentence;
    `style` is the whole line's."""
    out = Text(end="", style=style)
    for text, field, spec, conversion in Formatter().parse(message):
        if text:
            out.append(visible(text))
        if field is None:
            continue
        value, emphasis = values[field], ""
        if isinstance(value, tuple):
            value, emphasis = value
        if isinstance(value, Text):
            out.append_text(value)
            continue
        if conversion == "r":
            value = repr(value)
        out.append(visible(format(value, spec or "")), style=emphasis)
    return out


def lines(*rows: Text | str) -> Text:
    """Several literal lines as one Text (strings are shown literally)."""
    return Text("\n", end="").join(row if isinstance(row, Text) else literal(row) for row in rows)


def show_in(static: Any, content: Text | str) -> None:
    """Put `content` in a Static (or Label) unless it holds it already. Static.update lays
    the whole screen out again, and a game screen updates its message, its hint and the
    totals' note at every key: most keys change none of them."""
    if not same_text(static.content, content):
        static.update(content)


def same_text(a: object, b: object) -> bool:
    """Whether two contents show the same: the characters, their styles and the layout."""
    if isinstance(a, Text) and isinstance(b, Text):
        return ((a.plain, a.spans, a.style, a.justify, a.overflow, a.no_wrap, a.end)
                == (b.plain, b.spans, b.style, b.justify, b.overflow, b.no_wrap, b.end))
    return isinstance(a, str) and isinstance(b, str) and a == b
