"""Plots of a comparison: contingency tables, score differences, posterior.

Each plot is a Display object in the scikit-learn way
(:class:`sklearn.metrics.ConfusionMatrixDisplay`): ``__init__`` only stores
the data, :meth:`plot` draws it (importing matplotlib lazily) and sets
``figure_``, ``ax_`` and the artists, and the ``from_result`` classmethod
builds the display from the Bunch returned by
:func:`~sklearn_bcv.compare_estimators` or
:func:`~sklearn_bcv.compare_predictions`.
"""

import numpy as np
from scipy import stats

from .._compat import check_matplotlib_support

__all__ = [
    "ContingencyTableDisplay",
    "PosteriorDisplay",
    "ScoreDifferencesDisplay",
]

_OUTCOMES = ("wrong", "right")


def _names(estimator_names):
    if estimator_names is None:
        return ("A", "B")
    names = tuple(str(name) for name in estimator_names)
    if len(names) != 2:
        raise ValueError(
            f"estimator_names must hold two names (A, B); got {estimator_names!r}."
        )
    return names


def _result_names(result, estimator_names):
    if estimator_names is not None:
        return _names(estimator_names)
    return _names(result.get("estimator_names", None))


def _n_repeats_of(result):
    """The number of repetitions when ``result`` comes from an m×2 design.

    ``result.design`` is the engine's design object (with ``n_repeats``) or,
    in hand-built results, a design name such as ``"bcv"``.
    """
    design = result.get("design", None)
    n_splits = len(np.asarray(result["differences"]))
    if isinstance(design, str):
        return n_splits // 2 if design in ("mx2", "bcv") and n_splits % 2 == 0 else None
    n_repeats = getattr(design, "n_repeats", None)
    return n_repeats if n_repeats is not None and 2 * n_repeats == n_splits else None


def _disagreements(table):
    """The two off-diagonal counts of a 2×2 table."""
    return np.array([table[0, 1], table[1, 0]])


def _legend_below(ax, *, ncol, own_figure):
    """A legend under the axes, so it never hides the data or the annotation.

    On a figure the display made itself, a figure legend placed "outside"
    lets constrained layout make room for it; an axes legend anchored below
    the axes is only settled by a second layout pass, so the first saved
    image clips the y label. On the user's axes, the axes legend below them.
    """
    style = {"ncol": ncol, "fontsize": "small", "frameon": False}
    if own_figure:
        return ax.figure.legend(loc="outside lower center", **style)
    return ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), **style)


def _new_axes(n_panels, n_cols):
    import matplotlib.pyplot as plt

    n_rows = -(-n_panels // n_cols)
    fig, axes = plt.subplots(
        n_rows,
        n_cols,
        figsize=(2.4 * n_cols, 2.3 * n_rows),
        squeeze=False,
        constrained_layout=True,
    )
    axes = axes.ravel()
    for extra in axes[n_panels:]:
        extra.set_visible(False)
    return fig, axes[:n_panels]


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
        mean = tables.mean(axis=0) if self.mean_table is None else self.mean_table
        panels.append(("mean", np.asarray(mean, dtype=float), True))
        if self.effective_table is not None:
            effective = np.asarray(self.effective_table, dtype=float)
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
            fig, axes = _new_axes(len(panels), n_cols)
        else:
            n_cols = None
            axes = np.atleast_1d(np.asarray(ax, dtype=object)).ravel()
            if len(axes) != len(panels):
                raise ValueError(
                    f"ax must hold {len(panels)} axes, one per table drawn; got "
                    f"{len(axes)}."
                )
            fig = axes[0].figure
        name_a, name_b = _names(self.estimator_names)
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
            _n_repeats_of(result)
            if result.get("differences", None) is not None
            else None
        )
        display = cls(
            tables,
            mean_table=mean_table,
            effective_table=effective_table,
            n_repeats=n_repeats,
            estimator_names=_result_names(result, estimator_names),
        )
        return display.plot(
            ax=ax, show_splits=show_splits, n_cols=n_cols, cmap=cmap, colorbar=colorbar
        )


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
        import matplotlib.pyplot as plt

        differences = self._checked_differences()
        own_figure = ax is None
        if own_figure:
            _, ax = plt.subplots(figsize=(6, 4), layout="constrained")
        name_a, name_b = _names(self.estimator_names)
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
        self.legend_ = _legend_below(ax, ncol=3, own_figure=own_figure)
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
        if score_name is None:
            scoring = result.get("scoring", None)
            score_name = scoring if isinstance(scoring, str) else "score"
        display = cls(
            result["differences"],
            n_repeats=_n_repeats_of(result),
            estimator_names=_result_names(result, estimator_names),
        )
        return display.plot(ax=ax, score_name=score_name)


class PosteriorDisplay:
    """Posterior of the mean score difference (Bayesian correlated t test).

    The posterior is a Student t distribution with ``df`` degrees of
    freedom, location ``loc`` and scale ``scale`` (seed 002, §2.4). The
    region of practical equivalence ``[-rope, rope]`` is shaded and the
    three posterior probabilities are written on the plot. A zero scale is a
    point mass at ``loc``, drawn as a vertical line.

    Parameters
    ----------
    loc : float
        Location of the posterior (the mean difference).
    scale : float
        Scale of the posterior, >= 0.
    df : float
        Degrees of freedom, > 0.
    rope : float, default=0.0
        Half-width of the region of practical equivalence.
    p_a_better, p_rope, p_b_better : float, default=None
        The three probabilities; None computes them from the posterior.
    estimator_names : tuple of str, default=None
        Names of the two estimators; None means ``("A", "B")``.

    Attributes
    ----------
    ax_ : matplotlib Axes
        The axes drawn on.
    figure_ : matplotlib Figure
        The figure holding the axes.
    line_ : matplotlib Line2D
        The posterior density (a vertical line for a point mass).
    rope_patch_ : matplotlib Patch or None
        The shaded rope, None when ``rope == 0``.
    text_ : matplotlib Text
        The annotation with the three probabilities.
    legend_ : matplotlib Legend
        The legend, below the axes (a figure legend when the display made
        the figure).

    See Also
    --------
    ScoreDifferencesDisplay : Per-split score differences.
    sklearn_bcv.stats.bayesian_correlated_t : The test behind the posterior.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_bcv import PosteriorDisplay
    >>> display = PosteriorDisplay(loc=0.01, scale=0.01, df=9, rope=0.01).plot()
    >>> print(display.text_.get_text())
    P(A better) = 0.500
    P(rope) = 0.462
    P(B better) = 0.038
    """

    def __init__(
        self,
        loc,
        scale,
        df,
        *,
        rope=0.0,
        p_a_better=None,
        p_rope=None,
        p_b_better=None,
        estimator_names=None,
    ):
        self.loc = loc
        self.scale = scale
        self.df = df
        self.rope = rope
        self.p_a_better = p_a_better
        self.p_rope = p_rope
        self.p_b_better = p_b_better
        self.estimator_names = estimator_names

    def _check(self):
        loc, scale, df, rope = (
            float(v) for v in (self.loc, self.scale, self.df, self.rope)
        )
        if not np.isfinite(loc):
            raise ValueError(f"loc must be a finite number; got {self.loc!r}.")
        if not (np.isfinite(scale) and scale >= 0):
            raise ValueError(f"scale must be a finite number >= 0; got {self.scale!r}.")
        if not df > 0:
            raise ValueError(f"df must be > 0; got {self.df!r}.")
        if not (np.isfinite(rope) and rope >= 0):
            raise ValueError(f"rope must be a finite number >= 0; got {self.rope!r}.")
        return loc, scale, df, rope

    def _probabilities(self, loc, scale, df, rope):
        given = (self.p_a_better, self.p_rope, self.p_b_better)
        if all(p is not None for p in given):
            return tuple(float(p) for p in given)
        if scale == 0:
            return (float(loc > rope), float(-rope <= loc <= rope), float(loc < -rope))
        dist = stats.t(df, loc=loc, scale=scale)
        p_b, p_not_a = dist.cdf(-rope), dist.cdf(rope)
        return float(1 - p_not_a), float(p_not_a - p_b), float(p_b)

    def plot(self, ax=None, *, n_points=400):
        """Draw the posterior.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        n_points : int, default=400
            Points at which the density is evaluated.

        Returns
        -------
        display : PosteriorDisplay
            The object itself, with ``figure_``, ``ax_``, ``line_``,
            ``rope_patch_``, ``text_`` and ``legend_`` set.
        """
        check_matplotlib_support("PosteriorDisplay.plot")
        import matplotlib.pyplot as plt

        loc, scale, df, rope = self._check()
        p_a, p_rope, p_b = self._probabilities(loc, scale, df, rope)
        name_a, name_b = _names(self.estimator_names)
        own_figure = ax is None
        if own_figure:
            _, ax = plt.subplots(figsize=(6, 4), layout="constrained")
        if scale == 0:
            self.line_ = ax.axvline(
                loc, color="tab:blue", label="posterior (point mass)"
            )
        else:
            dist = stats.t(df, loc=loc, scale=scale)
            low, high = dist.ppf([0.0005, 0.9995])
            grid = np.linspace(min(low, -1.5 * rope), max(high, 1.5 * rope), n_points)
            density = dist.pdf(grid)
            (self.line_,) = ax.plot(grid, density, color="tab:blue", label="posterior")
            # Headroom above the curve for the probabilities.
            ax.set_ylim(0, 1.45 * density.max())
            ax.fill_between(
                grid,
                density,
                where=grid > rope,
                color="tab:green",
                alpha=0.3,
                label=f"{name_a} better",
            )
            ax.fill_between(
                grid,
                density,
                where=grid < -rope,
                color="tab:orange",
                alpha=0.3,
                label=f"{name_b} better",
            )
        self.rope_patch_ = None
        if rope > 0:
            self.rope_patch_ = ax.axvspan(
                -rope, rope, color="grey", alpha=0.25, label="rope"
            )
        self.text_ = ax.text(
            0.02,
            0.97,
            f"P({name_a} better) = {p_a:.3f}\nP(rope) = {p_rope:.3f}\n"
            f"P({name_b} better) = {p_b:.3f}",
            transform=ax.transAxes,
            ha="left",
            va="top",
            fontsize="small",
            bbox={"boxstyle": "round", "facecolor": "white", "alpha": 0.8},
        )
        ax.set_xlabel(f"mean difference {name_a} − {name_b}")
        ax.set_ylabel("density")
        ax.set_title("Posterior of the mean difference")
        self.legend_ = _legend_below(ax, ncol=2, own_figure=own_figure)
        self.figure_, self.ax_ = ax.figure, ax
        return self

    @classmethod
    def from_result(cls, result, *, estimator_names=None, ax=None, n_points=400):
        """Plot the posterior of ``result.tests.bayesian_correlated_t``.

        Parameters
        ----------
        result : Bunch
            A comparison result whose ``tests`` include
            ``bayesian_correlated_t``.
        estimator_names : tuple of str, default=None
            Names of A and B; None uses ``result.estimator_names`` when
            present, else ``("A", "B")``.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        n_points : int, default=400
            Points at which the density is evaluated.

        Returns
        -------
        display : PosteriorDisplay
            The drawn display.
        """
        test = result.get("tests", {}).get("bayesian_correlated_t", None)
        if test is None:
            raise ValueError(
                "result.tests has no 'bayesian_correlated_t'; run the comparison "
                "with that test (tests=None runs every applicable test)."
            )
        display = cls(
            test["loc"],
            test["scale"],
            test["df"],
            rope=test.get("rope", 0.0),
            p_a_better=test.get("p_a_better", None),
            p_rope=test.get("p_rope", None),
            p_b_better=test.get("p_b_better", None),
            estimator_names=_result_names(result, estimator_names),
        )
        return display.plot(ax=ax, n_points=n_points)
