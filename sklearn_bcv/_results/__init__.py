"""The result objects of the comparisons, how they are built, and their text.

:class:`ComparisonResult` (two estimators),
:class:`ManyComparisonResult` (k estimators on one data set) and
:class:`BenchmarkResult` (estimators across data sets) are
:class:`~sklearn.utils.Bunch` objects. One function builds each, whether
fits failed or not, from the engine's store of per-split predictions; the
verdict is a field of the result (``result.verdict``), computed once, which
the printed summary, the plots and the command line all read.
"""

from ._datasets import BenchmarkResult, build_datasets_result
from ._many import ManyComparisonResult, build_many_result
from ._pair import ComparisonResult, build_pair_result
from ._text import estimator_name

__all__ = [
    "BenchmarkResult",
    "ComparisonResult",
    "ManyComparisonResult",
    "build_datasets_result",
    "build_many_result",
    "build_pair_result",
    "estimator_name",
]
