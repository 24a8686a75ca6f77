"""Verdict tables that cannot mislead: the recommended test's verdict
leads, other tests are shown apart with their status, Bayesian tests under
their decision rule, corrections never pooled, and the printed deviations
from textbook forms said where the number is shown."""

import io

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import RepeatedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import compare_estimators, compare_scores, sequential_compare
from sklearn_bcv._cli import main
from sklearn_bcv._results._verdict import not_recommended
from sklearn_bcv._results._verdict import test_status as status_of

X, Y = load_breast_cancer(return_X_y=True)


@pytest.fixture(scope="module")
def mixed():
    """paired_t rejects (p = 0.025) where the recommended corrected_t does
    not (p = 0.33): 5-fold CV repeated 4 times, naive Bayes vs a tree."""
    return compare_estimators(
        GaussianNB(),
        DecisionTreeClassifier(random_state=0),
        X,
        Y,
        cv=RepeatedKFold(n_splits=5, n_repeats=4, random_state=0),
        tests=["corrected_t", "paired_t", "bayesian_correlated_t"],
    )


def test_the_setting_is_the_misleading_one(mixed):
    assert mixed.recommended_test == "corrected_t"
    assert mixed.tests.paired_t.pvalue < 0.05 < mixed.tests.corrected_t.pvalue


def test_the_recommended_verdict_leads_and_paired_t_is_hidden(mixed):
    lines = str(mixed).splitlines()
    assert lines[2] == mixed.verdict.text
    assert lines[2].startswith("Verdict from corrected_t (recommended for k-fold")
    assert "no significant difference at alpha=0.05 (p = 0.332)" in lines[2]
    assert lines[4].split()[0] == "corrected_t"
    assert lines[4].endswith("recommended")
    # paired_t's "significant" is nowhere; it is only named, as not recommended.
    assert "significant: A better" not in str(mixed)
    assert not any(line.lstrip().startswith("paired_t ") for line in lines)
    assert lines[-1].startswith("Not shown, not recommended here: paired_t")


def test_show_all_gives_paired_t_with_its_status_apart(mixed):
    text = mixed.summary(show="all")
    lines = text.splitlines()
    other = lines.index("Other tests (not the verdict; each with its status):")
    paired = next(i for i, line in enumerate(lines) if "paired_t " in line)
    assert paired > other > 2
    assert "significant: A better" in lines[paired]
    assert lines[paired].endswith(f"not recommended: {not_recommended('paired_t')}")
    assert status_of(mixed, "paired_t").startswith("not recommended")
    assert status_of(mixed, "bayesian_correlated_t") == "valid here"


def test_show_is_checked(mixed):
    with pytest.raises(ValueError, match="show must be one of"):
        mixed.summary(show="some")


def test_bayesian_results_are_posteriors_under_their_rule(mixed):
    lines = str(mixed).splitlines()
    header = next(i for i, line in enumerate(lines) if "Bayesian tests" in line)
    assert "posterior probabilities" in lines[header]
    assert "P(A better) (or P(B better)) > 0.95 (1 - alpha)" in lines[header]
    assert "alpha=" not in lines[header + 1]
    assert lines[header + 1].split()[:4] == ["test", "P(A", "better)", "P(rope)"]
    row = lines[header + 2].split()
    p_a = mixed.tests.bayesian_correlated_t.p_a_better
    assert row[0] == "bayesian_correlated_t" and float(row[1]) == pytest.approx(
        p_a, abs=5e-4
    )
    assert "no decision" in lines[header + 2]


def test_benchmark_never_pools_corrected_and_posteriors():
    scores = np.array(
        [
            [0.91, 0.88, 0.80],
            [0.85, 0.86, 0.79],
            [0.93, 0.90, 0.81],
            [0.77, 0.70, 0.72],
            [0.88, 0.84, 0.83],
            [0.95, 0.91, 0.90],
            [0.90, 0.85, 0.84],
            [0.80, 0.79, 0.70],
        ]
    )
    result = compare_scores(
        scores,
        names=["a", "b", "c"],
        tests=["friedman", "nemenyi"],
        pairwise_tests=["wilcoxon", "bayesian_signed_rank"],
        random_state=0,
    )
    text = str(result)
    wilcoxon = next(x for x in text.splitlines() if x.startswith("Pairwise wilcoxon"))
    bayes = next(x for x in text.splitlines() if x.startswith("Pairwise bayesian"))
    assert "holm-adjusted p-values" in wilcoxon and "differ at alpha=0.05" in wilcoxon
    assert "posterior probabilities" in bayes and "alpha=0.05" not in bayes
    assert "> 0.95 (1 - alpha)" in bayes and "decided" in bayes
    # Nemenyi's critical difference with its continuity correction named.
    n = len(scores)
    cd = result.tests.nemenyi.critical_difference
    nemenyi = next(x for x in text.splitlines() if x.startswith("Post hoc nemenyi"))
    assert f"critical difference {cd:.3g}" in nemenyi
    assert f"continuity correction 1/(2N) = {0.5 / n:.3g}" in nemenyi
    assert f"textbook CD of Demšar is {cd - 0.5 / n:.3g}" in nemenyi


def test_sequential_interval_is_labelled_unadjusted():
    result = sequential_compare(
        GaussianNB(), DummyClassifier(), X, Y, max_repeats=4, random_state=0
    )
    lines = str(result).splitlines()
    assert "interval (A - B)*" in lines[2]
    assert any(x.startswith("* not sequentially adjusted") for x in lines)
    assert "result.comparison" in lines[-1]


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cli_sequential_speaks_of_what_a_cli_user_has():
    status, out, err = run_cli(
        "sequential", "--dataset", "breast_cancer", "--max-repeats", "3"
    )
    assert status == 0, err
    assert "result.comparison" not in out
    assert "fixed_design_tests of --format json" in out


def test_cli_all_tests_and_progress_on_stderr():
    argv = ["--dataset", "breast_cancer", "--tests", "bcv_mcnemar,paired_t"]
    status, out, err = run_cli(*argv)
    assert status == 0, err
    assert "Not shown, not recommended here: paired_t" in out
    assert "done in" in err and "done in" not in out
    assert "(tests included)" in err
    status, out, _ = run_cli(*argv, "--all-tests")
    assert status == 0
    line = next(x for x in out.splitlines() if x.lstrip().startswith("paired_t"))
    assert "not recommended:" in line
