"""sklearn_bcv: block-regularized m×2 cross-validation and sound tests for
comparing learning algorithms, in the scikit-learn way."""

from . import stats  # noqa: F401  (importing registers the built-in tests)
from ._benchmark import BenchmarkResult, benchmark, compare_scores
from ._compare import ComparisonResult, compare_estimators, compare_predictions
from ._many import (
    ManyComparisonResult,
    compare_many_estimators,
    compare_many_predictions,
)
from ._plot import (
    ContingencyTableDisplay,
    CriticalDifferenceDisplay,
    DatasetScoresDisplay,
    PosteriorDisplay,
    PosteriorSimplexDisplay,
    RankProbabilityDisplay,
    ScoreDifferencesDisplay,
    SequentialDisplay,
    SignificanceMatrixDisplay,
)
from ._results._letters import compact_letters
from ._results._sequential import SequentialResult
from ._search import compare_cross_validate, compare_search
from ._sequential import sequential_compare
from ._split import (
    BlockRegularized5x2CV,
    BlockRegularizedMx2CV,
    StratifiedBlockRegularized5x2CV,
    StratifiedBlockRegularizedMx2CV,
)
from ._split_scores import compare_split_scores
from ._store import StudyStore
from ._version import __version__
from .stats import (
    available_tests,
    get_test,
    mcnemar_table,
    register_test,
    unregister_test,
)

__all__ = [
    "BenchmarkResult",
    "ComparisonResult",
    "ManyComparisonResult",
    "compare_estimators",
    "compare_predictions",
    "compare_many_estimators",
    "compare_many_predictions",
    "benchmark",
    "compare_scores",
    "compare_split_scores",
    "compare_search",
    "compare_cross_validate",
    "compact_letters",
    "SequentialResult",
    "sequential_compare",
    "StudyStore",
    "BlockRegularized5x2CV",
    "BlockRegularizedMx2CV",
    "StratifiedBlockRegularized5x2CV",
    "StratifiedBlockRegularizedMx2CV",
    "ContingencyTableDisplay",
    "CriticalDifferenceDisplay",
    "DatasetScoresDisplay",
    "PosteriorDisplay",
    "PosteriorSimplexDisplay",
    "RankProbabilityDisplay",
    "ScoreDifferencesDisplay",
    "SequentialDisplay",
    "SignificanceMatrixDisplay",
    "available_tests",
    "get_test",
    "mcnemar_table",
    "register_test",
    "unregister_test",
    "stats",
    "__version__",
]
