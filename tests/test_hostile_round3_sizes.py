"""Hostile input, round 3: unbounded work (class 7), refused before any work.

One integer check (:func:`sklearn_bcv._checks.check_integer`) for every
size; a size whose work or memory grows with it has a documented upper
bound, named in the message. "Before any work" is checked by making the
work itself fail: a refusal that came late would raise that failure
instead.
"""

import re
from numbers import Integral

import numpy as np
import pytest

from sklearn_bcv import simulation
from sklearn_bcv._checks import check_integer
from sklearn_bcv.simulation import (
    simulate_comparisons,
    simulate_null_across,
    simulate_seed001,
    simulate_seed002,
    simulate_sequential,
)
from sklearn_bcv.simulation._checks import (
    MAX_BLOCK_CELLS,
    MAX_DATASETS,
    MAX_ESTIMATORS,
    MAX_EXPERIMENTS,
    MAX_RECORDS,
    MAX_RUNS,
    MAX_SEED001_RECORDS,
    MAX_SPLITS,
    check_grid,
)
from sklearn_bcv.stats import (
    almost_stochastic_order,
    bayesian_hierarchical,
    effect_size,
)
from sklearn_bcv.stats._effect import MAX_RESAMPLES
from sklearn_bcv.stats._hierarchical import MAX_CHAINS, MAX_SAMPLES, MAX_WARMUP

# ---- the one check ------------------------------------------------------------


@pytest.mark.parametrize(
    "value, kwargs, message",
    [
        (2.5, {"low": 1}, "n must be an integer >= 1; got 2.5 of type float."),
        (5.0, {"low": 1}, "n must be an integer >= 1; got 5.0 of type float."),
        (True, {"low": 0}, "n must be an integer >= 0; got True of type bool."),
        ("7", {"low": 1}, "n must be an integer >= 1; got '7' of type str."),
        (None, {"low": 1}, "n must be an integer >= 1; got None of type NoneType."),
        (0, {"low": 1}, "n must be an integer >= 1; got 0."),
        (0, {"low": 1, "high": 9}, "n must be an integer >= 1 and <= 9; got 0."),
        (10, {"low": 1, "high": 9}, "n must be at most 9; got 10."),
        (
            10**7,
            {"low": 1, "high": 10**6, "why": "more only costs time"},
            "n must be at most 1,000,000 (more only costs time); got 10000000.",
        ),
        (3, {"low": 5, "low_label": "m=5"}, "n must be an integer >= m=5; got 3."),
    ],
)
def test_check_integer_messages(value, kwargs, message):
    with pytest.raises(ValueError) as info:
        check_integer(value, name="n", **kwargs)
    assert str(info.value) == message


@pytest.mark.parametrize("value", [1, 9, np.int64(5), np.uint8(3)])
def test_check_integer_returns_python_ints(value):
    out = check_integer(value, name="n", low=1, high=9)
    assert out == value and type(out) is int


def test_integer_grids_go_through_the_same_check():
    assert check_grid([1, np.int32(2)], "n_runs", kind=Integral, low=1) == (1, 2)
    with pytest.raises(ValueError, match=r"^n_runs must be at most 4; got 5\.$"):
        check_grid([1, 5], "n_runs", kind=Integral, low=1, high=4)
    with pytest.raises(ValueError, match="n_runs must be an integer >= 2; got 1"):
        check_grid(1, "n_runs", kind=Integral, low=1, closed=(False, True))


# ---- the statistics -----------------------------------------------------------

A, B = [0.80, 0.85, 0.90, 0.82, 0.88], [0.78, 0.80, 0.86, 0.81, 0.83]
D = np.random.default_rng(0).normal(0.01, 0.02, (4, 10))


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: effect_size(A, B, n_resamples=MAX_RESAMPLES + 1),
            "n_resamples must be at most 1,000,000",
        ),
        (lambda: effect_size(A, B, n_resamples=10**12), "n_resamples must be at most"),
        (
            lambda: bayesian_hierarchical(D, 100, 100, n_samples=MAX_SAMPLES + 1),
            "n_samples must be at most 1,000,000",
        ),
        (
            lambda: bayesian_hierarchical(D, 100, 100, n_chains=MAX_CHAINS + 1),
            "n_chains must be at most 100",
        ),
        (
            lambda: bayesian_hierarchical(D, 100, 100, n_warmup=MAX_WARMUP + 1),
            "n_warmup must be at most 100,000",
        ),
        (
            lambda: almost_stochastic_order(A, B, n_bootstrap=10**7 + 1),
            "n_bootstrap must be at most 10,000,000",
        ),
        (
            lambda: bayesian_hierarchical(D, 100, 100, n_samples=2.5),
            "n_samples must be an integer >= 4 and <= 1,000,000; got 2.5 of type",
        ),
    ],
)
def test_statistics_refuse_absurd_sizes_before_any_work(monkeypatch, call, message):
    from scipy import stats as sp_stats

    from sklearn_bcv.stats import _aso, _hierarchical

    def no_work(*args, **kwargs):
        raise AssertionError("the work started")

    monkeypatch.setattr(sp_stats, "bootstrap", no_work)
    monkeypatch.setattr(_hierarchical, "_prepare", no_work)
    monkeypatch.setattr(_aso, "_aso_core", no_work)
    with pytest.raises(ValueError, match=message):
        call()


# ---- the simulations ----------------------------------------------------------

NULL, SEED002, SEQ, SEED001 = (
    simulate_null_across,
    simulate_seed002,
    simulate_sequential,
    simulate_seed001,
)
AT_MOST = "must be at most"
SIZES = [
    (NULL, {"n_estimators": MAX_ESTIMATORS + 1}, f"n_estimators {AT_MOST} 50"),
    (NULL, {"n_estimators": 1000}, f"n_estimators {AT_MOST} 50"),
    (NULL, {"n_splits": 10**7}, f"n_splits {AT_MOST} 1,000"),
    (NULL, {"n_datasets": 10**6}, f"n_datasets {AT_MOST} 10,000"),
    (NULL, {"n_experiments": MAX_EXPERIMENTS + 1}, f"n_experiments {AT_MOST} 100,000"),
    (NULL, {"n_datasets": MAX_DATASETS, "n_splits": MAX_SPLITS},
     f"n_datasets × n_splits × n_estimators {AT_MOST} 100,000"),
    (NULL, {"n_datasets": 10_000, "n_estimators": 20, "setups": ["exchangeable"]},
     f"n_datasets × n_estimators {AT_MOST} 100,000"),
    (NULL, {"n_samples": 10**9}, f"n_samples × (data sets + 1) {AT_MOST}"),
    (NULL, {"n_estimators": 2.0}, "n_estimators must be an integer >= 2"),
    (SEED002, {"n_experiments": 10**9}, f"n_experiments {AT_MOST} 100,000"),
    (SEED002, {"n_runs": (1, MAX_RUNS + 1)}, f"n_runs {AT_MOST} 100"),
    (SEED002, {"n_datasets": 10**6}, f"n_datasets {AT_MOST} 10,000"),
    (SEED002, {"n_datasets": 5000, "n_runs": (10,)}, f"{AT_MOST} 100,000, as a block"),
    (SEQ, {"n_repetitions": 10**6}, f"n_repetitions {AT_MOST} 100,000"),
    (SEQ, {"n_samples": [100, MAX_RECORDS + 1]}, f"n_samples {AT_MOST} 100,000"),
    (SEQ, {"setup": "epsilon", "n_samples": 50_000, "n_repetitions": 10_000},
     f"n_repetitions × n_samples {AT_MOST} 100,000,000"),
    (SEED001, {"n_repetitions": 10**6}, f"n_repetitions {AT_MOST} 100,000"),
    (SEED001, {"n_samples": MAX_SEED001_RECORDS + 1}, f"n_samples {AT_MOST} 10,000"),
    (SEED001, {"batch_size": 10**6}, "batch_size"),
]  # fmt: skip


@pytest.mark.parametrize(
    "function, kwargs, message",
    SIZES,
    ids=[f"{f.__name__}-{'-'.join(kw)}-{i}" for i, (f, kw, _) in enumerate(SIZES)],
)
def test_simulations_refuse_absurd_sizes_before_any_work(
    monkeypatch, function, kwargs, message
):
    def no_work(*args, **kwargs):
        raise AssertionError("the work started")

    # Every simulation runs its work through joblib's Parallel (or a loss
    # generator): refused before, neither is called.
    for module in (
        simulation._across,
        simulation._learners,
        simulation._seed001,
        simulation._seed002,
        simulation._sequential,
    ):
        monkeypatch.setattr(module, "Parallel", no_work)
    monkeypatch.setattr(simulation._sequential, "make_epsilon_losses", no_work)
    with pytest.raises(ValueError, match=re.escape(message)):
        if function is simulate_comparisons:
            function(None, None, None, **kwargs)
        else:
            function(**kwargs)


def test_simulate_comparisons_refuses_absurd_repetitions_before_any_fit(monkeypatch):
    from sklearn.datasets import make_classification
    from sklearn.dummy import DummyClassifier

    def no_work(*args, **kwargs):
        raise AssertionError("the work started")

    monkeypatch.setattr(simulation._learners, "Parallel", no_work)
    with pytest.raises(ValueError, match="n_repetitions must be at most 100,000"):
        simulate_comparisons(
            lambda rng: make_classification(60, random_state=rng),
            DummyClassifier(),
            DummyClassifier(),
            n_repetitions=10**6,
        )


def test_a_size_at_its_bound_is_accepted():
    # The bounds are inclusive (a cheap case of each kind).
    assert check_integer(MAX_BLOCK_CELLS, name="n", low=1, high=MAX_BLOCK_CELLS) == (
        MAX_BLOCK_CELLS
    )
    result = simulate_null_across(
        1,
        n_datasets=MAX_BLOCK_CELLS // MAX_ESTIMATORS // 2,
        n_estimators=MAX_ESTIMATORS,
        setups=["exchangeable"],
        tests=["friedman"],
        random_state=0,
    )
    assert result.results["exchangeable"].n_repetitions == 1
