"""The package's layers: every import points down, never up or sideways.

Shared names sit at the bottom (``_constants``); the statistics know nothing
of estimators; the engine knows nothing of printing; the result objects
and their text sit on the engine; the entry points on both; the plots, the
simulations and the command line on top. A module that imports a unit of
its own rank or above (even lazily, inside a function) breaks the layering
and, sooner or later, makes an import cycle.
"""

import ast
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
    "_plot": 5,
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
