"""No import circle anywhere in the product (issue 47): the graph of its modules, counting
the imports inside functions and under TYPE_CHECKING (grimp, which import-linter reads,
counts them all), has no cycle. An import hidden inside a function still ties two modules
together: a circle of them is one knot that neither side can change or test alone."""

from __future__ import annotations

import grimp
import pytest

PACKAGES = ("i18n", "rules", "storage", "tui")


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's, without
    recursion): each is a set of modules that import each other in a circle."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            for nxt in todo:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(edges.get(nxt, ()))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        found.append(sorted(part))
    return found


@pytest.mark.unit
def test_the_modules_import_each_other_in_no_circle():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    assert circles(graph) == []


@pytest.mark.unit
def test_a_circle_through_an_import_inside_a_function_is_found():
    """The check itself: a circle closed by an import inside a function is one."""
    graph = grimp.ImportGraph()
    for module in ("shop.engine", "shop.migrate", "shop.service", "shop.alone"):
        graph.add_module(module)
    graph.add_import(importer="shop.engine", imported="shop.migrate")
    graph.add_import(importer="shop.migrate", imported="shop.service")  # in a function
    graph.add_import(importer="shop.service", imported="shop.engine")
    graph.add_import(importer="shop.alone", imported="shop.engine")
    assert circles(graph) == [["shop.engine", "shop.migrate", "shop.service"]]
