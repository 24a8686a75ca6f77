"""The designs and published numbers of Yang et al.'s Table V.

Used by ``benchmarks/reproduce_table5.py``, the reproduction page and the
slow tests, so the transcription lives in one place.
"""

import numpy as np
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, RepeatedKFold, ShuffleSplit

from .._split import BlockRegularized5x2CV, BlockRegularizedMx2CV

__all__ = [
    "TABLE5_COLUMNS",
    "TABLE5_ROWS",
    "designs_and_tests",
    "format_text_table",
    "simple_learners",
    "table5_designs",
]

#: The data-set columns of Table V, in the paper's order.
TABLE5_COLUMNS = ("epsilon", "exp6", "simple", "letter", "mnist")

#: Rows of Table V (Yang et al. 2023, "Type I errors of different algorithm comparison
#: methods over synthetic and real-world data sets"): the paper's label, the
#: registered test, the design key of :func:`table5_designs` and the published
#: type I errors per column of ``TABLE5_COLUMNS``. ``None`` marks a row that
#: is not in the paper.
TABLE5_ROWS = (
    ("RHO paired t-test", "paired_t", "rho_2/3", (0.478, 0.272, 0.312, 0.385, 0.250)),
    (
        "K-fold CV paired t-test",
        "paired_t",
        "10-fold",
        (0.043, 0.076, 0.109, 0.142, 0.090),
    ),
    (
        "5×2 CV paired t-test",
        "paired_t_5x2cv",
        "5x2",
        (0.034, 0.050, 0.084, 0.061, 0.080),
    ),
    (
        "Corrected RHO t-test",
        "corrected_t",
        "rho_9/10",
        (0.053, 0.040, 0.047, 0.075, 0.000),
    ),
    (
        "Corrected 10×10 CV t-test",
        "corrected_t",
        "10x10",
        (0.035, 0.040, 0.063, 0.082, 0.080),
    ),
    (
        "Combined 5×2 CV t-test",
        "combined_t_5x2cv",
        "5x2",
        (0.291, 0.156, 0.214, 0.236, 0.150),
    ),
    (
        "Blocked 3×2 CV t-test",
        "blocked_t_3x2cv",
        "3x2bcv",
        (0.087, 0.005, 0.015, 0.013, 0.020),
    ),
    (
        "Combined 5×2 CV F-test",
        "combined_f_5x2cv",
        "5x2",
        (0.028, 0.028, 0.060, 0.057, 0.010),
    ),
    (
        "Calibrated 5×2 BCV F-test",
        "calibrated_f_5x2bcv",
        "5x2bcv",
        (0.035, 0.025, 0.055, 0.042, 0.040),
    ),
    (
        "Proportional test",
        "proportion_z",
        "holdout_2/3",
        (0.056, 0.016, 0.014, 0.054, 0.020),
    ),
    ("K-fold CV-CI Z-test", "cv_ci_z", "10-fold", (0.046, 0.062, 0.106, 0.080, 0.090)),
    (
        "Conventional HO McNemar's test",
        "mcnemar",
        "holdout_2/3",
        (0.031, 0.037, 0.029, 0.062, 0.060),
    ),
    (
        "Naïve K-fold CV McNemar's test",
        "kfold_mcnemar",
        "10-fold",
        (0.000, 0.006, 0.020, 0.039, 0.020),
    ),
    (
        "5×2 BCV McNemar's test",
        "bcv_mcnemar",
        "5x2bcv",
        (0.025, 0.006, 0.005, 0.015, 0.010),
    ),
    (
        "Bayesian correlated t (not in the paper)",
        "bayesian_correlated_t",
        "10x10",
        None,
    ),
)


def table5_designs(random_state=None):
    """The splitters of Table V's tests (Yang et al. 2023, §5, list of tests).

    Parameters
    ----------
    random_state : int or None, default=None
        Seed of every splitter (the simulations reseed them per repetition).

    Returns
    -------
    designs : dict
        Design key -> splitter: repeated hold-out with 15 splits and
        ``n1 = 2n/3`` (``"rho_2/3"``) or ``n1 = 9n/10`` (``"rho_9/10"``), one
        hold-out split with ``n1 = 2n/3``, shuffled 10-fold CV, 10×10 CV,
        random 5×2 CV, block-regularized 3×2 and 5×2 CV.
    """
    return {
        "rho_2/3": ShuffleSplit(
            n_splits=15, test_size=1 / 3, random_state=random_state
        ),
        "rho_9/10": ShuffleSplit(n_splits=15, test_size=0.1, random_state=random_state),
        "holdout_2/3": ShuffleSplit(
            n_splits=1, test_size=1 / 3, random_state=random_state
        ),
        "10-fold": KFold(n_splits=10, shuffle=True, random_state=random_state),
        "10x10": RepeatedKFold(n_splits=10, n_repeats=10, random_state=random_state),
        "5x2": RepeatedKFold(n_splits=2, n_repeats=5, random_state=random_state),
        "3x2bcv": BlockRegularizedMx2CV(n_repeats=3, random_state=random_state),
        "5x2bcv": BlockRegularized5x2CV(random_state=random_state),
    }


def designs_and_tests():
    """Design key -> list of the registered tests Table V runs on it."""
    grouped = {}
    for _, test, design, _ in TABLE5_ROWS:
        grouped.setdefault(design, [])
        if test not in grouped[design]:
            grouped[design].append(test)
    return grouped


def simple_learners():
    """The two learners of the simple data set: logistic regression, majority.

    The paper fits R's ``glm`` (binomial family): unpenalised maximum
    likelihood by Newton's method (IRLS). ``C=np.inf`` removes
    scikit-learn's default L2 penalty and the Newton-Cholesky solver is
    Newton's method; on one predictor it is also about five times faster
    than the default lbfgs. The majority classifier predicts the training
    set's most frequent class (ties: the smaller label).

    Returns
    -------
    logistic_regression, majority : estimators
        Unfitted ``LogisticRegression`` and ``DummyClassifier``.
    """
    return (
        LogisticRegression(C=np.inf, solver="newton-cholesky"),
        DummyClassifier(strategy="most_frequent"),
    )


def format_text_table(header, rows, *, rst=False):
    """Left-aligned columns of strings; an rst simple table when ``rst``.

    Used by the reproduction scripts to print our rates beside the paper's.

    Examples
    --------
    >>> from sklearn_bcv.simulation._paper import format_text_table
    >>> print(format_text_table(["test", "rate"], [["bcv_mcnemar", "0.024"]]))
    test         rate
    -----------  -----
    bcv_mcnemar  0.024
    """
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)
    out = [rule] if rst else []
    out.append("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    out.append(rule if rst else "  ".join("-" * w for w in widths))
    out += ["  ".join(c.ljust(w) for c, w in zip(cells, widths)) for cells in rows]
    if rst:
        out.append(rule)
    return "\n".join(line.rstrip() for line in out)
