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


def test_aiohttp_names_its_server_from_web_responses_copy_of_server_software():
    """Every response without a Server header of its own gets web_response.SERVER_SOFTWARE,
    read when its headers are prepared (the answers aiohttp's protocol makes by itself too)."""
    from aiohttp import http, web_protocol, web_response

    from tui.compat import aiohttp as aiohttp_compat

    assert getattr(web_response, aiohttp_compat.SERVER_NAME) is not None
    assert aiohttp_compat.SERVER_NAME in http.__all__
    prepared = inspect.getsource(web_response.StreamResponse._prepare_headers)
    assert f"headers.setdefault(hdrs.SERVER, {aiohttp_compat.SERVER_NAME})" in prepared
    assert "Response(" in inspect.getsource(web_protocol.RequestHandler.handle_error)
