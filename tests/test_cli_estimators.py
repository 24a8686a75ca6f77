"""Tests of the command line's estimators: --random-state, --scale, --preprocess."""

import io
import json

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.datasets import load_wine
from sklearn.ensemble import BaggingClassifier, ExtraTreesClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import QuantileTransformer, StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import BlockRegularized5x2CV, compare_estimators
from sklearn_bcv._cli import main
from sklearn_bcv._cli._estimators import seed_estimator, with_steps


def run_cli(*argv):
    """Run ``main`` on ``argv``; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


TREES = (
    "many",
    "--dataset",
    "wine",
    "--random-state",  # without it a seed is drawn (tests/test_seeds.py)
    "0",
    "--quiet",
    "--format",
    "json",
    "--cv",
    "mx2",
    "--repeats",
    "2",
    "--estimator",
    "sklearn.ensemble.ExtraTreesClassifier",
    "--estimator",
    "sklearn.naive_bayes.GaussianNB",
)


def test_random_state_seeds_the_users_estimators():
    runs = []
    for _ in range(2):
        status, out, err = run_cli(*TREES)
        assert status == 0, err
        runs.append(json.loads(out))
    first, second = runs
    assert "random_state=0" in first["estimators"]["ExtraTreesClassifier"]
    assert first["scores"] == second["scores"]  # was 0.9613 then 0.9603
    status, out, err = run_cli(*TREES, "--random-state", "3")
    other = json.loads(out)
    assert "random_state=3" in other["estimators"]["ExtraTreesClassifier"]
    assert other["scores"] != first["scores"]


def test_a_seed_in_params_wins():
    status, out, err = run_cli(
        *TREES, "--params", 'ExtraTreesClassifier={"random_state": 5}'
    )
    assert status == 0, err
    document = json.loads(out)
    assert "random_state=5" in document["estimators"]["ExtraTreesClassifier"]
    # the same scores as the estimator seeded by hand through the Python API
    from sklearn_bcv import BlockRegularizedMx2CV, compare_many_estimators

    X, y = load_wine(return_X_y=True)
    from sklearn.naive_bayes import GaussianNB

    expected = compare_many_estimators(
        [
            ("ExtraTreesClassifier", ExtraTreesClassifier(random_state=5)),
            ("GaussianNB", GaussianNB()),
        ],
        X,
        y,
        cv=BlockRegularizedMx2CV(n_repeats=2, random_state=0),
        random_state=0,
    )
    assert_allclose(document["scores"], expected.scores)


def test_seed_estimator_sets_nested_random_states():
    estimator = make_pipeline(
        QuantileTransformer(n_quantiles=10),
        BaggingClassifier(DecisionTreeClassifier(), n_estimators=3),
    )
    assert seed_estimator(estimator, 7) is estimator
    params = estimator.get_params(deep=True)
    seeded = {k: v for k, v in params.items() if k.endswith("random_state")}
    assert seeded == {
        "quantiletransformer__random_state": 7,
        "baggingclassifier__random_state": 7,
        "baggingclassifier__estimator__random_state": 7,
    }
    assert seed_estimator(StandardScaler(), 7).get_params() == {
        "copy": True,
        "with_mean": True,
        "with_std": True,
    }


SVC_ON_WINE = (
    "compare",
    "--dataset",
    "wine",
    "--random-state",
    "0",
    "--quiet",
    "--format",
    "json",
    "--estimator-b",
    "sklearn.svm.SVC",
    "--tests",
    "bcv_mcnemar",
)


def test_scale_puts_a_standard_scaler_in_front_of_each_estimator():
    status, out, err = run_cli(*SVC_ON_WINE)
    assert status == 0, err
    plain = json.loads(out)
    status, out, err = run_cli(*SVC_ON_WINE, "--scale")
    assert status == 0, err
    scaled = json.loads(out)
    # an RBF SVC on wine's unscaled features is poor; scaled it is not
    assert np.mean(plain["scores_b"]) < 0.8 < 0.95 < np.mean(scaled["scores_b"])
    assert plain["verdict"]["decision"] == "A better"
    assert scaled["verdict"]["decision"] != "A better"
    assert "StandardScaler" in scaled["estimator_b"]
    # the default scaled logistic regression is not scaled twice
    assert scaled["estimator_a"].count("StandardScaler") == 1
    assert scaled["scores_a"] == plain["scores_a"]
    X, y = load_wine(return_X_y=True)
    expected = compare_estimators(
        make_pipeline(StandardScaler(), SVC(random_state=0)),
        SVC(random_state=0),
        X,
        y,
        cv=BlockRegularized5x2CV(random_state=0),
        tests=["bcv_mcnemar"],
    )
    assert_allclose(scaled["scores_b"], expected.scores_a)
    assert_allclose(plain["scores_b"], expected.scores_b)


def test_preprocess_chains_transformers_after_scale():
    status, out, err = run_cli(
        *SVC_ON_WINE,
        "--scale",
        "--preprocess",
        "sklearn.preprocessing.MinMaxScaler",
    )
    assert status == 0, err
    document = json.loads(out)
    b = document["estimator_b"]
    assert b.index("StandardScaler") < b.index("MinMaxScaler") < b.index("SVC")
    status, out, err = run_cli(
        "sequential",
        "--dataset",
        "wine",
        "--quiet",
        "--scale",
        "--estimator-b",
        "sklearn.svm.SVC",
    )
    assert status == 0, err
    assert "B: Pipeline(steps=[('standardscaler', StandardScaler())" in out


@pytest.mark.parametrize(
    "path, message",
    [
        ("sklearn.svm.SVC", "sklearn.svm.SVC is not a transformer"),
        ("sklearn.nothing.Here", "cannot import module 'sklearn.nothing'"),
        ("not a path", "expected an import path"),
    ],
)
def test_preprocess_bad_input(path, message):
    status, out, err = run_cli(*SVC_ON_WINE, "--preprocess", path)
    assert status == 1
    assert message in err and out == ""


def test_with_steps_leaves_estimators_without_steps_alone():
    svc = SVC()
    assert with_steps(svc, []) is svc
    scaled = with_steps(svc, [StandardScaler()])
    assert [type(step) for _, step in scaled.steps] == [StandardScaler, SVC]
    assert with_steps(scaled, [StandardScaler()]) is scaled
