"""asyncio's insides warledger relies on. A subprocess's pipes stay open (and asyncio keeps
the process) until all of them are read to their end or the process's transport is closed;
asyncio.subprocess.Process has no public way to close them once the process is gone."""

from __future__ import annotations

import asyncio

# The transport of an asyncio.subprocess.Process (a SubprocessTransport, whose close() closes
# the pipes and ends the process if it still runs).
PROCESS_TRANSPORT = "_transport"


def close_pipes(process: asyncio.subprocess.Process) -> None:
    """Close `process`'s pipes (and the process's transport) now."""
    transport = getattr(process, PROCESS_TRANSPORT, None)
    if transport is not None:
        transport.close()


def hand_over(transport: asyncio.BaseTransport, protocol: asyncio.BaseProtocol) -> None:
    """`protocol` takes over a transport accepted by our own door, as the library's own
    server would hand it one (asyncssh's connection, aiohttp's request handler): neither
    library offers a public way to be given a connection accepted elsewhere."""
    transport.set_protocol(protocol)
    protocol.connection_made(transport)
