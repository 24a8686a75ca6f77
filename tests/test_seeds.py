"""Seeds that are recorded and do not depend on the order of the data sets.

``random_state=None`` draws a seed, uses it and records it
(``provenance.random_state``, the JSON, the methods of the report), so the
run can be repeated; each data set's splits are seeded from the study seed
and the data set's *name* (SHA-256, checked against an independent
computation), so adding, removing or reordering data sets changes no other
data set's splits; a study store remembers the seed of its first call, so
the same call with ``random_state=None`` resumes it.
"""

import hashlib
import json
import re

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine, make_classification, make_moons
from sklearn.dummy import DummyClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import (
    BlockRegularized5x2CV,
    StudyStore,
    benchmark,
    compare_estimators,
    compare_many_estimators,
    compare_scores,
    sequential_compare,
)
from sklearn_bcv._engine._seeds import dataset_seed, study_seed

ESTIMATORS = {
    "bayes": GaussianNB(),
    "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
}


def _datasets():
    X, y = make_classification(n_samples=80, n_features=5, random_state=2)
    return {
        "iris": load_iris(return_X_y=True),
        "wine": load_wine(return_X_y=True),
        "moons": make_moons(n_samples=80, noise=0.3, random_state=1),
        "classification": (X, y),
    }


def _run(datasets, **kwargs):
    return benchmark(
        ESTIMATORS, datasets, dataset_tests=[], effect_size=False, **kwargs
    )


def _by_name(result):
    return {name: result.split_scores[i] for i, name in enumerate(result.datasets)}


def test_dataset_seed_is_sha256_of_seed_and_name():
    for seed, name in [(0, "iris"), (12345, "moons:3"), (7, "données é")]:
        digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
        assert dataset_seed(seed, name) == int.from_bytes(digest[:4], "big") % 2**31
    assert dataset_seed(0, "iris") != dataset_seed(1, "iris")
    assert dataset_seed(0, "iris") != dataset_seed(0, "wine")


def test_study_seed_records_what_it_was_given():
    assert study_seed(3) == {"seed": 3, "origin": "given", "given": 3}
    np.random.seed(5)  # noqa: NPY002 (None draws from the global generator)
    drawn = study_seed(None)
    np.random.seed(5)  # noqa: NPY002 (None draws from the global generator)
    assert study_seed(None).seed == drawn.seed and drawn.origin == "drawn"
    rng = study_seed(np.random.RandomState(1))
    assert rng.seed == np.random.RandomState(1).randint(2**31 - 1)
    assert rng.origin == "drawn from the RandomState instance given"


def test_reordering_adding_or_removing_data_sets_keeps_each_data_sets_splits():
    datasets = _datasets()
    first = _by_name(_run(datasets, random_state=0))
    names = list(datasets)
    reordered = {name: datasets[name] for name in reversed(names)}
    fewer = {name: datasets[name] for name in names[1:]}
    more = {"extra": make_moons(n_samples=60, random_state=5), **datasets}
    for variant in (reordered, fewer, more):
        other = _by_name(_run(variant, random_state=0))
        for name, scores in other.items():
            if name in first:
                np.testing.assert_array_equal(scores, first[name])


def test_each_data_set_is_split_by_its_own_recorded_seed():
    result = benchmark(ESTIMATORS, _datasets(), random_state=11, effect_size=False)
    provenance = result.provenance
    assert provenance.random_state == 11 and provenance.random_state_origin == "given"
    for i, name in enumerate(result.datasets):
        seed = dataset_seed(11, name)
        one = result.per_dataset[name]
        assert one.provenance.random_state == seed
        assert provenance.datasets[name].seed == seed
        assert "study seed 11" in one.provenance.random_state_origin
        X, y = _datasets()[name]
        alone = compare_many_estimators(
            list(ESTIMATORS.items()), X, y, random_state=seed, pairwise_tests=[]
        )
        np.testing.assert_array_equal(alone.scores, result.split_scores[i])
        expected = [
            test for _, test in BlockRegularized5x2CV(random_state=seed).split(X, y)
        ]
        for got, want in zip(one.test_indices, expected):
            np.testing.assert_array_equal(got, want)


def test_a_drawn_seed_is_recorded_and_repeats_the_run():
    datasets = _datasets()
    kwargs = dict(pairwise_tests=["wilcoxon", "bayesian_signed_rank"], rope=0.01)
    first = _run(datasets, random_state=None, **kwargs)
    second = _run(datasets, random_state=None, **kwargs)
    seed = first.provenance.random_state
    assert isinstance(seed, int) and first.provenance.random_state_origin == "drawn"
    assert second.provenance.random_state != seed  # two draws
    again = _run(datasets, random_state=seed, **kwargs)
    np.testing.assert_array_equal(again.split_scores, first.split_scores)
    # The report of the rerun is that of the first run, but for how the seed
    # came (drawn, then given).
    drawn_text = f"random_state={seed}, drawn as none was given (random_state="
    assert drawn_text in first.report("text")
    drawn = re.compile(r", drawn as none was given .*? repeats the run\)")
    for format in ("text", "latex", "html"):
        assert drawn.sub("", first.report(format)) == again.report(format)
    document = json.loads(first.to_json())
    assert document["provenance"]["random_state"] == seed
    assert document["provenance"]["random_state_origin"] == "drawn"


@pytest.mark.parametrize("entry", ["compare_estimators", "compare_many_estimators"])
def test_one_data_set_entry_points_record_a_drawn_seed(entry):
    X, y = make_moons(n_samples=80, noise=0.3, random_state=0)
    if entry == "compare_estimators":

        def call(seed):
            return compare_estimators(
                GaussianNB(), DummyClassifier(), X, y, random_state=seed
            )
    else:

        def call(seed):
            return compare_many_estimators(
                [("bayes", GaussianNB()), ("dummy", DummyClassifier())],
                X,
                y,
                random_state=seed,
                pairwise_tests=[],
            )

    first = call(None)
    seed = first.provenance.random_state
    assert isinstance(seed, int)
    assert first.provenance.random_state_origin == "drawn"
    assert f"BlockRegularized5x2CV(random_state={seed})" == first.provenance.cv
    again = call(seed)
    for a, b in zip(first.test_indices, again.test_indices):
        np.testing.assert_array_equal(a, b)


def test_a_given_splitter_draws_no_seed():
    X, y = make_moons(n_samples=60, noise=0.3, random_state=0)
    result = compare_estimators(
        GaussianNB(), DummyClassifier(), X, y, cv=BlockRegularized5x2CV(random_state=4)
    )
    assert result.provenance.random_state is None
    assert result.provenance.random_state_origin == "splitter"
    # The methods name the splitter with its seed, and no seed of their own.
    text = " ".join(result.report().split())
    assert "(BlockRegularized5x2CV(random_state=4); Yang et al. 2023)" in text
    assert "not reproducible" not in text


def test_compare_scores_and_sequential_record_their_seed():
    rng = np.random.default_rng(0)
    scores = rng.uniform(0.7, 0.9, (8, 3))
    first = compare_scores(scores, pairwise_tests=["bayesian_signed_rank"])
    seed = first.provenance.random_state
    again = compare_scores(
        scores, pairwise_tests=["bayesian_signed_rank"], random_state=seed
    )
    table = first.pairwise.bayesian_signed_rank
    np.testing.assert_array_equal(
        table.p_a_better, again.pairwise.bayesian_signed_rank.p_a_better
    )
    X, y = make_moons(n_samples=120, noise=0.3, random_state=0)
    sequential = sequential_compare(GaussianNB(), DummyClassifier(), X, y)
    recorded = sequential.comparison.provenance
    assert isinstance(recorded.random_state, int)
    assert f"random_state={recorded.random_state}" in recorded.cv


def test_a_store_remembers_its_seed_and_the_same_call_resumes(tmp_path):
    datasets = _datasets()
    path = tmp_path / "study.db"
    first = _run(datasets, random_state=None, store=path)
    seed = first.provenance.random_state
    with StudyStore(path, mode="r") as store:
        assert store.random_state == seed
        n_fits = store.n_fits
    # Interrupted: the fits of one data set are lost; the same call (None)
    # resumes with the store's seed, fits only those, and gives the result of
    # the uninterrupted call.
    with StudyStore(path) as store:
        store.remove(dataset="wine")
        again = _run(datasets, random_state=None, store=store)
        assert store.last_call.n_to_fit == 20
        assert store.n_fits == n_fits
    assert again.provenance.random_state == seed
    assert "recorded in the study store study.db" in (
        again.provenance.random_state_origin
    )
    np.testing.assert_array_equal(again.split_scores, first.split_scores)
    # An int is used as given, and does not replace the store's seed.
    other = _run(datasets, random_state=seed + 1, store=path)
    assert other.provenance.random_state == seed + 1
    with StudyStore(path, mode="r") as store:
        assert store.random_state == seed


# --------------------------------------------------------------------------
# The command line means the same by its default


def _cli(*argv):
    import io

    from sklearn_bcv._cli import main

    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


SCORES = ["scores", "--format", "json", "--pairwise-tests", "bayesian_signed_rank"]


@pytest.fixture
def score_file(tmp_path):
    rng = np.random.default_rng(3)
    path = tmp_path / "scores.csv"
    rows = ["dataset,a,b,c"] + [
        f"d{i}," + ",".join(f"{v:.3f}" for v in rng.uniform(0.6, 0.9, 3))
        for i in range(8)
    ]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_the_command_line_draws_says_and_records_its_seed(score_file):
    status, out, err = _cli(*SCORES, score_file)
    assert status == 0, err
    document = json.loads(out)
    seed = document["random_state"]
    assert document["provenance"]["random_state"] == seed
    assert document["provenance"]["random_state_origin"] == "drawn"
    assert err.strip().splitlines()[-1] == (
        f"random state {seed}, drawn: --random-state {seed} repeats this run"
    )
    status, again, err = _cli(*SCORES, score_file, "--random-state", str(seed))
    assert status == 0 and err == ""  # given: nothing to say
    again = json.loads(again)
    assert again["provenance"].pop("random_state_origin") == "given"
    document["provenance"].pop("random_state_origin")
    assert again == document
    status, _, err = _cli(*SCORES, score_file, "--quiet")
    assert status == 0 and err == ""


def test_python_and_the_command_line_draw_alike(score_file):
    """The default of both is one draw from NumPy's global generator."""
    np.random.seed(8)  # noqa: NPY002 (None draws from the global generator)
    status, out, _ = _cli(*SCORES, score_file, "--quiet")
    np.random.seed(8)  # noqa: NPY002
    scores = np.loadtxt(score_file, delimiter=",", skiprows=1, usecols=(1, 2, 3))
    library = compare_scores(scores, pairwise_tests=["bayesian_signed_rank"])
    assert json.loads(out)["random_state"] == library.provenance.random_state


def test_the_command_line_names_where_each_data_set_comes_from():
    status, out, err = _cli(
        "benchmark", "--datasets", "iris", "moons:2", "--random-state", "0",
        "--quiet", "--format", "json", "--dataset-tests", "none",
    )  # fmt: skip
    assert status == 0, err
    described = json.loads(out)["provenance"]["datasets"]
    assert described["iris"]["source"] == "sklearn.datasets.load_iris(return_X_y=True)"
    assert described["moons:2"]["source"] == (
        "sklearn.datasets.make_moons(n_samples=300, noise=0.3, "
        "random_state=numpy.random.RandomState([0xDA7A, 2]))"
    )
    assert described["moons:2"]["seed"] == dataset_seed(0, "moons:2")
    assert described["iris"]["n_samples"] == 150
    assert described["iris"]["n_classes"] == 3
