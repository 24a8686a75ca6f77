"""Names shared by every layer of the package.

This module sits at the bottom: it imports nothing from the package, and
every other module may import it (the statistics, the engine, the entry
points, the plots and the command line), so a name such as a task or a
design is spelled in one place.
"""

__all__ = [
    "ALTERNATIVES",
    "CLASSIFICATION",
    "DESIGNS",
    "KINDS",
    "NEEDS",
    "REGRESSION",
    "TASKS",
]

#: What is being compared: predicted class labels or continuous values.
CLASSIFICATION, REGRESSION = "classification", "regression"
TASKS = (CLASSIFICATION, REGRESSION)

#: The alternative hypotheses; "greater" is "A better than B".
ALTERNATIVES = ("two-sided", "greater", "less")

#: The designs a test may be derived for.
#:
#: ``"holdout"``  one train/test split;
#: ``"kfold"``    k >= 2 splits whose test sets partition the records;
#: ``"mx2"``      m repetitions of 2-fold CV (split 2r tests on T_r, 2r+1 on S_r);
#: ``"bcv"``      an m×2 design whose training sets are block-regularized
#:                (the test warns, through the engine, on a plain m×2 design);
#: ``"any"``      any design with at least two splits.
DESIGNS = ("holdout", "kfold", "mx2", "bcv", "any")

#: What a registered test compares: two estimators on one data set
#: (``"pair"``), k estimators on one data set (``"many"``), or estimators
#: across data sets (``"datasets"``).
KINDS = ("pair", "many", "datasets")

#: What a test of each kind may ask for; the engine computes each once.
NEEDS = {
    "pair": (
        "tables",
        "differences",
        "n_train",
        "n_test",
        "loss_differences",
        "scores_a",
        "scores_b",
    ),
    "many": ("correct", "scores", "n_train", "n_test"),
    "datasets": (
        "scores",
        "dataset_differences",
        "split_differences",
        "n_train",
        "n_test",
    ),
}
