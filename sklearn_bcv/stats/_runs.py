"""The correlation of the splits (or runs) a test of per-split differences
assumes, given directly instead of by the set sizes.

The tests of per-split differences across data sets
(:func:`~sklearn_bcv.stats.poisson_binomial`,
:func:`~sklearn_bcv.stats.bayesian_hierarchical`) read the correlation of
a data set's splits from its set sizes, ``rho = n_test / (n_train +
n_test)`` (Nadeau & Bengio 2003): the training sets of cross-validation
overlap. Several runs of a stochastic learner (random seeds) on a data set
are independent replicates instead, ``rho = 0``, and have no set sizes;
``rho=`` gives the correlation directly.
"""

import numpy as np

from ._across_utils import check_dataset_sizes
from ._utils import check_real

__all__ = ["check_rho", "sizes_or_rho"]


def check_rho(rho):
    """None, or a correlation in [0, 1)."""
    if rho is None:
        return None
    return check_real(
        rho,
        name="rho",
        expected="None or a correlation in [0, 1) (0: independent runs)",
        is_valid=lambda value: 0 <= value < 1,
    )


def sizes_or_rho(n_train, n_test, rho, n_datasets):
    """``(n_train, n_test)`` as the tests use them: the checked sizes, or,
    with ``rho`` given, sizes of that ratio (``n_test / n_train = rho / (1 -
    rho)``; the sizes passed are then not read)."""
    rho = check_rho(rho)
    if rho is None:
        return (
            check_dataset_sizes(n_train, n_datasets, name="n_train"),
            check_dataset_sizes(n_test, n_datasets, name="n_test"),
        )
    return np.ones(n_datasets), np.full(n_datasets, rho / (1.0 - rho))
