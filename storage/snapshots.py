"""Fold snapshots: the state after a game's last step, kept so that opening a long game
folds nothing. The steps stay the truth; a snapshot is a cache that is only believed when the
rules that wrote it are the rules running now, and only rules values are read back from it."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import io
import pickle
from pathlib import Path
from typing import Any


@functools.cache
def rules_version() -> str:
    """A fingerprint of the rules' source: a change to any rule retires every snapshot."""
    import rules

    root = Path(rules.__file__).parent
    digest = hashlib.blake2b(digest_size=16)
    # Every module of every game package, by its path inside `rules` (a move is a change too).
    for name in sorted(path.relative_to(root).as_posix() for path in root.rglob("*.py")):
        digest.update(name.encode())
        digest.update((root / name).read_bytes())
    return digest.hexdigest()


def dump_state(state: Any) -> bytes:
    """A game state as bytes (its frozen dataclasses, pickled)."""
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def load_state(data: bytes) -> Any:
    """The state `dump_state` wrote. Anything but dataclasses of the rules package is refused
    (pickle.UnpicklingError), so the bytes in a database cannot run code."""
    return _RulesValues(io.BytesIO(data)).load()


class _RulesValues(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "rules" or module.startswith("rules."):
            found = getattr(importlib.import_module(module), name, None)
            if (isinstance(found, type) and dataclasses.is_dataclass(found)
                    and found.__module__ == module):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not a value of the rules")
