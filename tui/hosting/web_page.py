"""The page `serve web` serves (issue 45): the table's own, for a laptop and for a phone.

One xterm.js terminal (bundled in tui/hosting/page/, MIT: see its LICENSE-xterm.txt) fills
the visual viewport and follows it as the soft keyboard comes and goes and the phone turns,
telling the app its new size. Under it, a row of the keys a soft keyboard lacks (KEYS): Tab,
Esc, Enter, Undo, and a switch between a number pad and letters. The page asks for a
`width=device-width` viewport and a font size that puts about 45 columns across a phone's
short side (page/table.js), in the device's own monospace font: nothing is fetched from
another host, so a table with no internet loads it whole, and no player's address is told
to anyone.

Every answer carries the headers of `guarded` (a Content-Security-Policy allowing only the
table itself, among them).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from string import Template
from urllib.parse import quote

from aiohttp import web
from yarl import URL

from i18n import N_

PAGE_DIR = Path(__file__).with_name("page")  # the page, its script, styles and xterm.js
STATIC_PATH = "/static/"  # where they are served: no secret, served to anyone
INDEX = "index.html"
UNDO_KEY = "ctrl+z"  # the game's Undo (GameScreen's binding "undo"; a test holds them equal)
# The keys under the terminal: (id, label, what the key sends; None for the switch between
# the number pad and letters). As a terminal sends them: Esc alone, Enter as "\r".
KEYS: tuple[tuple[str, str, str | None], ...] = (
    ("tab", N_("Tab"), "\t"),
    ("escape", N_("Esc"), "\x1b"),
    # TRANSLATORS: the key that takes back the last step (ctrl+z), on the phone's key row.
    ("undo", N_("Undo"), "\x1a"),
    # TRANSLATORS: on the phone's key row: turns the number pad into a letters keyboard and
    # back.
    ("letters", N_("abc"), None),
    ("enter", N_("Enter"), "\r"),
)
# TRANSLATORS: on the phone's key row, once letters are shown: back to the number pad.
NUMBERS = N_("123")
# Every page: scripts and styles from the table alone (xterm.js writes its own <style>
# elements, hence 'unsafe-inline' for styles only), its socket to the table alone, no
# frame, no form, no base.
POLICY = ("default-src 'none'; script-src {scripts}; style-src 'self' 'unsafe-inline'; "
          "img-src 'self' data:; font-src 'self'; connect-src 'self'{sockets}; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
GUARDS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}


def policy(socket_url: str | None = None, script_sha256: str | None = None) -> str:
    """The Content-Security-Policy of a page: its socket's address allowed besides 'self'
    (older browsers do not count ws: as 'self'), and one inline script by its hash."""
    sockets = ""
    if socket_url:
        url = URL(socket_url)
        sockets = f" {url.scheme}://{url.raw_authority}"
    scripts = f"'sha256-{script_sha256}'" if script_sha256 else "'self'"
    return POLICY.format(scripts=scripts, sockets=sockets)


def script_hash(script: str) -> str:
    """An inline script's hash, as a Content-Security-Policy names it."""
    return base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


def socket_url(base: str, path: str) -> str:
    """The websocket's address for a page served at `base` (http://host:port)."""
    url = URL(base.rstrip("/") + path)
    return str(url.with_scheme("wss" if url.scheme == "https" else "ws"))


def page(socket: str, gettext: Callable[[str], str], language: str) -> str:
    """The table's page, in `language` (`gettext` its catalog's), its socket at `socket`."""
    template = Template((PAGE_DIR / INDEX).read_text(encoding="utf-8"))
    keys = "\n".join(
        f'    <button type="button" id="{key}"'
        + ("" if sends is None else f' data-send="{html.escape(json.dumps(sends))}"')
        + (f' aria-pressed="false" data-other="{html.escape(gettext(NUMBERS))}"'
           if sends is None else "")
        + f">{html.escape(gettext(label))}</button>"
        for key, label, sends in KEYS)
    return template.substitute(
        lang=html.escape(language), static=STATIC_PATH.rstrip("/"),
        socket=html.escape(socket, quote=True), keys=keys,
        keys_label=html.escape(gettext(N_("Keys a soft keyboard lacks"))),
        start=html.escape(gettext(N_("Start"))),
        ended=html.escape(gettext(N_("Session ended."))),
        restart=html.escape(gettext(N_("Restart"))))


def page_response(socket: str, gettext: Callable[[str], str], language: str) -> web.Response:
    return web.Response(text=page(socket, gettext, language), content_type="text/html",
                        headers={"Cache-Control": "no-store",
                                 "Content-Security-Policy": policy(socket)})


def static_route() -> web.AbstractRouteDef:
    """The page's script, styles and xterm.js, from the package (no listing)."""
    return web.static(STATIC_PATH.rstrip("/"), PAGE_DIR, show_index=False,
                      follow_symlinks=False, append_version=False)


async def guarded(request: web.Request, response: web.StreamResponse) -> None:
    """aiohttp's on_response_prepare: every answer's guards, a policy unless it has its
    own; the page's files revalidated rather than kept."""
    for name, value in GUARDS.items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("Content-Security-Policy", policy())
    if request.path.startswith(STATIC_PATH):
        response.headers.setdefault("Cache-Control", "no-cache")


def disposition(inline: bool, file_name: str) -> str:
    """A Content-Disposition for a file a tab's app offers: shown in the browser or saved,
    under its name (quoted for any browser; RFC 6266's filename* for the rest)."""
    plain = re.sub(r"[^A-Za-z0-9._ -]", "_", file_name) or "file"
    return (f"{'inline' if inline else 'attachment'}; filename=\"{plain}\"; "
            f"filename*=UTF-8''{quote(file_name, safe='')}")
