"""Multiplicity corrections of a family of p-values (FORMULAS.md, Part 2)."""

import numpy as np
from scipy.stats import false_discovery_control

__all__ = ["CORRECTIONS", "adjust_pvalues"]

#: The corrections :func:`adjust_pvalues` knows (None: no correction).
CORRECTIONS = ("holm", "bonferroni", "hochberg", "fdr_bh")


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


def adjust_pvalues(pvalues, correction="holm"):
    """Adjust a family of p-values for multiplicity.

    Parameters
    ----------
    pvalues : array-like of shape (..., n_tests)
        The raw p-values of one family of hypotheses along the last axis;
        leading dimensions hold independent families (e.g. the repetitions
        of a simulation).
    correction : {"holm", "bonferroni", "hochberg", "fdr_bh"} or None, \
            default="holm"
        ``"bonferroni"``: ``min(1, M·p)``; ``"holm"``: Holm's step-down
        method; ``"hochberg"``: Hochberg's step-up method (valid under
        independence or positive dependence); ``"fdr_bh"``: the
        Benjamini–Hochberg false discovery rate
        (:func:`scipy.stats.false_discovery_control`); None leaves them
        unchanged.

    Returns
    -------
    adjusted : ndarray of shape (..., n_tests)
        Adjusted p-values, capped at 1, in the order of ``pvalues``. Reject
        the hypotheses whose adjusted p-value is below ``alpha``.

    References
    ----------
    .. [1] S. Holm, "A simple sequentially rejective multiple test
       procedure", Scandinavian Journal of Statistics 6 (1979).
    .. [2] Y. Hochberg, "A sharper Bonferroni procedure for multiple tests of
       significance", Biometrika 75 (1988).
    .. [3] Y. Benjamini and Y. Hochberg, "Controlling the false discovery
       rate", Journal of the Royal Statistical Society B 57 (1995).

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
    """
    correction = check_correction(correction)
    p = _check_pvalues(pvalues)
    m = p.shape[-1]
    if m == 0 or correction is None:
        return p.copy()
    if correction == "bonferroni":
        return np.minimum(1.0, m * p)
    if correction == "fdr_bh":
        return np.minimum(1.0, false_discovery_control(p, axis=-1, method="bh"))
    order = np.argsort(p, axis=-1, kind="stable")
    factors = m - np.arange(m)  # M - j + 1 for the j-th smallest (1-based)
    scaled = np.minimum(1.0, factors * np.take_along_axis(p, order, axis=-1))
    if correction == "holm":  # step-down: running maximum from the smallest
        sorted_adjusted = np.maximum.accumulate(scaled, axis=-1)
    else:  # hochberg, step-up: running minimum from the largest
        sorted_adjusted = np.minimum.accumulate(scaled[..., ::-1], axis=-1)[..., ::-1]
    adjusted = np.empty_like(sorted_adjusted)
    np.put_along_axis(adjusted, order, sorted_adjusted, axis=-1)
    return adjusted


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
