"""Posterior of the mean score difference (Bayesian correlated t test)."""

import numpy as np
from scipy import stats

from .._compat import check_matplotlib_support
from ._common import (
    check_result,
    legend_below,
    pair_names,
    result_pair_names,
    single_axes,
)

__all__ = ["PosteriorDisplay"]


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
        loc, scale, df, rope = self._check()
        p_a, p_rope, p_b = self._probabilities(loc, scale, df, rope)
        name_a, name_b = pair_names(self.estimator_names)
        ax, own_figure = single_axes(ax)
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
        self.legend_ = legend_below(ax, ncol=2, own_figure=own_figure)
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
        check_result(result, ("tests",), owner="PosteriorDisplay", source="pair")
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
            estimator_names=result_pair_names(result, estimator_names),
        )
        return display.plot(ax=ax, n_points=n_points)
