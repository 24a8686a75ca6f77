"""The result of a sequential m×2 BCV comparison and its content
(summary, report, CSV table)."""

import numpy as np
from sklearn.utils import Bunch

from ..stats._references import BOUNDARY_REFERENCES, SPLITTER_REFERENCES
from ..stats._sequential import DECISIONS, STOPPED_BY
from ._blocks import Figure, Heading, Paragraph, Table, Text, alpha_is, fixed
from ._document import DocumentMixin, to_plain
from ._methods import (
    Bibliography,
    estimators_sentence,
    seed_text,
    tests_blocks,
    tests_items,
    version_sentence,
)
from ._text import format_number, join_lines, text_table
from ._verdict import check_show

__all__ = [
    "SEQUENTIAL_CSV",
    "SequentialResult",
    "TRACE_FIELDS",
    "look_labels",
    "look_rows",
]

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

#: The columns of a sequential result's CSV table: the trace's fields, and
#: why the design stopped (on the last look's row).
SEQUENTIAL_CSV = (*TRACE_FIELDS, "stopped_by")

#: Why the design stopped, in a sentence.
_STOPPED_BY_TEXT = {
    "boundary": "the statistic crossed a boundary",
    "rope": "the interval of the difference lies inside the rope",
    "futility": "crossing a boundary had become unlikely (futility)",
    "max_repeats": "the last repetition crossed nothing",
}


def look_labels(trace):
    """What happened at each look: "continue", or the decision at the stop
    ("undecided" at a last look that crossed nothing)."""
    codes = [int(code) for code in trace.decision]
    labels = [DECISIONS[code] if code else "continue" for code in codes]
    if labels and labels[-1] == "continue":
        labels[-1] = "undecided"
    return labels


def look_stops(trace):
    """Why the design stopped, on the last look; None on the others."""
    codes = [int(code) for code in trace.decision]
    return [None] * (len(codes) - 1) + [STOPPED_BY[codes[-1]]] if codes else []


def look_rows(result):
    """One dict per look taken (the rows of the CSV table and of the
    command line's JSON ``looks``); infinite boundaries (one-sided) are
    None."""
    rows = []
    trace = result.trace
    for i, (label, stop) in enumerate(zip(look_labels(trace), look_stops(trace))):
        row = {key: to_plain(trace[key][i]) for key in TRACE_FIELDS[:-1]}
        row["repeats"] = int(row["repeats"])
        row["decision"] = label
        row["stopped_by"] = stop
        rows.append(row)
    return rows


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
        ``"A better"``, ``"B better"``, ``"no difference"`` or
        ``"undecided"``.
    stopped_by : str
        Why the design stopped: ``"boundary"``, ``"rope"``, ``"futility"``
        or ``"max_repeats"``.
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
    provenance : Bunch or None
        How the result was made, for the methods of its report:
        ``version``, ``estimators`` (A and B: the class and the parameters
        it changes), ``cv``, ``random_state`` and ``given`` (None).
    """

    _FIELDS = (
        "decision",
        "stopped_by",
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
        "provenance",
    )

    @classmethod
    def build(
        cls,
        *,
        decision,
        stopped_by,
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
        provenance=None,
    ):
        """Assemble the result from the looks taken and the boundaries."""
        n_fits = 4 * n_repeats
        return cls(
            decision=decision,
            stopped_by=stopped_by,
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
            provenance=provenance,
        )

    def to_frame(self):
        """The looks taken as a :class:`pandas.DataFrame`, one row per look.

        Columns ``repeats``, ``statistic``, ``lower``, ``upper``,
        ``estimate``, ``low``, ``high``, ``conditional_power``,
        ``decision`` (text) and ``stopped_by`` (why the design stopped, on
        the last look; None on the others). Needs pandas.

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
        frame["stopped_by"] = look_stops(self.trace)
        return frame

    # ---- content ---------------------------------------------------------

    def _summary_text(self, show):
        return format_sequential_summary(self, show=show)

    def _report_blocks(self):
        return _report_blocks(self)

    def _report_figures(self):
        return [
            Figure(
                "The look statistic against the boundaries.",
                "SequentialDisplay",
                self,
                label="looks",
            )
        ]

    def _csv_table(self):
        """One row per look."""
        return SEQUENTIAL_CSV, look_rows(self)


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
        f"{result.n_fits_saved} saved); stopped by {result.stopped_by}: "
        f"{_STOPPED_BY_TEXT[result.stopped_by]}."
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
    return join_lines(lines)


# --------------------------------------------------------------------------
# The report


def _report_blocks(result):
    comparison = result.comparison
    names = comparison.get("estimator_names") or ("A", "B")
    provenance = result.get("provenance") or comparison.get("provenance") or {}
    bibliography = Bibliography()
    boundaries = bibliography.cite(BOUNDARY_REFERENCES.get(result.boundary, ()))
    splitter = bibliography.cite(SPLITTER_REFERENCES.get("bcv", ()))
    how = "; ".join(
        part
        for part in (
            provenance.get("cv") or repr(result.get("cv")),
            seed_text(provenance) if provenance else None,
            splitter,
        )
        if part
    )
    compared = Text(
        f"Estimators A = {names[0]} and B = {names[1]} were compared "
        f"sequentially on {comparison.design.n_samples} records by "
        f"{result.test}, with {_boundary_name(result)} boundaries "
        f"({boundaries}) at ",
        alpha_is(result.alpha),
        f" ({result.alternative}), looking after each repetition of 2-fold CV "
        f"from {result.min_repeats} to at most {result.max_repeats} repetitions "
        f"({how}).",
    )
    if result.rope:
        compared += f" Region of practical equivalence: ±{result.rope:g}."
    if result.get("futility"):
        compared += (
            " Futility: stop when the conditional power falls below "
            f"{result.futility_threshold:g}."
        )
    if provenance.get("estimators"):
        compared += " " + estimators_sentence(["A", "B"], provenance)
    compared += f" Scoring {comparison.scoring}. " + version_sentence(provenance)
    sentence = (
        f"The sequential test stopped after {result.n_repeats} repetitions "
        f"({result.n_fits} fits, {result.n_fits_saved} saved) with the decision: "
        f"{result.decision} (stopped by {result.stopped_by}: "
        f"{_STOPPED_BY_TEXT[result.stopped_by]})."
    )
    trace = result.trace
    rows = [
        (
            str(int(m)),
            fixed(float(s), 3),
            fixed(float(lo), 3),
            fixed(float(hi), 3),
            fixed(float(p), 3),
            label,
        )
        for m, s, lo, hi, p, label in zip(
            trace.repeats,
            trace.statistic,
            trace.lower,
            trace.upper,
            trace.conditional_power,
            look_labels(trace),
        )
    ]
    blocks = [
        Heading("Methods"),
        Paragraph(compared),
        *tests_blocks(tests_items([result.test], bibliography)),
        Heading("Verdicts"),
        Paragraph(sentence),
        Paragraph(
            "The fixed-design tests on the same fits are not sequentially "
            "adjusted and are not reported here."
        ),
        Heading("Tables"),
        Table(
            ("m", "statistic", "lower", "upper", "cond. power", "look"),
            rows,
            caption="The looks taken and the boundaries ('-': none, one-sided).",
            label="looks",
        ),
    ]
    blocks += result._report_figures()
    blocks += bibliography.blocks()
    return blocks
