"""Studies interrupted for real (SIGKILL, SIGINT) and resumed from their store.

A subprocess runs :func:`sklearn_bcv.benchmark` with a study store (the
study of ``_store_study.py``, whose estimators log each fit); the test stops
it once some fits are committed, then reruns the same call: the rerun fits
exactly the fits the store did not hold, and its result equals an
uninterrupted run's number for number. The moment is a state the test
observes, never a time it guesses: the study's fits after its first 20
wait while a hold file exists, so the signal always finds the study
running, with fits committed and others to come (on a loaded machine a
study that had raced to its end would return 0 instead); the file is
removed before the same call resumes.
"""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import sklearn_bcv
from sklearn_bcv import StudyStore

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import _store_study  # noqa: E402

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="POSIX signals and process groups"
)


@pytest.fixture(scope="module")
def uninterrupted():
    """The numbers of the study run in one go, without a store."""
    result = _store_study.run(None, None, 0.0, 1)
    return json.loads(json.dumps(_store_study.numbers(result)))


def _environment():
    paths = [str(HERE), str(Path(sklearn_bcv.__file__).parents[1])]
    old = os.environ.get("PYTHONPATH")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths + ([old] if old else [])))
    env["PYTHONWARNINGS"] = "ignore"
    return env


#: Seconds to wait for a state (a loaded machine): a bound, never a measure.
DEADLINE = 180


def _start(tmp_path, *, delay, n_jobs, name):
    out = tmp_path / f"{name}.json"
    command = [
        sys.executable,
        str(HERE / "_store_study.py"),
        str(tmp_path / "study.db"),
        str(tmp_path / "fits.log"),
        str(delay),
        str(n_jobs),
        str(out),
        str(tmp_path / "hold"),  # the same estimators' parameters in every run
    ]
    process = subprocess.Popen(
        command,
        env=_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell job
    )
    return process, out


def _committed(path):
    if not path.exists():
        return 0
    try:
        with StudyStore(path, mode="r") as store:
            return store.n_fits
    except (OSError, ValueError):  # being created right now
        return 0


def _wait_for_fits(process, tmp_path, at_least, timeout=DEADLINE):
    """Wait until ``at_least`` fits are committed and the others wait on
    the hold file (``hold.holding`` written): the study is then running
    and stays so until the test signals it."""
    path, holding = tmp_path / "study.db", tmp_path / "hold.holding"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"the study ended before {at_least} fits: {process.stderr.read()}"
            )
        if holding.exists() and _committed(path) >= at_least:
            return
        time.sleep(0.05)
    raise AssertionError(f"fewer than {at_least} fits after {timeout} s")


def _hold(tmp_path):
    """Make the study's fits after the first 20 wait (until released)."""
    (tmp_path / "hold").touch()


def _release(tmp_path):
    (tmp_path / "hold").unlink(missing_ok=True)


def _children(pid):
    """Pids of the processes whose parent is ``pid`` (workers), via /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            found.append(int(entry.name))
    return found


def _alive(pid):
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _cleanup(process):
    """Whatever happened, leave no process of the test behind."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait(timeout=30)


def _lines(path):
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_sigkill_then_resume_fits_the_missing_fits_only(tmp_path, uninterrupted):
    # The delay is part of the estimators' parameters: the resumed call,
    # the same call, has it too.
    _hold(tmp_path)
    process, _ = _start(tmp_path, delay=0.02, n_jobs=1, name="killed")
    try:
        _wait_for_fits(process, tmp_path, at_least=15)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=DEADLINE)
    finally:
        _cleanup(process)
        _release(tmp_path)
    assert process.returncode == -signal.SIGKILL
    committed = _committed(tmp_path / "study.db")
    logged = len(_lines(tmp_path / "fits.log"))
    # What was committed is kept; at most the fits in flight are lost.
    assert 15 <= committed < _store_study.N_FITS
    assert committed <= logged <= committed + 3
    _resume_and_check(tmp_path, uninterrupted, committed)


def _resume_and_check(tmp_path, uninterrupted, committed):
    """Rerun the same call: it fits exactly the fits the store lacks, and
    gives the uninterrupted run's numbers."""
    log = tmp_path / "fits.log"
    before = len(_lines(log))
    process, out = _start(tmp_path, delay=0.02, n_jobs=2, name="resumed")
    try:
        _, stderr = process.communicate(timeout=DEADLINE)
    finally:
        _cleanup(process)
    assert process.returncode == 0, stderr
    assert len(_lines(log)) - before == _store_study.N_FITS - committed
    assert _committed(tmp_path / "study.db") == _store_study.N_FITS
    assert json.loads(out.read_text()) == uninterrupted


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_sigint_stops_promptly_leaves_no_worker_and_resumes(tmp_path, uninterrupted):
    _hold(tmp_path)
    process, _ = _start(tmp_path, delay=0.02, n_jobs=2, name="interrupted")
    try:
        _wait_for_fits(process, tmp_path, at_least=15)
        workers = _children(process.pid)
        assert workers  # loky's worker processes
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C in a terminal
        # Promptly: the fits waiting would wait forever, so only the
        # interrupt ends the study within the (generous) deadline.
        _, stderr = process.communicate(timeout=DEADLINE)
        # No worker outlives the call.
        deadline = time.monotonic() + DEADLINE
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [pid for pid in workers if _alive(pid)]
    finally:
        _cleanup(process)
        _release(tmp_path)
    assert process.returncode != 0, stderr
    assert not left
    committed = _committed(tmp_path / "study.db")
    assert 15 <= committed < _store_study.N_FITS
    last = stderr.strip().splitlines()[-1]
    assert "KeyboardInterrupt: interrupted;" in last
    assert f"{committed} of the {_store_study.N_FITS} fits" in last
    assert "rerun the same call or command to resume" in last
    _resume_and_check(tmp_path, uninterrupted, committed)


INTERRUPTED_KEEPING = textwrap.dedent(
    """
    import os, sys, time
    from sklearn.utils.parallel import delayed
    from sklearn_bcv._engine._fit import _run_with_progress

    hold = sys.argv[1]

    def task(i):
        if i >= 2:  # the others wait while the file exists: forever here
            while os.path.exists(hold):
                time.sleep(0.05)
        return {"task": (0, i, 0)}

    kept = []

    def keep(out):  # Ctrl-C while the second output is kept
        kept.append(out)
        if len(kept) == 2:
            raise KeyboardInterrupt

    _run_with_progress([delayed(task)(i) for i in range(8)], 2, None, on_output=keep)
    """
)


def test_an_interrupt_while_keeping_ends_the_workers_and_the_program(tmp_path):
    # The interrupt is raised in this library's loop, not inside joblib, and
    # ends the program uncaught (its traceback keeps joblib's generator
    # alive): the workers, whose tasks would wait forever, must still end,
    # and with them the program. Before, it waited for them at exit.
    (tmp_path / "hold").touch()
    script = tmp_path / "keeping.py"
    script.write_text(INTERRUPTED_KEEPING)
    process = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path / "hold")],
        env=_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, stderr = process.communicate(timeout=DEADLINE)
    finally:
        _cleanup(process)
        _release(tmp_path)
    assert process.returncode != 0
    assert stderr.rstrip().endswith("KeyboardInterrupt"), stderr[-2000:]
