"""Tests of ``sklearn-bcv scores FILE.csv --splits --cv SPEC``."""

import io
import json

import numpy as np
import pytest
from sklearn.model_selection import KFold, RepeatedKFold, ShuffleSplit

from sklearn_bcv import BlockRegularizedMx2CV, compare_split_scores
from sklearn_bcv._cli import main
from sklearn_bcv._cli._errors import UsageError
from sklearn_bcv._cli._split_scores import cv_of_spec

NAMES = ["svm", "tree", "knn"]
SCORES = np.array(
    [
        [0.853, 0.842, 0.851],
        [0.861, 0.839, 0.846],
        [0.849, 0.851, 0.832],
        [0.872, 0.846, 0.851],
        [0.858, 0.829, 0.840],
        [0.866, 0.848, 0.857],
        [0.851, 0.836, 0.839],
        [0.869, 0.851, 0.849],
        [0.857, 0.833, 0.852],
        [0.862, 0.847, 0.841],
    ]
)


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(["scores", *map(str, argv)], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def wide(tmp_path, first="split", label="split"):
    lines = [",".join([first, *NAMES])]
    lines += [
        ",".join([f"{label}{i}", *map(repr, row.tolist())])
        for i, row in enumerate(SCORES)
    ]
    path = tmp_path / "wide.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def long(tmp_path, dataset=None):
    header = "split,estimator,accuracy" + (",dataset" if dataset else "")
    lines = [header]
    for i, row in enumerate(SCORES):
        for name, value in zip(NAMES, row):
            lines.append(
                f"{i},{name},{float(value)!r}" + (f",{dataset}" if dataset else "")
            )
    path = tmp_path / "long.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("5x2", BlockRegularizedMx2CV(5)),
        ("3x2", BlockRegularizedMx2CV(3)),
        ("bcv:7", BlockRegularizedMx2CV(7)),
        ("10", KFold(10)),
        ("kfold:5", KFold(5)),
        ("10x10", RepeatedKFold(n_splits=10, n_repeats=10)),
        ("repeated:5x2", RepeatedKFold(n_splits=2, n_repeats=5)),
        ("shuffle:20:0.25", ShuffleSplit(20, test_size=0.25)),
    ],
)
def test_cv_specs(spec, expected):
    assert repr(cv_of_spec(spec)) == repr(expected)


@pytest.mark.parametrize("spec", ["foo", "0", "5x1", "shuffle:3:1.5", "kfold:x", "x2"])
def test_bad_cv_specs(spec):
    with pytest.raises(UsageError, match=r"--cv"):
        cv_of_spec(spec)


def test_wide_table_is_compare_split_scores(tmp_path):
    status, out, _ = run_cli(
        wide(tmp_path), "--splits", "--cv", "5x2", "--format", "json"
    )
    assert status == 0
    document = json.loads(out)
    expected = compare_split_scores(SCORES, cv=BlockRegularizedMx2CV(5), names=NAMES)
    table = document["pairwise"]["calibrated_f_5x2bcv"]
    np.testing.assert_allclose(
        table["pvalue_adjusted"], expected.pairwise.calibrated_f_5x2bcv.pvalue_adjusted
    )
    assert document["names"] == NAMES
    assert document["cv"].startswith("BlockRegularizedMx2CV")


def test_long_table_and_text(tmp_path):
    status, out, _ = run_cli(
        long(tmp_path, dataset="iris"),
        "--splits",
        "--cv",
        "10",
        "--alternative",
        "greater",
    )
    assert status == 0
    assert "10 splits of one data set × 3 estimators" in out
    assert "Pairwise corrected_t" in out
    assert "scoring: accuracy" in out


def test_sizes_instead_of_cv_and_csv(tmp_path):
    status, out, _ = run_cli(
        wide(tmp_path),
        "--splits",
        "--n-train",
        "90",
        "--n-test",
        "10",
        "--format",
        "csv",
    )
    assert status == 0
    assert out.startswith("section,test,")
    assert "pairwise,corrected_t" in out


def test_report(tmp_path):
    report = tmp_path / "report.md"
    status, _, _ = run_cli(
        wide(tmp_path), "--splits", "--cv", "5x2", "--report", report, "--quiet"
    )
    assert status == 0
    assert "The split scores were given" in report.read_text(encoding="utf-8")


def test_rows_labelled_as_splits_without_splits_is_a_usage_error(tmp_path):
    status, _, err = run_cli(wide(tmp_path))
    assert status == 2
    assert "add --splits --cv SPEC" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--splits"], "--splits needs the design of the splits"),
        (["--cv", "5x2"], "--cv SPEC describes the splits of --splits"),
        (["--splits", "--cv", "3x3"], "makes 9 splits, but the scores have 10"),
        (["--splits", "--cv", "5x2", "--control", "lda"], "no estimator 'lda'"),
        (
            ["--splits", "--cv", "5x2", "--pairwise-tests", "bcv_mcnemar"],
            "only per-split scores were given",
        ),
    ],
)
def test_errors(tmp_path, argv, message):
    status, _, err = run_cli(wide(tmp_path), *argv)
    assert status in (1, 2)
    assert message in err


def test_long_table_of_several_data_sets_is_refused(tmp_path):
    path = tmp_path / "two.csv"
    path.write_text(
        "split,estimator,dataset,score\n0,a,d1,0.8\n0,b,d2,0.7\n", encoding="utf-8"
    )
    status, _, err = run_cli(path, "--splits", "--cv", "2")
    assert status == 2
    assert "ONE data set" in err


def test_a_drawn_seed_is_said_and_recorded(tmp_path):
    # Without --random-state the command draws a seed, as every subcommand
    # does: said on stderr, recorded as drawn, and repeating it repeats the
    # result.
    path = wide(tmp_path)
    status, out, err = run_cli(path, "--splits", "--cv", "5x2", "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    seed = document["random_state"]
    assert f"random state {seed}, drawn: --random-state {seed} repeats" in err
    assert document["provenance"]["random_state"] == seed
    assert document["provenance"]["random_state_origin"] == "drawn"
    status, again, err = run_cli(
        path, "--splits", "--cv", "5x2", "--format", "json", "--random-state", seed
    )
    assert status == 0 and "drawn" not in err
    repeated = json.loads(again)
    assert repeated["provenance"]["random_state"] == seed
    assert repeated["provenance"]["random_state_origin"] == "given"
