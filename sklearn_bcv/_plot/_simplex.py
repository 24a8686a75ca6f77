"""Posterior of a Bayesian comparison across data sets, in a simplex."""

from numbers import Integral

import numpy as np

from .._compat import check_matplotlib_support
from .._results._roles import probability
from ._common import check_result, pair_labels, pair_names
from ._validate import check_probabilities

__all__ = ["PosteriorSimplexDisplay"]

_KINDS = ("scatter", "hexbin")
# A better, rope, B better: the colours of PosteriorDisplay.
_COLORS = ("tab:green", "grey", "tab:orange")
_HEIGHT = np.sqrt(3) / 2


def _project(samples):
    """Barycentric coordinates ``(θ_A, θ_rope, θ_B)`` to the plane: A
    better at (0, 0), B better at (1, 0), the rope at the top (1/2, √3/2)."""
    samples = np.asarray(samples, dtype=float)
    return samples[:, 2] + samples[:, 1] / 2, samples[:, 1] * _HEIGHT


def winning_probabilities(samples):
    """The fraction of samples in which each θ is the largest.

    Ties are shared equally between the tied components, so the three
    fractions sum to 1.
    """
    samples = np.asarray(samples, dtype=float)
    top = samples == samples.max(axis=1, keepdims=True)
    return tuple(float(p) for p in (top / top.sum(axis=1, keepdims=True)).mean(0))


class PosteriorSimplexDisplay:
    """Posterior of a Bayesian comparison of two estimators across data sets.

    The Bayesian signed-rank and sign tests give a posterior distribution of
    ``(θ_A, θ_rope, θ_B)``, the probabilities that A is better, that the
    difference is inside the region of practical equivalence (rope), and
    that B is better (Benavoli et al., 2017). Each posterior sample is a
    point of the triangle whose corners are "A better" (bottom left), "rope"
    (top) and "B better" (bottom right), at the barycentric coordinates
    ``(θ_A, θ_rope, θ_B)``, as in baycomp's simplex plot. Three lines from
    the centre split the triangle into the regions where each θ is the
    largest; the share of samples in each region is the posterior
    probability written in its corner (``P(A better)``, ``P(rope)``,
    ``P(B better)``).

    With ``rope == 0`` the posterior gives no mass to the rope: the points
    lie on the bottom edge and ``P(rope)`` is 0. The triangle is drawn all
    the same (rather than collapsing to a histogram of ``θ_B``, as
    baycomp does), so plots with and without a rope read alike.

    It is recommended to build the display with :meth:`from_test_result` or
    :meth:`from_result`.

    Parameters
    ----------
    samples : array-like of shape (n_samples, 3)
        Posterior samples of ``(θ_A, θ_rope, θ_B)``; each row is >= 0 and
        sums to 1.
    names : tuple of str, default=("A", "B")
        Names of the two estimators, A then B.
    probabilities : tuple of float, default=None
        ``(P(A better), P(rope), P(B better))`` as reported by the test;
        None computes them from ``samples``, as the fraction of samples in
        which each θ is the largest. Given, they must lie in [0, 1] and sum
        to 1 (within 0.001, for values rounded to three decimals).
    rope : float, default=None
        Half-width of the rope, in the title; None leaves it out.

    Attributes
    ----------
    ax_ : matplotlib Axes
        The axes drawn on (without frame or ticks, equal aspect).
    figure_ : matplotlib Figure
        The figure holding the axes.
    triangle_ : matplotlib Line2D
        The outline of the triangle.
    region_lines_ : list of matplotlib Line2D
        The three lines from the centre to the middle of the edges that
        separate the regions where each θ is the largest.
    points_ : matplotlib Collection
        The drawn samples: a PathCollection (``kind="scatter"``) or a
        PolyCollection (``kind="hexbin"``).
    corner_texts_ : tuple of matplotlib Text
        The labels of the corners: the name of A, ``"rope"``, the name of B.
    probability_texts_ : tuple of matplotlib Text
        The probabilities written under the corner labels, in the same
        order.
    probabilities_ : tuple of float
        ``(P(A better), P(rope), P(B better))`` as written.
    n_drawn_ : int
        Number of samples drawn (at most ``max_points``).

    See Also
    --------
    PosteriorDisplay : Posterior of the Bayesian correlated t test of a pair
        on one data set.
    CriticalDifferenceDisplay : Mean ranks of k estimators across data sets.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", Journal of Machine Learning Research,
       18(77):1–36, 2017.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sklearn_bcv import PosteriorSimplexDisplay
    >>> samples = np.random.default_rng(0).dirichlet([8, 3, 2], size=2000)
    >>> display = PosteriorSimplexDisplay(
    ...     samples, names=("forest", "tree"), rope=0.01).plot()
    >>> [text.get_text() for text in display.corner_texts_]
    ['forest', 'rope', 'tree']
    >>> [text.get_text() for text in display.probability_texts_]
    ['P = 0.933', 'P = 0.047', 'P = 0.020']
    """

    def __init__(self, samples, *, names=("A", "B"), probabilities=None, rope=None):
        self.samples = samples
        self.names = names
        self.probabilities = probabilities
        self.rope = rope

    def _check(self):
        """``(samples, names, probabilities)``, validated."""
        samples = np.asarray(self.samples, dtype=float)
        if samples.ndim != 2 or samples.shape[1] != 3 or not len(samples):
            raise ValueError(
                "samples must have shape (n_samples, 3), columns (θ_A, θ_rope, "
                f"θ_B); got shape {np.shape(self.samples)}."
            )
        if not np.all(np.isfinite(samples)) or np.any(samples < -1e-9):
            raise ValueError("samples must be finite and >= 0.")
        if not np.allclose(samples.sum(axis=1), 1.0, rtol=0, atol=1e-6):
            raise ValueError("each row of samples must sum to 1.")
        names = pair_labels(self.names, name="names")
        if self.probabilities is None:
            probabilities = winning_probabilities(samples)
        else:
            probabilities = tuple(
                float(p)
                for p in check_probabilities(
                    self.probabilities,
                    name="probabilities (A better, rope, B better)",
                    atol=1e-3,
                )
            )
        if self.rope is not None and not (np.isfinite(self.rope) and self.rope >= 0):
            raise ValueError(
                f"rope must be None or a finite number >= 0; got {self.rope!r}."
            )
        return np.clip(samples, 0, None), names, probabilities

    def plot(self, ax=None, *, kind="scatter", max_points=3000, cmap="Blues"):
        """Draw the posterior samples in the simplex.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on (its frame and ticks are turned off); None makes
            a new figure.
        kind : {"scatter", "hexbin"}, default="scatter"
            ``"scatter"`` draws each sample as a translucent dot coloured by
            its region (green: A better, grey: rope, orange: B better);
            ``"hexbin"`` draws their density in hexagons, as baycomp does.
        max_points : int, default=3000
            At most this many samples are drawn, chosen at random with a
            fixed seed (the same points on every call); the probabilities
            are those of all samples.
        cmap : str or matplotlib Colormap, default="Blues"
            Colormap of ``kind="hexbin"``.

        Returns
        -------
        display : PosteriorSimplexDisplay
            The object itself, with ``figure_``, ``ax_``, ``triangle_``,
            ``region_lines_``, ``points_``, ``corner_texts_``,
            ``probability_texts_``, ``probabilities_`` and ``n_drawn_`` set.
        """
        check_matplotlib_support("PosteriorSimplexDisplay.plot")
        import matplotlib.pyplot as plt

        if kind not in _KINDS:
            raise ValueError(
                f"kind must be one of {', '.join(map(repr, _KINDS))}; got {kind!r}."
            )
        if isinstance(max_points, bool) or not (
            isinstance(max_points, Integral) and max_points >= 1
        ):
            raise ValueError(f"max_points must be an integer >= 1; got {max_points!r}.")
        samples, (name_a, name_b), probabilities = self._check()
        if len(samples) > max_points:
            rng = np.random.default_rng(0)
            keep = np.sort(rng.choice(len(samples), size=max_points, replace=False))
            samples = samples[keep]

        if ax is None:
            _, ax = plt.subplots(figsize=(5, 4.6), layout="constrained")
        fig = ax.figure

        x, y = _project(samples)
        if kind == "scatter":
            region = np.argmax(samples, axis=1)
            colors = np.array(_COLORS, dtype=object)[region]
            self.points_ = ax.scatter(
                x, y, s=6, c=list(colors), alpha=0.25, linewidths=0, zorder=2
            )
        else:
            self.points_ = ax.hexbin(
                x,
                y,
                gridsize=40,
                extent=(0, 1, 0, _HEIGHT),
                mincnt=1,
                cmap=cmap,
                zorder=2,
            )

        line = {"color": "black", "linewidth": 1.0, "zorder": 3}
        (self.triangle_,) = ax.plot([0, 1, 0.5, 0], [0, 0, _HEIGHT, 0], **line)
        centre = np.array([[1 / 3, 1 / 3, 1 / 3]])
        middles = np.array([[0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]])
        cx, cy = _project(centre)
        mx, my = _project(middles)
        self.region_lines_ = [
            ax.plot([cx[0], x_m], [cy[0], y_m], linestyle="--", **line)[0]
            for x_m, y_m in zip(mx, my)
        ]

        corners = ((0.0, 0.0), (0.5, _HEIGHT), (1.0, 0.0))
        labels = (name_a, "rope", name_b)
        corner_texts, probability_texts = [], []
        for (cx_, cy_), label, p, color in zip(corners, labels, probabilities, _COLORS):
            top = cy_ > 0
            offset = 14 if top else -6
            common = {
                "xy": (cx_, cy_),
                "xycoords": "data",
                "textcoords": "offset points",
                "ha": "center",
                "annotation_clip": False,
            }
            # Above the top corner: the probability, then the name above
            # it; below a bottom corner: the name, then the probability.
            corner_texts.append(
                ax.annotate(
                    label,
                    xytext=(0, offset + 12 if top else offset),
                    va="bottom" if top else "top",
                    fontweight="bold",
                    color="black",
                    **common,
                )
            )
            probability_texts.append(
                ax.annotate(
                    f"P = {probability(p)}",
                    xytext=(0, offset - 2 if top else offset - 14),
                    va="bottom" if top else "top",
                    fontsize="small",
                    color="black",
                    **common,
                )
            )
            ax.plot([cx_], [cy_], "o", color=color, markersize=6, zorder=4)

        ax.set_xlim(-0.12, 1.12)
        ax.set_ylim(-0.16, _HEIGHT + 0.17)
        ax.set_aspect("equal")
        ax.set_axis_off()
        rope = "" if self.rope is None else f" (rope = {self.rope:g})"
        title = f"Posterior of {name_a} vs {name_b}{rope}"
        if len(str(name_a)) + len(str(name_b)) > 16:  # long names: two lines
            title = f"Posterior of {name_a}\nvs {name_b}{rope}"
        # Above the labels of the top corner, which sit outside the triangle
        # at a distance in points (not in data units).
        ax.set_title(title, fontsize="medium", pad=14)

        self.corner_texts_ = tuple(corner_texts)
        self.probability_texts_ = tuple(probability_texts)
        self.probabilities_ = tuple(probabilities)
        self.n_drawn_ = len(samples)
        self.figure_, self.ax_ = fig, ax
        return self

    @classmethod
    def from_test_result(cls, test_result, *, names=("A", "B"), ax=None, **plot_kwargs):
        """Plot the posterior of a Bayesian test across data sets.

        Parameters
        ----------
        test_result : Bunch
            Returned by :func:`~sklearn_bcv.stats.bayesian_signed_rank`,
            :func:`~sklearn_bcv.stats.bayesian_sign` or
            :func:`~sklearn_bcv.stats.bayesian_hierarchical` (the masses of
            its Student t of data-set differences, one point per posterior
            draw): its ``samples`` (of
            shape (n_samples, 3)), ``p_a_better``, ``p_rope``,
            ``p_b_better`` and ``rope`` are read.
        names : tuple of str, default=("A", "B")
            Names of A and B.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        **plot_kwargs : dict
            Passed to :meth:`plot` (``kind``, ``max_points``, ``cmap``).

        Returns
        -------
        display : PosteriorSimplexDisplay
            The drawn display.
        """
        display = cls(
            _samples_of(test_result, "test_result"),
            names=pair_names(names, name="names"),
            probabilities=_probabilities_of(test_result),
            rope=test_result.get("rope", None),
        )
        return display.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_result(
        cls,
        result,
        name_a,
        name_b,
        *,
        test="bayesian_signed_rank",
        ax=None,
        **plot_kwargs,
    ):
        """Plot the posterior of a pair in a comparison across data sets.

        Parameters
        ----------
        result : Bunch
            Returned by :func:`~sklearn_bcv.benchmark` or
            :func:`~sklearn_bcv.compare_scores` with a Bayesian pairwise
            test: ``result.pairwise[test].results[(name_a, name_b)]`` is
            read (or the pair the other way round, whose posterior is then
            mirrored).
        name_a, name_b : str
            The two estimators, A and B, among ``result.names``.
        test : str, default="bayesian_signed_rank"
            A Bayesian pairwise test of the result (``"bayesian_signed_rank"``,
            ``"bayesian_sign"`` or ``"bayesian_hierarchical"``).
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        **plot_kwargs : dict
            Passed to :meth:`plot` (``kind``, ``max_points``, ``cmap``).

        Returns
        -------
        display : PosteriorSimplexDisplay
            The drawn display.
        """
        check_result(
            result, ("names",), owner="PosteriorSimplexDisplay", source="datasets"
        )
        names = [str(name) for name in result["names"]]
        for argument, name in (("name_a", name_a), ("name_b", name_b)):
            if name not in names:
                raise ValueError(
                    f"{argument} must be one of the names of the result {names}; "
                    f"got {name!r}."
                )
        if name_a == name_b:
            raise ValueError(
                f"name_a and name_b must be two different estimators; got {name_a!r} "
                "twice."
            )
        pairwise = result.get("pairwise", None) or {}
        with_samples = [
            name
            for name, table in pairwise.items()
            if any(
                run.get("samples", None) is not None
                for run in (table.get("results", None) or {}).values()
            )
        ]
        if with_samples:
            which = f"one of the result's Bayesian pairwise tests {with_samples}"
        else:
            which = (
                "the result has none: run it with pairwise_tests including "
                "bayesian_signed_rank, bayesian_sign or bayesian_hierarchical"
            )
        if test not in pairwise:
            raise ValueError(
                "test must be a pairwise test of the result with posterior "
                f"samples, {which}; got {test!r}."
            )
        if test not in with_samples:
            raise ValueError(
                f"test {test!r} has no posterior samples to plot; give {which}."
            )
        runs = pairwise[test]["results"]
        if (name_a, name_b) in runs:
            run, mirrored = runs[(name_a, name_b)], False
        elif (name_b, name_a) in runs:
            run, mirrored = runs[(name_b, name_a)], True
        else:
            raise ValueError(
                f"result.pairwise[{test!r}] has no result for the pair "
                f"({name_a!r}, {name_b!r}) (with a control, only the pairs with "
                "the control are tested)."
            )
        samples = _samples_of(run, f"result.pairwise[{test!r}].results")
        probabilities = _probabilities_of(run)
        if mirrored:
            samples = np.asarray(samples)[:, ::-1]
            if probabilities is not None:
                probabilities = probabilities[::-1]
        display = cls(
            samples,
            names=(name_a, name_b),
            probabilities=probabilities,
            rope=run.get("rope", None),
        )
        return display.plot(ax=ax, **plot_kwargs)


def _samples_of(test_result, what):
    samples = test_result.get("samples", None)
    if samples is None:
        raise ValueError(
            f"{what} has no posterior samples ('samples'); it must come from a "
            "Bayesian test across data sets (bayesian_signed_rank, bayesian_sign, "
            "bayesian_hierarchical)."
        )
    return samples


def _probabilities_of(test_result):
    """``(p_a_better, p_rope, p_b_better)`` when all three are given."""
    fields = ("p_a_better", "p_rope", "p_b_better")
    values = [test_result.get(field, None) for field in fields]
    if any(value is None for value in values):
        return None
    return tuple(float(value) for value in values)
