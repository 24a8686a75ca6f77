"""Rejection rates, their binomial confidence intervals and the result Bunch."""

from numbers import Integral, Real

import numpy as np
from scipy.stats import binomtest
from sklearn.utils import Bunch

from .._compat import Interval, StrOptions, validate_params

__all__ = ["SimulationResult", "rejection_rate_interval"]

#: Interval methods of :meth:`scipy.stats.BinomTestResult.proportion_ci`.
CI_METHODS = ("wilson", "exact", "wilsoncc")


@validate_params(
    {
        "n_rejections": [Interval(Integral, 0, None, closed="left")],
        "n_repetitions": [Interval(Integral, 1, None, closed="left")],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "method": [StrOptions(set(CI_METHODS))],
    },
    prefer_skip_nested_validation=True,
)
def rejection_rate_interval(
    n_rejections, n_repetitions, *, confidence_level=0.95, method="wilson"
):
    """Confidence interval of a rejection rate estimated by simulation.

    The number of rejections in ``n_repetitions`` independent repetitions is
    Binomial(``n_repetitions``, rate); the interval is computed by
    :meth:`scipy.stats.BinomTestResult.proportion_ci`.

    Parameters
    ----------
    n_rejections : int
        Number of repetitions in which the test rejected.
    n_repetitions : int
        Number of repetitions, at least ``n_rejections``.
    confidence_level : float, default=0.95
        Confidence level of the interval.
    method : {"wilson", "exact", "wilsoncc"}, default="wilson"
        ``"wilson"``: Wilson's score interval (good coverage, never outside
        [0, 1], not degenerate at 0 rejections); ``"exact"``: the
        Clopper-Pearson interval (conservative: coverage at least the
        level); ``"wilsoncc"``: Wilson's interval with continuity correction.

    Returns
    -------
    low, high : float
        The interval's bounds.

    Examples
    --------
    >>> from sklearn_bcv.simulation import rejection_rate_interval
    >>> low, high = rejection_rate_interval(25, 1000)
    >>> round(low, 4), round(high, 4)
    (0.017, 0.0366)
    >>> low, high = rejection_rate_interval(25, 1000, method="exact")
    >>> round(low, 4), round(high, 4)
    (0.0162, 0.0367)
    """
    if n_rejections > n_repetitions:
        raise ValueError(
            f"n_rejections must be at most n_repetitions={n_repetitions}; got "
            f"{n_rejections}."
        )
    ci = binomtest(int(n_rejections), int(n_repetitions)).proportion_ci(
        confidence_level=confidence_level, method=method
    )
    return float(ci.low), float(ci.high)


class SimulationResult(Bunch):
    """Rejection rates of several tests over simulated repetitions.

    A :class:`~sklearn.utils.Bunch` returned by
    :func:`~sklearn_bcv.simulation.simulate_loss_vectors` and
    :func:`~sklearn_bcv.simulation.simulate_comparisons`; its fields are
    documented there. Printing it shows one line per test: the rejection
    rate, its confidence interval and the number of rejections.
    """

    def to_text(self, *, digits=3):
        """The readable table that printing the result shows.

        Parameters
        ----------
        digits : int, default=3
            Decimals of the rates and bounds.

        Returns
        -------
        text : str
        """
        level = f"{100 * self.confidence_level:g}%"
        header = (
            f"Rejection rates over {self.n_repetitions} repetitions "
            f"({self.design}; alpha = {self.alpha:g}; {level} "
            f"{self.ci_method} intervals)"
        )
        width = max([len("test")] + [len(name) for name in self.tests])
        lines = [
            header,
            f"{'test':<{width}}  {'rate':>{digits + 2}}  {level + ' interval':<20}"
            "  rejections",
        ]
        for name in self.tests:
            low, high = self.ci[name]
            interval = f"[{low:.{digits}f}, {high:.{digits}f}]"
            lines.append(
                f"{name:<{width}}  {self.rates[name]:.{digits}f}  {interval:<20}"
                f"  {self.n_rejections[name]}"
            )
        return "\n".join(lines)

    def __repr__(self):
        return self.to_text()

    __str__ = __repr__


def _as_array(values, n_repetitions):
    """Field of per-repetition test results as an array, None if absent."""
    if values is None or any(value is None for value in np.ravel(values)):
        return None
    arr = np.asarray(values)
    return arr.reshape(n_repetitions) if arr.size == n_repetitions else arr


def build_result(
    *,
    rejections,
    pvalues,
    statistics,
    design,
    alpha,
    alternative,
    confidence_level,
    ci_method,
):
    """The :class:`SimulationResult` of per-test rejection arrays."""
    names = list(rejections)
    n_repetitions = len(next(iter(rejections.values()))) if names else 0
    n_rejections = Bunch(**{name: int(np.sum(rejections[name])) for name in names})
    return SimulationResult(
        tests=names,
        rates=Bunch(**{name: n_rejections[name] / n_repetitions for name in names}),
        ci=Bunch(
            **{
                name: rejection_rate_interval(
                    n_rejections[name],
                    n_repetitions,
                    confidence_level=confidence_level,
                    method=ci_method,
                )
                for name in names
            }
        ),
        n_rejections=n_rejections,
        n_repetitions=n_repetitions,
        rejections=Bunch(**rejections),
        pvalues=Bunch(**pvalues),
        statistics=Bunch(**statistics),
        design=design,
        alpha=alpha,
        alternative=alternative,
        confidence_level=confidence_level,
        ci_method=ci_method,
    )
