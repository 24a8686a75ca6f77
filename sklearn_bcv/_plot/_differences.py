"""Per-split score differences of a comparison, grouped by repetition."""

import numpy as np

from .._compat import check_matplotlib_support
from ._common import (
    check_result,
    legend_below,
    n_repeats_of,
    pair_labels,
    result_pair_names,
    score_name_of,
    single_axes,
)

__all__ = ["ScoreDifferencesDisplay"]


class ScoreDifferencesDisplay:
    """Per-split score differences (A − B), grouped by repetition.

    In an m×2 design the two folds of a repetition are drawn above the same
    x position, so the spread within and between repetitions — what the
    5×2cv t and F tests are built from — is visible at a glance.

    Parameters
    ----------
    differences : array-like of shape (n_splits,)
        ``score_a - score_b`` per split, in split order.
    n_repeats : int, default=None
        The number of repetitions of an m×2 design (split ``2r + k`` is fold
        ``k`` of repetition ``r``); None draws the splits one by one.
    estimator_names : tuple of str, default=None
        Names of the two estimators; None means ``("A", "B")``.

    Attributes
    ----------
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure holding the axes.
    lines_ : list of matplotlib Line2D
        The markers of the differences: one line per fold in an m×2 design,
        one line otherwise.
    mean_line_ : matplotlib Line2D
        Horizontal line at the mean difference.
    legend_ : matplotlib Legend
        The legend, below the axes (a figure legend when the display made
        the figure).
    zero_line_ : matplotlib Line2D
        Horizontal line at zero (no difference).
    spread_ : matplotlib LineCollection or None
        In an m×2 design, one vertical segment per repetition joining its
        two folds' differences; None otherwise.

    See Also
    --------
    ContingencyTableDisplay : Contingency tables of a classifier comparison.
    PosteriorDisplay : Posterior of the Bayesian correlated t test.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_bcv import ScoreDifferencesDisplay
    >>> display = ScoreDifferencesDisplay([0.02, 0.01, 0.03, -0.01],
    ...                                   n_repeats=2).plot()
    >>> [line.get_label() for line in display.lines_]
    ['fold 0', 'fold 1']
    >>> round(float(display.mean_line_.get_ydata()[0]), 4)
    0.0125
    """

    def __init__(self, differences, *, n_repeats=None, estimator_names=None):
        self.differences = differences
        self.n_repeats = n_repeats
        self.estimator_names = estimator_names

    def _checked_differences(self):
        differences = np.asarray(self.differences, dtype=float)
        if differences.ndim != 1 or not len(differences):
            raise ValueError(
                "differences must be a non-empty 1-D array; got shape "
                f"{differences.shape}."
            )
        if not np.all(np.isfinite(differences)):
            i = int(np.flatnonzero(~np.isfinite(differences))[0])
            raise ValueError(
                f"differences must be finite (NaN would be drawn as nothing); got "
                f"{differences[i]!r} at position {i}."
            )
        if self.n_repeats is not None and len(differences) != 2 * self.n_repeats:
            raise ValueError(
                f"differences must hold 2 * n_repeats = {2 * self.n_repeats} "
                f"values; got {len(differences)}."
            )
        return differences

    def plot(self, ax=None, *, score_name="score"):
        """Draw the differences.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        score_name : str, default="score"
            Name of the score, used in the axis label.

        Returns
        -------
        display : ScoreDifferencesDisplay
            The object itself, with ``figure_``, ``ax_``, ``lines_``,
            ``mean_line_``, ``zero_line_``, ``spread_`` and ``legend_`` set.
        """
        check_matplotlib_support("ScoreDifferencesDisplay.plot")
        differences = self._checked_differences()
        ax, own_figure = single_axes(ax)
        name_a, name_b = pair_labels(self.estimator_names)
        self.zero_line_ = ax.axhline(
            0.0, color="black", linewidth=1, label="no difference"
        )
        self.mean_line_ = ax.axhline(
            differences.mean(), color="tab:red", linestyle="--", label="mean"
        )
        if self.n_repeats is None:
            positions = np.arange(len(differences))
            self.lines_ = ax.plot(positions, differences, "o", label="split")
            ax.set_xlabel("split")
            self.spread_ = None
        else:
            per_fold = differences.reshape(self.n_repeats, 2)
            repetitions = np.arange(self.n_repeats)
            # The gap between the two folds of a repetition is what the
            # 5×2cv t and F tests use as their variance (s2_r); draw it.
            self.spread_ = ax.vlines(
                repetitions,
                per_fold.min(axis=1),
                per_fold.max(axis=1),
                color="0.6",
                linewidth=1.5,
                zorder=1,
                label="spread within repetition",
            )
            self.lines_ = [
                ax.plot(
                    repetitions + offset,
                    per_fold[:, fold],
                    marker,
                    label=f"fold {fold}",
                    zorder=2,
                )[0]
                for fold, offset, marker in ((0, 0.0, "o"), (1, 0.0, "s"))
            ]
            ax.set_xticks(repetitions)
            ax.set_xlim(-0.5, self.n_repeats - 0.5)
            ax.set_xlabel("repetition")
        ax.set_ylabel(f"difference in {score_name}")
        ax.set_title(f"{name_a} − {name_b} per split\n(above 0: {name_a} better)")
        self.legend_ = legend_below(ax, ncol=3, own_figure=own_figure)
        self.figure_, self.ax_ = ax.figure, ax
        return self

    @classmethod
    def from_result(cls, result, *, estimator_names=None, ax=None, score_name=None):
        """Plot the score differences of a comparison result.

        Parameters
        ----------
        result : Bunch
            Returned by :func:`~sklearn_bcv.compare_estimators` or
            :func:`~sklearn_bcv.compare_predictions`; its ``differences``
            are grouped by repetition when ``result.design`` is an m×2
            design.
        estimator_names : tuple of str, default=None
            Names of A and B; None uses ``result.estimator_names`` when
            present, else ``("A", "B")``.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        score_name : str, default=None
            Axis label of the score; None uses ``result.scoring`` when it is
            a string, else ``"score"``.

        Returns
        -------
        display : ScoreDifferencesDisplay
            The drawn display.
        """
        check_result(
            result, ("differences",), owner="ScoreDifferencesDisplay", source="pair"
        )
        if score_name is None:
            score_name = score_name_of(result)
        display = cls(
            result["differences"],
            n_repeats=n_repeats_of(result),
            estimator_names=result_pair_names(result, estimator_names),
        )
        return display.plot(ax=ax, score_name=score_name)
