"""Generators of the papers' synthetic data sets.

Each function draws fresh data from ``random_state`` (see
:func:`sklearn.utils.check_random_state`) and validates its parameters at the
public boundary, as :mod:`sklearn.datasets` generators do.
"""

from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from .._compat import Interval, validate_params

__all__ = [
    "TWO_GAUSSIANS_CASES",
    "make_epsilon_losses",
    "make_exp6",
    "make_simple",
    "make_two_gaussians",
]

#: The eight setups of Wang, Li & Li 2017 (Table 3): class 0 is N((0, 0), I) in all of
#: them; class 1 is N(mean_1, cov_1 · I). Use as
#: ``make_two_gaussians(**TWO_GAUSSIANS_CASES[3])``.
TWO_GAUSSIANS_CASES = {
    1: {"mean_1": (-1.5, -1.5), "cov_1": 1 / 2},
    2: {"mean_1": (-0.5, -0.5), "cov_1": 1 / 6},
    3: {"mean_1": (1.0, 1.0), "cov_1": 1 / 6},
    4: {"mean_1": (1.0, 1.0), "cov_1": 1 / 3},
    5: {"mean_1": (1.0, 1.0), "cov_1": 1 / 2},
    6: {"mean_1": (1.0, 1.0), "cov_1": 7 / 3},
    7: {"mean_1": (2.0, 2.0), "cov_1": 1 / 6},
    8: {"mean_1": (2.0, 2.0), "cov_1": 1 / 2},
}


@validate_params(
    {
        "n_samples": [Interval(Integral, 2, None, closed="left")],
        "epsilon": [Interval(Real, 0, 2 / 3, closed="both")],
        "n_datasets": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_epsilon_losses(
    n_samples=300, *, epsilon=0.1, n_datasets=None, random_state=None
):
    """Generate the 0-1 loss vectors of the epsilon data set (no learners).

    Dietterich's epsilon data set, as defined in Yang et al. 2023, §5.2: the losses
    of two algorithms A and B on ``n_samples`` records are drawn directly,
    independently for every record and algorithm:

    * records ``i < n_samples // 2`` (the first half): A's loss is
      Bernoulli(``epsilon / 2``), B's loss Bernoulli(``3 epsilon / 2``);
    * the other records: A's loss is Bernoulli(``3 epsilon / 2``), B's loss
      Bernoulli(``epsilon / 2``).

    Both algorithms have error rate ``epsilon`` on the whole data set (for
    an even ``n_samples``), so the null hypothesis of equal error rates holds
    and any rejection is a type I error. The loss of a record does not depend
    on the training set: every split of the records reads the same vectors.

    Parameters
    ----------
    n_samples : int, default=300
        Number of records (the paper uses 300). With an odd number the first
        half has ``n_samples // 2`` records.
    epsilon : float, default=0.1
        Common error rate of A and B, in ``[0, 2/3]`` so that ``3 epsilon / 2``
        is a probability (the paper uses 0.1).
    n_datasets : int, default=None
        ``None`` draws one data set (1-D vectors); an int draws that many
        independent data sets at once (2-D arrays, one row each), for
        simulations.
    random_state : int, RandomState instance or None, default=None
        Determines the random draws. Pass an int for reproducible output.

    Returns
    -------
    loss_a : ndarray of shape (n_samples,) or (n_datasets, n_samples)
        A's 0-1 losses (1 = A misclassifies the record), dtype int8.
    loss_b : ndarray of the same shape
        B's 0-1 losses, drawn independently of A's.

    See Also
    --------
    sklearn_bcv.simulation.simulate_loss_vectors : Type I error of the tests
        on loss vectors like these.

    Notes
    -----
    The paper does not correlate A's and B's losses: for each record they are
    independent Bernoulli draws, so the expected table counts are
    ``n01 = n10 = n (ε/2 (1 - 3ε/2) + 3ε/2 (1 - ε/2)) / 2`` and
    ``n00 = n · 3ε²/4`` (A and B both wrong). Correctness as sklearn_bcv's
    tables count it is ``1 - loss``.

    References
    ----------
    .. [1] T. G. Dietterich, "Approximate statistical tests for comparing
       supervised classification learning algorithms", Neural Computation
       10(7):1895-1923, 1998.
    .. [2] Yang et al. 2023 (the 5×2 BCV McNemar's test paper), §5.2, "Synthetic data
       set 1: Epsilon data set".

    Examples
    --------
    >>> from sklearn_bcv.datasets import make_epsilon_losses
    >>> loss_a, loss_b = make_epsilon_losses(300, epsilon=0.1, random_state=0)
    >>> loss_a.shape, loss_b.shape
    ((300,), (300,))
    >>> loss_a, loss_b = make_epsilon_losses(300, n_datasets=2000, random_state=0)
    >>> loss_a.shape
    (2000, 300)
    >>> round(float(loss_a.mean()), 2), round(float(loss_b.mean()), 2)
    (0.1, 0.1)
    """
    rng = check_random_state(random_state)
    n_first = n_samples // 2
    # Per record: (P(A wrong), P(B wrong)) of its half.
    p_a = np.where(np.arange(n_samples) < n_first, epsilon / 2, 3 * epsilon / 2)
    p_b = np.where(np.arange(n_samples) < n_first, 3 * epsilon / 2, epsilon / 2)
    shape = (n_samples,) if n_datasets is None else (n_datasets, n_samples)
    loss_a = (rng.random_sample(shape) < p_a).astype(np.int8)
    loss_b = (rng.random_sample(shape) < p_b).astype(np.int8)
    return loss_a, loss_b


# The three decision boundaries of EXP6 (Yang et al. 2023, eq. 17).
def _exp6_f1(x):
    return x**2 - 4 * x + 6


def _exp6_f2(x):
    return 4 * np.sin(x / 2) + 8


def _exp6_f3(x):
    return -(x**2 - 108 * x + 236) / 25


def _exp6_labels(x1, x2):
    """Class indices 0..5 (Y1..Y6) of Yang et al. 2023, eq. 16, first matching case."""
    above_1 = x2 - _exp6_f1(x1) >= 0
    above_2 = x2 - _exp6_f2(x1) >= 0
    above_3 = x2 - _exp6_f3(x1) >= 0
    conditions = [
        above_1 & above_2,  # Y1
        ~above_1 & above_2 & above_3,  # Y2
        above_1 & ~above_2,  # Y3
        ~above_1 & ~above_2 & above_3,  # Y4
        above_2 & ~above_3,  # Y5
        ~above_2 & ~above_3,  # Y6
    ]
    return np.select(conditions, np.arange(6)).astype(np.int64)


_EXP6_RESOLUTION = 10  # grid points per unit: resolution 0.1
_EXP6_SIDE = 15 * _EXP6_RESOLUTION + 1  # 151 points in [0, 15]


@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_exp6(n_samples=300, *, random_state=None):
    """Generate the EXP6 six-class problem on its 0.1 grid.

    The two predictors are drawn uniformly (with replacement) from the grid
    of resolution 0.1 over ``[0, 15] × [0, 15]`` (151 × 151 = 22,801
    points) and the class follows from three boundaries (Yang et al. 2023, eq. 16-17):
    with ``f1(x) = x² - 4x + 6``, ``f2(x) = 4 sin(x / 2) + 8`` and
    ``f3(x) = -(x² - 108x + 236) / 25``,

    ======  ================================================================
    class   condition (``gk = x2 - fk(x1)``)
    ======  ================================================================
    0 (Y1)  g1 ≥ 0 and g2 ≥ 0
    1 (Y2)  g1 < 0 and g2 ≥ 0 and g3 ≥ 0
    2 (Y3)  g1 ≥ 0 and g2 < 0
    3 (Y4)  g1 < 0 and g2 < 0 and g3 ≥ 0
    4 (Y5)  g2 ≥ 0 and g3 < 0
    5 (Y6)  g2 < 0 and g3 < 0
    ======  ================================================================

    The labels are deterministic functions of the predictors (no label
    noise).

    Parameters
    ----------
    n_samples : int or None, default=300
        Number of records (the paper uses 300). ``None`` returns the whole
        grid, every point once (22,801 records, row-major in ``x1`` then
        ``x2``): the "large EXP6 data set" the paper evaluates true error
        rates on.
    random_state : int, RandomState instance or None, default=None
        Determines the random draws. Pass an int for reproducible output.
        Ignored when ``n_samples`` is None.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The predictors ``(x1, x2)``, multiples of 0.1 in ``[0, 15]``.
    y : ndarray of shape (n_samples,)
        Class indices 0 to 5 (the paper's Y1 to Y6).

    See Also
    --------
    make_simple : The paper's one-predictor binary data set.

    Notes
    -----
    Eq. 16 as printed overlaps where ``g1 ≥ 0`` and ``g3 < 0`` (a sliver with
    ``2.93 < x1 < 5.07``, where ``f1 < f3``): such a point satisfies the case
    of Y1 or Y3 and that of Y5 or Y6. The cases are read in order and the
    first that holds wins, so the sliver belongs to Y1 / Y3. Every grid point
    then has exactly one class and all six classes occur.

    References
    ----------
    .. [1] Yang et al. 2023 (the 5×2 BCV McNemar's test paper), §5.2, "Synthetic data
       set 2: EXP6 data set", after E. B. Kong and T. G. Dietterich (1995) and
       T. G. Dietterich (1998).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv.datasets import make_exp6
    >>> X, y = make_exp6(300, random_state=0)
    >>> X.shape, y.shape
    ((300, 2), (300,))
    >>> X_grid, y_grid = make_exp6(None)
    >>> X_grid.shape
    (22801, 2)
    >>> np.bincount(y_grid).tolist()
    [2250, 67, 3284, 819, 7794, 8587]
    """
    if n_samples is None:
        k1, k2 = np.divmod(np.arange(_EXP6_SIDE**2), _EXP6_SIDE)
    else:
        rng = check_random_state(random_state)
        k1 = rng.randint(0, _EXP6_SIDE, size=n_samples)
        k2 = rng.randint(0, _EXP6_SIDE, size=n_samples)
    # Integer grid indices divided once: exact multiples of 0.1 as floats.
    X = np.column_stack([k1, k2]) / _EXP6_RESOLUTION
    return X, _exp6_labels(X[:, 0], X[:, 1])


@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "delta": [Interval(Real, None, None, closed="neither")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_simple(n_samples=1000, *, delta=0.0, random_state=None):
    """Generate the "simple" binary data set: one Gaussian predictor.

    Yang et al. 2023, §5.2, "Synthetic data set 3": the class is Bernoulli(0.5), drawn
    independently for every record, and the single predictor is
    ``x | y = 0 ~ N(0, 1)``, ``x | y = 1 ~ N(delta, 1)``. With ``delta = 0``
    the classes are indistinguishable, so logistic regression and the
    majority classifier have the same error rate (type I error); the paper
    lets ``delta`` grow from 0 to 1 for the power curves (Figure 4).

    Parameters
    ----------
    n_samples : int, default=1000
        Number of records (the paper uses 1,000).
    delta : float, default=0.0
        Mean of the predictor in class 1.
    random_state : int, RandomState instance or None, default=None
        Determines the random draws. Pass an int for reproducible output.

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
        The predictor.
    y : ndarray of shape (n_samples,)
        The class, 0 or 1.

    See Also
    --------
    make_two_gaussians : Two bivariate Gaussian classes (Wang, Li & Li 2017).

    References
    ----------
    .. [1] Yang et al. 2023 (the 5×2 BCV McNemar's test paper), §5.2, "Synthetic data
       set 3: Simple data set".

    Examples
    --------
    >>> from sklearn_bcv.datasets import make_simple
    >>> X, y = make_simple(20000, delta=1.0, random_state=0)
    >>> X.shape
    (20000, 1)
    >>> round(float(X[y == 1].mean() - X[y == 0].mean()), 1)
    1.0
    >>> round(float(y.mean()), 1)
    0.5
    """
    rng = check_random_state(random_state)
    y = (rng.random_sample(n_samples) < 0.5).astype(np.int64)
    X = (rng.standard_normal(n_samples) + delta * y).reshape(-1, 1)
    return X, y


def _check_gaussian(mean, cov, name):
    mean = np.asarray(mean, dtype=np.float64)
    if mean.ndim != 1 or mean.size == 0 or not np.all(np.isfinite(mean)):
        raise ValueError(
            f"mean_{name} must be a non-empty 1-D sequence of finite numbers; "
            f"got {mean!r}."
        )
    cov = np.asarray(cov, dtype=np.float64)
    if cov.ndim == 0:
        cov = cov * np.eye(mean.size)
    if cov.shape != (mean.size, mean.size) or not np.all(np.isfinite(cov)):
        raise ValueError(
            f"cov_{name} must be a positive number (a multiple of the identity) or "
            f"a finite ({mean.size}, {mean.size}) matrix; got {cov!r}."
        )
    if not np.allclose(cov, cov.T) or np.linalg.eigvalsh(cov).min() <= 0:
        raise ValueError(
            f"cov_{name} must be symmetric positive definite; got {cov!r}."
        )
    return mean, cov


@validate_params(
    {
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "mean_0": ["array-like"],
        "cov_0": ["array-like", Real],
        "mean_1": ["array-like"],
        "cov_1": ["array-like", Real],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_two_gaussians(
    n_samples=200,
    *,
    mean_0=(0.0, 0.0),
    cov_0=1.0,
    mean_1=(1.0, 1.0),
    cov_1=1.0,
    random_state=None,
):
    """Generate two Gaussian classes of equal prior (Wang, Li & Li 2017, §3.1).

    The class is Bernoulli(0.5), drawn independently for every record, and
    ``X | y = c ~ N(mean_c, cov_c)``. Wang, Li & Li 2017 keeps class 0 at
    ``N((0, 0), I)`` and varies class 1 over eight setups, available as
    :data:`TWO_GAUSSIANS_CASES` (``make_two_gaussians(**TWO_GAUSSIANS_CASES[k])``
    for case ``k`` of its Table 3), with ``n = 200`` records.

    Parameters
    ----------
    n_samples : int, default=200
        Number of records (Wang, Li & Li 2017 uses 200).
    mean_0, mean_1 : array-like of shape (n_features,), default=(0, 0) and (1, 1)
        Class means; both of the same length.
    cov_0, cov_1 : float or array-like of shape (n_features, n_features), \
default=1.0
        Class covariances: a positive number ``s`` means ``s`` times the
        identity; a matrix must be symmetric positive definite.
    random_state : int, RandomState instance or None, default=None
        Determines the random draws. Pass an int for reproducible output.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        The predictors.
    y : ndarray of shape (n_samples,)
        The class, 0 or 1.

    See Also
    --------
    make_simple : The one-predictor version of Yang et al. 2023.

    References
    ----------
    .. [1] Wang, Li & Li 2017 (the calibrated 5×2 BCV F-test paper), §3.1 and Table 3.

    Examples
    --------
    >>> from sklearn_bcv.datasets import TWO_GAUSSIANS_CASES, make_two_gaussians
    >>> TWO_GAUSSIANS_CASES[3]
    {'mean_1': (1.0, 1.0), 'cov_1': 0.16666666666666666}
    >>> X, y = make_two_gaussians(200, **TWO_GAUSSIANS_CASES[3], random_state=0)
    >>> X.shape, y.shape
    ((200, 2), (200,))
    """
    mean_0, cov_0 = _check_gaussian(mean_0, cov_0, "0")
    mean_1, cov_1 = _check_gaussian(mean_1, cov_1, "1")
    if mean_0.size != mean_1.size:
        raise ValueError(
            "mean_0 and mean_1 must have the same length; got "
            f"{mean_0.size} and {mean_1.size}."
        )
    rng = check_random_state(random_state)
    y = (rng.random_sample(n_samples) < 0.5).astype(np.int64)
    # Standard normals coloured by each class's Cholesky factor.
    z = rng.standard_normal((n_samples, mean_0.size))
    X = np.where(
        y[:, np.newaxis] == 0,
        mean_0 + z @ np.linalg.cholesky(cov_0).T,
        mean_1 + z @ np.linalg.cholesky(cov_1).T,
    )
    return X, y
