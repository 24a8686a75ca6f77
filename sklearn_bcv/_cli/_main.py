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
worker processes down before returning, so none is left behind.
"""

import argparse
import contextlib
import os
import signal
import sys
import textwrap
import threading
import warnings

from .._compat import InvalidParameterError
from . import _benchmark, _compare, _many, _scores, _sequential
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
from ._report import check_report_path, write_report

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

#: The subcommands by name, in the order ``--help`` lists them; the first
#: is the default. Adding a subcommand: a module and a line here.
SUBCOMMANDS = {
    command.name: command
    for command in (
        _compare.COMMAND,
        _many.COMMAND,
        _benchmark.COMMAND,
        _scores.COMMAND,
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
    alone, so ``sklearn-bcv --help`` is the default subcommand's help.
    """
    if argv and argv[0] in SUBCOMMANDS:
        return argv[0], argv[1:], f"{PROG} {argv[0]}"
    for name, command in SUBCOMMANDS.items():
        if any(
            _names_option(token, option)
            for token in argv
            for option in command.implied_by
        ):
            return name, argv, f"{PROG} {name}"
    return DEFAULT, argv, PROG


class Terminated(KeyboardInterrupt):
    """Raised in the main thread by SIGTERM, so a terminated run unwinds
    like Ctrl-C (a study store keeps what is done) and ends with 143."""


#: Set by the SIGTERM handler: the engine may re-raise the interruption as
#: a plain KeyboardInterrupt carrying a study store's message.
_TERMINATED = threading.Event()


def _raise_terminated(signum, frame):
    _TERMINATED.set()
    raise Terminated("terminated (SIGTERM)")


@contextlib.contextmanager
def _sigterm_as_interrupt():
    """SIGTERM raises :class:`Terminated` while the block runs (main thread
    only: a handler cannot be installed elsewhere)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _TERMINATED.clear()
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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
    check_family_options(args)
    result = subcommand.run(args, stdout=stdout, stderr=stderr)
    if report is not None and result is not None:
        write_report(
            result, report[0], format=report[1], quiet=args.quiet, stderr=stderr
        )
    return result


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
        warnings.
    """
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    if stderr is None:  # started with stderr closed (2>&-)
        stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the run
    argv = sys.argv[1:] if argv is None else list(argv)
    name, argv, prog = select_subcommand(argv)
    try:
        parser = build_parser(name, prog=prog)
        try:
            # --help and --version print to sys.stdout; send them to ``stdout``.
            with contextlib.redirect_stdout(stdout):
                args = parser.parse_args(argv)
        except SystemExit as exit_:  # --help and --version
            return exit_.code if isinstance(exit_.code, int) else 0
    except CLIError as exc:
        stderr.write(f"error: {_one_line(exc)}\n")
        return 2
    if stdout is None:  # started with stdout closed (>&-)
        stderr.write("error: standard output is closed; nowhere to write the result\n")
        return 1
    error, status = None, 0
    with (
        warnings.catch_warnings(record=True) as caught,
        no_current_directory_imports(),  # lazy imports and workers too
        _sigterm_as_interrupt(),
    ):
        warnings.simplefilter("always")
        try:
            try:
                _run(SUBCOMMANDS[name], args, stdout=stdout, stderr=stderr)
            except BaseException:
                _stop_workers()
                raise
        except BrokenPipeError:
            _silence_broken_stdout(stdout)
            return 1
        except KeyboardInterrupt as exc:
            # A study store's message says what is kept and how to resume.
            error = _line(exc)
            if _TERMINATED.is_set():  # SIGTERM: stopped, workers shut down
                error, status = error or "terminated (SIGTERM)", 143
            else:
                error, status = error or "interrupted", 130
        except UsageError as exc:
            error, status = _one_line(exc), 2
        except Exception as exc:  # every failure ends in one line, no traceback
            error, status = _one_line(exc), 1
    if not args.quiet:
        _write_warnings(caught, stderr)
    if error is not None:
        stderr.write(f"error: {error}\n")
    return status
