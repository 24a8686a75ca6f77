"""Files the command line reads and writes: their paths checked before any
work, written atomically.

Every path the command line takes goes through :func:`checked_path` (the
package's one path check, :func:`sklearn_bcv._checks.check_path`: no NUL
byte, no control character); every file it writes through this module:
:func:`check_output_path` before fitting (so a path that cannot be written
fails in the early check, not after the fits: the file is tried for real,
a temporary file created and removed in its directory) and
:func:`write_atomically` at the end. A path that cannot be used as given is
a usage error (status 2), reported before anything is loaded or fitted;
the messages name the path given, never a temporary file. Neither follows
a symbolic link at the final path: a link there is refused, whether it
points at a file (which would be overwritten) or nowhere (whose target
would be created) -- the classic symlink attack in a shared directory. A
file written in place as the run goes (the study store of ``--store``)
cannot be written atomically; it is checked with :func:`refuse_link` alone.
The file is written to a temporary file in the same directory and renamed
over the final name (:func:`os.replace`), so a reader never sees half a
file and an interrupted run leaves the old file intact.
"""

import contextlib
import os
import tempfile
from pathlib import Path

from .._checks import check_creatable, check_path
from ._errors import CLIError, UsageError

__all__ = ["check_output_path", "checked_path", "refuse_link", "write_atomically"]

_TEMP_PREFIX = ".sklearn-bcv-"


def checked_path(path, option):
    """``os.fspath(path)``, checked by :func:`~sklearn_bcv._checks.check_path`
    (no NUL byte, no control character); a :class:`UsageError` naming
    ``option`` otherwise."""
    try:
        return check_path(path, name=option)
    except (TypeError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def refuse_link(path, option):
    """Refuse a symbolic link at ``path`` (dangling or not): writing through
    it would overwrite, or create, a file elsewhere than the one named."""
    if os.path.islink(path):
        raise UsageError(
            f"{option}: {path} is a symbolic link; refusing to write through it "
            "(remove it or give another name)"
        )


def check_output_path(path, option):
    """Check, before any work, that ``path`` can be written as a new file.

    Parameters
    ----------
    path : str or path-like
        The final file name.
    option : str
        The option that named it, for messages (``"--plot"``).

    Returns
    -------
    path : pathlib.Path
        ``path`` unchanged.

    Raises
    ------
    UsageError
        If ``path`` holds a NUL byte or a control character, is a symbolic
        link (even a dangling one), exists and is not a regular file, or if
        its directory is missing or a file cannot be created in it (tried
        for real: permission bits say nothing about ``/proc`` or a
        read-only file system).
    """
    path = Path(os.fsdecode(checked_path(path, option)))
    refuse_link(path, option)
    parent = path.parent
    if not parent.is_dir():
        raise UsageError(
            f"{option}: no directory {str(parent)!r} to save {path.name} in"
        )
    if path.exists() and not path.is_file():
        raise UsageError(f"{option}: {path} exists and is not a regular file")
    try:
        check_creatable(path)
    except OSError as exc:
        raise UsageError(f"{option}: {exc}") from None
    return path


def write_atomically(path, write, option, *, binary=True):
    """Write a file through a temporary file in its directory, then rename.

    Parameters
    ----------
    path : str or path-like
        The final file name; a symbolic link there is refused.
    write : callable
        ``write(file)`` writes the content to the open file object.
    option : str
        The option that named the file, for messages.
    binary : bool, default=True
        Open the temporary file in binary mode (else text, UTF-8).

    Returns
    -------
    path : pathlib.Path
        The file written.
    """
    path = Path(path)
    refuse_link(path, option)
    try:
        fd, temp = tempfile.mkstemp(prefix=_TEMP_PREFIX, dir=path.parent)
    except OSError as exc:
        reason = exc.strerror or exc
        raise CLIError(f"{option}: cannot write {path}: {reason}") from None
    try:
        mode = "wb" if binary else "w"
        encoding = None if binary else "utf-8"
        with os.fdopen(fd, mode, encoding=encoding) as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        # mkstemp makes the file 0600; give it the mode a new file would get.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        refuse_link(path, option)  # a link made while writing
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return path
