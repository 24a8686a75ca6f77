"""Hostile input, round 4: a signal at the very end of a run (class 6).

One mechanism (``sklearn_bcv/_cli/_signals.py``, ``Interruptions.end``):
the run ends at the instant the process blocks SIGINT and SIGTERM to exit.
A signal handled before that instant, or pending at it, ends the command
with its one ``error:`` line and status (130 or 143); a signal after it
reaches a process that has ended its run (status 0, nothing written) --
none falls between the two. Before, the process exited with
``os._exit`` while signals were live: a signal arriving as the exit began
(or while the system tore the process down) was lost, and a Ctrl-C sent
just after the ``done in`` line could end with status 0 and no line.

The instants are reached deterministically: the command runs in a
subprocess whose ``signal.pthread_sigmask`` and ``signal.sigpending`` send
the process its own signal exactly before the block, between the block and
the check, or after the check -- never by timing. After the block the
signal is sent to the main thread itself (``pthread_kill``): sent to the
process, the kernel would hand it to another thread that does not block it
(OpenBLAS's), whose handler runs when that thread is next scheduled -- a
race the test must not depend on (see the module's docstring).
"""

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not hasattr(signal, "pthread_sigmask"),
    reason="POSIX signal masks",
)

REPO = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, threading
    from sklearn_bcv._cli import _main, _signals

    when, signum = sys.argv[1], getattr(signal, sys.argv[2])
    original_mask, original_pending = signal.pthread_sigmask, signal.sigpending

    def at_the_end():
        process = _signals._PROCESS
        return process is not None and process.mode == process.EXIT

    def to_the_main_thread():
        signal.pthread_kill(threading.main_thread().ident, signum)  # blocked: pending

    def mask(how, signals):
        ending = at_the_end() and how == signal.SIG_BLOCK
        if ending and when == "before the block":
            os.kill(os.getpid(), signum)
        previous = original_mask(how, signals)
        if ending and when == "at the block":
            to_the_main_thread()
        return previous

    def pending():
        found = original_pending()
        if at_the_end() and when == "after the end":
            to_the_main_thread()  # after the check
        return found

    signal.pthread_sigmask, signal.sigpending = mask, pending
    sys.argv = ["sklearn-bcv", *sys.argv[3:]]
    _main.run()
    """
)

ARGV = ["--dataset", "iris", "--estimator-a", "sklearn.dummy.DummyClassifier"]
OUTCOME = {"SIGINT": (130, "interrupted"), "SIGTERM": (143, "terminated (SIGTERM)")}


def _run(tmp_path, when, signame, argv=ARGV):
    script = tmp_path / "end.py"
    script.write_text(SCRIPT)
    return subprocess.run(
        [sys.executable, str(script), when, signame, *argv],
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("when", ["before the block", "at the block"])
def test_a_signal_up_to_the_end_is_reported(tmp_path, when, signame):
    run = _run(tmp_path, when, signame)
    status, message = OUTCOME[signame]
    assert run.returncode == status, run.stderr
    lines = run.stderr.strip().splitlines()
    assert lines[-1] == f"error: {message}"
    assert [line for line in lines if line.startswith("error:")] == lines[-1:]
    assert "Traceback" not in run.stderr
    assert run.stdout.strip()  # the result was printed before the end


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_a_signal_after_the_end_finds_the_run_over(tmp_path, signame):
    run = _run(tmp_path, "after the end", signame)
    assert run.returncode == 0, run.stderr
    assert "error:" not in run.stderr and "Traceback" not in run.stderr


def test_a_signal_at_the_end_of_a_failed_command_keeps_its_one_line(tmp_path):
    # The command failed (a usage error, its line written): a signal at the
    # end adds no second line and keeps the command's status.
    run = _run(tmp_path, "at the block", "SIGINT", ["--dataset", "no-such-data-set"])
    assert run.returncode == 2, run.stderr
    errors = [x for x in run.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1 and "interrupted" not in errors[0]
