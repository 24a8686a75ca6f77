"""Multiplicity corrections of a family of p-values (the user guide's formulas).

One function, :func:`adjust_pvalues`, serves every entry point: the post
hoc families across data sets, the pairwise tests of
:func:`~sklearn_bcv.compare_many_estimators`,
:func:`~sklearn_bcv.benchmark` and :func:`~sklearn_bcv.compare_scores`,
and the simulations.
"""

from functools import cache, lru_cache
from itertools import combinations
from math import comb

import numpy as np
from scipy.stats import false_discovery_control

from ._utils import check_alpha

__all__ = ["CORRECTIONS", "PAIRS_ONLY", "adjust_pvalues"]

#: The corrections :func:`adjust_pvalues` knows (None: no correction).
CORRECTIONS = (
    "holm",
    "bonferroni",
    "hochberg",
    "fdr_bh",
    "hommel",
    "finner",
    "li",
    "holland",
    "rom",
    "shaffer",
    "bergmann",
)
#: The corrections that use the logic of all pairwise comparisons of k
#: estimators (they need the whole family of k(k - 1)/2 pairs).
PAIRS_ONLY = ("shaffer", "bergmann")
#: Bergmann–Hommel enumerates the Bell(k) partitions of the k estimators:
#: 21,147 for k = 9, 115,975 for k = 10.
MAX_BERGMANN_K = 9


def check_correction(correction):
    """Validate a correction name (None allowed); return it."""
    if correction is not None and (
        not isinstance(correction, str) or correction not in CORRECTIONS
    ):
        raise ValueError(
            f"correction must be None or one of {list(CORRECTIONS)}; got "
            f"{correction!r}."
        )
    return correction


def check_family(correction, control):
    """Refuse, before any fit, a correction for all pairs with a control."""
    correction = check_correction(correction)
    if correction in PAIRS_ONLY and control is not None:
        raise ValueError(
            f"correction={correction!r} uses the logic of all pairwise "
            "comparisons; against a control (k - 1 comparisons) use holm, "
            "hochberg, hommel, finner, li, holland, rom or bonferroni."
        )
    return correction


def adjust_pvalues(pvalues, correction="holm", *, alpha=0.05, pairs=None):
    """Adjust a family of p-values for multiplicity.

    Parameters
    ----------
    pvalues : array-like of shape (..., n_tests)
        The raw p-values of one family of hypotheses along the last axis;
        leading dimensions hold independent families (e.g. the repetitions
        of a simulation).
    correction : str or None, default="holm"
        One of ``"bonferroni"``, ``"holm"``, ``"hochberg"``, ``"hommel"``,
        ``"finner"``, ``"li"``, ``"holland"``, ``"rom"``, ``"fdr_bh"``,
        ``"shaffer"`` and ``"bergmann"`` (see Notes); None leaves the
        p-values unchanged.
    alpha : float, default=0.05
        The level Rom's critical constants are computed for (``"rom"``
        only: its adjusted p-values give Rom's decisions at this level).
    pairs : sequence of (int, int), default=None
        ``"shaffer"`` and ``"bergmann"`` only: the two estimators each
        p-value compares; together they must be all the k(k - 1)/2 pairs of
        k estimators. None means the order of
        ``itertools.combinations(range(k), 2)`` (that of
        :func:`numpy.triu_indices`).

    Returns
    -------
    adjusted : ndarray of shape (..., n_tests)
        Adjusted p-values, capped at 1, in the order of ``pvalues``. Reject
        the hypotheses whose adjusted p-value is below ``alpha``.

    Notes
    -----
    With the M p-values sorted, ``p_(1) <= ... <= p_(M)``:

    * ``"bonferroni"``: ``min(1, M·p)``.
    * ``"holm"`` (step-down): ``max_{j <= i} (M - j + 1)·p_(j)``.
    * ``"hochberg"`` (step-up; valid under independence or positive
      dependence): ``min_{j >= i} (M - j + 1)·p_(j)``.
    * ``"hommel"``: Hommel's (1988) closed Simes procedure, as
      ``statsmodels.stats.multitest.multipletests(method="hommel")``.
    * ``"finner"`` (step-down): ``max_{j <= i} 1 - (1 - p_(j))^(M/j)``;
      its critical values approach Benjamini–Hochberg's, and on all pairs
      with some true differences its family-wise error on the equal pairs
      exceeded alpha in our simulations (``doc/reproduction.rst``).
    * ``"holland"`` (Holland and Copenhaver 1987, step-down):
      ``max_{j <= i} 1 - (1 - p_(j))^(M - j + 1)``.
    * ``"li"`` (Li 2008, two steps): ``p_(i) / (p_(i) + 1 - p_(M))``, and
      ``p_(M)`` itself. On the correlated statistics of all pairs across
      data sets its family-wise error exceeds alpha (up to 0.061 at 0.05,
      ``doc/reproduction.rst``).
    * ``"rom"`` (Rom 1990, step-up): ``min_{j >= i} (alpha / c_j)·p_(j)``,
      where ``c_j`` is Rom's critical value for ``p_(j)`` at level
      ``alpha`` (``c_M = alpha``, ``c_(M-1) = alpha/2`` and his recursion
      below). Rom's procedure is step-up: scmamp's ``adjustRom`` takes the
      running maximum instead, which gives a step-down procedure with
      Rom's constants (never more rejections than Rom's, often fewer).
    * ``"fdr_bh"``: the Benjamini–Hochberg false discovery rate
      (:func:`scipy.stats.false_discovery_control`); it does not control
      the family-wise error.
    * ``"shaffer"`` (Shaffer 1986, static; all pairs): ``max_{j <= i}
      t_j·p_(j)``, ``t_j`` the largest number of hypotheses that can be
      true once ``j - 1`` are false (for k = 5: 10, 6, 6, 6, 6, 4, 4, 3,
      2, 1).
    * ``"bergmann"`` (Bergmann and Hommel 1988; all pairs, k <= 9): for
      pair h, ``max |I|·min_{h' in I} p_h'`` over the exhaustive sets I
      that hold h (the pairs within the blocks of a partition of the k
      estimators).

    Rom's constants: ``c_(M-i+1) = (sum_{j=1}^{i-1} alpha^j - sum_{j=1}^{i-2}
    C(i, j)·c_(M-j)^(i-j)) / i`` for i = 3, ..., M.

    References
    ----------
    .. [1] S. Holm, "A simple sequentially rejective multiple test
       procedure", Scandinavian Journal of Statistics 6 (1979).
    .. [2] Y. Hochberg, "A sharper Bonferroni procedure for multiple tests of
       significance", Biometrika 75 (1988).
    .. [3] G. Hommel, "A stagewise rejective multiple test procedure based
       on a modified Bonferroni test", Biometrika 75 (1988).
    .. [4] H. Finner, "On a monotonicity problem in step-down multiple test
       procedures", Journal of the American Statistical Association 88
       (1993).
    .. [5] B. S. Holland, M. D. Copenhaver, "An improved sequentially
       rejective Bonferroni test procedure", Biometrics 43 (1987).
    .. [6] J. Li, "A two-step rejection procedure for testing multiple
       hypotheses", Journal of Statistical Planning and Inference 138
       (2008).
    .. [7] D. M. Rom, "A sequentially rejective test procedure based on a
       modified Bonferroni inequality", Biometrika 77 (1990).
    .. [8] J. P. Shaffer, "Modified sequentially rejective multiple test
       procedures", Journal of the American Statistical Association 81
       (1986).
    .. [9] B. Bergmann, G. Hommel, "Improvements of general multiple test
       procedures for redundant systems of hypotheses", Multiple
       Hypotheses Testing (1988).
    .. [10] Y. Benjamini and Y. Hochberg, "Controlling the false discovery
       rate", Journal of the Royal Statistical Society B 57 (1995).
    .. [11] S. García, F. Herrera, "An extension on 'Statistical comparisons
       of classifiers over multiple data sets' for all pairwise
       comparisons", Journal of Machine Learning Research 9 (2008).

    Examples
    --------
    >>> from sklearn_bcv.stats import adjust_pvalues
    >>> adjust_pvalues([0.01, 0.04, 0.03], "holm").round(4).tolist()
    [0.03, 0.06, 0.06]
    >>> adjust_pvalues([0.01, 0.04, 0.03], "hochberg").round(4).tolist()
    [0.03, 0.04, 0.04]
    >>> adjust_pvalues([0.01, 0.04, 0.03], "bonferroni").round(4).tolist()
    [0.03, 0.12, 0.09]
    >>> adjust_pvalues([0.01, 0.04, 0.03], "fdr_bh").round(4).tolist()
    [0.03, 0.04, 0.04]
    >>> adjust_pvalues([0.01, 0.04, 0.03], "finner").round(4).tolist()
    [0.0297, 0.0447, 0.0447]

    The three pairs of three estimators: once one pair differs, at most one
    other can be equal, so Shaffer multiplies the second p-value by 1, not
    by Holm's 2.

    >>> adjust_pvalues([0.01, 0.04, 0.03], "shaffer").round(4).tolist()
    [0.03, 0.04, 0.03]
    """
    correction = check_correction(correction)
    p = _check_pvalues(pvalues)
    m = p.shape[-1]
    if m == 0 or correction is None:
        return p.copy()
    if correction in PAIRS_ONLY:
        order_of_pairs = _pair_order(m, pairs)
    if correction == "bonferroni":
        return np.minimum(1.0, m * p)
    if correction == "fdr_bh":
        return np.minimum(1.0, false_discovery_control(p, axis=-1, method="bh"))
    if correction == "bergmann":
        return _bergmann(p, order_of_pairs)
    if correction == "rom":
        alpha = check_alpha(alpha)
    order = np.argsort(p, axis=-1, kind="stable")
    ordered = np.take_along_axis(p, order, axis=-1)
    sorted_adjusted = _SORTED[correction](ordered, alpha)
    adjusted = np.empty_like(sorted_adjusted)
    np.put_along_axis(adjusted, order, np.minimum(1.0, sorted_adjusted), axis=-1)
    return adjusted


# --------------------------------------------------------------------------
# The sorted forms: p_(1) <= ... <= p_(M) along the last axis
# --------------------------------------------------------------------------


def _step_down(scaled):
    return np.maximum.accumulate(np.minimum(1.0, scaled), axis=-1)


def _step_up(scaled):
    scaled = np.minimum(1.0, scaled)
    return np.minimum.accumulate(scaled[..., ::-1], axis=-1)[..., ::-1]


def _holm(p, alpha):
    return _step_down((p.shape[-1] - np.arange(p.shape[-1])) * p)


def _hochberg(p, alpha):
    return _step_up((p.shape[-1] - np.arange(p.shape[-1])) * p)


def _sidak(p, exponents):
    """``1 - (1 - p)^exponents``, accurate for small p; 1 at p = 1."""
    with np.errstate(divide="ignore"):  # log1p(-1) = -inf gives 1, as it should
        return -np.expm1(exponents * np.log1p(-p))


def _finner(p, alpha):
    m = p.shape[-1]
    return _step_down(_sidak(p, m / np.arange(1, m + 1)))


def _holland(p, alpha):
    m = p.shape[-1]
    return _step_down(_sidak(p, m - np.arange(m)))


def _li(p, alpha):
    last = p[..., -1:]
    # p / (p + 1 - p_(M)); 0/0 only when p = 0 and p_(M) = 1: then 0.
    denominator = p + (1.0 - last)
    out = np.divide(p, denominator, out=np.zeros_like(p), where=denominator > 0)
    out[..., -1] = last[..., 0]
    return out


def _hommel(p, alpha):
    """Hommel's adjusted p-values (the algorithm of R's ``p.adjust``)."""
    m = p.shape[-1]
    if m == 1:
        return p.copy()
    i = np.arange(1, m + 1)
    q = np.repeat(np.min(m * p / i, axis=-1, keepdims=True), m, axis=-1)
    adjusted = q.copy()
    for size in range(m - 1, 1, -1):
        head = m - size + 1  # the hypotheses 1..head
        q1 = np.min(size * p[..., head:] / np.arange(2, size + 1), axis=-1)
        q = q.copy()
        q[..., :head] = np.minimum(size * p[..., :head], q1[..., None])
        q[..., head:] = q[..., head - 1 : head]
        adjusted = np.maximum(adjusted, q)
    return np.maximum(adjusted, p)


@lru_cache(maxsize=64)
def rom_constants(m, alpha):
    """Rom's critical values ``c_1 <= ... <= c_M`` for the sorted p-values
    at level ``alpha`` (``c_M = alpha``, ``c_(M-1) = alpha/2``)."""
    # by_rank[i] is the critical value of the i-th largest p-value.
    by_rank = [0.0, alpha, alpha / 2.0]
    for i in range(3, m + 1):
        powers = sum(alpha**j for j in range(1, i))
        terms = sum(comb(i, j) * by_rank[j + 1] ** (i - j) for j in range(1, i - 1))
        by_rank.append((powers - terms) / i)
    return np.array(by_rank[1 : m + 1][::-1])


def _rom(p, alpha):
    m = p.shape[-1]
    if m == 1:
        return p.copy()
    return _step_up(alpha / rom_constants(m, float(alpha)) * p)


def _shaffer(p, alpha):
    k = _k_of(p.shape[-1])
    return _step_down(shaffer_multipliers(k) * p)


_SORTED = {
    "holm": _holm,
    "hochberg": _hochberg,
    "hommel": _hommel,
    "finner": _finner,
    "holland": _holland,
    "li": _li,
    "rom": _rom,
    "shaffer": _shaffer,
}


# --------------------------------------------------------------------------
# The logic of all pairwise comparisons: Shaffer and Bergmann–Hommel
# --------------------------------------------------------------------------


@cache
def _true_counts(k):
    """Shaffer's S(k): the numbers of pairwise hypotheses of k estimators
    that can be true together (the pairs within the blocks of a partition)."""
    if k <= 1:
        return frozenset({0})
    out = set()
    for j in range(1, k + 1):  # the block holding the first estimator
        out.update(comb(j, 2) + x for x in _true_counts(k - j))
    return frozenset(out)


def shaffer_multipliers(k):
    """Shaffer's ``t_1, ..., t_M`` (M = k(k - 1)/2): the largest number of
    true hypotheses once ``j - 1`` are false.

    Examples
    --------
    >>> from sklearn_bcv.stats._corrections import shaffer_multipliers
    >>> shaffer_multipliers(5).tolist()
    [10, 6, 6, 6, 6, 4, 4, 3, 2, 1]
    """
    counts = np.array(sorted(_true_counts(k)))
    m = comb(k, 2)
    limits = m - np.arange(m)  # M - j + 1
    return counts[np.searchsorted(counts, limits, side="right") - 1]


@cache
def exhaustive_sets(k):
    """The exhaustive sets of the k(k - 1)/2 pairs of k estimators, as a
    boolean array (n_sets, M) in ``combinations(range(k), 2)`` order: the
    pairs within the blocks of each partition of the k estimators into
    blocks, the partition into singletons (the empty set) left out."""
    # Restricted growth strings: labels[:, i] <= max(labels[:, :i]) + 1.
    labels = np.zeros((1, 1), dtype=np.int8)
    for _ in range(1, k):
        top = labels.max(axis=1) + 2  # choices 0 .. max + 1
        rows = np.repeat(np.arange(len(labels)), top)
        choice = np.arange(len(rows)) - np.repeat(np.cumsum(top) - top, top)
        labels = np.column_stack([labels[rows], choice.astype(np.int8)])
    a, b = np.array(list(combinations(range(k), 2)), dtype=np.intp).T.reshape(2, -1)
    sets = labels[:, a] == labels[:, b]
    sets = sets[sets.any(axis=1)]
    sets.setflags(write=False)
    return sets


def _bergmann(p, order_of_pairs):
    k = _k_of(p.shape[-1])
    if k > MAX_BERGMANN_K:
        raise ValueError(
            f"correction='bergmann' enumerates every partition of the k "
            f"estimators and is limited to k <= {MAX_BERGMANN_K}; got k = {k}. "
            "Use correction='shaffer' (Shaffer's static procedure) instead."
        )
    if k < 2:
        return p.copy()
    sets = exhaustive_sets(k)[:, order_of_pairs]
    sizes = sets.sum(axis=1)
    flat = p.reshape(-1, p.shape[-1])
    out = np.empty_like(flat)
    for row, family in enumerate(flat):
        value = sizes * np.where(sets, family, np.inf).min(axis=1)
        out[row] = np.where(sets, value[:, None], 0.0).max(axis=0)
    return np.minimum(1.0, out).reshape(p.shape)


def _k_of(m):
    """k with k(k - 1)/2 = m (m a triangular number)."""
    k = int(round((1 + np.sqrt(1 + 8 * m)) / 2))
    return k


def _pair_order(m, pairs):
    """Column of ``exhaustive_sets`` for each p-value; checks ``pairs``."""
    k = _k_of(m)
    if comb(k, 2) != m:
        raise ValueError(
            "correction='shaffer' and 'bergmann' adjust the family of all "
            "k(k - 1)/2 pairs of k estimators; got a family of "
            f"{m} p-value{'s' if m != 1 else ''}, which is no such number. They "
            "do not apply to comparisons against a control: use holm, "
            "hochberg, hommel, finner, li, holland or rom there."
        )
    canonical = list(combinations(range(k), 2))
    if pairs is None:
        return np.arange(m)
    try:
        given = [tuple(sorted((int(a), int(b)))) for a, b in pairs]
    except (TypeError, ValueError):
        given = None
    if given is None or sorted(given) != canonical:
        raise ValueError(
            f"pairs must list each of the {m} pairs (a, b) of {k} estimators "
            f"once, one per p-value; got {pairs!r}. shaffer and bergmann do "
            "not apply to comparisons against a control."
        )
    index = {pair: i for i, pair in enumerate(canonical)}
    return np.array([index[pair] for pair in given], dtype=np.intp)


def _check_pvalues(pvalues):
    """``pvalues`` as a float array of probabilities, at least 1-D."""
    message = (
        "pvalues must be a 1-D array (or an array of families along its last "
        "axis) of probabilities in [0, 1]; got {!r}."
    )
    try:
        p = np.asarray(pvalues)
    except ValueError:  # ragged nested sequences
        raise ValueError(message.format(pvalues)) from None
    if p.dtype.kind not in "iuf" or p.ndim == 0:
        raise ValueError(message.format(pvalues))
    p = p.astype(np.float64)
    if not np.all((p >= 0) & (p <= 1)):  # NaN fails too
        raise ValueError(message.format(pvalues))
    return p
