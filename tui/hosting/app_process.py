"""A browser tab's app: the TUI in a process of its own, spoken to as Textual's WebDriver
speaks (the driver `serve web` names in TEXTUAL_DRIVER).

The protocol is Textual's: the app writes a prelude line (`__GANGLION__`), then packets of
one kind byte, a 4-byte big-endian length and the payload; "D" is terminal output for the
tab, "M" a JSON message (the app exits, opens a link, offers a file), "P" a packed one (a
file's chunk). The server writes "D" packets of what the tab typed and "M" ones (resize,
focus, blur, quit, a file's chunk asked for).

Written on the public APIs of asyncio and aiohttp; from textual-serve only its public
DownloadManager (a file the app offers, fetched by the tab at /download/KEY) and, behind the
fence, its decoder of packed packets (tui/compat/textual_serve.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import PurePath

from textual_serve.download_manager import DownloadManager

from tui.compat.textual_serve import unpacked

PRELUDE = b"__GANGLION__\n"  # the line the app's driver writes before its first packet
PRELUDE_LINES_AT_MOST = 10  # lines read looking for it (a warning may come before)
DATA, META, PACKED = b"D", b"M", b"P"
ERRORS_KEPT = 16 * 1024  # bytes of the app's error output kept, to tell its last line

log = logging.getLogger("warledger.web")


def packet(kind: bytes, payload: bytes) -> bytes:
    """One packet to the app: its kind, its length (4 bytes, big-endian), the payload."""
    return kind + len(payload).to_bytes(4, "big") + payload


def meta_packet(message: Mapping[str, object]) -> bytes:
    return packet(META, json.dumps(message).encode("utf-8"))


class AppProcess:
    """One tab's app process: started from `argv` (no shell) with `environment`, what it
    draws sent to the tab (`write_bytes`), its messages to the tab as JSON (`write_str`),
    and the tab closed (`close`) when the app exits. `start`, then `run` reads it until it
    ends (started by `start` as a task)."""

    def __init__(self, argv: Sequence[str], *,
                 write_bytes: Callable[[bytes], Awaitable[None]],
                 write_str: Callable[[str], Awaitable[None]],
                 close: Callable[[], Awaitable[object]],
                 download_manager: DownloadManager) -> None:
        self.app_service_id = uuid.uuid4().hex  # the name DownloadManager knows it by
        self.argv = list(argv)
        self.remote_write_bytes = write_bytes
        self.remote_write_str = write_str
        self.remote_close = close
        self.download_manager = download_manager
        self.process: asyncio.subprocess.Process | None = None
        self.stdin: asyncio.StreamWriter | None = None
        self.task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ starting

    def environment(self, width: int, height: int) -> dict[str, str]:
        """What the app's process is given (a subclass says)."""
        return {"COLUMNS": str(width), "ROWS": str(height)}

    def preexec(self) -> Callable[[], None] | None:
        """What the child runs before the app (a subclass may say)."""
        return None

    async def start(self, width: int, height: int) -> None:
        self.process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self.environment(width, height),
            start_new_session=True, preexec_fn=self.preexec())
        assert process.stdin is not None
        self.stdin = process.stdin
        self.started(process)
        self.task = asyncio.create_task(self.run())

    def started(self, process: asyncio.subprocess.Process) -> None:
        """Called once the process runs, before its output is read."""

    # ------------------------------------------------------------ to the app

    async def write(self, data: bytes) -> bool:
        """One packet to the app; waits while its pipe is full. False once it is gone."""
        if self.stdin is None:
            return False
        try:
            self.stdin.write(data)
            await self.stdin.drain()
        except (RuntimeError, ConnectionError, AssertionError):
            return False
        return True

    async def send_bytes(self, data: bytes) -> bool:
        return await self.write(packet(DATA, data))

    async def send_meta(self, message: Mapping[str, object]) -> bool:
        return await self.write(meta_packet(message))

    async def set_terminal_size(self, width: int, height: int) -> None:
        await self.send_meta({"type": "resize", "width": width, "height": height})

    async def focus(self) -> None:
        await self.send_meta({"type": "focus"})

    async def blur(self) -> None:
        await self.send_meta({"type": "blur"})

    # ------------------------------------------------------------ from the app

    async def run(self) -> None:
        """Read the app's packets until it ends; its error output is kept to ERRORS_KEPT
        and told as one line, never copied whole to the host's console."""
        process = self.process
        assert process is not None and process.stdout is not None
        stdout, stderr = process.stdout, process.stderr
        assert stderr is not None
        errors = bytearray()
        lines = 0

        async def read_errors() -> None:
            nonlocal lines
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                while data := await stderr.read(4096):
                    lines += data.count(b"\n")
                    errors.extend(data)
                    del errors[:-ERRORS_KEPT]

        reading_errors = asyncio.create_task(read_errors())
        try:
            for _line in range(PRELUDE_LINES_AT_MOST):
                if not (line := await stdout.readline()) or line == PRELUDE:
                    break
            while True:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                payload = await stdout.readexactly(size)
                if kind == DATA:
                    await self.remote_write_bytes(payload)
                elif kind == META:
                    await self.on_meta(payload)
                elif kind == PACKED:
                    await self.on_packed(payload)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError,
                asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(reading_errors), 0.5)
            reading_errors.cancel()
        said = [line for line in errors.decode("utf-8", "replace").splitlines()
                if line.strip()]
        if said:
            self.app_said(max(lines, 1), said[-1].strip())

    def app_said(self, lines: int, last: str) -> None:
        """The app wrote `lines` lines on its error output, the last one `last` (a subclass
        tells the host, in the host's words)."""

    async def on_meta(self, payload: bytes) -> None:
        """A message of the app: it exits, opens a link, or offers a file."""
        message = json.loads(payload)
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "exit":
            await self.remote_close()
        elif kind == "open_url":
            await self.remote_write_str(json.dumps(
                ["open_url", {"url": message.get("url"), "new_tab": message.get("new_tab")}]))
        elif kind == "deliver_file_start":
            try:
                key = str(message["key"])
                await self.download_manager.create_download(
                    app_service=self, delivery_key=key,  # type: ignore[arg-type]
                    file_name=PurePath(str(message["path"])).name,
                    open_method=message["open_method"], mime_type=message["mime_type"],
                    encoding=message["encoding"], name=message.get("name"))
            except KeyError:
                log.warning("a file offered by a tab's app without its key, path or type")
                return
            await self.remote_write_str(json.dumps(["deliver_file_start", key]))
        else:
            log.warning("a message of a kind the table does not know from a tab's app: %r",
                        kind)

    async def on_packed(self, payload: bytes) -> None:
        """A packed message: a chunk of a file the tab is fetching."""
        message = unpacked(payload)
        if isinstance(message, list | tuple) and len(message) == 3 \
                and message[0] == "deliver_chunk":
            await self.download_manager.chunk_received(message[1], message[2])

    async def cancel_downloads(self) -> None:
        """The files this app offered are fetched no more (it is gone)."""
        await self.download_manager.cancel_app_downloads(app_service_id=self.app_service_id)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None
