"""Ctrl-C and SIGTERM: one ``error:`` line and one status, at any moment.

A command can be interrupted (SIGINT, Ctrl-C: status 130) or terminated
(SIGTERM: status 143) before, during or after its fits, while it prints,
or while the process exits; whatever the moment, it ends with one line
``error: interrupted`` (or the study store's line saying what is kept) and
that status, never a traceback, an ``Exception ignored in ...`` or a
status 0. One handler of both signals, :class:`Interruptions`, is in
charge from the start of :func:`~._main.main` (from the start of the
process for ``sklearn-bcv`` and ``python -m sklearn_bcv``) to the end; it
acts by the phase the command is in:

* **the run** (:attr:`Interruptions.RAISE`): the signal raises
  ``KeyboardInterrupt`` (:class:`Terminated` for SIGTERM) in the main
  thread, which stops the fits where they are (a study store keeps what
  is done) and unwinds to :func:`~._main.main`;
* **the exit path** of :func:`~._main.main` (:attr:`Interruptions.RECORD`),
  once the outcome is known and while its lines are written: the signal is
  only recorded, so that nothing interrupts the reporting; a recorded
  signal makes the outcome "interrupted" (also when the exception it
  raised was swallowed somewhere, in a ``__del__`` for instance, or turned
  into another error, such as a worker killed by it);
* **the process's exit** (:attr:`Interruptions.EXIT`), after
  :func:`~._main.main` has returned: the signal writes the line (unless an
  error line was written already) and ends the process at once with the
  status, skipping the rest of the interpreter's shutdown;
* **the end** (:meth:`Interruptions.end`): the process blocks both signals,
  reports one that arrived up to that instant (handled, or still pending),
  and ends with ``os._exit``. That instant is the end of the run: a signal
  before it ends the command with its line and status, a signal after it
  reaches a process that has ended its run (blocked, it is discarded with
  the process: the status is the command's). No signal falls between the
  two -- not one that arrives while ``os._exit`` starts, nor while the
  system tears the process down, which a handler could no longer see.
  Only the main thread blocks: a signal sent to the process in the
  microseconds after the block may be handed by the kernel to a thread of
  a native library (OpenBLAS's, which does not block it), whose handler
  runs when that thread is next scheduled; the run then ends either with
  the signal's line and status or with the command's status and no line
  -- one of the two, never both, never a traceback.

The worker processes of ``--n-jobs`` never see Ctrl-C themselves
(:func:`shielded_children`): a terminal sends SIGINT to the whole process
group, and a worker interrupted in the middle of a task would print its
own traceback and die, which the parent would then report as a dead
worker. They are started while the main thread blocks SIGINT and SIGTERM
(a thread started before keeps receiving them for the process), so they
inherit the blocked signals; the parent, interrupted, shuts them down
(:func:`~._main._stop_workers`), and SIGKILL still ends them.

A signal that arrives while Python is still importing the package, before
any of this is installed, ends the process as Python does by default
(status 130 or 143 as shells report it, with Python's own traceback for
Ctrl-C).
"""

import contextlib
import os
import signal
import threading

__all__ = ["Interruptions", "Terminated", "interruptions", "shielded_children"]

#: Status and message of each signal handled.
OUTCOMES = {
    signal.SIGINT: (130, "interrupted"),
    signal.SIGTERM: (143, "terminated (SIGTERM)"),
}

_HAS_MASK = hasattr(signal, "pthread_sigmask")


class Terminated(KeyboardInterrupt):
    """Raised in the main thread by SIGTERM, so a terminated run unwinds
    like Ctrl-C (a study store keeps what is done) and ends with 143."""


class Interruptions:
    """SIGINT and SIGTERM during one command: what the handler does in each
    phase (:attr:`mode`) and which signal came first (:attr:`received`).

    Attributes
    ----------
    mode : {"raise", "record", "exit"}
        The phase (see the module's docstring).
    received : int or None
        The first signal received, or None.
    error_written : bool
        Whether the command's error line is written: a signal in the
        ``"exit"`` phase then writes nothing and ends the process with
        :attr:`status`.
    status : int
        The command's status, once its lines are written.
    """

    RAISE, RECORD, EXIT = "raise", "record", "exit"

    def __init__(self):
        self.mode = self.RECORD
        self.received = None
        self.status = 0
        self.error_written = False
        self._stderr = None
        self._previous = None

    def __call__(self, signum, frame):
        """The signal handler (runs in the main thread, between bytecodes)."""
        if self.received is None:
            self.received = signum
        if self.mode == self.RAISE:
            if signum == signal.SIGTERM:
                raise Terminated(OUTCOMES[signal.SIGTERM][1])
            raise KeyboardInterrupt
        if self.mode == self.EXIT:
            self._exit_now(signum)

    def outcome(self):
        """``(status, message)`` of the signal received, or None."""
        return None if self.received is None else OUTCOMES[self.received]

    def _exit_now(self, signum):
        """A signal once :func:`~._main.main` has returned: the line, unless
        an error line is written already, then the status, at once."""
        status, message = OUTCOMES[signum]
        if self.error_written:
            status = self.status
        else:
            with contextlib.suppress(Exception):
                self._stderr.write(f"error: {message}\n")
                self._stderr.flush()
        os._exit(status)

    def end(self, status):
        """End the process: the end of the run (see the module's docstring).

        Blocks SIGINT and SIGTERM; a signal handled until then has ended the
        process already (:meth:`_exit_now`), one pending at the block is
        reported as if handled; then ``os._exit(status)``. Never returns.
        """
        if _HAS_MASK and threading.current_thread() is threading.main_thread():
            signal.pthread_sigmask(signal.SIG_BLOCK, set(OUTCOMES))
            # A signal whose handler was due runs it above, between the
            # block and this line (Python runs handlers between bytecodes).
            pending = sorted(signal.sigpending() & set(OUTCOMES))
            if pending:
                if self.received is None:
                    self.received = pending[0]
                self._exit_now(self.received)
        os._exit(status)

    def exiting(self, status, stderr):
        """Enter the process's exit with ``status`` (the command's, its lines
        written): a signal from now on ends the process at once. A signal
        recorded since the outcome was settled is reported here. Returns the
        status to exit with."""
        self._stderr = stderr
        self.mode = self.EXIT
        if self.received is not None and status not in (130, 143):
            if not self.error_written:
                code, message = OUTCOMES[self.received]
                with contextlib.suppress(Exception):
                    stderr.write(f"error: {message}\n")
                    stderr.flush()
                self.error_written = True
                status = code
        self.status = status
        return status

    # Installing and restoring the handler (main thread only).

    def install(self):
        """Handle SIGINT and SIGTERM; False where a handler cannot be
        installed (not the main thread)."""
        if threading.current_thread() is not threading.main_thread():
            return False
        self._previous = {signum: signal.signal(signum, self) for signum in OUTCOMES}
        return True

    def restore(self):
        """Put the handlers back as :meth:`install` found them."""
        for signum, handler in (self._previous or {}).items():
            signal.signal(signum, handler)
        self._previous = None


#: The handler of the running process's command (``sklearn-bcv``), set by
#: :func:`~._main.run` before :func:`~._main.main`, which then uses it.
_PROCESS = None


def process_interruptions():
    """The process's own :class:`Interruptions`, installed now and never
    restored (the process ends with the command)."""
    global _PROCESS
    if _PROCESS is None:
        _PROCESS = Interruptions()
        if not _PROCESS.install():
            _PROCESS = None
            return Interruptions()
    return _PROCESS


@contextlib.contextmanager
def interruptions():
    """The :class:`Interruptions` of one call of :func:`~._main.main`: the
    process's when ``sklearn-bcv`` runs, else one installed for the call
    and the previous handlers restored after it (a test, or a program
    calling ``main``)."""
    if _PROCESS is not None:
        _PROCESS.received, _PROCESS.error_written = None, False
        yield _PROCESS
        return
    own = Interruptions()
    installed = own.install()
    try:
        yield own
    finally:
        if installed:
            own.restore()


def _receive_forever(stop):
    stop.wait()


@contextlib.contextmanager
def shielded_children(enabled=True):
    """Start the processes of the block (joblib's workers) with SIGINT and
    SIGTERM blocked, so that Ctrl-C at the terminal reaches this process
    only.

    The main thread blocks both signals while the block runs; processes it
    (or a thread it starts, such as loky's manager) starts inherit the
    mask across ``fork`` and ``exec``, and Python leaves it as it is. A
    thread started before blocking keeps receiving the signals for the
    process; Python runs the handler in the main thread all the same, at
    its next bytecode (joblib's main thread waits in steps of 10 ms).
    Unblocked at the end, a signal still pending is handled then.
    :mod:`multiprocessing`'s resource tracker, which loky starts with its
    first worker, unblocks both signals in the thread that starts it: it is
    started first, before blocking. Nothing changes where signal masks do
    not exist (Windows), outside the main thread, or when ``enabled`` is
    False (no worker process will be started).
    """
    if (
        not enabled
        or not _HAS_MASK
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    stop = threading.Event()
    receiver = threading.Thread(
        target=_receive_forever, args=(stop,), name="sklearn-bcv-signals", daemon=True
    )
    receiver.start()
    signals = set(OUTCOMES)
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        stop.set()
        receiver.join()
