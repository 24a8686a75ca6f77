"""Tests of ``sklearn-bcv scores FILE.csv``: a results table the user has."""

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from sklearn_bcv import compare_scores
from sklearn_bcv._cli import SUBCOMMANDS, main
from sklearn_bcv._cli import _data as cli_data
from sklearn_bcv._cli._scores import read_scores

# Three estimators on five data sets. Ranks per data set (1 = best):
#   A: 1 1 1 2 1 (sum 6), B: 2 3 3 1 3 (sum 12), C: 3 2 2 3 2 (sum 12), so
#   Friedman's chi2 = 12 / (n k (k + 1)) * sum R_j^2 - 3 n (k + 1)
#                  = 12 / 60 * (36 + 144 + 144) - 60 = 4.8 on 2 df.
NAMES = ["A", "B", "C"]
DATASETS = ["d1", "d2", "d3", "d4", "d5"]
SCORES = np.array(
    [
        [0.80, 0.75, 0.70],
        [0.82, 0.79, 0.81],
        [0.90, 0.85, 0.86],
        [0.70, 0.72, 0.60],
        [0.65, 0.60, 0.61],
    ]
)
FRIEDMAN = 4.8


def wide_text(scores=SCORES, names=NAMES, datasets=DATASETS, sep=",", first="dataset"):
    lines = [sep.join([first, *names])]
    for dataset, row in zip(datasets, scores):
        lines.append(sep.join([dataset, *(repr(float(v)) for v in row)]))
    return "\n".join(lines) + "\n"


def long_text(scores=SCORES, names=NAMES, datasets=DATASETS, column="accuracy"):
    lines = [f"estimator,dataset,{column}"]
    # Rows in a scrambled order: the order of a long table does not matter
    # beyond the first appearance of each name.
    for j, name in enumerate(names):
        for i, dataset in enumerate(datasets):
            lines.append(f"{name},{dataset},{float(scores[i, j])!r}")
    return "\n".join(lines) + "\n"


def write(tmp_path, text, name="scores.csv", encoding="utf-8"):
    path = tmp_path / name
    path.write_text(text, encoding=encoding)
    return path


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    # Seed 0, as the library calls these tests compare with (without the
    # option the command draws a seed: tests/test_seeds.py).
    argv = ["scores", "--random-state", "0", *map(str, argv)]
    status = main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def run_json(*argv):
    status, out, err = run_cli(*argv, "--format", "json")
    assert status == 0, err
    return json.loads(out)


def assert_usage_error(argv, match, expected_status=2):
    status, out, err = run_cli(*argv)
    assert status == expected_status, (out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert match in lines[0], lines[0]
    return lines[0]


def test_registered_with_a_summary():
    assert "scores" in SUBCOMMANDS
    status, out, _ = run_cli("--help")
    assert status == 0
    assert "--lower-is-better" in out and "--layout" in out
    out = io.StringIO()
    main(["--help"], stdout=out, stderr=io.StringIO())
    assert "scores" in out.getvalue()


def test_friedman_statistic_of_a_small_table(tmp_path):
    document = run_json(write(tmp_path, wide_text()))
    friedman = document["tests"]["friedman"]
    assert friedman["statistic"] == pytest.approx(FRIEDMAN)
    reference = stats.friedmanchisquare(*SCORES.T)
    assert friedman["statistic"] == pytest.approx(reference.statistic)
    # scipy's p-value is the chi-squared one, reported beside the exact
    # permutation p-value that decides.
    assert friedman["pvalue_chi2"] == pytest.approx(reference.pvalue)
    assert friedman["pvalue_chi2"] == pytest.approx(np.exp(-FRIEDMAN / 2))  # 2 df
    assert friedman["method"] == "exact"
    assert friedman["pvalue"] == pytest.approx(161 / 1296, rel=1e-12)  # enumerated
    assert document["mean_ranks"] == pytest.approx([1.2, 2.4, 2.4])
    assert document["names"] == NAMES
    assert document["datasets"] == DATASETS
    np.testing.assert_allclose(document["scores"], SCORES)


def test_text_output_reports_the_table_and_the_tests(tmp_path):
    status, out, err = run_cli(write(tmp_path, wide_text()))
    assert status == 0, err
    assert "wide table; 5 data sets × 3 estimators" in out
    assert "higher is better" in out
    # At the precision of the scores given (two decimals), not "0.8000".
    assert "0.80 (1)" in out and "0.72 (1)" in out  # d1 and d4
    assert "0.8000" not in out
    assert "statistic 4.8 (df 2" in out


def without_source(document):
    return {
        key: value
        for key, value in document.items()
        if key not in ("file", "layout", "score_column")
    }


def test_wide_and_long_give_identical_results(tmp_path):
    wide = run_json(write(tmp_path, wide_text(), "wide.csv"))
    long = run_json(write(tmp_path, long_text(), "long.csv"))
    assert (wide["layout"], long["layout"]) == ("wide", "long")
    assert long["score_column"] == "accuracy"
    assert without_source(wide) == without_source(long)
    for fmt in ("csv",):
        outputs = [
            run_cli(tmp_path / name, "--format", fmt)[1]
            for name in ("wide.csv", "long.csv")
        ]
        assert outputs[0] == outputs[1]


def test_same_as_compare_scores(tmp_path):
    document = run_json(write(tmp_path, wide_text()), "--control", "C")
    result = compare_scores(SCORES, names=NAMES, datasets=DATASETS, control="C")
    assert (
        list(document["tests"])
        == list(result.tests)
        == [
            "friedman",
            "exact_posthoc",
        ]
    )
    np.testing.assert_allclose(
        document["tests"]["exact_posthoc"]["pvalue"],
        result.tests.exact_posthoc.pvalue,
    )
    assert document["control"] == "C"


def test_lower_is_better_mirrors(tmp_path):
    # Error rates 1 - accuracy with --lower-is-better: the same ranks and
    # tests as the accuracies; the scores stay in the file's units.
    higher = run_json(write(tmp_path, wide_text(), "acc.csv"))
    errors = 1 - SCORES
    lower = run_json(write(tmp_path, wide_text(errors), "err.csv"), "--lower-is-better")
    assert lower["greater_is_better"] is False
    assert lower["mean_ranks"] == pytest.approx(higher["mean_ranks"])
    np.testing.assert_allclose(lower["ranks"], higher["ranks"])
    np.testing.assert_allclose(lower["scores"], errors)
    for name in ("friedman", "nemenyi"):
        for field in ("statistic", "pvalue"):
            np.testing.assert_allclose(
                np.asarray(lower["tests"][name][field], dtype=float),
                np.asarray(higher["tests"][name][field], dtype=float),
            )
    # Without the flag the same errors rank the other way round.
    wrong = run_json(tmp_path / "err.csv")
    assert wrong["mean_ranks"] == pytest.approx([2.8, 1.6, 1.6])
    status, out, _ = run_cli(tmp_path / "err.csv", "--lower-is-better")
    assert status == 0 and "lower is better" in out


def per_split_rows(rng):
    """Long rows with 3 splits per data set (and the (5, 3, 3) array)."""
    noise = rng.normal(scale=0.01, size=(5, 3, 3))
    split_scores = SCORES[:, None, :] + noise
    lines = ["dataset,estimator,split,score"]
    for i, dataset in enumerate(DATASETS):
        for s in range(3):
            for j, name in enumerate(NAMES):
                lines.append(f"{dataset},{name},{s},{float(split_scores[i, s, j])!r}")
    return lines, split_scores


def test_per_split_scores_are_passed_through(tmp_path):
    lines, split_scores = per_split_rows(np.random.default_rng(0))
    path = write(tmp_path, "\n".join(lines) + "\n")
    document = run_json(path, "--n-train", "50", "--n-test", "50")
    np.testing.assert_allclose(document["split_scores"], split_scores)
    result = compare_scores(
        split_scores,
        names=NAMES,
        datasets=DATASETS,
        n_train=50,
        n_test=50,
        random_state=0,
    )
    assert list(document["pairwise"]) == list(result.pairwise)
    assert "poisson_binomial" in document["pairwise"]
    np.testing.assert_allclose(
        np.asarray(document["pairwise"]["poisson_binomial"]["p_a_better"], float),
        result.pairwise.poisson_binomial.p_a_better,
    )
    table = read_scores(path)
    assert table.scores.shape == (5, 3, 3)
    status, out, _ = run_cli(path)
    assert status == 0 and "3 splits each" in out


def test_unequal_splits_are_refused(tmp_path):
    lines, _ = per_split_rows(np.random.default_rng(0))
    lines += ["d1,A,3,0.8", "d1,B,3,0.7", "d1,C,3,0.6"]
    assert_usage_error(
        [write(tmp_path, "\n".join(lines) + "\n")], "same number of splits"
    )


def test_a_split_missing_for_one_estimator_is_named(tmp_path):
    lines, _ = per_split_rows(np.random.default_rng(0))
    lines = [line for line in lines if not line.startswith("d2,B,1,")]
    assert_usage_error(
        [write(tmp_path, "\n".join(lines) + "\n")], "d2 lacks B (split 1)"
    )


def test_bom_semicolons_and_decimal_commas(tmp_path):
    text = wide_text(sep=";").replace(".", ",")
    path = write(tmp_path, "\ufeff" + text)
    reference = run_json(write(tmp_path, wide_text(), "plain.csv"))
    assert without_source(run_json(path)) == without_source(reference)
    # A tab-separated long table.
    tabbed = long_text().replace(",", "\t")
    document = run_json(write(tmp_path, tabbed, "tabbed.tsv"))
    assert without_source(document) == without_source(reference)


def test_index_as_first_column(tmp_path):
    text = wide_text(datasets=["0", "1", "2", "3", "4"], first="")
    document = run_json(write(tmp_path, text))
    assert document["datasets"] == ["0", "1", "2", "3", "4"]
    assert document["tests"]["friedman"]["statistic"] == pytest.approx(FRIEDMAN)


def test_score_column_chooses_among_several(tmp_path):
    text = long_text().replace("accuracy", "accuracy,fit_time")
    text = "\n".join(
        line if i == 0 else line + ",1.5" for i, line in enumerate(text.splitlines())
    )
    path = write(tmp_path, text + "\n")
    assert_usage_error([path], "--score-column NAME")
    document = run_json(path, "--score-column", "accuracy")
    assert document["tests"]["friedman"]["statistic"] == pytest.approx(FRIEDMAN)
    assert_usage_error([path, "--score-column", "loss"], "no column 'loss'")
    assert_usage_error([path, "--score-column", "dataset"], "key column")
    wide = write(tmp_path, wide_text(), "wide.csv")
    assert_usage_error([wide, "--score-column", "A"], "long table")


def test_plot_writes_the_critical_difference_diagram(tmp_path):
    plot = tmp_path / "cd"
    status, _, err = run_cli(write(tmp_path, wide_text()), "--plot", plot)
    assert status == 0, err
    assert (tmp_path / "cd.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot saved to {tmp_path / 'cd.png'}" in err
    # As in every subcommand, a --plot path that cannot be written: a usage
    # error, before the file is read.
    assert_usage_error([tmp_path / "missing.csv", "--plot", tmp_path], "is a directory")


def test_csv_output_has_a_row_per_pair(tmp_path):
    status, out, err = run_cli(write(tmp_path, wide_text()), "--format", "csv")
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    nemenyi = [row for row in rows if row["test"] == "nemenyi"]
    assert len(nemenyi) == 3
    assert {(row["estimator_a"], row["estimator_b"]) for row in nemenyi} == {
        ("A", "B"),
        ("A", "C"),
        ("B", "C"),
    }


def test_drop_incomplete(tmp_path):
    text = wide_text().replace("0.72", "")  # d4 lacks B
    path = write(tmp_path, text)
    assert_usage_error([path], "1 data set(s) lack a score: d4 lacks B")
    status, out, err = run_cli(path, "--drop-incomplete", "--format", "json")
    assert status == 0, err
    assert "left out 1 incomplete data set(s): d4" in err
    document = json.loads(out)
    assert document["datasets"] == ["d1", "d2", "d3", "d5"]
    assert document["dropped_datasets"] == ["d4"]
    kept = np.delete(SCORES, 3, axis=0)
    reference = stats.friedmanchisquare(*kept.T)
    assert document["tests"]["friedman"]["statistic"] == pytest.approx(
        reference.statistic
    )
    # A long table lacking a row.
    long = "\n".join(line for line in long_text().splitlines() if line != "C,d2,0.81")
    assert_usage_error([write(tmp_path, long + "\n", "long.csv")], "d2 lacks C")


@pytest.mark.parametrize(
    "text, match",
    [
        ("", "is empty"),
        ("\n \n", "is empty"),
        ("dataset,A,B\n", "header but no rows"),
        (
            "dataset,A,B\nd1,0.8,0.7\nd2,0.9,n/a\n",
            "row 3 of {path}, column 'B': 'n/a' is not a finite number",
        ),
        ("dataset,A,B\nd1,0.8,inf\nd2,0.9,0.8\n", "column 'B': 'inf'"),
        ("dataset,A,B\nd1,0.8,0.7\nd1,0.9,0.8\n", "'d1' appears twice"),
        ("dataset,A,A\nd1,0.8,0.7\nd2,0.9,0.8\n", "duplicate column names: A"),
        ("dataset,A,\nd1,0.8,0.7\nd2,0.9,0.8\n", "column 3 of {path} has no name"),
        ("dataset,A,B\nd1,0.8\n", "row 2 of {path} has 2 fields"),
        ("dataset,A\nd1,0.8\nd2,0.9\n", "1 estimator(s) (A)"),
        ("dataset,A,B\nd1,0.8,0.7\n", "1 complete data set(s)"),
        ("A,B,C\n0.8,0.7,0.6\n0.9,0.8,0.7\n", "holds scores ('0.8', ...)"),
        (
            "dataset,estimator,score\nd1,A,0.8\nd1,A,0.9\n",
            "('d1', 'A') appears twice in {path} (rows 2 and 3)",
        ),
        (
            "dataset,estimator,split,score\nd1,A,0,0.8\nd1,A,0,0.9\n",
            "('d1', 'A', split '0') appears twice",
        ),
        ("dataset,estimator,score\nd1,,0.8\n", "empty 'estimator' cell"),
        ("dataset,estimator\nd1,A\n", "has 0 (none)"),
        ('dataset,A,B\nd1,"0.8,0.7\n', "cannot read"),
        ("dataset,A,B\nd1,0.8,0.7\x00\n", "NUL byte"),
    ],
)
def test_bad_tables_are_one_line_usage_errors(tmp_path, text, match):
    path = write(tmp_path, text)
    assert_usage_error([path], match.format(path=path))


def test_bad_files(tmp_path, monkeypatch):
    assert_usage_error([tmp_path / "missing.csv"], "file not found")
    assert_usage_error([tmp_path], "is a directory, not a regular file")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("dataset,é,B\nd1,0.8,0.7\n".encode("latin-1"))
    assert_usage_error([latin], "is not UTF-8 text")
    path = write(tmp_path, wide_text())
    monkeypatch.setattr(cli_data, "MAX_FILE_BYTES", 64)
    assert_usage_error([path], "the limit is 64 bytes")


def test_too_many_estimators(tmp_path):
    names = [f"m{j}" for j in range(201)]
    scores = np.random.default_rng(0).random((3, 201))
    text = wide_text(scores, names, ["d1", "d2", "d3"])
    assert_usage_error([write(tmp_path, text)], "201 estimators; the command line")


def test_bad_options(tmp_path):
    path = write(tmp_path, wide_text())
    assert_usage_error([path, "--control", "D"], "--control: no estimator 'D'")
    assert_usage_error([path, "--n-train", "50"], "--n-train and --n-test")
    assert_usage_error([path, "--n-train", "-1", "--n-test", "5"], "--n-train")
    assert_usage_error([path, "--layout", "diagonal"], "--layout")
    assert_usage_error([path, "--delimiter", "ab"], "--delimiter")
    status, _, err = run_cli(path, "--tests", "no_such_test")
    assert status != 0 and "unknown test" in err
    status, _, err = run_cli(path, "--tests", "wilcoxon")
    assert status != 0 and "give it in --pairwise-tests" in err


def test_layout_forced(tmp_path):
    # A wide table whose estimators are called dataset and estimator is
    # read as long by auto; --layout wide reads it as it is.
    text = "name,dataset,estimator\nd1,0.8,0.7\nd2,0.9,0.95\nd3,0.7,0.6\n"
    path = write(tmp_path, text)
    assert_usage_error([path], "'d1'")  # read as long: d1 is no score...
    document = run_json(path, "--layout", "wide")
    assert document["names"] == ["dataset", "estimator"]
    assert_usage_error(
        [write(tmp_path, wide_text(), "w.csv"), "--layout", "long"],
        "no column 'estimator'",
    )


def test_tests_list(tmp_path):
    status, out, _ = run_cli("--tests", "list")
    assert status == 0 and "friedman" in out and "wilcoxon" not in out
    status, out, _ = run_cli("--pairwise-tests", "list")
    assert status == 0 and "wilcoxon" in out and "friedman " not in out
    assert_usage_error([], "give the results table")


def test_auto_is_passed_to_the_library(tmp_path):
    path = write(tmp_path, wide_text())
    result = compare_scores(SCORES, names=NAMES, datasets=DATASETS, tests="auto")
    document = run_json(path, "--tests", "auto")
    assert list(document["tests"]) == list(result.tests)
    assert document["auto"]["path"] == result.auto.path
    assert [n["estimator"] for n in document["auto"]["normality"]] == NAMES
    status, out, err = run_cli(path, "--tests", "auto")
    assert status == 0, err
    assert f"tests chosen automatically ({result.auto.path})" in out


def test_random_state_reproduces_bayesian_tests(tmp_path):
    path = write(tmp_path, wide_text())
    argv = [path, "--pairwise-tests", "bayesian_signed_rank", "--rope", "0.01"]
    first = run_json(*argv, "--random-state", "3")
    again = run_json(*argv, "--random-state", "3")
    assert first == again
    table = first["pairwise"]["bayesian_signed_rank"]
    result = compare_scores(
        SCORES,
        names=NAMES,
        datasets=DATASETS,
        pairwise_tests=["bayesian_signed_rank"],
        rope=0.01,
        random_state=3,
    )
    np.testing.assert_allclose(
        np.asarray(table["p_a_better"], float),
        result.pairwise.bayesian_signed_rank.p_a_better,
    )


# --------------------------------------------------------------------------
# The documented example runs and says what the docs say

ROOT = Path(__file__).resolve().parents[1]


def _section(path, title):
    text = path.read_text(encoding="utf-8")
    start = text.index(f"{title}\n{'-' * len(title)}\n")
    end = text.find("\n---", start + 2 * len(title) + 2)
    return text[start:end]


def _indented_block(text, after):
    """The indented literal block that follows the line ending with ``after``."""
    lines = text[text.index(after) + len(after) :].splitlines()[1:]
    block = []
    for line in lines:
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block).strip() + "\n"


def test_readme_example_runs(tmp_path, monkeypatch, capsys):
    section = _section(ROOT / "README.rst", "Scores you already have")
    table = _indented_block(section, "one column per estimator::")
    cli_section = _section(ROOT / "doc" / "cli.rst", "Scores you already have")
    assert _indented_block(cli_section, "``results.csv``::") == table
    (tmp_path / "results.csv").write_text(table, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = _indented_block(section, ".. code-block:: python")
    namespace = {}
    exec(compile(code, "README.rst", "exec"), namespace)  # noqa: S102
    result, errors = namespace["result"], namespace["errors"]
    # The exact permutation p-value (chi-squared: 0.0113, the supplementary
    # one beside it).
    assert "p = 0.0081 (exact)" in section
    assert round(result.tests.friedman.pvalue, 4) == 0.0081
    assert round(result.tests.friedman.pvalue_chi2, 4) == 0.0113
    assert result.verdict.differ == [("forest", "bayes")]
    np.testing.assert_allclose(errors.mean_ranks, result.mean_ranks)
    capsys.readouterr()
    # The command line on the same file prints the numbers doc/cli.rst shows.
    status, out, err = run_cli("results.csv", "--plot", "cd.png")
    assert status == 0, err
    for line in out.splitlines():
        if line.startswith(("friedman:", "  forest   > bayes", "     1  forest")):
            assert line in cli_section, line
    assert "statistic 8.974 (df 2), p = 0.00815 by the exact permutation" in out
    assert "supplementary: chi-squared p = 0.0113" in out
    assert (tmp_path / "cd.png").is_file()


def test_no_effect_sizes_skips_them(tmp_path):
    path = write(tmp_path, wide_text())
    document = run_json(path, "--no-effect-sizes")
    assert document["effect_sizes"] is None
    assert len(run_json(path)["effect_sizes"]) == 3
    status, out, err = run_cli(path, "--no-effect-sizes")
    assert status == 0, err
    assert "friedman" in out and "Effect size" not in out
    status, out, _ = run_cli(path, "--no-effect-sizes", "--format", "csv")
    assert status == 0 and "effect" not in out.lower()


def test_simultaneous_intervals_from_the_command_line(tmp_path):
    path = write(tmp_path, wide_text())
    each = run_json(path)["effect_sizes"]
    together = run_json(path, "--simultaneous-intervals")["effect_sizes"]
    assert [e["simultaneous_level"] for e in each] == [None] * 3
    assert [e["simultaneous_level"] for e in together] == [0.95] * 3
    # Three pairs: each interval at 1 - 0.05 / 3.
    assert together[0]["confidence_level"] == pytest.approx(1 - 0.05 / 3)
    assert run_json(path)["mean_differences"][0]["kind"] == "mean_difference"
