"""The figures of the HTML report of a result (see
:func:`sklearn_bcv._results._report.render_report`): one per result type,
drawn by the result's Display."""

import numpy as np

from .._results._report import register_figures
from ._critical_difference import CriticalDifferenceDisplay
from ._differences import ScoreDifferencesDisplay
from ._sequential import SequentialDisplay
from ._significance import SignificanceMatrixDisplay

__all__ = ["report_figures"]


@register_figures
def report_figures(result):
    """``[(caption, draw), ...]``: the figures of ``result``'s report.

    A sequential comparison: its path against the boundaries; across data
    sets: the critical difference diagram of the first post hoc family; k
    estimators: the significance matrix of the first pairwise test; two
    estimators: the score differences.
    """
    if "boundaries" in result:
        return [
            (
                "The look statistic against the boundaries",
                lambda ax: SequentialDisplay.from_result(result, ax=ax),
            )
        ]
    if "datasets" in result:
        posthoc = [
            name
            for name, test in result.tests.items()
            if np.ndim(test.get("reject")) == 2
        ]
        if not posthoc:
            return []
        name = posthoc[0]
        return [
            (
                f"Critical difference diagram ({name})",
                lambda ax: CriticalDifferenceDisplay.from_result(
                    result, test=name, ax=ax
                ),
            )
        ]
    if "names" in result:
        if not result.pairwise:
            return []
        return [
            (
                "Pairwise significance",
                lambda ax: SignificanceMatrixDisplay.from_result(result, ax=ax),
            )
        ]
    return [
        (
            "Score differences (A - B) per split",
            lambda ax: ScoreDifferencesDisplay.from_result(result, ax=ax),
        )
    ]
