"""simulate_sequential: the sequential m×2 BCV tests' simulation runner."""

import itertools

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier

from sklearn_bcv import BlockRegularized5x2CV, compare_estimators, sequential_compare
from sklearn_bcv.datasets import make_simple
from sklearn_bcv.simulation import SequentialSimulationResult, simulate_sequential
from sklearn_bcv.simulation._paper import simple_learners
from sklearn_bcv.simulation._sequential import (
    _procedures,
    majority_predictions,
    sequential_decisions,
)

#: (decision, stopped_by) of sequential_compare -> the simulation's code.
CODES = {
    ("A better", "boundary"): 1,
    ("B better", "boundary"): -1,
    ("undecided", "max_repeats"): 0,
    ("no difference", "rope"): 2,
    ("no difference", "futility"): 3,
}
SEQUENTIAL = [
    (test, boundary)
    for test in ("bcv_mcnemar", "bcv_t")
    for boundary in ("pocock", "obrien_fleming")
]


def test_same_result_whatever_n_jobs():
    kwargs = dict(n_samples=120, delta=0.4, n_repetitions=45, random_state=7)
    serial = simulate_sequential("simple", n_jobs=1, **kwargs)
    parallel = simulate_sequential("simple", n_jobs=2, **kwargs)
    assert serial.rows == parallel.rows
    for name, codes in serial.decisions[(120, 0.4)].items():
        np.testing.assert_array_equal(codes, parallel.decisions[(120, 0.4)][name])
        np.testing.assert_array_equal(
            serial.repeats[(120, 0.4)][name], parallel.repeats[(120, 0.4)][name]
        )
    np.testing.assert_array_equal(serial.seeds, parallel.seeds)


@pytest.mark.parametrize("n_samples, delta", [(200, 0.35), (203, 0.0)])
def test_agrees_with_sequential_compare(n_samples, delta):
    result = simulate_sequential(
        "simple",
        n_samples=n_samples,
        delta=delta,
        n_repetitions=2,
        futility="conditional_power",
        random_state=3,
    )
    key = (n_samples, delta)
    for r, (data_seed, cv_seed) in enumerate(result.seeds):
        X, y = make_simple(n_samples, delta=delta, random_state=int(data_seed))
        for (test, boundary), futility in itertools.product(
            SEQUENTIAL, (None, "conditional_power")
        ):
            one = sequential_compare(
                *simple_learners(),
                X,
                y,
                test=test,
                boundary=boundary,
                futility=futility,
                stratify=False,
                random_state=int(cv_seed),
            )
            name = f"sequential {test} ({boundary}{', futility' if futility else ''})"
            code = CODES[(one.decision, one.stopped_by)]
            assert result.decisions[key][name][r] == code
            assert result.repeats[key][name][r] == one.n_repeats
        # The fixed 5×2 BCV McNemar test is the first ten splits of the
        # nested 7×2 design: the paper's 5×2 BCV with the same seed.
        fixed = compare_estimators(
            *simple_learners(),
            X,
            y,
            cv=BlockRegularized5x2CV(random_state=int(cv_seed)),
            tests=["bcv_mcnemar", "bayesian_bcv_mcnemar"],
        )
        for name, test in (
            ("fixed bcv_mcnemar 5×2", "bcv_mcnemar"),
            ("bayesian_bcv_mcnemar 5×2", "bayesian_bcv_mcnemar"),
        ):
            assert bool(result.decisions[key][name][r]) == bool(
                fixed.tests[test].reject
            )
        np.testing.assert_allclose(
            result.p_a_better[key][r], fixed.tests["bayesian_bcv_mcnemar"].p_a_better
        )


def test_majority_predictions_are_the_dummy_classifiers():
    X = np.zeros((6, 1))
    for y in ([0, 1, 1, 0, 1, 0], [1, 1, 1, 0, 1, 0], [0, 0, 0, 0, 1, 0], [1] * 6):
        y = np.array(y)
        expected = DummyClassifier(strategy="most_frequent").fit(X, y).predict(X[:3])
        np.testing.assert_array_equal(majority_predictions(y, 3), expected)


def test_identical_estimators_never_decide():
    rng = np.random.default_rng(0)
    n_rep, n_splits = 30, 14
    # A and B right on the same records: only the diagonal cells.
    agree = rng.integers(0, 50, size=(n_rep, n_splits))
    tables = np.zeros((n_rep, n_splits, 2, 2), dtype=np.int64)
    tables[..., 0, 0], tables[..., 1, 1] = agree, 100 - agree
    settings = dict(min_repeats=3, max_repeats=7, alpha=0.05, alternative="two-sided")
    procedures, _ = _procedures(
        tables,
        np.zeros((n_rep, n_splits)),
        tests=("bcv_mcnemar", "bcv_t"),
        boundaries=("pocock", "obrien_fleming"),
        settings=settings,
    )
    for name, (codes, _, _) in procedures.items():
        assert not codes.any(), name
    # Disagreements that cancel (n01 == n10 at every split): no decision.
    tables[..., 0, 1] = tables[..., 1, 0] = rng.integers(1, 5, size=(n_rep, n_splits))
    procedures, _ = _procedures(
        tables,
        np.zeros((n_rep, n_splits)),
        tests=("bcv_mcnemar",),
        boundaries=("pocock", "obrien_fleming"),
        settings=settings,
    )
    for name, (codes, _, _) in procedures.items():
        assert not codes.any(), name
    codes, repeats = sequential_decisions(
        "bcv_mcnemar",
        tables,
        min_repeats=3,
        max_repeats=7,
        boundary="pocock",
        alpha=0.05,
        alternative="greater",
    )
    assert not codes.any() and (repeats == 7).all()


def test_one_sided_and_large_difference():
    kwargs = dict(
        n_samples=200,
        delta=1.5,
        n_repetitions=10,
        tests="bcv_mcnemar",
        boundaries="pocock",
        random_state=0,
    )
    greater = simulate_sequential("simple", alternative="greater", **kwargs)
    less = simulate_sequential("simple", alternative="less", **kwargs)
    name = "sequential bcv_mcnemar (pocock)"
    codes = greater.decisions[(200, 1.5)][name]
    assert (codes == 1).all()
    assert (greater.repeats[(200, 1.5)][name] == 3).all()  # stops at the first look
    assert not less.decisions[(200, 1.5)][name].any()
    row = greater.rows[0]
    assert row["asn"] == 3.0 and row["mean_fits"] == 12.0 and row["fits_saved"] == 16.0


def test_epsilon_setup_and_result():
    result = simulate_sequential(
        "epsilon", n_samples=[100, 300], n_repetitions=300, random_state=0
    )
    assert isinstance(result, SequentialSimulationResult)
    frame = result.to_frame()
    assert set(frame["n_samples"]) == {100, 300}
    assert frame["delta"].isna().all()
    assert len(frame) == 2 * 7
    fixed = frame[frame["procedure"] == "fixed bcv_mcnemar 7×2"]
    assert (fixed["asn"] == 7).all() and (fixed["fits_saved"] == 0).all()
    assert (frame["ci_low"] <= frame["rate"]).all()
    assert (frame["rate"] <= frame["ci_high"]).all()
    text = str(result)
    assert "epsilon setup" in text and "sequential bcv_t (obrien_fleming)" in text
    assert "=====" in result.to_text(rst=True)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"setup": "moons"}, "setup"),
        ({"n_samples": 7}, "too large for 7 records"),
        ({"n_samples": [200, 7]}, "too large for 7 records"),
        ({"n_repetitions": 0}, "n_repetitions"),
        ({"min_repeats": 5, "max_repeats": 4}, "min_repeats must be at most"),
        ({"tests": "bcv_cochran_q"}, "tests must be among"),
        ({"boundaries": ["pocock", "pocock"]}, "each one once"),
        ({"boundaries": "haybittle"}, "boundaries must be among"),
        ({"setup": "epsilon", "delta": 0.5}, "epsilon setup"),
        ({"delta": -0.5}, "delta"),
        ({"n_samples": 100.5}, "n_samples"),
    ],
)
def test_bad_input(kwargs, match):
    kwargs = {"n_repetitions": 2, **kwargs}
    with pytest.raises(ValueError, match=match):
        simulate_sequential(**kwargs)


@pytest.mark.slow
def test_type_one_error_on_the_simple_null():
    result = simulate_sequential(
        "simple",
        n_samples=1000,
        delta=0.0,
        n_repetitions=1000,
        n_jobs=2,
        random_state=1,
    )
    for row in result.rows:
        if row["procedure"].startswith("sequential"):
            # at or below alpha within Monte Carlo error
            assert row["ci_low"] <= 0.05, row


def _futility_rows(result):
    """(row without futility, row with it) per delta and sequential test,
    the null first."""
    rows = {(row["delta"], row["procedure"]): row for row in result.rows}
    pairs = []
    for delta in sorted(result.deltas):
        for test, boundary in SEQUENTIAL:
            plain = rows[(delta, f"sequential {test} ({boundary})")]
            futile = rows[(delta, f"sequential {test} ({boundary}, futility)")]
            pairs.append((plain, futile))
    return pairs


def test_futility_saves_fits_under_the_null_and_never_adds_a_rejection():
    result = simulate_sequential(
        "simple",
        n_samples=200,
        delta=[0.0, 0.6],
        n_repetitions=40,
        futility="conditional_power",
        random_state=2,
    )
    for codes in result.decisions.values():
        for test, boundary in SEQUENTIAL:
            plain = codes[f"sequential {test} ({boundary})"]
            futile = codes[f"sequential {test} ({boundary}, futility)"]
            rejected = np.abs(futile) == 1
            # non-binding: a rejection with futility is one without it
            assert np.all(plain[rejected] == futile[rejected])
            assert not np.any(plain == 3)
    null_futility = {}
    for plain, futile in _futility_rows(result):
        assert futile["rate"] <= plain["rate"]
        assert futile["mean_fits"] <= plain["mean_fits"]
        if plain["delta"] == 0.0:
            assert futile["mean_fits"] <= 16 and futile["futility"] > 0.8
            null_futility[futile["procedure"]] = futile["futility"]
        else:  # a real difference stops for futility less often
            assert futile["futility"] < null_futility[futile["procedure"]]


@pytest.mark.slow
def test_futility_on_the_simple_null_and_under_an_alternative():
    result = simulate_sequential(
        "simple",
        n_samples=1000,
        delta=[0.0, 0.3],
        n_repetitions=1000,
        futility="conditional_power",
        n_jobs=2,
        random_state=1,
    )
    for plain, futile in _futility_rows(result):
        if plain["delta"] == 0.0:
            assert futile["ci_low"] <= 0.05, futile  # type I at most alpha
            assert futile["mean_fits"] <= 16, futile  # below the fixed 5×2's 20
        else:
            # power within 0.02 of the design without (doc/reproduction.rst),
            # plus 3 Monte Carlo sds of the paired difference (no rejection
            # is gained: lost / R)
            lost = plain["rate"] - futile["rate"]
            assert lost <= 0.02 + 3 * np.sqrt(lost / 1000), (plain, futile)
