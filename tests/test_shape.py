"""The code's shape (docs/architecture.md, "Layers and how the shape is checked"),
checked on every run.

- No import cycle anywhere in the package, counting imports inside functions too (grimp
  reads every import statement; a cycle hidden by a local import is still a cycle).
- Every puzzle's independent checker reaches only its model side and `core`, over the
  import graph: a new solver module needs no edit here, and a checker that imports a
  solver (directly or through another module) fails.
- No module over about 450 lines, no function over about 80 lines, numba kernels aside
  (a jitted function is one compiled unit: splitting it would cost speed); the roots
  of the two largest puzzles hold at most 15 modules, the rest in sub-packages.

The layer contracts (cli and service above puzzles above core, no puzzle importing
another, the UI libraries only above puzzles) are import-linter's, in `.importlinter`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

SOURCE = Path(__file__).resolve().parents[1] / "src" / "puzzlelab"
MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 80
MAX_ROOT_MODULES = 15
PUZZLES = ("tiling", "matchsticks", "hexagon", "coins", "macmahon")
# A checker's own side of its puzzle: the instance model, the scoring rules, the
# symmetries, the published tables, and what those import. Beside them, formats a
# checker reads that are not the model's: matchsticks' ASCII drawing of the field.
MODEL_SIDE = ("model", "scoring", "symmetry", "reference")
FORMATS = {"matchsticks": ("drawing",)}
SOLVER_LIBRARIES = ("pysat", "ortools", "highspy", "miniexact", "ray")


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


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("puzzlelab", include_external_packages=True, cache_dir=None)


def _checker_modules(graph, puzzle: str) -> set[str]:
    """The checker: `verify` and, where it is a package, its modules."""
    root = f"puzzlelab.puzzles.{puzzle}.verify"
    return {root} | set(graph.find_descendants(root)) if root in graph.modules else set()


def _allowed_for_checker(graph, puzzle: str) -> set[str]:
    package = f"puzzlelab.puzzles.{puzzle}"
    side = {f"{package}.{name}" for name in MODEL_SIDE + FORMATS.get(puzzle, ()) if f"{package}.{name}" in graph.modules}
    for module in list(side):
        side |= {m for m in graph.find_upstream_modules(module) if m.startswith(package + ".")}
    return side | _checker_modules(graph, puzzle) | {package}


def checker_violations(graph, puzzle: str) -> list[str]:
    """Modules the checker of `puzzle` reaches that are neither `core`, its model side,
    nor the checker itself: each a path of imports from the checker to it."""
    allowed = _allowed_for_checker(graph, puzzle)
    bad = []
    for checker in sorted(_checker_modules(graph, puzzle)):
        for module in sorted(graph.find_upstream_modules(checker)):
            inside_core = module == "puzzlelab.core" or module.startswith("puzzlelab.core.")
            library = module.split(".")[0] in SOLVER_LIBRARIES
            if module in allowed or (inside_core and not module.startswith("puzzlelab.core.parallel")):
                continue
            if module.startswith("puzzlelab.") or library:
                chain = graph.find_shortest_chain(importer=checker, imported=module) or (checker, module)
                bad.append(" -> ".join(chain))
    return bad


def test_every_checker_reaches_only_its_model_side_and_core():
    graph = _graph()
    for puzzle in PUZZLES:
        assert _checker_modules(graph, puzzle), f"{puzzle}: no checker module"
        bad = checker_violations(graph, puzzle)
        assert not bad, f"{puzzle}'s checker reaches solver-side code:\n" + "\n".join(bad)


def test_a_checker_that_imports_a_solver_fails_the_rule():
    """The rule's own oracle: a made-up import from each checker to one of its puzzle's
    method modules (and, separately, to a SAT solver library) is caught."""
    from puzzlelab.puzzles import get

    for puzzle in PUZZLES:
        graph = _graph()
        run_module = get(puzzle).method(None).run.split(":")[0]
        checker = sorted(_checker_modules(graph, puzzle))[0]
        graph.add_import(importer=checker, imported=run_module)
        assert any(run_module in line for line in checker_violations(graph, puzzle)), puzzle
        graph = _graph()
        graph.add_import(importer=checker, imported="pysat")
        assert any(line.endswith("pysat") for line in checker_violations(graph, puzzle)), puzzle


def test_the_certificate_checkers_reach_no_solver_and_no_puzzle():
    graph = _graph()
    package = "puzzlelab.core.certificates"
    for module in {package} | set(graph.find_descendants(package)):
        reached = graph.find_upstream_modules(module)
        bad = sorted(m for m in reached if m.split(".")[0] in SOLVER_LIBRARIES or m.startswith("puzzlelab.puzzles"))
        assert not bad, f"{module} reaches {bad}"


def test_the_largest_puzzles_keep_their_roots_small():
    for puzzle in ("hexagon", "coins"):
        root = SOURCE / "puzzles" / puzzle
        modules = sorted(p.name for p in root.glob("*.py"))
        assert len(modules) <= MAX_ROOT_MODULES, f"{puzzle}: {len(modules)} modules at the root: {modules}"
        for folder in (p for p in root.iterdir() if p.is_dir() and (p / "__init__.py").exists()):
            doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text())) or ""
            listed = [p.name for p in folder.glob("*.py") if p.name != "__init__.py"]
            missing = [name for name in listed if name not in doc]
            assert not missing, f"{puzzle}/{folder.name}/__init__.py does not list {missing}"


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
