"""Hostile input, round 4: the figure files of a LaTeX report (class 4).

One mechanism (``sklearn_bcv/_results/_figures.py``): a figure's file is
named one to one from its LaTeX label (:func:`figure_file_name`: ``:`` as
``_c``, ``.`` as ``_d``, ``_`` as ``__``, an uppercase letter as ``_u``
and the letter), and written as a new file renamed over the name
(:func:`replace_file`); ``--report-figures`` is tried for real before any
fit. Before, two reports into one folder with the prefixes ``s1:`` and
``s1.`` (or ``a:``/``a-``, ``S1:``/``s1:``) shared their PDFs, the second
overwriting the first's; a link named like a figure file had its target
overwritten; and ``--report-figures`` into ``/proc`` failed after every
fit (status 1, no report).
"""

import os
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")

from sklearn_bcv import compare_scores  # noqa: E402
from sklearn_bcv._results._figures import figure_file_name  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SCORES = np.random.default_rng(1).uniform(0.6, 0.9, size=(6, 3))


def _report(tmp_path, prefix, names=("a", "b", "c")):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = compare_scores(SCORES, names=list(names), random_state=0)
    return result.report("latex", figures=tmp_path / "figures", label_prefix=prefix)


def _included(latex):
    return re.findall(r"\\includegraphics\{([^}]*)\}", latex)


@pytest.mark.parametrize(
    "first, second",
    [
        ("s1:", "s1."),
        ("a:", "a-"),
        ("S1:", "s1:"),
        ("x_", "x:"),
        ("x__", "x_:"),  # the escape of '_' is '__': still one to one
        ("", "-"),
        ("bcv:", "bcv:fig-"),
    ],
)
def test_two_prefixes_into_one_folder_keep_their_own_files(first, second, tmp_path):
    one = _report(tmp_path, first, names=("a", "b", "c"))
    two = _report(tmp_path, second, names=("x", "y", "z"))
    files_one, files_two = _included(one), _included(two)
    assert files_one and files_two
    assert not set(files_one) & set(files_two)
    assert not {f.lower() for f in files_one} & {f.lower() for f in files_two}
    # The first report's files are still its own: rendered again, the
    # same bytes.
    again = tmp_path / "again"
    again.mkdir()
    first_again = _report(again, first, names=("a", "b", "c"))
    for mine, fresh in zip(files_one, _included(first_again)):
        assert Path(mine).read_bytes() == Path(fresh).read_bytes()


ALPHABET = "abcXYZ019:._-"


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=8), st.text(ALPHABET, max_size=8))
def test_figure_file_names_are_one_to_one(a, b):
    name_a, name_b = figure_file_name(a), figure_file_name(b)
    assert (a == b) == (name_a == name_b)
    assert (a == b) == (
        name_a.lower() == name_b.lower()
    )  # case-insensitive file systems
    assert all(c.isalnum() or c in "_-." for c in name_a)
    assert name_a.count(".") == 1  # only the suffix's dot (graphicx reads it)


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
@pytest.mark.parametrize("dangling", [False, True])
def test_a_link_named_like_a_figure_is_replaced_not_written_through(dangling, tmp_path):
    _report(tmp_path, "s1:")  # learn the file names
    names = sorted(p.name for p in (tmp_path / "figures").iterdir())
    target = tmp_path / "precious.txt"
    if not dangling:
        target.write_text("keep me")
    for name in names:
        path = tmp_path / "figures" / name
        path.unlink()
        path.symlink_to(target)
    _report(tmp_path, "s1:")
    if dangling:
        assert not target.exists()
    else:
        assert target.read_text() == "keep me"
    for name in names:
        path = tmp_path / "figures" / name
        assert not path.is_symlink() and path.read_bytes().startswith(b"%PDF")
    leftovers = [p for p in (tmp_path / "figures").iterdir() if p.name.startswith(".")]
    assert leftovers == []


# --------------------------------------------------------------------------
# --report-figures is tried before any fit


@pytest.fixture
def marking_module(tmp_path):
    """A directory (not the working one) with an estimator module whose
    fits leave a mark."""
    directory = tmp_path / "modules"
    directory.mkdir()
    (directory / "hostile42_marks.py").write_text(
        textwrap.dedent(
            """
            import os
            from sklearn.dummy import DummyClassifier

            class Marking(DummyClassifier):
                def fit(self, X, y):
                    with open(os.environ["HOSTILE42_MARKS"], "a") as handle:
                        handle.write("fit\\n")
                    return super().fit(X, y)
            """
        )
    )
    return directory


def _run(argv, cwd, env):
    return subprocess.run(
        [sys.executable, "-m", "sklearn_bcv", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _places(tmp_path):
    read_only = tmp_path / "read-only"
    read_only.mkdir()
    read_only.chmod(0o555)
    places = {
        "proc": "/proc/sklearn-bcv-figures",
        "proc itself": "/proc/self",
        "a file": str(tmp_path / "a-file"),
        "below a file": str(tmp_path / "a-file" / "figures"),
    }
    (tmp_path / "a-file").write_text("not a directory")
    if os.geteuid() != 0:  # root writes anywhere
        places["read-only"] = str(read_only / "figures")
    return places


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_report_figures_that_cannot_be_written_fail_before_any_fit(
    marking_module, tmp_path
):
    marks = tmp_path / "marks"
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(REPO), str(marking_module)]),
        HOSTILE42_MARKS=str(marks),
    )
    for what, place in _places(tmp_path).items():
        run = _run(
            ["--dataset", "iris", "--estimator-a", "hostile42_marks.Marking",
             "--report", str(tmp_path / "report.tex"), "--report-figures", place],
            tmp_path,
            env,
        )  # fmt: skip
        assert run.returncode == 2, (what, run.stderr)
        lines = run.stderr.strip().splitlines()
        assert lines[-1].startswith("error: --report-figures"), (what, lines)
        assert not marks.exists(), what  # nothing was fitted
        assert not (tmp_path / "report.tex").exists()


def test_report_figures_in_a_new_directory_are_written(marking_module, tmp_path):
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(REPO), str(marking_module)]),
        HOSTILE42_MARKS=str(tmp_path / "marks"),
    )
    run = _run(
        ["--dataset", "iris", "--estimator-a", "hostile42_marks.Marking",
         "--report", "report.tex", "--report-figures", "new/figures"],
        tmp_path,
        env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    written = sorted((tmp_path / "new" / "figures").iterdir())
    assert written and all(p.name.startswith("bcv_cfig-") for p in written)


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
@pytest.mark.parametrize("kind", ["report", "json"])
def test_a_link_named_like_the_report_is_replaced_not_written_through(kind, tmp_path):
    # report(path=) and to_json(path=) write as the figures beside them do.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = compare_scores(SCORES, names=["a", "b", "c"], random_state=0)
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    path = tmp_path / ("report.md" if kind == "report" else "result.json")
    path.symlink_to(target)
    if kind == "report":
        result.report("markdown", path=path)
    else:
        result.to_json(path)
    assert target.read_text() == "keep me"
    assert not path.is_symlink() and path.read_text().strip()
