"""asyncssh's insides warledger relies on. asyncssh stores every environment request a client
sends (a dict on the channel, no ceiling: 8,000 requests of 30 KB grew the host by 450 MB)
and has no public hook to refuse one, so the channel's request handler is replaced here."""

from __future__ import annotations

from collections.abc import Callable

import asyncssh

# The channel's handler of "env" requests (found by name: `_process_` + request + `_request`)
# and the dict it fills, which `get_environment` reads.
ENV_REQUEST_HANDLER = "_process_env_request"
ENV_STORE = "_env"


def read_environment_requests(chan: asyncssh.SSHServerChannel,
                              keep: Callable[[bytes, bytes, int], bool]) -> None:
    """Have `chan` read each environment request as it arrives and store only those `keep`
    accepts (the name, the value, how many requests came before); the rest are refused
    (a failure the client sees if it asked for a reply) and nothing of them is kept."""
    store: dict[bytes, bytes] = getattr(chan, ENV_STORE)
    seen = 0

    def process_env_request(packet) -> bool:
        nonlocal seen
        name = packet.get_string()
        value = packet.get_string()
        packet.check_end()
        seen += 1
        if not keep(name, value, seen - 1):
            return False
        store[name] = value
        return True

    setattr(chan, ENV_REQUEST_HANDLER, process_env_request)
