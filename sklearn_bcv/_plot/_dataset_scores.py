"""The score of each estimator on each data set of a benchmark."""

import numpy as np

from .._compat import check_matplotlib_support
from ._common import check_result, legend_below, score_name_of, single_axes
from ._labels import display_names
from ._validate import check_names

__all__ = ["DatasetScoresDisplay"]

#: Most data sets (rows) the display draws: beyond, the labels overlap on
#: any figure a page holds.
MAX_DATASETS = 200


class DatasetScoresDisplay:
    """The score of each estimator on each data set, one row per data set.

    The companion of a benchmark's table of scores: each data set is a row,
    each estimator a marker at its mean score on it (offset a little
    within the row so that equal scores stay apart), with a bar of ± one
    standard deviation over the splits when they are known. Differences
    that hold on every data set show as one colour always on the same side;
    a data set on which every estimator scores alike (or noisily) shows
    too.

    It is recommended to build the display with :meth:`from_result`.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, k)
        The mean score of each estimator (column) on each data set (row);
        NaN (a failed fit) is drawn as nothing.
    datasets : list of str of length n_datasets
        The data sets, in the order of the rows, top to bottom.
    names : list of str of length k
        The estimators, in the order of the columns.
    sd : array-like of shape (n_datasets, k), default=None
        The standard deviation of each score over the splits; None draws
        no bars.
    greater_is_better : bool, default=True
        Whether a higher score is better (the axis label says which).

    Attributes
    ----------
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure holding the axes.
    lines_ : list of matplotlib ErrorbarContainer
        One per estimator, in ``names`` order: its markers (and bars).
    legend_ : matplotlib Legend
        The estimators, below the axes.

    See Also
    --------
    CriticalDifferenceDisplay : The mean ranks of the estimators.
    SignificanceMatrixDisplay : Every pair by a pairwise test.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_bcv import DatasetScoresDisplay
    >>> display = DatasetScoresDisplay(
    ...     [[0.91, 0.95], [0.80, 0.84], [0.66, 0.65]],
    ...     datasets=["iris", "wine", "moons"], names=["tree", "forest"],
    ...     sd=[[0.02, 0.01], [0.03, 0.02], [0.04, 0.05]]).plot()
    >>> [text.get_text() for text in display.ax_.get_yticklabels()]
    ['iris', 'wine', 'moons']
    >>> [container.get_label() for container in display.lines_]
    ['tree', 'forest']
    """

    def __init__(self, scores, *, datasets, names, sd=None, greater_is_better=True):
        self.scores = scores
        self.datasets = datasets
        self.names = names
        self.sd = sd
        self.greater_is_better = greater_is_better

    def _check(self):
        """``(scores, sd, datasets, names)``, validated."""
        scores = self._matrix("scores", self.scores)
        n, k = scores.shape
        if not 1 <= n <= MAX_DATASETS or k < 1:
            raise ValueError(
                f"scores must have between 1 and {MAX_DATASETS} rows (data sets) "
                f"and at least 1 column (estimators); got shape {scores.shape}."
            )
        sd = None
        if self.sd is not None:
            sd = self._matrix("sd", self.sd)
            if sd.shape != scores.shape:
                raise ValueError(
                    f"sd must have the shape of scores, {scores.shape}; got {sd.shape}."
                )
            if np.any(sd[np.isfinite(sd)] < 0):
                raise ValueError("sd must hold standard deviations >= 0.")
        datasets = check_names(
            self.datasets, n, name="datasets", per="one per row of scores"
        )
        names = check_names(self.names, k, per="one per column of scores")
        return scores, sd, datasets, names

    @staticmethod
    def _matrix(name, values):
        try:
            matrix = np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must hold numbers; got {values!r}.") from None
        if matrix.ndim != 2:
            raise ValueError(
                f"{name} must be a 2-D array (data sets, estimators); got shape "
                f"{matrix.shape}."
            )
        if np.any(np.isinf(matrix)):
            raise ValueError(f"{name} must not hold infinite values.")
        return matrix

    def plot(self, ax=None, *, score_name="score", error_bars=True):
        """Draw the scores.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure sized for the data
            sets.
        score_name : str, default="score"
            Name of the score, in the axis label.
        error_bars : bool, default=True
            Whether to draw ± one sd over the splits (when ``sd`` is given).

        Returns
        -------
        display : DatasetScoresDisplay
            The object itself, with ``figure_``, ``ax_``, ``lines_`` and
            ``legend_`` set.
        """
        check_matplotlib_support("DatasetScoresDisplay.plot")
        scores, sd, datasets, names = self._check()
        n, k = scores.shape
        ax, own_figure = single_axes(ax, figsize=(6.4, 1.6 + 0.35 * n))
        rows = np.arange(n)
        offsets = (np.arange(k) - (k - 1) / 2) * (0.6 / max(k, 1))
        self.lines_ = []
        # Drawable text of the names (the legend) and data sets (the rows).
        for j, name in enumerate(display_names(names)):
            bars = None if sd is None or not error_bars else sd[:, j]
            self.lines_.append(
                ax.errorbar(
                    scores[:, j],
                    rows + offsets[j],
                    xerr=bars,
                    fmt="o",
                    markersize=5,
                    capsize=2,
                    linewidth=1,
                    label=name,
                )
            )
        ax.set_yticks(rows, labels=display_names(datasets))
        ax.set_ylim(n - 0.5, -0.5)  # the first data set on top
        ax.grid(axis="x", alpha=0.3)
        for row in rows[1:]:
            ax.axhline(row - 0.5, color="0.85", linewidth=0.8)
        better = "higher" if self.greater_is_better else "lower"
        ax.set_xlabel(f"mean {score_name} ({better} is better)")
        self.legend_ = legend_below(ax, ncol=min(k, 4), own_figure=own_figure)
        self.figure_, self.ax_ = ax.figure, ax
        return self

    @classmethod
    def from_result(cls, result, *, ax=None, **plot_kwargs):
        """Plot the scores of a comparison across data sets.

        Parameters
        ----------
        result : BenchmarkResult
            Returned by :func:`~sklearn_bcv.benchmark` or
            :func:`~sklearn_bcv.compare_scores`: its ``scores``,
            ``datasets``, ``names``, ``greater_is_better`` and, when they
            are known, the per-split scores (``split_scores``, for the
            bars).
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        **plot_kwargs : dict
            Passed to :meth:`plot` (``score_name``, ``error_bars``).

        Returns
        -------
        display : DatasetScoresDisplay
            The drawn display.
        """
        check_result(
            result,
            ("scores", "datasets", "names"),
            owner="DatasetScoresDisplay",
            source="datasets",
        )
        split = result.get("split_scores", None)
        sd = None
        if isinstance(split, np.ndarray) and split.ndim == 3 and split.shape[1] > 1:
            sd = np.std(np.asarray(split, dtype=float), axis=1, ddof=1)
        display = cls(
            result["scores"],
            datasets=result["datasets"],
            names=result["names"],
            sd=sd,
            greater_is_better=bool(result.get("greater_is_better", True)),
        )
        plot_kwargs.setdefault("score_name", score_name_of(result))
        return display.plot(ax=ax, **plot_kwargs)
