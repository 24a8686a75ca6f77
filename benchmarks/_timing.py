"""What the benchmark scripts share: alternating best-of timing and an
estimator whose fit takes a known time.

The scripts are run from the repository root (``python benchmarks/...``),
so this module sits beside them on ``sys.path``.
"""

import time

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin


class SleepyClassifier(ClassifierMixin, BaseEstimator):
    """Majority-class classifier whose fit sleeps ``delay`` seconds."""

    def __init__(self, delay=0.2):
        self.delay = delay

    def fit(self, X, y):
        time.sleep(self.delay)
        values, counts = np.unique(y, return_counts=True)
        self.classes_ = values
        self.majority_ = values[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def best_of(functions, repeats):
    """Best wall time of each function, the functions alternating, so that
    background load affects them alike."""
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(repeats):
        for name, func in functions.items():
            start = time.perf_counter()
            func()
            best[name] = min(best[name], time.perf_counter() - start)
    return best
