"""The registered statistical tests, usable on their own.

Each function takes raw inputs (contingency tables, score differences, set
sizes) and returns a :class:`~sklearn.utils.Bunch`; no fitting is involved.
The same functions are what :func:`sklearn_bcv.compare_estimators` runs.
"""

from ._bayesian import bayesian_correlated_t
from ._mcnemar import bcv_mcnemar, kfold_mcnemar, mcnemar
from ._ttests import (
    blocked_t_3x2cv,
    calibrated_f_5x2bcv,
    combined_f_5x2cv,
    combined_t_5x2cv,
    corrected_t,
    paired_t,
    paired_t_5x2cv,
)
from ._ztests import cv_ci_z, proportion_z

__all__ = []

__all__ += [
    "paired_t_5x2cv",
    "combined_f_5x2cv",
    "calibrated_f_5x2bcv",
    "combined_t_5x2cv",
    "blocked_t_3x2cv",
    "paired_t",
    "corrected_t",
    "bayesian_correlated_t",
]

__all__ += ["mcnemar", "kfold_mcnemar", "bcv_mcnemar"]
__all__ += ["proportion_z", "cv_ci_z"]
