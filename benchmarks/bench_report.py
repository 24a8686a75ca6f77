"""Cost of ``result.report(format)`` on a 30 data sets × 8 estimators
result, measured side by side.

The result is :func:`~sklearn_bcv.compare_scores` on a generated table
(30 data sets, 8 estimators, 10 per-split scores each, so the tables show
mean ± sd), with a hand-built ``effect_sizes`` list of the 28 pairs so the
effect-size table is rendered too. Targets: under 1 s for text, markdown
and LaTeX, under 3 s for HTML with its figure (the critical difference
diagram as inline SVG). Beside them, for scale: ``str(result)`` (the
printed summary) and HTML without figures, which isolates the cost of
drawing and serialising the SVG.

Each format runs ``--repeats`` times (default 5), alternating, and keeps
its best time.

Run from the repository root::

    python benchmarks/bench_report.py
"""

import argparse
from itertools import combinations

import numpy as np
from _timing import best_of
from sklearn.utils import Bunch

from sklearn_bcv import compare_scores
from sklearn_bcv._results._report import render_report

TARGETS = {"text": 1.0, "markdown": 1.0, "latex": 1.0, "html": 3.0}


def build_result(n_datasets=30, k=8, n_splits=10, seed=0):
    rng = np.random.default_rng(seed)
    level = rng.normal(0.8, 0.05, (n_datasets, 1, 1))
    skill = np.linspace(0.0, 0.04, k)
    split_scores = level + skill + rng.normal(0, 0.03, (n_datasets, n_splits, k))
    names = [f"estimator_{j}" for j in range(k)]
    result = compare_scores(
        split_scores,
        names=names,
        datasets=[f"data_{i}" for i in range(n_datasets)],
        random_state=0,
    )
    scores = np.asarray(result.scores)
    effects = []
    for a, b in combinations(range(k), 2):
        d = scores[:, a] - scores[:, b]
        estimate = float(d.mean() / d.std(ddof=1))
        effects.append(
            Bunch(
                a=names[a],
                b=names[b],
                kind="cohen_dz",
                estimate=estimate,
                confidence_interval=(estimate - 0.4, estimate + 0.4),
                confidence_level=0.95,
                magnitude="large" if abs(estimate) >= 0.8 else "small",
                note=None,
            )
        )
    result["effect_sizes"] = effects
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    result = build_result()
    contenders = {
        "str(result)": lambda: str(result),
        **{
            format: (lambda format=format: result.report(format))
            for format in ("text", "markdown", "latex", "html")
        },
        "html, no figures": lambda: render_report(result, "html", figures=False),
    }
    # One warm-up call each (imports of matplotlib and the like).
    for func in contenders.values():
        func()
    best = best_of(contenders, args.repeats)
    print(
        f"report() of a {len(result.datasets)} data sets x {len(result.names)} "
        f"estimators result, best of {args.repeats}:"
    )
    print(f"  {'format':<18}{'time (s)':>10}{'target (s)':>12}  ok")
    for name, seconds in best.items():
        target = TARGETS.get(name)
        target_text = "-" if target is None else f"< {target:g}"
        ok = "" if target is None else ("yes" if seconds < target else "NO")
        print(f"  {name:<18}{seconds:>10.4f}{target_text:>12}  {ok}")
    html = result.report("html")
    print(f"HTML size: {len(html) / 1024:.0f} KiB, {html.count('<svg')} figure(s)")


if __name__ == "__main__":
    main()
