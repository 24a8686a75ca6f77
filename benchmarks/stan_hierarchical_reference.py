"""Stan (baycomp's hierarchical program) on fixed inputs: the reference of
tests/test_stats_hierarchical.py (tests/_stan_hierarchical.json).

Needs pystan 3 and a C++ compiler (``pip install pystan``); compiles the
model once (about a minute), then 4 chains × 10,000 draws per input. The
data are prepared exactly as baycomp's ``HierarchicalTest`` does (scaled
by the mean standard deviation of the data sets, bounds of the priors from
the data), without its pickle cache.

Usage::

    python benchmarks/stan_hierarchical_reference.py [output.json]
"""

import json
import os
import time

import baycomp
import numpy as np
import stan
from scipy import stats

stan_file = os.path.join(os.path.dirname(baycomp.__file__), "hierarchical-t-test.stan")
code = open(stan_file).read()


def inputs():
    rng = np.random.default_rng(20261125)
    cases = {}
    # 6 data sets x 10 folds, rho 0.1 (the user guide's check)
    d = 0.01 + 0.01 * rng.standard_normal((6, 1)) + 0.02 * rng.standard_normal((6, 10))
    cases["six_10fold"] = dict(diff=d.tolist(), runs=1, rope=0.01)
    # 12 data sets x 5x2 (runs=5 -> rho 0.5), close to no difference
    d = 0.002 * rng.standard_normal((12, 1)) + 0.03 * rng.standard_normal((12, 10))
    cases["twelve_5x2"] = dict(diff=d.tolist(), runs=5, rope=0.01)
    # 8 data sets x 10 folds, rope 0, heterogeneous data sets
    d = 0.02 * rng.standard_t(2, (8, 1)) + 0.01 * rng.standard_normal((8, 10))
    cases["eight_rope0"] = dict(diff=d.tolist(), runs=1, rope=0.0)
    return cases


def prepare(diff, runs, rope):
    std_diff = np.mean(np.std(diff, axis=1))
    rope, diff = rope / std_diff, diff / std_diff
    q, n = diff.shape
    std_within = np.mean(np.std(diff, axis=1))
    std_among = np.std(np.mean(diff, axis=1))
    maxdiff = np.max(np.abs(diff))
    data = dict(
        x=diff,
        Nsamples=n,
        q=q,
        rho=1 / (n / runs),
        deltaLow=-maxdiff,
        deltaHi=maxdiff,
        lowerAlpha=1,
        upperAlpha=2,
        lowerBeta=0.01,
        upperBeta=0.1,
        stdLow=0,
        stdHi=std_within * 1000,
        std0Low=0,
        std0Hi=std_among * 1000,
    )
    return data, rope, std_diff


out = {}
for name, case in inputs().items():
    diff = np.array(case["diff"])
    data, rope, scale = prepare(diff, case["runs"], case["rope"])
    t = time.time()
    model = stan.build(code, data=data, random_seed=1)
    fit = model.sample(num_chains=4, num_samples=10000)
    elapsed = time.time() - t
    mu, std0, nu = fit["delta0"][0], fit["std0"][0], fit["nu"][0]
    right = 1 - stats.t.cdf(rope, nu, mu, std0)
    left = stats.t.cdf(-rope, nu, mu, std0)
    mid = 1 - right - left
    winners = np.argmax(np.stack([left, mid, right], 1), axis=1)
    pl, pe, pr = np.bincount(winners, minlength=3) / len(winners)
    out[name] = dict(
        case,
        p_a_better=pr,
        p_rope=pe,
        p_b_better=pl,
        delta0_mean=float(mu.mean() * scale),
        delta0_sd=float(mu.std() * scale),
        p_delta0_positive=float(np.mean(mu > 0)),
        sigma0_median=float(np.median(std0) * scale),
        nu_median=float(np.median(nu)),
        n_draws=int(mu.size),
        seconds=elapsed,
    )
    print(name, {k: v for k, v in out[name].items() if k != "diff"}, flush=True)
import sys  # noqa: E402

with open(sys.argv[1] if len(sys.argv) > 1 else "stan_hierarchical.json", "w") as f:
    json.dump(out, f, indent=1)
