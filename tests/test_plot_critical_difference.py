"""Tests of CriticalDifferenceDisplay, rendered with the Agg backend."""

import io
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.utils import Bunch

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bcv._plot import CriticalDifferenceDisplay  # noqa: E402
from sklearn_bcv._plot._critical_difference import (  # noqa: E402
    nonsignificant_groups,
)

# Demšar (2006), §3.2.2 and Table 6: C4.5 and three variants on 14 data
# sets. With k = 4, q_0.05 = 2.569 (Nemenyi) and 2.394 (Bonferroni–Dunn),
# q_0.10 = 2.291 (Nemenyi), Demšar's Table 5; the standard error is
# sqrt(4 * 5 / (6 * 14)) = 0.488, so CD = 1.254, 1.168 and 1.118.
DEMSAR_NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_RANKS = [3.143, 2.000, 2.893, 1.964]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _demsar(**kwargs):
    """Demšar's diagram: his CD, without the continuity correction."""
    kwargs.setdefault("continuity", False)
    return CriticalDifferenceDisplay.from_ranks(
        DEMSAR_RANKS, 14, DEMSAR_NAMES, **kwargs
    )


def _result(tests=None, control=None):
    """A hand-built result of compare_scores with Demšar's ranks."""
    return Bunch(
        names=list(DEMSAR_NAMES),
        datasets=[f"data{i}" for i in range(14)],
        mean_ranks=np.array(DEMSAR_RANKS),
        alpha=0.05,
        control=control,
        tests=Bunch(**(tests or {})),
    )


def test_cd_display_demsar_nemenyi_joins_all_four_at_alpha_005():
    # "even the difference between the best and the worst performing
    # algorithm is already smaller than that" (Demšar, §3.2.2).
    display = _demsar()
    assert display.cd_text_.get_text() == "CD = 1.254"
    np.testing.assert_allclose(np.ptp(display.cd_line_.get_xdata()), 1.2536, atol=1e-4)
    assert display.groups_ == [("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]
    assert len(display.group_lines_) == 1
    assert display.interval_line_ is None
    np.testing.assert_array_equal(display.order_, [3, 1, 2, 0])
    # The group line spans the ranks it joins, a little past them.
    low, high = sorted(display.group_lines_[0].get_xdata())
    assert low < 1.964 and 3.143 < high
    assert high - low < 3.143 - 1.964 + 0.2


def test_cd_display_demsar_nemenyi_at_alpha_010():
    # CD = 1.118: C4.5 (3.143) differs from C4.5+m+cf (1.964) and C4.5+m
    # (2.000), and from nothing else.
    display = _demsar(alpha=0.10)
    assert display.cd_text_.get_text() == "CD = 1.118"
    assert display.groups_ == [
        ("C4.5+m+cf", "C4.5+m", "C4.5+cf"),
        ("C4.5+cf", "C4.5"),
    ]
    first, second = (sorted(line.get_xdata()) for line in display.group_lines_)
    assert first[0] < 1.964 < 2.893 < first[1] < 3.143
    assert 2.0 < second[0] < 2.893 and second[1] > 3.143
    # Overlapping groups are drawn on two levels.
    levels = {line.get_ydata()[0] for line in display.group_lines_}
    assert len(levels) == 2


def test_cd_display_bonferroni_dunn_draws_interval_around_control():
    # CD = 1.168 around C4.5 (3.143): C4.5+m+cf (1.179 away) differs, C4.5+m
    # (1.143 away) does not.
    display = _demsar(test="bonferroni_dunn", control="C4.5")
    assert display.cd_text_.get_text() == "CD = 1.168"
    assert display.groups_ == [("C4.5+m", "C4.5+cf", "C4.5")]
    assert display.group_lines_ == []
    low, high = display.interval_line_.get_xdata()
    np.testing.assert_allclose(display.critical_difference, 1.168, atol=5e-4)
    np.testing.assert_allclose(low, 3.143 - display.critical_difference)
    assert high == 4  # clipped to the rank axis
    assert display.name_texts_["C4.5"].get_fontweight() == "bold"
    assert display.name_texts_["C4.5+m"].get_fontweight() == "normal"


def test_cd_display_better_half_on_the_side_of_rank_one():
    display = _demsar()
    texts, elbows = display.name_texts_, display.elbow_lines_
    for name in ("C4.5+m+cf", "C4.5+m"):
        assert texts[name].get_position()[0] < 1
        assert texts[name].get_horizontalalignment() == "right"
    for name in ("C4.5+cf", "C4.5"):
        assert texts[name].get_position()[0] > 4
        assert texts[name].get_horizontalalignment() == "left"
    # Each elbow starts on the axis at the mean rank, ends by its name.
    for name, rank in zip(DEMSAR_NAMES, DEMSAR_RANKS):
        xs, ys = elbows[name].get_data()
        assert (xs[0], ys[0]) == (rank, 0)
        assert ys[2] == texts[name].get_position()[1]
    # The extremes on the top row, so the elbows never cross.
    y = {name: texts[name].get_position()[1] for name in DEMSAR_NAMES}
    assert y["C4.5+m+cf"] > y["C4.5+m"]
    assert y["C4.5"] > y["C4.5+cf"]
    assert [t.get_text() for t in display.ax_.texts if t.get_text().isdigit()] == [
        "1",
        "2",
        "3",
        "4",
    ]
    assert not display.ax_.axison


def test_cd_display_reverse_puts_rank_one_on_the_right():
    display = _demsar(reverse=True)
    texts, elbows = display.name_texts_, display.elbow_lines_
    assert texts["C4.5+m+cf"].get_position()[0] > 4
    assert texts["C4.5"].get_position()[0] < 1
    # Rank r is drawn at x = k + 1 - r, the tick labels follow.
    np.testing.assert_allclose(elbows["C4.5+m+cf"].get_xdata()[0], 5 - 1.964)
    ticks = {
        t.get_position()[0]: t.get_text()
        for t in display.ax_.texts
        if t.get_text().isdigit()
    }
    assert ticks == {1: "4", 2: "3", 3: "2", 4: "1"}
    assert display.groups_ == _demsar().groups_


def test_cd_display_show_ranks_and_no_overlap_for_twenty_estimators():
    rng = np.random.default_rng(0)
    k = 20
    names = [f"estimator_{i}" if i % 3 else f"e{i}" for i in range(k)]
    ranks = rng.permutation(np.linspace(1.5, k - 0.5, k))
    display = CriticalDifferenceDisplay.from_ranks(ranks, 30, names, show_ranks=True)
    assert display.name_texts_["e0"].get_text() == f"e0 ({ranks[0]:.2f})"
    fig = display.figure_
    width, height = fig.get_size_inches()
    assert height < 5 and width < 12
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in display.name_texts_.values()]
    figure_box = fig.bbox
    for box in boxes:
        assert figure_box.x0 <= box.x0 and box.x1 <= figure_box.x1
        assert figure_box.y0 <= box.y0 and box.y1 <= figure_box.y1
    for a, b in combinations(boxes, 2):
        assert not a.overlaps(b)
    # The tick labels and the CD do not run into each other either.
    tick_boxes = [
        t.get_window_extent(renderer)
        for t in display.ax_.texts
        if t.get_text().isdigit()
    ]
    for a, b in combinations(tick_boxes, 2):
        assert not a.overlaps(b)
    cd = display.critical_difference
    assert display.groups_ == [
        tuple(names[j] for j in group) for group in nonsignificant_groups(ranks, cd)
    ]
    fig.savefig(io.BytesIO(), format="png")


def test_cd_display_on_given_axes():
    fig, ax = plt.subplots(figsize=(6, 2.5))
    display = _demsar(ax=ax)
    assert display.ax_ is ax and display.figure_ is fig
    np.testing.assert_allclose(fig.get_size_inches(), (6, 2.5))
    left, right = ax.get_xlim()
    assert left < 1 and right > 4


def test_cd_display_from_result_reads_or_computes_the_cd():
    # The CD of the test the comparison ran is used as it is...
    tests = {"nemenyi": Bunch(critical_difference=1.0, pvalue=np.ones((4, 4)))}
    display = CriticalDifferenceDisplay.from_result(_result(tests))
    assert display.critical_difference == 1.0
    assert display.n_datasets == 14
    assert display.cd_text_.get_text() == "CD = 1.000"
    assert display.groups_ == [
        ("C4.5+m+cf", "C4.5+m", "C4.5+cf"),
        ("C4.5+cf", "C4.5"),
    ]
    # ... and computed from the ranks when it did not run, with the
    # continuity correction nemenyi applies by default (1.254 + 1/28).
    display = CriticalDifferenceDisplay.from_result(_result())
    assert display.cd_text_.get_text() == "CD = 1.289"
    display = CriticalDifferenceDisplay.from_result(
        _result(control="C4.5"), test="bonferroni_dunn", reverse=True
    )
    assert display.control == "C4.5"
    assert display.groups_ == [("C4.5+m", "C4.5+cf", "C4.5")]
    # Nemenyi with a control: all pairs, the control in bold.
    display = CriticalDifferenceDisplay.from_result(_result(control="C4.5+m"))
    assert display.interval_line_ is None
    assert display.name_texts_["C4.5+m"].get_fontweight() == "bold"


def test_cd_display_from_result_errors():
    # Any post hoc family the registry declares is drawable; a pairwise
    # test is not.
    with pytest.raises(ValueError, match=r"test must be one of \[.*'nemenyi'"):
        CriticalDifferenceDisplay.from_result(_result(), test="wilcoxon")
    with pytest.raises(ValueError, match="but result.control is None"):
        CriticalDifferenceDisplay.from_result(_result(), test="bonferroni_dunn")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"test": "wilcoxon"}, r"test must be one of \[.*'nemenyi'"),
        ({"test": "holm"}, "is drawn from its groups: pass groups"),
        ({"alpha": 1.5}, r"alpha must be a number in \(0, 1\); got 1.5"),
        ({"n_datasets": 1}, "n_datasets must be an integer >= 2; got 1"),
        ({"mean_ranks": [1.0]}, "mean_ranks must be a 1-D array of at least 2"),
        ({"mean_ranks": [[1.0, 2.0]]}, "mean_ranks must be a 1-D array"),
        ({"mean_ranks": [1.0, 2.0, 5.0]}, "finite ranks between 1 and k = 3"),
        ({"names": ["a", "b"]}, "names must hold k = 3 names, one per mean rank"),
        ({"names": ["a", "b", "a"]}, "names must be unique"),
        ({"critical_difference": 0.0}, "critical_difference must be a finite"),
        ({"control": "z"}, r"control must be None or one of the names \['a'"),
        ({"test": "bonferroni_dunn"}, "give control, one of the names"),
    ],
)
def test_cd_display_errors(kwargs, match):
    params = {
        "mean_ranks": [1.5, 1.5, 3.0],
        "names": ["a", "b", "c"],
        "critical_difference": 1.0,
        "n_datasets": 10,
    }
    params.update(kwargs)
    display = CriticalDifferenceDisplay(
        params.pop("mean_ranks"),
        params.pop("names"),
        params.pop("critical_difference"),
        **params,
    )
    with pytest.raises(ValueError, match=match):
        display.plot()


def test_cd_display_from_ranks_checks_through_critical_difference():
    with pytest.raises(ValueError, match="n_datasets must be an integer >= 2"):
        CriticalDifferenceDisplay.from_ranks([1.0, 2.0], 1, ["a", "b"])


@st.composite
def ranks_and_cd(draw):
    k = draw(st.integers(2, 12))
    # Three decimals, as mean ranks are reported, with ties.
    ranks = draw(
        st.lists(
            st.integers(1000, 1000 * k).map(lambda r: r / 1000), min_size=k, max_size=k
        )
    )
    cd = draw(st.floats(0.01, float(k)))
    return np.array(ranks), cd


@given(ranks_and_cd())
def test_nonsignificant_groups_are_the_maximal_cliques(data):
    ranks, cd = data
    k = len(ranks)
    groups = nonsignificant_groups(ranks, cd)
    members = [set(group) for group in groups]
    for group in groups:
        assert len(group) >= 2
        # Ordered best first; every pair inside closer than the CD.
        assert list(ranks[list(group)]) == sorted(ranks[list(group)])
        for i, j in combinations(group, 2):
            assert abs(ranks[i] - ranks[j]) < cd
        # Maximal: any estimator outside is at least the CD from a member.
        for j in set(range(k)) - set(group):
            assert any(abs(ranks[i] - ranks[j]) >= cd for i in group)
    # No group inside another (nor twice).
    for a, b in combinations(members, 2):
        assert not (a <= b or b <= a)
    # Every pair closer than the CD shares a group.
    for i, j in combinations(range(k), 2):
        if abs(ranks[i] - ranks[j]) < cd:
            assert any({i, j} <= group for group in members)


@pytest.mark.parametrize("seed", range(3))
def test_cd_display_groups_are_the_maximal_cliques(seed):
    rng = np.random.default_rng(seed)
    k = 8
    # Mean ranks that can occur: the average of 20 random rankings.
    ranks = np.round(np.mean([rng.permutation(k) + 1 for _ in range(20)], axis=0), 3)
    names = [f"m{j}" for j in range(k)]
    display = CriticalDifferenceDisplay(ranks, names, 1.7, n_datasets=20).plot()
    expected = [tuple(names[j] for j in g) for g in nonsignificant_groups(ranks, 1.7)]
    assert display.groups_ == expected
    assert len(display.group_lines_) == len(expected)


def test_cd_display_continuity_correction_at_alpha_010():
    # CD = 1.118 + 1/28 = 1.154: C4.5+m (1.143 from C4.5) rejoins C4.5.
    display = _demsar(alpha=0.10, continuity=True)
    assert display.cd_text_.get_text() == "CD = 1.154"
    assert display.groups_ == [
        ("C4.5+m+cf", "C4.5+m", "C4.5+cf"),
        ("C4.5+m", "C4.5+cf", "C4.5"),
    ]


# --------------------------------------------------------------------------
# Any post hoc family, drawn from its groups (API.md Part 3)
# --------------------------------------------------------------------------


def _demsar_scores_result(**kwargs):
    from _demsar import DEMSAR_AUC

    from sklearn_bcv import compare_scores

    return compare_scores(
        DEMSAR_AUC, names=list(DEMSAR_NAMES), pairwise_tests=[], **kwargs
    )


def test_cd_display_any_family_draws_its_groups():
    from _demsar import DEMSAR_AUC

    from sklearn_bcv.stats import friedman_posthoc

    result = _demsar_scores_result(
        alpha=0.10, tests={"friedman_posthoc": {"correction": "shaffer"}}
    )
    display = CriticalDifferenceDisplay.from_result(result, test="friedman_posthoc")
    direct = friedman_posthoc(DEMSAR_AUC, alpha=0.10, correction="shaffer")
    # Every drawn group is a set no two of which are rejected, and every
    # pair not rejected shares a group.
    index = {name: i for i, name in enumerate(DEMSAR_NAMES)}
    for group in display.groups_:
        for a, b in combinations(group, 2):
            assert not direct.reject[index[a], index[b]]
    for a, b in combinations(range(4), 2):
        if not direct.reject[a, b]:
            assert any(
                DEMSAR_NAMES[a] in g and DEMSAR_NAMES[b] in g for g in display.groups_
            )
    assert display.cd_line_ is None
    # The family by its display name (not its registry name).
    assert display.cd_text_.get_text() == (
        "post hoc z test on Friedman mean ranks, α = 0.1"
    )
    assert len(display.group_lines_) == len(display.groups_)
    plt.close("all")


def test_cd_display_alpha_is_a_display_parameter():
    from _demsar import DEMSAR_AUC

    from sklearn_bcv.stats import aligned_posthoc

    result = _demsar_scores_result(tests=["aligned_posthoc"])
    for alpha in (0.01, 0.05, 0.2):
        display = CriticalDifferenceDisplay.from_result(
            result, test="aligned_posthoc", alpha=alpha
        )
        reject = aligned_posthoc(DEMSAR_AUC, alpha=alpha).reject
        n_pairs_joined = {
            frozenset(p) for g in display.groups_ for p in combinations(g, 2)
        }
        expected = {
            frozenset((DEMSAR_NAMES[a], DEMSAR_NAMES[b]))
            for a, b in combinations(range(4), 2)
            if not reject[a, b]
        }
        assert n_pairs_joined == expected
        assert display.alpha == alpha
    # Nemenyi's bar follows alpha too.
    wide = CriticalDifferenceDisplay.from_result(result, test="nemenyi", alpha=0.2)
    narrow = CriticalDifferenceDisplay.from_result(result, test="nemenyi")
    assert wide.critical_difference < narrow.critical_difference
    plt.close("all")


def test_cd_display_family_against_a_control():
    result = _demsar_scores_result(control="C4.5", tests=["friedman", "holm"])
    display = CriticalDifferenceDisplay.from_result(result, test="holm")
    # Holm against C4.5 rejects C4.5+m and C4.5+m+cf (Demšar's example).
    assert display.groups_ == [("C4.5+cf", "C4.5")]
    assert display.control == "C4.5"
    plt.close("all")


def test_cd_display_runs_a_family_that_did_not_run():
    result = _demsar_scores_result(tests=["friedman"])
    display = CriticalDifferenceDisplay.from_result(result, test="quade_posthoc")
    assert display.test == "quade_posthoc"
    assert all(len(g) >= 2 for g in display.groups_)
    plt.close("all")


def test_cd_display_from_result_bad_alpha():
    result = _demsar_scores_result(tests=["friedman"])
    with pytest.raises(ValueError, match="alpha must be None or a number"):
        CriticalDifferenceDisplay.from_result(result, test="holm", alpha=1.5)
