"""Typer's CliRunner, with the command built once (issue 28).

Typer's `CliRunner.invoke` builds the click command from the Typer app on every call,
reading every command's signature and type hints again: some 10 ms of CPU, 20-30 ms on a
busy machine, for each of the thousand-odd commands the CLI tests run. The warledger
process builds it once, when it starts; here it is built once per test process too. Each
call still parses its arguments, reads the environment and runs the command afresh (the
options' defaults are None and read at run time: nothing of one call stays for the next).
"""

from __future__ import annotations

from typing import Any

import typer.main
import typer.testing

_built: dict[int, Any] = {}


def command(app: typer.Typer):
    """The click command of `app`, built on the first call."""
    if id(app) not in _built:
        _built[id(app)] = (app, typer.main.get_command(app))  # the app kept: its id stays
    return _built[id(app)][1]


class CliRunner(typer.testing.CliRunner):
    """typer.testing.CliRunner, with `command(app)` in place of a new build each call."""

    def invoke(self, app: typer.Typer, *args: Any, **kwargs: Any):  # type: ignore[override]
        build = typer.testing._get_command
        typer.testing._get_command = command
        try:
            return super().invoke(app, *args, **kwargs)
        finally:
            typer.testing._get_command = build
