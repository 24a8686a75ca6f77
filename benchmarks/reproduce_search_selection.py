"""Selection on the same splits: how often "the best is better" is declared
when every candidate of a grid is equally good.

A search picks its best candidate by the mean score over the very splits
that then test it, so "best better than the runner-up" (or than the other
candidates) is read off the winner's own noise. This script measures the
rates at which the library declares it, at alpha = 0.05, on grids whose
candidates are all equal in truth:

* **Learners.** A nearest-centroid classifier on a subspace of 5 of 10
  features; the candidates of a grid use k distinct subspaces drawn once
  per grid. The features are exchangeable (two Gaussian classes, every
  feature shifted by the same 0.75 between them, unit variance,
  independent), so every subspace of 5 features has the same true accuracy
  (about 0.80): the candidates are deterministic learners, correlated as a
  grid's are (shared features, shared splits), and equal in truth. Each
  grid has its own data set of 200 records, drawn afresh. The fits are a
  few array operations for all k candidates at once, so the simulation runs
  in minutes on a busy two-core machine.
* **Designs.** A 5×2 block-regularized CV (``BlockRegularized5x2CV``, 10
  splits) and the 10 × 10 repeated stratified 10-fold CV of scikit-learn's
  example (``RepeatedStratifiedKFold(n_splits=10, n_repeats=10)``, 100
  splits); k = 10 and 50 candidates.
* **What is declared** (the library's own calls on the split scores,
  :func:`sklearn_bcv.compare_split_scores`):

  - ``compare_search`` by default: each candidate against the best with the
    test recommended for the design (the calibrated 5×2 BCV F test on BCV,
    the corrected resampled t on repeated k-fold), two-sided, Holm over the
    k - 1 comparisons: the rate at which the best is declared better than
    the runner-up, the share of the other candidates it is declared better
    than, and the rate at which it is declared better than at least one
    (the family-wise error);
  - the refit rule ``simplest_not_worse``: the one-sided test of "the best
    is better" (the corrected t, which on a BCV gives the numbers of
    ``bcv_t``), uncorrected: the share of the other candidates it excludes
    as worse, and the rate for the runner-up;
  - a pair chosen before looking (candidates 0 and 1), the two-sided
    recommended test: each test's own type I error on these learners.

Usage::

    python benchmarks/reproduce_search_selection.py            # 1,000 grids per cell
    python benchmarks/reproduce_search_selection.py --reps 200 # a quick look
    python benchmarks/reproduce_search_selection.py --rst      # the table of the docs

With 1,000 grids a rate near 0.05 has a Wilson 95% half-width of about
0.014.
"""

import argparse
import time

import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold

from sklearn_bcv import BlockRegularized5x2CV, compare_split_scores
from sklearn_bcv.simulation import rejection_rate_interval
from sklearn_bcv.simulation._paper import format_text_table

ALPHA = 0.05
N_RECORDS = 200
N_FEATURES = 10
SUBSPACE = 5
SHIFT = 0.75
CANDIDATES = (10, 50)


def designs(seed):
    return {
        "5×2 BCV": BlockRegularized5x2CV(random_state=seed),
        "10×10 repeated 10-fold": RepeatedStratifiedKFold(
            n_splits=10, n_repeats=10, random_state=seed
        ),
    }


def draw_grid(rng, k):
    """Data (X, y) and k distinct subspaces, as a (k, n_features) mask."""
    y = np.repeat([0, 1], N_RECORDS // 2)
    X = rng.standard_normal((N_RECORDS, N_FEATURES)) + SHIFT * y[:, None]
    masks = set()
    while len(masks) < k:
        masks.add(tuple(sorted(rng.choice(N_FEATURES, SUBSPACE, replace=False))))
    mask = np.zeros((k, N_FEATURES))
    for j, features in enumerate(sorted(masks)):
        mask[j, list(features)] = 1.0
    rng.shuffle(mask)
    return X, y, mask


def split_scores(X, y, mask, splits):
    """(n_splits, k) accuracies of the k subspace nearest-centroid learners."""
    scores = np.empty((len(splits), mask.shape[0]))
    for i, (train, test) in enumerate(splits):
        centroids = np.stack([X[train][y[train] == c].mean(axis=0) for c in (0, 1)])
        squared = (X[test][:, None, :] - centroids[None]) ** 2  # (n_test, 2, p)
        distance = squared @ mask.T  # (n_test, 2, k)
        predicted = (distance[:, 1] < distance[:, 0]).astype(int)  # (n_test, k)
        scores[i] = (predicted == y[test][:, None]).mean(axis=0)
    return scores


def declarations(scores, cv):
    """The claims of one grid: compare_search's default, the refit rule's
    test, and a pair chosen before looking."""
    k = scores.shape[1]
    names = [f"c{j}" for j in range(k)]
    order = np.argsort(-scores.mean(axis=0), kind="stable")
    best, runner_up = names[order[0]], names[order[1]]
    others = [name for name in names if name != best]
    search = compare_split_scores(scores, cv=cv, names=names, control=best)
    (test,) = search.pairwise
    table = search.pairwise[test]
    b = names.index(best)
    worse = {name for name in others if table.reject[names.index(name), b]}
    rule = compare_split_scores(
        scores,
        cv=cv,
        names=names,
        control=best,
        alternative="less",
        pairwise_tests=["corrected_t"],
        correction=None,
    )
    excluded = {
        name
        for name in others
        if rule.pairwise.corrected_t.reject[names.index(name), b]
    }
    fixed = compare_split_scores(scores[:, :2], cv=cv, correction=None)
    return {
        "runner-up": runner_up in worse,
        "per other": len(worse) / len(others),
        "any": bool(worse),
        "rule per other": len(excluded) / len(others),
        "rule runner-up": runner_up in excluded,
        "fixed pair": bool(fixed.pairwise[test].reject[0, 1]),
        "test": test,
    }


def simulate(design, k, reps, seed):
    rng = np.random.default_rng([seed, k, len(design)])
    found = []
    for rep in range(reps):
        cv = designs(rep)[design]
        X, y, mask = draw_grid(rng, k)
        splits = list(cv.split(X, y))
        found.append(declarations(split_scores(X, y, mask, splits), cv))
    return found


COLUMNS = (
    ("runner-up", "best > runner-up"),
    ("per other", "best > a given other"),
    ("any", "best > at least one"),
    ("rule runner-up", "rule: runner-up excluded"),
    ("rule per other", "rule: an other excluded"),
    ("fixed pair", "pair fixed in advance"),
)


def cell(values, reps):
    mean = float(np.mean(values))
    if all(isinstance(v, bool) for v in values):
        low, high = rejection_rate_interval(int(np.sum(values)), reps)
        flag = " (!)" if low > ALPHA else ""
        return f"{mean:.3f} [{low:.3f}, {high:.3f}]{flag}"
    # A share over the candidates of each grid: its standard error over grids.
    se = float(np.std(values, ddof=1) / np.sqrt(reps))
    flag = " (!)" if mean - 1.96 * se > ALPHA else ""
    return f"{mean:.3f} ± {1.96 * se:.3f}{flag}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rst", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    start = time.perf_counter()
    for design in designs(0):
        for k in CANDIDATES:
            found = simulate(design, k, args.reps, args.seed)
            test = found[0]["test"]
            rows.append(
                [design, str(k), test]
                + [cell([f[key] for f in found], args.reps) for key, _ in COLUMNS]
            )
            print(
                f"[{time.perf_counter() - start:6.1f} s] {design}, k = {k} done",
                flush=True,
            )
    header = ["design", "k", "test"] + [label for _, label in COLUMNS]
    print()
    print(format_text_table(header, rows, rst=args.rst))
    print(
        f"\n{args.reps} grids per row, alpha = {ALPHA}; a rate: [Wilson 95% "
        "interval]; a share of the k - 1 other candidates: ± 1.96 standard "
        "errors over the grids; (!) above alpha beyond Monte Carlo error."
    )


if __name__ == "__main__":
    main()
