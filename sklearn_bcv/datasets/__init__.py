"""Synthetic data sets of the papers behind sklearn_bcv.

The generators reproduce the simulated data of the 5×2 BCV McNemar paper
(Yang et al. 2023, §5.2: the epsilon loss vectors, EXP6 and the "simple"
data set) and of the calibrated 5×2 BCV F-test paper (Wang, Li & Li 2017, §3.1: two
Gaussian classes), in the style of :mod:`sklearn.datasets` ``make_*``
functions.
"""

from ._many_losses import make_many_epsilon_losses
from ._samples_generator import (
    TWO_GAUSSIANS_CASES,
    make_epsilon_losses,
    make_exp6,
    make_simple,
    make_two_gaussians,
)

__all__ = [
    "TWO_GAUSSIANS_CASES",
    "make_epsilon_losses",
    "make_exp6",
    "make_many_epsilon_losses",
    "make_simple",
    "make_two_gaussians",
]
