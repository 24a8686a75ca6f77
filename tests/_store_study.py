"""A small study for the interruption tests of the study store.

Run as a script (``python _store_study.py STORE LOG DELAY N_JOBS OUT
[HOLD]``) it runs :func:`sklearn_bcv.benchmark` with a store and writes the
numbers of the result as JSON; its estimators append one line to ``LOG``
per fit, so a test counts the fits each run made. With ``HOLD`` (a path),
while that file exists the fits after the first :data:`HOLD_AFTER` wait
(writing ``HOLD.holding`` first): a test stops the study at a state it
observes -- fits committed, the others waiting -- never at a moment it
guesses, and removes the file before the same call resumes it.
"""

import json
import os
import sys
import time

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris, load_wine, make_moons

from sklearn_bcv import benchmark

#: Fits logged before the others wait on the hold file.
HOLD_AFTER = 20


def _logged(log):
    try:
        with open(log) as handle:
            return sum(1 for _ in handle)
    except OSError:
        return 0


class RecordingCentroid(ClassifierMixin, BaseEstimator):
    """Nearest centroid, shrunk towards the grand mean by ``shrink``; each fit
    appends a line to the file ``log`` (after ``delay`` seconds), and waits
    first while the file ``hold`` exists once HOLD_AFTER fits are logged."""

    def __init__(self, shrink=0.0, log=None, delay=0.0, hold=None):
        self.shrink = shrink
        self.log = log
        self.delay = delay
        self.hold = hold

    def _wait_while_held(self):
        if self.hold is None or not os.path.exists(self.hold):
            return
        if _logged(self.log) < HOLD_AFTER:
            return
        with open(f"{self.hold}.holding", "a") as handle:
            handle.write("holding\n")
        while os.path.exists(self.hold):  # until interrupted, or released
            time.sleep(0.05)

    def fit(self, X, y):
        self._wait_while_held()
        time.sleep(self.delay)
        self.classes_, codes = np.unique(y, return_inverse=True)
        grand = X.mean(axis=0)
        self.centroids_ = np.array(
            [
                (1 - self.shrink) * X[codes == c].mean(axis=0) + self.shrink * grand
                for c in range(self.classes_.size)
            ]
        )
        if self.log is not None:
            with open(self.log, "a") as handle:
                handle.write(f"{self.shrink} {len(y)} {float(X.sum())!r}\n")
        return self

    def _distances(self, X):
        return ((X[:, None, :] - self.centroids_[None]) ** 2).sum(axis=-1)

    def predict(self, X):
        return self.classes_[self._distances(X).argmin(axis=1)]

    def predict_proba(self, X):
        logits = -self._distances(X)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        return weights / weights.sum(axis=1, keepdims=True)


SHRINKS = (0.0, 0.3, 0.6)
DATASETS = {
    "iris": load_iris(return_X_y=True),
    "wine": load_wine(return_X_y=True),
    "moons": make_moons(n_samples=120, noise=0.3, random_state=0),
}
#: 3 estimators × 3 data sets × 10 splits of a 5×2 BCV.
N_FITS = 90


def estimators(log=None, delay=0.0, hold=None):
    return {f"shrink{s}": RecordingCentroid(s, log, delay, hold) for s in SHRINKS}


def numbers(result):
    """The numbers of a benchmark result, as JSON-safe lists."""
    out = {
        "split_scores": np.asarray(result.split_scores).tolist(),
        "friedman": result.tests.friedman.pvalue,
        "wilcoxon": result.pairwise.wilcoxon.pvalue_adjusted.tolist(),
        "poisson_binomial": result.pairwise.poisson_binomial.p_a_better.tolist(),
    }
    for name, one in result.per_dataset.items():
        for test, value in one.tests.items():
            out[f"{name}.{test}"] = value.pvalue
        for test, table in one.pairwise.items():
            out[f"{name}.{test}"] = table.pvalue_adjusted.tolist()
    return out


def run(store, log, delay, n_jobs, hold=None):
    return benchmark(
        estimators(log, delay, hold),
        DATASETS,
        random_state=0,
        n_jobs=n_jobs,
        store=store,
    )


if __name__ == "__main__":
    store, log, delay, n_jobs, out, *hold = sys.argv[1:]
    result = run(store, log, float(delay), int(n_jobs), hold[0] if hold else None)
    with open(out, "w") as handle:
        json.dump(numbers(result), handle)
