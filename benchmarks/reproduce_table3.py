"""Wang, Li & Li's Tables 3 and 5: F(7, 5) 5×2 BCV test vs Alpaydın's F on a poor
partition and the blocked 3×2 t-test.

Every replication draws a data set (Table 3: two Gaussian classes, n = 200,
cases (1)–(8); Table 5: iris and wine, the data set as the population,
partitioned afresh), compares each pair of learners
(:func:`sklearn_bcv.simulation.seed001_estimators`) with the three tests
on their own designs, and counts rejections at alpha = 0.05
(:func:`sklearn_bcv.simulation.simulate_seed001`). Prints our rates (± half
the 95% Wilson interval) with the paper's below them.

The default is a reduced run that takes a few minutes on 2 cores: 500
replications of the cheap RT-vs-LS row, 10 of the rows with random forests
and AdaBoost, and 10 of Table 5. ``--full`` runs the paper's 5,000
replications everywhere: the RT-vs-LS row takes minutes, the others about
a day of one core each, which is what ``--scheduler`` is for.

Usage::

    python benchmarks/reproduce_table3.py                    # reduced
    python benchmarks/reproduce_table3.py --full --pairs rt_ls --n-jobs 2
    python benchmarks/reproduce_table3.py --full --scheduler tcp://host:8786
    python benchmarks/reproduce_table3.py --speedup          # n_jobs 2 vs 1
    python benchmarks/reproduce_table3.py --table4 --pairs mlp10_mlp10 lp_mlp10
"""

import argparse
import time
from contextlib import nullcontext

from joblib import parallel_config

from sklearn_bcv.simulation import simulate_seed001

TABLE3_PAIRS = ("rt_ls", "svm_rf", "svm_ab", "ab_rf")
TABLE5_PAIRS = ("svm_rf", "svm_lda", "lda_rf")
TABLE4_PAIRS = tuple(
    pair
    for units in (3, 10, 20)
    for pair in (f"mlp{units}_mlp{units}", f"lp_mlp{units}")
)
#: Replications of the reduced run.
REDUCED = {
    "rt_ls": 500,
    "svm_rf": 10,
    "svm_ab": 10,
    "ab_rf": 10,
    "table5": 10,
    "table4": 10,
}


def _cluster(address):
    """Run joblib's tasks on a dask.distributed cluster."""
    if address is None:
        return nullcontext()
    from dask.distributed import Client

    client = Client(address)
    print(f"dask cluster: {client}")
    return parallel_config(backend="dask")


def _run(title, n, rst, **kwargs):
    result = simulate_seed001(n, **kwargs)
    print(f"\n{title}: {n} replications per cell ({result.elapsed:.1f} s)")
    print(result.to_text(rst=rst))
    return result


def speedup(n, seed):
    """The RT-vs-LS row with n_jobs = 1 and 2, side by side in one run."""
    times, counts = {}, {}
    for n_jobs in (1, 2):
        start = time.perf_counter()
        result = simulate_seed001(n, pairs="rt_ls", n_jobs=n_jobs, random_state=seed)
        times[n_jobs] = time.perf_counter() - start
        counts[n_jobs] = result.counts
        print(
            f"RT vs LS, {n} replications x 8 cases, n_jobs={n_jobs}: "
            f"{times[n_jobs]:.1f} s"
        )
    print(f"speed-up n_jobs=2 / n_jobs=1: {times[1] / times[2]:.2f}x")
    print(f"same rejections with n_jobs=1 and 2: {counts[1] == counts[2]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="5,000 per cell")
    parser.add_argument("--repetitions", type=int, default=None)
    parser.add_argument("--pairs", nargs="+", default=None)
    parser.add_argument("--no-table5", action="store_true")
    parser.add_argument(
        "--table4", action="store_true", help="also Table 4 (MLPs; slower)"
    )
    parser.add_argument("--rst", action="store_true")
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--scheduler", default=None, help="dask scheduler address")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speedup", action="store_true")
    args = parser.parse_args()
    if args.speedup:
        speedup(args.repetitions or 100, args.seed)
        return
    start = time.perf_counter()
    n_jobs = -1 if args.scheduler and args.n_jobs is None else args.n_jobs
    common = {"n_jobs": n_jobs, "random_state": args.seed}

    def repetitions(key):
        if args.repetitions:
            return args.repetitions
        return 5000 if args.full else REDUCED[key]

    with _cluster(args.scheduler):
        for pair in args.pairs or TABLE3_PAIRS:
            if pair in TABLE3_PAIRS:
                title = f"Table 3, {pair}"
                _run(title, repetitions(pair), args.rst, pairs=pair, **common)
        table5 = [p for p in args.pairs or TABLE5_PAIRS if p in TABLE5_PAIRS]
        if table5 and not args.no_table5:
            _run(
                "Table 5 (iris, wine)",
                repetitions("table5"),
                args.rst,
                pairs=table5,
                cases=["iris", "wine"],
                **common,
            )
        if args.table4:
            _run(
                "Table 4 (iris, wine)",
                repetitions("table4"),
                args.rst,
                pairs=[p for p in args.pairs or TABLE4_PAIRS if p in TABLE4_PAIRS],
                cases=["iris", "wine"],
                **common,
            )
    print(f"\ntotal {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
