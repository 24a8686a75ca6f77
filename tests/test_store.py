"""The study store: fingerprints, resume, extend, rescore, read back."""

import json
import sqlite3
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris
from sklearn.ensemble import BaggingClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    StudyStore,
    benchmark,
    compare_estimators,
    compare_many_estimators,
)
from sklearn_bcv._store import UnfixedRandomStateWarning
from sklearn_bcv._store._codec import decode_array, encode_array
from sklearn_bcv._store._fingerprint import (
    describe_estimator,
    fingerprint_data,
    fingerprint_json,
    fingerprint_split,
)

sys.path.insert(0, str(Path(__file__).parent))
from _store_study import DATASETS, RecordingCentroid  # noqa: E402

X, Y = load_iris(return_X_y=True)


def _fits(log):
    return len(log.read_text().splitlines()) if log.exists() else 0


def _assert_same_many(a, b):
    np.testing.assert_array_equal(a.scores, b.scores)
    for name, test in a.tests.items():
        assert test.pvalue == b.tests[name].pvalue
    for name, table in a.pairwise.items():
        np.testing.assert_array_equal(
            table.pvalue_adjusted, b.pairwise[name].pvalue_adjusted
        )
    for name in a.names:
        for p, q in zip(a.predictions[name], b.predictions[name]):
            np.testing.assert_array_equal(p, q)
            assert p.dtype == q.dtype


# --------------------------------------------------------------------------
# Fingerprints


def test_fingerprint_data_contents_dtype_and_order():
    X32 = X.astype(np.float32)
    base = fingerprint_data(X, Y)
    assert base == fingerprint_data(np.asfortranarray(X), Y.copy())
    assert base == fingerprint_data(X.tolist(), Y.tolist())
    assert base != fingerprint_data(X32, Y)
    changed = X.copy()
    changed[3, 2] += 1e-12
    assert base != fingerprint_data(changed, Y)
    assert base != fingerprint_data(X, Y[::-1])
    assert base != fingerprint_data(X, Y, groups=np.arange(len(Y)) % 5)
    big_endian = X.astype(">f8")
    assert base == fingerprint_data(big_endian, Y)


def test_fingerprint_sparse_and_frame():
    pd = pytest.importorskip("pandas")
    dense = np.array([[0.0, 1.0], [2.0, 0.0], [0.0, 3.0]])
    y = np.array([0, 1, 0])
    csr = sp.csr_matrix(dense)
    unsorted = sp.csr_matrix(
        (np.array([1.0, 2.0, 3.0]), np.array([1, 0, 1]), np.array([0, 1, 2, 3])),
        shape=(3, 2),
    )
    assert fingerprint_data(csr, y) == fingerprint_data(unsorted, y)
    # Another format: estimators may treat it otherwise.
    assert fingerprint_data(csr, y) != fingerprint_data(sp.csc_matrix(dense), y)
    assert fingerprint_data(csr, y) != fingerprint_data(dense, y)
    frame = pd.DataFrame(dense, columns=["a", "b"])
    renamed = frame.rename(columns={"b": "c"})
    assert fingerprint_data(frame, y) != fingerprint_data(renamed, y)
    assert fingerprint_data(frame, y) == fingerprint_data(frame.copy(), y)
    text = pd.DataFrame({"a": ["x", "y", "x"], "b": [1, 2, 3]})
    assert fingerprint_data(text, y) != fingerprint_data(text.astype({"b": float}), y)


def test_fingerprint_split_keeps_the_order():
    train, test = np.array([0, 1, 2]), np.array([3, 4])
    assert fingerprint_split(train, test) == fingerprint_split(
        train.astype(np.int32), list(test)
    )
    assert fingerprint_split(train, test) != fingerprint_split(train[::-1], test)
    assert fingerprint_split(train, test) != fingerprint_split(test, train)


def test_fingerprint_estimator_params_nested():
    def fp(estimator):
        return fingerprint_json(describe_estimator(estimator))

    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    assert fp(tree) == fp(DecisionTreeClassifier(random_state=0, max_depth=3))
    assert fp(tree) != fp(DecisionTreeClassifier(max_depth=4, random_state=0))
    bag = BaggingClassifier(tree, random_state=0)
    other = BaggingClassifier(
        DecisionTreeClassifier(max_depth=2, random_state=0), random_state=0
    )
    assert fp(bag) != fp(other)
    pipe = make_pipeline(StandardScaler(), GaussianNB())
    assert fp(pipe) != fp(make_pipeline(StandardScaler(with_mean=False), GaussianNB()))
    # 1 and 1.0 are two values: max_features=1 is one feature, 1.0 all.
    assert fp(DecisionTreeClassifier(max_features=1)) != fp(
        DecisionTreeClassifier(max_features=1.0)
    )
    # A RandomState by its state: each fit gets a copy in that state.
    rs = np.random.RandomState(0)
    first = fp(DecisionTreeClassifier(random_state=rs))
    assert first == fp(DecisionTreeClassifier(random_state=np.random.RandomState(0)))
    rs.rand()
    assert first != fp(DecisionTreeClassifier(random_state=rs))


def test_fingerprint_refuses_what_it_cannot_write_down():
    with pytest.raises(ValueError, match=r"tree\.class_weight is .*lambda"):
        describe_estimator(DecisionTreeClassifier(class_weight=lambda: None), "tree")
    with pytest.raises(ValueError, match=r"cannot write down deterministically"):
        describe_estimator(DecisionTreeClassifier(class_weight=object()))


@pytest.mark.parametrize(
    "values",
    [
        np.array([1, 0, 2]),
        np.array([0.25, -1.5]),
        np.array([True, False]),
        np.array(["setosa", "virginica"]),
        np.array(["a", None, 3], dtype=object),
        np.arange(6, dtype=np.float32).reshape(2, 3),
        np.array([1, 2], dtype=">i4"),
        np.array([], dtype=np.int64),
    ],
    ids=str,
)
def test_codec_round_trip(values):
    back = decode_array(*encode_array(values, "predictions"))
    np.testing.assert_array_equal(back, values)
    assert back.shape == values.shape
    assert back.dtype == values.dtype.newbyteorder("=") or values.dtype == object


@pytest.mark.parametrize(
    "values, n_bytes",
    [
        (np.array([0, 1, 2, 1]), 4),  # int64 labels: one byte each
        (np.array([-129, 5]), 4),  # int16
        (np.array([0, 70_000]), 8),  # int32
        (np.array([2**40, 0]), 16),  # int64 as it is
        (np.array([255, 0], dtype=np.uint64), 2),  # uint8
        (np.array([3, 4], dtype=np.int16), 2),  # int8
        (np.array([[1, 2], [3, 4]], dtype=">i4"), 4),  # big-endian, 2-D
    ],
    ids=str,
)
def test_codec_writes_integers_in_their_narrowest_width(values, n_bytes):
    dtype, shape, numbers, text = encode_array(values, "predictions")
    assert (dtype, len(numbers), text) == (
        values.dtype.newbyteorder("<").str,
        n_bytes,
        None,
    )
    back = decode_array(dtype, shape, numbers, text)
    np.testing.assert_array_equal(back, values)
    assert back.dtype == values.dtype.newbyteorder("=")


def test_codec_refuses_a_byte_count_of_no_width():
    # 3 elements of <i8: 3, 6, 12 or 24 bytes, nothing else.
    for n_bytes in (3, 6, 12, 24):
        assert decode_array("<i8", "[3]", b"\x01" * n_bytes, None).dtype == np.int64
    for n_bytes in (0, 2, 9, 18, 27, 48):
        with pytest.raises(ValueError, match="bytes for a <i8 array"):
            decode_array("<i8", "[3]", b"\x01" * n_bytes, None)
    with pytest.raises(ValueError, match="bytes for a <f8 array"):
        decode_array("<f8", "[3]", b"\x01" * 12, None)  # floats: never narrowed
    assert decode_array("<i4", "[0]", b"", None).shape == (0,)


def test_codec_refuses_what_is_not_numbers_or_labels():
    with pytest.raises(ValueError, match="numbers and text labels"):
        encode_array(np.array([{"a": 1}], dtype=object), "predictions")
    with pytest.raises(ValueError, match="bytes"):
        decode_array("<f8", "[3]", b"\x00" * 16, None)
    with pytest.raises(ValueError, match="unknown dtype"):
        decode_array("|O", "[1]", b"\x80\x04N.", None)  # a pickle of None


# --------------------------------------------------------------------------
# Resume and extend


def test_compare_estimators_store_gives_the_same_result_and_refits_nothing(
    tmp_path,
):
    log = tmp_path / "fits.log"
    a, b = RecordingCentroid(0.0, str(log)), RecordingCentroid(0.5, str(log))
    plain = compare_estimators(a, b, X, Y, random_state=0)
    assert _fits(log) == 20
    path = tmp_path / "study.db"
    first = compare_estimators(a, b, X, Y, random_state=0, store=path)
    assert _fits(log) == 40
    second = compare_estimators(a, b, X, Y, random_state=0, store=str(path))
    assert _fits(log) == 40  # a look-up, not a refit
    for result in (first, second):
        np.testing.assert_array_equal(result.tables, plain.tables)
        np.testing.assert_array_equal(result.differences, plain.differences)
        assert result.tests.bcv_mcnemar.pvalue == plain.tests.bcv_mcnemar.pvalue
        for p, q in zip(result.predictions_a, plain.predictions_a):
            np.testing.assert_array_equal(p, q)
    with StudyStore(path) as store:
        assert store.n_fits == 20
        assert [e.name for e in store.estimators] == [
            "RecordingCentroid",
            "RecordingCentroid",
        ]
    with pytest.raises(ValueError, match="return_estimator=True"):
        compare_estimators(a, b, X, Y, store=path, return_estimator=True)


def test_many_extend_by_one_estimator_and_change_one(tmp_path):
    log = tmp_path / "fits.log"
    path = tmp_path / "study.db"
    estimators = {
        "c0": RecordingCentroid(0.0, str(log)),
        "c5": RecordingCentroid(0.5, str(log)),
    }
    compare_many_estimators(estimators, X, Y, random_state=0, store=path)
    assert _fits(log) == 20
    estimators["c9"] = RecordingCentroid(0.9, str(log))
    extended = compare_many_estimators(estimators, X, Y, random_state=0, store=path)
    assert _fits(log) == 30  # the new estimator's 10 fits only
    estimators["c5"] = RecordingCentroid(0.4, str(log))
    changed = compare_many_estimators(estimators, X, Y, random_state=0, store=path)
    assert _fits(log) == 40  # the changed estimator only
    for result, shrink in ((extended, 0.5), (changed, 0.4)):
        plain = compare_many_estimators(
            {
                "c0": RecordingCentroid(0.0),
                "c5": RecordingCentroid(shrink),
                "c9": RecordingCentroid(0.9),
            },
            X,
            Y,
            random_state=0,
        )
        _assert_same_many(plain, result)
    # Another seed: other splits, all fitted.
    compare_many_estimators(estimators, X, Y, random_state=1, store=path)
    assert _fits(log) == 70


def test_benchmark_extend_by_a_dataset_and_identical_whatever_n_jobs(tmp_path):
    log = tmp_path / "fits.log"
    path = tmp_path / "study.db"
    estimators = {f"c{s}": RecordingCentroid(s, str(log)) for s in (0.0, 0.5)}
    two = {name: DATASETS[name] for name in ("iris", "wine")}
    benchmark(estimators, two, random_state=0, store=path, n_jobs=2)
    assert _fits(log) == 40
    # The per-data-set seeds come from random_state in data set order: the
    # first two data sets keep their splits when a third is added.
    result = benchmark(estimators, DATASETS, random_state=0, store=path, n_jobs=1)
    assert _fits(log) == 60
    plain = benchmark(
        {f"c{s}": RecordingCentroid(s) for s in (0.0, 0.5)}, DATASETS, random_state=0
    )
    np.testing.assert_array_equal(result.split_scores, plain.split_scores)
    wilcoxon = result.pairwise.wilcoxon.pvalue_adjusted
    np.testing.assert_array_equal(wilcoxon, plain.pairwise.wilcoxon.pvalue_adjusted)
    assert result.verdict.text == plain.verdict.text
    for name in DATASETS:
        _assert_same_many(plain.per_dataset[name], result.per_dataset[name])
    # The store already holds the study: nothing is fitted.
    again = benchmark(estimators, DATASETS, random_state=0, store=path)
    assert _fits(log) == 60
    np.testing.assert_array_equal(again.split_scores, plain.split_scores)


def test_changing_scoring_refits_only_when_outputs_are_missing(tmp_path):
    log = tmp_path / "fits.log"
    path = tmp_path / "study.db"
    data = DATASETS["wine"]
    estimators = {f"c{s}": RecordingCentroid(s, str(log)) for s in (0.0, 0.5)}

    def run(scoring, store=path, est=estimators):
        return compare_many_estimators(
            est, *data, random_state=0, scoring=scoring, store=store
        )

    run(None)
    assert _fits(log) == 20
    run("balanced_accuracy")  # reads predict: refits nothing
    assert _fits(log) == 20
    auc = run("roc_auc_ovr")  # needs probabilities: refits every fit
    assert _fits(log) == 40
    loss = run("neg_log_loss")  # probabilities are kept now: refits nothing
    assert _fits(log) == 40
    plain = {f"c{s}": RecordingCentroid(s) for s in (0.0, 0.5)}
    np.testing.assert_array_equal(
        auc.scores, run("roc_auc_ovr", store=None, est=plain).scores
    )
    np.testing.assert_array_equal(
        loss.scores, run("neg_log_loss", store=None, est=plain).scores
    )
    accuracy = run(None)  # and accuracy again: refits nothing
    assert _fits(log) == 40
    np.testing.assert_array_equal(accuracy.scores, run(None, None, plain).scores)
    # A refit replaced each fit's row: 20 rows, each with its probabilities.
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT predict_dtype, predict_proba_dtype, predict_proba_shape, "
            "classes_dtype FROM fits"
        ).fetchall()
    n_classes = len(np.unique(data[1]))
    assert len(rows) == 20
    assert {(r[0], r[1], r[3]) for r in rows} == {("<i8", "<f8", "<i8")}
    assert all(json.loads(r[2])[1] == n_classes for r in rows)


def test_a_fit_is_one_row_with_its_labels_in_one_byte_each(tmp_path):
    path = tmp_path / "study.db"
    estimators = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)}
    result = compare_many_estimators(estimators, X, Y, random_state=0, store=path)
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT s.n_test, f.predict_dtype, f.predict_shape, length(f.predict), "
            "typeof(f.predict), length(s.test), f.predict_proba FROM fits f "
            "JOIN splits s ON s.id = f.split"
        ).fetchall()
    assert len(rows) == 20  # 2 estimators x 10 splits, one row each
    for n_test, dtype, shape, n_bytes, kind, test_bytes, proba in rows:
        # int64 labels 0, 1, 2 and indices below 150 written as int8 and
        # int16, read back as int64 (the store's predictions are the fits').
        assert (dtype, shape, kind, proba) == ("<i8", f"[{n_test}]", "blob", None)
        assert n_bytes == n_test and test_bytes == 2 * n_test
    again = compare_many_estimators(estimators, X, Y, random_state=0, store=path)
    _assert_same_many(result, again)
    assert again.predictions["nb"][0].dtype == np.int64


def test_text_labels_are_stored_as_text(tmp_path):
    path = tmp_path / "study.db"
    labels = np.array(["setosa", "versicolor", "virginica"])[Y]
    estimators = {"c0": RecordingCentroid(0.0), "c5": RecordingCentroid(0.5)}
    first = compare_many_estimators(estimators, X, labels, random_state=0, store=path)
    again = compare_many_estimators(estimators, X, labels, random_state=0, store=path)
    _assert_same_many(first, again)
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT predict_dtype, typeof(predict) = 'blob', predict FROM fits"
        ).fetchall()
    assert {row[:2] for row in rows} == {("<U10", 0)}
    stored = {label for row in rows for label in json.loads(row[2])}
    assert stored == {"setosa", "versicolor", "virginica"}


def test_fit_params_are_part_of_the_key(tmp_path):
    path = tmp_path / "study.db"
    weights = np.ones(len(Y))
    nb = {"a": GaussianNB(), "b": GaussianNB(var_smoothing=1e-3)}
    first = compare_many_estimators(
        nb, X, Y, random_state=0, store=path, params={"sample_weight": weights}
    )
    with StudyStore(path) as store:
        assert store.n_fits == 20
    compare_many_estimators(
        nb, X, Y, random_state=0, store=path, params={"sample_weight": weights * 2}
    )
    with StudyStore(path) as store:
        assert store.n_fits == 40
        frame = store.fits()
    assert frame["fit_params_fingerprint"].nunique() == 2
    np.testing.assert_array_equal(
        first.scores,
        compare_many_estimators(
            nb, X, Y, random_state=0, params={"sample_weight": weights}
        ).scores,
    )


def test_unfixed_random_state_is_stored_with_a_warning(tmp_path):
    path = tmp_path / "study.db"
    estimators = {
        "bag": BaggingClassifier(DecisionTreeClassifier()),
        "nb": GaussianNB(),
    }
    # The ensemble's own None (the tree it seeds from it is not named).
    match = r"'bag' has random_state=None at random_state, which it uses"
    with pytest.warns(UnfixedRandomStateWarning, match=match):
        compare_many_estimators(estimators, X, Y, random_state=0, store=path)
    with StudyStore(path) as store:
        fixed = {e.name: e.random_state_fixed for e in store.estimators}
        assert fixed == {"bag": False, "nb": True}
        assert store.n_fits == 20
    # Nothing left to fit: nothing to warn about.
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnfixedRandomStateWarning)
        compare_many_estimators(estimators, X, Y, random_state=0, store=path)


def test_failed_fits_are_kept_and_refitted_only_to_raise(tmp_path):
    path = tmp_path / "study.db"
    bad = DecisionTreeClassifier(max_depth=-1, random_state=0)  # fails to fit
    estimators = {"bad": bad, "nb": GaussianNB()}
    with pytest.warns(Warning, match="fits failed"):
        first = compare_many_estimators(
            estimators, X, Y, random_state=0, store=path, error_score=np.nan
        )
    assert first.failed_fits[:, 0].all()
    with StudyStore(path) as store:
        frame = store.fits()
    assert frame["failed"].sum() == 10
    assert frame.loc[frame["failed"], "error"].str.contains("max_depth").all()
    with pytest.warns(Warning, match="fits failed"):
        again = compare_many_estimators(
            estimators, X, Y, random_state=0, store=path, error_score=np.nan
        )
    np.testing.assert_array_equal(again.failed_fits, first.failed_fits)
    with pytest.raises(Exception, match="max_depth"):
        compare_many_estimators(estimators, X, Y, random_state=0, store=path)


def test_store_reading_and_remove(tmp_path):
    pytest.importorskip("pandas")
    path = tmp_path / "study.db"
    estimators = {"c0": RecordingCentroid(0.0), "c5": RecordingCentroid(0.5)}
    benchmark(estimators, DATASETS, random_state=0, store=path)
    with StudyStore(path) as store:
        assert store.n_fits == 60
        assert [d.name for d in store.datasets] == ["iris", "wine", "moons"]
        assert [d.n_samples for d in store.datasets] == [150, 178, 120]
        assert [e.name for e in store.estimators] == ["c0", "c5"]
        assert store.estimators[1].params["shrink"] == 0.5
        assert store.estimators[1].class_name.endswith("RecordingCentroid")
        frame = store.fits()
        assert len(frame) == 60
        assert set(frame.columns) >= {
            "dataset", "estimator", "split", "n_train", "n_test", "fit_time",
            "score_time", "failed", "outputs", "created",
        }  # fmt: skip
        assert (frame["outputs"] == "predict").all()
        assert sorted(frame["split"].unique()) == list(range(10))
        assert "60 fits" in repr(store)
        assert store.remove(estimator="c5", dataset="wine") == 10
        assert store.remove(estimator=RecordingCentroid(0.0)) == 30
        assert store.n_fits == 20
        assert [e.name for e in store.estimators] == ["c5"]
        assert [d.name for d in store.datasets] == ["iris", "moons"]
        with pytest.raises(ValueError, match=r"estimator='svm' is not in .* \['c5'\]"):
            store.remove(estimator="svm")
        with pytest.raises(ValueError, match="needs estimator, dataset or both"):
            store.remove()
    with pytest.raises(ValueError, match="is closed"):
        store.n_fits  # noqa: B018
    with pytest.raises(ValueError, match="closed"):
        benchmark(estimators, DATASETS, store=store)


def test_read_only_store_uses_its_fits_and_keeps_none(tmp_path):
    log = tmp_path / "fits.log"
    path = tmp_path / "study.db"
    estimators = {f"c{s}": RecordingCentroid(s, str(log)) for s in (0.0, 0.5)}
    compare_many_estimators(estimators, X, Y, random_state=0, store=path)
    estimators["c9"] = RecordingCentroid(0.9, str(log))
    with StudyStore(path, mode="r") as store:
        with pytest.warns(UserWarning, match="read-only: the 10 new fits were not"):
            compare_many_estimators(estimators, X, Y, random_state=0, store=store)
        assert store.n_fits == 20
    assert _fits(log) == 30
    with pytest.raises(FileNotFoundError, match="does not exist"):
        StudyStore(tmp_path / "absent.db", mode="r")
    with pytest.raises(ValueError, match="mode must be 'a' or 'r'"):
        StudyStore(path, mode="w")


def test_store_argument_is_checked():
    with pytest.raises(ValueError, match="store"):
        compare_estimators(GaussianNB(), GaussianNB(), X, Y, store=3)


def test_dask_local_cluster_with_a_store(tmp_path):
    distributed = pytest.importorskip("distributed")
    from joblib import parallel_config

    log = tmp_path / "fits.log"
    path = tmp_path / "study.db"
    estimators = {f"c{s}": RecordingCentroid(s, str(log)) for s in (0.0, 0.5)}
    two = {name: DATASETS[name] for name in ("iris", "moons")}
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address=None,
            processes=True,
        ) as cluster,
        distributed.Client(cluster),
        parallel_config(backend="dask"),
    ):
        remote = benchmark(estimators, two, random_state=0, n_jobs=-1, store=path)
        assert _fits(log) == 40  # the workers fitted; this process kept them
        again = benchmark(estimators, two, random_state=0, n_jobs=-1, store=path)
        assert _fits(log) == 40
    local = benchmark(
        {f"c{s}": RecordingCentroid(s) for s in (0.0, 0.5)}, two, random_state=0
    )
    for result in (remote, again):
        np.testing.assert_array_equal(result.split_scores, local.split_scores)
        assert result.verdict.text == local.verdict.text
    with StudyStore(path) as store:
        assert store.n_fits == 40


@pytest.mark.parametrize(
    "scoring", ["roc_auc", "average_precision", "neg_brier_score", "neg_log_loss"]
)
def test_binary_scorings_from_stored_outputs_equal_the_fitted_ones(tmp_path, scoring):
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression

    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:200], y[:200]
    estimators = {
        # decision_function and predict_proba: roc_auc reads the first
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(random_state=0)),
        "bayes": GaussianNB(),  # predict_proba only
    }
    plain = compare_many_estimators(estimators, X, y, random_state=0, scoring=scoring)
    with StudyStore(tmp_path / "study.db") as store:
        first = compare_many_estimators(
            estimators, X, y, random_state=0, scoring=scoring, store=store
        )
        assert store.last_call.n_kept == 20
        again = compare_many_estimators(
            estimators, X, y, random_state=0, scoring=scoring, store=store
        )
        assert store.last_call.n_kept == 0
        # Both responses the estimator has are kept, whichever the scorer reads.
        assert set(store.fits()["outputs"]) == {
            "classes,decision_function,predict,predict_proba",
            "classes,predict,predict_proba",
        }
    for result in (first, again):
        np.testing.assert_array_equal(result.scores, plain.scores)


def test_progress_counts_only_the_fits_left_to_do():
    import io

    from sklearn_bcv._engine._progress import FitProgress

    out = io.StringIO()
    progress = FitProgress([("iris", 10), ("wine", 10)], file=out, use_tqdm=False)
    progress.already_done([0] * 10 + [1] * 4)  # found in a study store
    assert progress.total == 6
    assert progress.datasets_done == 1
    progress.update(1)
    # What left the total is said: 14 fits read from the store.
    assert (
        "1/6 fits (16%), 14 read from the store, data sets done 1/2" in progress.line()
    )


def test_the_tqdm_bar_says_how_many_fits_came_from_the_store():
    import io

    pytest.importorskip("tqdm")
    from sklearn_bcv._engine._progress import FitProgress

    out = io.StringIO()
    progress = FitProgress([("iris", 10), ("wine", 10)], file=out, use_tqdm=True)
    progress.already_done([0] * 10 + [1] * 5)
    progress.update(1)
    progress.close()
    assert progress.total == 5
    assert "fits (15 read from the store)" in out.getvalue()
