"""The result of a sequential m×2 BCV comparison and its text."""

import numpy as np
from sklearn.utils import Bunch

from ._document import DocumentMixin
from ._text import format_number, text_table
from ._verdict import check_show

__all__ = ["SequentialResult", "look_labels"]

#: The fields of a sequential trace, one value per look (and the
#: columns of its CSV table).
TRACE_FIELDS = (
    "repeats",
    "statistic",
    "lower",
    "upper",
    "estimate",
    "low",
    "high",
    "conditional_power",
    "decision",
)
_CODES = {
    0: "continue",
    1: "A better",
    -1: "B better",
    2: "no difference",
    3: "no difference found (futility)",
}


def look_labels(trace):
    """What happened at each look: "continue", or the decision at the stop
    ("undecided" at a last look that crossed nothing)."""
    labels = [_CODES[int(code)] for code in trace.decision]
    if labels and labels[-1] == "continue":
        labels[-1] = "undecided"
    return labels


class SequentialResult(DocumentMixin, Bunch):
    """The result of :func:`~sklearn_bcv.sequential_compare`.

    A :class:`~sklearn.utils.Bunch` with fixed fields, listed here once
    (an unknown field is a ``TypeError``). Printing it shows the looks
    taken, the boundaries and the decision; ``comparison`` holds the
    fixed-design tests on the same fits (not sequentially adjusted);
    :meth:`to_dict` and :meth:`to_json` give it as a JSON-safe document.

    Attributes
    ----------
    decision : str
        ``"A better"``, ``"B better"``, ``"no difference"``, ``"no
        difference found (futility)"`` or ``"undecided"``.
    n_repeats, min_repeats, max_repeats : int
        Repetitions taken, and the least and most allowed.
    trace : Bunch
        One entry per look: ``repeats``, ``statistic``, ``lower``,
        ``upper``, ``estimate``, ``low``, ``high`` (an interval not
        sequentially adjusted), ``conditional_power`` and ``decision``.
    boundaries : Bunch
        The group-sequential boundaries and their constants.
    n_fits, n_fits_saved : int
        Fits made, and fits saved against ``max_repeats``.
    comparison : ComparisonResult
        The fixed-design tests on the same fits (not sequentially adjusted).
    test : str
        The look statistic's test.
    test_params : dict
        Its parameters.
    statistic_reference : str
        ``"t"`` or ``"normal"``.
    boundary : str
        ``"pocock"`` or ``"obrien_fleming"``.
    alpha : float
        Overall significance level.
    alternative : str
        The alternative.
    rope : float
        Region of practical equivalence.
    futility : str or None
        The futility rule.
    futility_threshold : float or None
        Its threshold of conditional power.
    cv : cross-validator
        The splitter of the repetitions.
    estimate : float
        The mean difference at the last look.
    confidence_interval : tuple of float
        Its interval at the last look, not sequentially adjusted.
    """

    _FIELDS = (
        "decision",
        "n_repeats",
        "min_repeats",
        "max_repeats",
        "trace",
        "boundaries",
        "n_fits",
        "n_fits_saved",
        "comparison",
        "test",
        "test_params",
        "statistic_reference",
        "boundary",
        "alpha",
        "alternative",
        "rope",
        "futility",
        "futility_threshold",
        "cv",
        "estimate",
        "confidence_interval",
    )

    @classmethod
    def build(
        cls,
        *,
        decision,
        n_repeats,
        min_repeats,
        max_repeats,
        trace,
        bounds,
        lower,
        upper,
        comparison,
        test,
        test_params,
        rope,
        statistic_reference,
        cv,
        futility=None,
        futility_threshold=None,
    ):
        """Assemble the result from the looks taken and the boundaries."""
        n_fits = 4 * n_repeats
        return cls(
            decision=decision,
            n_repeats=n_repeats,
            min_repeats=min_repeats,
            max_repeats=max_repeats,
            trace=Bunch(**{key: np.asarray(trace[key]) for key in TRACE_FIELDS}),
            boundaries=Bunch(
                repeats=bounds.repeats,
                lower=lower,
                upper=upper,
                nominal_alpha=bounds.nominal_alpha,
                constant=bounds.constant,
                variance_factor=bounds.variance_factor,
                rho1=bounds.rho1,
                rho2=bounds.rho2,
            ),
            n_fits=n_fits,
            n_fits_saved=4 * max_repeats - n_fits,
            comparison=comparison,
            test=test,
            test_params=dict(test_params),
            statistic_reference=statistic_reference,
            boundary=bounds.boundary,
            alpha=bounds.alpha,
            alternative=bounds.alternative,
            rope=rope,
            futility=futility,
            futility_threshold=futility_threshold,
            cv=cv,
            estimate=float(trace["estimate"][-1]),
            confidence_interval=(float(trace["low"][-1]), float(trace["high"][-1])),
        )

    def to_frame(self):
        """The looks taken as a :class:`pandas.DataFrame`, one row per look.

        Columns ``repeats``, ``statistic``, ``lower``, ``upper``,
        ``estimate``, ``low``, ``high``, ``conditional_power`` and
        ``decision`` (text). Needs pandas.

        Returns
        -------
        frame : pandas.DataFrame
        """
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - depends on the machine
            raise ImportError("to_frame needs pandas: pip install pandas") from exc
        frame = pd.DataFrame({key: self.trace[key] for key in TRACE_FIELDS})
        frame["decision"] = look_labels(self.trace)
        return frame

    def _summary_text(self, show):
        return format_sequential_summary(self, show=show)


def _boundary_name(result):
    name = {"pocock": "Pocock", "obrien_fleming": "O'Brien-Fleming"}
    return name[result.boundary]


def format_sequential_summary(result, *, show="default", where="python"):
    """The printed summary; ``where="cli"`` names what a command-line user
    has (``--format json``) rather than ``result.comparison``."""
    check_show(show)
    comparison = result.comparison
    names = comparison.get("estimator_names")
    who = f"A = {names[0]} and B = {names[1]}" if names else "A and B"
    scale = "t(2m - 1)" if result.statistic_reference == "t" else "normal"
    lines = [
        f"Sequential comparison of {who}, {comparison.design.n_samples} records",
        f"test: {result.test} ({scale} look statistic), {_boundary_name(result)} "
        f"boundaries, alpha={result.alpha}, alternative={result.alternative!r}"
        + (f", rope={result.rope:g}" if result.rope > 0 else "")
        + (
            f", futility: conditional power < {result.futility_threshold:g}"
            if result.get("futility")
            else ""
        ),
    ]
    trace = result.trace
    rows = [
        (
            str(int(m)),
            format_number(float(stat)),
            format_number(float(low)),
            format_number(float(high)),
            f"[{format_number(float(a))}, {format_number(float(b))}]",
            format_number(float(power)),
            label,
        )
        for m, stat, low, high, a, b, power, label in zip(
            trace.repeats,
            trace.statistic,
            trace.lower,
            trace.upper,
            trace.low,
            trace.high,
            trace.conditional_power,
            look_labels(trace),
        )
    ]
    header = (
        "m",
        "statistic",
        "lower",
        "upper",
        "interval (A - B)*",
        "cond. power",
        "look",
    )
    lines += text_table(header, rows, right_aligned=(0, 1, 2, 3, 5))
    lines.append(
        f"Decision: {result.decision} after {result.n_repeats} of at most "
        f"{result.max_repeats} repetitions ({result.n_fits} fits, "
        f"{result.n_fits_saved} saved)."
    )
    lines.append(
        "* not sequentially adjusted: an interval excluding 0 at a look is not "
        "a decision; the boundaries decide."
    )
    lines.append(
        "The fixed-design tests on these fits ("
        + (
            "fixed_design_tests of --format json"
            if where == "cli"
            else "result.comparison"
        )
        + ") are not sequentially adjusted either."
    )
    return "\n".join(lines)
