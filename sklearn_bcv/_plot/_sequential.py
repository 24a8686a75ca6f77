"""The path of a sequential comparison's look statistic against its boundaries."""

import numpy as np

from .._compat import check_matplotlib_support
from ._common import check_result, legend_below, pair_labels, single_axes
from ._validate import check_finite_sequence, check_looks

__all__ = ["SequentialDisplay"]

#: Most looks labelled one tick each; more get about ten integer ticks.
_MAX_TICKS = 30


class SequentialDisplay:
    """The look statistic of a sequential m×2 BCV against its boundaries.

    The boundaries are drawn at every possible look (``min_repeats`` to
    ``max_repeats``); the statistic's path up to the look where fitting
    stopped, and that look marked with the decision. Between the boundaries
    lies the region where fitting goes on.

    Parameters
    ----------
    repeats : array-like of shape (n_looks_taken,)
        The looks taken (repetitions fitted).
    statistic : array-like of shape (n_looks_taken,)
        The look statistic at each of them (positive when A is better).
    boundary_repeats : array-like of shape (n_looks,)
        Every possible look.
    lower, upper : array-like of shape (n_looks,)
        The boundaries at every possible look; ``-inf`` / ``inf`` where a
        one-sided test does not stop. NaN is refused in every array, as are
        more than 1,000 looks (``_validate.MAX_LOOKS``).
    decision : str, default=None
        The decision at the last look taken, written at the stop.
    estimator_names : tuple of str, default=None
        Names of A and B; None means ``("A", "B")``.
    statistic_name : str, default="look statistic"
        The y-axis label.

    Attributes
    ----------
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure
    path_line_ : matplotlib Line2D
        The statistic's path.
    upper_line_, lower_line_ : matplotlib Line2D or None
        The boundaries (None on the side a one-sided test does not stop).
    region_ : matplotlib PolyCollection
        The continuation region between the boundaries.
    stop_marker_ : matplotlib Line2D
        The look where fitting stopped.
    legend_ : matplotlib Legend

    See Also
    --------
    sklearn_bcv.sequential_compare : The comparison this display draws.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_bcv import SequentialDisplay
    >>> display = SequentialDisplay(
    ...     [3, 4], [1.2, 2.4], [3, 4, 5], [-2.2, -2.1, -2.0], [2.2, 2.1, 2.0],
    ...     decision="A better").plot()
    >>> display.path_line_.get_xydata().tolist()
    [[3.0, 1.2], [4.0, 2.4]]
    >>> display.stop_marker_.get_label()
    'stop: A better'
    """

    def __init__(
        self,
        repeats,
        statistic,
        boundary_repeats,
        lower,
        upper,
        *,
        decision=None,
        estimator_names=None,
        statistic_name="look statistic",
    ):
        self.repeats = repeats
        self.statistic = statistic
        self.boundary_repeats = boundary_repeats
        self.lower = lower
        self.upper = upper
        self.decision = decision
        self.estimator_names = estimator_names
        self.statistic_name = statistic_name

    def _checked(self):
        repeats = check_finite_sequence(self.repeats, name="repeats")
        statistic = check_finite_sequence(self.statistic, name="statistic")
        looks = check_finite_sequence(self.boundary_repeats, name="boundary_repeats")
        lower = check_finite_sequence(self.lower, name="lower", allow_inf=True)
        upper = check_finite_sequence(self.upper, name="upper", allow_inf=True)
        if repeats.ndim != 1 or not len(repeats) or statistic.shape != repeats.shape:
            raise ValueError(
                "repeats and statistic must be non-empty 1-D arrays of one length; "
                f"got shapes {repeats.shape} and {statistic.shape}."
            )
        if looks.ndim != 1 or not (lower.shape == upper.shape == looks.shape):
            raise ValueError(
                "boundary_repeats, lower and upper must be 1-D arrays of one "
                f"length; got shapes {looks.shape}, {lower.shape}, {upper.shape}."
            )
        repeats = check_looks(repeats, name="repeats")
        looks = check_looks(looks, name="boundary_repeats")
        outside = np.setdiff1d(repeats, looks)
        if outside.size:
            raise ValueError(
                f"repeats must be among the possible looks boundary_repeats "
                f"{looks.tolist()}; got {outside.tolist()} besides."
            )
        if np.any(lower > upper):
            raise ValueError("lower must not exceed upper at any look.")
        if self.decision is not None and not isinstance(self.decision, str):
            raise ValueError(f"decision must be None or a str; got {self.decision!r}.")
        return repeats, statistic, looks, lower, upper

    def plot(self, ax=None):
        """Draw the path and the boundaries.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.

        Returns
        -------
        display : SequentialDisplay
            The object itself, with the attributes set.
        """
        check_matplotlib_support("SequentialDisplay.plot")
        repeats, statistic, looks, lower, upper = self._checked()
        ax, own_figure = single_axes(ax)
        name_a, name_b = pair_labels(self.estimator_names)
        finite = np.concatenate(
            [statistic[np.isfinite(statistic)], lower[np.isfinite(lower)]]
        )
        finite = np.concatenate([finite, upper[np.isfinite(upper)], [0.0]])
        span = max(np.ptp(finite), 1.0)
        bottom, top = finite.min() - 0.25 * span, finite.max() + 0.25 * span
        self.region_ = ax.fill_between(
            looks,
            np.clip(lower, bottom, top),
            np.clip(upper, bottom, top),
            color="0.92",
            step=None,
            label="continue fitting",
        )
        self.upper_line_ = self._boundary(ax, looks, upper, "tab:green", "A better")
        self.lower_line_ = self._boundary(ax, looks, lower, "tab:red", "B better")
        ax.axhline(0.0, color="black", linewidth=0.8)
        (self.path_line_,) = ax.plot(
            repeats, statistic, "o-", color="black", label="statistic"
        )
        label = f"stop: {self.decision}" if self.decision else "last look"
        (self.stop_marker_,) = ax.plot(
            repeats[-1:],
            np.clip(statistic[-1:], bottom, top),
            "*",
            markersize=16,
            color="tab:orange",
            label=label,
            zorder=3,
        )
        ax.set_ylim(bottom, top)
        if len(looks) <= _MAX_TICKS:
            ax.set_xticks(looks)
        else:  # one tick per look would be thousands of labels
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True))
        ax.set_xlim(looks.min() - 0.5, looks.max() + 0.5)
        ax.set_xlabel("repetitions fitted (m)")
        ax.set_ylabel(self.statistic_name)
        title = f"A = {name_a}, B = {name_b}"
        if self.decision:
            title += f"\n{self.decision} after {int(repeats[-1])} repetitions"
        ax.set_title(title)
        self.legend_ = legend_below(ax, ncol=3, own_figure=own_figure)
        self.figure_, self.ax_ = ax.figure, ax
        return self

    @staticmethod
    def _boundary(ax, looks, values, color, label):
        if not np.all(np.isfinite(values)):
            return None
        (line,) = ax.plot(
            looks, values, "s--", color=color, label=f"boundary ({label})"
        )
        return line

    @classmethod
    def from_result(cls, result, *, estimator_names=None, ax=None):
        """Plot the path of a :func:`~sklearn_bcv.sequential_compare` result.

        Parameters
        ----------
        result : SequentialResult
            Returned by :func:`~sklearn_bcv.sequential_compare`.
        estimator_names : tuple of str, default=None
            Names of A and B; None uses the comparison's estimator names.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.

        Returns
        -------
        display : SequentialDisplay
            The drawn display.
        """
        check_result(
            result,
            ("trace", "boundaries", "decision"),
            owner="SequentialDisplay",
            source="sequential",
        )
        if estimator_names is None:
            estimator_names = result.get("comparison", {}).get("estimator_names")
        scale = "t" if result.get("statistic_reference") == "t" else "z"
        display = cls(
            result.trace.repeats,
            result.trace.statistic,
            result.boundaries.repeats,
            result.boundaries.lower,
            result.boundaries.upper,
            decision=result.decision,
            estimator_names=estimator_names,
            statistic_name=f"{result.get('test', 'look')} statistic ({scale})",
        )
        return display.plot(ax=ax)
