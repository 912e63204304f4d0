"""What a web table's host reads on its console of the tabs (`warledger serve web`): one line
each, controls escaped, no traceback, no piece of a link's token.
"""

from __future__ import annotations

import logging

from i18n import _
from tui.hosting.web_links import Link, redacted
from tui.text.literal import visible


def one_line(text: object, limit: int = 200) -> str:
    """`text` for one line of the host's console: controls and line breaks escaped."""
    return visible(str(text).replace("\r", "\\r").replace("\n", "\\n"), limit)


def comings_and_goings(link: Link | None) -> tuple[str, str]:
    """The host's lines for a tab sitting down and for it leaving: {address}, and {player}
    for a player."""
    if link is None:
        return _("a browser at {address} sat down"), _("a browser at {address} left")
    if link.spectator:
        return (_("a spectator sat down at the scoreboard from a browser at {address}"),
                _("a spectator left the scoreboard (a browser at {address})"))
    return (_("{player} sat down from a browser at {address}"),
            _("{player} left (a browser at {address})"))


class OneLine(logging.Formatter):
    """Libraries' log records (aiohttp, asyncio, textual-serve) as one line each on the
    host's console: no traceback (with its local variables) a player could set off."""

    def __init__(self, tokens: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.tokens = tokens  # the table's links': no piece of one is shown

    def format(self, record: logging.LogRecord) -> str:
        line = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            line += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        return one_line(redacted(f"{record.levelname.lower()}: {line}", self.tokens), 300)
