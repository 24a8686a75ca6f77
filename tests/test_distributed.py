"""The comparisons on distributed joblib backends give the local result."""

import numpy as np
import pytest
from joblib import parallel_config
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import benchmark, compare_estimators, compare_many_estimators
from sklearn_bcv.simulation import simulate_seed001

X, Y = load_breast_cancer(return_X_y=True)
X, Y = X[:240], Y[:240]


def _compare(**kwargs):
    return compare_estimators(
        make_pipeline(StandardScaler(), LogisticRegression()),
        DecisionTreeClassifier(max_depth=3, random_state=0),
        X,
        Y,
        random_state=0,
        **kwargs,
    )


def _assert_same(local, remote):
    assert list(local.tests) == list(remote.tests)
    for name, result in local.tests.items():
        for key, value in result.items():
            np.testing.assert_equal(remote.tests[name][key], value)
    np.testing.assert_array_equal(local.tables, remote.tables)
    np.testing.assert_array_equal(local.differences, remote.differences)
    for a, b in zip(local.predictions_b, remote.predictions_b):
        np.testing.assert_array_equal(a, b)


@pytest.fixture(scope="module")
def local_result():
    return _compare(n_jobs=1)


def test_loky_two_jobs_matches_serial(local_result):
    _assert_same(local_result, _compare(n_jobs=2))


def test_dask_local_cluster_matches_serial(local_result):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
            processes=True,  # real worker processes, as on a cluster
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        with (
            distributed.get_task_stream(client) as task_stream,
            parallel_config(backend="dask"),
        ):
            remote = _compare(n_jobs=-1, return_estimator=True)
            remote_many = _compare_many(n_jobs=-1)
            # The progress bar streams results as the cluster finishes them.
            remote_study = _benchmark(n_jobs=-1, verbose=1)
            # A simulation's replications (reproduce_table3.py --scheduler).
            remote_seed001 = _seed001(n_jobs=-1)
        # The fits really ran as tasks on the cluster's worker processes.
        workers = set(client.scheduler_info()["workers"])
        assert len(workers) == 2
        assert task_stream.data
        assert {task["worker"] for task in task_stream.data} <= workers
    _assert_same(local_result, remote)
    assert len(remote.estimators_a) == 10
    # k estimators: the same one pool of (split, estimator) tasks.
    local_many = _compare_many(n_jobs=1)
    np.testing.assert_array_equal(local_many.scores, remote_many.scores)
    for name, table in local_many.pairwise.items():
        np.testing.assert_array_equal(
            table.pvalue_adjusted, remote_many.pairwise[name].pvalue_adjusted
        )
    assert (
        local_many.tests.bcv_cochran_q.pvalue == remote_many.tests.bcv_cochran_q.pvalue
    )
    local_seed001 = _seed001(n_jobs=1)
    for key, rejected in local_seed001.rejected.items():
        np.testing.assert_array_equal(remote_seed001.rejected[key], rejected)
    # Many data sets: one pool of (data set, split, estimator) on the cluster.
    local_study = _benchmark(n_jobs=1)
    np.testing.assert_array_equal(local_study.split_scores, remote_study.split_scores)
    assert local_study.verdict.text == remote_study.verdict.text
    for name, table in local_study.pairwise.items():
        for field in ("pvalue_adjusted", "p_a_better"):
            if field in table:
                np.testing.assert_array_equal(
                    table[field], remote_study.pairwise[name][field]
                )


def _benchmark(**kwargs):
    return benchmark(
        {
            "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
            "bayes": GaussianNB(),
        },
        {"first": (X[:120], Y[:120]), "second": (X[120:], Y[120:])},
        random_state=0,
        **kwargs,
    )


def _seed001(**kwargs):
    return simulate_seed001(
        6, pairs="rt_ls", cases=[3, 4], batch_size=2, random_state=0, **kwargs
    )


def _compare_many(**kwargs):
    return compare_many_estimators(
        [
            ("logistic", make_pipeline(StandardScaler(), LogisticRegression())),
            ("tree", DecisionTreeClassifier(max_depth=3, random_state=0)),
            ("bayes", GaussianNB()),
        ],
        X,
        Y,
        random_state=0,
        **kwargs,
    )


def test_ray_matches_serial(local_result):
    ray = pytest.importorskip("ray")
    from ray.util.joblib import register_ray

    register_ray()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with parallel_config(backend="ray"):
            remote = _compare(n_jobs=2)
    finally:
        ray.shutdown()
    _assert_same(local_result, remote)
