"""What a scikit-learn search recorded: the candidates' split scores.

A fitted ``GridSearchCV`` (or ``RandomizedSearchCV``, or a halving search)
keeps in ``cv_results_`` every candidate's parameters, its score on each
split (``split{i}_test_{metric}``), its mean and its rank. :func:`read_cv_results`
reads them for one metric into a :class:`SearchScores`; :func:`candidate_names`
names the candidates by the parameters that vary among them. Both the
comparison of a search's candidates and the refit rule read a search here.
"""

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "SearchScores",
    "candidate_names",
    "metrics_of",
    "read_cv_results",
]


@dataclass
class SearchScores:
    """The split scores of a search's candidates on one metric.

    Attributes
    ----------
    metric : str
        The metric (``"score"`` for a single-metric search).
    scores : ndarray of shape (n_splits, n_candidates)
        ``split{i}_test_{metric}``, NaN where a fit failed.
    params : list of dict
        Every candidate's parameters.
    rank : ndarray of shape (n_candidates,)
        ``rank_test_{metric}`` (1 is the best).
    eligible : list of int
        The candidates that can be compared: with a finite score on every
        split (and, for a halving search, of its last iteration), by rank
        then index — the best first.
    excluded : dict
        Candidate index -> why it cannot be compared.
    halving : bool
        Whether the search was a successive-halving one.
    """

    metric: str
    scores: np.ndarray
    params: list
    rank: np.ndarray
    eligible: list
    excluded: dict = field(default_factory=dict)
    halving: bool = False

    @property
    def n_splits(self):
        return self.scores.shape[0]

    @property
    def best(self):
        """The index of the best eligible candidate (rank 1 on the metric)."""
        return self.eligible[0]


def metrics_of(cv_results):
    """The metrics a ``cv_results_`` holds (``"score"`` for one metric)."""
    prefix = "rank_test_"
    return sorted(
        key[len(prefix) :]
        for key in cv_results
        if isinstance(key, str) and key.startswith(prefix)
    )


def _metric(cv_results, metric, refit, argument):
    metrics = metrics_of(cv_results)
    if not metrics:
        raise ValueError(
            f"{argument} has no rank_test_<metric> entries: it is not the "
            "cv_results_ of a scikit-learn search."
        )
    if metric is None:
        if len(metrics) == 1:
            return metrics[0]
        if isinstance(refit, str) and refit in metrics:
            return refit
        raise ValueError(
            f"the search scored {len(metrics)} metrics ({metrics}); pass metric= "
            "to say which to compare."
        )
    if not isinstance(metric, str):
        raise ValueError(f"metric must be a str among {metrics}; got {metric!r}.")
    name = metric.removeprefix("test_")
    if name not in metrics:
        raise ValueError(f"metric must be one of {metrics}; got {metric!r}.")
    return name


def read_cv_results(cv_results, *, metric=None, refit=None, argument="cv_results_"):
    """Read the split scores of ``metric`` off a search's ``cv_results_``.

    Parameters
    ----------
    cv_results : dict
        A search's ``cv_results_`` (or the dict a refit callable gets).
    metric : str, default=None
        The metric of a multi-metric search (default: ``refit`` when it
        names one; a single-metric search has ``"score"``).
    refit : object, default=None
        The search's ``refit``.
    argument : str
        How messages name ``cv_results``.

    Returns
    -------
    scores : SearchScores
    """
    if not hasattr(cv_results, "keys") or "params" not in cv_results:
        raise ValueError(
            f"{argument} must be a search's cv_results_ (a dict with 'params' and "
            f"'split<i>_test_<metric>' entries); got {type(cv_results).__name__}."
        )
    name = _metric(cv_results, metric, refit, argument)
    columns = []
    while f"split{len(columns)}_test_{name}" in cv_results:
        columns.append(cv_results[f"split{len(columns)}_test_{name}"])
    params = list(cv_results["params"])
    if len(columns) < 2:
        raise ValueError(
            f"{argument} holds {len(columns)} split score(s) per candidate "
            f"(split<i>_test_{name}); a comparison needs at least 2 splits."
        )
    try:
        scores = np.array(
            [np.ma.filled(np.ma.asarray(c, dtype=float), np.nan) for c in columns]
        )
    except (TypeError, ValueError):
        raise ValueError(
            f"{argument}: the split{{i}}_test_{name} entries must hold numbers."
        ) from None
    if scores.ndim != 2 or scores.shape[1] != len(params):
        raise ValueError(
            f"{argument}: every split{{i}}_test_{name} entry must hold one score "
            f"per candidate ({len(params)})."
        )
    rank = np.asarray(cv_results[f"rank_test_{name}"], dtype=float)
    candidates = range(len(params))
    excluded = {}
    halving = "iter" in cv_results
    if halving:
        iteration = np.asarray(cv_results["iter"])
        last = iteration.max()
        candidates = [j for j in candidates if iteration[j] == last]
    finite = np.all(np.isfinite(scores), axis=0)
    for j in candidates:
        if not finite[j]:
            splits = np.flatnonzero(~np.isfinite(scores[:, j])).tolist()
            excluded[j] = f"no finite score on split(s) {splits} (a failed fit)"
    eligible = sorted((j for j in candidates if finite[j]), key=lambda j: (rank[j], j))
    return SearchScores(name, scores, params, rank, eligible, excluded, halving)


# --------------------------------------------------------------------------
# Names


def _value_text(value):
    """A parameter value as a name shows it: strings bare, numbers short,
    estimators by their class."""
    if isinstance(value, str):
        return value
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
        return repr(value) if not math.isfinite(value) else f"{value:.6g}"
    if hasattr(value, "get_params"):
        return f"{type(value).__name__}()"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _same(a, b):
    try:
        equal = a == b
        return bool(equal) if np.ndim(equal) == 0 else bool(np.all(equal))
    except Exception:
        return a is b


def candidate_names(params, labels=None):
    """Names of candidates from their parameters: those that vary among them.

    ``"C=0.1, kernel=linear"``: the parameters (sorted by name) whose value
    is not the same in every candidate, or that some candidates lack (a
    list of grids), each without the steps of a pipeline
    (``svc__C`` is ``C``) where that leaves them apart. Names that would
    repeat (values that print alike) get
    their label after ``#`` (``labels``: one per candidate, e.g. its index
    in ``cv_results_``; default its position).

    Examples
    --------
    >>> from sklearn_bcv._engine._cv_results import candidate_names
    >>> candidate_names([{"svc__kernel": "linear", "svc__C": 1.0},
    ...                  {"svc__kernel": "rbf", "svc__C": 1.0, "svc__gamma": 0.1}])
    ['kernel=linear', 'gamma=0.1, kernel=rbf']
    """
    keys = sorted({key for p in params for key in p})
    varying = [
        key
        for key in keys
        if any(key not in p for p in params)
        or not all(_same(p[key], params[0][key]) for p in params[1:])
    ]
    short = {key: key.rsplit("__", 1)[-1] for key in varying}
    if len(set(short.values())) < len(short):
        short = {key: key for key in varying}
    labels = list(range(len(params))) if labels is None else list(labels)
    names = []
    for label, p in zip(labels, params):
        shown = [f"{short[key]}={_value_text(p[key])}" for key in varying if key in p]
        names.append(", ".join(shown) if shown else f"candidate {label}")
    counts = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return [
        name if counts[name] == 1 else f"{name} #{label}"
        for label, name in zip(labels, names)
    ]
