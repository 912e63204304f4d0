"""Key names as players read them, taken from the bindings: the one place prose, buttons,
help and palette learn which key does what. Prose looks a key up by its binding id, so a
binding given another key changes the words with it."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from weakref import WeakKeyDictionary

from textual.binding import Binding, BindingType
from textual.dom import DOMNode

from tui.compat.textual import key_map

# The keys bound by bind_more, by node: {binding id: its keys as Textual names them}.
_BOUND_MORE: WeakKeyDictionary[DOMNode, dict[str, tuple[str, ...]]] = WeakKeyDictionary()

# Textual's names for keys that read better as the key's face.
FACES = {"question_mark": "?", "escape": "esc", "space": "Space", "slash": "/"}


def key_face(key: str) -> str:
    """'ctrl+z', 'x', '?', 'esc': one key as the help and the buttons write it."""
    return FACES.get(key, key)


def keys_face(keys: Iterable[str]) -> str:
    """Several keys for one thing: 'f1 / ?'."""
    return " / ".join(key_face(k) for k in keys)


def binding_face(binding: Binding) -> str:
    """The key of one binding, as written; its `key_display` when it has one."""
    return binding.key_display or keys_face(binding.key.split(","))


def keys_by_id(owner: DOMNode | type[DOMNode]) -> dict[str, str]:
    """Every binding id of `owner` (a screen or widget, or its class) with its key(s) as
    written: {"tax": "x", "help": "f1 / ?"}. A subclass's binding wins over its base's."""
    if isinstance(owner, type):
        return dict(_keys_of_class(owner))
    more = _BOUND_MORE.get(owner, {})
    return {**dict(_keys_of_class(type(owner))),
            **{binding_id: keys_face(keys) for binding_id, keys in more.items()}}


def bind_more(node: DOMNode, bindings: Iterable[Binding], *, after: str | None = None) -> None:
    """Bindings known only when `node` is made (one per registered game, on the home and
    league screens): added to the node's own map, which the footer and the help read (in
    its order: after the binding of the key `after`, else last), and to what `key_of`
    finds."""
    more = _BOUND_MORE.setdefault(node, {})
    held = key_map(node)  # its class's, copied when it was made
    items = list(held.items())
    at = next((i + 1 for i, (key, _) in enumerate(items) if key == after), len(items))
    added: dict[str, list[Binding]] = {}
    for binding in bindings:
        added.setdefault(binding.key, []).append(binding)
        if binding.id:
            more[binding.id] = tuple(binding.key.split(","))
    held.clear()
    for key, listed in [*items[:at], *added.items(), *items[at:]]:
        held.setdefault(key, []).extend(listed)


def bind_instead(node: DOMNode, binding: Binding) -> None:
    """`binding` in place of what `node` binds its key to, for this node only (its class
    keeps its own): a widget's own key named in the footer, which shows a key's first
    binding along the focus chain."""
    key_map(node)[binding.key] = [binding]


def raw_keys_by_id(owner: DOMNode | type[DOMNode]) -> dict[str, tuple[str, ...]]:
    """Every binding id of `owner` (or its class) with its keys as Textual names them:
    {"help": ("f1", "question_mark")}, to find a binding's key in the footer; a node's own
    (bind_more) too."""
    if isinstance(owner, type):
        cls, more = owner, {}
    else:
        cls, more = type(owner), _BOUND_MORE.get(owner, {})
    return {**{binding_id: tuple(",".join(keys).split(","))
               for binding_id, keys in _raw_keys_of_class(cls)}, **more}


@cache  # a class's BINDINGS do not change while the app runs
def _keys_of_class(cls: type) -> tuple[tuple[str, str], ...]:
    return tuple((binding_id, keys_face(keys)) for binding_id, keys in _raw_keys_of_class(cls))


@cache
def _raw_keys_of_class(cls: type) -> tuple[tuple[str, tuple[str, ...]], ...]:
    found: dict[str, list[str]] = {}
    for klass in reversed(cls.__mro__):
        bindings: list[BindingType] = klass.__dict__.get("BINDINGS", [])
        mine: dict[str, list[str]] = {}
        for binding in Binding.make_bindings(bindings):
            if binding.id:
                mine.setdefault(binding.id, []).append(binding.key)
        found.update(mine)
    return tuple((binding_id, tuple(keys)) for binding_id, keys in found.items())


def key_of(owner: DOMNode | type[DOMNode], binding_id: str) -> str:
    """The key(s) `owner` binds to `binding_id`, as written: 'x', 'ctrl+s', 'f1 / ?'.
    Raises KeyError when no binding has that id, so a renamed id fails loudly instead of
    leaving stale words."""
    keys = keys_by_id(owner)
    if binding_id not in keys:
        name = owner.__name__ if isinstance(owner, type) else type(owner).__name__
        raise KeyError(f"{name} has no binding with id {binding_id!r}")
    return keys[binding_id]
