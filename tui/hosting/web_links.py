"""The secret links of `serve web` (issue 26): one per player, one for the spectators.

Each link holds a token of its own (`secrets.token_urlsafe`, TOKEN_BYTES random bytes), made
when the table opens and forgotten when it closes: a restart gives new links. A tab that
opens its link gets the token in a cookie (HttpOnly, SameSite=Strict, Path=/) and goes on to
the table's page at an address without it; the page's websocket is let in by the cookie.
The link a request holds is found by comparing its token with every link's in constant time
(`hmac.compare_digest`), never by looking the secret up.

A player's tab runs the TUI as that player (`--player=NAME`, named in the header and in the
history as over SSH); the spectators' runs the scoreboard. Tokens never reach the host's
console but in the links printed when the table opens (see `redacted` for libraries' logs).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import io
import json
import re
import secrets
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote

from yarl import URL

from i18n import N_

TOKEN_PARAM = "token"  # the link's query parameter
TOKEN_BYTES = 32  # random bytes of a token: 43 characters in the link
TOKEN_AT_MOST = 256  # characters of a token a request may bring (a longer one is no token)
COOKIE_PREFIX = "warledger-"  # and the table's port: two tables on one machine keep theirs
WRONG_FREE = 5  # wrong tokens an address may bring in WRONG_WINDOW before it is slowed
WRONG_WINDOW = 60.0  # seconds
WRONG_DELAY_AT_MOST = 4.0  # seconds a refusal waits, at most
WRONG_ADDRESSES = 4096  # addresses remembered at most (the oldest forgotten first)
QR_WIDTH_AT_MOST = 80  # columns of the host's terminal a link's QR code may take
QR_BORDERS = (4, 2)  # the quiet zone QR codes ask for, else the narrowest readers take
NO_LINK = N_("This warledger table lets in only the players its host gave a link to, and "
             "its links change each time it opens. Ask the host for your link.")
# The page a link opens: it sets the cookie and goes on at once to the table's page without
# the token, replacing itself in the history. (Not an HTTP redirect: a browser that follows
# a redirect chain begun on another site, a chat's link, may send no SameSite=Strict cookie.)
WELCOME_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0; url={target_html}"><title>warledger</title></head>
<body><script>location.replace({target_js});</script></body></html>
"""
_TOKEN_SHOWN = re.compile(rf"({TOKEN_PARAM}=|{COOKIE_PREFIX}\d+=)[^\s&;\"'<>]+", re.IGNORECASE)
# A run of the characters a token is written in, percent-escaped or not: a token cut short
# by a log line's end, or spelled %74oken=, is still one of these.
_TOKEN_LIKE = re.compile(r"(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2})+")
PIECE = 8  # characters of a token that are not shown anywhere (6 bits each: 48 bits)


@dataclass(frozen=True)
class Link:
    """One secret link to the table: whose it is (a player's name, or None for the
    spectators) and what its tabs run. The token is left out of the repr."""
    player: str | None
    argv: tuple[str, ...]
    token: str = field(default_factory=lambda: secrets.token_urlsafe(TOKEN_BYTES),
                       repr=False)

    @property
    def spectator(self) -> bool:
        return self.player is None

    def url(self, base: str) -> str:
        """The link at the table's address `base` (http://192.168.1.20:8000)."""
        return str(URL(base.rstrip("/") + "/").with_query({TOKEN_PARAM: self.token}))


def player_command(db: str | None, player: str) -> tuple[str, ...]:
    """What a player's tab runs: the TUI as that player, as an SSH player's does."""
    return (sys.executable, "-m", "tui", *(["--db", db] if db else []), f"--player={player}")


def scoreboard_command(db: str | None) -> tuple[str, ...]:
    """What the spectators' tab runs: the scoreboard, which records nothing."""
    return (sys.executable, "-m", "tui", *(["--db", db] if db else []), "scoreboard")


def table_links(db: str | None, players: list[str]) -> list[Link]:
    """A new link for each player (names already checked), then the spectators'."""
    return [*(Link(name, player_command(db, name)) for name in players),
            Link(None, scoreboard_command(db))]


def holder(links: tuple[Link, ...], token: str | None) -> Link | None:
    """The link whose token is `token`, compared with every link's in constant time (each
    one compared, whichever matches)."""
    given = (token or "").encode("utf-8", "replace")
    if len(given) > TOKEN_AT_MOST:
        given = b""
    found = None
    for link in links:
        if hmac.compare_digest(link.token.encode("ascii"), given):
            found = link
    return found


def cookie_name(port: int) -> str:
    return f"{COOKIE_PREFIX}{port}"


def cookie_value(link: Link, port: int) -> str:
    """What a link's cookie holds at the table on `port`: a value derived from its token for
    that table and port (HMAC-SHA256), never the token. A browser sends a host's cookies to
    every port of its name, so another service there must not learn the links."""
    digest = hmac.new(link.token.encode("ascii"), f"warledger cookie {port}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def cookie_holder(links: tuple[Link, ...], port: int, value: str | None) -> Link | None:
    """The link whose cookie at `port` is `value`, compared with every link's in constant
    time."""
    given = (value or "").encode("utf-8", "replace")
    if len(given) > TOKEN_AT_MOST:
        given = b""
    found = None
    for link in links:
        if hmac.compare_digest(cookie_value(link, port).encode("ascii"), given):
            found = link
    return found


class WrongTokens:
    """Wrong tokens by address: after WRONG_FREE in WRONG_WINDOW seconds, each refusal of
    that address waits, twice as long each time up to WRONG_DELAY_AT_MOST. Not guessable at
    256 bits, but refusals answered at once are free load."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seen: OrderedDict[str, list[float]] = OrderedDict()

    def wrong(self, address: str) -> float:
        """Count a wrong token from `address`; the seconds its refusal waits."""
        now = self.clock()
        times = [t for t in self.seen.pop(address, []) if now - t < WRONG_WINDOW]
        times.append(now)
        self.seen[address] = times[-(WRONG_FREE + 8):]  # enough to reach the longest wait
        while len(self.seen) > WRONG_ADDRESSES:
            self.seen.popitem(last=False)
        over = len(times) - WRONG_FREE
        return 0.0 if over <= 0 else min(WRONG_DELAY_AT_MOST, 0.25 * 2 ** (over - 1))


def welcome_page(query: dict[str, str]) -> str:
    """The page a valid link opens: on to the table's page, `query` kept (its language,
    say) but the token."""
    target = str(URL.build(path="/", query={name: value for name, value in query.items()
                                            if name != TOKEN_PARAM}))
    return WELCOME_PAGE.format(target_html=html.escape(target, quote=True),
                               target_js=json.dumps(target).replace("<", "\\u003c"))


def qr_lines(url: str, width: int = QR_WIDTH_AT_MOST) -> list[str]:
    """`url` as a QR code for the host's terminal: lines of half blocks and spaces (no
    escape sequences), at most `width` columns; none when it cannot fit."""
    import segno

    code = segno.make_qr(url)
    for border in QR_BORDERS:
        if code.symbol_size(border=border)[0] <= width:
            drawn = io.StringIO()
            code.terminal(out=drawn, compact=True, border=border)
            return drawn.getvalue().splitlines()
    return []


def redacted(line: str, tokens: Iterable[str] = ()) -> str:
    """`line` with any token shown in it cut out: a link's `token=`, a table's cookie, and
    any run of PIECE characters or more of one of `tokens` (the live links'), however it is
    spelled (percent-escaped: `%74oken=`) or cut (the end of an overlong request line). For
    what libraries log, which the table does not write itself."""
    line = _TOKEN_SHOWN.sub(r"\1…", line)
    pieces = {token[i:i + PIECE] for token in tokens for i in range(len(token) - PIECE + 1)}

    def shown(run: re.Match) -> str:
        text = run.group()
        plain = unquote(text) if "%" in text else text
        if _TOKEN_SHOWN.search(plain):
            return _TOKEN_SHOWN.sub(r"\1…", plain)
        if any(plain[i:i + PIECE] in pieces for i in range(len(plain) - PIECE + 1)):
            return "…"
        return text

    return _TOKEN_LIKE.sub(shown, line) if pieces or "%" in line else line
