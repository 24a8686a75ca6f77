"""``--random-state``: the seed of a command, drawn when not given.

The command line means by its default what the library means by
``random_state=None``: a seed is drawn (from NumPy's global generator), used
for everything the option seeds (the splits, the default estimators, the
Bayesian tests' sampling) and recorded: said on stderr, in the JSON
document, and in the methods of ``--report``, so that ``--random-state
SEED`` repeats the run. With ``--store FILE``, a store that holds a seed
(that of the first command that fitted into it) gives it instead, so
rerunning the same command resumes the study.
"""

import os

__all__ = ["record_seed", "resolve_seed", "say_seed"]


def _store_seed(args):
    """The seed the ``--store`` file holds, or None (no option, no file, or
    a file that cannot be read here: the store's own checks say why, later)."""
    path = getattr(args, "store", None)
    if path is None or not os.path.isfile(path):
        return None
    from .._store import StudyStore

    try:
        with StudyStore(path, mode="r") as store:
            return store.random_state
    except (OSError, ValueError):
        return None


def resolve_seed(args):
    """Set ``args.random_state`` to an int when it is None, and
    ``args.random_state_origin`` to where it came from (None when given); a
    command without ``--random-state`` is left alone."""
    if not hasattr(args, "random_state"):
        return
    args.random_state_origin = None  # given
    if args.random_state is not None:
        return
    from .._engine._seeds import study_seed

    recorded = _store_seed(args)
    if recorded is not None:
        args.random_state = recorded
        args.random_state_origin = (
            f"recorded in the study store {os.path.basename(args.store)}"
        )
    else:
        seed = study_seed(None)
        args.random_state, args.random_state_origin = seed.seed, seed.origin


def say_seed(args, stderr):
    """The line saying a seed the command was not given (on stderr, unless
    ``--quiet``, once the fits are done): how to repeat the run."""
    origin = getattr(args, "random_state_origin", None)
    if origin is None or getattr(args, "quiet", False):
        return
    seed = args.random_state
    if origin.startswith("recorded"):
        stderr.write(f"random state {seed}: the study store's ({args.store})\n")
    else:
        stderr.write(
            f"random state {seed}, drawn: --random-state {seed} repeats this run\n"
        )


def record_seed(result, args, stderr):
    """Mark a seed the command drew in the provenance of ``result`` (the
    library, given the int, recorded it as given) and say it
    (:func:`say_seed`), before any output."""
    origin = getattr(args, "random_state_origin", None)
    if origin is None or result is None:
        return
    say_seed(args, stderr)
    for holder in (result, result.get("comparison") or {}):
        provenance = holder.get("provenance")
        if provenance and provenance.get("random_state") == args.random_state:
            provenance["random_state_origin"] = origin
