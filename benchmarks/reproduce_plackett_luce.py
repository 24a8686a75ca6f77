"""Evidence for the Bayesian Plackett–Luce ranking.

(a) **Quadrature.** Three estimators on eight data sets (ties at the top,
    in the middle and of all three), and six data sets ranking them alike:
    the exact posterior by quadrature on the simplex (500 × 500
    Gauss–Legendre nodes, each weak order's likelihood by enumerating the
    orders it merges) beside the sampler (16,000 draws, two seeds).
(b) **Null.** Exchangeable estimators, every score drawn from one
    distribution (standard normal, or an accuracy on 50 test records,
    binomial(50, 0.8)/50, with ties): the mean P(best) of each estimator
    (1/k expected), the mean of the largest P(best), and how often one is
    declared the best (P(best) > 0.95), with a 95% Wilson interval.
(c) **scmamp.** The vignette of scmamp's ``bPlackettLuceModel`` (Calvo's
    "Bayesian analysis of the algorithm rankings"; data of Blum, Calvo and
    Blesa 2015, tests/_blum_2015.csv): its published numbers beside ours
    with ties broken at random as scmamp does (mean ± sd over ``--breaks``
    tie-breaks), and with ties kept as ties.

Run from the repository root (about 5 minutes on two shared cores)::

    python benchmarks/reproduce_plackett_luce.py
    python benchmarks/reproduce_plackett_luce.py --experiments 1000
"""

import argparse
import csv
import warnings
from pathlib import Path

import numpy as np
from scipy.stats import binomtest
from sklearn.exceptions import ConvergenceWarning

from sklearn_bcv.simulation._plackett_luce import null_rankings, simplex_quadrature
from sklearn_bcv.stats import plackett_luce

BLUM = Path(__file__).resolve().parents[1] / "tests" / "_blum_2015.csv"
BLUM_NAMES = [
    "FruitFly",
    "Shukla",
    "Ikeda",
    "Turau",
    "Rand1",
    "Rand2",
    "FrogCOL",
    "FrogMIS",
]
TIED = np.array(
    [
        [0, 1, 2],
        [0, 0, 1],
        [1, 0, 0],
        [0, 1, 0],
        [0, 2, 1],
        [2, 1, 0],
        [0, 1, 1],
        [0, 0, 0],
    ]
)


def _row(label, values):
    return f"  {label:28s}" + "  ".join(f"{v:8.4f}" for v in np.ravel(values))


def quadrature():
    print("(a) exact posterior by quadrature against the sampler (k = 3)")
    cases = [
        ("8 data sets with ties, prior 1", TIED, 1.0),
        ("8 data sets with ties, prior 2.5", TIED, 2.5),
        ("6 data sets alike, prior 1", np.tile([0, 1, 2], (6, 1)), 1.0),
    ]
    for title, levels, prior in cases:
        exact = simplex_quadrature(levels, prior)
        print(f" {title}")
        print(
            f"  {'':28s}{'w1':>8s}  {'w2':>8s}  {'w3':>8s}  "
            f"{'P1(best)':>8s}  {'P2(best)':>8s}  {'P3(best)':>8s}"
        )
        print(_row("quadrature", np.r_[exact["weights"], exact["prob_best"]]))
        for seed in (0, 1):
            result = plackett_luce(
                -levels.astype(float), prior=prior, n_samples=16000, random_state=seed
            )
            print(
                _row(f"sampler, seed {seed}", np.r_[result.weights, result.prob_best])
            )
            print(
                _row(
                    "  its Monte Carlo se",
                    np.r_[
                        np.diff(result.weights_interval, axis=1)[:, 0]
                        / 4
                        / np.sqrt(result.diagnostics.ess),
                        result.diagnostics.prob_best_se,
                    ],
                )
            )


def null(experiments):
    print(f"(b) exchangeable estimators, {experiments} experiments per row")
    print(
        f"  {'scores':10s} {'k':>2s} {'N':>3s} {'tied rows':>9s} "
        f"{'mean P(best), each estimator':>40s} {'mean max':>8s}  "
        f"declared best [95% CI]"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for scores in ("normal", "discrete"):
            for k, n in ((3, 10), (5, 20), (8, 30)):
                out = null_rankings(
                    experiments, k=k, n_datasets=n, scores=scores, random_state=k * n
                )
                decided = int(round(out["decisions"] * experiments))
                ci = binomtest(decided, experiments).proportion_ci(method="wilson")
                means = " ".join(f"{p:.3f}" for p in out["prob_best"].mean(axis=0))
                print(
                    f"  {scores:10s} {k:2d} {n:3d} {out['tied_datasets']:9.2f} "
                    f"{means:>40s} {out['max_prob_best'].mean():8.3f}  "
                    f"{decided / experiments:.3f} [{ci.low:.3f}, {ci.high:.3f}]"
                )


def _blum(size, columns=BLUM_NAMES):
    with open(BLUM, newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if int(r["Size"]) == size]
    return np.array([[float(r[c]) for c in columns] for r in rows])


def _break_ties_at_random(scores, rng):
    out = np.empty_like(scores)
    jitter = rng.random(scores.shape)
    for i, row in enumerate(scores):
        out[i, np.lexsort((jitter[i], -row))] = -np.arange(len(row))
    return out


def _tied_rows(scores):
    return int(sum(len(set(row)) < len(row) for row in scores))


def scmamp(breaks):
    print(f"(c) scmamp's vignette; ours: mean ± sd over {breaks} random tie-breaks")
    rng = np.random.default_rng(0)
    scores = _blum(100)
    print(f" size 100, 8 algorithms, {_tied_rows(scores)} of 300 rows tied:")
    published_w = [0.0142, 0.0047, 0.0044, 0.0048, 0.0044, 0.0053, 0.9245, 0.0377]
    published_r = [3.0, 5.9071, 7.1179, 5.7144, 6.9245, 4.3361, 1.0, 2.0]
    runs = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for b in range(breaks):
            r = plackett_luce(
                _break_ties_at_random(scores, rng), names=BLUM_NAMES, random_state=b
            )
            runs.append(np.r_[r.weights, r.expected_rank])
    runs = np.array(runs)
    kept = plackett_luce(scores, names=BLUM_NAMES, random_state=0)
    print(
        f"  {'algorithm':10s} {'expected.win.prob':>17s} {'ours, ties broken':>19s} "
        f"{'ties kept':>9s}   {'expected.mode.rank':>18s} {'ours, ties broken':>17s} "
        f"{'ties kept':>9s}"
    )
    for j, name in enumerate(BLUM_NAMES):
        print(
            f"  {name:10s} {published_w[j]:17.4f} {runs[:, j].mean():10.4f} ± "
            f"{runs[:, j].std(ddof=1):.4f} {kept.weights[j]:9.4f}   "
            f"{published_r[j]:18.4f} {runs[:, 8 + j].mean():8.2f} ± "
            f"{runs[:, 8 + j].std(ddof=1):6.2f} {kept.expected_rank[j]:9.2f}"
        )
    for size, columns, published in (
        (1000, BLUM_NAMES, (0.86, 0.853)),
        (1000, ["FruitFly", "FrogCOL", "FrogMIS"], (0.893, 0.753)),
    ):
        scores = _blum(size, columns)
        fc, fm, ff = (columns.index(n) for n in ("FrogCOL", "FrogMIS", "FruitFly"))
        values = []
        for b in range(breaks):
            r = plackett_luce(
                _break_ties_at_random(scores, rng), names=columns, random_state=b
            )
            values.append((r.prob_beats[fc, fm], r.prob_beats[fc, ff]))
        values = np.array(values)
        kept = plackett_luce(scores, names=columns, random_state=0)
        print(
            f" size {size}, {len(columns)} algorithms, {_tied_rows(scores)} of 300 "
            "rows tied: P(FrogCOL before FrogMIS), P(FrogCOL before FruitFly)"
        )
        print(
            f"  scmamp {published[0]:.3f}, {published[1]:.3f}; ours, ties broken "
            f"{values[:, 0].mean():.3f} ± {values[:, 0].std(ddof=1):.3f}, "
            f"{values[:, 1].mean():.3f} ± {values[:, 1].std(ddof=1):.3f}; ties kept "
            f"{kept.prob_beats[fc, fm]:.3f}, {kept.prob_beats[fc, ff]:.3f}"
        )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--experiments", type=int, default=200)
    parser.add_argument("--breaks", type=int, default=20)
    args = parser.parse_args()
    quadrature()
    null(args.experiments)
    scmamp(args.breaks)


if __name__ == "__main__":
    main()
