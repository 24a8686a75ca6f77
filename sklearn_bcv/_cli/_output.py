"""Output of the command line: the progress indicator, plain values for
JSON and CSV, and figures.

stdout holds only the requested output (text, JSON or CSV); progress,
warnings, the engine's and joblib's verbose messages and anything an
imported module prints go to stderr (nowhere with ``--quiet``).
"""

import contextlib
import csv
import io
import json
import math
import sys
import threading
import time
from pathlib import Path

import numpy as np

from ._args import CLIError

__all__ = [
    "Progress",
    "check_plot_path",
    "chatter",
    "csv_text",
    "fitting",
    "json_text",
    "new_figure",
    "plain",
    "save_figure",
]


class Progress:
    """Elapsed-time indicator on stderr while the fits run.

    On a terminal the line is refreshed in place; elsewhere (pipes, logs) it
    writes one line when fitting starts and one when it ends. When the block
    raises, it writes nothing more (the terminal line is wiped): the error
    is the caller's one line to report.
    """

    def __init__(self, message, *, stream=None, enabled=True, interval=0.25):
        self.message = message
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled
        self.interval = interval
        self._done = threading.Event()
        self._thread = None

    def _is_tty(self):
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def _spin(self):
        frames = "|/-\\"
        tick = 0
        while not self._done.wait(self.interval):
            elapsed = time.perf_counter() - self._start
            self.stream.write(f"\r{frames[tick % 4]} {self.message} {elapsed:5.1f} s")
            self.stream.flush()
            tick += 1

    def __enter__(self):
        self._start = time.perf_counter()
        if not self.enabled:
            return self
        if self._is_tty():
            self._thread = threading.Thread(target=self._spin, daemon=True)
            self._thread.start()
        else:
            self.stream.write(f"{self.message} ...\n")
            self.stream.flush()
        return self

    def __exit__(self, *exc_info):
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        if not self.enabled:
            return False
        if exc_info[0] is not None:
            # The caller reports the error in one line; on a terminal, wipe
            # the spinner so that line stands alone.
            if self._thread is not None:
                width = len(self.message) + 10
                self.stream.write("\r" + " " * width + "\r")
                self.stream.flush()
            return False
        elapsed = time.perf_counter() - self._start
        prefix = "\r" if self._thread is not None else ""
        self.stream.write(f"{prefix}{self.message} done in {elapsed:.1f} s\n")
        self.stream.flush()
        return False


def plain(value):
    """A JSON-friendly copy of ``value`` (numpy scalars and arrays, tuples)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, np.generic):
        return plain(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def json_text(document):
    """``document`` as indented JSON, one trailing newline."""
    return json.dumps(plain(document), indent=2) + "\n"


def csv_text(header, rows):
    """CSV text of ``rows`` under ``header``: None is an empty cell, a tuple
    or list is joined with ``;``, numpy values are plain numbers."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        cells = []
        for value in row:
            if isinstance(value, tuple | list):
                value = ";".join(str(plain(v)) for v in value)
            cells.append("" if value is None else plain(value))
        writer.writerow(cells)
    return buffer.getvalue()


@contextlib.contextmanager
def fitting(message, args, stderr):
    """While the estimators are fitted: the progress indicator (unless
    ``--quiet`` or ``-v``), and the engine's and joblib's verbose messages
    sent to stderr so that stdout holds only the requested output."""
    show_progress = not args.quiet and not args.verbose
    with (
        Progress(message, stream=stderr, enabled=show_progress),
        contextlib.redirect_stdout(stderr),
    ):
        yield


def chatter(args, stderr):
    """Where what an imported module prints goes: stderr, or nowhere with
    ``--quiet`` (it is never part of the requested output)."""
    return io.StringIO() if args.quiet else stderr


def check_plot_path(path):
    """Fail before fitting when ``--plot`` cannot be written."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise CLIError("--plot needs matplotlib: pip install matplotlib") from None
    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = path.suffix.lower().lstrip(".")
    if suffix and suffix not in formats:
        raise CLIError(
            f"--plot: unknown image format {path.suffix!r}; use one of "
            f"{', '.join('.' + f for f in sorted(formats))}"
        )
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise CLIError(f"--plot: no directory {str(parent)!r} to save {path.name} in")


def new_figure(**kwargs):
    """A matplotlib :class:`~matplotlib.figure.Figure` (no pyplot state)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CLIError("--plot needs matplotlib: pip install matplotlib") from None
    return Figure(**kwargs)


def save_figure(fig, path, *, args, stderr):
    """Save ``fig`` for ``--plot`` and say so on stderr (unless ``--quiet``)."""
    try:
        fig.savefig(path, dpi=100)
    except (OSError, ValueError) as exc:
        raise CLIError(f"--plot: cannot save {path}: {exc}") from None
    if not args.quiet:
        stderr.write(f"plot saved to {path}\n")
