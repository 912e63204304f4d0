"""textual-serve's insides warledger relies on: the decoder of a Textual app's packed
packets ("P": a chunk of a file the app offers the tab). Textual's WebDriver writes them with
textual's own private encoder, and textual-serve's private `_binary_encode.load` is the one
reader of that format; the rest of `serve web` uses textual-serve's public DownloadManager
alone (tui/hosting/app_process.py)."""

from __future__ import annotations

from textual_serve import _binary_encode

LOADER = "load"  # _binary_encode.load(encoded: bytes) -> object
DECODE_ERROR = "DecodeError"  # what it raises on a payload it cannot read


def unpacked(payload: bytes) -> object:
    """A packed packet's payload decoded ([kind, ...]); None when it cannot be read."""
    try:
        return getattr(_binary_encode, LOADER)(payload)
    except (getattr(_binary_encode, DECODE_ERROR), TypeError, ValueError, IndexError):
        return None
