"""Tests of ``--report FILE`` on every subcommand."""

import io
import os

import pytest

from sklearn_bcv._cli import main
from sklearn_bcv._cli._args import CLIError, UsageError
from sklearn_bcv._cli._report import (
    REPORT_SUFFIXES,
    check_report_path,
    write_report,
)
from sklearn_bcv._results._report import latex_escape

MANY = [
    "many",
    "--dataset",
    "iris",
    "--cv",
    "mx2",
    "--repeats",
    "2",
    "--quiet",
    "--estimator",
    "n_b=sklearn.naive_bayes.GaussianNB",
    "--estimator",
    "maj=sklearn.dummy.DummyClassifier",
]
BENCHMARK = [
    "benchmark",
    "--datasets",
    "iris",
    "wine",
    "moons:1",
    "--random-state",  # two runs alike (without it, each draws its seed)
    "0",
    "--cv",
    "mx2",
    "--repeats",
    "2",
    "--quiet",
    "--estimator",
    "n_b=sklearn.naive_bayes.GaussianNB",
    "--estimator",
    "stump=sklearn.tree.DecisionTreeClassifier",
    "--estimator",
    "maj=sklearn.dummy.DummyClassifier",
    "--params",
    'stump={"max_depth": 1, "random_state": 0}',
]
COMPARE = ["compare", "--estimator-b", "sklearn.naive_bayes.GaussianNB", "--quiet"]
SEQUENTIAL = ["sequential", "--dataset", "wine", "--quiet"]


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status, err, match, expected_status):
    assert status == expected_status, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: --report: ")
    assert match in lines[0], lines[0]


# ---- the path, checked before anything runs ---------------------------------


@pytest.mark.parametrize("command", [COMPARE, MANY, BENCHMARK, SEQUENTIAL])
@pytest.mark.parametrize("name", ["report.pdf", "report", "report.", "r.htm"])
def test_unknown_suffix_is_refused_before_any_fit(command, name, tmp_path):
    # Not --quiet: a fit would say "fitting ..." on stderr first.
    argv = [a for a in command if a != "--quiet"]
    status, out, err = run_cli(*argv, "--report", str(tmp_path / name))
    assert_one_line_error(status, err, "unknown report format", 2)
    for suffix in REPORT_SUFFIXES:
        assert suffix in err
    assert out == ""
    assert list(tmp_path.iterdir()) == []


def test_a_directory_and_a_missing_directory_are_refused(tmp_path):
    status, _, err = run_cli(*COMPARE, "--report", str(tmp_path))
    assert_one_line_error(status, err, "is a directory", 2)
    status, _, err = run_cli(*COMPARE, "--report", str(tmp_path) + os.sep)
    assert_one_line_error(status, err, "is a directory", 2)
    missing = tmp_path / "nowhere" / "report.md"
    status, _, err = run_cli(*COMPARE, "--report", str(missing))
    assert_one_line_error(status, err, "no directory", 2)
    status, _, err = run_cli(*COMPARE, "--report", "  ")
    assert_one_line_error(status, err, "give a file name", 2)


@pytest.mark.parametrize("suffix", sorted(REPORT_SUFFIXES))
def test_check_report_path_reads_the_format_off_the_suffix(suffix, tmp_path):
    path, format = check_report_path(tmp_path / f"r{suffix.upper()}")
    assert format == REPORT_SUFFIXES[suffix]
    assert path == tmp_path / f"r{suffix.upper()}"


def test_check_report_path_errors_are_cli_errors(tmp_path):
    with pytest.raises(UsageError):
        check_report_path(tmp_path / "x.doc")
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    with pytest.raises(CLIError, match="not a regular file"):
        check_report_path(fifo)


# ---- what is written --------------------------------------------------------


@pytest.fixture(scope="module")
def benchmark_runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench")
    plain = run_cli(*BENCHMARK)
    reported = run_cli(*BENCHMARK, "--report", str(folder / "r.tex"))
    return folder, plain, reported


def test_benchmark_report_is_latex_and_stdout_is_unchanged(benchmark_runs):
    folder, plain, reported = benchmark_runs
    assert reported[0] == 0, reported[2]
    assert reported[1] == plain[1]
    latex = (folder / "r.tex").read_text(encoding="utf-8")
    # Every table with its rules: the effect sizes, the scores, the sds over
    # the splits, each post hoc and pairwise test's pairs, each data set's
    # tests.
    n_tables = latex.count("\\begin{table}")
    assert n_tables >= 4
    assert latex.count("\\toprule") == latex.count("\\bottomrule") == n_tables
    assert latex_escape("n_b") in latex and "n_b" not in latex
    for dataset in ("iris", "wine", "moons:1"):
        assert f"\n{dataset} & " in latex
    # Nothing but the report is left in the directory.
    assert sorted(p.name for p in folder.iterdir()) == ["r.tex"]


def test_quiet_says_nothing_and_otherwise_the_file_is_named(tmp_path):
    status, _, err = run_cli(*MANY, "--report", str(tmp_path / "r.md"))
    assert status == 0 and err == ""
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert text.startswith("# Report\n")
    assert "n\\_b" in text and "| estimator |" in text
    argv = [a for a in MANY if a != "--quiet"]
    status, _, err = run_cli(*argv, "--report", str(tmp_path / "r.txt"))
    assert status == 0
    assert f"report written to {tmp_path / 'r.txt'}" in err
    assert (tmp_path / "r.txt").read_text(encoding="utf-8").startswith("Report\n")


def test_compare_and_sequential_write_html(tmp_path):
    for command, name in ((COMPARE, "c.html"), (SEQUENTIAL, "s.html")):
        status, _, err = run_cli(*command, "--report", str(tmp_path / name))
        assert status == 0, err
        page = (tmp_path / name).read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>")
        assert "<svg" in page
    assert "stopped after" in (tmp_path / "s.html").read_text(encoding="utf-8")


def test_a_link_at_the_path_is_replaced_not_followed(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("keep me", encoding="utf-8")
    link = tmp_path / "report.txt"
    link.symlink_to(target)
    status, _, err = run_cli(*MANY, "--report", str(link))
    assert status == 0, err
    assert not link.is_symlink()
    assert link.read_text(encoding="utf-8").startswith("Report\n")
    assert target.read_text(encoding="utf-8") == "keep me"


class _Result:
    def report(self, format):
        return f"a {format} report\n"


def test_write_report_replaces_atomically_and_keeps_no_temporary(tmp_path):
    path = tmp_path / "r.md"
    path.write_text("old", encoding="utf-8")
    written = write_report(_Result(), path)
    assert written == path
    assert path.read_text(encoding="utf-8") == "a markdown report\n"
    assert os.listdir(tmp_path) == ["r.md"]
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o644 & ~mask


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "r.md"
    path.write_text("old", encoding="utf-8")

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(CLIError, match="cannot write .*No space left"):
        write_report(_Result(), path)
    assert path.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["r.md"]


# ---- the figures of a LaTeX report ------------------------------------------


def test_report_figures_writes_the_pdf_files_the_latex_includes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the directory as the document reaches it
    status, _, err = run_cli(
        *BENCHMARK, "--report", "r.tex", "--report-figures", "figures"
    )
    assert status == 0, err
    latex = (tmp_path / "r.tex").read_text(encoding="utf-8")
    files = sorted(p.name for p in (tmp_path / "figures").iterdir())
    assert files and all(name.endswith(".pdf") for name in files)
    for name in files:
        assert f"\\includegraphics{{figures/{name}}}" in latex


def test_report_figures_are_beside_the_report_and_layout_sets_it(tmp_path):
    """--report-figures is relative to the report's file (as the paper that
    inputs it reaches them), whatever the working directory; --report-layout
    twocolumn sets it for two columns."""
    paper = tmp_path / "paper"
    paper.mkdir()
    status, _, err = run_cli(
        *BENCHMARK, "--report", str(paper / "r.tex"), "--report-figures",
        "figures", "--report-layout", "twocolumn",
    )  # fmt: skip
    assert status == 0, err
    latex = (paper / "r.tex").read_text(encoding="utf-8")
    files = sorted(p.name for p in (paper / "figures").iterdir())
    assert files and not (tmp_path / "figures").exists()
    for name in files:
        assert f"\\includegraphics{{figures/{name}}}" in latex
    assert "Set for a twocolumn article" in latex
    status, _, err = run_cli(*COMPARE, "--report", str(tmp_path / "r.md"),
                             "--report-layout", "twocolumn")  # fmt: skip
    assert status == 2 and "--report-layout sets a LaTeX report" in err


@pytest.mark.parametrize(
    "extra, match",
    [
        (["--report-figures", "figs"], "--report-figures goes with --report"),
        (["--report", "r.md", "--report-figures", "figs"], "a LaTeX report"),
        (["--report", "r.tex", "--report-figures", "my figs"], "figures must be"),
    ],
)
def test_report_figures_is_checked_before_any_fit(extra, match, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = [a for a in COMPARE if a != "--quiet"]
    status, out, err = run_cli(*argv, *extra)
    assert status == 2, err
    assert match in err and "fitting" not in err
    assert out == "" and list(tmp_path.iterdir()) == []


def test_plot_is_written_at_300_dpi_by_default_and_dpi_changes_it(tmp_path):
    pytest.importorskip("matplotlib")
    import struct

    def size(path):
        data = path.read_bytes()
        return struct.unpack(">II", data[16:24])  # the PNG's IHDR width, height

    status, _, err = run_cli(*MANY, "--plot", str(tmp_path / "a.png"))
    assert status == 0, err
    status, _, err = run_cli(*MANY, "--plot", str(tmp_path / "b.png"), "--dpi", "100")
    assert status == 0, err
    (width, _), (low_width, _) = size(tmp_path / "a.png"), size(tmp_path / "b.png")
    assert width == pytest.approx(3 * low_width, rel=0.05)
    assert width >= 1200
    status, _, err = run_cli(*MANY, "--dpi", "10")
    assert status == 2 and "--dpi" in err
