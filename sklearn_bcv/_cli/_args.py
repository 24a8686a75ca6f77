"""What the subcommands share: errors, argument types, option groups.

Every subcommand's parser is a :class:`Parser` (errors are one line), built
from the option groups here (design, output), the data options of
:mod:`._data` and its own options; the shared options turn into the same
objects everywhere (the splitter of :func:`build_cv`, the test names of
:func:`parse_tests`).
"""

import argparse
import contextlib
import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .._version import __version__
from ..stats._corrections import CORRECTIONS as _CORRECTIONS
from ._errors import CLIError, UsageError
from ._report import add_report_option

__all__ = [
    "CORRECTIONS",
    "CLIError",
    "Parser",
    "Subcommand",
    "UsageError",
    "add_design_arguments",
    "add_level_arguments",
    "add_splitter_arguments",
    "add_output_arguments",
    "add_tests_argument",
    "build_cv",
    "check_family_options",
    "check_library_scoring",
    "check_scoring",
    "check_splits",
    "int_in",
    "list_tests",
    "parse_tests",
    "probability",
]

PROG = "sklearn-bcv"

CV_CHOICES = ("5x2", "mx2", "stratified", "kfold")
FORMATS = ("text", "json", "csv")
MAX_SEED = 2**32 - 1

#: Most repetitions of 2-fold CV ``--repeats`` takes: 1000 is 2000 fits per
#: estimator and needs 1024 records or more; beyond it is not a comparison
#: but a typing error (the literature uses m of 3 to 15).
MAX_REPEATS = 1000

EXIT_STATUS = (
    "Exit status: 0 on success, 1 when the comparison cannot run, 2 on "
    "a usage error,\n130 when interrupted, 143 when terminated; errors are one line on "
    "stderr starting with 'error:'."
)


#: The values of ``--correction`` ("none": no correction).
CORRECTIONS = (*_CORRECTIONS, "none")


class Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line, without the usage block."""

    def error(self, message):
        raise UsageError(f"{message} (see '{self.prog} --help')")


@dataclass(frozen=True)
class Subcommand:
    """A subcommand of ``sklearn-bcv``: one module defines one of these.

    Attributes
    ----------
    name : str
        What the user types after ``sklearn-bcv``.
    summary : str
        One line for the list of subcommands in ``--help``.
    description : str
        The paragraph above the options in ``sklearn-bcv NAME --help``.
    examples : tuple of str
        Command lines shown below the options.
    add_arguments : callable
        ``add_arguments(parser)`` adds the subcommand's options.
    run : callable
        ``run(args, *, stdout, stderr)`` runs it (errors: :class:`CLIError`).
    test_lists : dict, default={}
        Attribute of ``args`` -> registry kind: ``--option list`` prints the
        registered tests of that kind instead of running.
    implied_by : tuple of str, default=()
        Options that select this subcommand when none is named.
    """

    name: str
    summary: str
    description: str
    examples: tuple
    add_arguments: Callable
    run: Callable
    test_lists: dict = field(default_factory=dict)
    implied_by: tuple = ()


# --------------------------------------------------------------------------
# Argument types


def int_in(low, high=None, *, allow_zero=True, what="an integer"):
    """An argparse type: an int in ``[low, high]`` (``0`` excluded if asked)."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}; got {text!r}") from None
        if (
            (low is not None and value < low)
            or (high is not None and value > high)
            or (not allow_zero and value == 0)
        ):
            raise argparse.ArgumentTypeError(f"expected {what}; got {value}")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


def probability(text):
    """An argparse type: a float strictly between 0 and 1 (a level alpha)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number between 0 and 1; got {text!r}"
        ) from None
    if not 0 < value < 1:  # also rejects nan
        raise argparse.ArgumentTypeError(
            f"expected a number between 0 and 1 (exclusive); got {text}"
        )
    return value


# --------------------------------------------------------------------------
# Option groups


def add_tests_argument(group, option="--tests", *, help):
    """A comma-separated list of registered test names (or ``list``)."""
    group.add_argument(option, metavar="NAME[,NAME...]", default=None, help=help)


def add_design_arguments(group, *, alternative_help):
    """The splitter, scoring, level, alternative, seed and parallelism."""
    add_splitter_arguments(group)
    add_level_arguments(group, alternative_help=alternative_help)


def add_splitter_arguments(group):
    """``--cv``, ``--repeats`` and ``--folds``."""
    group.add_argument(
        "--cv",
        choices=CV_CHOICES,
        default="5x2",
        help="5x2: 5×2 block-regularized CV (default); mx2: m×2 BCV with "
        "--repeats; stratified: stratified m×2 BCV; kfold: (stratified) "
        "K-fold CV with --folds",
    )
    group.add_argument(
        "--repeats",
        type=int_in(1, MAX_REPEATS, what=f"an integer in [1, {MAX_REPEATS}]"),
        default=5,
        metavar="M",
        help="repetitions of 2-fold CV for --cv mx2/stratified, 1 to "
        f"{MAX_REPEATS}; the data need a record for each of the 2**k "
        "sub-blocks, 2**k the smallest power of two above M: 2 records for "
        "M = 1, 4 for M <= 3, 8 for M <= 7, 16 for M <= 15 (default: 5)",
    )
    group.add_argument(
        "--folds",
        type=int_in(2, what="an integer >= 2"),
        default=10,
        metavar="K",
        help="folds for --cv kfold, at most the number of records (default: 10)",
    )


def add_level_arguments(group, *, alternative_help):
    """``--scoring``, ``--alpha``, ``--alternative``, ``--random-state`` and
    ``--n-jobs``."""
    group.add_argument(
        "--scoring",
        default=None,
        help="a scikit-learn scorer name such as balanced_accuracy, roc_auc "
        "or r2 (default: accuracy for classifiers, r2 for regressors)",
    )
    group.add_argument(
        "--alpha",
        type=probability,
        default=0.05,
        help="significance level, between 0 and 1 (default: 0.05)",
    )
    group.add_argument(
        "--alternative",
        choices=("two-sided", "greater", "less"),
        default="two-sided",
        help=alternative_help,
    )
    group.add_argument(
        "--random-state",
        default=None,
        metavar="SEED",
        type=int_in(0, MAX_SEED, what=f"an integer in [0, {MAX_SEED}]"),
        help="seed of the splits and of every random_state parameter of the "
        "estimators, the defaults and yours, nested ones included (a seed in "
        "--params wins) (default: one drawn at random, said on stderr and "
        "recorded in the json and the report, so that --random-state SEED "
        "repeats the run; with --store, the seed the store holds)",
    )
    group.add_argument(
        "--n-jobs",
        default=None,
        metavar="N",
        type=int_in(None, allow_zero=False, what="a non-zero integer"),
        help="parallel fits (joblib n_jobs; -1 uses every core); a non-zero "
        "integer (the library never starts more workers than fits)",
    )


def add_output_arguments(parser, *, format_help, plot_help):
    """``--format``, ``--plot``, ``--report``, ``--quiet``, ``-v`` and
    ``--version``."""
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=FORMATS, default="text", help=format_help)
    output.add_argument(
        "--all-tests",
        action="store_true",
        help="text output: also show the tests not recommended here (e.g. "
        "paired_t), each with the reason; by default they are only named",
    )
    output.add_argument(
        "--plot",
        metavar="FILE.png",
        default=None,
        help=f"{plot_help}. Without a suffix .png is appended; the file "
        "written is the one reported; a directory is refused",
    )
    output.add_argument(
        "--dpi",
        metavar="N",
        default=300,
        type=int_in(50, 1200, what="an integer in [50, 1200]"),
        help="resolution of a --plot image (.png, .jpg): dots per inch, for "
        "print (default: 300); a vector file (.pdf, .svg) ignores it",
    )
    add_report_option(output)
    output.add_argument(
        "--quiet",
        action="store_true",
        help="nothing on stderr but an error: no progress indicator, warnings "
        "or output of imported modules",
    )
    output.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="a progress bar of the fits on stderr even when it is not a "
        "terminal (on a terminal it is shown by default); -vv: also a line "
        "per fit",
    )
    output.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return output


# --------------------------------------------------------------------------
# What the shared options become


def build_cv(args, task):
    """The cross-validation splitter the options ask for."""
    from sklearn.model_selection import KFold, StratifiedKFold

    from .._split import (
        BlockRegularized5x2CV,
        BlockRegularizedMx2CV,
        StratifiedBlockRegularizedMx2CV,
    )

    seed = args.random_state
    if args.cv == "5x2":
        return BlockRegularized5x2CV(random_state=seed)
    if args.cv == "mx2":
        return BlockRegularizedMx2CV(n_repeats=args.repeats, random_state=seed)
    if args.cv == "stratified":
        if task != "classification":
            raise CLIError("--cv stratified needs a classification target")
        return StratifiedBlockRegularizedMx2CV(
            n_repeats=args.repeats, random_state=seed
        )
    splitter = StratifiedKFold if task == "classification" else KFold
    return splitter(n_splits=args.folds, shuffle=True, random_state=seed)


def parse_tests(text, *, kind="pair", option="--tests", auto=False):
    """The test names of a comma-separated option (None: the default tests).

    An empty list, or ``auto`` among names where the option takes ``auto``
    alone (``auto=True``), is a :class:`UsageError`; an unknown name a
    :class:`CLIError` listing the valid ones.
    """
    from ..stats import available_tests

    if text is None:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise UsageError(f"{option}: give one or more test names separated by commas")
    if auto and "auto" in names:
        raise UsageError(
            f"{option}: auto chooses the tests itself and cannot be combined with "
            f"test names; give {option} auto alone, or only names (got {text!r})"
        )
    valid = available_tests(kind=kind)
    unknown = [name for name in names if name not in valid]
    if unknown:
        raise CLIError(f"{option}: unknown test(s) {unknown}; valid names: {valid}")
    return names


def check_family_options(args):
    """``--correction`` and ``--control`` together must make sense: a
    correction that uses the logic of all pairs (``shaffer``, ``bergmann``)
    has no meaning against a control. A :class:`UsageError` before any work
    (the library would refuse it too, but only once called)."""
    correction = getattr(args, "correction", None)
    if correction in (None, "none") or getattr(args, "control", None) is None:
        return
    from ..stats._corrections import check_family

    try:
        check_family(correction, args.control)
    except ValueError:
        raise UsageError(
            f"--correction {correction} uses the logic of all pairwise comparisons "
            "and cannot be combined with --control (k - 1 comparisons against it); "
            "use holm, hochberg, hommel, finner, li, holland, rom or bonferroni, "
            "or leave out --control"
        ) from None


def list_tests(stdout, kind="pair"):
    """Print the registered tests of ``kind``: name, design, needs."""
    from ..stats import available_tests
    from ..stats._registry import get_test_info

    for name in available_tests(kind=kind):
        needs, design = get_test_info(name)
        design = "None" if design is None else design  # None: every design
        stdout.write(f"{name:24s} design={design:8s} needs={','.join(needs)}\n")


def _unknown_scoring(scoring):
    from sklearn.metrics import get_scorer_names

    names = get_scorer_names()
    close = difflib.get_close_matches(scoring, names, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else ";"
    return UsageError(
        f"--scoring: {scoring!r} is not a valid scoring value{hint} valid "
        f"names: {', '.join(names)}"
    )


def check_scoring(scoring, task, y=None):
    """Check ``--scoring`` before fitting: a scorer name the engine resolves
    for ``task`` and, given the target ``y``, one that can score it.

    The second check is the engine's own
    (:func:`sklearn_bcv._engine._scoring.check_scoring_on_target`, which
    the library runs too): a scorer that cannot score ``y`` (``roc_auc`` or
    ``f1`` on a multiclass target, ``neg_mean_squared_log_error`` on
    negative values) would fail on every split, after the fits. Errors are
    :class:`UsageError`; they name the scorers of the same family to use
    instead when there are some (``roc_auc_ovr``, ``f1_macro``, ...).
    """
    if scoring is None:
        return
    from sklearn.metrics import get_scorer_names

    if scoring not in get_scorer_names():
        raise _unknown_scoring(scoring)
    import numpy as np

    from .._engine._scoring import check_scoring_on_target, resolve_scoring

    try:
        resolved = resolve_scoring(scoring, task)
        if resolved.needs_estimator and task == "regression":
            raise UsageError(
                f"--scoring: {scoring} scores class probabilities or decision "
                f"values ({resolved.response}), which regressors do not give; "
                "the target is continuous (a regression task)"
            )
        if y is not None:
            check_scoring_on_target(resolved, np.asarray(y), task)
    except ValueError as exc:
        raise UsageError(f"--scoring: {' '.join(str(exc).split())}") from None


@contextlib.contextmanager
def check_library_scoring(scoring):
    """Report the library's ``ValueError`` about ``scoring`` (a scorer that
    does not fit the target, found while comparing; its message says what
    to use instead) as a usage error of ``--scoring`` (status 2)."""
    try:
        yield
    except ValueError as exc:
        if scoring is None or not re.search(r"\bscoring\b", str(exc)):
            raise
        raise UsageError(f"--scoring {scoring}: {exc}") from None


def check_splits(args, cv, X, y, *, name=None):
    """Split ``X`` once before fitting: a design the data cannot take
    (``--folds`` or ``--repeats`` too large for the records) is a usage
    error naming the option, not an error after loading every estimator."""
    try:
        next(iter(cv.split(X, y)), None)
    except ValueError as exc:
        text = " ".join(str(exc).split())
        n_records = f"{len(y)} records" + ("" if name is None else f" of {name}")
        option = {"kfold": "--folds", "mx2": "--repeats", "stratified": "--repeats"}
        if args.cv in option:
            raise UsageError(
                f"{option[args.cv]}: {cv!r} cannot split the {n_records}: {text}"
            ) from None
        raise CLIError(f"{cv!r} cannot split the {n_records}: {text}") from None
