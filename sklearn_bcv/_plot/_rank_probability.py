"""The Bayesian ranking of k estimators across data sets: P(best) and the
Plackett–Luce weights."""

from collections.abc import Mapping

import numpy as np

from .._compat import check_matplotlib_support
from ..stats._registry import declared_tests
from ._common import SOURCES, legend_below, single_axes
from ._labels import display_names
from ._validate import check_intervals, check_names, check_probabilities

__all__ = ["RankProbabilityDisplay"]

_BAR = "tab:blue"
_WEIGHT = "black"


class RankProbabilityDisplay:
    """P(best) of each estimator, with its Plackett–Luce weight beside.

    One row per estimator, the most probably best at the top: a bar of
    ``P(best)``, the posterior probability that it has the largest weight
    (written at the bar's end), and beside it its weight (the posterior
    mean, the probability that it ranks first on a new data set) as a dot
    with its credible interval. Both are probabilities, on one axis from 0
    to 1.

    It is recommended to build the display with :meth:`from_result`.

    Parameters
    ----------
    prob_best : array-like of shape (k,)
        The posterior probability that each estimator is the best; in
        [0, 1], summing to 1.
    weights : array-like of shape (k,)
        The posterior means of the weights; in [0, 1], summing to 1.
    weights_interval : array-like of shape (k, 2)
        Their credible intervals, ``[lower, upper]`` in [0, 1].
    names : sequence of str, default=None
        The estimators (default ``estimator_0``, ...).
    expected_rank : array-like of shape (k,), default=None
        Orders the rows (lowest first); None orders them by ``prob_best``,
        then ``weights``.
    level : float, default=0.95
        The level of the intervals, in the legend.

    Attributes
    ----------
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure holding the axes.
    bars_ : matplotlib BarContainer
        The bars of P(best), top row first.
    weight_points_ : matplotlib Line2D
        The weights' posterior means.
    intervals_ : matplotlib LineCollection
        Their credible intervals.
    texts_ : list of matplotlib Text
        The values of P(best) written at the bars' ends.
    order_ : ndarray of int
        The estimators from the top row down.

    See Also
    --------
    sklearn_bcv.stats.plackett_luce : The ranking drawn.
    CriticalDifferenceDisplay : The mean ranks and the frequentist post hoc
        groups.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_bcv import RankProbabilityDisplay
    >>> display = RankProbabilityDisplay(
    ...     prob_best=[0.81, 0.17, 0.02], weights=[0.5, 0.32, 0.18],
    ...     weights_interval=[[0.35, 0.65], [0.2, 0.46], [0.08, 0.3]],
    ...     names=["forest", "svm", "knn"]).plot()
    >>> [label.get_text() for label in display.ax_.get_yticklabels()]
    ['forest', 'svm', 'knn']
    >>> [text.get_text() for text in display.texts_]
    ['0.81', '0.17', '0.02']
    """

    def __init__(
        self,
        prob_best,
        weights,
        weights_interval,
        *,
        names=None,
        expected_rank=None,
        level=0.95,
    ):
        self.prob_best = prob_best
        self.weights = weights
        self.weights_interval = weights_interval
        self.names = names
        self.expected_rank = expected_rank
        self.level = level

    def _check(self):
        """``(prob_best, weights, intervals, names, order)``, validated."""
        try:
            k = len(self.prob_best)
        except TypeError:
            k = None
        if k is None or k < 2:
            raise ValueError(
                "prob_best must hold the probabilities of at least 2 estimators; "
                f"got {self.prob_best!r}."
            )
        prob_best = check_probabilities(
            self.prob_best, name="prob_best", n=k, atol=1e-3
        )
        weights = check_probabilities(self.weights, name="weights", n=k, atol=1e-3)
        intervals = check_intervals(self.weights_interval, name="weights_interval", n=k)
        if self.names is None:
            names = [f"estimator_{j}" for j in range(k)]
        else:  # k distinct names, as every display takes them
            names = check_names(self.names, k)
        if self.expected_rank is None:
            order = np.lexsort((-weights, -prob_best))
        else:
            ranks = np.asarray(self.expected_rank, dtype=float)
            if ranks.shape != (k,) or not np.all((ranks >= 1) & (ranks <= k)):
                raise ValueError(
                    f"expected_rank must be {k} ranks between 1 and {k}; got "
                    f"{self.expected_rank!r}."
                )
            order = np.lexsort((-prob_best, ranks))
        if not (isinstance(self.level, float | int) and 0 < self.level < 1):
            raise ValueError(f"level must be a number in (0, 1); got {self.level!r}.")
        return prob_best, weights, intervals, names, order

    def plot(self, ax=None, *, annotate=True):
        """Draw the bars of P(best) and the weights.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure (its height grows with
            the number of estimators).
        annotate : bool, default=True
            Write each P(best) at the end of its bar.

        Returns
        -------
        display : RankProbabilityDisplay
            The object itself, with ``figure_``, ``ax_``, ``bars_``,
            ``weight_points_``, ``intervals_``, ``texts_`` and ``order_``
            set.
        """
        check_matplotlib_support("RankProbabilityDisplay.plot")
        from matplotlib.collections import LineCollection

        prob_best, weights, intervals, names, order = self._check()
        k = len(order)
        ax, own = single_axes(ax, figsize=(6, 1.6 + 0.45 * k))
        rows = np.arange(k)[::-1].astype(float)  # the first at the top
        self.bars_ = ax.barh(
            rows + 0.17,
            prob_best[order],
            height=0.34,
            color=_BAR,
            label="P(best): posterior probability of the largest weight",
        )
        (self.weight_points_,) = ax.plot(
            weights[order],
            rows - 0.2,
            "o",
            color=_WEIGHT,
            markersize=4,
            label=(
                f"weight: P(first on a new data set), {100 * self.level:g}% interval"
            ),
        )
        segments = [
            [(low, y), (high, y)]
            for (low, high), y in zip(intervals[order], rows - 0.2)
        ]
        self.intervals_ = ax.add_collection(
            LineCollection(segments, colors=_WEIGHT, linewidths=1.2)
        )
        self.texts_ = []
        if annotate:
            for p, y in zip(prob_best[order], rows + 0.17):
                self.texts_.append(
                    ax.annotate(
                        f"{p:.2f}",
                        xy=(p, y),
                        xytext=(3, 0),
                        textcoords="offset points",
                        va="center",
                        fontsize="small",
                    )
                )
        labels = display_names(names)  # drawable text of the names
        ax.set_yticks(rows, [labels[j] for j in order])
        ax.set_xlim(0, 1.08)
        ax.set_ylim(-0.7, k - 0.3)
        ax.set_xlabel("probability")
        legend_below(ax, ncol=1, own_figure=own)
        ax.set_title("Bayesian Plackett-Luce ranking", fontsize="medium")
        self.order_ = order
        self.figure_, self.ax_ = ax.figure, ax
        return self

    @classmethod
    def from_result(cls, result, *, test="plackett_luce", ax=None, **plot_kwargs):
        """Plot the ranking of a comparison across data sets.

        Parameters
        ----------
        result : Bunch
            Returned by :func:`~sklearn_bcv.compare_scores` or
            :func:`~sklearn_bcv.benchmark` run with ``tests=[...,
            "plackett_luce"]`` (``result.tests[test]`` is read), or by
            :func:`~sklearn_bcv.stats.plackett_luce` itself.
        test : str, default="plackett_luce"
            The ranking of ``result.tests`` to draw.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        **plot_kwargs : dict
            Passed to :meth:`plot` (``annotate``).

        Returns
        -------
        display : RankProbabilityDisplay
            The drawn display.
        """
        owner = "RankProbabilityDisplay"
        if not isinstance(result, Mapping):
            raise TypeError(
                f"{owner} needs the result of {SOURCES['datasets']} or of "
                f"plackett_luce; got {type(result).__name__}."
            )
        rankings = declared_tests(role="ranking")
        if result.get("test", None) in rankings:  # the ranking's own Bunch
            ranking = result
        else:
            tests = result.get("tests", None) or {}
            ran = [name for name in tests if name in rankings]
            if test not in ran:
                ran = f"it ran {ran}" if ran else "it ran none"
                raise ValueError(
                    f"{owner} draws a ranking of result.tests; got test={test!r}, "
                    f"{ran}. Run compare_scores(..., tests=[..., 'plackett_luce'])."
                )
            ranking = tests[test]
        names = ranking.get("names", None) or result.get("names", None)
        display = cls(
            ranking["prob_best"],
            ranking["weights"],
            ranking["weights_interval"],
            names=names,
            expected_rank=ranking.get("expected_rank", None),
            level=1.0 - ranking.get("alpha", 0.05),
        )
        return display.plot(ax=ax, **plot_kwargs)
