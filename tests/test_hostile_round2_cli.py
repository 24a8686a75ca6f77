"""Hostile input to the command line, round 2 (issue 28), one class at a time.

3. leftover processes (SIGTERM with ``--n-jobs 2``), 5. files written where
they should not be (symbolic links, unwritable directories; atomic writes),
6. the error contract (a module that exits on import, a dead worker, a
closed stdout, control characters and formula injection in printed names),
and the command-line parts of 2 and 4 (late failures and runaway memory at
load time).
"""

import csv
import io
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sklearn_bcv._cli import _data, main
from sklearn_bcv._cli._args import CLIError
from sklearn_bcv._cli._files import check_output_path, write_atomically
from sklearn_bcv._cli._output import csv_cell, printable
from sklearn_bcv._results._document import csv_text

REPO = Path(__file__).resolve().parents[1]
DUMMY = "sklearn.dummy.DummyClassifier"
NB = "sklearn.naive_bayes.GaussianNB"
SUBCOMMAND_ARGS = {
    "compare": ["--dataset", "iris", "--estimator-a", DUMMY, "--estimator-b", NB],
    "many": ["many", "--dataset", "iris", "--estimator", DUMMY, "--estimator", NB],
    "benchmark": [
        "benchmark",
        "--datasets",
        "iris",
        "wine",
        "--estimator",
        DUMMY,
        "--estimator",
        NB,
    ],
}


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status, err, match, expected_status=1):
    """One ``error:`` line and nothing else: in particular no progress line,
    so the error came before any fit."""
    assert status == expected_status, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert match in lines[0], lines[0]


@pytest.fixture
def helper_module(tmp_path):
    """A module on PYTHONPATH (not the current directory) with estimators
    that sleep, die, or exit."""
    directory = tmp_path / "modules"
    directory.mkdir()
    (directory / "hostile28b.py").write_text(
        textwrap.dedent(
            """
            import os, signal, time
            from sklearn.dummy import DummyClassifier

            class Slow(DummyClassifier):
                def fit(self, X, y):
                    time.sleep(60)
                    return super().fit(X, y)

            class Exits(DummyClassifier):
                def fit(self, X, y):
                    os._exit(3)

            class Segfaults(DummyClassifier):
                def fit(self, X, y):
                    os.kill(os.getpid(), signal.SIGSEGV)
            """
        )
    )
    return directory


def _env(*paths):
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), *map(str, paths)]))


def _descendants(pid):
    """Processes whose parent chain reaches ``pid`` (psutil, or /proc)."""
    try:
        import psutil
    except ImportError:
        children = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                ppid = int(stat.rpartition(")")[2].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
        found, todo = [], [pid]
        while todo:
            kids = children.get(todo.pop(), [])
            found += kids
            todo += kids
        return found
    return [child.pid for child in psutil.Process(pid).children(recursive=True)]


def _alive(pid):
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


# ---- 3. leftover processes ---------------------------------------------------


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("command", ["compare", "many"])
def test_sigterm_leaves_no_process_behind(helper_module, tmp_path, command):
    args = {
        "compare": ["--estimator-a", "hostile28b.Slow"],
        "many": ["many", "--estimator", "hostile28b.Slow", "--estimator", DUMMY],
    }[command]
    process = subprocess.Popen(
        [sys.executable, "-m", "sklearn_bcv", *args, "--dataset", "iris"]
        + ["--n-jobs", "2"],
        env=_env(helper_module),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 90
        workers = []
        while time.monotonic() < deadline and len(workers) < 3:
            time.sleep(0.2)
            workers = _descendants(process.pid)
        assert len(workers) >= 3, "the workers did not start"  # 2 + trackers
        time.sleep(0.5)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, err
    assert err.strip().splitlines()[-1].startswith("error: terminated (SIGTERM)")
    assert "Traceback" not in err
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(map(_alive, workers)):
        time.sleep(0.2)
    survivors = [pid for pid in workers if _alive(pid)]
    for pid in survivors:  # do not leave them to the next test either
        os.kill(pid, signal.SIGKILL)
    assert survivors == []


# ---- 5. files written where they should not be -------------------------------


@pytest.fixture
def matplotlib():
    return pytest.importorskip("matplotlib")


@pytest.mark.parametrize("command", list(SUBCOMMAND_ARGS))
def test_plot_refuses_symbolic_links_before_fitting(matplotlib, tmp_path, command):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    links = {
        "link.png": victim,  # to a file: it would be overwritten
        "dangling.png": tmp_path / "created.png",  # its target would be made
        "dir-link.png": tmp_path / "sub" / "x.png",  # into a missing directory
    }
    for name, target in links.items():
        (tmp_path / name).symlink_to(target)
        status, out, err = run_cli(
            *SUBCOMMAND_ARGS[command], "--plot", str(tmp_path / name)
        )
        assert_one_line_error(status, err, "is a symbolic link; refusing", 2)
        assert out == ""
    assert victim.read_text() == "keep me"
    assert not (tmp_path / "created.png").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*links, "victim.txt"])


@pytest.mark.parametrize("existing", [True, False])
def test_store_refuses_symbolic_links(tmp_path, existing):
    target = tmp_path / "target.sqlite"
    if existing:
        target.write_bytes(b"")
    (tmp_path / "link.sqlite").symlink_to(target)
    status, out, err = run_cli(
        *SUBCOMMAND_ARGS["compare"], "--store", str(tmp_path / "link.sqlite")
    )
    assert_one_line_error(status, err, "--store: ", 2)
    assert "is a symbolic link; refusing" in err
    assert target.exists() == existing
    if existing:
        assert target.read_bytes() == b""


@pytest.mark.parametrize(
    "directory", ["/proc", "/proc/self", "/sys/kernel"], ids=lambda d: d[1:]
)
def test_plot_in_a_directory_that_cannot_be_written_fails_before_fitting(
    matplotlib, directory
):
    if not Path(directory).is_dir():
        pytest.skip(f"no {directory}")
    status, out, err = run_cli(
        *SUBCOMMAND_ARGS["compare"], "--plot", f"{directory}/figure.png"
    )
    assert_one_line_error(status, err, "--plot: cannot write in the directory", 2)


def test_write_atomically_replaces_and_leaves_nothing_on_failure(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    write_atomically(path, lambda f: f.write("new"), "--x", binary=False)
    assert path.read_text() == "new"
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())

    def fails(file):
        file.write("half")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        write_atomically(path, fails, "--x", binary=False)
    assert path.read_text() == "new"  # the old file intact, no temp left
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    (tmp_path / "link").symlink_to(path)
    with pytest.raises(CLIError, match="--x: .* is a symbolic link"):
        write_atomically(tmp_path / "link", lambda f: f.write(b"x"), "--x")
    with pytest.raises(CLIError, match="--x: .* is a symbolic link"):
        check_output_path(tmp_path / "link", "--x")
    assert path.read_text() == "new"


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_plot_is_written_atomically(matplotlib, tmp_path):
    path = tmp_path / "figure.png"
    path.write_bytes(b"old")
    status, out, err = run_cli(*SUBCOMMAND_ARGS["compare"], "--plot", str(path))
    assert status == 0, err
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["figure.png"]


# ---- 6. the error contract -----------------------------------------------------


@pytest.mark.parametrize(
    "path, match",
    [
        ("unittest.__main__.TestProgram", "made it exit (sys.exit(2))"),
        ("hostile28b_exit.X", "made it exit (sys.exit('bye'))"),
        ("hostile28b_exit0.X", "made it exit (sys.exit(0))"),
    ],
)
def test_module_that_exits_on_import_is_one_error_line(
    tmp_path, monkeypatch, path, match
):
    (tmp_path / "hostile28b_exit.py").write_text(
        "import sys\nprint('usage: noise', file=sys.stderr)\nsys.exit('bye')\n"
    )
    (tmp_path / "hostile28b_exit0.py").write_text(
        "import sys\nprint('noise')\nsys.exit(0)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(REPO)
    # unittest.__main__ parses sys.argv when imported: make it the same
    # whatever command ran pytest (an unknown option: argparse exits 2).
    monkeypatch.setattr(sys, "argv", ["sklearn-bcv", "--no-such-option"])
    for module in ("unittest.__main__", "hostile28b_exit", "hostile28b_exit0"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    status, out, err = run_cli("--dataset", "iris", "--estimator-a", path)
    module = path.rpartition(".")[0]
    assert_one_line_error(
        status, err, f"--estimator-a: importing module {module!r} {match}"
    )
    assert out == ""


@pytest.mark.parametrize("fault", ["Exits", "Segfaults"])
@pytest.mark.parametrize("command", ["compare", "many"])
def test_dead_worker_is_one_line_naming_estimator_and_data(
    helper_module, tmp_path, fault, command
):
    args = {
        "compare": ["--estimator-a", f"hostile28b.{fault}"],
        "many": ["many", "--estimator", f"hostile28b.{fault}", "--estimator", NB],
    }[command]
    completed = subprocess.run(
        [sys.executable, "-m", "sklearn_bcv", *args, "--dataset", "iris"]
        + ["--n-jobs", "2", "--quiet"],
        env=_env(helper_module),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
    )
    # A crashing worker may dump its own faulthandler report on the stderr it
    # inherits, and the dead worker's resource tracker (a process of its own)
    # may warn about what it was tracking as it exits, after us; the
    # command's own report is one error line, the last of its own lines.
    # (Its warning is two lines: the message, then the indented source line
    # "  warnings.warn(".)
    lines, tracker = [], False
    for line in completed.stderr.strip().splitlines():
        tracker = "resource_tracker" in line or (tracker and line.startswith(" "))
        if not tracker:
            lines.append(line)
    assert completed.returncode == 1, completed.stderr
    assert [line for line in lines if line.startswith("error:")] == lines[-1:]
    assert lines[-1].startswith("error: a worker process died while fitting ")
    assert "iris (scikit-learn, 150 records)" in lines[-1]
    assert "TerminatedWorkerError" in lines[-1]
    if command == "compare":
        assert f"fitting {fault} and RandomForestClassifier on" in lines[-1]
    assert "Traceback" not in completed.stderr


def test_closed_standard_streams(tmp_path):
    script = "import sys; from sklearn_bcv._cli import main; sys.exit(main())"
    # stdout closed: one error line on stderr, no AttributeError
    completed = subprocess.run(
        f"{sys.executable} -c '{script}' --dataset iris >&-",
        shell=True,
        env=_env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 1, completed.stderr
    assert completed.stderr == (
        "error: standard output is closed; nowhere to write the result\n"
    )
    # both closed: a status and nothing else
    completed = subprocess.run(
        f"{sys.executable} -c '{script}' --dataset iris >&- 2>&-",
        shell=True,
        env=_env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 1


NAMES = {
    "\x1b[31mred\x1b[0m": "red",
    "bell\x07": "bell\\x07",
    "title\x1b]0;pwned\x07x": "titlex",
    "csi\x9b2Jx": "csix",
}


def test_printed_text_has_no_control_characters():
    for raw, shown in NAMES.items():
        assert printable(raw) == shown
    assert printable("a\nb\tc") == "a\nb\tc"
    assert printable("a\nb", keep_newlines=False) == "a\\x0ab"


@pytest.mark.parametrize(
    "value, cell",
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\\x09x"),
        ("\r=1", "'\\x0d=1"),
        ("-2.5", "-2.5"),
        ("-inf", "-inf"),
        ("-1;2.5", "-1;2.5"),
        ("plain", "plain"),
        (-3.0, -3.0),
    ],
)
def test_csv_cells_are_not_formulas(value, cell):
    assert csv_cell(value) == cell
    row = next(csv.reader(io.StringIO(csv_text(["h"], [{"h": value}]).splitlines()[1])))
    assert row == [str(cell)]


@pytest.mark.parametrize("output_format", ["csv", "text"])
def test_hostile_estimator_names_in_every_output(output_format):
    names = ["@SUM(A1)", "+cmd", "\x1b[31mred"]
    status, out, err = run_cli(
        "many",
        "--dataset",
        "iris",
        "--format",
        output_format,
        *[f"--estimator={name}={DUMMY}" for name in names[:2]],
        f"--estimator={names[2]}={NB}",
    )
    assert status == 0, err
    assert "\x1b" not in out
    assert "\x1b" not in err
    assert "red" in out
    if output_format == "csv":
        cells = [cell for row in csv.reader(io.StringIO(out)) for cell in row]
        assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
        assert "'@SUM(A1)" in cells or any("'@SUM(A1)" in c for c in cells)


# ---- 2 and 4 at load time: before any fit --------------------------------------


def _write(path, header, rows):
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


@pytest.mark.parametrize("n_columns", [1, 3])
def test_all_empty_feature_columns_fail_at_load(tmp_path, n_columns):
    header = ",".join([f"f{j}" for j in range(n_columns)] + ["y"])
    rows = ["," * n_columns + str(i % 2) for i in range(20)]
    path = _write(tmp_path / "empty.csv", header, rows)
    status, out, err = run_cli("--data", str(path), "--target", "y")
    assert_one_line_error(status, err, "every feature column is empty")


@pytest.mark.parametrize(
    "n_columns, levels, n_rows",
    [(6, 999, 999), (60, 100, 100)],
)
def test_encoded_width_is_limited_in_total_at_load(tmp_path, n_columns, levels, n_rows):
    # Each column is within the per-column limit; together they are not.
    assert levels <= _data.MAX_CATEGORIES
    assert n_columns * levels > _data.MAX_ENCODED_COLUMNS
    header = ",".join([f"c{j}" for j in range(n_columns)] + ["y"])
    rows = [
        ",".join(f"v{j}_{i % levels}" for j in range(n_columns)) + f",{i % 2}"
        for i in range(n_rows)
    ]
    path = _write(tmp_path / "wide.csv", header, rows)
    status, out, err = run_cli("--data", str(path), "--target", "y")
    assert_one_line_error(status, err, "one-hot encoding makes")
    assert f"{n_columns * min(levels, n_rows):,} feature columns" in err


def test_encoded_memory_is_limited_at_load(tmp_path, monkeypatch):
    monkeypatch.setattr(_data, "MAX_ENCODED_BYTES", 100 * 8 * 10)
    header = "a,b,y"
    rows = [f"{i},{i % 9},{i % 2}" for i in range(101)]  # 101 x 2 cells
    path = _write(tmp_path / "big.csv", header, rows)
    status, out, err = run_cli("--data", str(path), "--target", "y")
    assert status == 0, err  # 101 * 2 * 8 bytes: under the limit
    rows = [f"{i},u{i % 9},{i % 2}" for i in range(101)]  # 101 x (1 + 9)
    path = _write(tmp_path / "big.csv", header, rows)
    status, out, err = run_cli("--data", str(path), "--target", "y")
    assert_one_line_error(status, err, "10 feature columns for 101 records")
