"""The package's layers: every import points down, never up or sideways.

Shared names sit at the bottom (``_constants``); the statistics know nothing
of estimators; the engine knows nothing of printing; the result objects
and their text sit on the engine; the entry points on both; the plots, the
simulations and the command line on top. A module that imports a unit of
its own rank or above (even lazily, inside a function) breaks the layering
and, sooner or later, makes an import cycle.

Inside a unit, the modules import one another without circles either: the
graph of module imports (lazy ones included) has no cycle. And no module
chooses what to do by the name of an object's class.
"""

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "sklearn_bcv"

#: Rank of each top-level unit of the package: a unit may import only units
#: of a lower rank.
RANKS = {
    "_constants": 0,
    "_compat": 0,
    "_checks": 0,
    "_version": 0,
    "stats": 1,
    "_split": 1,
    "datasets": 1,
    "_engine": 2,
    "_results": 3,
    "_store": 3,
    "_compare": 4,
    "_many": 4,
    "_benchmark": 4,
    "_sequential": 4,
    "_split_scores": 4,
    "_search": 5,
    "_plot": 5,
    "model_selection": 6,
    "simulation": 6,
    "_cli": 6,
    "__main__": 7,
    "__init__": 7,
}


def _unit(path):
    relative = path.relative_to(PACKAGE)
    return relative.parts[0].removesuffix(".py")


def _imported_units(path):
    """The top-level units of sklearn_bcv that the module at ``path`` imports."""
    module_parts = ["sklearn_bcv", *path.relative_to(PACKAGE).with_suffix("").parts]
    if module_parts[-1] == "__init__":
        module_parts = module_parts[:-1]
        package_parts = module_parts
    else:
        package_parts = module_parts[:-1]
    units = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[: len(package_parts) - node.level + 1]
                target = [*base, *(node.module.split(".") if node.module else [])]
            else:
                target = (node.module or "").split(".")
            if target[0] != "sklearn_bcv":
                continue
            if len(target) > 1:
                units.add(target[1])
            else:  # from sklearn_bcv import name: a submodule, or a public name
                units.update(
                    alias.name if alias.name in RANKS else "__init__"
                    for alias in node.names
                )
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "sklearn_bcv" and len(parts) > 1:
                    units.add(parts[1])
    return units


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_unit_has_a_rank():
    assert {_unit(path) for path in MODULES} <= set(RANKS)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    unit = _unit(path)
    for imported in _imported_units(path) - {unit}:
        assert imported in RANKS, f"{path.name} imports unknown unit {imported}"
        assert RANKS[imported] < RANKS[unit], (
            f"{path.relative_to(PACKAGE)} (unit {unit}, rank {RANKS[unit]}) imports "
            f"{imported} (rank {RANKS[imported]}): imports must point down"
        )


# --------------------------------------------------------------------------
# No circles between modules, inside a unit too


def _module_name(path, package):
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package):
    """``{module: set of modules it imports}`` of the package at ``package``.

    Every import counts, at the top of a module or inside a function; an
    import of a name from a module is an edge to that module (``from .a
    import f``: to ``a``; ``from . import a``: to ``a`` itself when it is a
    module, else to the package's ``__init__``). The parent packages Python
    initialises on the way are not edges: importing ``a.b`` from inside
    ``a`` is the ordinary way of a package.
    """
    modules = {
        _module_name(path, package): path for path in sorted(package.rglob("*.py"))
    }
    root = package.name
    graph = {}
    for name, path in modules.items():
        own = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = own.split(".")[: len(own.split(".")) - node.level + 1]
                    target = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    target = node.module or ""
                if target.split(".")[0] != root:
                    continue
                for alias in node.names:
                    submodule = f"{target}.{alias.name}"
                    edges.add(submodule if submodule in modules else target)
            elif isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
        graph[name] = {edge for edge in edges if edge in modules and edge != name}
    return graph


def import_cycles(graph):
    """The strongly connected components of more than one module (Tarjan),
    each sorted: every module of one imports, through the others, itself."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for module in sorted(graph):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(cycles)


def test_no_import_circles():
    assert import_cycles(import_graph(PACKAGE)) == []


def _write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_circle_check_sees_lazy_and_relative_circles(tmp_path):
    """The check itself: a circle through a lazy import inside a unit, one
    through a package's ``__init__``, and none for the ordinary way of a
    package (its ``__init__`` importing modules that import each other)."""
    package = tmp_path / "pkg"
    _write(
        package,
        {
            "__init__.py": "from ._a import f\nfrom .unit import g\n",
            "_a.py": "from ._b import h\ndef f():\n    return h()\n",
            "_b.py": "def h():\n    from ._a import f  # lazy\n    return f\n",
            "unit/__init__.py": "from ._c import g\n",
            "unit/_c.py": "from ._d import k\ndef g():\n    return k\n",
            "unit/_d.py": "k = 1\n",
            "unit/_e.py": "from .. import f\n",
            "_f.py": "from .unit import _e\nfrom .unit._c import g\n",
        },
    )
    graph = import_graph(package)
    assert graph["pkg._b"] == {"pkg._a"}
    assert graph["pkg._f"] == {"pkg.unit._e", "pkg.unit._c"}
    assert import_cycles(graph) == [["pkg._a", "pkg._b"]]
    _write(package, {"_a.py": "from .unit._e import x\nfrom ._b import h\n"})
    assert import_cycles(import_graph(package)) == [
        ["pkg", "pkg._a", "pkg._b", "pkg.unit._e"]
    ]


# --------------------------------------------------------------------------
# No dispatch on the name of a class


def _is_class_name(node):
    """``type(x).__name__`` or ``x.__class__.__name__``."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "__name__"
        and (
            (
                isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) == "type"
            )
            or getattr(node.value, "attr", None) == "__class__"
        )
    )


def _own_nodes(scope):
    """The nodes of a module or function, not those of the functions and
    classes defined in it (their own scopes)."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))


def _class_name_switches(tree):
    """Lines comparing a class's name (``type(x).__name__``,
    ``x.__class__.__name__``, or a variable holding one) with ``==``,
    ``!=``, ``in`` or ``not in``: choosing what to do by a class's name.
    Using the name in a message or a document is fine."""
    found = []
    scopes = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    for scope in scopes:
        nodes = list(_own_nodes(scope))
        holders = {
            target.id
            for node in nodes
            if isinstance(node, ast.Assign) and _is_class_name(node.value)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in nodes:
            if isinstance(node, ast.Compare) and any(
                _is_class_name(operand)
                or (isinstance(operand, ast.Name) and operand.id in holders)
                for operand in [node.left, *node.comparators]
            ):
                found.append(node.lineno)
    return sorted(set(found))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_switch_on_class_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _class_name_switches(tree) == [], (
        f"{path.relative_to(PACKAGE)} chooses by a class's name (lines "
        f"{_class_name_switches(tree)}); give the classes a method instead"
    )


def test_the_class_name_check_sees_a_switch():
    tree = ast.parse(
        "if type(r).__name__ == 'A':\n    pass\n"
        "ok = r.__class__.__name__ in ('B', 'C')\n"
        "fine = type(r).__name__\n"
    )
    assert _class_name_switches(tree) == [1, 3]


# --------------------------------------------------------------------------
# No dispatch on which keys a result holds

#: The names a result or a test's result goes by in the modules that read
#: them.
_RESULT_NAMES = {"result", "self", "table", "test", "test_result", "first", "r"}


def _key_switches(tree):
    """Lines testing whether a result holds a key (``"boundaries" in
    result``, ``"p_a_better" not in table``): what a result is, or what a
    test gives, is declared (its class's methods, the registry), not
    guessed from its keys."""
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Constant)
        and isinstance(node.left.value, str)
        and any(
            isinstance(op, ast.In | ast.NotIn)
            and isinstance(comparator, ast.Name)
            and comparator.id in _RESULT_NAMES
            for op, comparator in zip(node.ops, node.comparators)
        )
    )


READERS = [
    path
    for path in MODULES
    if _unit(path) in ("_results", "_plot", "_cli", "_compare", "_many", "_benchmark")
]


@pytest.mark.parametrize("path", READERS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_switch_on_the_keys_a_result_holds(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _key_switches(tree) == [], (
        f"{path.relative_to(PACKAGE)} chooses by the keys a result holds (lines "
        f"{_key_switches(tree)}); ask the result's class or the registry instead"
    )


def test_the_key_check_sees_a_switch():
    tree = ast.parse(
        "if 'boundaries' in result:\n    pass\n"
        "x = 'p_a_better' not in table\n"
        "y = name in result.pairwise\n"
    )
    assert _key_switches(tree) == [1, 3]
