"""The fence (tui/compat): each private name of a library that warledger relies on still
exists with the shape relied on. A release that moves one fails the test naming it."""

from __future__ import annotations

import inspect

import asyncssh
import pytest

from tui.compat import asyncssh as asyncssh_compat

pytestmark = pytest.mark.unit


def test_asyncssh_reads_env_requests_through_a_handler_found_by_name():
    """An "env" channel request goes to `_process_env_request(packet)`, looked up by name on
    the channel, and its variables are kept in `_env`, which get_environment reads."""
    handler = getattr(asyncssh.SSHServerChannel, asyncssh_compat.ENV_REQUEST_HANDLER)
    assert list(inspect.signature(handler).parameters) == ["self", "packet"]
    dispatch = inspect.getsource(asyncssh.channel.SSHChannel._service_next_request)
    assert "'_process_' + map_handler_name(request) + '_request'" in dispatch
    assert "getattr(self, name" in dispatch
    reads = inspect.getsource(asyncssh.channel.SSHChannel.get_environment_bytes)
    assert f"self.{asyncssh_compat.ENV_STORE}" in reads
    made = inspect.getsource(asyncssh.SSHServerChannel.__init__)
    assert f"self.{asyncssh_compat.ENV_STORE} = dict(" in made
