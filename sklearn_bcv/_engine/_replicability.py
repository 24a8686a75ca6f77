"""The per-data-set p-values of every compared pair, and the replicability
count of each pair from them (:func:`sklearn_bcv.stats.replicability`).

On each data set, a pair is tested on that data set alone, one-sided each
way ("A better", "B better"):

* :func:`~sklearn_bcv.benchmark`: the two-estimator test recommended for
  the data set's design that honours a one-sided alternative (e.g.
  ``bcv_mcnemar`` on a 5×2 BCV of classifiers scored by accuracy,
  ``corrected_t`` on k-fold), on the fits of that data set;
* :func:`~sklearn_bcv.compare_scores` with per-split scores and the set
  sizes: the corrected t test of the splits (Nadeau & Bengio 2003), which
  accounts for their overlapping training sets;
* with runs (random seeds, independent): the paired t test of the runs
  (paired by run), or the corrected t test when ``n_train`` and ``n_test``
  say the runs are cross-validation splits.

A table of mean scores alone has no per-data-set p-values: no count.
"""

import numpy as np
from sklearn.utils import Bunch

from ..stats._pairwise_across import merged_split_differences
from ..stats._registry import get_entry, get_test
from ..stats._replicability import REFERENCES, check_method, replicability
from ._incomplete import IncompleteTable, table_score_scale
from ._plan import recommend

__all__ = [
    "REFERENCES",
    "check_replicability",
    "pairwise_replicability",
    "store_pvalues",
    "table_pvalues",
]

#: Why a comparison has no replicability count.
NO_PVALUES = (
    "the replicability count needs a p-value on each data set: per-split "
    "scores with n_train and n_test, runs (runs=True, or a 'run' column), or "
    "the fits of benchmark"
)


def check_replicability(replicability):
    """None (where the p-values exist), False (never) or a method."""
    if replicability is None or replicability is False:
        return replicability
    return check_method(replicability)


def _rows_with(values):
    return ~np.isnan(values).any(axis=-1)


def _t_pvalues(differences, test, sizes, scale):
    """One-sided p-values ``(greater, less)`` of the t test ``test`` on
    each row of ``differences`` (n_rows, n_splits), ties in the user's units
    made exact (the tie rule), rows grouped by their set sizes."""
    d = merged_split_differences(differences, test, scale)
    greater = np.full(d.shape[0], np.nan)
    less = np.full(d.shape[0], np.nan)
    func = get_test(test)
    if test == "paired_t":
        groups = [(np.arange(d.shape[0]), {})]
    else:
        n_train, n_test = sizes
        keys = np.stack([n_train, n_test], axis=1)
        unique, inverse = np.unique(keys, axis=0, return_inverse=True)
        groups = [
            (
                np.flatnonzero(np.ravel(inverse) == g),
                {"n_train": float(unique[g, 0]), "n_test": float(unique[g, 1])},
            )
            for g in range(unique.shape[0])
        ]
    for rows, kwargs in groups:
        greater[rows] = func(d[rows], alternative="greater", **kwargs).pvalue
        less[rows] = func(d[rows], alternative="less", **kwargs).pvalue
    return greater, less


def table_pvalues(table, pairs):
    """``(test, greater, less)``: the per-data-set one-sided p-values of
    each pair (arrays (n_pairs, n_datasets), NaN where the pair lacks the
    data set, or has fewer than 2 runs there in common), or ``(None, None,
    None)`` when the table has none (see :data:`NO_PVALUES`)."""
    if table.split_scores is None:
        return None, None, None
    runs = isinstance(table, IncompleteTable) and table.runs
    if table.n_train is None and not runs:
        return None, None, None
    test = "paired_t" if table.n_train is None else "corrected_t"
    splits = table.split_scores
    n_datasets = splits.shape[0]
    scale = table_score_scale(table)
    greater = np.full((len(pairs), n_datasets), np.nan)
    less = np.full((len(pairs), n_datasets), np.nan)
    for p, (a, b) in enumerate(pairs):
        d = splits[..., a] - splits[..., b]
        whole = _rows_with(d)
        rows = [(np.flatnonzero(whole), None)]
        # Runs missing in one cell: that data set on the runs both have.
        rows += [
            (np.array([i]), ~np.isnan(d[i]))
            for i in np.flatnonzero(~whole)
            if np.count_nonzero(~np.isnan(d[i])) >= 2
        ]
        for index, keep in rows:
            if index.size == 0:
                continue
            values = d[index] if keep is None else d[index][:, keep]
            sizes = None
            if test == "corrected_t":
                sizes = (table.n_train[index], table.n_test[index])
            own_scale = scale if np.ndim(scale) == 0 else scale[index]
            g, s = _t_pvalues(values, test, sizes, own_scale)
            greater[p, index], less[p, index] = g, s
    return test, greater, less


def store_pvalues(stores, designs, task, scoring, pairs):
    """``(tests, greater, less)`` of :func:`~sklearn_bcv.benchmark`: on each
    data set the recommended one-sided test of its design (``tests``, one
    name per data set, None where none applies), on every pair whose fits
    all succeeded there."""
    greater = np.full((len(pairs), len(stores)), np.nan)
    less = np.full((len(pairs), len(stores)), np.nan)
    tests = []
    for i, (store, design) in enumerate(zip(stores, designs)):
        name, _ = recommend(design, task, scoring, alternative="greater")
        tests.append(name)
        if name is None:
            continue
        func = get_test(name)
        needs = get_entry(name).needs
        for p, (a, b) in enumerate(pairs):
            if store.failed_among(a, b):
                continue
            given = store.pair_needs(a, b, only=needs)
            kwargs = {need: given[need] for need in needs}
            greater[p, i] = func(**kwargs, alternative="greater").pvalue
            less[p, i] = func(**kwargs, alternative="less").pvalue
    return tests, greater, less


def pairwise_replicability(
    greater,
    less,
    pairs,
    names,
    datasets,
    *,
    alpha,
    alternative,
    method,
    tests,
):
    """The ``replicability`` field of a result across data sets.

    For each pair (a, b), :func:`~sklearn_bcv.stats.replicability` of "A
    better" on the one-sided p-values ``greater[p]`` and of "B better" on
    ``less[p]`` (the data sets the pair has); with a two-sided
    ``alternative`` each direction at ``alpha / 2``, so the two claims
    together hold at ``alpha``.
    """
    k = len(names)
    two_sided = alternative == "two-sided"
    level = alpha / 2.0 if two_sided else alpha
    count = np.zeros((k, k), dtype=np.int64)
    tested = np.zeros((k, k), dtype=bool)
    identified, results = {}, {}
    for p, (a, b) in enumerate(pairs):
        rows = np.flatnonzero(~np.isnan(greater[p]))
        names_here = [datasets[i] for i in rows]
        one = Bunch(n_datasets=int(rows.size), a_better=None, b_better=None)
        sides = []
        if alternative in ("two-sided", "greater"):
            sides.append(("a_better", greater, a, b))
        if alternative in ("two-sided", "less"):
            sides.append(("b_better", less, b, a))
        for key, pvalues, better, worse in sides:
            if rows.size == 0:
                continue
            found = replicability(
                pvalues[p, rows], alpha=level, method=method, datasets=names_here
            )
            one[key] = found
            count[better, worse] = found.count
            tested[better, worse] = True
            identified[(names[better], names[worse])] = found.identified_datasets
        results[(names[a], names[b])] = one
    unique_tests = sorted({str(t) for t in tests if t is not None})
    return Bunch(
        method=method,
        alpha=alpha,
        level=level,
        alternative=alternative,
        tests=unique_tests,
        count=count,
        tested=tested,
        identified=identified,
        results=results,
    )
