"""Tests of ``sklearn-bcv sequential`` (and ``--sequential``)."""

import csv
import io
import json

import pytest
from numpy.testing import assert_allclose

from sklearn_bcv._cli import main


def run_cli(*argv):
    """Run ``main`` on ``argv``; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


# The main job's estimators on wine separate at the first look: 12 fits.
WINE = ("sequential", "--dataset", "wine", "--random-state", "0", "--quiet")


def test_sequential_flag_selects_the_subcommand():
    status, out, err = run_cli("--sequential", "--dataset", "wine", "--quiet")
    assert status == 0, err
    assert "cv: BlockRegularizedMx2CV(max_repeats=7, n_repeats=" in out
    assert "Sequential comparison of A = Pipeline(StandardScaler, " in out
    assert "O'Brien-Fleming boundaries" in out
    assert "Decision: " in out and "not sequentially adjusted" in out
    assert err == ""


def test_json_matches_the_python_api():
    from sklearn.datasets import load_wine

    from sklearn_bcv import sequential_compare
    from sklearn_bcv._cli._estimators import default_estimators

    status, out, err = run_cli(*WINE, "--format", "json", "--boundary", "pocock")
    assert status == 0, err
    document = json.loads(out)
    (_, a), (_, b), *_ = default_estimators("classification", 0)
    X, y = load_wine(return_X_y=True)
    expected = sequential_compare(a, b, X, y, boundary="pocock", random_state=0)
    assert document["decision"] == expected.decision
    assert document["n_repeats"] == expected.n_repeats
    assert document["n_fits"] + document["n_fits_saved"] == 28
    assert [look["repeats"] for look in document["looks"]] == list(
        expected.trace.repeats
    )
    assert_allclose(
        [look["statistic"] for look in document["looks"]], expected.trace.statistic
    )
    assert document["boundary"] == "pocock" and document["test"] == "bcv_mcnemar"
    assert "bcv_mcnemar" in document["fixed_design_tests"]
    assert "bayesian_bcv_mcnemar" in document["fixed_design_tests"]


def test_csv_one_row_per_look_and_one_sided_boundaries_are_empty():
    status, out, err = run_cli(
        *WINE, "--format", "csv", "--alternative", "greater", "--min-repeats", "2"
    )
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["repeats"] == "2"
    assert all(row["lower"] == "" for row in rows)  # -inf: no lower boundary
    assert rows[-1]["decision"] in {
        "A better",
        "B better",
        "undecided",
        "no difference",
    }
    assert rows[-1]["stopped_by"] in {"boundary", "futility", "max_repeats"}
    assert all(row["stopped_by"] == "" for row in rows[:-1])
    assert all(0 <= float(row["conditional_power"]) <= 1 for row in rows)


# Two identical trees: a statistic of 0 at every look.
SAME = (
    "sequential",
    "--dataset",
    "wine",
    "--quiet",
    "--estimator-a",
    "sklearn.tree.DecisionTreeClassifier",
    "--estimator-b",
    "sklearn.tree.DecisionTreeClassifier",
    "--params-a",
    '{"random_state": 0}',
    "--params-b",
    '{"random_state": 0}',
)


def test_futility_stops_identical_estimators_at_the_first_look():
    from sklearn.datasets import load_wine
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bcv import sequential_compare

    status, out, err = run_cli(*SAME, "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    assert document["decision"] == "no difference"
    assert document["stopped_by"] == "futility"
    assert document["looks"][-1]["stopped_by"] == "futility"
    assert (document["n_repeats"], document["n_fits"]) == (3, 12)
    assert document["futility"] == "conditional_power"
    assert document["futility_threshold"] == 0.1
    tree = DecisionTreeClassifier(random_state=0)
    X, y = load_wine(return_X_y=True)
    expected = sequential_compare(tree, tree, X, y, random_state=0)
    assert_allclose(
        document["looks"][0]["conditional_power"], expected.trace.conditional_power[0]
    )
    status, out, err = run_cli(*SAME, "--futility", "none")
    assert status == 0, err
    assert "Decision: undecided after 7 of at most 7" in out
    assert "futility" not in out
    status, out, err = run_cli(*SAME, "--futility-threshold", "0.01")
    assert "futility: conditional power < 0.01" in out
    assert "Decision: no difference after 3" in out
    assert "stopped by futility" in out
    assert "cond. power" in out


def test_regression_defaults_to_bcv_t_and_a_rope():
    status, out, err = run_cli(
        "sequential", "--dataset", "diabetes", "--quiet", "--rope", "0.5",
        "--random-state", "0",
    )  # fmt: skip
    assert status == 0, err
    assert "test: bcv_t (t(2m - 1) look statistic)" in out
    assert ", rope=0.5" in out
    assert "Decision: no difference after 3" in out


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "path"
    status, _, err = run_cli(*WINE, "--plot", str(path))
    assert status == 0
    assert (tmp_path / "path.png").stat().st_size > 0


@pytest.mark.parametrize(
    "argv, message",
    [
        (("--min-repeats", "5", "--max-repeats", "3"), "--min-repeats 5 is more than"),
        (("--max-repeats", "0"), "expected an integer in [1, 50]"),
        (("--rope", "-1"), "expected a finite number >= 0"),
        (("--rope", "nan"), "expected a finite number >= 0"),
        (("--futility", "bayes"), "invalid choice"),
        (("--futility-threshold", "1"), "expected a number in [0, 1)"),
        (("--futility-threshold", "x"), "expected a number in [0, 1)"),
        (("--boundary", "haybittle"), "invalid choice"),
        (("--test", "calibrated_f_5x2bcv"), "invalid choice"),
        (("--dataset", "diabetes", "--test", "bcv_mcnemar"), "use --test bcv_t"),
    ],
)
def test_bad_input(argv, message):
    status, out, err = run_cli("sequential", "--quiet", *argv)
    assert status in (1, 2)
    assert message in err and out == ""
    assert err.count("\n") == 1


def test_max_repeats_too_large_for_the_data(tmp_path):
    data = tmp_path / "small.csv"
    rows = ["x,y"] + [f"{i},{i % 2}" for i in range(20)]
    data.write_text("\n".join(rows) + "\n")
    status, _, err = run_cli(
        "sequential", "--data", str(data), "--target", "y", "--max-repeats", "20"
    )
    assert status == 1
    assert "--max-repeats: max_repeats=20 is too large for 20 records" in err
