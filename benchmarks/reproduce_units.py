"""The same table in other units and column orders: how much each test's
answer moves (the before/after table of ``doc/reproduction.rst``).

Every registered test across data sets, and every effect size, runs on
decimal tables as a user has them and on the same tables in percents
(``100·x``), shifted (``x + 0.1``), both, and with the estimators in three
other orders (pairwise tables follow the estimators). For each test the
script prints on how many of the tables any of these changed a statistic or
a p-value (or a posterior probability, the rope scaled with the units), and
the largest relative change (in %) of each.

The tables: Demšar's Table 6 (14 data sets × 4 algorithms, three decimals)
and ``--tables`` random tables of two-decimal accuracies, 12 data sets × 5
estimators, per-split (4 splits, for the tests that need them). The
relative change of x to y is ``|y - x| / max(|x|, |y|)`` (100 % when one
of them is 0 or infinite).

Run from the repository root, once with the package of this commit and once
with an earlier one for the "before" column::

    python benchmarks/reproduce_units.py
    git archive <commit> sklearn_bcv | tar -x -C /tmp/before
    PYTHONPATH=/tmp/before python benchmarks/reproduce_units.py
"""

import argparse
import warnings

import numpy as np

from sklearn_bcv import available_tests, compare_scores
from sklearn_bcv.stats._registry import get_entry

DEMSAR_TABLE_6 = np.array(
    [
        [0.763, 0.768, 0.771, 0.798],
        [0.599, 0.591, 0.590, 0.569],
        [0.954, 0.971, 0.968, 0.967],
        [0.628, 0.661, 0.654, 0.657],
        [0.882, 0.888, 0.886, 0.898],
        [0.936, 0.931, 0.916, 0.931],
        [0.661, 0.668, 0.609, 0.685],
        [0.583, 0.583, 0.563, 0.625],
        [0.775, 0.838, 0.866, 0.875],
        [1.000, 1.000, 1.000, 1.000],
        [0.940, 0.962, 0.965, 0.962],
        [0.619, 0.666, 0.614, 0.669],
        [0.972, 0.981, 0.975, 0.975],
        [0.957, 0.978, 0.946, 0.970],
    ]
)
UNITS = [(100.0, 0.0), (1.0, 0.1), (100.0, 0.1)]
ROPE = 0.01
FIELDS = ("statistic", "pvalue", "p_a_better", "p_b_better")
CHEAP = {
    "bayesian_signed_rank": {"n_samples": 5000},
    "bayesian_sign": {"n_samples": 5000},
    "bayesian_hierarchical": {"n_samples": 2000, "n_warmup": 300},
}


def tables(n_random, seed=0):
    """``(name, split scores or None, mean scores)``."""
    yield "Demšar Table 6", None, DEMSAR_TABLE_6
    rng = np.random.default_rng(seed)
    for i in range(n_random):
        quality = rng.uniform(0.65, 0.9, size=(12, 1, 1))
        split = quality + rng.normal(0, 0.02, (12, 4, 5)) + np.linspace(0, 0.02, 5)
        split = np.clip(np.round(split, 2), 0, 1)
        yield f"random {i}", split, None


def run(test, scores, names, scale, kind):
    """The result of ``test`` (or the effect sizes of ``kind``) as a dict
    of (k, k) or scalar fields."""
    needs = get_entry(test).needs if test else ()
    split = scores.ndim == 3
    kwargs = {"n_train": 90, "n_test": 10} if split else {}
    pairwise = {test: CHEAP.get(test, {})} if test and "scores" not in needs else []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = compare_scores(
            scores,
            names=names,
            tests=[test] if test and "scores" in needs else [],
            pairwise_tests=pairwise,
            rope=ROPE * scale,
            effect_size=kind or "cohen_dz",
            random_state=0,
            **kwargs,
        )
    if kind:
        return {
            (e.a, e.b): (e.estimate, *e.confidence_interval)
            for e in result.effect_sizes
        }
    found = result.tests[test] if test in result.tests else result.pairwise[test]
    return {f: np.asarray(found[f], dtype=float) for f in FIELDS if f in found}


def relative_change(first, second):
    """``|second - first| / max(|first|, |second|)``: 0 when equal, 1 (100 %)
    when one is 0 or infinite and the other not, 2 for opposite signs."""
    first, second = np.asarray(first, float), np.asarray(second, float)
    same = (first == second) | (np.isnan(first) & np.isnan(second))
    with np.errstate(all="ignore"):
        change = np.abs(second - first) / np.maximum(np.abs(first), np.abs(second))
    change = np.where(same, 0.0, np.where(np.isfinite(change), change, 1.0))
    return float(np.max(change)) if change.size else 0.0


def compare(base, other, order, names, kind):
    """Largest relative change of the statistic and of the p-value (or
    posterior) of ``other`` (estimators in ``order``) against ``base``."""
    if kind:
        changes = []
        for (a, b), values in base.items():
            if (a, b) in other:
                again = other[(a, b)]
            else:
                estimate, low, high = other[(b, a)]
                again = (-estimate, -high, -low)
            changes.append(relative_change(values, again))
        return max(changes), 0.0
    position = np.argsort(order)
    changes = {}
    for field, value in base.items():
        again = other[field]
        if again.ndim == 2:
            again = again[np.ix_(position, position)]
        changes[field] = relative_change(value, again)
    statistic = changes.get("statistic", 0.0)
    probability = max(changes.get(f, 0.0) for f in FIELDS[1:])
    return statistic, probability


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()
    import sklearn_bcv

    print(f"sklearn_bcv {sklearn_bcv.__version__} from {sklearn_bcv.__file__}")
    rng = np.random.default_rng(1)
    rows = [(test, None) for test in available_tests(kind="datasets")]
    rows += [
        (None, kind)
        for kind in ("cohen_dz", "cohen_d", "cliff_delta", "akinshin_gamma")
    ]
    print(
        f"{'test':24s} {'tables changed':>15s} {'statistic %':>12s} "
        f"{'p or posterior %':>17s}"
    )
    for test, kind in rows:
        needs = get_entry(test).needs if test else ()
        changed = n_tables = 0
        worst = [0.0, 0.0]
        for _, split, mean in tables(args.tables):
            scores = split if split is not None else mean
            if "split_differences" in needs and scores.ndim != 3:
                continue
            if scores.ndim == 3 and "split_differences" not in needs:
                scores = scores.mean(axis=1)  # the mean scores the user has
            k = scores.shape[-1]
            names = [f"e{j}" for j in range(k)]
            base = run(test, scores, names, 1.0, kind)
            variants = [(a, b, np.arange(k)) for a, b in UNITS]
            variants += [(1.0, 0.0, rng.permutation(k)) for _ in range(3)]
            table_changed = False
            for a, b, order in variants:
                moved = (a * scores + b)[..., order]
                other = run(test, moved, [names[j] for j in order], a, kind)
                statistic, probability = compare(base, other, order, names, kind)
                worst = [max(worst[0], statistic), max(worst[1], probability)]
                table_changed |= max(statistic, probability) > 1e-9
            changed += table_changed
            n_tables += 1
        label = test or f"effect size {kind}"
        print(
            f"{label:24s} {changed:>7d} of {n_tables:<5d} {100 * worst[0]:>12.3g} "
            f"{100 * worst[1]:>17.3g}"
        )


if __name__ == "__main__":
    main()
