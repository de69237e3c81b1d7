"""The code's shape (issue 21, DESIGN.md "Layout" and "Style"), checked on every run.

- No import cycle anywhere in the package, counting imports inside functions too (grimp
  reads every import statement; a cycle hidden by a local import is still a cycle).
- No module over about 450 lines, no function over about 80 lines, numba kernels aside
  (a jitted function is one compiled unit: splitting it would cost speed).

The layer contracts (cli and service above puzzles above core, no puzzle importing
another, verify importing no solver) are import-linter's, in `.importlinter`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

SOURCE = Path(__file__).resolve().parents[1] / "src" / "puzzlelab"
MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 80


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the groups of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_the_cycle_finder_finds_a_cycle():
    """Oracle for the finder itself: a made-up graph with one three-module circle."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert _strongly_connected(graph) == [["a", "b", "c"]]
    assert _strongly_connected({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_in_the_package():
    built = grimp.build_graph("puzzlelab", cache_dir=None)
    graph = {module: set(built.find_modules_directly_imported_by(module)) for module in built.modules}
    cycles = _strongly_connected(graph)
    assert not cycles, "modules importing each other:\n" + "\n".join(" <-> ".join(group) for group in cycles)


def _is_kernel(node: ast.AST) -> bool:
    """Decorated with numba's njit / jit (a compiled kernel)."""
    for decorator in getattr(node, "decorator_list", ()):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("njit", "jit", "vectorize", "guvectorize"):
            return True
    return False


def _python_files() -> list[Path]:
    return sorted(SOURCE.rglob("*.py"))


def _kernel_lines(tree: ast.Module) -> int:
    return sum(node.end_lineno - node.lineno + 1 for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and _is_kernel(node))


def test_no_module_is_too_long():
    """Lines outside numba kernels; a kernels module may be long where its kernels are."""
    long = []
    for path in _python_files():
        text = path.read_text()
        lines = text.count("\n")
        if lines - _kernel_lines(ast.parse(text)) > MAX_MODULE_LINES:
            long.append(f"{path.relative_to(SOURCE)}: {lines} lines")
    assert not long, "modules over the limit:\n" + "\n".join(long)


def test_no_function_is_too_long():
    long = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _is_kernel(node):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(SOURCE)}:{node.lineno} {node.name}: {length} lines")
    assert not long, "functions over the limit:\n" + "\n".join(long)
