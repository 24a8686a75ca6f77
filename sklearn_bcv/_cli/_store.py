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

from ._args import CLIError
from ._files import refuse_link

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


@contextlib.contextmanager
def opened_store(args, stderr):
    """The :class:`~sklearn_bcv.StudyStore` of ``--store`` (None without it),
    opened before any fit and closed at the end; says on stderr what the
    store gave (unless ``--quiet``)."""
    if args.store is None:
        yield None
        return
    text = args.store
    if text.endswith((os.sep, "/")) or Path(text).is_dir():
        raise CLIError(f"--store: {text} is a directory; give the name of a file")
    refuse_link(text, "--store")
    from .._store import StudyStore

    try:
        store = StudyStore(text)
    except (OSError, ValueError) as exc:
        raise CLIError(f"--store: {' '.join(str(exc).split())}") from None
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
