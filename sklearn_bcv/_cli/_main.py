"""The entry point of ``sklearn-bcv``: subcommands, errors, exit statuses.

``sklearn-bcv NAME ...`` runs the subcommand ``NAME``; without one it runs
``compare`` (two estimators), unless an option that only another subcommand
has selects it (``--estimator`` selects ``many``). A subcommand is a module
defining a :class:`~._args.Subcommand`, listed in :data:`SUBCOMMANDS`.

Whatever the subcommand, :func:`main` turns every failure into one line
``error: ...`` on stderr after any warnings, and an exit status: 0 on
success, 1 when the comparison cannot run, 2 on a usage error, 130 when
interrupted (Ctrl-C), 143 when terminated (SIGTERM); when the reader of
stdout goes away it stops quietly. Interrupted or terminated, it shuts the
worker processes down before returning, so none is left behind; a signal at
any moment, before, during or after the fits, while printing or while the
process exits (:func:`run`), gives that one line and status
(:mod:`._signals`). Error and warning lines are bounded in length here, the
one place they are printed.
"""

import argparse
import atexit
import contextlib
import difflib
import os
import sys
import textwrap
import threading
import warnings

from .._compat import InvalidParameterError
from . import _benchmark, _compare, _many, _sequential, _split_scores
from ._args import (
    EXIT_STATUS,
    PROG,
    CLIError,
    Parser,
    UsageError,
    check_family_options,
    list_tests,
)
from ._data import MAX_FILE_BYTES, MAX_LINE_CHARS
from ._estimators import no_current_directory_imports
from ._output import dead_worker, dead_worker_message, printable
from ._report import (
    check_report_figures,
    check_report_layout,
    check_report_path,
    write_report,
)
from ._seed import resolve_seed
from ._signals import interruptions, process_interruptions

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

#: The subcommands by name, in the order ``--help`` lists them; the first
#: is the default. Adding a subcommand: a module and a line here.
SUBCOMMANDS = {
    command.name: command
    for command in (
        _compare.COMMAND,
        _many.COMMAND,
        _benchmark.COMMAND,
        _split_scores.COMMAND,  # scores, and scores --splits
        _sequential.COMMAND,
    )
}
DEFAULT = next(iter(SUBCOMMANDS))

#: The limits and the import rule, in every ``--help`` (doc/cli.rst, "Limits
#: and safety", says why).
SAFETY = (
    "Safety: nothing typed is evaluated as Python. Estimator modules are "
    "imported from\nthe installed environment or PYTHONPATH, never from the "
    "current directory.\nOnly regular files are read, of at most "
    f"{MAX_FILE_BYTES // 2**20} MiB in lines of at most "
    f"{MAX_LINE_CHARS // 2**20} MiB.\n--plot writes the file it reports (no "
    "suffix: .png; a directory is refused)."
)


def _subcommand_list():
    width = max(len(name) for name in SUBCOMMANDS)
    lines = [f"Subcommands ('{PROG} NAME --help' describes each):"]
    for command in SUBCOMMANDS.values():
        implied = (
            f"; also what runs when {'/'.join(command.implied_by)} is given "
            "without a subcommand"
            if command.implied_by
            else ""
        )
        lines.append(f"  {command.name:{width}s}  {command.summary}{implied}")
    return "\n".join(lines)


def build_parser(command=DEFAULT, *, prog=None):
    """Return the argument parser of a subcommand of ``sklearn-bcv``.

    Parameters
    ----------
    command : str, default="compare"
        The subcommand (a key of :data:`SUBCOMMANDS`).
    prog : str, default=None
        The program name in messages; None is ``"sklearn-bcv"`` for the
        default subcommand and ``"sklearn-bcv NAME"`` for the others.

    Returns
    -------
    parser : argparse.ArgumentParser
        The parser; its errors raise :class:`CLIError` instead of exiting.
    """
    subcommand = SUBCOMMANDS[command]
    if prog is None:
        prog = PROG if command == DEFAULT else f"{PROG} {command}"
    epilog = "Examples:\n" + "".join(f"  {line}\n" for line in subcommand.examples)
    if prog == PROG:
        epilog += "\n" + _subcommand_list() + "\n"
    parser = Parser(
        prog=prog,
        description=textwrap.fill(subcommand.description, 79),
        epilog=f"{epilog}\n{SAFETY}\n\n{EXIT_STATUS}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subcommand.add_arguments(parser)
    return parser


def _names_option(token, option):
    return token == option or token.startswith(option + "=")


def select_subcommand(argv):
    """``(subcommand name, its arguments, prog)`` for the command line ``argv``.

    The first argument names a subcommand, or else an option that only one
    subcommand has (its ``implied_by``) selects it, or else it is the
    default. Either way the options are parsed by that subcommand's parser
    alone, so ``sklearn-bcv --help`` is the default subcommand's help. A
    first argument that is neither a subcommand nor an option is refused
    as a mistyped subcommand (the default takes no positional argument),
    with the nearest name.
    """
    if argv and argv[0] in SUBCOMMANDS:
        return argv[0], argv[1:], f"{PROG} {argv[0]}"
    if argv and not argv[0].startswith("-"):
        raise UsageError(_unknown_subcommand(argv[0]))
    for name, command in SUBCOMMANDS.items():
        if any(
            _names_option(token, option)
            for token in argv
            for option in command.implied_by
        ):
            return name, argv, f"{PROG} {name}"
    return DEFAULT, argv, PROG


def _unknown_subcommand(word):
    """What to say of a first argument that names no subcommand."""
    names = list(SUBCOMMANDS)
    close = difflib.get_close_matches(word.lower(), names, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return (
        f"unknown subcommand '{word}'{hint} (subcommands: {', '.join(names)}; "
        f"see '{PROG} --help')"
    )


def _stop_workers():
    """Shut down joblib's reusable loky executor, killing its workers, so an
    interrupted or terminated run leaves no process behind (the resource
    tracker exits with this process once its pipe closes)."""
    reusable = sys.modules.get("joblib.externals.loky.reusable_executor")
    if reusable is None or getattr(reusable, "_executor", None) is None:
        return
    with contextlib.suppress(Exception):
        reusable._executor.shutdown(wait=True, kill_workers=True)


#: Most characters of an error or warning line: a message quoting what was
#: typed (a 20,000-element --params list) or listing what a table lacks is
#: cut in the middle, its beginning (what is wrong) and end (what to do)
#: kept.
MAX_MESSAGE_CHARS = 1000


def _bounded(text, limit=MAX_MESSAGE_CHARS):
    """``text`` (one line) of at most about ``limit`` characters."""
    if len(text) <= limit:
        return text
    head, tail = (limit * 3) // 4, limit // 5
    left_out = len(text) - head - tail
    return f"{text[:head]} ... [{left_out:,} characters left out] ... {text[-tail:]}"


def _line(text):
    """One line for stderr: control characters and terminal escapes
    removed, whitespace runs made one space, the length bounded."""
    return _bounded(printable(" ".join(str(text).split()), keep_newlines=False))


def _one_line(exc):
    """The message of ``exc`` as one line for ``error: ...`` (control
    characters and terminal escapes removed, its length bounded)."""
    return _line(_message(exc))


def _message(exc):
    # sklearn's validate_params re-attributes an estimator's parameter error
    # to the decorated function (compare_estimators); the estimator's own
    # message, kept as the cause, names the class whose parameter is wrong.
    cause = exc.__cause__
    if isinstance(exc, InvalidParameterError) and isinstance(
        cause, InvalidParameterError
    ):
        exc = cause
    text = " ".join(str(exc).split())
    if dead_worker(exc):
        return dead_worker_message(exc, "fitting")
    if isinstance(exc, CLIError | ValueError | TypeError | OSError | ImportError):
        return text or type(exc).__name__
    # Anything else is unexpected: say what kind of error it was.
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _write_warnings(caught, stderr):
    """Each distinct warning once, on one line."""
    seen = set()
    for warning in caught:
        text = f"warning: {_line(warning.message)}"
        if text not in seen:
            seen.add(text)
            stderr.write(text + "\n")


def _silence_broken_stdout(stdout):
    """After EPIPE (``sklearn-bcv ... | head``), stop Python's exit-time flush
    of sys.stdout from printing a second error."""
    if stdout is sys.stdout:
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())


def _run(subcommand, args, *, stdout, stderr):
    """``--tests list`` (and the like), or the subcommand itself."""
    for dest, kind in subcommand.test_lists.items():
        if getattr(args, dest, None) == "list":
            list_tests(stdout, kind)
            return None
    # --report: the path is checked before anything runs, the report written
    # after the subcommand returns its result.
    report = getattr(args, "report", None)
    report = None if report is None else check_report_path(report)
    figures = getattr(args, "report_figures", None)
    if figures is not None:
        if report is None:
            raise UsageError("--report-figures goes with --report FILE.tex")
        figures = check_report_figures(figures, report[1], report[0])
    layout = getattr(args, "report_layout", None)
    if layout is not None:
        if report is None:
            raise UsageError("--report-layout goes with --report FILE.tex")
        layout = check_report_layout(layout, report[1])
    check_family_options(args)
    resolve_seed(args)  # the default: a seed drawn, recorded and said
    result = subcommand.run(args, stdout=stdout, stderr=stderr)
    if report is not None and result is not None:
        write_report(
            result,
            report[0],
            format=report[1],
            quiet=args.quiet,
            stderr=stderr,
            figures=figures,
            layout=layout,
        )
    return result


class _Outcome:
    """What a command ended with: its error line (None on success), status,
    the warnings caught while it ran, whether to print them, and the
    message of an interruption (a study store's says what is kept)."""

    def __init__(self):
        self.error = None
        self.status = 0
        self.caught = []
        self.quiet = False
        self.interruption = None  # None, or the interruption's message ("" if none)


def _command(argv, *, stdout, stderr, outcome):
    """Parse ``argv`` and run the subcommand; every failure but an
    interruption (``KeyboardInterrupt``, which :func:`main` catches) is put
    into ``outcome``."""
    try:
        name, argv, prog = select_subcommand(argv)
        parser = build_parser(name, prog=prog)
        try:
            # --help and --version print to sys.stdout; send them to ``stdout``.
            with contextlib.redirect_stdout(stdout):
                args = parser.parse_args(argv)
        except SystemExit as exit_:  # --help and --version
            outcome.status = exit_.code if isinstance(exit_.code, int) else 0
            return
    except CLIError as exc:
        outcome.error, outcome.status = _one_line(exc), 2
        return
    outcome.quiet = args.quiet
    if stdout is None:  # started with stdout closed (>&-)
        outcome.error = "standard output is closed; nowhere to write the result"
        outcome.status = 1
        return
    with (
        warnings.catch_warnings(record=True) as caught,
        no_current_directory_imports(),  # lazy imports and workers too
    ):
        outcome.caught = caught
        warnings.simplefilter("always")
        try:
            try:
                _run(SUBCOMMANDS[name], args, stdout=stdout, stderr=stderr)
            except BaseException:
                _stop_workers()
                raise
        except BrokenPipeError:
            _silence_broken_stdout(stdout)
            outcome.status = 1
        except UsageError as exc:
            outcome.error, outcome.status = _one_line(exc), 2
        except Exception as exc:  # every failure ends in one line, no traceback
            outcome.error, outcome.status = _one_line(exc), 1


def _finish(outcome, signals, stderr):
    """Report the outcome: warnings, then one error line; return the status.

    Runs with signals only recorded. A signal received at any moment of the
    command makes it interrupted (130) or terminated (143), whatever the
    exception it raised became (a worker it killed, one swallowed in a
    ``__del__``) or if it came once the result was printed.
    """
    interrupted = signals.outcome()
    if interrupted is None and outcome.interruption is not None:
        interrupted = (130, "interrupted")  # a KeyboardInterrupt from elsewhere
    if interrupted is not None:
        _stop_workers()  # again: a second signal may have cut the first short
        status, message = interrupted
        outcome.error, outcome.status = outcome.interruption or message, status
    if not outcome.quiet:
        _write_warnings(outcome.caught, stderr)
    if outcome.error is not None:
        stderr.write(f"error: {outcome.error}\n")
        signals.error_written = True
    if signals.received is not None and interrupted is None:
        # A signal while the lines above were written.
        status, message = signals.outcome()
        if not signals.error_written:
            stderr.write(f"error: {message}\n")
            signals.error_written = True
            outcome.status = status
    signals.status = outcome.status
    return outcome.status


def main(argv=None, *, stdout=None, stderr=None):
    """Entry point of ``sklearn-bcv``; returns the exit status.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments; None reads ``sys.argv[1:]``.
    stdout, stderr : file-like, default=None
        Where to write; None means ``sys.stdout`` / ``sys.stderr``.

    Returns
    -------
    status : int
        0 on success, 1 when the comparison cannot run, 2 on a usage error,
        130 when interrupted (Ctrl-C), 143 when terminated (SIGTERM). Every
        error is reported as one line ``error: ...`` on ``stderr``, after any
        warnings; a signal at any moment of the call gives the line of an
        interruption (:mod:`._signals`).
    """
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    if stderr is None:  # started with stderr closed (2>&-)
        stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the run
    argv = sys.argv[1:] if argv is None else list(argv)
    with interruptions() as signals:
        outcome = _Outcome()
        # Mode changes are plain attribute stores: no call, so no signal can
        # be handled between the catch below and the switch to recording.
        try:
            signals.mode = signals.RAISE
            _command(argv, stdout=stdout, stderr=stderr, outcome=outcome)
            signals.mode = signals.RECORD
        except KeyboardInterrupt as exc:
            signals.mode = signals.RECORD
            outcome.interruption = _line(exc) if str(exc) else ""
        return _finish(outcome, signals, stderr)


def run():
    """The ``sklearn-bcv`` process (and ``python -m sklearn_bcv``): the
    signal handler installed first, :func:`main`, then the process's exit,
    covered too, and never returns.

    After :func:`main` the workers are stopped, and a signal from then on
    writes its line and ends the process at once
    (:meth:`._signals.Interruptions.exiting`); the threads an estimator's
    module left running are joined and the ``atexit`` functions run under
    that rule, then the process ends with ``os._exit``
    (:meth:`._signals.Interruptions.end`, which blocks the signals first: a
    signal is before that instant, and reported, or after the end): Python's
    own exit would next put the default signal handlers back and spend a
    while destroying modules, a window in which Ctrl-C would kill the
    process without a line.
    """
    signals = process_interruptions()
    # joblib's resource tracker, a process of its own in the terminal's
    # process group, would warn on the shared stderr, after the one error
    # line, about the semaphores it cleans up when Ctrl-C ended the workers'
    # pool early. It starts with this process's -W options: not those.
    sys.warnoptions.append("ignore:resource_tracker:UserWarning")
    status = main()
    _stop_workers()  # nothing left for the exit to wait for
    status = signals.exiting(status, sys.stderr)
    _join_threads()
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    signals.end(status)


def _join_threads():
    """Wait for the threads that are not daemons, as Python's exit does."""
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            with contextlib.suppress(Exception):
                thread.join()
