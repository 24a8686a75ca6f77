"""``--store FILE``: the study store of ``compare``, ``many`` and ``benchmark``.

Every fit is kept in FILE as it finishes; rerunning the same command finds
them there and fits only the others, so an interrupted run resumes and a
finished one grows by what the new command adds (an estimator, a data set).
A file that is not a study store, a damaged one or one of a newer schema is
refused before any fit, with one line naming it.
"""

import contextlib
import os
from pathlib import Path

from ._args import CLIError, UsageError
from ._files import checked_path, refuse_link

__all__ = ["add_store_argument", "opened_store"]


def add_store_argument(parser):
    """The ``study store`` option group: ``--store FILE``."""
    group = parser.add_argument_group("study store")
    group.add_argument(
        "--store",
        metavar="FILE",
        default=None,
        help="keep every fit in the study file FILE (SQLite, created when "
        "absent) as it finishes; rerunning the same command resumes an "
        "interrupted run (Ctrl-C, a crash) and fits only what FILE lacks, "
        "e.g. an added estimator or data set",
    )
    return group


#: Errors of the store's location (a missing or read-only directory, a
#: read-only file): usage errors; the others (not a store, damaged, locked)
#: stop the command with status 1.
_WHERE_ERRORS = (FileNotFoundError, PermissionError, NotADirectoryError)


def _reason(exc):
    """The message of a store's error, without the ``[Errno N]`` prefix."""
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return " ".join(str(text).split())


@contextlib.contextmanager
def opened_store(args, stderr):
    """The :class:`~sklearn_bcv.StudyStore` of ``--store`` (None without it),
    opened before any fit and closed at the end; says on stderr what the
    store gave (unless ``--quiet``). A new file is only created once the
    fits start; a path that cannot be used is a usage error (status 2)."""
    if args.store is None:
        yield None
        return
    text = checked_path(args.store, "--store")
    if text.endswith((os.sep, "/")) or Path(text).is_dir():
        raise UsageError(f"--store: {text} is a directory; give the name of a file")
    refuse_link(text, "--store")
    from .._store import StudyStore

    try:
        store = StudyStore(text)
    except _WHERE_ERRORS as exc:  # where the file is: the command line's
        raise UsageError(f"--store: {_reason(exc)}") from None
    except (OSError, ValueError) as exc:  # what the file holds, a lock
        raise CLIError(f"--store: {_reason(exc)}") from None
    if isinstance(getattr(args, "random_state", None), int):
        # The command's seed becomes the store's with its first fit (unless
        # the store has one): the same command without --random-state resumes.
        store.note_random_state(args.random_state)
    try:
        yield store
        call = getattr(store, "last_call", None)
        if call is not None and not args.quiet:
            stderr.write(
                f"study store {text}: {call.n_found} fits found, {call.n_kept} "
                f"fitted and kept ({store.n_fits} fits in the file)\n"
            )
    finally:
        store.close()
