"""What a report says: its methods (from the result's provenance), the
works it cites, every pair of every test, each data set's own tests, the
Bayesian decisions in their own words; and the printed summaries (ranks
that tie, scores at their own precision, names that cannot break a
line)."""

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, load_wine
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils import Bunch

from sklearn_bcv import (
    BlockRegularizedMx2CV,
    benchmark,
    compare_scores,
    register_test,
    unregister_test,
)
from sklearn_bcv._results._blocks import (
    Math,
    Text,
    alpha_is,
    decimals_of,
    fixed,
)
from sklearn_bcv._results._methods import describe_estimator
from sklearn_bcv._results._text import escape_controls, shared_ranks
from sklearn_bcv._version import __version__

ESTIMATORS = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.5)),
    "forest": RandomForestClassifier(n_estimators=5, random_state=0),
    "bayes": GaussianNB(),
    "majority": DummyClassifier(),
}
DATASETS = {
    "iris": lambda: load_iris(return_X_y=True),
    "wine": lambda: load_wine(return_X_y=True),
}


@pytest.fixture(scope="module")
def study():
    return benchmark(
        ESTIMATORS,
        DATASETS,
        cv=BlockRegularizedMx2CV(n_repeats=2, random_state=0),
        pairwise_tests=["wilcoxon", "bayesian_signed_rank"],
        rope=0.01,
        random_state=0,
    )


# --------------------------------------------------------------------------
# Methods


def test_the_methods_state_what_a_paper_must(study):
    text = study.report()
    methods = text[text.index("Methods") : text.index("Tests and why")]
    assert methods.startswith("Methods")
    for claim in (
        "4 estimators (logistic, forest, bayes and majority) were compared on 2 "
        "data sets (iris and wine)",
        "logistic = Pipeline(StandardScaler(), LogisticRegression(C=0.5))",
        "forest = RandomForestClassifier(n_estimators=5, random_state=0)",
        "bayes = GaussianNB()",
        # The design, its splitter and its seed.
        "the splits of a 2×2 block-regularized CV of every data set (4 splits "
        "each; BlockRegularizedMx2CV(n_repeats=2, random_state=0); "
        "random_state=0; Yang et al. 2023), scoring accuracy",
        # 4 estimators x 4 splits x 2 data sets.
        "In all, 32 fits, none failed.",
        "Significance level alpha = 0.05",
        "adjusted for the 6 pairs by Holm's step-down method (Holm 1979)",
        "exceeds 1 - alpha = 0.95; a region of practical equivalence (rope) of "
        "±0.01 for the Bayesian signed-rank test (in score units)",
        # The software a rerun needs (as every report states it).
        f"Analysis by sklearn_bcv {__version__} (Python ",
        "scikit-learn ",
        "NumPy ",
        "SciPy ",
    ):
        assert claim in " ".join(methods.split()), claim


def test_provenance_is_a_field_of_every_result_and_of_its_document(study):
    provenance = study.provenance
    assert provenance.version == __version__
    assert provenance.random_state == 0 and provenance.given is None
    assert provenance.estimators["majority"] == "DummyClassifier()"
    assert provenance.cv == "BlockRegularizedMx2CV(n_repeats=2, random_state=0)"
    document = json.loads(study.to_json())
    assert document["provenance"]["estimators"]["bayes"] == "GaussianNB()"
    for one in study.per_dataset.values():
        assert one.provenance.estimators == provenance.estimators
    pair = study.per_dataset.iris.pair("forest", "bayes")
    assert pair.provenance.estimators == {
        "A": provenance.estimators["forest"],
        "B": "GaussianNB()",
    }


def test_scores_given_say_what_is_not_known():
    result = compare_scores(
        np.random.default_rng(0).normal(0.8, 0.03, (6, 3)), random_state=4
    )
    assert result.provenance.given == "scores" and result.provenance.estimators is None
    text = " ".join(result.report().split())
    assert (
        "The scores were given as a table (one score per data set and estimator): "
        "how they were obtained (the splitter, its seed, the fits) is not known to "
        "sklearn_bcv and is not stated here." in text
    )
    assert "fits" not in text.split("is not stated here.")[1].split("Tests")[0]


def test_every_citation_is_in_the_references_and_a_users_test_cites_its_own():
    def wins(*, scores, alpha=0.05, alternative="two-sided"):
        scores = np.asarray(scores)
        return Bunch(wins=(scores == scores.max(axis=1, keepdims=True)).sum(0))

    register_test(
        "wins",
        needs="scores",
        kind="datasets",
        role="ranking",
        alternatives="two-sided",
        rationale="counts the data sets each estimator wins",
        references={"Doe 2024": "J. Doe. Counting wins. Journal of Tallies, 2024."},
    )(wins)
    try:
        result = compare_scores(
            np.random.default_rng(0).normal(0.8, 0.03, (6, 3)),
            tests=["friedman", "nemenyi", "wins"],
        )
        for format in ("text", "markdown", "latex", "html"):
            report = result.report(format, figures=False)
            references = report[report.rindex("References") :]
            assert "J. Doe. Counting wins" in references
            assert "J. Demšar" in references or "J. Dem" in references
        text = result.report()
        cited = set(re.findall(r"\(([^()]*\d{4}[^()]*)\)", text))
        entries = text[text.rindex("References") :]
        for group in cited:
            for citation in group.split("; "):
                author = citation.split(" ")[0].rstrip(",")
                assert author in entries, citation
        assert "wins: counts the data sets each estimator wins (Doe 2024)" in text
    finally:
        unregister_test("wins")


# --------------------------------------------------------------------------
# Every pair, every data set


def test_pair_tables_give_every_pairs_values(study):
    text = study.report()
    table = text[text.index("The Wilcoxon signed-rank test, pair by pair") :]
    table = table.split("\n\n")[0]
    wilcoxon = study.pairwise.wilcoxon
    rows = [line.split() for line in table.splitlines()[2:] if line.startswith("  ")]
    assert len(rows) == len(wilcoxon.results) == 6
    for row in rows:
        a, b = study.names.index(row[0]), study.names.index(row[1])
        p = wilcoxon.pvalue[a, b]
        assert row[3] == ("<0.001" if p < 0.0005 else f"{p:.3f}")
    bayes = text[text.index("The Bayesian signed-rank test, pair by pair") :]
    assert "P(rope): equivalent within the rope, ±0.01" in bayes.splitlines()[0]
    assert "P(rope)" in bayes.splitlines()[1]


def test_each_dataset_has_its_own_row(study):
    text = study.report()
    table = text[text.index("Each data set on its own") :].split("\n\n")[0]
    for dataset, one in study.per_dataset.items():
        row = next(
            line for line in table.splitlines() if line.strip().startswith(dataset)
        )
        test = next(iter(one.tests.values()))
        assert f"{one.design.n_samples}" in row
        p = test.pvalue
        assert ("<0.001" if p < 0.0005 else f"{p:.3f}") in row


def test_figures_of_a_benchmark(study):
    figures = study._report_figures()
    # The significance matrices and the posterior are the panels of one
    # figure.
    assert [figure.display for figure in figures] == [
        "CriticalDifferenceDisplay",
        "SignificanceMatrixDisplay",
        "DatasetScoresDisplay",
    ]
    assert [display for display, _ in figures[1].panels] == [
        "SignificanceMatrixDisplay",
        "SignificanceMatrixDisplay",
        "PosteriorSimplexDisplay",
    ]
    page = study.report("html")
    assert page.count("<svg") == 3 and "not drawn" not in page


# --------------------------------------------------------------------------
# Bayesian words


def test_bayesian_sentences_never_say_at_alpha(study):
    text = study.report()
    for line in text.splitlines():
        if line.startswith("The Bayesian signed-rank test ("):
            assert "at alpha" not in line
            assert "posterior probabilities, a rope of ±0.01" in line
            assert "a decision when one exceeds 1 - alpha = 0.95" in line
    assert not re.search(r"Bayesian[^.]*at alpha", text)


# --------------------------------------------------------------------------
# Summaries


def test_equal_mean_ranks_share_a_rank_number():
    # b and c tie on every data set: equal mean ranks.
    scores = np.array(
        [[0.9, 0.8, 0.8, 0.7], [0.85, 0.8, 0.8, 0.6], [0.7, 0.75, 0.75, 0.5]]
    )
    result = compare_scores(scores, names=["a", "b", "c", "d"])
    rows = [line.split() for line in str(result).splitlines()[2:6]]
    assert [row[0] for row in rows] == ["1", "2", "2", "4"]
    assert shared_ranks([1.0, 2.5, 2.5, 2.5, 4.0]) == [1, 2, 2, 2, 5]


def test_percent_scores_print_at_their_own_precision():
    scores = np.array([[96.1, 95.2, 90.3], [94.0, 93.5, 91.1], [97.3, 92.2, 90.0]])
    result = compare_scores(scores, names=["a", "b", "c"])
    assert result._score_decimals() == 1
    rows = str(result).splitlines()[2:5]
    assert all(re.search(r"\s\d+\.\d$", row) for row in rows), rows
    assert "96.1000" not in result.report()


def test_summaries_escape_what_names_hold():
    names = ["line\nbreak", "\x1b[31mred", "ok"]
    scores = np.random.default_rng(0).normal(0.8, 0.03, (5, 3))
    hostile = str(compare_scores(scores, names=names))
    plain = str(compare_scores(scores, names=["a", "b", "c"]))
    assert hostile.count("\n") == plain.count("\n")
    assert "\x1b" not in hostile and "line\\x0abreak" in hostile
    assert all(escape_controls(line) == line for line in hostile.split("\n"))


# --------------------------------------------------------------------------
# Words and numbers


def test_math_is_kept_apart_from_text():
    text = Text("level ", alpha_is(0.05), ".")
    assert str(text) == "level alpha = 0.05."
    assert text.plain is None and Text("plain").plain == "plain"
    with pytest.raises(TypeError, match="not inside an f-string"):
        f"{alpha_is(0.05)}"  # noqa: B018
    joined = "a " + Math("x", "x") + " b"
    assert isinstance(joined, Text) and str(joined) == "a x b"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.decimals(min_value="-99.99", max_value="99.99", places=2, allow_nan=False),
        min_size=1,
        max_size=20,
    )
)
def test_decimals_write_exact_scores_exactly(values):
    floats = [float(v) for v in values]
    decimals = decimals_of(floats)
    assert decimals <= 4
    sizes = sorted(abs(v) for v in floats if v)
    typical = sizes[len(sizes) // 2] if sizes else 0
    if typical >= 0.1:  # 4 significant digits of it reach 2 decimals
        for value in floats:
            assert float(fixed(value, decimals)) == pytest.approx(value, abs=1e-9)


def test_describe_estimator_writes_the_parameters_that_changed():
    assert describe_estimator(LogisticRegression()) == "LogisticRegression()"
    forest = RandomForestClassifier(n_estimators=5, max_depth=3)
    assert describe_estimator(forest) == (
        "RandomForestClassifier(max_depth=3, n_estimators=5)"
    )
    pipeline = make_pipeline(StandardScaler(with_mean=False), GaussianNB())
    assert describe_estimator(pipeline) == (
        "Pipeline(StandardScaler(with_mean=False), GaussianNB())"
    )
    long = DummyClassifier(constant="x" * 80, strategy="constant")
    assert (
        describe_estimator(long) == "DummyClassifier(constant=..., strategy='constant')"
    )


def test_a_ranking_has_its_figure_table_sentence_and_works_in_every_format():
    rng = np.random.default_rng(1)
    scores = rng.normal(0.85, 0.03, (7, 4)) + np.linspace(-0.03, 0.03, 4)
    result = compare_scores(
        scores,
        names=["logistic", "forest", "tree", "bayes"],
        tests=["friedman", "nemenyi", "plackett_luce"],
        pairwise_tests=[],
        random_state=0,
    )
    displays = [figure.display for figure in result._report_figures()]
    assert "RankProbabilityDisplay" in displays
    for format in ("text", "markdown", "latex", "html"):
        report = result.report(format, figures=False)
        assert "is the best) = " in report
        assert "Calvo" in report[report.rindex("References") :]
    latex = result.report("latex")
    assert "\\label{bcv:plackett-luce}" in latex
    assert "1 - alpha" not in latex and "(1 - alpha)" not in result.report()


def test_the_summary_of_k_estimators_on_one_data_set_escapes_names_too():
    from sklearn_bcv import BlockRegularized5x2CV, compare_many_predictions

    rng = np.random.default_rng(0)
    y = np.tile([0, 1], 40)
    splits = list(BlockRegularized5x2CV(random_state=0).split(y.reshape(-1, 1), y))

    def noisy(rate):
        return [np.where(rng.random(t.size) < rate, 1 - y[t], y[t]) for _, t in splits]

    def summary(names):
        rng.bit_generator.state = np.random.default_rng(0).bit_generator.state
        predictions = {name: noisy(rate) for name, rate in zip(names, (0.1, 0.3, 0.5))}
        return str(compare_many_predictions(y, predictions, splits))

    hostile = summary(["a\nb", "\x1b[2Jwipe", "c\u202ed"])
    plain = summary(["ab", "wipe", "cd"])
    assert hostile.count("\n") == plain.count("\n")
    assert "\x1b" not in hostile and "\u202e" not in hostile
    assert "a\\x0ab" in hostile and "\\x1b[2Jwipe" in hostile


def test_a_reason_that_cites_a_work_is_not_cited_twice():
    from sklearn_bcv._results._methods import cited

    # "Demšar (2006)" in the text is the reference "Demšar 2006".
    assert cited("as Demšar (2006) recommends", "Friedman 1937; Demšar 2006") == (
        "as Demšar (2006) recommends (Friedman 1937)"
    )
    # A closing citation takes the new works inside its parentheses.
    assert cited("all pairs (Demšar 2006)", "Nemenyi 1963") == (
        "all pairs (Demšar 2006; Nemenyi 1963)"
    )
    assert cited("all pairs (Demšar 2006)", "Demšar 2006") == "all pairs (Demšar 2006)"
    assert cited("Holm's method", "Holm 1979") == "Holm's method (Holm 1979)"
