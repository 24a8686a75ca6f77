"""The "poor partition" 5×2 cross-validation of Wang, Li & Li 2017, §3.

Wang, Li & Li run Alpaydın's combined 5×2 CV F-test on a 5×2 CV whose first
two repetitions overlap heavily, to show that a poorly overlapping 5×2 CV
inflates its type I and type II errors.
"""

import numbers
import warnings

import numpy as np
from sklearn.model_selection import BaseCrossValidator

from .._split import _check_n_samples, _check_random_state, _describe

__all__ = ["PoorPartition5x2CV"]

_N_REPEATS = 5
_MIN_SAMPLES = 4


def _check_n_swapped(n_swapped, n_samples):
    """The number ``k`` of exchanged records: an int in ``[1, n_samples // 2]``
    (``None``: ``max(1, n_samples // 20)``)."""
    half = n_samples // 2
    if n_swapped is None:
        return max(1, n_samples // 20)
    if isinstance(n_swapped, bool) or not isinstance(n_swapped, numbers.Integral):
        raise ValueError(
            f"n_swapped must be None or an integer in [1, {half}] "
            f"(n_samples // 2); got {_describe(n_swapped)}."
        )
    if not 1 <= n_swapped <= half:
        raise ValueError(
            f"n_swapped must be None or an integer in [1, {half}] "
            f"(n_samples // 2 for n_samples={n_samples}); got {n_swapped}."
        )
    return int(n_swapped)


class PoorPartition5x2CV(BaseCrossValidator):
    """The "poor partition" 5×2 cross-validator of Wang, Li & Li.

    A 5×2 cross-validation whose first two repetitions overlap heavily, as
    used in the simulations of Wang, Li & Li 2017, §3 [1]_ to show that Alpaydın's
    combined 5×2 CV F-test suffers from a poor partition. The records are
    cut at random into two halves ``P1`` (the first ``n_samples // 2``
    records of a random permutation) and ``P2`` (the others): that is the
    first repetition. The second repetition exchanges ``n_swapped``
    (``k``) random records of ``P1`` for ``k`` random records of ``P2``.
    The three other repetitions are independent random halvings (first half
    of ``n_samples // 2`` records).

    Split ``2r`` trains on ``S_r`` and tests on ``T_r``; split ``2r + 1``
    trains on ``T_r`` and tests on ``S_r``, the order of
    :class:`~sklearn_bcv.BlockRegularizedMx2CV`.

    Parameters
    ----------
    n_swapped : int or None, default=None
        Number ``k`` of records of ``P1`` exchanged for as many records of
        ``P2`` to build the second repetition, in ``[1, n_samples // 2]``.
        None means ``max(1, n_samples // 20)``, the paper's ``k = n/20``
        (computed when ``split`` is called).

    random_state : int, RandomState instance or None, default=None
        Controls the random halvings and the exchanged records. Pass an int
        for reproducible output across multiple calls of ``split``.
        See :term:`Glossary <random_state>`.

    See Also
    --------
    sklearn_bcv.BlockRegularized5x2CV : Every two training sets share n/4.
    sklearn_bcv.stats.combined_f_5x2cv : Alpaydın's combined 5×2 CV F-test.

    Notes
    -----
    **Why "poor".** The training sets ``S_1`` and ``S_2`` of the first two
    repetitions share ``n_samples // 2 - k`` records: ``9n/20`` for the
    paper's ``k = n/20``, nearly all of their ``n/2`` records and far from
    the ``n/4`` that minimizes the correlation between repetitions, which
    :class:`~sklearn_bcv.BlockRegularized5x2CV` guarantees for every pair.
    Their test sets share ``n_samples - n_samples // 2 - k`` records. The
    training sets of the other pairs of repetitions share ``n/4`` records on
    average (a hypergeometric count), but the number varies from one
    partition to the next. The F(10, 5) reference distribution of the
    combined F-test assumes independent repetitions; the large overlap makes
    two of them strongly correlated, which the paper shows inflates the
    test's errors ("the maximum number of overlapped samples be 9n/20").

    References
    ----------
    .. [1] Y. Wang, J. Li and Y. Li, "Choosing between two classification
       learning algorithms based on calibrated balanced 5×2 cross-validated
       F-test", Neural Processing Letters, 46(1):1-13, 2017 (seed paper 001
       of this project, §3). https://doi.org/10.1007/s11063-016-9569-z

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.simulation._poor_partition import PoorPartition5x2CV
    >>> X = np.zeros((200, 3))
    >>> cv = PoorPartition5x2CV(random_state=0)
    >>> cv
    PoorPartition5x2CV(n_swapped=None, random_state=0)
    >>> cv.get_n_splits()
    10
    >>> splits = list(cv.split(X))
    >>> [(len(train), len(test)) for train, test in splits[:2]]
    [(100, 100), (100, 100)]
    >>> # k = 200 // 20 = 10: the first two training sets share 9n/20 records
    >>> len(np.intersect1d(splits[0][0], splits[2][0]))
    90
    """

    def __init__(self, n_swapped=None, *, random_state=None):
        self.n_swapped = n_swapped
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of splits, 10.

        Parameters
        ----------
        X : object
            Always ignored, exists for API compatibility.

        y : object
            Always ignored, exists for API compatibility.

        groups : object
            Always ignored, exists for API compatibility.

        Returns
        -------
        n_splits : int
            Number of (train, test) splits.
        """
        return 2 * _N_REPEATS

    def split(self, X, y=None, groups=None):
        """Generate indices to split data into training and test set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, where `n_samples` is the number of samples.

        y : array-like of shape (n_samples,), default=None
            Always ignored, exists for API compatibility.

        groups : array-like of shape (n_samples,), default=None
            Always ignored, exists for API compatibility.

        Yields
        ------
        train : ndarray
            The training set indices for that split.

        test : ndarray
            The testing set indices for that split.
        """
        if groups is not None:
            warnings.warn(
                f"The groups parameter is ignored by {self.__class__.__name__}",
                UserWarning,
                stacklevel=2,
            )
        n_samples = _check_n_samples("X", X, "(n_samples, n_features)")
        if n_samples < _MIN_SAMPLES:
            raise ValueError(
                f"X has too few samples: {self.__class__.__name__} needs at "
                f"least {_MIN_SAMPLES}; got n_samples={n_samples}."
            )
        n_swapped = _check_n_swapped(self.n_swapped, n_samples)
        rng = _check_random_state(self.random_state)
        # Draw everything now, so that errors come when split() is called.
        halves = _poor_halves(n_samples, n_swapped, rng)
        return _iter_splits(halves)


def _poor_halves(n_samples, n_swapped, rng):
    """The five (S_r, T_r) pairs, each sorted, dtype intp."""
    half = n_samples // 2
    first = rng.permutation(n_samples)
    p1, p2 = first[:half], first[half:]
    out_of_p1 = rng.choice(half, size=n_swapped, replace=False)
    into_p1 = rng.choice(n_samples - half, size=n_swapped, replace=False)
    s2, t2 = p1.copy(), p2.copy()
    s2[out_of_p1], t2[into_p1] = p2[into_p1], p1[out_of_p1]
    halves = [(p1, p2), (s2, t2)]
    for _ in range(_N_REPEATS - 2):
        order = rng.permutation(n_samples)
        halves.append((order[:half], order[half:]))
    return [
        (np.sort(s).astype(np.intp, copy=False), np.sort(t).astype(np.intp, copy=False))
        for s, t in halves
    ]


def _iter_splits(halves):
    for s, t in halves:
        yield s, t
        # copies: a caller editing one split in place leaves the other alone
        yield t.copy(), s.copy()
