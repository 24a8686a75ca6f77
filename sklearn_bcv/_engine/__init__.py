"""The comparison engine (private): it knows estimators, not printing.

Layers, each importing only those below it:

* ``_design``: which design a list of splits is (hold-out, k-fold, m×2,
  block-regularized m×2);
* ``_validation``: checks of targets, predictions and estimators;
* ``_scoring``: how a split is scored, through scikit-learn's scorers;
* ``_fit``: one flat joblib pool of (data set, split, estimator) tasks;
* ``_needs``: the store of per-split predictions and the needs of the
  tests, for a pair of estimators or for all k;
* ``_plan``: which registered tests run, from their declarations, and which
  one is recommended;
* ``_prepare``: one data set's comparison up to its store of predictions
  (checks, splits and design; fits; or predictions made elsewhere).

The entry points (``compare_estimators``, ``compare_many_estimators``, ...)
sit above it, the result objects and their text above them.
"""
