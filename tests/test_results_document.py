"""Results as documents: ``to_dict`` / ``to_json`` of every result type, the
generic serialiser, and the command line's json and csv built from them."""

import csv
import io
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import Bunch

from sklearn_bcv import (
    compare_estimators,
    compare_many_estimators,
    compare_scores,
    sequential_compare,
)
from sklearn_bcv._results._document import (
    SCHEMA_VERSION,
    result_csv,
    to_plain,
)

X, Y = load_breast_cancer(return_X_y=True)
X, Y = X[:200, :5], Y[:200]

# Accuracies of three methods on six data sets (a table a user already has).
TABLE = np.array(
    [
        [0.91, 0.88, 0.80],
        [0.85, 0.86, 0.79],
        [0.93, 0.90, 0.81],
        [0.77, 0.70, 0.72],
        [0.88, 0.84, 0.83],
        [0.95, 0.91, 0.90],
    ]
)


class Broken(ClassifierMixin, BaseEstimator):
    """A classifier whose fit always fails."""

    def fit(self, X, y):
        raise RuntimeError("broken on purpose")

    def predict(self, X):  # pragma: no cover - never fitted
        return np.zeros(len(X))


@pytest.fixture(scope="module")
def pair():
    return compare_estimators(
        GaussianNB(),
        DecisionTreeClassifier(random_state=0),
        X,
        Y,
        random_state=0,
        tests=["bcv_mcnemar", "corrected_t", "paired_t", "bayesian_correlated_t"],
    )


@pytest.fixture(scope="module")
def many():
    return compare_many_estimators(
        [("nb", GaussianNB()), ("tree", DecisionTreeClassifier(random_state=0))]
        + [("dummy", DummyClassifier())],
        X,
        Y,
        random_state=0,
    )


@pytest.fixture(scope="module")
def study():
    return compare_scores(
        TABLE,
        names=["a", "b", "c"],
        pairwise_tests=["wilcoxon", "bayesian_signed_rank"],
        random_state=0,
    )


@pytest.fixture(scope="module")
def sequential():
    return sequential_compare(
        GaussianNB(), DummyClassifier(), X, Y, max_repeats=4, random_state=0
    )


def _round_trip(result):
    document = result.to_dict()
    text = result.to_json()
    assert json.loads(text) == document
    # Strict JSON: no NaN or infinity anywhere.
    json.dumps(document, allow_nan=False)
    assert document["schema_version"] == SCHEMA_VERSION
    assert document["type"] == type(result).__name__
    return document


def test_pair_document(pair):
    document = _round_trip(pair)
    assert document["scores_a"] == pytest.approx(list(pair.scores_a))
    assert document["differences"] == pytest.approx(list(pair.differences))
    assert set(document["tests"]) == set(pair.tests)
    mcnemar = document["tests"]["bcv_mcnemar"]
    assert mcnemar["pvalue"] == pytest.approx(pair.tests.bcv_mcnemar.pvalue)
    assert mcnemar["reject"] is bool(pair.tests.bcv_mcnemar.reject)
    bayes = document["tests"]["bayesian_correlated_t"]
    assert bayes["p_a_better"] + bayes["p_rope"] + bayes["p_b_better"] == (
        pytest.approx(1.0)
    )
    assert document["verdict"]["test"] == "bcv_mcnemar"
    assert document["verdict"]["text"] == pair.verdict.text
    # The design is described, a test table is a nested list.
    assert document["design"] == pair.design.describe()
    assert np.shape(document["tables"]) == np.shape(pair.tables)


def test_to_json_writes_a_file(pair, tmp_path):
    path = tmp_path / "pair.json"
    assert pair.to_json(path) is None
    assert json.loads(path.read_text(encoding="utf-8")) == pair.to_dict()
    assert pair.to_json(indent=None).count("\n") == 1


def test_failed_fits_document():
    # The fits fail on purpose: the warning that says so is part of the test.
    with pytest.warns(FitFailedWarning, match="3 fits failed out of a total of 6"):
        result = compare_estimators(
            GaussianNB(), Broken(), X, Y, cv=KFold(3), error_score=np.nan
        )
    document = _round_trip(result)
    assert document["tests"] == {}
    assert all(document["failed_fits"][i][1] for i in range(3))
    # The scores of the failed fits are NaN: null, and said so.
    assert document["scores_b"] == [None, None, None]
    assert (
        "NaN" in document["scores_b_nonfinite"]
        or "null" in (document["scores_b_nonfinite"])
    )
    assert document["verdict"]["test"] is None


def test_undefined_pvalue_is_null_with_a_reason():
    # The registered tests define p = 1 when every difference is 0; a test
    # registered by a user may return NaN. The result stays strict JSON.
    result = compare_estimators(
        DummyClassifier(),
        DummyClassifier(),
        X,
        Y,
        cv=KFold(5),
        tests=["corrected_t"],
    )
    assert result.tests.corrected_t.pvalue == 1.0
    result.tests.corrected_t.pvalue = float("nan")
    result.tests.corrected_t.statistic = np.float64("nan")
    assert math.isnan(result.tests.corrected_t.pvalue)
    document = _round_trip(result)
    test = document["tests"]["corrected_t"]
    assert test["pvalue"] is None
    assert test["pvalue_nonfinite"].startswith("NaN: undefined")
    row = next(
        r
        for r in csv.DictReader(io.StringIO(result_csv(result)))
        if r["section"] == "test"
    )
    assert row["pvalue"] == "" and "pvalue undefined (NaN)" in row["note"]


def test_many_document(many):
    document = _round_trip(many)
    assert document["names"] == ["nb", "tree", "dummy"]
    table = document["pairwise"][next(iter(many.pairwise))]
    # Test results by pair are records naming the pair.
    assert [(r["estimator_a"], r["estimator_b"]) for r in table["results"]] == [
        ("nb", "tree"),
        ("nb", "dummy"),
        ("tree", "dummy"),
    ]
    assert "_store" not in document and "_fits" not in document


def test_benchmark_document_with_bayesian_tests(study):
    document = _round_trip(study)
    assert document["scores"] == TABLE.tolist()
    assert document["mean_ranks"] == pytest.approx(list(study.mean_ranks))
    friedman = document["tests"]["friedman"]
    assert friedman["pvalue"] == pytest.approx(study.tests.friedman.pvalue)
    bayes = document["pairwise"]["bayesian_signed_rank"]["results"]
    assert {"p_a_better", "p_rope", "p_b_better"} <= set(bayes[0])


def test_benchmark_csv_has_the_omnibus_rows_and_the_scores(study):
    rows = list(csv.DictReader(io.StringIO(result_csv(study))))
    tests = [r["test"] for r in rows if r["section"] == "test"]
    assert tests[0] == "friedman"
    assert float(rows[0]["pvalue"]) == pytest.approx(study.tests.friedman.pvalue)
    scores = [r for r in rows if r["section"] == "score"]
    assert len(scores) == TABLE.size
    assert [float(r["score"]) for r in scores] == TABLE.ravel().tolist()
    pairs = [r for r in rows if r["section"] == "pairwise"]
    assert len(pairs) == 2 * 3  # two pairwise tests, three pairs


def test_sequential_document(sequential):
    document = _round_trip(sequential)
    assert document["decision"] == sequential.decision
    assert document["trace"]["repeats"] == list(sequential.trace.repeats)
    # The nested fixed-design comparison is a document of its own.
    assert document["comparison"]["type"] == "ComparisonResult"
    assert set(document["comparison"]["tests"]) == set(sequential.comparison.tests)
    rows = list(csv.DictReader(io.StringIO(result_csv(sequential))))
    assert len(rows) == len(sequential.trace.repeats)


def test_estimators_are_their_name_and_parameters():
    document = to_plain(LogisticRegression(C=2.0, class_weight={0: 1, 1: 2}))
    assert document["name"] == "LogisticRegression"
    assert document["params"]["C"] == 2.0
    assert document["params"]["class_weight"] == "{0: 1, 1: 2}"
    json.dumps(document, allow_nan=False)


def test_plain_values():
    value = Bunch(
        a=np.float32(0.5),
        b=np.arange(3),
        c=(1, np.int64(2)),
        d=float("inf"),
        e=np.array([1.0, np.nan]),
        f=np.bool_(True),
    )
    assert to_plain(value) == {
        "a": 0.5,
        "b": [0, 1, 2],
        "c": [1, 2],
        "d": None,
        "d_nonfinite": "+infinity (e.g. no upper boundary of a one-sided test)",
        "e": [1.0, None],
        "e_nonfinite": "holds NaN (undefined) or infinite values, written as null",
        "f": True,
    }


def test_cli_json_is_the_result_document(pair):
    from sklearn_bcv._cli._compare import result_to_dict

    context = {"data": "breast cancer", "alpha": 0.05}
    document = result_to_dict(pair, context)
    assert {key: document[key] for key in pair.to_dict()} == pair.to_dict()
    assert document["data"] == "breast cancer"


finite = st.floats(allow_nan=False, allow_infinity=False)
numbers = st.one_of(st.floats(), st.integers(-(2**60), 2**60), st.booleans())
values = st.recursive(
    st.one_of(numbers, st.none(), st.text(max_size=5)),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(max_size=4), children, max_size=4),
        st.lists(st.floats(), max_size=4).map(np.array),
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(values)
def test_any_value_becomes_strict_json(value):
    plain = to_plain(value)
    text = json.dumps(plain, allow_nan=False)
    assert json.loads(text) == plain


@settings(max_examples=100, deadline=None)
@given(st.lists(finite, min_size=1, max_size=6))
def test_finite_numbers_survive_exactly(xs):
    assert to_plain({"x": np.array(xs)}) == {"x": xs}
    assert to_plain([np.float64(x) for x in xs]) == xs


@pytest.mark.parametrize(
    "cls",
    ["ComparisonResult", "ManyComparisonResult", "BenchmarkResult", "SequentialResult"],
)
def test_fields_are_declared_and_checked(cls):
    import sklearn_bcv._results as results
    from sklearn_bcv._results._sequential import SequentialResult

    klass = SequentialResult if cls == "SequentialResult" else getattr(results, cls)
    fields = klass.fields()
    assert len(fields) == len(set(fields)) > 5
    # Each declared field is documented in the class docstring.
    for field in fields:
        assert field in klass.__doc__, field
    with pytest.raises(TypeError, match="has no field 'colour'; its fields are"):
        klass(colour="blue")
    empty = klass(alpha=0.1)
    assert empty.alpha == 0.1 and empty["alpha"] == 0.1
    missing = next(f for f in fields if f not in ("alpha", "greater_is_better"))
    assert empty[missing] is None and getattr(empty, missing) is None


def test_benchmark_declares_the_fields_of_the_other_engineers(study):
    assert study.greater_is_better is True
    assert "effect_sizes" in study and "auto" in study
