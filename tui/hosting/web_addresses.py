"""Where a web table is reached (`warledger serve web`): this machine's addresses, the
addresses players open, and what the host's terminal says of them once the table is open.
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import socket
import struct
import sys
from collections.abc import Sequence
from typing import Protocol

from yarl import URL

from i18n import N_, _
from tui.hosting.web_links import Link, qr_lines


class WebTable(Protocol):
    """What the announcement reads of the table (tui.hosting.web.WebTable): named here, so
    that the table's module imports this one and not the other way round."""

    host: str
    port: int
    max_sessions: int
    given_url: str | None
    urls: list[str]
    public_url: str

    @property
    def links(self) -> Sequence[Link] | None: ...  # read only: the table's may be a tuple


# Where the table is served: (host, port) pairs a request's Host may name, and (scheme,
# host, port) triples a websocket's Origin may be.
Hosts = set[tuple[str, int]]
Origins = set[tuple[str, str, int]]

WILDCARDS = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
NO_LOGIN = N_("warning: the web has no login: anyone on these networks who opens the address "
               "can play; for named players with keys use `warledger serve ssh`")
SIOCGIFADDR = {"linux": 0x8915, "darwin": 0xC0206921}.get(sys.platform)


def is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_port(name: str, port: int) -> str:
    return f"[{name}]:{port}" if ":" in name else f"{name}:{port}"


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses, the one of the default route first and loopback last:
    the addresses a table listening on every network (0.0.0.0) can be reached at."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.connect(("192.0.2.1", 9))  # sends nothing: asks which address would be used
        found.append(udp.getsockname()[0])
    if SIOCGIFADDR is not None:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _index, name in socket.if_nameindex():
                with contextlib.suppress(OSError):
                    request = struct.pack("256s", name.encode()[:15])
                    found.append(socket.inet_ntoa(
                        fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)[20:24]))
    unique = [a for i, a in enumerate(found) if a not in found[:i] and a not in WILDCARDS]
    return ([a for a in unique if not is_loopback(a)] + [a for a in unique if is_loopback(a)]
            or ["127.0.0.1"])



def announcement(table: WebTable) -> list[str]:
    """What the host's terminal says once the table is open."""
    # TRANSLATORS: {address} is host:port, {n} --max-sessions.
    lines = [_("warledger table open in browsers (listening on {address}, up to {n} "
               "players)").format(address=host_port(table.host, table.port),
                                  n=table.max_sessions)]
    if table.links is not None:
        return lines + link_lines(table)
    if table.given_url:
        lines.append(_("players open {url}").format(url=table.given_url))
    else:
        lines += [_("players open {url}").format(url=url) for url in table.urls
                  if not is_loopback(URL(url).host or "")]
        local = [url for url in table.urls if is_loopback(URL(url).host or "")]
        if local and len(local) == len(table.urls):
            lines.append(_("open {url} (this machine only; --host 0.0.0.0 lets the "
                           "table's network in)").format(url=local[0]))
        elif local:
            lines.append(_("on this machine: {url}").format(url=local[0]))
    if not (is_loopback(table.host) and is_loopback(URL(table.public_url).host or "")):
        lines.append(_(NO_LOGIN))
    return lines


def link_lines(table: WebTable) -> list[str]:
    """Each link, as text and as a QR code, at the table's best address; then where
    else the same links work."""
    assert table.links is not None
    base = table.public_url
    lines = [_("each player opens their own link: whoever holds a link plays as its "
               "player, so give each to its player alone")]
    for link in table.links:
        url = link.url(base)
        lines.append((_("spectators open {url} (the scoreboard: it records nothing)")
                      if link.spectator else _("{player} opens {url}")).format(
                          player=link.player, url=url))
        lines += qr_lines(url) or [_("(no QR code: the link is too long for 80 "
                                     "columns)")]
    others = [] if table.given_url else [url for url in table.urls if url != base]
    lines += [_("the same links work with {url} in place of {base}").format(
        url=url, base=base) for url in others]
    if not table.given_url and all(is_loopback(URL(url).host or "") for url in table.urls):
        lines.append(_("these links work on this machine only; --host 0.0.0.0 lets the "
                       "table's network in"))
    return lines


def served(host: str, port: int, given_url: str | None) -> tuple[list[str], str, Hosts,
                                                                  Origins]:
    """Once the port is known: the addresses players can use (the best first), the one
    announced (`given_url`, --public-url, else the best), and so which Host headers and
    which pages' origins are the table's own."""
    names = interface_addresses() if host in WILDCARDS else [host]
    urls = [f"http://{host_port(name, port)}" for name in names]
    public_url = given_url or urls[0]
    # A browser on this machine may say localhost or 127.0.0.1 for the same address.
    aliases = LOOPBACK_NAMES if any(is_loopback(name) for name in names) else ()
    parsed = [URL(url) for url in [*urls, public_url]]
    parsed += [URL(f"http://{host_port(name, port)}") for name in aliases]
    return (urls, public_url, {(url.host or "", url.port or 0) for url in parsed},
            {(url.scheme, url.host or "", url.port or 0) for url in parsed})


def host_served(hosts: Hosts, raw: str | None) -> bool:
    """Whether a request's Host header names the table (DNS rebinding gets nothing)."""
    if not raw:
        return False
    try:
        url = URL(f"http://{raw}")
    except ValueError:
        return False
    name = url.host or ""
    if url.explicit_port is not None:
        return (name, url.explicit_port) in hosts
    return (name, 80) in hosts or (name, 443) in hosts


def origin_served(origins: Origins, raw: str | None) -> bool:
    """Whether a websocket's Origin header is the table's own page."""
    if not raw or raw == "null":
        return False
    try:
        url = URL(raw)
    except ValueError:
        return False
    return (url.scheme, url.host or "", url.port or 0) in origins
