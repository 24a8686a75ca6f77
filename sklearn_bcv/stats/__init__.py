"""The registered statistical tests, usable on their own.

This package knows nothing of estimators: it holds the registry of tests
and the tests themselves. Each function takes raw inputs (contingency
tables, score differences, set sizes, which records each estimator gets
right) and returns a :class:`~sklearn.utils.Bunch` with at least
``statistic``, ``pvalue``, ``df``, ``reject``, ``alternative`` and ``test``;
no fitting is involved. The same functions are what
:func:`sklearn_bcv.compare_estimators` and
:func:`sklearn_bcv.compare_many_estimators` run.

Conventions shared by every test:

* ``table[i, j]`` counts the records on which A's correctness is ``i`` and
  B's is ``j`` (0 = wrong), and ``differences = score_a - score_b``; signed
  statistics are positive when A is better, and ``alternative="greater"``
  means "A is better than B".
* Leading batch dimensions (``tables`` of shape ``(..., n_splits, 2, 2)``,
  ``differences`` of shape ``(..., n_splits)``) evaluate many comparisons in
  one call; the result fields are then arrays.
* Degenerate input never gives NaN: a 0/0 statistic is 0 with p-value 1 for
  every alternative, a non-zero numerator over a zero denominator is
  ``±inf`` with p-value 0 on the side of the infinity.
* Extreme input never does either: any finite value is accepted, from
  subnormals to the largest double. The statistics are invariant to the
  scale of their input and are computed on it divided by a power of two
  (exact in floating point), so nothing overflows when squared or summed;
  what is reported in score units (an interval, a posterior location) is
  ``±inf`` only beyond the largest double. Counts must be below 2**63. NaN
  and infinities are refused with a ``ValueError`` naming the argument.
* Ties in your units: values the tests across data sets derive from the
  scores (differences, aligned values, ranges, means of splits, sums with
  a rope) are equal when they differ by at most ``2**-46`` times the
  largest ``|score|`` they come from, and 0 (or the rope) within that of
  it, so every statistic is the same in fractions, percents or any column
  order (``doc/user_guide.rst``, "Ties in your units").
"""

from ._across import (
    aligned_posthoc,
    bayesian_sign,
    bayesian_signed_rank,
    bonferroni_dunn,
    exact_posthoc,
    friedman,
    friedman_aligned,
    friedman_posthoc,
    holm,
    nemenyi,
    poisson_binomial,
    quade,
    quade_posthoc,
    sign,
    wilcoxon,
)
from ._aso import (
    almost_stochastic_order,  # noqa: F401 (registered as "aso")
    aso,
)
from ._bayesian import bayesian_correlated_t
from ._bayesian_bcv import bayesian_bcv_mcnemar
from ._corrections import adjust_pvalues  # noqa: F401 (not a registered test)
from ._effect import effect_size  # noqa: F401 (not a registered test)
from ._hierarchical import bayesian_hierarchical
from ._mcnemar import (
    bcv_mcnemar,
    kfold_mcnemar,
    mcnemar,
    mcnemar_table,  # noqa: F401 (re-exported by sklearn_bcv)
)
from ._omnibus import bcv_cochran_q, cochran_q, looney_f
from ._parametric_across import paired_t_datasets, rm_anova, tukey_rm
from ._plackett_luce import plackett_luce
from ._registry import (  # noqa: F401 (re-exported by sklearn_bcv)
    available_tests,
    get_test,
    register_test,
    unregister_test,
)
from ._replicability import replicability  # noqa: F401 (not a registered test)
from ._sequential import group_sequential_boundaries  # noqa: F401 (not a test)
from ._skillings_mack import durbin, skillings_mack, skillings_mack_posthoc
from ._ttests import (
    bcv_t,
    blocked_t_3x2cv,
    calibrated_f_5x2bcv,
    combined_f_5x2cv,
    combined_t_5x2cv,
    corrected_t,
    paired_t,
    paired_t_5x2cv,
)
from ._ztests import cv_ci_z, proportion_z

__all__ = [
    # McNemar family (contingency tables)
    "mcnemar",
    "kfold_mcnemar",
    "bcv_mcnemar",
    "bayesian_bcv_mcnemar",
    # m×2 designs (score differences)
    "paired_t_5x2cv",
    "combined_f_5x2cv",
    "calibrated_f_5x2bcv",
    "combined_t_5x2cv",
    "blocked_t_3x2cv",
    "bcv_t",
    # any design (score differences)
    "paired_t",
    "corrected_t",
    "bayesian_correlated_t",
    # z tests
    "proportion_z",
    "cv_ci_z",
    # k estimators on one data set (which records each gets right)
    "cochran_q",
    "looney_f",
    "bcv_cochran_q",
    # k estimators across data sets (score tables)
    "friedman",
    "friedman_aligned",
    "quade",
    "nemenyi",
    "bonferroni_dunn",
    "holm",
    "friedman_posthoc",
    "exact_posthoc",
    "aligned_posthoc",
    "quade_posthoc",
    "rm_anova",
    "tukey_rm",
    # k estimators across data sets on a table with holes (NaN cells)
    "skillings_mack",
    "durbin",
    "skillings_mack_posthoc",
    # a Bayesian ranking of k estimators across data sets
    "plackett_luce",
    # two estimators across data sets (one pair at a time)
    "wilcoxon",
    "sign",
    "poisson_binomial",
    "bayesian_signed_rank",
    "bayesian_sign",
    "bayesian_hierarchical",
    "paired_t_datasets",
    # score samples of two algorithms (e.g. one score per random seed)
    "aso",
]
