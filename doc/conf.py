"""Sphinx configuration of the sklearn_bcv documentation.

Build with ``python -m sphinx -W --keep-going -b html doc doc/_build/html``
after ``pip install ".[docs]"``. The build needs no network: the intersphinx
inventories of Python, NumPy, SciPy, scikit-learn, joblib and matplotlib are
fetched when the network can be reached (one quick probe) and otherwise
replaced by empty local inventories, with one line saying so: links to those
projects are then plain text.
"""

import os
import re
import socket
import sys
import zlib
from pathlib import Path

DOC_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(DOC_DIR.parent))
sys.path.insert(0, str(DOC_DIR))  # _gallery_order

import sklearn_bcv  # noqa: E402

project = "sklearn_bcv"
author = "The sklearn_bcv developers"
copyright = "2026, The sklearn_bcv developers"
version = release = sklearn_bcv.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "auto_examples/*.ipynb",
    "auto_examples/*.py",
    "auto_examples/*.md5",
    "auto_examples/*.zip",
]
default_role = "literal"

# -- autodoc / autosummary / numpydoc --------------------------------------
autosummary_generate = True
autodoc_default_options = {
    "members": True,
    "inherited-members": False,
    # scikit-learn's metadata-routing setters, generated on every estimator
    # class; their docstrings point into scikit-learn's own glossary.
    "exclude-members": ",".join(
        f"set_{method}_request"
        for method in ("fit", "predict", "predict_proba", "score", "split")
    ),
}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# -- intersphinx, offline-safe ---------------------------------------------
# Each project lists a remote inventory and then an empty local one: when the
# remote cannot be reached Sphinx uses the next location and only logs an
# info message, so an offline build stays free of warnings (-W).
_FALLBACK_DIR = DOC_DIR / "_build" / "empty_inventories"


def _empty_inventory(name):
    """Write a valid, empty objects.inv for ``name``; return its path."""
    _FALLBACK_DIR.mkdir(parents=True, exist_ok=True)
    path = _FALLBACK_DIR / f"{name}.inv"
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {name}\n# Version: \n"
        "# The remainder of this file is compressed using zlib.\n"
    ).encode()
    path.write_bytes(header + zlib.compress(b""))
    return str(path)


_INVENTORIES = {
    "python": "https://docs.python.org/3/",
    "numpy": "https://numpy.org/doc/stable/",
    "scipy": "https://docs.scipy.org/doc/scipy/",
    "sklearn": "https://scikit-learn.org/stable/",
    "joblib": "https://joblib.readthedocs.io/en/stable/",
    "matplotlib": "https://matplotlib.org/stable/",
}


def _online(host="docs.python.org", timeout=3):
    """Whether the inventories' hosts can be reached: one quick probe, so an
    offline build says so in one line instead of one line per project."""
    try:
        socket.create_connection((host, 443), timeout=timeout).close()
    except OSError:
        return False
    return True


_OFFLINE = bool(os.environ.get("SKLEARN_BCV_DOCS_OFFLINE")) or not _online()
if _OFFLINE:
    # Skip the network entirely: links to those projects are plain text.
    print(
        "intersphinx: no network (or SKLEARN_BCV_DOCS_OFFLINE set); links to "
        "Python, NumPy, SciPy, scikit-learn, joblib and matplotlib are plain text"
    )
    intersphinx_mapping = {
        name: (url, _empty_inventory(name)) for name, url in _INVENTORIES.items()
    }
else:
    intersphinx_mapping = {
        name: (url, (None, _empty_inventory(name)))
        for name, url in _INVENTORIES.items()
    }
intersphinx_timeout = 5

# -- sphinx-gallery --------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(DOC_DIR.parent / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    # First steps to advanced (doc/_gallery_order.py), not by file name.
    "within_subsection_order": "_gallery_order.ExampleOrder",
    "download_all_examples": False,
    "remove_config_comments": True,
    "matplotlib_animations": False,
    "show_memory": False,
    "plot_gallery": "True",
    "min_reported_time": 1,
}

# -- HTML ------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"sklearn_bcv {release}"
html_static_path = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_prev_next": False,
    "secondary_sidebar_items": ["page-toc"],
}
html_show_sourcelink = False


# -- Result fields in Returns sections -------------------------------------
# The tests document the fields of their result Bunch as a nested list of
# ``name : type`` lines inside the Returns entry, some without a description.
# numpydoc leaves that nested text to docutils, which needs a blank line
# before a dedent and between two bare ``name : type`` lines to read it as a
# definition list; add them (in Returns sections only) before numpydoc runs.
_SECTION_UNDERLINE = re.compile(r"^-{3,}\s*$")
_FIELD = re.compile(r"^\s+[A-Za-z_][\w, ]*\s:(\s|$)")


def _indent(line):
    return len(line) - len(line.lstrip())


def _space_result_fields(lines):
    out, in_returns = [], False
    for i, line in enumerate(lines):
        next_line = lines[i + 1] if i + 1 < len(lines) else ""
        if _SECTION_UNDERLINE.match(next_line):
            in_returns = line.strip() in ("Returns", "Yields")
        previous = out[-1] if out else ""
        if (
            in_returns
            and line.strip()
            and previous.strip()
            and _indent(line) >= 4
            and (
                _indent(line) < _indent(previous)
                or (
                    _indent(line) == _indent(previous)
                    and _FIELD.match(line)
                    and _FIELD.match(previous)
                )
            )
        ):
            out.append("")
        out.append(line)
    return out


def _process_docstring(app, what, name, obj, options, lines):
    lines[:] = _space_result_fields(lines)


# -- Optional pages ----------------------------------------------------------
# doc/reproduction.rst (the paper's simulations, written by the simulation
# module's authors) joins the index toctree when it exists, so the build
# passes -W with or without it.
OPTIONAL_PAGES = ("reproduction",)
_TOCTREE_ANCHOR = "   glossary\n"


def _add_optional_pages(app, docname, source):
    if docname != "index":
        return
    for page in OPTIONAL_PAGES:
        if (DOC_DIR / f"{page}.rst").exists() and f"   {page}\n" not in source[0]:
            source[0] = source[0].replace(
                _TOCTREE_ANCHOR, f"{_TOCTREE_ANCHOR}   {page}\n", 1
            )


def setup(app):
    # Before numpydoc (priority 500) turns the sections into reST.
    app.connect("autodoc-process-docstring", _process_docstring, priority=100)
    app.connect("source-read", _add_optional_pages)
