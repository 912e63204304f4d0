"""The fence (tui/compat): each private name of a library that warledger relies on still
exists with the shape relied on. A release that moves one fails the test naming it."""

from __future__ import annotations

import inspect
from collections.abc import Iterable

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


def test_asyncssh_dispatches_kexinit_through_a_class_table_and_skips_by_a_flag():
    """KEXINIT goes to the handler in the class's `_packet_handlers` table (a coroutine
    function, called with the connection), and no packet is read until it is done; it sets
    `_ignore_first_kex`, which makes the next key exchange packet skipped; each side's
    KEXINIT payload is kept, message number first, in `_client_kexinit`/`_server_kexinit`."""
    from asyncssh.constants import MSG_KEXINIT
    from asyncssh.packet import SSHPacketHandler

    conn = asyncssh.SSHServerConnection
    handler = getattr(conn, asyncssh_compat.PACKET_HANDLERS)[MSG_KEXINIT]
    assert inspect.iscoroutinefunction(handler)
    assert len(inspect.signature(handler).parameters) == 4  # conn, pkttype, pktid, packet
    dispatch = inspect.getsource(SSHPacketHandler.process_packet)
    assert f"self.{asyncssh_compat.PACKET_HANDLERS}[pkttype](self, pkttype" in dispatch
    received = inspect.getsource(asyncssh.connection.SSHConnection._recv_packet)
    assert "if inspect.isawaitable(result):" in received
    assert "self._recv_handler = lambda: False" in received  # nothing read meanwhile
    assert f"if self.{asyncssh_compat.SKIP_GUESS}:" in received
    assert f"self.{asyncssh_compat.SKIP_GUESS} = False" in received
    kexinit = inspect.getsource(handler)
    assert f"self.{asyncssh_compat.SKIP_GUESS} = (" in kexinit
    assert f"self.{asyncssh_compat.CLIENT_KEXINIT} = packet.get_consumed_payload()" in kexinit
    sent = inspect.getsource(asyncssh.connection.SSHConnection._send_kexinit)
    assert "packet = b''.join((Byte(MSG_KEXINIT), cookie, kex_algs, host_key_algs," in sent
    assert f"self.{asyncssh_compat.SERVER_KEXINIT} = packet" in sent


def test_a_guess_is_right_only_when_both_firsts_are_the_same():
    """RFC 4253 §7.1 as OpenSSH and Dropbear read it: the first key exchange algorithm and
    the first host key algorithm of each side."""
    from asyncssh.packet import Boolean, Byte, NameList, UInt32

    def kexinit(kex, host_keys, follows=False):
        names = [kex, host_keys, *[[b"aes128-ctr"]] * 2, *[[b"hmac-sha2-256"]] * 2,
                 *[[b"none"]] * 2, [], []]
        return (Byte(20) + bytes(16) + b"".join(NameList(n) for n in names)
                + Boolean(follows) + UInt32(0))

    server = kexinit([b"mlkem768x25519-sha256", b"curve25519-sha256"], [b"ssh-ed25519"])
    wrong = asyncssh_compat.guess_is_wrong
    assert wrong(kexinit([b"curve25519-sha256"], [b"ssh-ed25519"], True), server)
    assert wrong(kexinit([b"mlkem768x25519-sha256"], [b"rsa-sha2-256", b"ssh-ed25519"],
                         True), server)
    assert not wrong(kexinit([b"mlkem768x25519-sha256", b"curve25519-sha256"],
                             [b"ssh-ed25519", b"rsa-sha2-256"], True), server)
    assert not wrong(kexinit([b"curve25519-sha256"], [b"ssh-ed25519"]), server)  # no guess


def test_textual_serve_decodes_the_packed_packets_textuals_web_driver_writes():
    """`textual_serve._binary_encode.load` reads what Textual's WebDriver packs (a file's
    chunk, `textual._binary_encode.dump`), and raises its DecodeError on a cut payload."""
    from textual import _binary_encode as textual_encode
    from textual_serve import _binary_encode

    from tui.compat import textual_serve as serve_compat

    assert list(inspect.signature(getattr(_binary_encode, serve_compat.LOADER)).parameters) \
        == ["encoded"]
    assert issubclass(getattr(_binary_encode, serve_compat.DECODE_ERROR), Exception)
    chunk = ["deliver_chunk", "key-1", b"<svg>\x00\xff"]
    assert serve_compat.unpacked(textual_encode.dump(chunk)) == chunk
    assert serve_compat.unpacked(textual_encode.dump(chunk)[:-3]) is None


# ---------------------------------------------------------------- Textual (tui/compat/textual.py)

def has(made, name: str) -> None:
    """`made` (an object, or a class) has `name`, as a class attribute or one set when an
    instance is made."""
    owner = made if isinstance(made, type) else type(made)
    assert hasattr(made, name), f"{owner.__name__} has no {name}: moved by a release"


def parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def textual_made():
    """One of each Textual class whose insides tui/compat/textual.py reads (made outside an
    app, as they can be)."""
    from textual.command import CommandPalette
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import DataTable, Footer

    return {"Widget": Widget(), "Screen": Screen(), "Footer": Footer(),
            "DataTable": DataTable(), "CommandPalette": CommandPalette()}


TEXTUAL_NAMES = [
    # The message pumps (peeked_message, queued_messages, callbacks_due, is_being_removed).
    ("Widget", "_pending_message"), ("Widget", "_message_queue"),
    ("Widget", "_next_callbacks"), ("Widget", "_pruning"), ("Widget", "_closing"),
    ("Widget", "_closed"),
    # The screen's layout (lay_out_now), a node's bindings (key_map), the footer's.
    ("Screen", "_layout_required"), ("Screen", "_on_timer_update"), ("Widget", "_bindings"),
    ("Footer", "_bindings_ready"),
    # The palette (PaletteInsides).
    ("CommandPalette", "_GATHER_COMMANDS_GROUP"), ("CommandPalette", "_select_or_command"),
    ("CommandPalette", "_start_no_matches_countdown"),
    ("CommandPalette", "_stop_no_matches_countdown"), ("CommandPalette", "_NO_MATCHES"),
    ("CommandPalette", "_NO_MATCHES_COUNTDOWN"), ("CommandPalette", "_list_visible"),
    ("CommandPalette", "_no_matches_timer"),
    # DataTable's painting and measuring (PaintedTable).
    ("DataTable", "_render_cell"), ("DataTable", "_update_dimensions"),
    ("DataTable", "_show_hover_cursor"), ("DataTable", "_pseudo_class_state"),
    ("DataTable", "_label_column"), ("DataTable", "_layout_updates"),
    ("DataTable", "_clear_caches"),
]


@pytest.mark.parametrize(("owner", "name"), TEXTUAL_NAMES,
                         ids=[f"{owner}.{name}" for owner, name in TEXTUAL_NAMES])
def test_textual_still_has(owner, name):
    has(textual_made()[owner], name)


def test_textual_keeps_the_shapes_the_fence_reads():
    """What the names hold and how they are called: a queue of `values`, a map of keys to
    lists of bindings, the signatures of the methods overridden or called."""
    from textual.command import CommandPalette
    from textual.screen import Screen
    from textual.widgets import DataTable

    made = textual_made()
    assert isinstance(made["Widget"]._message_queue.values, Iterable)
    assert isinstance(made["Widget"]._bindings.key_to_bindings, dict)
    assert isinstance(made["Widget"]._next_callbacks, list)
    assert isinstance(made["CommandPalette"]._GATHER_COMMANDS_GROUP, str)
    assert parameters(Screen._on_timer_update) == ["self"]
    assert parameters(CommandPalette._select_or_command) == ["self", "event"]
    assert parameters(CommandPalette._start_no_matches_countdown) == ["self", "search_value"]
    assert parameters(DataTable._render_cell) == [
        "self", "row_index", "column_index", "base_style", "width", "cursor", "hover"]
    assert parameters(DataTable._update_dimensions) == ["self", "new_rows"]
    assert isinstance(made["DataTable"]._label_column.content_width, int)


def test_textual_calls_the_steps_the_fence_hooks():
    """Painting asks `_render_cell` for each cell and the idle measure runs
    `_update_dimensions` (else a kept cell or a width would go stale with no error); the
    palette searches in workers of `_GATHER_COMMANDS_GROUP`; a screen lays out from its
    timer when `_layout_required`."""
    from textual.command import CommandPalette
    from textual.screen import Screen
    from textual.widgets import DataTable

    painted = inspect.getsource(DataTable)
    assert painted.count("render_cell = self._render_cell") >= 2  # the rows, the labels
    assert "self._update_dimensions(new_rows)" in inspect.getsource(DataTable._on_idle)
    assert "self._clear_caches()" in painted
    assert "@work(exclusive=True, group=_GATHER_COMMANDS_GROUP)" in inspect.getsource(
        CommandPalette)
    timer = inspect.getsource(Screen._on_timer_update)
    assert "if self._layout_required:" in timer


def test_textual_footer_and_markdown_classes_are_where_the_fence_takes_them():
    from textual.widgets import Footer, Markdown

    from tui.compat import textual as textual_compat

    assert textual_compat.FooterKey.__module__ == Footer.__module__
    assert textual_compat.FooterLabel.__module__ == Footer.__module__
    table = textual_compat.MarkdownTable
    assert table.__module__ == Markdown.__module__
    assert parameters(table._get_headers_and_rows) == ["self"]
    composed = inspect.getsource(table.compose)
    assert "self._headers = headers" in composed and "self._rows = rows" in composed


def test_textual_names_removed_fail_the_check(monkeypatch):
    """The checks above fail when a name goes: a class attribute, and one set per instance."""
    from textual.screen import Screen
    from textual.widgets import DataTable

    monkeypatch.delattr(Screen, "_on_timer_update")
    with pytest.raises(AssertionError, match="_on_timer_update"):
        has(textual_made()["Screen"], "_on_timer_update")
    monkeypatch.undo()
    original = DataTable.__init__

    def without_hover(self, *args, **kwargs):
        original(self, *args, **kwargs)
        del self._show_hover_cursor

    monkeypatch.setattr(DataTable, "__init__", without_hover)
    with pytest.raises(AssertionError, match="_show_hover_cursor"):
        has(textual_made()["DataTable"], "_show_hover_cursor")


# ---------------------------------------------------------------- aiohttp, asyncio

def test_aiohttp_site_server_is_closed_by_stop_and_read_for_addresses():
    """A site's `_server` (a slot) is what its stop() closes and its runner's `addresses`
    reads the sockets of."""
    from aiohttp import web, web_runner

    from tui.compat import aiohttp as aiohttp_compat

    name = aiohttp_compat.SITE_SERVER
    assert name in web.BaseSite.__slots__
    assert f"self.{name}.close()" in inspect.getsource(web.BaseSite.stop)
    assert f"site.{name}" in inspect.getsource(web_runner.BaseRunner.addresses.fget)
    assert "server.sockets" in inspect.getsource(web_runner.BaseRunner.addresses.fget)


async def test_asyncio_process_keeps_its_transport():
    """asyncio.subprocess.Process keeps its SubprocessTransport in `_transport`; closing it
    closes the pipes."""
    import asyncio
    import sys

    from tui.compat import asyncio as asyncio_compat

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "pass", stdout=asyncio.subprocess.PIPE)
    transport = getattr(process, asyncio_compat.PROCESS_TRANSPORT)
    assert isinstance(transport, asyncio.SubprocessTransport)
    await process.wait()
    asyncio_compat.close_pipes(process)
    assert transport.is_closing()


# ---------------------------------------------------------------- asyncssh's connection

def test_asyncssh_server_connection_is_made_and_refuses_as_the_fence_calls_it():
    """The host makes asyncssh's SSHServerConnection itself (loop, options, acceptor,
    error_handler), its authentication refuses a try through `send_userauth_failure`, and
    a client not logged in within `login_timeout` is lost with "Login timeout"."""
    from asyncssh import auth, connection

    conn = asyncssh.SSHServerConnection
    assert parameters(conn.__init__)[:5] == ["self", "loop", "options", "acceptor",
                                            "error_handler"]
    assert parameters(conn.send_userauth_failure) == ["self", "partial_success"]
    assert "send_userauth_failure(" in inspect.getsource(auth)
    assert parameters(conn.connection_made) == ["self", "transport"]
    lost = inspect.getsource(connection.SSHConnection._login_timer_callback)
    assert f"ConnectionLost('{asyncssh_compat.LOGIN_TIMEOUT}" in lost
    assert asyncssh_compat.is_login_timeout(asyncssh.ConnectionLost("Login timeout expired"))
    assert not asyncssh_compat.is_login_timeout(asyncssh.ConnectionLost("Connection lost"))
