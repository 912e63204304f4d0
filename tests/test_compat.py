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
