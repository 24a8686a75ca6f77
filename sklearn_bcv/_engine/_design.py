"""Recognise the design of a list of train/test splits.

The registered tests are derived for particular designs (one hold-out split,
k-fold CV, m×2 CV, block-regularized m×2 CV, or any design with at least two
splits, see :data:`sklearn_bcv._constants.DESIGNS`). :func:`describe_design`
reads the design off the materialised splits so the comparison engine can
tell which tests apply, and refuse, with a message naming the design a test
needs, to run one that does not.
"""

import warnings
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from .._constants import DESIGNS
from .._split import BlockRegularizedMx2CV, StratifiedBlockRegularizedMx2CV
from ..stats._registry import available_tests, get_entry

__all__ = ["Design", "describe_design"]

_TRAIN, _TEST = 1, 2

#: How each design is described in messages.
_DESIGN_NEEDS = {
    "holdout": "one hold-out split (a single (train, test) pair)",
    "kfold": "k >= 2 splits whose test sets partition the records (k-fold CV)",
    "mx2": (
        "an m×2 design (m repetitions of 2-fold CV, split 2r + 1 swapping the "
        "train and test sets of split 2r), e.g. BlockRegularized5x2CV or "
        "RepeatedKFold(n_splits=2)"
    ),
    "bcv": "a block-regularized m×2 design (BlockRegularized5x2CV)",
    "any": "at least two splits",
}


@dataclass(frozen=True)
class Design:
    """The design of a list of train/test splits.

    Build it with :func:`describe_design`; the attributes are facts read off
    the split indices (and the splitter's class, for block regularization).

    Attributes
    ----------
    n_samples : int or None
        Number of records the indices refer to; None for a design read off
        a splitter without the data (per-split scores given).
    n_splits : int
        Number of (train, test) splits.
    is_holdout : bool
        One split.
    is_partition : bool
        At least two splits whose test sets partition the records and whose
        training sets avoid their test sets (k-fold CV).
    is_mx2 : bool
        An even number of splits in which split ``2r + 1`` trains on the test
        set of split ``2r`` and tests on its training set, and the two halves
        of every repetition cover all the records (m×2 CV).
    n_repeats : int or None
        ``m`` of an m×2 design, else None.
    is_block_regularized : bool
        An m×2 design whose training sets are block-regularized: produced by
        a splitter of the ``BlockRegularizedMx2CV`` family, or with training
        sets of ``n/2`` records overlapping pairwise in ``n/4`` records up
        to the rounding bound of the sub-blocks (see Notes of
        :func:`describe_design`).
    n_train, n_test : float
        Mean training and test set sizes.
    """

    n_samples: int
    n_splits: int
    is_holdout: bool
    is_partition: bool
    is_mx2: bool
    n_repeats: int | None
    is_block_regularized: bool
    n_train: float
    n_test: float

    @property
    def kind(self):
        """The most specific design name: "holdout", "bcv", "mx2", "kfold" or "any"."""
        if self.is_holdout:
            return "holdout"
        if self.is_mx2:
            return "bcv" if self.is_block_regularized else "mx2"
        if self.is_partition:
            return "kfold"
        return "any"

    def describe(self):
        """A short human-readable description, e.g. ``"10-fold CV"``."""
        kind = self.kind
        if kind == "holdout":
            return (
                f"one hold-out split ({self.n_train:.0f} train / "
                f"{self.n_test:.0f} test records)"
            )
        if kind == "bcv":
            return f"{self.n_repeats}×2 block-regularized CV"
        if kind == "mx2":
            return f"{self.n_repeats}×2 CV (not block-regularized)"
        if kind == "kfold":
            return f"{self.n_splits}-fold CV"
        return f"{self.n_splits} splits (neither k-fold nor m×2)"

    def supports(self, design):
        """Whether tests registered for ``design`` can run on these splits.

        A test registered for ``"bcv"`` runs on any m×2 design; the engine
        warns when the design is not block-regularized (see
        :meth:`warns_for`). A test registered with ``design=None`` runs on
        every design, one hold-out split included (``"any"`` needs at least
        two splits).
        """
        if design is None:
            return True
        if design not in DESIGNS:
            raise ValueError(f"design must be one of {list(DESIGNS)}; got {design!r}.")
        return {
            "holdout": self.is_holdout,
            "kfold": self.is_partition,
            "mx2": self.is_mx2,
            "bcv": self.is_mx2,
            "any": self.n_splits >= 2,
        }[design]

    def warns_for(self, design):
        """Whether a test of ``design`` runs here only with a warning."""
        return design == "bcv" and self.is_mx2 and not self.is_block_regularized

    def check_test(self, name):
        """Raise ValueError if the registered test ``name`` cannot run here.

        Warn (UserWarning) if it runs outside the design it was derived for.
        """
        entry = get_entry(name)
        if not self.supports(entry.design):
            records = "" if self.n_samples is None else f" of {self.n_samples} records"
            raise ValueError(
                f"{name} needs {_DESIGN_NEEDS[entry.design]}; the splits are "
                f"{self.describe()} ({self.n_splits} split"
                f"{'s' if self.n_splits != 1 else ''}{records}). Tests that fit "
                f"this design: {self.applicable_tests(kind=entry.kind)}."
            )
        if self.warns_for(entry.design):
            warnings.warn(
                f"{name} is derived for block-regularized m×2 splits "
                f"(BlockRegularized5x2CV); the splits are {self.describe()}, so "
                "its null distribution is only approximate here.",
                UserWarning,
                stacklevel=4,
            )

    def applicable_tests(self, *, include_warned=True, kind="pair"):
        """Names of the registered tests of ``kind`` whose design fits."""
        return [
            name
            for name in available_tests(kind=kind)
            if self.supports(design := get_entry(name).design)
            and (include_warned or not self.warns_for(design))
        ]


def _check_indices(indices, *, n_samples, name):
    arr = np.asarray(indices)
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be a 1-D array of integer indices; got shape {arr.shape}."
        )
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(
            f"{name} must be a 1-D array of integer indices; got dtype {arr.dtype}."
        )
    if arr.size == 0:
        raise ValueError(
            f"{name} is empty; every split needs training and test records."
        )
    if arr.min() < 0 or arr.max() >= n_samples:
        raise ValueError(
            f"{name} holds indices outside [0, {n_samples}); the splits must "
            f"index the {n_samples} records."
        )
    return arr.astype(np.intp)  # a copy: results own their data


def check_splits(splits, n_samples):
    """Validate ``splits`` as a list of (train, test) index arrays."""
    try:
        splits = list(splits)
    except TypeError:
        raise ValueError(
            "splits must be a list of (train, test) index arrays; got "
            f"{type(splits).__name__}."
        ) from None
    if not splits:
        raise ValueError("splits must hold at least one (train, test) pair; got none.")
    checked = []
    for i, split in enumerate(splits):
        if not isinstance(split, tuple | list) or len(split) != 2:
            raise ValueError(
                f"splits[{i}] must be a (train, test) pair of index arrays."
            )
        train = _check_indices(split[0], n_samples=n_samples, name=f"splits[{i}] train")
        test = _check_indices(split[1], n_samples=n_samples, name=f"splits[{i}] test")
        _check_disjoint(train, test, n_samples=n_samples, i=i)
        checked.append((train, test))
    return checked


def _check_disjoint(train, test, *, n_samples, i):
    """A record is tested once per split, and never on a model trained on it
    (a training set may repeat records: a bootstrap sample)."""
    tested = np.bincount(test, minlength=n_samples)
    if tested.max() > 1:
        record = int(np.argmax(tested))
        raise ValueError(
            f"splits[{i}] test holds record {record} {tested[record]} times; a "
            "test set must hold each record at most once."
        )
    overlap = np.unique(train[tested[train] > 0])
    if overlap.size:
        raise ValueError(
            f"splits[{i}] trains and tests on the same records ({overlap.size} "
            f"shared, e.g. record {overlap[0]}); a test set must be disjoint from "
            "its training set."
        )


def _membership(splits, n_samples):
    """(n_splits, n_samples) int8 matrix: 1 train, 2 test, 3 both, 0 unused."""
    member = np.zeros((len(splits), n_samples), dtype=np.int8)
    for i, (train, test) in enumerate(splits):
        member[i, train] |= _TRAIN
        member[i, test] |= _TEST
    return member


def _test_counts(splits, n_samples):
    return np.bincount(
        np.concatenate([test for _, test in splits]), minlength=n_samples
    )


def _is_partition(splits, member, n_samples):
    if len(splits) < 2 or np.any(member == _TRAIN | _TEST):
        return False
    # Each record in exactly one test set, and no duplicated test indices.
    return bool(np.all(_test_counts(splits, n_samples) == 1))


def _is_mx2(splits, member):
    n_splits = len(splits)
    if n_splits < 2 or n_splits % 2:
        return False
    first, second = member[0::2], member[1::2]
    # Fold 1 swaps fold 0's sets, and the two halves cover every record...
    swapped = np.all(
        (first == _TRAIN) & (second == _TEST) | (first == _TEST) & (second == _TRAIN)
    )
    # ...each once: a repeated index would make a half count a record twice.
    n_samples = member.shape[1]
    return bool(swapped) and all(
        train.size + test.size == n_samples for train, test in splits
    )


def block_regularization_bound(n_repeats):
    """Largest deviation from n/2 (set sizes) and n/4 (overlaps) allowed.

    Records are allocated to ``B = 2**k`` sub-blocks (``2**k`` the smallest
    power of two with ``2**k - 1 >= n_repeats``) whose sizes differ by at
    most one; a training set is ``B/2`` sub-blocks and the overlap of two is
    ``B/4`` sub-blocks, so they deviate from ``n/2`` and ``n/4`` by less than
    ``B/2`` and ``B/4`` records.
    """
    n_blocks = 2
    while n_blocks - 1 < n_repeats:
        n_blocks *= 2
    return n_blocks / 2, max(n_blocks / 4, 1.0)


def _looks_block_regularized(splits, member, n_samples):
    n_repeats = len(splits) // 2
    size_bound, overlap_bound = block_regularization_bound(n_repeats)
    train = member[0::2] == _TRAIN  # (m, n) training sets S_r
    sizes = train.sum(axis=1)
    if np.any(np.abs(sizes - n_samples / 2) >= size_bound):
        return False
    if n_repeats == 1:
        return True
    overlaps = train.astype(np.int32) @ train.T.astype(np.int32)
    off_diagonal = overlaps[~np.eye(n_repeats, dtype=bool)]
    return bool(np.all(np.abs(off_diagonal - n_samples / 4) < overlap_bound))


def _is_bcv_splitter(cv):
    return isinstance(cv, BlockRegularizedMx2CV | StratifiedBlockRegularizedMx2CV)


def describe_design(splits, n_samples, *, cv=None):
    """Read the design off a list of train/test splits.

    Parameters
    ----------
    splits : list of (train, test) pairs of int arrays
        The splits, in the order the tests read them.
    n_samples : int or None
        Number of records the indices refer to; None for a design read off
        a splitter without the data (per-split scores given).
    cv : cross-validation generator, default=None
        The splitter that produced ``splits``, if any. A splitter of the
        ``BlockRegularizedMx2CV`` family marks an m×2 design as
        block-regularized; otherwise that is inferred from the indices.

    Returns
    -------
    design : Design

    Notes
    -----
    The checks are vectorised over a ``(n_splits, n_samples)`` membership
    matrix, O(n_splits · n_samples). An m×2 design not produced by a
    block-regularized splitter counts as block-regularized when every
    training set has ``n/2`` records within ``B/2`` and any two training sets
    of different repetitions share ``n/4`` records within ``B/4`` (at least
    one), ``B = 2**k`` the number of sub-blocks of
    ``BlockRegularizedMx2CV(n_repeats=m)``: the rounding bound of sub-blocks
    whose sizes differ by at most one. The deviations
    :class:`~sklearn_bcv.BlockRegularizedMx2CV` documents (for 5×2: 1 record
    in size, 1.25 in overlap; 1.5 for the stratified variant) are within
    this bound. (On very small data a random m×2 CV may pass; it is then as
    balanced as a block-regularized one.)

    Examples
    --------
    >>> from sklearn.model_selection import KFold, RepeatedKFold
    >>> from sklearn_bcv._engine._design import describe_design
    >>> X = list(range(100))
    >>> describe_design(list(KFold(5).split(X)), 100).describe()
    '5-fold CV'
    >>> design = describe_design(list(RepeatedKFold(n_splits=2, n_repeats=5,
    ...                                              random_state=0).split(X)), 100)
    >>> design.kind, design.n_repeats
    ('mx2', 5)
    """
    valid = not isinstance(n_samples, bool) and isinstance(n_samples, Integral)
    if not valid or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer; got {n_samples!r}.")
    n_samples = int(n_samples)
    splits = check_splits(splits, n_samples)
    member = _membership(splits, n_samples)
    is_mx2 = _is_mx2(splits, member)
    if is_mx2:
        is_bcv = _is_bcv_splitter(cv) or _looks_block_regularized(
            splits, member, n_samples
        )
    else:
        is_bcv = False
    return Design(
        n_samples=n_samples,
        n_splits=len(splits),
        is_holdout=len(splits) == 1,
        is_partition=_is_partition(splits, member, n_samples),
        is_mx2=is_mx2,
        n_repeats=len(splits) // 2 if is_mx2 else None,
        is_block_regularized=is_bcv,
        n_train=float(np.mean([train.size for train, _ in splits])),
        n_test=float(np.mean([test.size for _, test in splits])),
    )
