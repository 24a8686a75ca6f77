"""Output of the command line: the progress indicator, plain values for
JSON and CSV, and figures.

stdout holds only the requested output (text, JSON or CSV: the result's
own document and table, :mod:`sklearn_bcv._results._document`); progress,
warnings, the engine's and joblib's verbose messages and anything an
imported module prints go to stderr (nowhere with ``--quiet``).
"""

import contextlib
import io
import json
import os
import sys
import time
from pathlib import Path

from .._results._text import csv_cell, printable
from ._args import CLIError, UsageError
from ._files import check_output_path, checked_path, write_atomically
from ._signals import shielded_children

__all__ = [
    "Progress",
    "check_plot_path",
    "chatter",
    "csv_cell",
    "fitting",
    "json_text",
    "new_figure",
    "printable",
    "result_document",
    "result_table",
    "save_figure",
    "write_result",
]


def is_terminal(stream):
    """Whether ``stream`` is a terminal (a person is watching it)."""
    return bool(getattr(stream, "isatty", lambda: False)())


class Progress:
    """The start and end lines of the fits on stderr.

    Off a terminal (pipes, logs) it writes one line when fitting starts and
    one when it ends; on a terminal, where the library draws its bar of
    fits done, only the end line. When the block raises it writes nothing
    more: the error is the caller's one line to report.
    """

    def __init__(self, message, *, stream=None, enabled=True, note=""):
        self.message = message
        self.note = note
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled

    def __enter__(self):
        self._start = time.perf_counter()
        if self.enabled and not is_terminal(self.stream):
            self.stream.write(f"{self.message} ...\n")
            self.stream.flush()
        return self

    def __exit__(self, *exc_info):
        if not self.enabled or exc_info[0] is not None:
            return False
        elapsed = time.perf_counter() - self._start
        self.stream.write(f"{self.message} done in {elapsed:.1f} s{self.note}\n")
        self.stream.flush()
        return False


def json_text(document):
    """``document`` (plain values, see :func:`result_document`) as strict,
    indented JSON with one trailing newline."""
    return json.dumps(document, indent=2, allow_nan=False) + "\n"


def result_document(result, context):
    """The document of ``--format json``: ``result.to_dict()``, with the
    command line's settings (``context``) under the keys the result does
    not have; every key of ``result.to_dict()`` holds the same value."""
    from .._results._document import to_plain

    return {**to_plain(dict(context)), **result.to_dict()}


def result_table(result):
    """The CSV text of ``--format csv``: every test row and every score."""
    from .._results._document import result_csv

    return result_csv(result)


def write_result(stdout, output_format, *, document, table, text):
    """Write a result in ``--format``: ``document()`` as JSON, ``table()``
    as CSV or ``text()``; only the one asked for is built."""
    if output_format == "json":
        stdout.write(json_text(document()))
    elif output_format == "csv":
        stdout.write(table())
    else:
        stdout.write(printable(text()))
    stdout.flush()


#: Errors that mean a worker process died (killed, ``os._exit``, a crash in
#: compiled code): joblib/loky's and dask's, matched by name so neither
#: library is imported for it.
_DEAD_WORKER_ERRORS = frozenset(
    {
        "TerminatedWorkerError",
        "BrokenProcessPool",
        "FutureCancelledError",
        "CancelledError",
        "KilledWorker",
    }
)


def dead_worker(exc):
    """Whether ``exc`` says a worker process died."""
    return any(cls.__name__ in _DEAD_WORKER_ERRORS for cls in type(exc).__mro__)


def dead_worker_message(exc, doing):
    """One line for a dead worker while ``doing`` (what was being fitted)."""
    return (
        f"a worker process died while {doing} ({type(exc).__name__}: killed, "
        "out of memory, or an estimator's compiled code crashed or called "
        "exit); run with --n-jobs 1 to see which fit"
    )


def library_verbose(args, stderr):
    """The ``verbose`` the library is called with: ``-v`` as counted (1: the
    bar of fits done, elapsed and time left; 2: also a line per fit); by
    default 1 on a terminal, where someone watches a long fit, and 0
    elsewhere (logs and pipes get a line at the start and one at the end);
    0 with ``--quiet``."""
    if args.quiet:
        return 0
    if args.verbose:
        return args.verbose
    return int(is_terminal(stderr))


@contextlib.contextmanager
def fitting(message, args, stderr):
    """While the estimators are fitted: the progress indicator, and the
    library's progress bar and messages sent to stderr so that stdout holds
    only the requested output; yields the ``verbose`` to call the library
    with (:func:`library_verbose`). The indicator says when fitting starts
    (off a terminal) and ends, unless ``--quiet`` or ``-v``; the library's
    bar counts the fits. A worker process that dies is reported as one
    error naming what was fitted on which data (``message``). The worker
    processes are started shielded from Ctrl-C and SIGTERM sent to the
    process group (:func:`._signals.shielded_children`): this process
    stops them."""
    verbose = library_verbose(args, stderr)
    show_progress = not args.quiet and not args.verbose
    # The time shown covers the tests too; with --store, the fits already
    # stored were read, not refitted: say so rather than claim fits.
    note = " (tests included"
    if getattr(args, "store", None):
        note += "; fits already in --store were read, not refitted"
    message = printable(message, keep_newlines=False)  # names typed by anyone
    try:
        with (
            shielded_children(enabled=getattr(args, "n_jobs", None) not in (None, 1)),
            Progress(
                message,
                stream=stderr,
                enabled=show_progress,
                note=note + ")",
            ),
            contextlib.redirect_stdout(stderr),
            contextlib.redirect_stderr(stderr),
        ):
            yield verbose
    except Exception as exc:
        if dead_worker(exc):
            raise CLIError(dead_worker_message(exc, message)) from exc
        raise


def chatter(args, stderr):
    """Where what an imported module prints goes: stderr, or nowhere with
    ``--quiet`` (it is never part of the requested output)."""
    return io.StringIO() if args.quiet else stderr


#: The format of a ``--plot`` file named without a suffix: ``.png`` is
#: appended (what matplotlib would write), and that name is reported.
DEFAULT_PLOT_SUFFIX = ".png"


def _plot_formats():
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise CLIError("--plot needs matplotlib: pip install matplotlib") from None
    return FigureCanvasBase.get_supported_filetypes()


def check_plot_path(text):
    """The file ``--plot`` writes, resolved and checked before fitting.

    The one place the name is resolved; the figure is saved to the path
    returned, and that path is the one reported. A name without a suffix
    gets :data:`DEFAULT_PLOT_SUFFIX`; any other suffix must be a format
    matplotlib writes. A directory (existing, or a name ending with a
    separator) is refused, as is a missing or unwritable parent directory
    or an existing path that is not a regular file.

    Parameters
    ----------
    text : str or path-like
        The value of ``--plot``.

    Returns
    -------
    path : pathlib.Path
        The file to write.
    """
    formats = _plot_formats()
    text = os.fsdecode(os.fspath(text))
    if not text.strip():
        raise UsageError("--plot: give a file name such as comparison.png")
    text = checked_path(text, "--plot")
    try:
        return _resolve_plot_path(text, formats)
    except OSError as exc:  # a name too long, a loop of links, ...
        raise UsageError(f"--plot: cannot use {text}: {exc.strerror or exc}") from None


def _resolve_plot_path(text, formats):
    separators = tuple(sep for sep in (os.sep, os.altsep, "/") if sep)
    path = Path(text)
    if text.endswith(separators) or path.is_dir():
        raise UsageError(
            f"--plot: {text} is a directory; give a file name, such as "
            f"{path / ('comparison' + DEFAULT_PLOT_SUFFIX)}"
        )
    suffix = path.suffix.lower().lstrip(".")
    if path.name.endswith(".") or (suffix and suffix not in formats):
        shown = path.suffix or "."
        raise UsageError(
            f"--plot: unknown image format {shown!r}; use one of "
            f"{', '.join('.' + f for f in sorted(formats))}"
        )
    if not suffix:
        path = path.with_name(path.name + DEFAULT_PLOT_SUFFIX)
    parent = path.parent
    if not parent.is_dir():
        raise UsageError(f"--plot: no directory {str(parent)!r} to save {path.name} in")
    try:
        name_max = os.pathconf(parent, "PC_NAME_MAX")
    except (AttributeError, OSError, ValueError):  # not on every platform
        name_max = None
    if name_max is not None and len(os.fsencode(path.name)) > name_max:
        raise UsageError(
            f"--plot: the file name {path.name[:40]!r}... is longer than "
            f"{name_max} bytes, the limit of its directory"
        )
    # A symbolic link, an unwritable directory (/proc, read-only), ...
    check_output_path(path, "--plot")
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"--plot: {path} exists and cannot be written")
    return path


def new_figure(**kwargs):
    """A matplotlib :class:`~matplotlib.figure.Figure` (no pyplot state)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CLIError("--plot needs matplotlib: pip install matplotlib") from None
    return Figure(**kwargs)


def save_figure(fig, path, *, args, stderr):
    """Save ``fig`` for ``--plot`` to ``path``, the file
    :func:`check_plot_path` returned (its suffix names the format, so
    nothing is appended), and say so on stderr (unless ``--quiet``)."""
    path = Path(path)
    image_format = path.suffix.lower().lstrip(".")
    try:
        write_atomically(
            path,
            lambda file: fig.savefig(
                file, dpi=getattr(args, "dpi", 300), format=image_format
            ),
            "--plot",
        )
    except (OSError, ValueError, RuntimeError) as exc:
        raise CLIError(f"--plot: cannot save {path}: {exc}") from None
    if not args.quiet:
        stderr.write(f"plot saved to {printable(path, keep_newlines=False)}\n")
