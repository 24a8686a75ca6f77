"""The documentation covers the public API and the gallery stays well formed."""

import ast
import re
from pathlib import Path

import pytest
from _rst import literal_blocks, looks_like_python, python_blocks

import sklearn_bcv
from sklearn_bcv import datasets, simulation, stats

ROOT = Path(__file__).resolve().parents[1]
API = (ROOT / "doc" / "api.rst").read_text(encoding="utf-8")
EXAMPLES = sorted((ROOT / "examples").glob("plot_*.py"))


def _documented_names():
    return set(re.findall(r"^   (\w+)$", API, flags=re.MULTILINE))


@pytest.mark.parametrize(
    "name", [n for n in sklearn_bcv.__all__ if n not in ("__version__", "stats")]
)
def test_every_public_name_is_in_the_api_reference(name):
    assert name in _documented_names()


@pytest.mark.parametrize("name", stats.__all__)
def test_every_statistical_test_is_in_the_api_reference(name):
    assert name in _documented_names()


@pytest.mark.parametrize("name", datasets.__all__ + simulation.__all__)
def test_every_dataset_and_simulation_name_is_in_the_api_reference(name):
    # Constants are documented with autodata, the rest in autosummary lists.
    assert name in _documented_names() or f".. autodata:: {name}" in API


def test_api_reference_names_exist():
    modules = (sklearn_bcv, stats, datasets, simulation)
    for name in _documented_names():
        assert any(hasattr(module, name) for module in modules), name


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_open_with_an_rst_title(path):
    docstring = ast.get_docstring(
        ast.parse(path.read_text(encoding="utf-8")), clean=False
    )
    assert docstring is not None, "sphinx-gallery needs a module docstring"
    over, title, under = docstring.strip("\n").splitlines()[:3]
    assert set(over) == {"="} and over == under
    assert len(over) >= len(title.strip())


def test_user_guide_worked_example_matches_the_test():
    # doc/user_guide.rst: mean disagreements 12 and 4 give M = 6.31, p = 0.012.
    from sklearn_bcv import get_test

    result = get_test("bcv_mcnemar")(tables=[[[20, 12], [4, 64]]] * 10)
    assert round(result.statistic, 2) == 6.31
    assert round(result.pvalue, 3) == 0.012
    guide = (ROOT / "doc" / "user_guide.rst").read_text(encoding="utf-8")
    assert "(6.31, 0.012)" in guide


@pytest.mark.parametrize(
    "path",
    [p for p in sorted((ROOT / "doc").glob("*.rst")) if ">>>" in p.read_text("utf-8")],
    ids=lambda p: p.name,
)
def test_rst_examples_run(path, tmp_path, monkeypatch):
    # The guide's examples are doctests: they must keep matching the code.
    # They run in an empty folder (the files they write land there).
    import doctest

    path = path.resolve()
    monkeypatch.chdir(tmp_path)

    import matplotlib

    matplotlib.use("Agg")
    failures, _ = doctest.testfile(
        str(path),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
        raise_on_error=False,
        verbose=False,
    )
    assert failures == 0


PAGES = sorted((ROOT / "doc").glob("*.rst")) + [ROOT / "README.rst"]


@pytest.mark.parametrize(
    "path",
    [
        p
        for p in PAGES
        if p.name != "README.rst" and python_blocks(p.read_text("utf-8"))
    ],
    ids=lambda p: p.name,
)
def test_rst_python_blocks_run(path, tmp_path, monkeypatch):
    # The Python blocks that are not doctests run too, in order, in one
    # session per page (as a reader pastes them), in an empty folder.
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__main__"}
    for line, code in python_blocks(path.read_text("utf-8")):
        exec(compile(code, f"{path.name}:{line}", "exec"), namespace)  # noqa: S102


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_no_python_example_hides_in_a_plain_literal_block(path):
    # An example a reader runs is a ``code-block:: python`` or a doctest, so
    # the tests above run it; a plain ``::`` block is for shell commands,
    # files and output.
    hidden = [
        line
        for line, block in literal_blocks(path.read_text("utf-8"))
        if looks_like_python(block)
    ]
    assert not hidden, f"{path.name}: Python in plain literal blocks at lines {hidden}"


def test_the_literal_block_check_tells_python_from_commands():
    assert looks_like_python("from a import b\nb(1)\n")
    assert looks_like_python("result = benchmark(estimators, datasets)\n")
    assert not looks_like_python("sklearn-bcv scores results.csv --plot cd.png\n")
    assert not looks_like_python("python -m sklearn_bcv\n")
    assert not looks_like_python("dataset,a,b\niris,0.9,0.8\n")
    assert not looks_like_python("study.db\n")


# --------------------------------------------------------------------------
# The extras the documentation names exist and hold what it says

DOCS = sorted((ROOT / "doc").glob("*.rst")) + [ROOT / "README.rst"]


def _extras():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+; nothing installed
    with open(ROOT / "pyproject.toml", "rb") as file:
        project = tomllib.load(file)["project"]
    return {
        name: {re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0].lower() for req in reqs}
        for name, reqs in project["optional-dependencies"].items()
    }


def _named_extras(text):
    """Extras named as ``.[a,b]`` or ``sklearn_bcv[a]`` (pip install targets)."""
    names = set()
    for group in re.findall(r"(?:\.|sklearn_bcv|sklearn-bcv)\[([\w,\- ]+)\]", text):
        names.update(name.strip() for name in group.split(","))
    return names


@pytest.mark.parametrize("path", DOCS, ids=lambda path: path.name)
def test_every_extra_the_docs_name_exists(path):
    named = _named_extras(path.read_text(encoding="utf-8"))
    assert named <= set(_extras()), f"{path.name} names {sorted(named)}"


def test_install_page_lists_what_each_extra_installs():
    # Each ``.[name]`` entry of install.rst names packages; every package it
    # names that some extra installs must be in that extra (the page once
    # promised pandas with [plot]).
    extras = _extras()
    known = set().union(*extras.values())
    text = (ROOT / "doc" / "install.rst").read_text(encoding="utf-8")
    entries = re.findall(r"^``\.\[(\w+)\]``\n((?:    .*\n)+)", text, flags=re.MULTILINE)
    assert {name for name, _ in entries} == set(extras) - {"bench"}
    for name, description in entries:
        words = {w.lower() for w in re.findall(r"[\w.\-]+", description)}
        words |= {w.rpartition(".")[2] for w in words}  # dask.distributed
        promised = (words & known) - {"test"}
        assert promised <= extras[name], (name, sorted(promised - extras[name]))
        # ... and every package the extra installs is named there.
        assert extras[name] <= promised, (name, sorted(extras[name] - promised))
    assert "pandas" in extras["pandas"] and "pandas" not in extras["plot"]


def test_the_gallery_order_lists_every_example_once():
    # The gallery goes from first steps to advanced (doc/_gallery_order.py):
    # a new example must be placed in it, not left to the file name.
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "_gallery_order", ROOT / "doc" / "_gallery_order.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert sorted(module.ORDER) == sorted(path.name for path in EXAMPLES)
    assert module.ORDER[0] == "plot_compare_two_classifiers.py"
    key = module.ExampleOrder("examples")
    shuffled = sorted(str(path) for path in EXAMPLES)
    assert [p.rsplit("/", 1)[-1] for p in sorted(shuffled, key=key)] == module.ORDER
