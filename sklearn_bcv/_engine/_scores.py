"""A table of scores across data sets, and the needs of the tests it feeds.

:func:`~sklearn_bcv.compare_scores` reads a table the user brings (an array
or a pandas DataFrame, mean scores or per-split scores);
:func:`~sklearn_bcv.benchmark` builds the same table from its fits. Both
then run one statistics path, on a :class:`ScoreTable`.
"""

from dataclasses import dataclass

import numpy as np

from ..stats._across import check_dataset_sizes
from ..stats._ties import merge_rows, precision_of, scores_precision, tie_unit
from ..stats._utils import stable_mean
from ._validation import check_names, check_sequence

__all__ = ["ScoreTable", "check_sizes", "mean_scores", "score_table"]


@dataclass
class ScoreTable:
    """Scores of k estimators on N data sets (higher is better).

    ``scores`` is (N, k) mean scores; ``split_scores`` (N, n_splits, k) when
    the per-split scores are known (else None); ``n_train`` and ``n_test``
    are (N,) arrays or None.
    """

    scores: np.ndarray
    names: list
    datasets: list
    split_scores: np.ndarray | None = None
    n_train: np.ndarray | None = None
    n_test: np.ndarray | None = None
    #: The machine epsilon of the scores as given (float32: 2**-23).
    precision: float = float(np.finfo(np.float64).eps)
    #: (N, k): the largest |score| each cell's mean was computed from (its
    #: per-split scores), when ``scores`` are means; None when they are the
    #: user's own numbers (each its own scale).
    cell_scale: np.ndarray | None = None

    def cell_tolerance(self):
        """(N, k) tie-rule tolerance of each score: of the user's own, from
        its own magnitude (equal at their own precision); of a mean of
        per-split scores, from those scores."""
        scale = np.abs(self.scores)
        if self.cell_scale is not None:
            scale = np.maximum(scale, self.cell_scale)
        with scores_precision(self.precision):
            return tie_unit() * scale

    def _pair_scale(self, rows, cols):
        """The largest |score| each difference of ``scores[:, a] -
        scores[:, b]`` comes from, per data set: from those two cells only
        (their per-split scores included). (N,) or (P, N) for arrays. A
        missing split or run (NaN) is left out (``fmax``); NaN only where
        every value of the pair on the data set is missing (a hole)."""
        magnitude = np.abs(self.scores)
        if self.cell_scale is not None:
            magnitude = np.fmax(magnitude, self.cell_scale)
        if self.split_scores is not None:
            splits = np.fmax.reduce(np.abs(self.split_scores), axis=1)
            magnitude = np.fmax(magnitude, splits)
        by_estimator = magnitude.T  # (k, N)
        return np.fmax(by_estimator[rows], by_estimator[cols])

    @property
    def available(self):
        """The needs this table provides (see ``NEEDS["datasets"]``)."""
        needs = {"scores", "dataset_differences"}
        if self.split_scores is not None:
            needs.add("split_differences")
        if self.n_train is not None:
            needs.add("n_train")
        if self.n_test is not None:
            needs.add("n_test")
        return needs

    def all_needs(self):
        """The needs of a test of all k estimators at once."""
        needs = {"scores": self.scores}
        if self.n_train is not None:
            needs["n_train"] = self.n_train
        if self.n_test is not None:
            needs["n_test"] = self.n_test
        return needs

    def _difference(self, scores, a, b):
        """``scores[..., a] - scores[..., b]``; a difference beyond float64 (of
        finite scores near +-1.8e308) is refused by name, not as "not finite"."""
        with np.errstate(over="ignore", invalid="ignore"):
            difference = scores[..., a] - scores[..., b]
        if not np.all(np.isfinite(difference)):
            raise ValueError(
                f"scores: the differences between {self.names[a]!r} and "
                f"{self.names[b]!r} overflow float64 (the scores are finite but "
                "their difference exceeds 1.8e308); divide the scores by a "
                "common factor (the tests on ranks need no rescaling)."
            )
        return difference

    def pairs_needs(self, pairs, only=None):
        """The needs of a batched pairwise test of every pair ``(a, b)`` of
        ``pairs`` at once: differences with a leading axis of pairs."""
        rows, cols = (np.array(side, dtype=np.intp) for side in zip(*pairs))
        needs = {}
        if only is None or "score_scale" in only:
            needs["score_scale"] = self._pair_scale(rows, cols)
        for name, scores in (
            ("dataset_differences", self.scores),
            ("split_differences", self.split_scores),
        ):
            if scores is None or (only is not None and name not in only):
                continue
            by_estimator = np.moveaxis(scores, -1, 0)  # (k, n_datasets, ...)
            with np.errstate(over="ignore", invalid="ignore"):
                difference = by_estimator[rows] - by_estimator[cols]
            finite = np.isfinite(difference).reshape(len(rows), -1).all(axis=1)
            if not finite.all():
                bad = int(np.flatnonzero(~finite)[0])
                self._difference(scores, rows[bad], cols[bad])  # names the pair
            needs[name] = difference
        for name in ("n_train", "n_test"):
            value = getattr(self, name)
            if value is not None and (only is None or name in only):
                needs[name] = value
        return needs

    def pair_needs(self, a, b, only=None):
        """The needs of a pairwise test of A = column ``a``, B = column ``b``."""
        needs = {
            "dataset_differences": self._difference(self.scores, a, b),
            "score_scale": self._pair_scale(a, b),
        }
        if self.split_scores is not None:
            needs["split_differences"] = self._difference(self.split_scores, a, b)
        if self.n_train is not None:
            needs["n_train"] = self.n_train
        if self.n_test is not None:
            needs["n_test"] = self.n_test
        if only is not None:
            needs = {key: value for key, value in needs.items() if key in only}
        return needs


def _is_frame(scores):
    return hasattr(scores, "columns") and hasattr(scores, "to_numpy")


def _frame_values(frame):
    """``(values, dataset names, estimator names)`` of a DataFrame.

    A two-level row index (data set, split) gives per-split scores.
    """
    names = [str(column) for column in frame.columns]
    index = frame.index
    if getattr(index, "nlevels", 1) == 2:
        datasets = list(dict.fromkeys(index.get_level_values(0)))
        blocks = [frame.xs(name, level=0).to_numpy() for name in datasets]
        sizes = {block.shape[0] for block in blocks}
        if len(sizes) != 1:
            raise ValueError(
                "scores: every data set of a per-split DataFrame (rows indexed by "
                "(data set, split)) must have the same number of splits; got "
                f"{sorted(sizes)}."
            )
        return np.stack(blocks), [str(d) for d in datasets], names
    if getattr(index, "nlevels", 1) > 2:
        raise ValueError(
            "scores: a DataFrame's rows must be indexed by data set, or by (data "
            f"set, split); got {index.nlevels} index levels."
        )
    return frame.to_numpy(), [str(d) for d in index], names


def _check_values(values):
    try:
        arr = np.asarray(values)
    except ValueError:
        raise ValueError(
            "scores must be an array of shape (n_datasets, k) or (n_datasets, "
            "n_splits, k); got a ragged nested sequence."
        ) from None
    if arr.dtype.kind not in "biuf":
        raise ValueError(
            f"scores must hold numbers (higher is better); got dtype {arr.dtype}."
        )
    if arr.ndim not in (2, 3):
        raise ValueError(
            "scores must be an array of shape (n_datasets, k) of mean scores or "
            f"(n_datasets, n_splits, k) of per-split scores; got shape {arr.shape}."
        )
    if arr.shape[0] < 2 or arr.shape[-1] < 2:
        raise ValueError(
            "scores must hold at least 2 data sets (first axis) and 2 estimators "
            f"(last axis); got shape {arr.shape}."
        )
    if arr.ndim == 3 and arr.shape[1] < 2:
        raise ValueError(
            "per-split scores (n_datasets, n_splits, k) need at least 2 splits per "
            f"data set; got shape {arr.shape}."
        )
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        where = np.argwhere(~np.isfinite(arr))[0].tolist()
        raise ValueError(
            f"scores must be finite; got {arr[tuple(where)]} at index {where}."
        )
    return arr


def _labels(given, default, *, argument, expected):
    if given is None:
        return default
    if isinstance(given, str):
        raise TypeError(f"{argument} must be a list of {expected} names; got a str.")
    given = check_sequence(given, argument=argument)
    if len(given) != len(default):
        raise ValueError(
            f"{argument} must hold {len(default)} names (one per {expected}); got "
            f"{len(given)}."
        )
    return given


def check_sizes(value, n_datasets, *, name):
    """``n_train`` / ``n_test``: None, or one size per data set (a scalar is
    every data set's), checked as the tests check them."""
    if value is None:
        return None
    sizes = check_dataset_sizes(value, n_datasets, name=name)
    return np.broadcast_to(np.asarray(sizes, dtype=np.float64), (n_datasets,)).copy()


def mean_scores(split_scores, precision=None):
    """``(means, cell_scale)`` of per-split scores (N, n_splits, k), or of
    a list of N arrays (n_splits_i, k): the mean score of each cell, the
    means equal in the user's decimals made equal within each data set
    (their rounding differs with the units and the order of the splits;
    each by its own per-split scores' magnitude, never another data set's),
    and the largest ``|score|`` each mean comes from. NaN (a failed fit)
    stays NaN."""
    if isinstance(split_scores, np.ndarray):
        means = stable_mean(split_scores, axis=1)
        with np.errstate(invalid="ignore"):
            scale = np.max(np.abs(split_scores), axis=1)
    else:
        means = np.array([stable_mean(block, axis=0) for block in split_scores])
        with np.errstate(invalid="ignore"):
            scale = np.array([np.max(np.abs(block), axis=0) for block in split_scores])
    scale = np.where(np.isfinite(scale), scale, 0.0)
    with scores_precision(precision or float(np.finfo(np.float64).eps)):
        means = merge_rows(means, tie_unit() * scale)
    return means, scale


def score_table(
    scores, *, names=None, datasets=None, n_train=None, n_test=None, precision=None
):
    """Check a score table as :func:`~sklearn_bcv.compare_scores` takes it
    (``precision``: the machine epsilon of the scores as the user gave
    them, when ``scores`` is a float64 copy; None: read off ``scores``)."""
    if _is_frame(scores):
        values, frame_datasets, frame_names = _frame_values(scores)
        found = precision_of(scores)
    else:
        values, frame_datasets, frame_names = scores, None, None
        found = precision_of(values)
    precision = found if precision is None else precision
    arr = _check_values(values)
    n_datasets, k = arr.shape[0], arr.shape[-1]
    names = _labels(
        names,
        frame_names or [f"estimator_{j}" for j in range(k)],
        argument="names",
        expected="estimator (column)",
    )
    datasets = _labels(
        datasets,
        frame_datasets or [f"dataset_{i}" for i in range(n_datasets)],
        argument="datasets",
        expected="data set (row)",
    )
    check_names(names, argument="names")
    check_names([str(d) for d in datasets], argument="datasets")
    split_scores = arr if arr.ndim == 3 else None
    means, cell_scale = arr, None
    if split_scores is not None:
        means, cell_scale = mean_scores(split_scores, precision)
    return ScoreTable(
        scores=means,
        names=list(names),
        datasets=[str(d) for d in datasets],
        split_scores=split_scores,
        n_train=check_sizes(n_train, n_datasets, name="n_train"),
        n_test=check_sizes(n_test, n_datasets, name="n_test"),
        precision=precision,
        cell_scale=cell_scale,
    )
