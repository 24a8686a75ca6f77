"""Hostile input, round 4: the small ones (class 5).

* ``--no-effect-sizes --simultaneous-intervals``: contradictory options, a
  usage error (status 2; one mutually exclusive group), on every
  subcommand that has them;
* ``RankProbabilityDisplay`` refuses names given twice, through the check
  every display uses (``_plot/_validate.py``'s ``check_names``);
* a mean difference beyond float64 (scores near ±1.5e308) is refused with
  a message naming it, never reported as ``inf (inf, inf)``.
"""

import io
import warnings

import numpy as np
import pytest

from sklearn_bcv import compare_scores
from sklearn_bcv._cli import main
from sklearn_bcv.stats import effect_size


def _scores_csv(path):
    path.write_text("dataset,a,b\nd1,0.8,0.7\nd2,0.9,0.85\nd3,0.7,0.71\nd4,0.6,0.5\n")
    return str(path)


@pytest.mark.parametrize(
    "argv",
    [
        ["scores", "{csv}", "--no-effect-sizes", "--simultaneous-intervals"],
        ["scores", "{csv}", "--simultaneous-intervals", "--no-effect-sizes"],
        ["scores", "{csv}", "--no-effect-sizes", "--simultaneous-intervals",
         "--format", "json"],
        ["benchmark", "--datasets", "iris", "wine", "--estimator",
         "sklearn.dummy.DummyClassifier", "--estimator",
         "sklearn.naive_bayes.GaussianNB", "--no-effect-sizes",
         "--simultaneous-intervals"],
    ],
)  # fmt: skip
def test_contradictory_effect_size_options_are_a_usage_error(argv, tmp_path):
    csv = _scores_csv(tmp_path / "scores.csv")
    out, err = io.StringIO(), io.StringIO()
    status = main([a.format(csv=csv) for a in argv], stdout=out, stderr=err)
    assert status == 2, err.getvalue()
    lines = err.getvalue().strip().splitlines()
    assert lines == [lines[-1]] and lines[-1].startswith("error: argument")
    assert "not allowed with argument" in lines[-1]
    assert out.getvalue() == ""


@pytest.mark.parametrize("flag", ["--no-effect-sizes", "--simultaneous-intervals"])
def test_either_option_alone_is_accepted(flag, tmp_path):
    csv = _scores_csv(tmp_path / "scores.csv")
    out, err = io.StringIO(), io.StringIO()
    assert main(["scores", csv, flag], stdout=out, stderr=err) == 0, err.getvalue()


# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "names, repeated",
    [
        (["a", "a"], "['a']"),
        ([1, "1"], "['1']"),  # print alike
        (["x", "y", "x"], "['x']"),
        (["z", "z", "z"], "['z']"),
    ],
)
def test_rank_probability_display_refuses_names_given_twice(names, repeated):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from sklearn_bcv import RankProbabilityDisplay

    k = len(names)
    display = RankProbabilityDisplay(
        np.full(k, 1 / k), np.full(k, 1 / k), np.tile([0.0, 1.0], (k, 1)), names=names
    )
    with pytest.raises(ValueError, match="names must be unique") as info:
        display.plot()
    assert repeated in str(info.value)


# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b",
    [
        (np.array([1.5e308, 1.4e308, 1.3e308, 1.45e308]), None),  # b = -a
        (np.array([1.7e308, 1.0e308, 1.2e308]), None),
        (np.full(5, 1.0e308), np.full(5, -1.0e308)),
        (np.array([1e308, 9e307, 1.1e308]), np.array([-9e307, -1e308, -8e307])),
    ],
)
def test_a_mean_difference_beyond_float64_is_refused(a, b):
    b = -a if b is None else b
    with pytest.raises(ValueError, match="exceeds the range of float64"):
        effect_size(a, b, kind="mean_difference", random_state=0)
    # The scale-free kinds are defined and finite.
    for kind in ("cohen_dz", "cohen_d", "cliff_delta", "akinshin_gamma"):
        result = effect_size(a, b, kind=kind, random_state=0)
        assert not np.isnan(result.estimate)


def test_a_mean_difference_just_inside_float64_is_reported():
    a = np.array([8e307, 7e307, 8.5e307])
    result = effect_size(a, -a, kind="mean_difference", random_state=0)
    assert result.estimate == pytest.approx(8 * np.mean(a / 4))  # no overflow
    assert np.all(np.isfinite(result.confidence_interval))


def test_compare_scores_refuses_such_a_table_by_name():
    table = np.array([[1.5e308, -1.5e308], [1.4e308, -1.4e308], [1.2e308, -1e308]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="float64"):
            compare_scores(table, tests=["friedman"], pairwise_tests=[])
        ranks = compare_scores(
            table, tests=["friedman"], pairwise_tests=[], effect_size=False
        )
    assert ranks.mean_ranks.tolist() == [1.0, 2.0]
