"""aiohttp's insides warledger relies on. Every answer aiohttp writes says `Server:
Python/3.11 aiohttp/3.x` unless the response set its own; the answers its protocol makes
by itself (400 for a request line past 8,190 bytes) never reach the application's
`on_response_prepare`, so the name they take is set where aiohttp reads it. And the web
table accepts its connections itself (tui.hosting.web.Door, a site of aiohttp's), so the
site is told which sockets it listens on (`site_listens_on`)."""

from __future__ import annotations

import socket

from aiohttp import web, web_response

SERVER_NAME = "SERVER_SOFTWARE"  # web_response's copy of aiohttp.http.SERVER_SOFTWARE


def name_the_server(name: str) -> None:
    """Every answer of this process's aiohttp servers says `Server: name` (a library and
    its version tell a passer-by which flaws to try)."""
    setattr(web_response, SERVER_NAME, name)


# A site's server, which its stop() closes and its runner's `addresses` reads the sockets of.
SITE_SERVER = "_server"


class Listening:
    """What a site's runner reads of its server: its sockets. Closing them is the site's."""

    def __init__(self, sockets: list[socket.socket]) -> None:
        self.sockets = sockets

    def close(self) -> None:
        pass


def site_listens_on(site: web.BaseSite, sockets: list[socket.socket]) -> None:
    """`site` (one that accepts its connections itself) listens on `sockets`: its runner's
    `addresses` lists them."""
    setattr(site, SITE_SERVER, Listening(sockets))
