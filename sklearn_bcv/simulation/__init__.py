"""Simulations of the tests' type I error and power.

:func:`simulate_loss_vectors` evaluates the registered tests on simulated 0-1
loss vectors without any learner (Dietterich's epsilon data set), vectorised
over the repetitions; :func:`simulate_comparisons` fits two estimators on
freshly generated data in every repetition through
:func:`~sklearn_bcv.compare_estimators`. Both return a
:class:`SimulationResult` with each test's rejection rate and its binomial
confidence interval (:func:`rejection_rate_interval`).
:func:`simulate_null_across` draws score tables of k estimators on N data
sets under the null hypothesis and runs the tests across data sets on them
through :func:`~sklearn_bcv.compare_scores`.
:func:`simulate_seed002` reproduces Corani & Benavoli 2015, §4 (zeroR against BN-hat on
the network C -> F, :class:`ZeroRClassifier` and :class:`BinaryNaiveBayes`):
the Poisson-binomial test against the signed-rank test.
:func:`simulate_seed001` reproduces Wang, Li & Li 2017, §3 (Tables 3 and 5): the
calibrated 5×2 BCV F-test against Alpaydın's F-test on a poorly overlapping
5×2 CV (:class:`PoorPartition5x2CV`) and the blocked 3×2 BCV t-test, with
the learners of :func:`seed001_estimators` (:class:`ThresholdedRegressor`
for the RT and LS classifiers).

Every size a simulation takes (experiments or repetitions, data sets,
estimators, splits, records, runs, Monte Carlo draws) is an integer within
documented bounds, refused before any work beyond them with a message
naming the bound: each keeps one experiment within about a minute and a
block of experiments within a few hundred megabytes on a 2-core machine
(``benchmarks/bench_size_bounds.py`` measures what they protect), and none
is below what a study of the tests needs.
"""

from ._across import simulate_null_across
from ._learners import simulate_comparisons
from ._losses import simulate_loss_vectors
from ._many import simulate_many_loss_vectors
from ._poor_partition import PoorPartition5x2CV
from ._result import SimulationResult, rejection_rate_interval
from ._seed001 import (
    Seed001Result,
    ThresholdedRegressor,
    seed001_estimators,
    simulate_seed001,
)
from ._seed002 import (
    BinaryNaiveBayes,
    Seed002Result,
    ZeroRClassifier,
    simulate_seed002,
)
from ._sequential import SequentialSimulationResult, simulate_sequential

__all__ = [
    "BinaryNaiveBayes",
    "PoorPartition5x2CV",
    "Seed001Result",
    "Seed002Result",
    "SequentialSimulationResult",
    "SimulationResult",
    "ThresholdedRegressor",
    "ZeroRClassifier",
    "rejection_rate_interval",
    "simulate_comparisons",
    "simulate_loss_vectors",
    "simulate_many_loss_vectors",
    "seed001_estimators",
    "simulate_null_across",
    "simulate_seed001",
    "simulate_seed002",
    "simulate_sequential",
]
