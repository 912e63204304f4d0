"""The fence (issue 47): no product module outside tui/compat names a private attribute of
Textual, textual-serve, aiohttp, asyncio, asyncssh or Rich.

What counts as theirs is read from the installed libraries themselves, so the test needs no
list of names kept by hand:
- an import of a private module or name (`from textual.widgets._footer import ...`,
  `from textual.x import _y`);
- `self._x` (or `cls._x`, `super()._x`, `def _x`) in one of our classes that inherits a
  library class which has or sets `_x`: reading, writing or overriding a library's insides;
- `anything._x`, `getattr(anything, "_x")` or `setattr(...)` elsewhere, where `_x` is a
  private name the libraries use and no class of ours defines (our own `_draft`, `_watch`
  and the rest are ours wherever they are read).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from functools import cache
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("i18n", "rules", "storage", "tui")
FENCE = ROOT / "tui" / "compat"
LIBRARIES = ("textual", "textual_serve", "aiohttp", "asyncio", "asyncssh", "rich")

# Python's own underscore names that are public API (namedtuple's, os._exit, sys._getframe).
PUBLIC_UNDERSCORE = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults",
                               "_exit", "_getframe"})

# Private names a module may still use while the work that removes them is under way (the
# test below fails once a module no longer uses one). None now: the table's own web page
# replaced textual-serve's Server and AppService (issue 45).
PENDING: dict[str, frozenset[str]] = {}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_" \
        and name not in PUBLIC_UNDERSCORE


def _library_of(module_name: str | None) -> str | None:
    top = (module_name or "").partition(".")[0]
    return top if top in LIBRARIES else None


def _product_files() -> list[Path]:
    return sorted(path for package in PRODUCT for path in (ROOT / package).rglob("*.py")
                  if FENCE not in path.parents)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# A private identifier, wherever it stands in a library's source (an attribute, a method, a
# class attribute, a module's name; in a string or comment too: more names, never fewer).
PRIVATE = re.compile(r"(?<![A-Za-z0-9_])_[A-Za-z][A-Za-z0-9_]*")
ON_SELF = re.compile(r"\b(?:self|cls)\.(_[A-Za-z][A-Za-z0-9_]*)")


@cache
def library_private_names() -> frozenset[str]:
    """The private names the libraries' sources use or define, and their private modules."""
    names: set[str] = set()
    for library in LIBRARIES:
        package = Path(importlib.import_module(library).__file__).parent
        for path in package.rglob("*.py"):
            names |= {part for part in path.with_suffix("").parts if _private(part)}
            names |= set(PRIVATE.findall(path.read_text(encoding="utf-8", errors="replace")))
    return frozenset(name for name in names if _private(name))


def our_private_names(module_name: str, tree: ast.AST) -> frozenset[str]:
    """The private names one module's own classes define (assigned to `self`, or a method
    or class attribute), in classes that inherit no library class."""
    names: set[str] = set()
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        if not _library_bases(module_name, cls):
            names |= _defined_in(cls)
    return frozenset(names)


def _defined_in(cls: ast.ClassDef) -> set[str]:
    names: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    for node in ast.walk(cls):
        if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name) and node.value.id == "self"):
            names.add(node.attr)
    return {name for name in names if _private(name)}


@cache
def _class_private_names(cls: type) -> frozenset[str]:
    """A library class's private names: its own attributes, and those its module's source
    uses on `self` or `cls` (instance attributes set in `__init__` and elsewhere)."""
    names = {name for name in vars(cls) if _private(name)}
    names |= _used_on_self(inspect.getsourcefile(cls) or "")
    return frozenset(name for name in names if _private(name))


@cache
def _used_on_self(path: str) -> frozenset[str]:
    try:
        return frozenset(ON_SELF.findall(Path(path).read_text(encoding="utf-8")))
    except OSError:
        return frozenset()


def _library_bases(module_name: str, node: ast.ClassDef) -> tuple[type, ...]:
    """The library classes a class of ours inherits, found by importing its module (a class
    defined inside a function is looked for no further than its module)."""
    cls = _our_class(module_name, node.name)
    if cls is None:
        return ()
    return tuple(base for base in cls.__mro__[1:] if _library_of(base.__module__))


def _our_class(module_name: str, name: str) -> type | None:
    module = sys.modules.get(module_name) or importlib.import_module(module_name)
    found = getattr(module, name, None)
    return found if isinstance(found, type) else None


def _inherited_private_names(module_name: str, node: ast.ClassDef) -> frozenset[str]:
    names: set[str] = set()
    for base in _library_bases(module_name, node):
        names |= _class_private_names(base)
    return frozenset(names)


class _Finder(ast.NodeVisitor):
    """The library private names one module names, as (line, name, how)."""

    def __init__(self, module_name: str, tree: ast.AST) -> None:
        self.module_name = module_name
        self.ours = our_private_names(module_name, tree)
        self.found: list[tuple[int, str, str]] = []
        self.inherited: list[frozenset[str]] = []  # one per enclosing class

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            parts = alias.name.split(".")
            if _library_of(alias.name) and any(_private(p) for p in parts):
                self.found.append((node.lineno, alias.name, "imported"))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and _library_of(node.module):
            names = [*node.module.split("."), *(alias.name for alias in node.names)]
            for name in names:
                if _private(name):
                    self.found.append((node.lineno, f"{node.module}:{name}", "imported"))

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        inherited = _inherited_private_names(self.module_name, node)
        for item in node.body:
            if (isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.Assign)
                    and getattr(item, "name", None) in inherited):
                self.found.append((item.lineno, item.name, "overridden"))
        self.inherited.append(inherited)
        self.generic_visit(node)
        self.inherited.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = node.attr
        if _private(name):
            on_self = (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
                       or isinstance(node.value, ast.Call)
                       and isinstance(node.value.func, ast.Name)
                       and node.value.func.id == "super")
            if on_self and self.inherited:
                if name in self.inherited[-1]:
                    self.found.append((node.lineno, name, "inherited"))
            elif name in library_private_names() and name not in self.ours:
                self.found.append((node.lineno, name, "attribute"))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if (isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr",
                                                                  "hasattr", "delattr")
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str) and _private(node.args[1].value)
                and node.args[1].value in library_private_names()
                and node.args[1].value not in self.ours):
            self.found.append((node.lineno, node.args[1].value, node.func.id))
        self.generic_visit(node)


def scan(module_name: str, tree: ast.AST) -> list[tuple[int, str, str]]:
    """The library private names one module names: (line, name, how)."""
    finder = _Finder(module_name, tree)
    finder.visit(tree)
    return finder.found


def private_names_outside_the_fence() -> list[str]:
    found = []
    for path in _product_files():
        module_name = _module_name(path)
        pending = PENDING.get(module_name, frozenset())
        found += [f"{path.relative_to(ROOT)}:{line}: {name} ({how})"
                  for line, name, how in scan(module_name, ast.parse(path.read_bytes()))
                  if name not in pending]
    return found


def test_no_module_outside_the_fence_names_a_librarys_private_name():
    assert private_names_outside_the_fence() == []


def test_the_pending_names_are_still_used():
    """A name left pending that its module no longer uses is taken off the list (so that
    it cannot come back unseen)."""
    for module_name, pending in PENDING.items():
        path = ROOT / (module_name.replace(".", "/") + ".py")
        used = {name for _line, name, _how in scan(module_name, ast.parse(path.read_bytes()))}
        assert pending <= used, f"{module_name} no longer uses {sorted(pending - used)}"


# asyncssh's insides that carry no underscore: its server connection made by hand (asyncssh's
# `listen` makes its own), its undocumented refusal of a login, a transport handed to a
# connection, and the words it loses a connection with at its login deadline.
ASYNCSSH_INSIDES = frozenset({"send_userauth_failure", "set_protocol"})
ASYNCSSH_WORDS = ("Login timeout",)


def asyncssh_insides(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            found += [(node.lineno, "SSHServerConnection") for base in node.bases
                      if (base.attr if isinstance(base, ast.Attribute)
                          else getattr(base, "id", None)) == "SSHServerConnection"]
        elif isinstance(node, ast.Attribute) and node.attr in ASYNCSSH_INSIDES:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [(node.lineno, words) for words in ASYNCSSH_WORDS if words in node.value]
    return found


def test_no_module_outside_the_fence_makes_asyncssh_connections_itself():
    found = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in _product_files()
             for line, name in asyncssh_insides(ast.parse(path.read_bytes()))]
    assert found == []


SAMPLE = """
import asyncio
from textual.widgets import DataTable
from textual.widgets._footer import FooterKey
from textual.widgets import _markdown
from textual.widget import Widget


class Ours:
    def __init__(self):
        self._draft = None  # ours: never flagged
        self._closing = False

    def ours(self, other):
        return other._draft, self._closing


class Table(DataTable):
    def __init__(self):
        super().__init__()
        self._kept = {}  # ours, on a library's subclass

    def _render_cell(self, row_index, column_index, base_style, width):
        self._kept.clear()
        return super()._render_cell(row_index, column_index, base_style, width)


def going(node: Widget, process: asyncio.subprocess.Process):
    process._transport.close()
    getattr(node, "_pruning")
    return node._closed
"""


def test_the_scan_finds_each_kind_of_private_name(tmp_path, monkeypatch):
    """The scan's own test: a module naming Textual's and asyncio's insides in each way is
    found out, line by line, and its own private names are not."""
    (tmp_path / "fence_sample.py").write_text(SAMPLE)
    monkeypatch.syspath_prepend(str(tmp_path))
    found = {(line, name, how) for line, name, how in scan("fence_sample", ast.parse(SAMPLE))}
    assert found == {
        (4, "textual.widgets._footer:_footer", "imported"),
        (5, "textual.widgets:_markdown", "imported"),
        (23, "_render_cell", "overridden"),
        (25, "_render_cell", "inherited"),
        (29, "_transport", "attribute"),
        (30, "_pruning", "getattr"),
        (31, "_closed", "attribute"),
    }
    # `self._closing` in a class of ours, `other._draft` and `self._kept`: ours.


if __name__ == "__main__":
    print("\n".join(private_names_outside_the_fence()))
