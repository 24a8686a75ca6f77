"""0-1 loss vectors of k algorithms: the epsilon data set generalised."""

from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from .._compat import Interval, validate_params

__all__ = ["make_many_epsilon_losses"]


def _check_delta(delta, n_estimators, epsilon):
    """``delta`` as an array (n_estimators,); probabilities must stay in [0, 1]."""
    arr = np.asarray(delta, dtype=np.float64)
    if arr.ndim == 0:
        arr = np.concatenate([[arr], np.zeros(n_estimators - 1)])
    if arr.shape != (n_estimators,) or not np.all(np.isfinite(arr)):
        raise ValueError(
            f"delta must be a number or an array of shape (n_estimators,) = "
            f"({n_estimators},) of finite numbers; got {delta!r}."
        )
    if np.any(epsilon / 2 + arr < 0) or np.any(3 * epsilon / 2 + arr > 1):
        raise ValueError(
            "delta must keep every error probability in [0, 1]: "
            f"-epsilon/2 <= delta <= 1 - 3 epsilon/2 = {1 - 1.5 * epsilon:g} "
            f"(epsilon={epsilon:g}); got {delta!r}."
        )
    return arr


@validate_params(
    {
        "n_samples": [Interval(Integral, 2, None, closed="left")],
        "n_estimators": [Interval(Integral, 2, None, closed="left")],
        "epsilon": [Interval(Real, 0, 2 / 3, closed="both")],
        "delta": ["array-like", Real],
        "n_datasets": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_many_epsilon_losses(
    n_samples=300,
    n_estimators=3,
    *,
    epsilon=0.1,
    delta=0.0,
    n_datasets=None,
    random_state=None,
):
    """Generate 0-1 loss vectors of k algorithms of equal error rate (no learners).

    Dietterich's epsilon data set (Yang et al. 2023, §5.2, see
    :func:`make_epsilon_losses`) generalised to ``n_estimators`` algorithms:
    every algorithm errs with probability ``epsilon / 2`` on half of the
    records and ``3 epsilon / 2`` on the other half, independently for every
    record and algorithm, and the halves rotate between the algorithms. Put
    the records on a circle: algorithm j's "easy" half is the ``n_samples //
    2`` records that start at record ``(j · n_samples) // n_estimators``
    (wrapping around). Every algorithm then has the same expected number of
    errors — the null hypothesis of equal error rates holds — while their
    error patterns differ, and any two algorithms share a different number of
    easy records depending on how far apart their halves start.

    ``delta`` raises error probabilities, for power studies: algorithm j errs
    with probability ``epsilon / 2 + delta[j]`` and ``3 epsilon / 2 +
    delta[j]`` on its two halves, so its error rate is ``epsilon + delta[j]``
    (for an even ``n_samples``).

    Parameters
    ----------
    n_samples : int, default=300
        Number of records (Yang et al. 2023 uses 300).
    n_estimators : int, default=3
        Number of algorithms, L >= 2.
    epsilon : float, default=0.1
        Common error rate under the null hypothesis, in ``[0, 2/3]`` so that
        ``3 epsilon / 2`` is a probability.
    delta : float or array-like of shape (n_estimators,), default=0.0
        Increase of each algorithm's error probabilities; a number raises the
        first algorithm's only (the others keep ``epsilon``). Every
        probability must stay in [0, 1].
    n_datasets : int, default=None
        ``None`` draws one data set (an array of shape (n_samples,
        n_estimators)); an int draws that many independent data sets at once,
        for simulations.
    random_state : int, RandomState instance or None, default=None
        Determines the random draws. Pass an int for reproducible output.

    Returns
    -------
    losses : ndarray of shape (n_samples, n_estimators) or \
(n_datasets, n_samples, n_estimators), dtype int8
        ``losses[..., i, j]`` is 1 when algorithm j misclassifies record i.

    See Also
    --------
    make_epsilon_losses : The two-algorithm original.
    sklearn_bcv.simulation.simulate_many_loss_vectors : Type I error and
        power of the omnibus tests on loss vectors like these.

    Notes
    -----
    For two algorithms and an even ``n_samples`` the halves are those of
    :func:`make_epsilon_losses` (A easy on the first half, B on the second)
    and the draws are the same: ``make_many_epsilon_losses(n, 2,
    random_state=s)`` stacks the two vectors of ``make_epsilon_losses(n,
    random_state=s)``.

    As in the original, the loss of a record does not depend on the training
    set: every split of a data set reads the same losses, so the simulation
    measures only the test-set part of the variance (Yang et al.'s point on the
    hold-out tests). Cochran's Q refers its statistic to chi-squared(L - 1)
    as if every pair of algorithms disagreed equally often; here two
    algorithms' easy halves overlap on a number of records that depends on
    how far apart they start. For L <= 3 every pair is equally far apart (the
    rotation makes the pairs alike), for L >= 4 they are not, a departure the
    simulations include on purpose.

    References
    ----------
    .. [1] T. G. Dietterich, "Approximate statistical tests for comparing
       supervised classification learning algorithms", Neural Computation
       10(7):1895-1923, 1998.
    .. [2] Yang et al. 2023 (the 5×2 BCV McNemar's test paper), §5.2, "Synthetic data
       set 1: Epsilon data set".

    Examples
    --------
    >>> from sklearn_bcv.datasets import make_many_epsilon_losses
    >>> losses = make_many_epsilon_losses(300, 5, n_datasets=2000, random_state=0)
    >>> losses.shape
    (2000, 300, 5)
    >>> losses.mean(axis=(0, 1)).round(2).tolist()
    [0.1, 0.1, 0.1, 0.1, 0.1]
    >>> losses = make_many_epsilon_losses(
    ...     300, 3, delta=[0.05, 0, 0], n_datasets=2000, random_state=0)
    >>> losses.mean(axis=(0, 1)).round(2).tolist()
    [0.15, 0.1, 0.1]
    """
    delta = _check_delta(delta, n_estimators, epsilon)
    rng = check_random_state(random_state)
    records = np.arange(n_samples)
    starts = (np.arange(n_estimators) * n_samples) // n_estimators
    easy = (records[:, np.newaxis] - starts) % n_samples < n_samples // 2
    # Per record and algorithm: the probability of an error.
    probability = np.where(easy, epsilon / 2, 3 * epsilon / 2) + delta
    shape = (n_samples,) if n_datasets is None else (n_datasets, n_samples)
    # One uniform draw per algorithm in turn, as make_epsilon_losses does.
    losses = [rng.random_sample(shape) < probability[:, j] for j in range(n_estimators)]
    return np.stack(losses, axis=-1).astype(np.int8)
