"""What a test across estimators contributes to a result's summary, report
and CSV table: its role's wording, or its own ``content`` hook.

A contributor adding a test of a new kind (a ranking that decides nothing,
say) registers it with ``role="ranking"`` and, for its own sentences, a
``content`` hook; nothing in the result classes or the renderers changes.
"""

import csv
import io

import numpy as np
import pytest
from sklearn.utils import Bunch

from sklearn_bcv import compare_scores, register_test
from sklearn_bcv._results._document import result_csv
from sklearn_bcv.stats import _registry

SCORES = np.array(
    [
        [0.80, 0.85, 0.70],
        [0.75, 0.79, 0.72],
        [0.90, 0.91, 0.86],
        [0.66, 0.71, 0.60],
        [0.84, 0.88, 0.83],
        [0.71, 0.70, 0.75],
    ]
)
NAMES = ["svm", "forest", "knn"]


@pytest.fixture
def restore_registry():
    saved = dict(_registry._REGISTRY)
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(saved)


def win_shares(*, scores, alpha=0.05, alternative="two-sided"):
    """A toy ranking: each estimator's share of the data sets it wins, and
    its mean rank (no p-value, no decision)."""
    scores = np.asarray(scores)
    best = scores == scores.max(axis=1, keepdims=True)
    share = best.sum(axis=0) / best.sum()
    ranks = (-scores).argsort(axis=1).argsort(axis=1) + 1
    return Bunch(prob_best=share, expected_rank=ranks.mean(axis=0), test="wins")


def win_sentences(name, result, context):
    best = int(np.argmax(result.prob_best))
    shown = f"P({context.names[best]} is the best) = {result.prob_best[best]:.2f}"
    return {
        "summary": [f"{name}: {shown}"],
        "sentences": [f"On a new data set, {shown} ({context.n_datasets} seen)."],
        "tables": [
            {
                "header": ["estimator", "P(best)"],
                "rows": [
                    [n, f"{p:.2f}"] for n, p in zip(context.names, result.prob_best)
                ],
                "caption": "Probability of being the best.",
            }
        ],
        "csv_rows": [
            {"estimator": n, "prob_best": p}
            for n, p in zip(context.names, result.prob_best)
        ],
    }


def test_a_ranking_with_its_own_content_is_in_every_output(restore_registry):
    register_test(
        "wins",
        needs="scores",
        kind="datasets",
        role="ranking",
        alternatives="two-sided",
        display_name="win shares",
        rationale="how often each estimator wins",
        content=win_sentences,
    )(win_shares)
    result = compare_scores(SCORES, names=NAMES, tests=["friedman", "wins"])
    assert list(result.tests) == ["friedman", "wins"]
    assert result.verdict.omnibus_test == "friedman"  # a ranking decides nothing
    assert "wins: P(forest is the best) = 0.83" in str(result)
    for format in ("text", "markdown", "latex", "html"):
        report = result.report(format)
        assert "P(forest is the best) = 0.83" in report
        assert "Probability of being the best." in report
        assert "how often each estimator wins" in report
    rows = list(csv.DictReader(io.StringIO(result_csv(result))))
    mine = [row for row in rows if row["test"] == "wins"]
    assert [(r["section"], r["estimator"], r["prob_best"]) for r in mine] == [
        ("test", "svm", "0.0"),
        ("test", "forest", "0.8333333333333334"),
        ("test", "knn", "0.16666666666666666"),
    ]
    assert result.to_dict()["tests"]["wins"]["prob_best"][1] == pytest.approx(5 / 6)


def test_a_ranking_without_content_gets_a_table_of_its_fields(restore_registry):
    register_test("wins", needs="scores", kind="datasets", role="ranking")(win_shares)
    result = compare_scores(SCORES, names=NAMES, tests=["wins"], pairwise_tests=[])
    text = result.report()
    assert "The wins test ran on the 3 estimators (see its table)." in text
    assert "The wins test: one row per estimator." in text
    summary = str(result).splitlines()
    assert "wins (one row per estimator):" in summary
    assert summary[summary.index("wins (one row per estimator):") + 2].split() == [
        "svm",
        "0",
        "2",
    ]
    rows = list(csv.DictReader(io.StringIO(result_csv(result))))
    ranking = [row for row in rows if row["section"] == "ranking"]
    assert [row["estimator"] for row in ranking] == NAMES
    # svm is second on every data set; forest first on five, third on one
    assert [float(row["expected_rank"]) for row in ranking] == pytest.approx(
        [2.0, 8 / 6, 16 / 6]
    )


def test_a_content_hook_rewords_a_test_of_a_known_role(restore_registry):
    """An omnibus test with its own content: its lines replace the role's."""

    def words(name, result, context):
        said = f"{name} says {result.statistic:.1f}"
        return {"summary": [said], "sentences": ["Hi."]}

    entry = _registry.get_entry("friedman")
    _registry._REGISTRY["friedman"] = type(entry)(
        **{**entry.__dict__, "content": words}
    )
    result = compare_scores(SCORES, names=NAMES, pairwise_tests=[])
    assert str(result).splitlines()[5] == "friedman says 5.3"
    assert "\nHi.\n" in result.report()
    assert "Friedman test" not in result.report()
    rows = list(csv.DictReader(io.StringIO(result_csv(result))))
    assert [row["test"] for row in rows if row["section"] == "test"] == []


@pytest.mark.parametrize(
    "given, match",
    [
        (["a line"], "must return a dict with any of"),
        ({"summary": [], "figures": []}, r"unknown keys \['figures'\]"),
        ({"tables": [{"rows": []}]}, "gave a table that is not a dict with"),
    ],
)
def test_a_content_hook_that_breaks_its_contract_is_named(
    given, match, restore_registry
):
    register_test(
        "wins",
        needs="scores",
        kind="datasets",
        role="ranking",
        content=lambda name, result, context: given,
    )(win_shares)
    with pytest.raises(TypeError, match=match):
        compare_scores(SCORES, names=NAMES, tests=["wins"]).report()


def test_a_ranking_declared_to_run_by_default_runs_after_the_others(
    restore_registry,
):
    register_test(
        "wins",
        needs="scores",
        kind="datasets",
        role="ranking",
        by_default={"all_pairs": 0},
    )(win_shares)
    result = compare_scores(SCORES, names=NAMES)
    assert list(result.tests) == ["friedman", "nemenyi", "wins"]
    assert "wins" not in compare_scores(SCORES, names=NAMES, control="knn").tests
