"""Tables with holes and the replicability count, by simulation.

Part 1 -- **type I error of the Skillings–Mack test** on null tables (every
estimator has the same expected score on every data set) with holes:

* ``at random``: each cell missing with probability 10 %, 20 % or 30 %;
* ``one estimator``: estimator 0 missing with probability 40 %, the others
  10 %;
* ``hard data sets``: estimator 0 missing on 75 % of the hardest 40 % of the
  data sets (those of lowest level), never elsewhere.

Scores: data set levels uniform over (0.6, 0.95), N(0, 0.02²) noise,
rounded to two decimals (ties, as real tables have). Rates of the
Skillings–Mack test and of its post hoc family (Holm, all pairs: the
family-wise error) at alpha = 0.05, beside Friedman's test on the data sets
without a hole (``missing="drop"``) and the share of tables that
``"drop"`` cannot analyse at all (fewer than two data sets left). Then
Durbin's test on a balanced incomplete block design (seven estimators,
blocks of three: the Fano plane, repeated).

Part 2 -- **what dropping data sets costs**, with holes tied to difficulty:
five estimators on 30 data sets, 40 % of them hard; on the hard ones a
robust estimator (1) is better by 0.04 than the others, and a fragile one
(0) fails (a hole) 80 % of the time; on the easy ones all are equal.
Compared: the complete table (had nothing failed), the table with its holes
kept (Skillings–Mack) and the table without the data sets with a hole
(Friedman): how often the post hoc family (Holm) finds the robust estimator
better than estimator 2, the mean rank of the robust estimator, and the
data sets used.

Part 3 -- **error rate of the replicability count**: two estimators on 20
data sets, the per-split differences of a 10-fold CV of 100 records (10
splits, correlation 0.1 between splits, sd 0.02), A better by 0.04 on u0 of
the data sets and equal on the others; ``compare_scores(..., n_train=90,
n_test=10, alternative="greater")``'s replicability count (one-sided
corrected t test on each data set, partial conjunctions). Rates: the count
above u0 (its error, to stay at or below 0.05), a null data set among those
identified, and the mean count.

Usage::

    python benchmarks/reproduce_missing.py            # 2,000 tables per cell
    python benchmarks/reproduce_missing.py --reps 400  # a quick look

About 6 minutes for the default on two busy cores.
"""

import argparse
import time
import warnings

import numpy as np

from sklearn_bcv import compare_scores
from sklearn_bcv.simulation import rejection_rate_interval
from sklearn_bcv.stats import (
    durbin,
    friedman,
    friedman_posthoc,
    skillings_mack,
    skillings_mack_posthoc,
)

ALPHA = 0.05


def null_table(rng, n, k):
    level = rng.uniform(0.6, 0.95, size=(n, 1))
    return np.round(level + rng.normal(0, 0.02, size=(n, k)), 2), level[:, 0]


def holes_at_random(rng, n, k, share):
    return rng.uniform(size=(n, k)) < share


def holes_one_estimator(rng, n, k):
    rates = np.full(k, 0.1)
    rates[0] = 0.4
    return rng.uniform(size=(n, k)) < rates


def holes_hard(rng, level, k):
    n = level.size
    hard = level <= np.quantile(level, 0.4)
    holes = np.zeros((n, k), dtype=bool)
    holes[:, 0] = hard & (rng.uniform(size=n) < 0.75)
    return holes


PATTERNS = {
    "at random 10%": lambda rng, n, k, level: holes_at_random(rng, n, k, 0.1),
    "at random 20%": lambda rng, n, k, level: holes_at_random(rng, n, k, 0.2),
    "at random 30%": lambda rng, n, k, level: holes_at_random(rng, n, k, 0.3),
    "one estimator": lambda rng, n, k, level: holes_one_estimator(rng, n, k),
    "hard data sets": lambda rng, n, k, level: holes_hard(rng, level, k),
}


def part1(reps, seed):
    rows = []
    for pattern, make in PATTERNS.items():
        for n in (10, 30):
            for k in (4, 8):
                rng = np.random.default_rng([seed, n, k, len(rows)])
                sm = post = drop = drop_n = invalid = 0
                share = []
                for _ in range(reps):
                    scores, level = null_table(rng, n, k)
                    holes = make(rng, n, k, level)
                    holed = np.where(holes, np.nan, scores)
                    share.append(np.mean(holes))
                    try:
                        result = skillings_mack(holed)
                    except ValueError:  # an estimator never beside another
                        invalid += 1
                        continue
                    sm += result.pvalue < ALPHA
                    post += bool(skillings_mack_posthoc(holed).reject.any())
                    kept = scores[~holes.any(axis=1)]
                    if kept.shape[0] >= 2:
                        drop_n += 1
                        drop += friedman(kept).pvalue < ALPHA
                valid = reps - invalid
                rows.append(
                    (
                        pattern,
                        n,
                        k,
                        f"{float(np.mean(share)):.2f}",
                        _rate(sm, valid),
                        _rate(post, valid),
                        _rate(drop, drop_n) if drop_n else "-",
                        f"{1 - drop_n / reps:.2f}",
                    )
                )
    print(
        "Part 1: type I error with holes (alpha = 0.05, "
        f"{reps} tables per row; Monte Carlo sd {np.sqrt(0.05 * 0.95 / reps):.4f})"
    )
    _print(
        (
            "holes",
            "N",
            "k",
            "cells missing",
            "Skillings-Mack",
            "its post hoc (FWER)",
            "Friedman after drop",
            "drop impossible",
        ),
        rows,
    )
    # Durbin on a balanced incomplete block design: the Fano plane.
    fano = [{t % 7 for t in (i, i + 1, i + 3)} for i in range(7)]
    rows = []
    for copies in (2, 4):
        design = fano * copies
        observed = np.zeros((len(design), 7), dtype=bool)
        for i, block in enumerate(design):
            observed[i, list(block)] = True
        rng = np.random.default_rng([seed, copies])
        chi2 = f = sm = 0
        for _ in range(reps):
            scores, _ = null_table(rng, len(design), 7)
            holed = np.where(observed, scores, np.nan)
            result = durbin(holed)
            chi2 += result.pvalue < ALPHA
            f += result.f_test.pvalue < ALPHA
            sm += skillings_mack(holed).pvalue < ALPHA
        rows.append((len(design), _rate(chi2, reps), _rate(f, reps), _rate(sm, reps)))
    print("\nDurbin's test on a BIBD (7 estimators, blocks of 3, lambda = copies)")
    _print(("N", "Durbin chi2", "Durbin F", "Skillings-Mack"), rows)


def part2(reps, seed):
    n, k, delta = 30, 5, 0.04
    rng = np.random.default_rng([seed, 2])
    found = {"complete": 0, "holes kept": 0, "drop": 0}
    rank = {"complete": [], "holes kept": [], "drop": []}
    used = []
    for _ in range(reps):
        level = rng.uniform(0.6, 0.95, size=n)
        hard = level <= np.quantile(level, 0.4)
        scores = level[:, None] + rng.normal(0, 0.02, size=(n, k))
        scores[hard, 1] += delta
        scores = np.round(scores, 2)
        holes = np.zeros((n, k), dtype=bool)
        holes[:, 0] = hard & (rng.uniform(size=n) < 0.8)
        holed = np.where(holes, np.nan, scores)
        kept = scores[~holes.any(axis=1)]
        used.append(kept.shape[0])
        for name, post in (
            ("complete", friedman_posthoc(scores)),
            ("holes kept", skillings_mack_posthoc(holed)),
            ("drop", friedman_posthoc(kept)),
        ):
            found[name] += bool(post.reject[1, 2])
            rank[name].append(post.mean_ranks[1])
    rows = [
        (
            name,
            _rate(found[name], reps),
            f"{np.mean(rank[name]):.3f}",
            "30" if name != "drop" else f"{np.mean(used):.1f}",
        )
        for name in found
    ]
    print(
        "\nPart 2: holes tied to difficulty (fragile estimator 0 fails on 80% of "
        f"the hard data sets, robust estimator 1 better by {delta} there; "
        f"{reps} tables)"
    )
    _print(
        (
            "table",
            "robust > estimator 2 (post hoc, Holm)",
            "mean rank of robust",
            "data sets used",
        ),
        rows,
    )


def _replicability_rates(rng, reps, u0, method, n=20, n_splits=10):
    rho, sd, delta = 0.1, 0.02, 0.04
    over = wrong = 0
    counts = []
    for _ in range(reps):
        effect = np.zeros(n)
        effect[:u0] = delta
        shared = rng.normal(0, sd * np.sqrt(rho), size=(n, 1))
        own = rng.normal(0, sd * np.sqrt(1 - rho), size=(n, n_splits))
        d = effect[:, None] + shared + own
        base = rng.uniform(0.6, 0.9, size=(n, n_splits))
        splits = np.stack([base + d, base], axis=2)
        result = compare_scores(
            splits,
            n_train=90,
            n_test=10,
            tests=[],
            pairwise_tests=[],
            effect_size=False,
            alternative="greater",
            replicability=method,
        )
        one = result.replicability.results[("estimator_0", "estimator_1")].a_better
        over += one.count > u0
        wrong += any(i >= u0 for i in one.identified)
        counts.append(one.count)
    return over, wrong, float(np.mean(counts))


def part3(reps, seed):
    rows = []
    for method in ("bonferroni", "fisher"):
        for u0 in (0, 5, 15):
            rng = np.random.default_rng([seed, 3, u0])
            over, wrong, mean = _replicability_rates(rng, reps, u0, method)
            rows.append(
                (method, u0, _rate(over, reps), _rate(wrong, reps), f"{mean:.2f}")
            )
    print(
        "\nPart 3: the replicability count (20 data sets, A better on u0; "
        f"alpha = 0.05 one-sided; {reps} tables)"
    )
    _print(
        (
            "method",
            "u0",
            "count > u0 (error)",
            "a null data set identified",
            "mean count",
        ),
        rows,
    )


def _rate(hits, n):
    low, high = rejection_rate_interval(int(hits), int(n))
    return f"{hits / n:.4f} [{low:.3f}, {high:.3f}]"


def _print(header, rows):
    widths = [
        max(len(str(header[i])), *(len(str(r[i])) for r in rows))
        for i in range(len(header))
    ]
    print("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parts", default="123")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    for part in args.parts:
        start = time.perf_counter()
        {"1": part1, "2": part2, "3": part3}[part](args.reps, args.seed)
        print(f"({time.perf_counter() - start:.0f} s)\n")


if __name__ == "__main__":
    main()
