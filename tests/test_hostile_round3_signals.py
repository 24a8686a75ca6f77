"""Hostile input, round 3: signals at the edges (class 5).

Ctrl-C (SIGINT, to the whole process group as a terminal sends it) or
SIGTERM at any moment of a command -- before the fits, during them, while
the result is printed, while the process exits -- ends it with one
``error:`` line and status 130 (143 for SIGTERM): no traceback, no
``Exception ignored``, no status 0, no worker left behind. The moments are
reached by markers the command's own estimators write (a module that
sleeps on import or at exit, a fit that sleeps), never by timing; the
deadlines are generous for a loaded machine and nothing is timed.
"""

import io
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

# The process-tree helpers of round 2's signal tests.
from test_hostile_round2_cli import _alive, _descendants  # noqa: E402

from sklearn_bcv._cli import main

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not Path("/proc").is_dir(),
    reason="POSIX signals and /proc",
)

REPO = Path(__file__).resolve().parents[1]
DUMMY = "sklearn.dummy.DummyClassifier"
NB = "sklearn.naive_bayes.GaussianNB"
DEADLINE = 180  # seconds: a loaded 2-core machine, never a measurement
STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}


@pytest.fixture
def modules(tmp_path):
    """Estimator modules that mark the moment the test waits for, then
    sleep: on import, in ``fit``, or at the process's exit."""
    directory = tmp_path / "modules"
    directory.mkdir()
    (directory / "hostile33_sig.py").write_text(
        textwrap.dedent(
            """
            import os, time
            from sklearn.dummy import DummyClassifier

            MARKS = os.environ["HOSTILE33_MARKS"]

            def mark(what):
                with open(MARKS, "a") as handle:
                    handle.write(what + "\\n")

            class SlowFit(DummyClassifier):
                def fit(self, X, y):
                    mark("fit")
                    time.sleep(float(os.environ.get("HOSTILE33_FIT_SLEEP", "0")))
                    return super().fit(X, y)
            """
        )
    )
    (directory / "hostile33_import.py").write_text(
        "from hostile33_sig import mark, SlowFit\n"
        "import time\nmark('import')\ntime.sleep(120)\n"
    )
    (directory / "hostile33_exit.py").write_text(
        "import atexit, time\nfrom hostile33_sig import mark, SlowFit\n"
        "atexit.register(lambda: (mark('exit'), time.sleep(120)))\n"
    )
    return directory


def _env(modules, marks, **extra):
    return dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(REPO), str(modules)]),
        HOSTILE33_MARKS=str(marks),
        **extra,
    )


def _start(argv, env, cwd):
    return subprocess.Popen(
        [sys.executable, "-m", "sklearn_bcv", *argv],
        env=env,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own group: the test signals it alone
    )


def _wait_for_mark(process, marks, what, count=1):
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        if marks.exists() and marks.read_text().split().count(what) >= count:
            return
        assert process.poll() is None, process.stderr.read().decode()
        time.sleep(0.05)
    raise AssertionError(f"no {what!r} mark within {DEADLINE} s")


def _signal_and_collect(process, signum, *, group=True):
    workers = _descendants(process.pid)
    try:
        (os.killpg if group else os.kill)(process.pid, signum)
        out, err = process.communicate(timeout=DEADLINE)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    deadline = time.monotonic() + 30
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    survivors = [pid for pid in workers if _alive(pid)]
    for pid in survivors:  # never leave them to the next test
        os.kill(pid, signal.SIGKILL)
    return process.returncode, out.decode(), err.decode(), survivors


def _assert_one_error_line(status, err, signum, match):
    assert status == STATUS[signum], err
    lines = err.strip().splitlines()
    errors = [line for line in lines if line.startswith("error:")]
    assert errors == lines[-1:], err  # one error line, the last
    assert match in lines[-1], lines[-1]
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert "KeyboardInterrupt" not in err, err


# ---- before the fits ---------------------------------------------------------------


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_a_signal_before_the_fits(modules, tmp_path, signum):
    marks = tmp_path / "marks"
    process = _start(
        ["--dataset", "iris", "--estimator-a", "hostile33_import.SlowFit",
         "--store", str(tmp_path / "study.db")],
        _env(modules, marks),
        tmp_path,
    )  # fmt: skip
    _wait_for_mark(process, marks, "import")
    status, out, err, survivors = _signal_and_collect(process, signum)
    message = "interrupted" if signum == signal.SIGINT else "terminated (SIGTERM)"
    _assert_one_error_line(status, err, signum, f"error: {message}")
    assert out == ""
    assert "fit" not in marks.read_text().split()
    assert not (tmp_path / "study.db").exists()  # refused: nothing behind


# ---- during the fits -----------------------------------------------------------------


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_a_signal_during_the_fits_of_workers(modules, tmp_path, signum):
    marks = tmp_path / "marks"
    store = tmp_path / "study.db"
    process = _start(
        ["many", "--dataset", "iris", "--estimator", "hostile33_sig.SlowFit",
         "--estimator", NB, "--n-jobs", "2", "--store", str(store)],
        _env(modules, marks, HOSTILE33_FIT_SLEEP="60"),
        tmp_path,
    )  # fmt: skip
    _wait_for_mark(process, marks, "fit", count=2)  # both workers are fitting
    assert len(_descendants(process.pid)) >= 2
    status, out, err, survivors = _signal_and_collect(process, signum)
    _assert_one_error_line(
        status, err, signum, f"of the 20 fits of this study are kept in {store}"
    )
    assert out == ""
    assert survivors == []


# ---- while printing ------------------------------------------------------------------


def test_a_signal_while_the_result_is_printed(modules, tmp_path):
    # --format json of a benchmark is larger than a pipe holds: unread, the
    # command blocks in its write until the signal.
    marks = tmp_path / "marks"
    process = _start(
        ["benchmark", "--datasets", "iris", "wine", "breast_cancer",
         "--estimator", DUMMY, "--estimator", NB, "--format", "json"],
        _env(modules, marks),
        tmp_path,
    )  # fmt: skip
    deadline = time.monotonic() + DEADLINE
    seen = b""
    while b"done in" not in seen and time.monotonic() < deadline:
        seen += os.read(process.stderr.fileno(), 1)  # the progress line's end
    assert b"done in" in seen
    status, out, err, _ = _signal_and_collect(process, signal.SIGINT)
    _assert_one_error_line(status, seen.decode() + err, signal.SIGINT, "interrupted")


# ---- while the process exits -------------------------------------------------------


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_a_signal_while_the_process_exits(modules, tmp_path, signum):
    marks = tmp_path / "marks"
    process = _start(
        ["--dataset", "iris", "--estimator-a", "hostile33_exit.SlowFit",
         "--format", "json"],
        _env(modules, marks),
        tmp_path,
    )  # fmt: skip
    _wait_for_mark(process, marks, "exit")  # the result is printed by now
    status, out, err, _ = _signal_and_collect(process, signum)
    message = "interrupted" if signum == signal.SIGINT else "terminated (SIGTERM)"
    _assert_one_error_line(status, err, signum, f"error: {message}")
    assert out.rstrip().endswith("}")  # the result was complete


@pytest.mark.parametrize(
    "delays",
    [
        pytest.param((0.0, 0.02), id="fast"),
        pytest.param((0.0, 0.005, 0.01, 0.03, 0.05, 0.1, 0.3), marks=pytest.mark.slow),
    ],
)
def test_a_signal_just_after_the_output_is_never_a_traceback(tmp_path, delays):
    # Around the end of the output the command is printing, then exiting:
    # whenever the signal lands, either the command had ended (0, no error)
    # or it reports the interruption in one line (130); never a traceback,
    # a status 0 with noise, or a death by the signal without a line.
    env = dict(os.environ, PYTHONPATH=str(REPO))
    for delay in delays:
        process = _start(
            ["--dataset", "iris", "--estimator-a", DUMMY, "--n-jobs", "2"],
            env,
            tmp_path,
        )
        os.read(process.stdout.fileno(), 1)  # the result is being printed
        time.sleep(delay)
        try:
            os.killpg(process.pid, signal.SIGINT)
        except ProcessLookupError:  # ended already
            pass
        status, out, err, survivors = _signal_and_collect(process, signal.SIGINT)
        assert survivors == []
        if status == 0:
            assert "error:" not in err and "Traceback" not in err, err
            assert "Exception ignored" not in err, err
        else:
            _assert_one_error_line(status, err, signal.SIGINT, "error: interrupted")


# ---- in this process: a signal whose exception does not reach main -----------------

SWALLOWING = textwrap.dedent(
    """
    import signal
    from sklearn.dummy import DummyClassifier

    class _Base(DummyClassifier):
        # Receives the signal in its fit and swallows what it raises, as
        # code with a bare except (or a __del__) would.
        signum, then = signal.SIGINT, None

        def fit(self, X, y):
            try:
                signal.raise_signal(self.signum)
            except BaseException as exc:
                if self.then is not None:
                    raise RuntimeError(self.then) from exc
            return super().fit(X, y)

    class SwallowsInt(_Base):
        pass

    class SwallowsTerm(_Base):
        signum = signal.SIGTERM

    class TurnsInt(_Base):
        then = "turned into another error"
    """
)


@pytest.mark.parametrize(
    "name, status, line",
    [
        ("SwallowsInt", 130, "error: interrupted"),
        ("SwallowsTerm", 143, "error: terminated (SIGTERM)"),
        ("TurnsInt", 130, "error: interrupted"),
    ],
)
def test_a_signal_whose_exception_is_swallowed_still_interrupts(
    tmp_path, monkeypatch, name, status, line
):
    (tmp_path / "hostile33_swallow.py").write_text(SWALLOWING)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(REPO)
    previous = {signum: signal.getsignal(signum) for signum in STATUS}
    out, err = io.StringIO(), io.StringIO()
    got = main(
        ["--dataset", "iris", "--estimator-a", f"hostile33_swallow.{name}"],
        stdout=out,
        stderr=err,
    )
    assert {signum: signal.getsignal(signum) for signum in STATUS} == previous
    assert got == status, err.getvalue()
    lines = err.getvalue().strip().splitlines()
    assert [x for x in lines if x.startswith("error:")] == [line], lines
    assert lines[-1] == line


def test_the_resource_trackers_start_without_their_cleanup_warnings(tmp_path):
    # The command's process starts joblib's resource tracker (and workers)
    # with its own -W options: the tracker's warnings about the semaphores
    # it cleans up after a Ctrl-C never follow the one error line.
    script = textwrap.dedent(
        """
        import subprocess, sys
        from sklearn_bcv._cli import _main

        def flags():
            print(subprocess._args_from_interpreter_flags())
            return 0

        _main.main = flags
        _main.run()
        """
    )
    completed = subprocess.run(
        [sys.executable, "-c", script],
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert "-Wignore:resource_tracker:UserWarning" in completed.stdout
    # The option (as Python reads it at start-up) hides the tracker's
    # messages only.
    check = subprocess.run(
        [sys.executable, "-Wignore:resource_tracker:UserWarning", "-c"]
        + [
            "import warnings\n"
            "warnings.warn('resource_tracker: There appear to be 1 leaked semlock')\n"
            "warnings.warn(\"resource_tracker: /loky-1: FileNotFoundError(2, '')\")\n"
            "warnings.warn('an estimator warns')"
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "resource_tracker" not in check.stderr
    assert "UserWarning: an estimator warns" in check.stderr
