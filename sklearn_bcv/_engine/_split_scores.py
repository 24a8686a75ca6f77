"""Per-split scores of one data set: their table, their design, their store.

The statistics of k estimators on one data set run on a store of needs
(:class:`~sklearn_bcv._engine._needs.PredictionStore`). Scores the user
already has — a search's ``cv_results_``, the dicts of ``cross_validate``, a
table of split scores — carry no predictions, so the tests of contingency
tables and per-record losses cannot run; every test of score differences
can, with the design of the splits. :class:`ScoreStore` gives those needs,
from the same functions a store of predictions uses, so the statistics are
the ones :func:`~sklearn_bcv.compare_many_estimators` computes on the same
splits. :func:`design_of_cv` reads the design off the splitter that made the
splits, without the data: only the ratio of test to training set sizes
enters the tests, and the splitter fixes it.
"""

import re
from numbers import Integral, Real

import numpy as np
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedGroupKFold,
    StratifiedKFold,
    StratifiedShuffleSplit,
)

from .._split import BlockRegularizedMx2CV, StratifiedBlockRegularizedMx2CV
from ._design import Design, check_splits, describe_design
from ._needs import SCORE_NEEDS, score_pair_needs, score_pairs_needs
from ._scores import _is_frame
from ._scoring import Scoring
from ._validation import check_names

__all__ = [
    "SUPPORTED_SPLITTERS",
    "ScoreStore",
    "SplitTableError",
    "check_split_scores",
    "design_of_cv",
    "refuse_split_tables",
]

#: The splitters whose design is read without the data (the names a message
#: lists).
SUPPORTED_SPLITTERS = (
    "BlockRegularizedMx2CV (and the 5×2 and stratified forms)",
    "KFold",
    "StratifiedKFold",
    "GroupKFold",
    "StratifiedGroupKFold",
    "LeaveOneOut",
    "RepeatedKFold",
    "RepeatedStratifiedKFold",
    "ShuffleSplit",
    "StratifiedShuffleSplit",
    "an int (k-fold)",
    "a list of (train, test) index arrays",
)

_PARTITIONS = (KFold, StratifiedKFold, GroupKFold, StratifiedGroupKFold)
_REPEATED = (RepeatedKFold, RepeatedStratifiedKFold)
_SHUFFLES = (ShuffleSplit, StratifiedShuffleSplit)
_BCV = (BlockRegularizedMx2CV, StratifiedBlockRegularizedMx2CV)


class ScoreStore:
    """Per-split scores of k estimators on one data set, without predictions.

    The store of needs of per-split scores: ``pair_needs`` (``scores_a``,
    ``scores_b``, ``differences``, ``n_train``, ``n_test``) and
    ``many_needs`` (``scores`` and the sizes), computed as a
    :class:`~sklearn_bcv._engine._needs.PredictionStore` computes them;
    ``available`` says which needs it holds, so the tests of predictions
    (contingency tables, per-record losses) are left out, with the reason.

    Parameters
    ----------
    scores : ndarray of shape (n_splits, k)
        Finite scores, higher is better.
    n_train, n_test : float
        Mean training and test set sizes (records, or fractions of the data:
        the tests use their ratio).
    scoring : str, default="score"
        The name of the score (for the summaries).
    task : {"classification", "regression"} or None, default=None
        None when not known.
    """

    available = SCORE_NEEDS
    splits = None
    test_indices = None
    any_failed = False

    def __init__(self, scores, *, n_train, n_test, scoring="score", task=None):
        self.scores = scores
        self.n_train = float(n_train)
        self.n_test = float(n_test)
        self.scoring = Scoring(scoring)
        self.task = task
        self.n_splits, self.n_estimators = scores.shape
        self.failed = np.zeros(scores.shape, dtype=bool)

    def failed_among(self, *columns):
        """No fit failed: the scores were given."""
        return False

    def pair_needs(self, a, b, only=None):
        """The needs of a two-estimator test of A = ``a`` and B = ``b``."""
        wanted = SCORE_NEEDS if only is None else set(only)
        return score_pair_needs(self.scores, a, b, self.n_train, self.n_test, wanted)

    def pairs_needs(self, pairs, only):
        """The needs of every pair of ``pairs``, with a leading axis of pairs."""
        return score_pairs_needs(self.scores, pairs, self.n_train, self.n_test, only)

    def many_needs(self):
        """The needs of a test of the k estimators at once."""
        return {"scores": self.scores, "n_train": self.n_train, "n_test": self.n_test}

    def predictions_of(self, j):
        """None: there are no predictions."""
        return None


# --------------------------------------------------------------------------
# The table of scores


def check_split_scores(scores, *, names=None, argument="scores"):
    """``(array (n_splits, k), names)`` of per-split scores of one data set.

    ``scores`` is an array (n_splits, k), a DataFrame (columns =
    estimators, rows = splits) or a dict name -> (n_splits,) scores.
    """
    default = None
    if isinstance(scores, dict):
        default = [str(name) for name in scores]
        columns = []
        for name, column in scores.items():
            column = np.asarray(column)
            if column.ndim != 1:
                raise ValueError(
                    f"{argument}[{name!r}] must be a 1-D array of per-split scores; "
                    f"got shape {column.shape}."
                )
            columns.append(column)
        lengths = sorted({column.shape[0] for column in columns})
        if len(lengths) > 1:
            raise ValueError(
                f"every estimator of {argument} needs a score on each split (row i "
                f"from split i); got {lengths} splits."
            )
        values = np.column_stack(columns) if columns else np.empty((0, 0))
    elif _is_frame(scores):
        default = [str(column) for column in scores.columns]
        values = scores.to_numpy()
    else:
        try:
            values = np.asarray(scores)
        except ValueError:
            values = None
        if values is None or values.dtype == object:
            raise ValueError(
                f"{argument} must be an array of shape (n_splits, k), a DataFrame "
                "(one column per estimator) or a dict name -> per-split scores."
            )
    if values.dtype.kind not in "biuf":
        raise ValueError(
            f"{argument} must hold numbers (higher is better); got dtype "
            f"{values.dtype}."
        )
    if values.ndim != 2:
        raise ValueError(
            f"{argument} must be per-split scores of one data set, shape "
            f"(n_splits, k); got shape {values.shape}. For several data sets, "
            "use compare_scores."
        )
    n_splits, k = values.shape
    if k < 2 or n_splits < 2:
        raise ValueError(
            f"{argument} must hold at least 2 splits (rows) and 2 estimators "
            f"(columns); got shape {values.shape}."
        )
    values = values.astype(np.float64)
    if not np.all(np.isfinite(values)):
        split, column = np.argwhere(~np.isfinite(values))[0]
        raise ValueError(
            f"{argument} must be finite; got {values[split, column]} on split "
            f"{split} of estimator {column}."
        )
    if names is None:
        names = default or [f"estimator_{j}" for j in range(k)]
    else:
        if isinstance(names, str):
            raise TypeError("names must be a list of estimator names; got a str.")
        names = list(names)
        if len(names) != k:
            raise ValueError(
                f"names must hold {k} names (one per column of {argument}); got "
                f"{len(names)}."
            )
    check_names(names, argument="names")
    return values, list(names)


# --------------------------------------------------------------------------
# The design of a splitter


def _check_size(value, name):
    if (
        isinstance(value, bool)
        or not isinstance(value, Real)
        or not np.isfinite(value)
        or value <= 0
    ):
        raise ValueError(f"{name} must be a positive number; got {value!r}.")
    return float(value)


def _is_splits(cv):
    """A list (or tuple) of (train, test) pairs."""
    return isinstance(cv, list | tuple) and all(
        isinstance(split, list | tuple) and len(split) == 2 for split in cv
    )


def _nominal(n_splits, kind, *, n_train, n_test, n_repeats=None):
    """A :class:`Design` read off a splitter (the number of records unknown)."""
    return Design(
        n_samples=None,
        n_splits=n_splits,
        is_holdout=n_splits == 1,
        is_partition=kind in ("kfold", "bcv1"),
        is_mx2=kind in ("bcv", "mx2", "bcv1"),
        n_repeats=n_repeats,
        is_block_regularized=kind in ("bcv", "bcv1"),
        n_train=n_train,
        n_test=n_test,
    )


def _expect_splits(cv, expected, n_splits):
    if expected != n_splits:
        raise ValueError(
            f"cv={cv!r} makes {expected} splits, but the scores have {n_splits} "
            "(one row per split, in the splitter's order)."
        )


def _shuffle_sizes(cv):
    """Training and test sizes of a ShuffleSplit, as fractions or records;
    None where they depend on the number of records."""
    test, train = cv.test_size, cv.train_size
    if test is None:
        test = 0.1 if train is None else None
    if isinstance(test, float) and train is None:
        train = 1.0 - test
    if isinstance(train, float) and test is None:
        test = 1.0 - train
    if test is None or train is None:
        return None
    if isinstance(test, float) != isinstance(train, float):
        return None
    return float(train), float(test)


def _splitter_design(cv, n_splits, *, sized=False):
    """The design of the splitter ``cv`` (its sizes as fractions of the
    data, or in records where it fixes them), or None if it is not one
    whose design is known without the data. ``sized``: the sizes are given
    (those of a ShuffleSplit need not be known)."""
    if isinstance(cv, Integral) and not isinstance(cv, bool):
        cv = KFold(int(cv)) if cv >= 2 else cv
    if isinstance(cv, _BCV):
        m = int(cv.n_repeats)
        _expect_splits(cv, 2 * m, n_splits)
        return _nominal(n_splits, "bcv", n_train=0.5, n_test=0.5, n_repeats=m)
    if isinstance(cv, _PARTITIONS) or isinstance(cv, LeaveOneOut):
        k = n_splits if isinstance(cv, LeaveOneOut) else int(cv.n_splits)
        _expect_splits(cv, k, n_splits)
        if k == 2:  # the two folds swap: a 1×2 CV, block-regularized
            return _nominal(2, "bcv1", n_train=0.5, n_test=0.5, n_repeats=1)
        return _nominal(k, "kfold", n_train=(k - 1) / k, n_test=1 / k)
    if isinstance(cv, _REPEATED):
        k, r = int(cv.cvargs.get("n_splits", 5)), int(cv.n_repeats)
        _expect_splits(cv, k * r, n_splits)
        if k == 2:
            kind = "bcv1" if r == 1 else "mx2"
            return _nominal(n_splits, kind, n_train=0.5, n_test=0.5, n_repeats=r)
        kind = "kfold" if r == 1 else "any"
        return _nominal(n_splits, kind, n_train=(k - 1) / k, n_test=1 / k)
    if isinstance(cv, _SHUFFLES):
        _expect_splits(cv, int(cv.n_splits), n_splits)
        sizes = _shuffle_sizes(cv) or ((1.0, 1.0) if sized else None)
        if sizes is None:
            raise ValueError(
                f"cv={cv!r} gives its set sizes in records for one of the sets "
                "only, so their ratio depends on the number of records; pass "
                "n_train and n_test (or the list of splits as cv)."
            )
        return _nominal(n_splits, "any", n_train=sizes[0], n_test=sizes[1])
    return None


def design_of_cv(cv, n_splits, *, n_train=None, n_test=None):
    """The design of ``n_splits`` per-split scores, from the splitter that
    made them or from the set sizes.

    Parameters
    ----------
    cv : int, splitter, list of (train, test) pairs or None
        The splitter (see :data:`SUPPORTED_SPLITTERS`), an int (k-fold), or
        the splits themselves (their design read exactly, as
        :func:`~sklearn_bcv._engine._design.describe_design` reads it).
        None: any design of ``n_splits`` repeated splits, from the sizes.
    n_splits : int
        The number of splits the scores have.
    n_train, n_test : float, default=None
        Training and test set sizes (records, or any two numbers in their
        ratio); given, they replace those of ``cv``.

    Returns
    -------
    design : Design
        ``n_samples`` is None unless the splits were given; ``n_train`` and
        ``n_test`` are then fractions of the data, whose ratio is what the
        tests use.
    """
    if (n_train is None) != (n_test is None):
        raise ValueError(
            "n_train and n_test go together: give both, or neither (the "
            "splitter then fixes their ratio)."
        )
    sizes = None
    if n_train is not None:
        sizes = _check_size(n_train, "n_train"), _check_size(n_test, "n_test")
    if cv is None:
        if sizes is None:
            raise ValueError(
                "the design of the splits is needed: pass cv (the splitter that "
                "made them, e.g. KFold(10), RepeatedStratifiedKFold(n_splits=10, "
                "n_repeats=10) or BlockRegularized5x2CV()) or n_train and n_test."
            )
        design = _nominal(n_splits, "any", n_train=sizes[0], n_test=sizes[1])
    elif _is_splits(cv):
        splits = check_splits(cv, records_of(cv))
        if len(splits) != n_splits:
            raise ValueError(
                f"cv holds {len(splits)} splits, but the scores have {n_splits} "
                "(one row per split, in the same order)."
            )
        design = describe_design(splits, records_of(splits))
    else:
        design = _splitter_design(cv, n_splits, sized=sizes is not None)
        if design is None:
            raise ValueError(
                f"the design of cv={cv!r} cannot be read without the data; use "
                f"one of {', '.join(SUPPORTED_SPLITTERS)}, or pass n_train and "
                "n_test."
            )
    if sizes is not None:
        design = _with_sizes(design, *sizes)
    return design


def records_of(splits):
    """The number of records the splits index: one more than the largest."""
    try:
        largest = max(
            int(np.max(np.asarray(part), initial=-1))
            for split in splits
            for part in split
        )
    except (TypeError, ValueError):
        return 1  # the splits' own check names what is wrong
    return max(largest + 1, 1)


def _with_sizes(design, n_train, n_test):
    fields = {name: getattr(design, name) for name in design.__dataclass_fields__}
    return Design(**{**fields, "n_train": n_train, "n_test": n_test})


# --------------------------------------------------------------------------
# compare_scores refuses the tables of one data set

_SPLIT_LABEL = re.compile(r"^(split|fold|repetition|repeat|rep)[ _-]?\d+$", re.I)
_SPLIT_NAMES = {"split", "splits", "fold", "folds", "cv_fold", "repetition"}
_SEARCH_KEY = re.compile(r"^(split\d+|mean|std|rank)_test_")


def _looks_like_cv_results(value):
    keys = [key for key in value if isinstance(key, str)]
    return "params" in keys and any(_SEARCH_KEY.match(key) for key in keys)


def _looks_like_cross_validate(value):
    return isinstance(value, dict) and any(
        isinstance(key, str) and key.startswith("test_") for key in value
    )


class SplitTableError(ValueError):
    """The scores given across data sets are those of one data set's splits."""


def refuse_split_tables(scores, *, datasets=None):
    """Refuse, in :func:`~sklearn_bcv.compare_scores`, the scores of ONE data
    set: a search's ``cv_results_`` (a dict or its DataFrame), a dict of
    ``cross_validate`` outputs, or a table whose rows are labelled as
    splits. Treating splits as data sets would run the tests across data
    sets on correlated splits; the message names the function to use."""
    if isinstance(scores, dict) and _looks_like_cv_results(scores):
        raise SplitTableError(_SEARCH_MESSAGE)
    if isinstance(scores, dict) and scores:
        values = list(scores.values())
        if all(_looks_like_cross_validate(value) for value in values):
            raise SplitTableError(
                "scores looks like a dict of cross_validate outputs (name -> "
                "{'test_score': ...}): the splits of one data set, not data sets. "
                "Use compare_cross_validate(results) (or compare_split_scores)."
            )
    if _is_frame(scores):
        columns = [str(column) for column in scores.columns]
        if _looks_like_cv_results(columns):
            raise SplitTableError(_SEARCH_MESSAGE)
        index = scores.index
        if getattr(index, "nlevels", 1) == 1:
            labels = [str(label) for label in index]
            named = str(index.name).lower() in _SPLIT_NAMES
            if named or (labels and all(_SPLIT_LABEL.match(s) for s in labels)):
                raise SplitTableError(
                    _splits_message("its rows are labelled as splits")
                )
        split_columns = [c for c in columns if c.lower() in _SPLIT_NAMES]
        # A long table (data set, estimator, split, ...) names its data sets.
        has_datasets = any(c.lower() in ("dataset", "datasets") for c in columns)
        if split_columns and not has_datasets:
            raise SplitTableError(
                _splits_message(f"it has a column {split_columns[0]!r}")
                + " A long table (data set, estimator, split, score) is "
                "read by 'sklearn-bcv scores FILE.csv'."
            )
    if datasets is not None and not isinstance(datasets, str):
        try:
            labels = [str(label) for label in datasets]
        except TypeError:
            return
        if labels and all(_SPLIT_LABEL.match(label) for label in labels):
            raise SplitTableError(_splits_message("the data sets are named as splits"))


_SEARCH_MESSAGE = (
    "scores looks like a search's cv_results_ (params, split0_test_score, ...): "
    "the candidates' scores on the splits of one data set, not scores across "
    "data sets. Use compare_search(search) (or compare_search(cv_results, "
    "cv=...))."
)


def _splits_message(why):
    return (
        f"scores looks like the per-split scores of one data set ({why}); "
        "compare_scores treats rows as independent data sets, and splits of one "
        "data set are not. Use compare_split_scores(scores, cv=...) (with the "
        "splitter that made them)."
    )
