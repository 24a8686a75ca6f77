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
from ..stats._replicability import (
    REFERENCES,
    check_method,
    one_result,
    replicability_rows,
)
from ._incomplete import IncompleteTable
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


#: The most difference values one batched call holds (8 MiB of floats).
_BATCH_VALUES = 2**20


def _size_groups(table, rows):
    """``[(data set indices, {n_train, n_test}), ...]``: the data sets of
    ``rows`` grouped by their set sizes (none for the paired t test)."""
    if table.n_train is None:
        return [(rows, {})]
    keys = np.stack([table.n_train[rows], table.n_test[rows]], axis=1)
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    return [
        (
            rows[np.ravel(inverse) == g],
            {"n_train": float(unique[g, 0]), "n_test": float(unique[g, 1])},
        )
        for g in range(unique.shape[0])
    ]


def _one_sided(func, d, kwargs):
    """``(greater, less)`` p-values of the t test ``func`` on ``d``."""
    return (
        func(d, alternative="greater", **kwargs).pvalue,
        func(d, alternative="less", **kwargs).pvalue,
    )


def table_pvalues(table, pairs):
    """``(test, greater, less)``: the per-data-set one-sided p-values of
    each pair (arrays (n_pairs, n_datasets), NaN where the pair lacks the
    data set, or has fewer than 2 runs there in common), or ``(None, None,
    None)`` when the table has none (see :data:`NO_PVALUES`).

    The pairs are tested in batches (a leading axis of pairs), their ties
    in the user's units made exact pair by pair (the tie rule)."""
    if table.split_scores is None or table.split_scores.shape[1] < 2:
        return None, None, None
    runs = isinstance(table, IncompleteTable) and table.runs
    if table.n_train is None and not runs:
        return None, None, None
    test = "paired_t" if table.n_train is None else "corrected_t"
    func = get_test(test)
    splits = table.split_scores  # (N, S, k)
    n_datasets, n_splits = splits.shape[:2]
    greater = np.full((len(pairs), n_datasets), np.nan)
    less = np.full((len(pairs), n_datasets), np.nan)
    if not pairs:
        return test, greater, less
    by_estimator = np.moveaxis(splits, 2, 0)  # (k, N, S)
    groups = _size_groups(table, np.arange(n_datasets))
    chunk = max(1, _BATCH_VALUES // (n_datasets * n_splits))
    for start in range(0, len(pairs), chunk):
        part = np.array(pairs[start : start + chunk], dtype=np.intp)
        d = by_estimator[part[:, 0]] - by_estimator[part[:, 1]]  # (P, N, S)
        # Each pair's own scale per data set: the tie rule never reads
        # another estimator's scores.
        scale = np.nan_to_num(table._pair_scale(part[:, 0], part[:, 1]))
        missing = np.isnan(d).any(axis=2)
        merged = merged_split_differences(
            np.where(missing[..., None], 0.0, d), test, scale, batch=True
        )
        for rows, kwargs in groups:
            g, s = _one_sided(func, merged[:, rows, :], kwargs)
            greater[start : start + len(part), rows] = g
            less[start : start + len(part), rows] = s
        greater[start : start + len(part)][missing] = np.nan
        less[start : start + len(part)][missing] = np.nan
        if runs:  # a run missing in one cell: that data set on the runs both have
            for p, i in zip(*np.nonzero(missing)):
                keep = ~np.isnan(d[p, i])
                if np.count_nonzero(keep) < 2:
                    continue
                kwargs = next(kw for rows, kw in groups if i in rows)
                own = scale[p, [i]]
                values = merged_split_differences(d[p, i][None, keep], test, own)
                g, s = _one_sided(func, values, kwargs)
                greater[start + p, i], less[start + p, i] = float(g[0]), float(s[0])
    return test, greater, less


def _store_needs(store, pairs, needs):
    """The needs of a two-estimator test for every pair of ``pairs`` at once
    (a leading axis of pairs), from one data set's fits; None when one of
    them has no batched form (``loss_differences``)."""
    rows, cols = (np.array(side, dtype=np.intp) for side in zip(*pairs))
    out = {}
    for need in needs:
        if need in ("n_train", "n_test"):
            out[need] = getattr(store, need)
        elif need == "differences":
            out[need] = (store.scores[:, rows] - store.scores[:, cols]).T
        elif need in ("scores_a", "scores_b"):
            out[need] = store.scores[:, rows if need == "scores_a" else cols].T
        elif need == "tables":
            tables = np.empty((len(pairs), store.n_splits, 2, 2), dtype=np.int64)
            for s, correct in enumerate(store.correct):
                # One product per split: both right (n11); the other cells
                # from each estimator's count of right answers.
                right = correct.astype(np.int64)
                both = (right.T @ right)[rows, cols]
                total = right.sum(axis=0)
                tables[:, s, 1, 1] = both
                tables[:, s, 1, 0] = total[rows] - both  # A right, B wrong
                tables[:, s, 0, 1] = total[cols] - both  # A wrong, B right
                tables[:, s, 0, 0] = right.shape[0] - total[rows] - total[cols] + both
            out[need] = tables
        else:
            return None
    return out


def _one_per_pair(result, n_pairs):
    """The p-values of a call on ``n_pairs`` pairs at once: one per pair, or
    a TypeError (the test did not take the pairs' axis: each is then tested
    on its own; a single value is never copied to every pair)."""
    pvalue = np.asarray(result.pvalue, dtype=float)
    if pvalue.shape != (n_pairs,):
        raise TypeError("not one p-value per pair")
    return pvalue


def store_pvalues(stores, designs, task, scoring, pairs):
    """``(tests, greater, less)`` of :func:`~sklearn_bcv.benchmark`: on each
    data set the recommended one-sided test of its design (``tests``, one
    name per data set, None where none applies), on every pair whose fits
    all succeeded there; the pairs in batches when the test takes a leading
    axis of comparisons (the built-in ones do), else one by one."""
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
        failed = store.failed.any(axis=0)  # per estimator
        index = [p for p, (a, b) in enumerate(pairs) if not (failed[a] or failed[b])]
        chunk = max(1, _BATCH_VALUES // max(1, 4 * store.n_splits))
        for start in range(0, len(index), chunk):
            part = index[start : start + chunk]
            batched = _store_needs(store, [pairs[p] for p in part], needs)
            try:
                if batched is None:
                    raise TypeError("no batched form")
                g = _one_per_pair(func(**batched, alternative="greater"), len(part))
                s = _one_per_pair(func(**batched, alternative="less"), len(part))
            except (TypeError, ValueError):  # one pair at a time
                g, s = [], []
                for p in part:
                    given = store.pair_needs(*pairs[p], only=needs)
                    kwargs = {need: given[need] for need in needs}
                    g.append(func(**kwargs, alternative="greater").pvalue)
                    s.append(func(**kwargs, alternative="less").pvalue)
            greater[part, i], less[part, i] = g, s
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
    sides = []
    if alternative in ("two-sided", "greater"):
        sides.append(("a_better", greater, False))
    if alternative in ("two-sided", "less"):
        sides.append(("b_better", less, True))
    # The pairs with the same data sets (no hole, or the same holes) are
    # counted together.
    groups = {}
    for p, row in enumerate(~np.isnan(greater)):
        groups.setdefault(row.tobytes(), (row, []))[1].append(p)
    found_by_pair = [{} for _ in pairs]
    sizes = np.zeros(len(pairs), dtype=np.int64)
    for rows, members in groups.values():
        columns = np.flatnonzero(rows)
        if columns.size == 0:
            continue
        sizes[members] = columns.size
        here = [datasets[i] for i in columns]
        for key, pvalues, swap in sides:
            block = np.clip(pvalues[np.ix_(members, columns)], 0.0, 1.0)
            counts, partial, order, n_identified = replicability_rows(
                block, level, method
            )
            for q, p in enumerate(members):
                a, b = pairs[p]
                better, worse = (b, a) if swap else (a, b)
                found_by_pair[p][key] = one_result(
                    block[q],
                    counts[q],
                    partial[q],
                    order[q],
                    n_identified[q],
                    alpha=level,
                    method=method,
                    datasets=here,
                )
                count[better, worse] = counts[q]
                tested[better, worse] = True
                identified[(names[better], names[worse])] = [
                    here[i] for i in order[q, : n_identified[q]]
                ]
    for p, (a, b) in enumerate(pairs):
        found = found_by_pair[p]
        results[(names[a], names[b])] = Bunch(
            n_datasets=int(sizes[p]),
            a_better=found.get("a_better"),
            b_better=found.get("b_better"),
        )
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
