"""`warledger serve web`: the same TUI in a browser, through textual-serve (one app process
per browser tab). Browser players are not identified: steps they record carry no author."""

from __future__ import annotations

import shlex
import sys


def web_command(db: str | None) -> str:
    """The shell command textual-serve starts for each browser tab."""
    return shlex.join([sys.executable, "-m", "tui.cli", *(["--db", db] if db else [])])


def serve(db: str | None, host: str, port: int, public_url: str | None = None) -> None:
    """Serve the TUI on http://host:port until Ctrl+C or SIGTERM."""
    from textual_serve.server import Server

    Server(web_command(db), host=host, port=port, title="warledger",
           public_url=public_url).serve()
