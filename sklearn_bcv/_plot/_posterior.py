"""Posterior of the difference of two estimators: the mean score difference
(Bayesian correlated t test) or the accuracy difference (Bayesian m×2 BCV
McNemar test)."""

import numpy as np
from scipy import stats

from .._compat import check_matplotlib_support
from ..stats._bayesian_bcv import difference_pdf, difference_tails
from ._common import (
    check_result,
    legend_below,
    pair_labels,
    result_pair_names,
    single_axes,
)
from ._validate import check_probabilities

__all__ = ["PosteriorDisplay"]

#: How far the probabilities given may be from those of the posterior drawn
#: (a Monte Carlo estimate of a test agrees to well within this).
_AGREEMENT = 0.01


class PosteriorDisplay:
    """Posterior of the difference between two estimators (Bayesian tests).

    Either the posterior of the mean score difference of the Bayesian
    correlated t test, a Student t distribution with ``df`` degrees of
    freedom, location ``loc`` and scale ``scale`` (Corani & Benavoli 2015, §2.4); or the
    posterior of the accuracy difference ``Δ = s·(2θ - 1)`` of the Bayesian
    m×2 BCV McNemar test, with ``s ~ Beta(*posterior_s)`` and
    ``θ ~ Beta(*posterior_theta)`` independent, whose density
    ``f_Δ(d) = E_s[f_θ(1/2 + d/(2s)) / (2s); s > |d|]`` is computed by
    one-dimensional quadrature. The region of practical equivalence
    ``[-rope, rope]`` is shaded and the three posterior probabilities are
    written on the plot. A zero scale is a point mass at ``loc``, drawn as a
    vertical line.

    Parameters
    ----------
    loc : float, default=None
        Location of the Student t posterior (the mean difference).
    scale : float, default=None
        Scale of the Student t posterior, >= 0.
    df : float, default=None
        Degrees of freedom of the Student t posterior, > 0.
    posterior_s : tuple of two floats, default=None
        Beta parameters of the disagreement rate ``s``, given instead of
        ``loc``, ``scale`` and ``df`` (see
        :func:`~sklearn_bcv.stats.bayesian_bcv_mcnemar`).
    posterior_theta : tuple of two floats, default=None
        Beta parameters of ``θ``, A's share of the disagreements; given
        with ``posterior_s``.
    rope : float, default=0.0
        Half-width of the region of practical equivalence.
    p_a_better, p_rope, p_b_better : float, default=None
        The three probabilities; None computes them from the posterior.
        Given, they must lie in [0, 1] and sum to 1 (within 0.001).
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
    density_ : tuple of two ndarrays or None
        ``(grid, density)``: the points at which the density was evaluated
        and its values there; None for a point mass.
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
    sklearn_bcv.stats.bayesian_correlated_t : The test behind the Student t
        posterior.
    sklearn_bcv.stats.bayesian_bcv_mcnemar : The test behind the posterior
        of the accuracy difference.

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

    The posterior of :func:`~sklearn_bcv.stats.bayesian_bcv_mcnemar`'s
    docstring example:

    >>> display = PosteriorDisplay(
    ...     posterior_s=(22, 163.82), posterior_theta=(15, 7), rope=0.01
    ... ).plot()
    >>> print(display.text_.get_text())
    P(A better) = 0.912
    P(rope) = 0.073
    P(B better) = 0.015
    >>> display.ax_.get_xlabel()
    'accuracy difference A − B'
    """

    def __init__(
        self,
        loc=None,
        scale=None,
        df=None,
        *,
        posterior_s=None,
        posterior_theta=None,
        rope=0.0,
        p_a_better=None,
        p_rope=None,
        p_b_better=None,
        estimator_names=None,
    ):
        self.loc = loc
        self.scale = scale
        self.df = df
        self.posterior_s = posterior_s
        self.posterior_theta = posterior_theta
        self.rope = rope
        self.p_a_better = p_a_better
        self.p_rope = p_rope
        self.p_b_better = p_b_better
        self.estimator_names = estimator_names

    def _posterior(self):
        """The validated posterior: ``_StudentPosterior`` or
        ``_AccuracyDifferencePosterior``, and the rope."""
        rope = float(self.rope)
        if not (np.isfinite(rope) and rope >= 0):
            raise ValueError(f"rope must be a finite number >= 0; got {self.rope!r}.")
        student = (self.loc, self.scale, self.df)
        beta = (self.posterior_s, self.posterior_theta)
        if all(v is None for v in student) and all(v is not None for v in beta):
            return _AccuracyDifferencePosterior(*beta), rope
        if any(v is None for v in student) or any(v is not None for v in beta):
            raise ValueError(
                "PosteriorDisplay needs either loc, scale and df (a Student t "
                "posterior) or posterior_s and posterior_theta (the accuracy "
                "difference), not a mix of the two."
            )
        return _StudentPosterior(*student), rope

    def _probabilities(self, posterior, rope):
        """The probabilities written: the ones given (checked against the
        posterior drawn, which must put about the same mass on each side:
        a figure whose text contradicts its curve is refused), else the
        posterior's own."""
        own = posterior.probabilities(rope)
        given = (self.p_a_better, self.p_rope, self.p_b_better)
        if all(p is not None for p in given):
            name = "(p_a_better, p_rope, p_b_better)"
            checked = check_probabilities(given, name=name, atol=1e-3)
            if np.max(np.abs(checked - np.asarray(own))) > _AGREEMENT:
                raise ValueError(
                    f"{name} contradicts the posterior drawn, which gives "
                    f"({', '.join(f'{p:.4f}' for p in own)}); got "
                    f"({', '.join(f'{p:.4f}' for p in checked)})."
                )
            return tuple(float(p) for p in checked)
        return own

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
            ``density_``, ``rope_patch_``, ``text_`` and ``legend_`` set.
        """
        check_matplotlib_support("PosteriorDisplay.plot")
        posterior, rope = self._posterior()
        p_a, p_rope, p_b = self._probabilities(posterior, rope)
        name_a, name_b = pair_labels(self.estimator_names)
        ax, own_figure = single_axes(ax)
        self.density_ = None
        if posterior.point_mass is not None:
            self.line_ = ax.axvline(
                posterior.point_mass, color="tab:blue", label="posterior (point mass)"
            )
        else:
            grid = posterior.grid(rope, n_points)
            density = posterior.pdf(grid)
            self.density_ = (grid, density)
            (self.line_,) = ax.plot(grid, density, color="tab:blue", label="posterior")
            # Headroom above the curve for the probabilities.
            ax.set_ylim(0, 1.45 * _finite_max(density))
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
        ax.set_xlabel(f"{posterior.quantity} {name_a} − {name_b}")
        ax.set_ylabel("density")
        ax.set_title(f"Posterior of the {posterior.quantity}")
        self.legend_ = legend_below(ax, ncol=2, own_figure=own_figure)
        self.figure_, self.ax_ = ax.figure, ax
        return self

    @classmethod
    def from_result(
        cls, result, *, test=None, estimator_names=None, ax=None, n_points=400
    ):
        """Plot the posterior of a Bayesian test of a comparison result.

        Parameters
        ----------
        result : Bunch
            A comparison result whose ``tests`` include
            ``bayesian_correlated_t`` or ``bayesian_bcv_mcnemar``.
        test : {"bayesian_correlated_t", "bayesian_bcv_mcnemar"}, default=None
            The test whose posterior to draw; None is
            ``bayesian_correlated_t`` when ``result.tests`` holds it, else
            ``bayesian_bcv_mcnemar``.
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
        name, test_result = _posterior_test(result.get("tests", {}), test)
        display = cls(
            **_POSTERIOR_FIELDS[name](test_result),
            rope=test_result.get("rope", 0.0),
            p_a_better=test_result.get("p_a_better", None),
            p_rope=test_result.get("p_rope", None),
            p_b_better=test_result.get("p_b_better", None),
            estimator_names=result_pair_names(result, estimator_names),
        )
        return display.plot(ax=ax, n_points=n_points)


def _finite_max(values):
    """The largest finite value (a density may overflow at a singularity)."""
    finite = values[np.isfinite(values)]
    return float(finite.max()) if finite.size and finite.max() > 0 else 1.0


class _StudentPosterior:
    """The Student t posterior of the mean score difference."""

    quantity = "mean difference"

    def __init__(self, loc, scale, df):
        loc, scale, df = float(loc), float(scale), float(df)
        if not np.isfinite(loc):
            raise ValueError(f"loc must be a finite number; got {loc!r}.")
        if not (np.isfinite(scale) and scale >= 0):
            raise ValueError(f"scale must be a finite number >= 0; got {scale!r}.")
        if not df > 0:
            raise ValueError(f"df must be > 0; got {df!r}.")
        self.loc, self.scale, self.df = loc, scale, df
        self.point_mass = loc if scale == 0 else None

    def probabilities(self, rope):
        loc = self.loc
        if self.scale == 0:
            return (float(loc > rope), float(-rope <= loc <= rope), float(loc < -rope))
        dist = stats.t(self.df, loc=loc, scale=self.scale)
        p_b, p_not_a = dist.cdf(-rope), dist.cdf(rope)
        return float(1 - p_not_a), float(p_not_a - p_b), float(p_b)

    def grid(self, rope, n_points):
        low, high = stats.t(self.df, loc=self.loc, scale=self.scale).ppf(
            [0.0005, 0.9995]
        )
        return np.linspace(min(low, -1.5 * rope), max(high, 1.5 * rope), n_points)

    def pdf(self, grid):
        return stats.t(self.df, loc=self.loc, scale=self.scale).pdf(grid)


class _AccuracyDifferencePosterior:
    """The posterior of ``Δ = s·(2θ - 1)``, s and θ independent Beta."""

    quantity = "accuracy difference"
    point_mass = None

    def __init__(self, posterior_s, posterior_theta):
        self.posterior_s = _beta_parameters(posterior_s, name="posterior_s")
        self.posterior_theta = _beta_parameters(posterior_theta, name="posterior_theta")

    def probabilities(self, rope):
        p_a, p_b = (float(p) for p in difference_tails(*self._both(), rope))
        p_rope = 0.0 if rope == 0 else min(max(1.0 - (p_a + p_b), 0.0), 1.0)
        return p_a, p_rope, p_b

    def grid(self, rope, n_points):
        """Where the mass is: the mean ± 8 standard deviations (moments of
        the Dirichlet posterior), within [-1, 1], the rope included."""
        a_s, b_s = self.posterior_s
        a10, a01 = self.posterior_theta
        total = a_s + b_s
        mean = (a10 - a01) / total
        var = (total * (a10 + a01) - (a10 - a01) ** 2) / (total**2 * (total + 1))
        half = 8 * np.sqrt(max(var, 0.0))
        low = max(-1.0, min(mean - half, -1.5 * rope))
        high = min(1.0, max(mean + half, 1.5 * rope))
        return np.linspace(low, high, n_points)

    def pdf(self, grid):
        return difference_pdf(grid, *self._both())

    def _both(self):
        return self.posterior_s, self.posterior_theta


def _beta_parameters(values, *, name):
    """Two finite positive numbers, as a tuple of floats."""
    try:
        params = tuple(float(v) for v in values)
    except (TypeError, ValueError):
        params = ()
    if len(params) != 2 or not all(np.isfinite(p) and p > 0 for p in params):
        raise ValueError(
            f"{name} must be two finite numbers > 0 (Beta parameters); got {values!r}."
        )
    return params


def _correlated_t_fields(test_result):
    return {
        "loc": test_result["loc"],
        "scale": test_result["scale"],
        "df": test_result["df"],
    }


def _bcv_mcnemar_fields(test_result):
    return {
        "posterior_s": test_result["posterior_s"],
        "posterior_theta": test_result["posterior_theta"],
    }


#: The tests PosteriorDisplay draws, in the order from_result looks for
#: them, with the display's arguments read from each one's result.
_POSTERIOR_FIELDS = {
    "bayesian_correlated_t": _correlated_t_fields,
    "bayesian_bcv_mcnemar": _bcv_mcnemar_fields,
}


def _posterior_test(tests, test):
    """``(name, result)`` of the test to draw from ``result.tests``."""
    names = list(_POSTERIOR_FIELDS)
    if test is not None and test not in _POSTERIOR_FIELDS:
        raise ValueError(f"test must be one of {names}; got {test!r}.")
    wanted = names if test is None else [test]
    for name in wanted:
        if tests.get(name, None) is not None:
            return name, tests[name]
    raise ValueError(
        f"result.tests has no {' or '.join(repr(n) for n in wanted)}; run the "
        "comparison with that test (tests=None runs every applicable test)."
    )
