"""The command lines the documentation shows are the command line's own.

Every command of README.rst and the pages under ``doc/`` (a line of a
literal block starting with ``sklearn-bcv`` or ``python -m sklearn_bcv``,
or ``$ `` in a transcript) is parsed by the real parser, and every file it
reads is one the pages describe. A transcript (``$ command`` followed by
what it printed) is run, and what it shows must be what the command prints
now: times and the progress indicator set aside, ``...`` standing for any
text (as in doctests). ``^C`` in a transcript interrupts the command after
as many fits as the error line after it says were kept. Running every other
example as well takes minutes: ``python -m pytest -m slow``.
"""

import contextlib
import doctest
import io
import re
import shlex
from pathlib import Path

import numpy as np
import pytest
from _rst import literal_blocks

from sklearn_bcv._cli import main
from sklearn_bcv._cli._main import build_parser, select_subcommand

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.rst", *sorted((ROOT / "doc").glob("*.rst"))]
PROGRAMS = (("sklearn-bcv",), ("python", "-m", "sklearn_bcv"))


def _join_continuations(lines):
    """Lines with a trailing backslash joined to the next."""
    joined, current = [], ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
        else:
            joined.append(current + line)
            current = ""
    return joined


def _argv(command):
    """``(argv, stdout file)`` of a shell command line of the docs, or None
    when it does not run the program."""
    if not command.startswith(tuple(" ".join(p) + " " for p in PROGRAMS)) and (
        command.strip() not in {" ".join(p) for p in PROGRAMS}
    ):
        return None
    words = shlex.split(command)
    for program in PROGRAMS:
        if tuple(words[: len(program)]) == program:
            words = words[len(program) :]
            break
    else:
        return None
    redirect = None
    if ">" in words:
        at = words.index(">")
        words, redirect = words[:at], words[at + 1]
    return words, redirect


def _shell_blocks():
    """Every literal block that runs the program: (page, line, lines)."""
    found = []
    for page in PAGES:
        for line, block in literal_blocks(page.read_text("utf-8")):
            lines = block.splitlines()
            first = _join_continuations(lines)[0] if lines else ""
            if first.startswith("$ ") or _argv(first) is not None:
                found.append((page, line, lines))
    return found


def _transcripts():
    """The transcripts: (id, [(command, shown output lines)], page)."""
    found = []
    for page, line, lines in _shell_blocks():
        if not lines[0].startswith("$ "):
            continue
        steps, command = [], None
        for text in _join_continuations(lines):
            if text.startswith("$ "):
                command = text[2:]
                steps.append((command, []))
            elif command is not None:
                steps[-1][1].append(text)
        found.append((f"{page.name}:{line}", steps, page))
    return found


def _examples():
    """Every command of the docs: (id, command)."""
    found = []
    for page, line, lines in _shell_blocks():
        for number, text in enumerate(_join_continuations(lines)):
            text = text.removeprefix("$ ")
            if _argv(text) is not None:
                found.append((f"{page.name}:{line}+{number}", text))
    return found


# --------------------------------------------------------------------------
# The files the examples read, as the pages describe them


def _page_file(name):
    """The literal block a page gives as the contents of ``name``."""
    for page in PAGES:
        lines = page.read_text("utf-8").splitlines()
        for number, line in enumerate(lines):
            if f"``{name}``" in line and line.endswith("::"):
                from _rst import indented_block

                return indented_block(lines, number)
    raise LookupError(name)


def _write_files(folder):
    """The input files the examples name, in ``folder``."""
    results = _page_file("results.csv")
    (folder / "results.csv").write_text(results)
    # errors.csv: the error rates of the same table.
    rows = [line.split(",") for line in results.splitlines()]
    errors = [",".join(rows[0])] + [
        ",".join([row[0]] + [f"{1 - float(v):.3f}" for v in row[1:]])
        for row in rows[1:]
    ]
    (folder / "errors.csv").write_text("\n".join(errors) + "\n")
    # runs.csv: a long table of per-split accuracies.
    rng = np.random.default_rng(0)
    lines = ["dataset,estimator,split,accuracy"]
    for row in rows[1:]:
        for name, mean in zip(rows[0][1:], row[1:]):
            for split in range(10):
                value = min(1.0, float(mean) + rng.normal(scale=0.01))
                lines.append(f"{row[0]},{name},{split},{value:.3f}")
    (folder / "runs.csv").write_text("\n".join(lines) + "\n")
    # holes.csv: the same table with two cells missing (a run that failed).
    holed = [line.split(",") for line in results.splitlines()]
    holed[2][1] = holed[5][3] = ""
    (folder / "holes.csv").write_text("\n".join(",".join(r) for r in holed) + "\n")
    # seeds.csv: five runs (seeds) of every estimator on every data set.
    lines = ["dataset,estimator,run,accuracy"]
    for row in rows[1:]:
        for name, mean in zip(rows[0][1:], row[1:]):
            for run in range(5):
                value = min(1.0, float(mean) + rng.normal(scale=0.01))
                lines.append(f"{row[0]},{name},seed{run},{value:.3f}")
    (folder / "seeds.csv").write_text("\n".join(lines) + "\n")
    # split_scores.csv and repeated_scores.csv: the per-split scores of one
    # data set, 10 splits (a 5×2 CV) and 100 (10×10-fold).
    for name, n_splits in (("split_scores.csv", 10), ("repeated_scores.csv", 100)):
        lines = ["split,tree,forest,bayes"]
        for split in range(n_splits):
            values = 0.85 + np.array([0.0, 0.03, -0.02]) + rng.normal(0, 0.02, 3)
            lines.append(f"split{split}," + ",".join(f"{v:.3f}" for v in values))
        (folder / name).write_text("\n".join(lines) + "\n")
    # A data set of your own: mine.csv (target "label"), patients.csv
    # (target "outcome").
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=120) > 0).astype(int)
    for name, target in (("mine.csv", "label"), ("patients.csv", "outcome")):
        text = ["a,b,c," + target] + [
            f"{a:.3f},{b:.3f},{c:.3f},{t}" for (a, b, c), t in zip(X, y)
        ]
        (folder / name).write_text("\n".join(text) + "\n")


@pytest.fixture
def in_a_folder_with_the_files(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    _write_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --------------------------------------------------------------------------
# Running a command as the docs show it


#: Lines of stderr a transcript leaves out: the progress indicator.
_PROGRESS = re.compile(r"^fitting .*(\.\.\.|done in .*)$")


def _run(command, folder, *, interrupt_after=None):
    """Run a command of the docs; return (status, what a terminal shows
    without the progress indicator)."""
    argv, redirect = _argv(command)
    out, err = io.StringIO(), io.StringIO()
    if interrupt_after is not None:
        from sklearn_bcv._store._resume import StudySession

        keep, kept = StudySession.keep, []

        def keep_then_stop(self, output):
            keep(self, output)
            kept.append(1)
            if len(kept) == interrupt_after:
                raise KeyboardInterrupt

        StudySession.keep = keep_then_stop
    try:
        status = main(argv, stdout=out, stderr=err)
    finally:
        if interrupt_after is not None:
            StudySession.keep = keep
    shown = out.getvalue()
    if redirect is not None:
        (folder / redirect).write_text(shown)
        shown = ""
    shown += "".join(
        line
        for line in err.getvalue().splitlines(keepends=True)
        if not _PROGRESS.match(line.strip())
    )
    return status, shown


def _normal(text):
    """Times left out of a text (they differ from run to run)."""
    return re.sub(r"\b\d+(\.\d+)? s\b", "N s", text)


def assert_shown(shown, printed, where):
    checker = doctest.OutputChecker()
    want, got = (
        _normal("\n".join(shown).strip() + "\n"),
        _normal(printed.strip() + "\n"),
    )
    if not checker.check_output(want, got, doctest.ELLIPSIS):
        diff = checker.output_difference(
            doctest.Example("", want), got, doctest.ELLIPSIS | doctest.REPORT_NDIFF
        )
        pytest.fail(f"{where}: the page shows another output\n{diff}")


# --------------------------------------------------------------------------
# The tests


def test_the_pages_hold_commands_and_transcripts():
    # The collection itself: a failure here means the parsing broke.
    assert len(_examples()) >= 30
    assert len(_transcripts()) >= 3


@pytest.mark.parametrize(
    "command", [c for _, c in _examples()], ids=[i for i, _ in _examples()]
)
def test_every_command_of_the_docs_parses(command, in_a_folder_with_the_files):
    argv, _ = _argv(command)
    name, rest, prog = select_subcommand(argv)
    parser = build_parser(name, prog=prog)
    with contextlib.redirect_stdout(io.StringIO()):
        args = parser.parse_args(rest)
    for path in (getattr(args, "data", None), getattr(args, "file", None)):
        if path is not None:
            assert (in_a_folder_with_the_files / str(path)).exists(), path


@pytest.mark.parametrize(
    "where, steps",
    [(w, s) for w, s, _ in _transcripts()],
    ids=[w for w, _, _ in _transcripts()],
)
def test_every_transcript_shows_what_the_command_prints(
    where, steps, in_a_folder_with_the_files
):
    for command, shown in steps:
        interrupt_after = None
        if shown[:1] == ["^C"]:
            match = re.search(r"\((\d+) new\)", " ".join(shown))
            interrupt_after = int(match.group(1))
            shown = shown[1:]
        status, printed = _run(
            command,
            in_a_folder_with_the_files,
            interrupt_after=interrupt_after,
        )
        assert status == (130 if interrupt_after else 0), printed
        assert_shown(shown, printed, f"{where}: $ {command}")


def test_a_transcript_that_no_longer_matches_fails():
    # The comparison itself: a number changed in the shown output fails,
    # ``...`` and times do not.
    printed = "friedman: p = 0.0113\nfitting done in 2.5 s\nplot saved to cd.png\n"
    assert_shown(["friedman: p = 0.0113", "...", "plot saved to cd.png"], printed, "x")
    assert_shown(["friedman: p = 0.0113", "fitting done in 0.1 s", "..."], printed, "x")
    with pytest.raises(pytest.fail.Exception, match="another output"):
        assert_shown(["friedman: p = 0.0114", "..."], printed, "x")


@pytest.mark.slow
@pytest.mark.parametrize(
    "command", [c for _, c in _examples()], ids=[i for i, _ in _examples()]
)
def test_every_command_of_the_docs_runs(command, in_a_folder_with_the_files):
    status, printed = _run(command, in_a_folder_with_the_files)
    assert status == 0, printed
