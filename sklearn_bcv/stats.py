"""The registered statistical tests, usable on their own.

Each function takes raw inputs (contingency tables, score differences, set
sizes) and returns a :class:`~sklearn.utils.Bunch`; no fitting is involved.
The same functions are what :func:`sklearn_bcv.compare_estimators` runs.
"""

__all__ = []
