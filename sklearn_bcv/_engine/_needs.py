"""The needs of the tests, computed from one store of per-split predictions.

A :class:`PredictionStore` holds the per-split predictions of k estimators
on one data set (fitted by the engine or brought by the user) and computes
what the registered tests need, each thing once: the scores of every
estimator on every split, which records each one gets right, and their
per-record losses. From these it gives the needs of any pair
(:meth:`PredictionStore.pair_needs`: ``tables``, ``differences``,
``loss_differences``, ...) and of all k at once
(:meth:`PredictionStore.many_needs`: ``correct``, ``scores``, ...). Every
statistic of every entry point comes from here.
"""

from functools import cached_property

import numpy as np

from .._constants import CLASSIFICATION
from ._scoring import check_score, score_predictions
from ._validation import check_predictions

__all__ = [
    "PAIR_FIELDS",
    "SCORE_NEEDS",
    "PredictionStore",
    "score_pair_needs",
    "score_pairs_needs",
]

#: What :meth:`PredictionStore.pair_needs` computes for a pair.
PAIR_FIELDS = (
    "tables",
    "scores_a",
    "scores_b",
    "differences",
    "n_train",
    "n_test",
    "loss_differences",
)


#: The needs per-split scores give without predictions: those of a pair
#: (``pair_needs``) and of all k at once (``many_needs``).
SCORE_NEEDS = frozenset(
    {"scores_a", "scores_b", "differences", "n_train", "n_test", "scores"}
)


def score_pair_needs(scores, a, b, n_train, n_test, wanted):
    """The needs of a pair that its scores give (those in ``wanted``):
    ``scores_a``, ``scores_b``, ``differences`` (A - B), the set sizes."""
    scores_a, scores_b = scores[:, a], scores[:, b]
    needs = {
        "scores_a": scores_a,
        "scores_b": scores_b,
        "differences": scores_a - scores_b,
        "n_train": n_train,
        "n_test": n_test,
    }
    return {key: value for key, value in needs.items() if key in wanted}


def score_pairs_needs(scores, pairs, n_train, n_test, wanted):
    """:func:`score_pair_needs` of every pair ``(a, b)`` of ``pairs`` at
    once, with a leading axis of pairs (for a batched test)."""
    unknown = set(wanted) - SCORE_NEEDS
    if unknown:
        raise ValueError(
            f"a batched test of pairs takes the needs of their scores "
            f"({sorted(SCORE_NEEDS)}); {sorted(unknown)} are per split or per "
            "record: run the test pair by pair."
        )
    rows, cols = (np.array(side, dtype=np.intp) for side in zip(*pairs))
    by_estimator = scores.T  # (k, n_splits)
    needs = {
        "scores_a": by_estimator[rows],
        "scores_b": by_estimator[cols],
        "differences": by_estimator[rows] - by_estimator[cols],
        "n_train": n_train,
        "n_test": n_test,
    }
    return {key: value for key, value in needs.items() if key in wanted}


class PredictionStore:
    """Per-split predictions of k estimators on one data set.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        The targets.
    splits : list of (train, test) int arrays
    predictions : list of list of ndarray
        ``predictions[i][j]``: estimator ``j`` on the test set of split ``i``
        (None where its fit failed).
    task : {"classification", "regression"}
    scoring : Scoring
    fitted_scores : ndarray of shape (n_splits, k), default=None
        Scores the fitted estimators gave themselves (a scorer that needs
        more than ``predict``); None scores the predictions.
    failed : ndarray of bool of shape (n_splits, k), default=None
        Fits that failed; their scores are ``error_score``.
    error_score : float, default=nan
    """

    def __init__(
        self,
        y,
        splits,
        predictions,
        task,
        scoring,
        *,
        fitted_scores=None,
        failed=None,
        error_score=np.nan,
    ):
        self.y = y
        self.splits = splits
        self.predictions = predictions
        self.task = task
        self.scoring = scoring
        self.fitted_scores = fitted_scores
        self.n_splits = len(splits)
        self.n_estimators = len(predictions[0]) if predictions else 0
        self.failed = (
            np.zeros((self.n_splits, self.n_estimators), dtype=bool)
            if failed is None
            else failed
        )
        self.error_score = error_score

    @classmethod
    def of_fits(cls, y, splits, fits, task, scoring, error_score, labels):
        """The store of the engine's fits (their predictions checked).

        ``labels`` is a list of ``(label, estimator)``; a label names the
        estimator in the message about bad predictions.
        """
        if not fits.failed.any():
            for j, (label, _) in enumerate(labels):
                check_predictions(
                    [row[j] for row in fits.predictions],
                    splits,
                    f"predictions of {label}",
                    task,
                    y=y,
                )
        return cls(
            y,
            splits,
            fits.predictions,
            task,
            scoring,
            fitted_scores=fits.scores,
            failed=fits.failed,
            error_score=np.nan if error_score == "raise" else error_score,
        )

    #: The needs it gives: every need of the tests on one data set.
    available = frozenset(PAIR_FIELDS) | {"correct", "scores"}

    @property
    def any_failed(self):
        return bool(self.failed.any())

    @property
    def test_indices(self):
        """The test records of each split."""
        return [test for _, test in self.splits]

    def failed_among(self, *columns):
        """Whether a fit of one of the estimators ``columns`` failed."""
        return bool(self.failed[:, list(columns)].any())

    @cached_property
    def y_test(self):
        """The targets of each split's test set."""
        return [self.y[test] for _, test in self.splits]

    @cached_property
    def n_train(self):
        return float(np.mean([train.size for train, _ in self.splits]))

    @cached_property
    def n_test(self):
        return float(np.mean([test.size for _, test in self.splits]))

    @cached_property
    def correct(self):
        """Per split, bool array (n_test_i, k): estimator j right on record."""
        if self.task != CLASSIFICATION:
            raise ValueError("correctness exists for classification only")
        return [
            np.column_stack([pred == y_test for pred in row])
            for y_test, row in zip(self.y_test, self.predictions)
        ]

    @cached_property
    def losses(self):
        """Per split, float array (n_test_i, k): 0-1 loss or squared error."""
        if self.task == CLASSIFICATION:
            return [(~correct).astype(np.float64) for correct in self.correct]
        residuals = [
            np.column_stack([pred - y_test.astype(np.float64) for pred in row])
            for y_test, row in zip(self.y_test, self.predictions)
        ]
        _check_squarable(residuals)
        return [r**2 for r in residuals]

    @cached_property
    def scores(self):
        """(n_splits, k) scores, higher is better; error_score where failed."""
        scores = np.full((self.n_splits, self.n_estimators), float(self.error_score))
        label = self.scoring.label
        for i in range(self.n_splits):
            for j in range(self.n_estimators):
                if self.failed[i, j]:
                    continue
                if self.fitted_scores is not None:
                    scores[i, j] = check_score(self.fitted_scores[i, j], label)
                elif self.scoring.scorer is None:  # accuracy, as accuracy_score
                    right = self.predictions[i][j] == self.y_test[i]
                    scores[i, j] = float(np.mean(right))
                else:
                    scores[i, j] = score_predictions(
                        self.scoring, self.y_test[i], self.predictions[i][j]
                    )
        return scores

    def pair_needs(self, a, b, only=None):
        """The needs of the two-estimator tests for A = ``a``, B = ``b``.

        ``tables`` (classification), ``scores_a``, ``scores_b``,
        ``differences``, ``n_train``, ``n_test`` and ``loss_differences``;
        only those named in ``only`` when given (the per-record loss
        differences of every pair of many estimators need not all exist at
        once). Without predictions of every split (a fit failed) there are
        no tables nor loss differences.
        """
        wanted = set(PAIR_FIELDS if only is None else only)
        needs = score_pair_needs(self.scores, a, b, self.n_train, self.n_test, wanted)
        if self.failed_among(a, b):
            return needs
        if self.task == CLASSIFICATION and "tables" in wanted:
            needs["tables"] = np.stack(
                [_table(correct[:, a], correct[:, b]) for correct in self.correct]
            )
        if "loss_differences" in wanted:
            needs["loss_differences"] = [
                losses[:, a] - losses[:, b] for losses in self.losses
            ]
        return needs

    def pairs_needs(self, pairs, only):
        """The score needs (``only``) of every pair ``(a, b)`` of ``pairs`` at
        once, with a leading axis of pairs, for a test registered
        ``batched``: each row is what :meth:`pair_needs` gives that pair."""
        return score_pairs_needs(self.scores, pairs, self.n_train, self.n_test, only)

    def many_needs(self):
        """The needs of the k-estimator tests: ``correct``, ``scores``, sizes."""
        needs = {"scores": self.scores, "n_train": self.n_train, "n_test": self.n_test}
        if self.task == CLASSIFICATION and not self.any_failed:
            needs["correct"] = self.correct
        return needs

    def predictions_of(self, j):
        """The per-split predictions of estimator ``j``."""
        return [row[j] for row in self.predictions]


#: Residuals whose squares are normal float64 numbers: beyond, squared
#: errors overflow or lose their precision (down to 0: a silent p = 1).
_SQUARABLE = (2.0**-511, 2.0**511)


def _check_squarable(residuals):
    """Refuse squared errors that float64 cannot hold, with the reason."""
    with np.errstate(over="ignore", invalid="ignore"):
        largest = max(float(np.max(np.abs(r), initial=0.0)) for r in residuals)
    if largest == 0.0 or _SQUARABLE[0] <= largest < _SQUARABLE[1]:
        return
    beyond = "overflow" if largest >= _SQUARABLE[1] else "underflow"
    raise ValueError(
        f"the squared errors of the predictions {beyond} float64 (the largest "
        f"|prediction - y| is {largest:.3g}; squares are exact between "
        f"{_SQUARABLE[0]:.3g} and {_SQUARABLE[1]:.3g}); rescale y and the "
        "predictions."
    )


def _table(a_correct, b_correct):
    """The 2×2 table ``[a_correct, b_correct]`` (see mcnemar_table)."""
    cell = 2 * a_correct.astype(np.int64) + b_correct.astype(np.int64)
    return np.bincount(cell, minlength=4).reshape(2, 2)
