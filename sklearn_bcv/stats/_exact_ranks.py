"""Exact inference on Friedman's ranks, ties included.

Two null laws, both conditional on each data set's ties (the midranks of a
data set are fixed; under the null hypothesis every arrangement of them
over the k estimators is equally likely, independently across data sets):

* the law of Friedman's statistic, through ``S = Σ_j U_j²`` with ``U_j``
  the doubled rank sums (whole numbers): a dynamic programme over the
  multiset of the partial rank sums where its work is small enough, else a
  seeded Monte Carlo of within-row permutations
  (:func:`friedman_permutation_test`);
* the law of the difference of two rank sums (Eisinga, Heskes, Pelzer & Te
  Grotenhuis 2017): in each data set the two estimators take a uniformly
  random ordered pair of distinct positions, and the rows convolve
  (:func:`rank_difference_law`). The law is the same for every pair of
  estimators, so a post hoc family of all pairs costs one convolution.

Ranks are handled doubled (``2 r``: midranks of ties are halves), so every
quantity is a whole number and every comparison with the observed value
is exact.
"""

from collections import Counter
from functools import lru_cache
from itertools import permutations
from math import factorial, prod

import numpy as np
from scipy import special, stats
from sklearn.utils import check_random_state

__all__ = [
    "EXACT_MAX_CONVOLUTION",
    "EXACT_MAX_WORK",
    "MONTE_CARLO_RESAMPLES",
    "doubled_ranks",
    "friedman_permutation_test",
    "friedman_spread",
    "rank_difference_law",
    "rank_difference_pvalue",
    "smallest_difference_pvalue",
]

#: The most (partial state, arrangement of a data set) pairs the exact
#: dynamic programme of Friedman's statistic visits; beyond it the p-value
#: is Monte Carlo. About 20 ms; exact for k = 3 up to hundreds of data
#: sets, k = 4 up to about 14, k = 5 up to about 6, and any k on 2 or 3.
EXACT_MAX_WORK = 2**19

#: Monte Carlo resamples of Friedman's statistic by default: a standard
#: error of at most 0.002 for a p-value near 0.05 (sqrt(0.05·0.95/12000)).
MONTE_CARLO_RESAMPLES = 12_000

#: Ranks drawn by the Monte Carlo of ``method="auto"`` at most (about a
#: second): beyond (more than some 11,000 ranked scores at the default
#: resamples), Friedman's chi-squared approximation decides, its error then
#: far below the Monte Carlo's.
MONTE_CARLO_MAX_DRAWS = 2**27

#: Ranks an explicit ``method="monte_carlo"`` may draw (minutes, not hours).
MONTE_CARLO_REFUSED = 2**32

#: Resamples times data sets times estimators held at once by the Monte
#: Carlo (about 40 MiB with the indices), so memory does not grow with the
#: resamples.
_MC_BLOCK = 2**22

#: Up to this many estimators the Monte Carlo draws an arrangement as an
#: index into the table of the k! permutations (8! = 40,320 rows).
_TABLE_K = 8


def doubled_ranks(ranks):
    """``2 · ranks`` as whole numbers (midranks of ties are halves)."""
    return np.rint(2.0 * np.asarray(ranks, dtype=np.float64)).astype(np.int64)


def friedman_spread(doubled):
    """``k·Σ_j U_j² − (Σ_j U_j)²`` of the doubled rank sums ``U_j`` (a Python
    int): Friedman's statistic is ``3(k − 1)·spread / (k·D)`` with ``D``
    fixed by the ties, so it orders the tables as ``S = Σ_j U_j²`` does."""
    totals = [int(v) for v in np.asarray(doubled).sum(axis=0)]
    return len(totals) * sum(v * v for v in totals) - sum(totals) ** 2


def _counted_rows(doubled):
    """The distinct rows of ``doubled`` sorted and shifted to start at 0,
    with their counts: ``((row, count), ...)`` of tuples, sorted (a table
    and its rows in another order share a cache entry)."""
    rows = np.sort(np.asarray(doubled, dtype=np.int64), axis=1)
    rows = rows - rows[:, :1]
    distinct, counts = np.unique(rows, axis=0, return_counts=True)
    return tuple(
        (tuple(int(v) for v in row), int(count)) for row, count in zip(distinct, counts)
    )


def _patterns(doubled):
    """The data sets' doubled ranks sorted and shifted to start at 0 (a
    shift of a row moves every rank sum alike and leaves the spread), the
    fully tied ones dropped (they move nothing): tuples, sorted so that a
    table and its rows in another order share a cache entry."""
    out = []
    for row, count in _counted_rows(doubled):
        if row[-1] > 0:
            out += [row] * count
    return tuple(out)


def _n_arrangements(pattern):
    """The distinct arrangements of a row: ``k! / Π t!`` over its ties."""
    return factorial(len(pattern)) // prod(
        factorial(t) for t in Counter(pattern).values()
    )


@lru_cache(maxsize=64)
def _arrangements(pattern):
    """The distinct arrangements of ``pattern`` (rows of an int64 array)."""
    return np.array(sorted(set(permutations(pattern))), dtype=np.int64)


def _spreads(states):
    k = states.shape[1]
    return k * np.sum(states * states, axis=1) - np.sum(states, axis=1) ** 2


@lru_cache(maxsize=16)
def _sorting_network(k):
    """The comparators ``(i, j)``, ``i < j``, of Batcher's odd-even merge
    sort of ``k`` values: after them, in this order, every column ``i``
    holds no more than column ``j``. Sorting many short rows this way,
    one comparator over all of them at a time, beats ``np.sort(axis=1)``."""
    pairs = []

    def merge(low, n, r):
        step = 2 * r
        if step < n:
            merge(low, n, step)
            merge(low + r, n, step)
            pairs.extend((i, i + r) for i in range(low + r, low + n - r, step))
        else:
            pairs.append((low, low + r))

    def sort(low, n):
        if n > 1:
            sort(low, n // 2)
            sort(low + n // 2, n // 2)
            merge(low, n, 1)

    size = 1 << max(0, (k - 1).bit_length())
    sort(0, size)
    return tuple((i, j) for i, j in pairs if j < k)


@lru_cache(maxsize=32)
def _exact_law(patterns, k, max_work):
    """``(spreads, tail)`` of the permutation law of the spread, or None
    when the dynamic programme would visit more than ``max_work`` pairs.

    The state is the multiset of the partial rank sums (the columns are
    exchangeable under the null hypothesis, so their order carries no
    information), sorted and shifted to start at 0; each data set adds a
    uniformly random arrangement of its ranks. ``spreads`` ascending,
    ``tail[i] = P(spread >= spreads[i])``.
    """
    total = sum(max(p) for p in patterns)
    base = total + 1
    if k * np.log2(base) > 62:  # the states' keys would not fit an int64
        return None
    weights = [base**j for j in range(k)]
    network = _sorting_network(k)
    columns = [np.zeros(1, dtype=np.int64) for _ in range(k)]
    mass = np.ones(1)
    work = 0
    # Rows of many arrangements first, while the states are few.
    for pattern in sorted(patterns, key=_n_arrangements, reverse=True):
        n = _n_arrangements(pattern)
        work += len(mass) * n
        if work > max_work:
            return None
        moves = _arrangements(pattern)
        new = [(c[:, None] + moves[:, j]).ravel() for j, c in enumerate(columns)]
        for i, j in network:
            new[i], new[j] = np.minimum(new[i], new[j]), np.maximum(new[i], new[j])
        new = [c - new[0] for c in new]
        key = new[1] * weights[1]
        for j in range(2, k):
            key += new[j] * weights[j]
        order = np.argsort(key, kind="stable")
        key = key[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        mass = np.add.reduceat(np.repeat(mass / n, n)[order], starts)
        first = order[starts]
        columns = [c[first] for c in new]
    spreads = _spreads(np.stack(columns, axis=1))
    order = np.argsort(spreads, kind="stable")
    values, starts = np.unique(spreads[order], return_index=True)
    grouped = np.add.reduceat(mass[order], starts)
    tail = np.minimum(1.0, np.cumsum(grouped[::-1])[::-1])
    values.flags.writeable = tail.flags.writeable = False
    return values, tail


def _generator(random_state):
    """A :class:`numpy.random.Generator` seeded from ``random_state`` (an int
    gives the same stream every call)."""
    seed = check_random_state(random_state).randint(0, 2**31 - 1, size=4)
    return np.random.default_rng([int(s) for s in seed])


@lru_cache(maxsize=8)
def _permutation_table(k):
    table = np.array(list(permutations(range(k))), dtype=np.intp)
    table.flags.writeable = False
    return table


def _monte_carlo_spreads(patterns, k, n_resamples, rng):
    """Spreads of ``n_resamples`` tables, each data set's ranks arranged at
    random (uniformly over the k! permutations), in blocks.

    Up to 8 estimators an arrangement is a row of the table of the k!
    permutations; up to 20, the mixed-radix digits of one uniform integer
    in [0, k!) are the swaps of a Fisher-Yates shuffle (independent and
    uniform); beyond, :meth:`numpy.random.Generator.permuted`.
    """
    rows = np.array(patterns, dtype=np.int16)
    n_rows = rows.shape[0]
    block = max(1, _MC_BLOCK // max(1, n_rows * k))
    out = np.empty(n_resamples, dtype=np.int64)
    total = int(rows.sum())
    if k <= _TABLE_K:
        table = _permutation_table(k)
        distinct, which = np.unique(rows, axis=0, return_inverse=True)
        # Every arrangement of every distinct row, one table: row
        # pattern·k! + arrangement.
        arranged = distinct[:, table].reshape(-1, k).astype(np.int32)
        offset = (np.ravel(which) * len(table))[:, None]
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        if k <= _TABLE_K:
            draws = rng.integers(0, len(table), size=(n_rows, size))
            draws += offset
            # (rows, resamples, k), summed over the leading axis: contiguous.
            sums = np.take(arranged, draws, axis=0).sum(axis=0, dtype=np.int64)
        elif k <= _RADIX_K:
            sums = _radix_sums(rows, size, rng)
        else:
            tiled = np.broadcast_to(rows, (size, n_rows, k)).copy()
            sums = rng.permuted(tiled, axis=2).sum(axis=1, dtype=np.int64)
        out[start : start + size] = k * np.sum(sums * sums, axis=1) - total * total
    return out


#: Up to this many estimators k! < 2**63: one int64 draw per arrangement.
_RADIX_K = 20


def _radix_sums(rows, size, rng):
    """The column sums of ``size`` copies of ``rows`` (n, k), each row
    shuffled: Fisher-Yates, the swap of step j being the digit of base
    j + 1 of a uniform integer in [0, k!) (independent uniform digits).
    Position j holds its final value after step j, so its sum is taken then
    and the value never written back. Column-major, with flat indices."""
    n_rows, k = rows.shape
    m = size * n_rows
    arr = np.broadcast_to(rows.T[:, :, None], (k, n_rows, size)).reshape(k, m).copy()
    flat = arr.reshape(-1)
    code = rng.integers(0, factorial(k), size=m, dtype=np.int64)
    every = np.arange(m, dtype=np.int64)
    sums = np.empty((size, k), dtype=np.int64)
    for j in range(k - 1, 0, -1):
        index = code % (j + 1)
        code //= j + 1
        index *= m
        index += every
        final = flat[index]
        flat[index] = arr[j]
        # (rows, resamples), summed over the leading axis: contiguous.
        sums[:, j] = final.reshape(n_rows, size).sum(axis=0, dtype=np.int64)
    sums[:, 0] = arr[0].reshape(n_rows, size).sum(axis=0, dtype=np.int64)
    return sums


#: The most data sets (not all tied) of k estimators without ties on which
#: the exact programme stays within :data:`EXACT_MAX_WORK` (measured); a
#: table beyond goes to the Monte Carlo at once, unless its ties leave
#: few arrangements.
_EXACT_MAX_ROWS = {3: 80, 4: 18, 5: 7, 6: 3, 7: 2, 8: 2}


def _exact_feasible(patterns, k, max_work):
    if len(patterns) <= _EXACT_MAX_ROWS.get(k, 1):
        return True
    count = 1
    for pattern in patterns:
        count *= _n_arrangements(pattern)
        if count > max_work:
            return False
    return True


def _sign_law(patterns, observed):
    """k = 2: the untied data sets are fair coins, the spread is
    ``(U_1 - U_2)² = 4 (W - L)²``: the exact sign test, ties dropped."""
    n = len(patterns)
    margin = int(round(np.sqrt(observed))) // 2  # |W - L|
    if margin == 0:
        return 1.0, float(min(1.0, 2.0 * 0.5**n))
    upper = stats.binom.sf((n + margin) // 2 - 1, n, 0.5)  # P(W >= (n+m)/2)
    return float(min(1.0, 2.0 * upper)), float(min(1.0, 2.0 * 0.5**n))


def friedman_permutation_test(
    ranks,
    *,
    method="auto",
    n_resamples=MONTE_CARLO_RESAMPLES,
    random_state=None,
    max_work=EXACT_MAX_WORK,
):
    """The permutation p-value of Friedman's statistic given the ties.

    Parameters
    ----------
    ranks : ndarray of shape (n_datasets, k)
        Midranks within each data set.
    method : {"auto", "exact", "monte_carlo"}
        ``"auto"``: exact where the dynamic programme visits at most
        ``max_work`` states, else Monte Carlo; ``"exact"`` raises a
        ValueError where it would not.
    n_resamples : int
        Monte Carlo resamples.
    random_state : int, RandomState instance or None
        Seeds the Monte Carlo.
    max_work : int
        The exact programme's budget.

    Returns
    -------
    (pvalue, method, mc_se, min_pvalue) : tuple or None
        None when ``method="auto"`` would draw more than
        :data:`MONTE_CARLO_MAX_DRAWS` ranks (the caller decides by the
        chi-squared approximation); else
        ``P(S >= s_obs)`` (exact), or ``(1 + #{S_b >= s_obs}) / (1 + B)``
        with its standard error ``mc_se`` (None when exact); the method
        that gave it; the smallest p-value the method can give here
        (exact: the probability of the largest statistic the ties allow;
        Monte Carlo: ``1 / (1 + B)``).
    """
    doubled = doubled_ranks(ranks)
    k = doubled.shape[1]
    observed = friedman_spread(doubled)
    patterns = _patterns(doubled)
    if not patterns:
        return 1.0, "exact", None, 1.0
    if k == 2:
        pvalue, smallest = _sign_law(patterns, observed)
        return pvalue, "exact", None, smallest
    law = None
    if method != "monte_carlo" and (
        method == "exact" or _exact_feasible(patterns, k, max_work)
    ):
        law = _exact_law(patterns, k, max_work)
    if law is not None:
        spreads, tail = law
        at = int(np.searchsorted(spreads, observed, side="left"))
        pvalue = float(tail[at]) if at < len(tail) else 0.0
        return pvalue, "exact", None, float(tail[-1])
    if method == "exact":
        raise ValueError(
            f"The exact permutation law of Friedman's statistic on {len(doubled)} "
            f"data sets and {k} estimators would visit more than {max_work} "
            "states; use method='auto' or 'monte_carlo'."
        )
    draws = len(patterns) * k * n_resamples
    if method == "auto" and draws > MONTE_CARLO_MAX_DRAWS:
        return None
    if draws > MONTE_CARLO_REFUSED:
        raise ValueError(
            f"A Monte Carlo of Friedman's statistic with n_resamples={n_resamples} "
            f"on {len(patterns)} data sets of {k} estimators would draw {draws} "
            f"ranks; at most {MONTE_CARLO_REFUSED} (2**32). Lower n_resamples, or "
            "use method='chi2' (on so many data sets its error is negligible)."
        )
    rng = _generator(random_state)
    spreads = _monte_carlo_spreads(patterns, k, n_resamples, rng)
    hits = int(np.count_nonzero(spreads >= observed))
    pvalue = (1.0 + hits) / (1.0 + n_resamples)
    mc_se = float(np.sqrt(pvalue * (1.0 - pvalue) / n_resamples))
    return pvalue, "monte_carlo", mc_se, 1.0 / (1.0 + n_resamples)


# --------------------------------------------------------------------------
# The difference of two rank sums (Eisinga et al. 2017)


def _row_difference_counts(pattern):
    """``{d: count}`` of ``v_p - v_q`` over the ``k(k − 1)`` ordered pairs of
    distinct positions of a row's doubled ranks ``v``."""
    v = np.asarray(pattern, dtype=np.int64)
    d = np.subtract.outer(v, v)[~np.eye(v.size, dtype=bool)]
    values, counts = np.unique(d, return_counts=True)
    return dict(zip(values.tolist(), counts.tolist()))


def _power(pmf, n):
    """``pmf`` convolved with itself ``n`` times (by squaring)."""
    result = np.ones(1)
    while n:
        if n & 1:
            result = np.convolve(result, pmf)
        n >>= 1
        if n:
            pmf = np.convolve(pmf, pmf)
    return result


@lru_cache(maxsize=64)
def _difference_law(counted, k):
    """``(step, tail)`` of the law of ``D = Σ_i (v_ia − v_ib)`` in doubled
    units over ``D = 0, step, 2·step, ...``: ``tail[j] = P(D >= j·step)``
    (the law is symmetric about 0). ``counted``: ``((row, count), ...)``."""
    rows = {p: _row_difference_counts(p) for p, _ in counted}
    support = [abs(d) for c in rows.values() for d in c if d]
    step = int(np.gcd.reduce(support)) if support else 1
    law, low = np.ones(1), 0
    for pattern, times in counted:
        c = rows[pattern]
        lowest = min(c) // step
        pmf = np.zeros(max(c) // step - lowest + 1)
        for d, n in c.items():
            pmf[d // step - lowest] += n / (k * (k - 1))
        law = np.convolve(law, _power(pmf, times))
        low += lowest * times
    # law[j] = P(D = (low + j)·step); low = -high by symmetry.
    upper = law[-low:] if low else law
    tail = np.cumsum(upper[::-1])[::-1]
    tail.flags.writeable = False
    return step, tail


#: The most multiply-adds the exact convolution of the rank-sum difference
#: may take (about 0.1 s); beyond it (some 150 data sets of 20 estimators
#: with ties, 1,300 of 3), the normal law of the difference with its exact
#: variance given the ties, whose error is then negligible.
EXACT_MAX_CONVOLUTION = 2**27


def rank_difference_law(ranks, *, max_work=EXACT_MAX_CONVOLUTION):
    """The null law of the difference of two doubled rank sums given the
    ties of ``ranks`` (n_datasets, k): ``("exact", step, tail)`` with
    ``tail[j] = P(D >= j·step)``, j = 0, 1, ..., or, when the exact
    convolution would take more than ``max_work`` multiply-adds,
    ``("normal", step, sd)``: the standard deviation of D (its mean is 0),
    ``E d² = 2·Σ_j (v_j − v̄)² / (k − 1)`` summed over the data sets."""
    counted = _counted_rows(doubled_ranks(ranks))
    k = np.shape(ranks)[1]
    width = sum(2 * row[-1] * count for row, count in counted)  # support of D
    support = {abs(a - b) for row, _ in counted for a in row for b in row if a != b}
    step = int(np.gcd.reduce(sorted(support))) if support else 1
    if (width // step) ** 2 // 2 <= max_work:
        return ("exact", *_difference_law(counted, k))
    v = np.array([row for row, _ in counted], dtype=float)
    counts = np.array([count for _, count in counted], dtype=float)
    centred = v - v.mean(axis=1, keepdims=True)
    variance = float(np.sum(counts * 2.0 * np.sum(centred**2, axis=1) / (k - 1)))
    return "normal", step, float(np.sqrt(variance))


def rank_difference_pvalue(difference, law, alternative="two-sided"):
    """p-values of doubled rank-sum differences ``difference`` (an int array,
    ``v_a − v_b`` summed) under ``law`` (:func:`rank_difference_law`):
    two-sided ``P(|D| >= |d|)``, ``"greater"`` ``P(D >= d)``, ``"less"``
    ``P(D <= d)``; the normal law with half a lattice step of continuity
    correction."""
    method, step, tail = law
    d = np.asarray(difference, dtype=np.int64) // step  # whole multiples
    if method == "normal":
        sd = tail / step
        if sd == 0:
            upper = np.where(d <= 0, 1.0, 0.0)
            lower = np.where(d >= 0, 1.0, 0.0)
        else:
            upper = special.ndtr(-(d - 0.5) / sd)
            lower = special.ndtr((d + 0.5) / sd)
        if alternative == "greater":
            return np.minimum(1.0, upper)
        if alternative == "less":
            return np.minimum(1.0, lower)
        two = 2.0 * np.minimum(upper, lower)
        return np.where(d == 0, 1.0, np.minimum(1.0, two))
    if alternative == "greater":
        return _upper(tail, d)
    if alternative == "less":
        return _upper(tail, -d)
    return np.where(d == 0, 1.0, np.minimum(1.0, 2.0 * _upper(tail, np.abs(d))))


def _upper(tail, j):
    """``P(D >= j·step)`` from ``tail`` (``P(D >= i·step)``, i >= 0) and the
    symmetry of the law: below 0, ``1 - P(D >= (1 - j)·step)``."""
    n = len(tail)

    def at(i):
        return np.where(i >= n, 0.0, tail[np.clip(i, 0, n - 1)])

    return np.minimum(1.0, np.where(j > 0, at(j), 1.0 - at(1 - j)))


def smallest_difference_pvalue(ranks, alternative="two-sided"):
    """The smallest p-value of the exact rank-sum difference given the ties:
    every data set puts A at its best rank and B at its worst (0 where it
    is below the smallest double)."""
    doubled = np.sort(doubled_ranks(ranks), axis=1)
    k = doubled.shape[1]
    spread = doubled[:, -1] > doubled[:, 0]
    if not spread.any():
        return 1.0
    n_low = np.sum(doubled == doubled[:, :1], axis=1)[spread]
    n_high = np.sum(doubled == doubled[:, -1:], axis=1)[spread]
    log_p = float(np.sum(np.log(n_low * n_high / (k * (k - 1.0)))))
    factor = 2.0 if alternative == "two-sided" else 1.0
    return float(min(1.0, factor * np.exp(log_p)))
