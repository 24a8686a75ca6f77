"""The (k, k) tables of a pairwise test and the pairs that differ.

Shared by the comparisons of k estimators on one data set and across data
sets: each runs a two-estimator test on every pair (or against a control)
and keeps its results as (k, k) arrays in ``names`` order, row = A. What a
test's table holds, and how its entry [B, A] follows from [A, B], are read
from the test's declarations in the registry (``bayesian``, ``swap``).
"""

import warnings
from itertools import combinations

import numpy as np
from sklearn.utils import Bunch

from .._engine._plan import run_tests
from ..stats._corrections import adjust_pvalues
from ..stats._registry import declaration
from ._blocks import count
from ._text import format_number
from ._verdict import bayesian_rule, is_bayesian

__all__ = [
    "BAYESIAN_FIELDS",
    "FREQUENTIST_FIELDS",
    "matrix_fields",
    "pair_a_better",
    "pairs_tested",
    "pairwise_lines",
    "pairwise_table",
    "ranking",
    "run_pairwise",
    "split_pairs",
]

#: The (k, k) arrays of a frequentist and of a Bayesian pairwise table.
FREQUENTIST_FIELDS = ("statistic", "pvalue", "pvalue_adjusted", "reject")
BAYESIAN_FIELDS = ("p_a_better", "p_rope", "p_b_better", "reject")


def pairs_tested(k, control):
    """The ordered pairs (A, B) each test is run on: A first in names order,
    or every other estimator (A) against the control (B)."""
    if control is None:
        return list(combinations(range(k), 2))
    return [(j, control) for j in range(k) if j != control]


def matrix_fields(test):
    """The (k, k) arrays of the table of ``test`` (a test name)."""
    return BAYESIAN_FIELDS if is_bayesian(test) else FREQUENTIST_FIELDS


def pairwise_table(results, pairs, k, names, *, test, correction, alpha, alternative):
    """(k, k) arrays of the pairwise test ``test`` over ``pairs``, NaN-free.

    Row = A, column = B. A two-sided test is symmetric: the entry [B, A]
    repeats the p-values of [A, B], and its statistic is that of the test
    run with A and B swapped (``swapped``); a Bayesian test's [B, A] holds
    the same posterior seen from B. Entries of pairs not tested (the
    diagonal; with a control, pairs without it; with a one-sided
    alternative, [B, A]) hold p-value 1 (or probabilities 0, 1, 0),
    statistic 0 and reject False, and are False in ``tested``.
    """
    tested = np.zeros((k, k), dtype=bool)
    if is_bayesian(test):
        table = Bunch(
            p_a_better=np.zeros((k, k)),
            p_rope=np.ones((k, k)),
            p_b_better=np.zeros((k, k)),
            reject=np.zeros((k, k), dtype=bool),
        )
        for (a, b), (result, _) in results.items():
            views = [(a, b, "p_a_better", "p_b_better")]
            if alternative == "two-sided":  # else only "A better" was asked
                views.append((b, a, "p_b_better", "p_a_better"))
            for row, col, better, worse in views:
                table.p_a_better[row, col] = result[better]
                table.p_b_better[row, col] = result[worse]
                table.p_rope[row, col] = result.get("p_rope", 0.0)
                table.reject[row, col] = bool(result.reject)
                tested[row, col] = True
        table.correction = None
    else:
        raw = np.array([float(results[pair][0].pvalue) for pair in pairs])
        adjusted = adjust_pvalues(raw, correction, alpha=alpha, pairs=pairs)
        table = Bunch(
            statistic=np.zeros((k, k)),
            pvalue=np.ones((k, k)),
            pvalue_adjusted=np.ones((k, k)),
            reject=np.zeros((k, k), dtype=bool),
        )
        mirror = alternative == "two-sided"
        for (a, b), p, q in zip(pairs, raw, adjusted):
            result, swapped = results[(a, b)]
            entries = [(a, b, result)] + ([(b, a, swapped)] if mirror else [])
            for row, col, own in entries:
                table.statistic[row, col] = _finite_statistic(own.get("statistic"))
                table.pvalue[row, col] = p
                table.pvalue_adjusted[row, col] = q
                table.reject[row, col] = bool(q < alpha)
                tested[row, col] = True
        table.correction = correction
        _attach_floors(table, results, pairs, k, correction, alpha)
    table.tested = tested
    table.results = {(names[a], names[b]): results[(a, b)][0] for a, b in pairs}
    return table


def _attach_floors(table, results, pairs, k, correction, alpha):
    """``min_pvalue`` and ``min_pvalue_adjusted`` (k, k) of a frequentist
    table whose test reports the smallest p-value it can reach on each
    pair (``min_pvalue``): the floors, and the correction applied to all
    the pairs at their floors (every correction is monotone in each
    p-value, so no outcome gives a pair a smaller adjusted p-value)."""
    floors = [results[pair][0].get("min_pvalue") for pair in pairs]
    if not floors or any(f is None or np.ndim(f) for f in floors):
        return
    floors = np.array(floors, dtype=float)
    adjusted = adjust_pvalues(floors, correction, alpha=alpha, pairs=pairs)
    table.min_pvalue = np.ones((k, k))
    table.min_pvalue_adjusted = np.ones((k, k))
    for (a, b), floor, q in zip(pairs, floors, adjusted):
        for row, col in ((a, b), (b, a)):
            table.min_pvalue[row, col] = floor
            table.min_pvalue_adjusted[row, col] = q


def run_pairwise(
    plan,
    names,
    needs_of,
    *,
    control,
    correction,
    alpha,
    alternative,
    switch="pairwise_tests",
    needs_of_pairs=None,
):
    """Run each planned two-estimator test on every pair (or against
    ``control``); a Bunch test name -> its (k, k) table.

    ``needs_of(a, b, needs)`` gives the inputs of the test for A = ``a`` and
    B = ``b``: the per-split needs of one data set, or the per-data-set
    differences of a study across data sets. ``switch`` names the argument
    that chose ``plan``, for the warning on many pairs. With
    ``needs_of_pairs(pairs, needs)`` (the same, a leading axis of pairs), a
    test registered ``batched`` runs on all the pairs at once.
    """
    k = len(names)
    pairs = pairs_tested(k, control)
    if len(pairs) * len(plan) > _MANY_PAIR_TESTS:
        warnings.warn(
            f"{len(pairs)} pairs of {k} estimators times {len(plan)} pairwise "
            f"tests: {len(pairs) * len(plan)} tests to run, which may take "
            f"minutes; pass {switch}=[] or a control to run fewer.",
            UserWarning,
            stacklevel=4,
        )
    tables = Bunch()
    for test in plan:
        run = (
            _run_batched
            if needs_of_pairs is not None and declaration(test.name).batched
            else _run_each
        )
        results = run(
            test,
            pairs,
            needs_of_pairs if run is _run_batched else needs_of,
            alpha,
            alternative,
            is_bayesian(test.name),
            declaration(test.name).swap,
        )
        tables[test.name] = pairwise_table(
            results,
            pairs,
            k,
            names,
            test=test.name,
            correction=correction,
            alpha=alpha,
            alternative=alternative,
        )
    return tables


#: Pairwise tests (pairs times tests) beyond which a warning says it may
#: take minutes (k = 100 estimators: 4950 pairs per test).
_MANY_PAIR_TESTS = 10_000


def _swapped(forward, swap):
    """The statistic of (B, A) from the result of (A, B): negated or the
    same (``swap``)."""
    statistic = forward.get("statistic")
    if statistic is not None and np.ndim(statistic) == 0:
        statistic = (-1.0 if swap == "negate" else 1.0) * float(statistic)
    return Bunch(statistic=statistic)


def _run_one(test, needs, alpha, alternative):
    return run_tests([test], needs, alpha, alternative)[test.name]


#: The most difference values a batched call holds (2**20, 8 MiB), so that
#: memory stays bounded however many pairs and data sets.
_BATCH_VALUES = 2**20


def _run_each(test, pairs, needs_of, alpha, alternative, bayesian, swap):
    """``{(a, b): (forward, swapped)}``, one call per pair. A two-sided
    p-value does not depend on the order of the pair; the statistic of
    [B, A] is that of B against A, which the test's declared swap rule
    gives without running it again (``"recompute"``: it is run)."""
    results = {}
    for a, b in pairs:
        forward = _run_one(test, needs_of(a, b, test.needs), alpha, alternative)
        swapped = None
        if alternative == "two-sided" and not bayesian:
            if swap == "recompute":
                swapped = _run_one(test, needs_of(b, a, test.needs), alpha, alternative)
            else:
                swapped = _swapped(forward, swap)
        results[(a, b)] = (forward, swapped)
    return results


def _run_batched(test, pairs, needs_of_pairs, alpha, alternative, bayesian, swap):
    """``{(a, b): (forward, swapped)}`` of a batched test: the pairs in a
    few calls; for a two-sided frequentist test, the statistic of [B, A]
    from the declared swap rule, or, for ``"recompute"``, from a batch of
    the swapped pairs. Each pair's result is the row of the batch, as one
    call would give."""
    size = np.prod(
        [np.size(value) for value in needs_of_pairs(pairs[:1], test.needs).values()]
    )
    chunk = max(1, _BATCH_VALUES // max(1, int(size)))
    mirror = alternative == "two-sided" and not bayesian
    results = {}
    # Pairs whose needs differ in shape (a table with holes: each pair on
    # the data sets both have) are batched by group (``group_of``).
    group_of = getattr(needs_of_pairs, "group_of", None)
    groups = {}
    for pair in pairs:
        groups.setdefault(None if group_of is None else group_of(pair), []).append(pair)
    parts = [
        members[start : start + chunk]
        for members in groups.values()
        for start in range(0, len(members), chunk)
    ]
    for part in parts:
        forward = _run_one(test, needs_of_pairs(part, test.needs), alpha, alternative)
        swapped = None
        if mirror and swap == "recompute":
            swapped = _run_one(
                test,
                needs_of_pairs([(b, a) for a, b in part], test.needs),
                alpha,
                alternative,
            )
        for i, pair in enumerate(part):
            row = _row(forward, i, len(part))
            if not mirror:
                other = None
            elif swapped is None:
                other = _swapped(row, swap)
            else:
                other = _row(swapped, i, len(part))
            results[pair] = (row, other)
    return results


def _row(result, i, n_rows):
    """Row ``i`` of a batched result: fields with a leading axis of
    ``n_rows`` comparisons give their i-th entry (a Python scalar where it
    is one number), and so does each array of a tuple of them (an interval's
    bounds); the others are kept."""
    row = Bunch()
    for key, value in result.items():
        if _batched(value, n_rows):
            value = _entry(value, i)
        elif (
            isinstance(value, tuple)
            and value
            and all(_batched(part, n_rows) for part in value)
        ):
            value = tuple(_entry(part, i) for part in value)
        row[key] = value
    return row


def _batched(value, n_rows):
    return isinstance(value, np.ndarray) and value.ndim and value.shape[0] == n_rows


def _entry(value, i):
    value = value[i]
    return value.item() if value.ndim == 0 else value


def _finite_statistic(value):
    """A float for the (k, k) statistic array (0 when the test has none)."""
    if value is None or np.ndim(value) != 0:
        return 0.0
    return float(value)


def ranking(result):
    """Estimator indices, best first, in the result's own order (by mean
    rank across data sets, by mean score on one data set)."""
    return result._ranking()


def split_pairs(result, test, table):
    """``(differ, same)`` of the pairwise ``test``: index pairs (better,
    worse) that differ, best estimator first, and the pairs that do not
    (better ranked first)."""
    rank = {j: r for r, j in enumerate(ranking(result))}
    differ, same = [], []
    for name_a, name_b in table.results:
        a, b = result.names.index(name_a), result.names.index(name_b)
        if table.reject[a, b]:
            a_better = pair_a_better(result, test, table, a, b)
            differ.append((a, b) if a_better else (b, a))
        else:
            same.append(tuple(sorted((a, b), key=rank.get)))
    differ.sort(key=lambda pair: (rank[pair[0]], rank[pair[1]]))
    same.sort(key=lambda pair: (rank[pair[0]], rank[pair[1]]))
    return differ, same


def pairwise_lines(result, test, table, differ, same):
    n_pairs = len(table.results)
    bayesian = is_bayesian(test)
    if bayesian:
        rule = bayesian_rule(result.alpha, result.alternative)
        lines = [
            f"Pairwise {test} (Bayesian: posterior probabilities, not corrected "
            f"for the {count(n_pairs, 'pair')}; {rule}): "
            f"{len(differ)} decided."
        ]
    else:
        if table.get("correction"):
            how = f"{table.correction}-adjusted p-values"
        else:
            how = f"raw p-values, not corrected for the {count(n_pairs, 'pair')}"
        lines = [
            f"Pairwise {test} ({how}, {count(n_pairs, 'pair')}): "
            f"{len(differ)} differ at alpha={result.alpha}."
        ]
    if differ:
        width = max(len(result.names[better]) for better, _ in differ)
        width_worse = max(len(result.names[worse]) for _, worse in differ)
        lines += [
            f"  {result.names[better]:<{width}} > {result.names[worse]:<{width_worse}}"
            + _pair_evidence(test, table, better, worse)
            for better, worse in differ
        ]
    if same:
        # Names that hold commas ("C=0.1, kernel=linear") are listed with
        # semicolons, so each pair reads as one.
        names = [result.names[i] for pair in same for i in pair]
        separator = "; " if any("," in name for name in names) else ", "
        lines.append(
            ("  no decision: " if bayesian else "  no significant difference: ")
            + separator.join(f"{result.names[a]} ~ {result.names[b]}" for a, b in same)
        )
    return lines


def pair_a_better(result, test, table, a, b):
    """Whether A (row ``a``) is the better of a rejected pair."""
    if is_bayesian(test):
        return table.p_a_better[a, b] >= table.p_b_better[a, b]
    if result.alternative == "greater":
        return True
    if result.alternative == "less":
        return False
    sign = 1.0 if result.get("greater_is_better", True) else -1.0
    scores = np.asarray(result.get("scores", ()), dtype=float)
    if scores.ndim == 2 and np.isnan(scores[:, [a, b]]).any():
        # Holes: the pair was tested on the data sets both have.
        return sign * np.nanmean(scores[:, a] - scores[:, b]) >= 0
    return sign * result.mean_scores[a] >= sign * result.mean_scores[b]


def _pair_evidence(test, table, better, worse):
    if is_bayesian(test):
        return f"  P = {format_number(table.p_a_better[better, worse], 3)}"
    q = table.pvalue_adjusted[better, worse]
    if not table.tested[better, worse]:
        q = table.pvalue_adjusted[worse, better]
    return f"  p = {format_number(q, 3)}"
