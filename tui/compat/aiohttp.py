"""aiohttp's insides warledger relies on. Every answer aiohttp writes says `Server:
Python/3.11 aiohttp/3.x` unless the response set its own; the answers its protocol makes
by itself (400 for a request line past 8,190 bytes) never reach the application's
`on_response_prepare`, so the name they take is set where aiohttp reads it."""

from __future__ import annotations

from aiohttp import web_response

SERVER_NAME = "SERVER_SOFTWARE"  # web_response's copy of aiohttp.http.SERVER_SOFTWARE


def name_the_server(name: str) -> None:
    """Every answer of this process's aiohttp servers says `Server: name` (a library and
    its version tell a passer-by which flaws to try)."""
    setattr(web_response, SERVER_NAME, name)
