"""Time and memory of generating every split of a 5×2 BCV.

Compares ``BlockRegularized5x2CV`` and ``StratifiedBlockRegularized5x2CV``
with ``RepeatedKFold(n_splits=2, n_repeats=5)`` (the random 5×2 CV) in the
same run, printing each one's time ratio to ``RepeatedKFold`` (target: at
most 1.5) and peak bytes per record: for each ``n`` the splitters are timed
alternately, ``--repeats`` times each, and the best time kept, so
that background load affects all alike. Every split's indices are consumed
(touched), as a fitting loop would. Peak memory is measured separately with
``tracemalloc`` (numpy reports its allocations to it).

Run from the repository root::

    python benchmarks/bench_split.py            # n = 1e5, 1e6, 1e7
    python benchmarks/bench_split.py --sizes 100000 1000000 --repeats 5
"""

import argparse
import time
import tracemalloc

import numpy as np
from sklearn.model_selection import RepeatedKFold

from sklearn_bcv import BlockRegularized5x2CV, StratifiedBlockRegularized5x2CV


def make_splitters():
    return {
        "BCV 5x2": BlockRegularized5x2CV(random_state=0),
        "RepeatedKFold 2x5": RepeatedKFold(n_splits=2, n_repeats=5, random_state=0),
        "stratified BCV 5x2": StratifiedBlockRegularized5x2CV(random_state=0),
    }


def consume(cv, X, y):
    """Generate every split and touch its indices; returns a checksum."""
    checksum = 0
    for train, test in cv.split(X, y):
        checksum += int(train[-1]) + int(test[-1]) + len(train) + len(test)
    return checksum


def best_time(splitters, X, y, repeats):
    """Best wall time of each splitter, the splitters alternating."""
    best = dict.fromkeys(splitters, np.inf)
    for _ in range(repeats):
        for name, cv in splitters.items():
            start = time.perf_counter()
            consume(cv, X, y)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def peak_memory(cv, X, y):
    """Peak bytes allocated while generating every split."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    consume(cv, X, y)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**5, 10**6, 10**7])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)

    splitters = make_splitters()
    reference = "RepeatedKFold 2x5"
    others = [name for name in splitters if name != reference]
    print(
        "time: best of the alternating runs; ratio: time / RepeatedKFold's "
        "(target <= 1.5); memory: peak bytes per record (linear in n when "
        "it stays flat)"
    )
    print(
        f"{'n':>10}"
        + "".join(f"{name + ' (s)':>24}" for name in splitters)
        + "".join(f"{name + ' ratio':>26}" for name in others)
        + "".join(f"{name + ' B/n':>24}" for name in splitters)
    )
    for n_samples in args.sizes:
        # X is only indexed for its length; y (3 classes) for stratification
        X = np.empty((n_samples, 0))
        y = np.arange(n_samples) % 3
        times = best_time(splitters, X, y, args.repeats)
        peaks = {name: peak_memory(cv, X, y) for name, cv in splitters.items()}
        print(
            f"{n_samples:>10}"
            + "".join(f"{times[name]:>24.3f}" for name in splitters)
            + "".join(f"{times[name] / times[reference]:>26.2f}" for name in others)
            + "".join(f"{peaks[name] / n_samples:>24.1f}" for name in splitters),
            flush=True,
        )


if __name__ == "__main__":
    main()
