"""Contingency tables of a classifier comparison: per split, mean, effective."""

import numpy as np

from .._compat import check_matplotlib_support
from ._common import (
    axes_grid,
    check_result,
    n_repeats_of,
    pair_labels,
    result_pair_names,
)
from ._validate import check_counts

__all__ = ["ContingencyTableDisplay"]

_OUTCOMES = ("wrong", "right")


def _disagreements(table):
    """The two off-diagonal counts of a 2×2 table."""
    return np.array([table[0, 1], table[1, 0]])


class ContingencyTableDisplay:
    """Contingency tables of a comparison: per split, mean and effective.

    ``table[i, j]`` counts the test records on which A's correctness is ``i``
    and B's is ``j`` (0 = wrong, 1 = right), so the off-diagonal cells are the
    disagreements McNemar's tests look at: ``table[0, 1]`` (A wrong, B right)
    and ``table[1, 0]`` (A right, B wrong).

    It is recommended to build the display with :meth:`from_result`.

    Parameters
    ----------
    tables : array-like of shape (n_splits, 2, 2)
        The per-split tables, in split order.
    mean_table : array-like of shape (2, 2), default=None
        The mean table over the splits; None computes it from ``tables``.
    effective_table : array-like of shape (2, 2), default=None
        The effective contingency table of the 5×2 BCV McNemar's test
        (``t`` times the mean table); None leaves it out.
    n_repeats : int, default=None
        The number of repetitions of an m×2 design: the split panels are
        then titled by repetition and fold (split ``2r + k`` is fold ``k`` of
        repetition ``r``); None titles them by split index.
    estimator_names : tuple of str, default=None
        Names of the two estimators; None means ``("A", "B")``.

    Attributes
    ----------
    ax_ : ndarray of matplotlib Axes
        One axes per drawn table.
    figure_ : matplotlib Figure
        The figure holding the axes.
    images_ : list of matplotlib AxesImage
        The image of each table.
    text_ : list of ndarray of shape (2, 2) of matplotlib Text
        The counts written in each table's cells.

    See Also
    --------
    ScoreDifferencesDisplay : Per-split score differences.
    PosteriorDisplay : Posterior of the Bayesian correlated t test.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_bcv import ContingencyTableDisplay
    >>> tables = [[[10, 3], [5, 82]], [[12, 2], [6, 80]]]
    >>> display = ContingencyTableDisplay(tables).plot()
    >>> [ax.get_title() for ax in display.ax_]
    ['split 0', 'split 1', 'mean']
    >>> display.text_[-1][1, 0].get_text()
    '5.5'
    """

    def __init__(
        self,
        tables,
        *,
        mean_table=None,
        effective_table=None,
        n_repeats=None,
        estimator_names=None,
    ):
        self.tables = tables
        self.mean_table = mean_table
        self.effective_table = effective_table
        self.n_repeats = n_repeats
        self.estimator_names = estimator_names

    def _split_title(self, i):
        if self.n_repeats is None:
            return f"split {i}"
        return f"rep {i // 2}, fold {i % 2}"

    def _panels(self, show_splits):
        tables = np.asarray(self.tables, dtype=float)
        if tables.ndim == 2:
            tables = tables[np.newaxis]
        if tables.ndim != 3 or tables.shape[1:] != (2, 2) or not len(tables):
            raise ValueError(
                "tables must have shape (n_splits, 2, 2); got shape "
                f"{np.shape(self.tables)}."
            )
        check_counts(tables, name="tables")
        panels = []
        if show_splits:
            if self.n_repeats is not None and len(tables) != 2 * self.n_repeats:
                raise ValueError(
                    f"tables must hold 2 * n_repeats = {2 * self.n_repeats} "
                    f"tables; got {len(tables)}."
                )
            panels += [
                (self._split_title(i), table, False) for i, table in enumerate(tables)
            ]
        mean = (
            tables.mean(axis=0)
            if self.mean_table is None
            else check_counts(self.mean_table, name="mean_table", shape=(2, 2))
        )
        panels.append(("mean", mean, True))
        if self.effective_table is not None:
            effective = check_counts(
                self.effective_table, name="effective_table", shape=(2, 2)
            )
            panels.append(("effective", effective, True))
        return panels

    def plot(
        self, ax=None, *, show_splits=True, n_cols=4, cmap="Blues", colorbar=False
    ):
        """Draw the tables.

        Only the disagreement cells ``[0, 1]`` and ``[1, 0]`` are coloured:
        they are what McNemar's tests compare, and on the colour scale of the
        (much larger) agreement counts they would all look blank. The split
        tables and the mean table share one colour scale, so panels can be
        compared; the effective table, ``t`` times larger, has its own.

        Parameters
        ----------
        ax : matplotlib Axes or sequence of Axes, default=None
            One axes per table drawn (the splits when ``show_splits``, then
            the mean table, then the effective table when there is one); a
            single Axes is accepted when one table is drawn. None makes a new
            figure with a grid of ``n_cols`` columns, labelled on its outer
            edges only.
        show_splits : bool, default=True
            Whether to draw every split's table or only the mean (and
            effective) tables.
        n_cols : int, default=4
            Columns of the grid made when ``ax`` is None.
        cmap : str or matplotlib Colormap, default="Blues"
            Colormap of the disagreement cells.
        colorbar : bool, default=False
            Whether to add a colorbar to each table.

        Returns
        -------
        display : ContingencyTableDisplay
            The object itself, with ``figure_``, ``ax_``, ``images_`` and
            ``text_`` set.
        """
        check_matplotlib_support("ContingencyTableDisplay.plot")
        panels = self._panels(show_splits)
        if ax is None:
            n_cols = min(n_cols, len(panels))
            fig, axes = axes_grid(len(panels), n_cols)
        else:
            n_cols = None
            axes = np.atleast_1d(np.asarray(ax, dtype=object)).ravel()
            if len(axes) != len(panels):
                raise ValueError(
                    f"ax must hold {len(panels)} axes, one per table drawn; got "
                    f"{len(axes)}."
                )
            fig = axes[0].figure
        name_a, name_b = pair_labels(self.estimator_names)
        # One colour scale for the split and mean tables (same units).
        shared_max = max(
            _disagreements(table).max()
            for title, table, _ in panels
            if title != "effective"
        )
        self.images_, self.text_ = [], []
        for i, (axis, (title, table, is_mean)) in enumerate(zip(axes, panels)):
            vmax = _disagreements(table).max() if title == "effective" else shared_max
            image, texts = self._draw_table(axis, table, is_mean, cmap, vmax)
            axis.set_title(title)
            # On a grid of our own, label the outer edges only.
            n_panels = len(panels)
            if n_cols is None or i % n_cols == 0:
                axis.set_ylabel(f"{name_a} is")
            if n_cols is None or i + n_cols >= n_panels:
                axis.set_xlabel(f"{name_b} is")
            if colorbar:
                fig.colorbar(image, ax=axis)
            self.images_.append(image)
            self.text_.append(texts)
        self.figure_, self.ax_ = fig, np.asarray(axes, dtype=object)
        return self

    @staticmethod
    def _draw_table(ax, table, is_mean, cmap, vmax):
        # The agreement cells are masked (drawn in light grey): only the
        # disagreements carry colour.
        masked = np.ma.masked_array(table, mask=np.eye(2, dtype=bool))
        image = ax.imshow(masked, cmap=cmap, vmin=0, vmax=max(vmax, 1))
        ax.set_facecolor("#eeeeee")
        texts = np.empty((2, 2), dtype=object)
        for i in range(2):
            for j in range(2):
                label = f"{table[i, j]:.1f}" if is_mean else f"{table[i, j]:.0f}"
                dark_cell = i != j and table[i, j] > max(vmax, 1) / 2
                color = "white" if dark_cell else ("black" if i != j else "dimgray")
                texts[i, j] = ax.text(
                    j,
                    i,
                    label,
                    ha="center",
                    va="center",
                    color=color,
                    fontsize="large" if i != j else "medium",
                )
        ax.set_xticks([0, 1], labels=_OUTCOMES)
        ax.set_yticks([0, 1], labels=_OUTCOMES)
        return image, texts

    @classmethod
    def from_result(
        cls,
        result,
        *,
        estimator_names=None,
        ax=None,
        show_splits=True,
        n_cols=4,
        cmap="Blues",
        colorbar=False,
    ):
        """Plot the tables of a comparison result.

        The mean and effective tables are those of ``result.tests.bcv_mcnemar``
        when that test was run; otherwise the mean is computed from
        ``result.tables`` and no effective table is drawn.

        Parameters
        ----------
        result : Bunch
            Returned by :func:`~sklearn_bcv.compare_estimators` or
            :func:`~sklearn_bcv.compare_predictions` on a classification
            task (it has ``tables``).
        estimator_names : tuple of str, default=None
            Names of A and B; None uses ``result.estimator_names`` when
            present, else ``("A", "B")``.
        ax : matplotlib Axes or sequence of Axes, default=None
            One axes per table drawn; None makes a new figure (see
            :meth:`plot`).
        show_splits : bool, default=True
            Whether to draw every split's table or only the mean (and
            effective) tables.
        n_cols : int, default=4
            Columns of the grid made when ``ax`` is None.
        cmap : str or matplotlib Colormap, default="Blues"
            Colormap of the cells.
        colorbar : bool, default=False
            Whether to add a colorbar to each table.

        Returns
        -------
        display : ContingencyTableDisplay
            The drawn display.
        """
        check_result(result, (), owner="ContingencyTableDisplay", source="pair")
        tables = result.get("tables", None)
        if tables is None:
            raise ValueError(
                "result has no contingency tables (they exist for classifiers only)."
            )
        bcv = result.get("tests", {}).get("bcv_mcnemar", None)
        mean_table = effective_table = None
        if bcv is not None:
            mean_table = bcv.get("mean_table", None)
            effective_table = bcv.get("effective_table", None)
        n_repeats = (
            n_repeats_of(result)
            if result.get("differences", None) is not None
            else None
        )
        display = cls(
            tables,
            mean_table=mean_table,
            effective_table=effective_table,
            n_repeats=n_repeats,
            estimator_names=result_pair_names(result, estimator_names),
        )
        return display.plot(
            ax=ax, show_splits=show_splits, n_cols=n_cols, cmap=cmap, colorbar=colorbar
        )
