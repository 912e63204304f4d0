"""Hostile text: what a mischievous player (or a doctored file, or a key comment) could
put where a name, title, colour or note goes. Shared by the rules, storage, CLI and TUI
tests of issue 11 ("player text is data").

`hostile_text()` draws anything; `printable_names()` draws only what the rules accept (so a
test can store it and then look for it on a screen).
"""

from __future__ import annotations

import unicodedata

from hypothesis import strategies as st

from rules.errors import RuleError
from rules.fields import NAME_LIMIT, player_name

# Each of these broke a screen, a terminal or a spreadsheet in the first version.
FRAGMENTS = [
    "[/]", "[b]", "[/b]", "[b]Ana[/b]", "Bo[/]", "[bold red]Ana[/]", "[@click=app.quit]Cy[/]",
    "[link=http://x]Bo[/link]", "[link=file:///etc/passwd]Y[/]", "[", "]", "[[", "\\[",
    "\x1b[2J", "\x1b]0;pwned\x07", "\x1b]8;;http://x\x1b\\", "\x07", "\x9b31m", "\x00",
    "\r", "\n", "\t", "\x7f", "\u202e", "\u2066", "\u200d", "\u200b", "\u2028",
    "👩‍👩‍👧", "🏳️‍🌈", "e\u0301", "Å", "ß", "=1+1", "+1", "-1", "@SUM(A1)",
    "=HYPERLINK(\"http://x\")", "%s", "{0}", "'; DROP TABLE player; --", ":", "·",
]

hostile_text = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), min_size=1, max_size=6)
    .map("".join),
    st.text(max_size=30),
    st.just("x" * 10_000),
    st.just("\x1b" * 50),
)


def acceptable(name: str) -> bool:
    """What the rules take as a player's name (rules.fields.player_name): after trimming
    and NFC, 1..NAME_LIMIT characters, no control or text-direction character, no `-` first,
    nothing invisible, not blank."""
    try:
        player_name(name, "a name")
    except RuleError:
        return False
    return True


printable_names = (
    st.lists(st.sampled_from([f for f in FRAGMENTS if acceptable(f)]) | st.text(
        st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=5),
        min_size=1, max_size=4)
    .map("".join)
    .map(lambda s: unicodedata.normalize("NFC", s).strip()[:NAME_LIMIT].strip())
    .filter(acceptable)
)
