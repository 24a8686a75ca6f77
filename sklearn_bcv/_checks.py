"""Checks of the arguments every layer takes: sizes and file paths.

This module sits at the bottom with :mod:`._constants`: it imports nothing
from the package, so the statistics, the splitters, the study store, the
results, the simulations and the command line all check a count or a file
path with the same code and the same words.

* :func:`check_integer` -- an integer within bounds. A size whose work or
  memory grows with it (bootstrap resamples, MCMC draws, simulated data
  sets) has an upper bound: a value beyond it is refused before any work,
  with a message naming the bound and what it protects, instead of running
  for hours or failing deep inside numpy.
* :func:`check_path` -- a file path the operating system reads as written:
  no NUL byte (Python's ``os.stat`` raises on it but ``Path.exists()``
  returns False, and SQLite's URI decoding cuts the name at ``%00``, so a
  store named ``study\\x00.db`` silently became ``study``), no control
  character (a newline or an escape sequence in a file name is misread by
  shells, logs and terminals; Windows refuses them outright).
* :func:`check_creatable` -- a new file can be created at a path: its
  directory exists and accepts a file, tried for real (a temporary file is
  created there and removed), since permission bits say nothing about
  ``/proc`` or a read-only file system. Errors name the path given, never
  the temporary file.
"""

import contextlib
import os
import tempfile
import unicodedata
from numbers import Integral

__all__ = ["check_creatable", "check_integer", "check_path"]


def check_integer(value, *, name, low=None, high=None, low_label=None, why=None):
    """Validate an integer in ``[low, high]``; return it as a Python int.

    Parameters
    ----------
    value : object
        The value to check; booleans, floats (even ``5.0``), strings and
        None are refused.
    name : str
        The argument's name, for the message.
    low, high : int, default=None
        The bounds (inclusive); None is unbounded.
    low_label : str, default=None
        How to write ``low`` in the message when it comes from another
        argument (``"n_repeats=5"``); None writes the number.
    why : str, default=None
        What the upper bound protects, added to the message of a value
        above it.

    Returns
    -------
    value : int

    Raises
    ------
    ValueError
        ``"{name} must be an integer >= 1; got 2.5 of type float."`` for a
        value that is not an integer or below ``low``, ``"{name} must be at
        most 1,000,000 (why); got 5000000."`` for one above ``high``.

    Examples
    --------
    >>> check_integer(5, name="n_resamples", low=1, high=10**6)
    5
    >>> check_integer(10**7, name="n_resamples", low=1, high=10**6,
    ...               why="more only costs time")
    Traceback (most recent call last):
    ...
    ValueError: n_resamples must be at most 1,000,000 (more only costs time); \
got 10000000.
    """
    low_text = low_label if low_label is not None or low is None else f"{low:,}"
    if high is None:
        expected = "an integer" if low is None else f"an integer >= {low_text}"
    elif low is None:
        expected = f"an integer <= {high:,}"
    else:
        expected = f"an integer >= {low_text} and <= {high:,}"
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ValueError(
            f"{name} must be {expected}; got {value!r} of type {type(value).__name__}."
        )
    if low is not None and value < low:
        raise ValueError(f"{name} must be {expected}; got {value!r}.")
    if high is not None and value > high:
        reason = f" ({why})" if why else ""
        raise ValueError(f"{name} must be at most {high:,}{reason}; got {value!r}.")
    return int(value)


#: Characters of a path shown in a message; a longer one is cut.
_SHOWN_CHARS = 200


def _shown(text):
    """A path for a message: quoted, control characters escaped, bounded."""
    shown = repr(text)
    if len(shown) > _SHOWN_CHARS:
        shown = shown[: _SHOWN_CHARS - 5] + "...'"
    return shown


def _bad_character(text):
    """``(position, description)`` of the first character of ``text`` a
    file path must not hold, or None."""
    for position, char in enumerate(text):
        if char == "\0":
            return position, "a NUL byte"
        if unicodedata.category(char) == "Cc":  # C0, DEL and C1 controls
            return position, f"the control character {char!r}"
    return None


def check_path(path, *, name):
    """Validate a file path: a non-empty str, bytes or path-like object
    without NUL bytes or control characters.

    The one check of every path the package takes (the study store,
    :meth:`to_json`, the command line's data, report, plot and store
    files), before anything looks at the file. A NUL byte ends the name in
    the C calls underneath (so another file would be used), and a control
    character (newline, tab, escape, ...) is legal on Linux but misread by
    shells, terminals and logs and refused on Windows; a name that needs
    one is not worth the confusion. Undecodable bytes of a POSIX name
    (read back as lone surrogates) are kept: the name is then used exactly
    as the system gave it.

    Parameters
    ----------
    path : str, bytes or os.PathLike
        The path.
    name : str
        The argument's (or option's) name, for the message.

    Returns
    -------
    path : str or bytes
        ``os.fspath(path)``.

    Raises
    ------
    TypeError
        If ``path`` is not a str, bytes or os.PathLike.
    ValueError
        If it is empty or holds a NUL byte or a control character; the
        message names ``name``, the character and its position.

    Examples
    --------
    >>> check_path("runs/study.db", name="store")
    'runs/study.db'
    >>> check_path("runs/study\\x00.db", name="store")
    Traceback (most recent call last):
    ...
    ValueError: store must be a file path without NUL bytes or control \
characters; got 'runs/study\\x00.db' (a NUL byte at position 10).
    """
    try:
        fspath = os.fspath(path)
    except TypeError:
        raise TypeError(
            f"{name} must be a file path (str or os.PathLike); got "
            f"{type(path).__name__}."
        ) from None
    text = os.fsdecode(fspath)
    if not text:
        raise ValueError(f"{name} must be a file path; got an empty string.")
    bad = _bad_character(text)
    if bad is not None:
        position, what = bad
        raise ValueError(
            f"{name} must be a file path without NUL bytes or control characters; "
            f"got {_shown(text)} ({what} at position {position})."
        )
    return fspath


def check_creatable(path):
    """Check that a new file can be created at ``path``, by creating one.

    A temporary file is created in the directory of ``path`` and removed at
    once: the only test that holds on every file system (``os.access``
    reads permission bits, which ``/proc``, a read-only mount or a full
    quota ignore). Nothing is left behind, and ``path`` itself is not
    touched. The messages name ``path``'s directory, never the temporary
    file; the caller puts its own name in front (``"--report: ..."``).

    Parameters
    ----------
    path : str or os.PathLike
        The file that will be created (already checked by
        :func:`check_path`).

    Raises
    ------
    FileNotFoundError
        If the directory of ``path`` does not exist.
    NotADirectoryError
        If it is not a directory.
    OSError
        If a file cannot be created in it (``PermissionError`` and the like,
        with the system's reason).

    Examples
    --------
    >>> check_creatable("/no/such/directory/study.db")
    Traceback (most recent call last):
    ...
    FileNotFoundError: no directory '/no/such/directory' to create study.db in
    """
    text = os.fsdecode(os.fspath(path))
    directory, name = os.path.split(text)
    directory = directory or os.curdir
    if not os.path.exists(directory):
        raise FileNotFoundError(f"no directory {directory!r} to create {name} in")
    if not os.path.isdir(directory):
        raise NotADirectoryError(
            f"{directory!r} is not a directory; {name} cannot be created in it"
        )
    try:
        fd, probe = tempfile.mkstemp(prefix=".sklearn-bcv-probe-", dir=directory)
    except OSError as exc:
        raise type(exc)(
            f"cannot write in the directory {directory!r} "
            f"({exc.strerror or type(exc).__name__})"
        ) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
