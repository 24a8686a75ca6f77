"""Model selection with sound tests: refit rules for scikit-learn's searches.

:func:`simplest_not_worse` makes the ``refit=`` of a ``GridSearchCV`` or
``RandomizedSearchCV`` choose the simplest candidate that the search's own
splits do not show to be worse than the best, with a test whose variance
accounts for the overlap of the training sets.
"""

from ._refit import SimplestNotWorse, simplest_not_worse

__all__ = ["SimplestNotWorse", "simplest_not_worse"]
