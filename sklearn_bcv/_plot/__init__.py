"""Plots of a comparison: contingency tables, score differences, posterior,
the significance matrix of k estimators, and, across data sets, the
critical-difference diagram, the scores per data set and the posterior
simplex of a Bayesian test;
and the path of a sequential comparison against its boundaries.

Each plot is a Display object in the scikit-learn way
(:class:`sklearn.metrics.ConfusionMatrixDisplay`): ``__init__`` only stores
the data, :meth:`plot` draws it (importing matplotlib lazily) and sets
``figure_``, ``ax_`` and the artists, and the ``from_result`` classmethod
builds the display from the Bunch returned by
:func:`~sklearn_bcv.compare_estimators` or
:func:`~sklearn_bcv.compare_predictions` (or, for the significance
matrix, :func:`~sklearn_bcv.compare_many_estimators` and
:func:`~sklearn_bcv.compare_many_predictions`; for the critical-difference
diagram, the posterior simplex and the ranking's probabilities,
:func:`~sklearn_bcv.benchmark` and :func:`~sklearn_bcv.compare_scores`).

One module per Display; ``_common`` holds what they share. Every Display
exported here can be a figure of a report (a result names it in its
figure blocks; see :mod:`sklearn_bcv._results._report`).
"""

from .._results._figures import register_displays
from ._contingency import ContingencyTableDisplay
from ._critical_difference import CriticalDifferenceDisplay
from ._dataset_scores import DatasetScoresDisplay
from ._differences import ScoreDifferencesDisplay
from ._posterior import PosteriorDisplay
from ._rank_probability import RankProbabilityDisplay
from ._sequential import SequentialDisplay
from ._significance import SignificanceMatrixDisplay
from ._simplex import PosteriorSimplexDisplay

__all__ = [
    "ContingencyTableDisplay",
    "CriticalDifferenceDisplay",
    "DatasetScoresDisplay",
    "PosteriorDisplay",
    "PosteriorSimplexDisplay",
    "RankProbabilityDisplay",
    "ScoreDifferencesDisplay",
    "SequentialDisplay",
    "SignificanceMatrixDisplay",
]

register_displays(*(globals()[name] for name in __all__))
