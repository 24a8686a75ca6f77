"""What a result across data sets says of its holes, its runs and its
replicability count: lines of the summary, sentences and a table of the
report, rows of the CSV table.

Read from the result's ``missing``, ``runs`` and ``replicability`` fields
(:class:`~sklearn_bcv.BenchmarkResult`); a result without them (an older
document, a table without holes) says nothing more.
"""

import numpy as np

from ..stats._replicability import REFERENCES as REPLICABILITY_REFERENCES
from ._blocks import Heading, Paragraph, Table, Text, alpha_is, count, names_list

__all__ = [
    "csv_rows",
    "holes_sentences",
    "replicability_blocks",
    "replicability_lines",
    "run_sd",
    "summary_lines",
]

#: How many cells, data sets or pairs a line names before "and N more".
SHOWN = 10

_METHOD_NAMES = {
    "bonferroni": "Bonferroni's combination, valid whatever the dependence "
    "between the data sets",
    "fisher": "Fisher's combination, which assumes independent data sets",
}

_TEST_NAMES = {
    "corrected_t": "the corrected t test of its cross-validation splits "
    "(Nadeau & Bengio 2003)",
    "paired_t": "the paired t test of its runs",
}


def _listed(items, shown=SHOWN):
    items = [str(item) for item in items]
    if len(items) <= shown:
        return ", ".join(items)
    return f"{', '.join(items[:shown])} and {len(items) - shown} more"


def _by_dataset(cells):
    """``"d4: B; d7: A, C"`` of ``[[data set, estimator], ...]``."""
    grouped = {}
    for dataset, estimator in cells:
        grouped.setdefault(dataset, []).append(estimator)
    parts = [f"{d}: {', '.join(e)}" for d, e in grouped.items()]
    shown = "; ".join(parts[:SHOWN])
    more = len(parts) - SHOWN
    return shown + (f"; and {more} more data sets" if more > 0 else "")


def run_sd(runs):
    """The sd (ddof 1) of each cell's finite runs, (n_datasets, k); NaN
    where a cell has fewer than two."""
    runs = np.asarray(runs, dtype=float)
    finite = ~np.isnan(runs)
    n = finite.sum(axis=2)
    filled = np.where(finite, runs, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = filled.sum(axis=2) / n
        squares = np.where(finite, (runs - mean[..., None]) ** 2, 0.0).sum(axis=2)
        return np.where(n > 1, np.sqrt(squares / (n - 1)), np.nan)


def _holes(result):
    """``(mode, cells, dropped)`` of the result's holes, or None."""
    missing = result.get("missing")
    if not missing or not missing.get("cells"):
        return None
    return missing.get("mode"), missing.get("cells"), missing.get("dropped") or []


def _failed_fits(result):
    return result.get("failed_fits") is not None


def summary_lines(result):
    """The summary's lines on the holes and the runs (before the verdict)."""
    lines = []
    holes = _holes(result)
    if holes is not None:
        mode, cells, dropped = holes
        what = "fits failed in" if _failed_fits(result) else "missing scores:"
        n = len(cells)
        head = (
            f"{count(n, 'cell')} {what} {_by_dataset(cells)}"
            if _failed_fits(result)
            else f"{what} {n} ({_by_dataset(cells)})"
        )
        if mode == "drop" and dropped:
            lines.append(
                f"{head}; left out {count(len(dropped), 'data set')} with a hole "
                f"(missing='drop'): {_listed(dropped)}"
            )
        elif mode == "skillings_mack":
            lines.append(
                f"{head}; kept (missing='skillings_mack'): each data set ranks the "
                "estimators it has, each pair is compared on the data sets both "
                "have"
            )
    runs = result.get("runs")
    if runs:
        n_runs = np.asarray(runs.get("n_runs"))
        low, high = int(n_runs[n_runs > 0].min()), int(n_runs.max())
        spread = f"{low}" if low == high else f"{low} to {high}"
        how = (
            "independent runs"
            if runs.get("correlation") == 0
            else "runs correlated as cross-validation splits of the sizes given"
        )
        lines.append(
            f"{spread} runs per cell ({how}): ranks and rank tests on each cell's "
            "mean, the tests of split differences on the runs"
        )
    return lines


def replicability_lines(result):
    """The summary's lines on the replicability count (after the verdict)."""
    found = result.get("replicability")
    if not found:
        return []
    names = list(result.names)
    level = found.get("level")
    sides = "each way" if found.get("alternative") == "two-sided" else "one-sided"
    tests = ", ".join(found.get("tests") or []) or "none"
    lines = [
        f"Replicability ({found.get('method')} partial conjunctions at "
        f"{level:g} {sides}; per-data-set test: {tests}): on how many data sets "
        "each estimator is better"
    ]
    better = []
    for (a, b), one in found.get("results", {}).items():
        for key, first, second in (("a_better", a, b), ("b_better", b, a)):
            side = one.get(key)
            if side is not None and side.get("count"):
                better.append((first, second, side, one.get("n_datasets")))
    if not better:
        lines.append("  no estimator is better than another on any data set")
        return lines
    width = max(len(first) for first, *_ in better)
    for first, second, side, n in sorted(
        better, key=lambda item: (names.index(item[0]), names.index(item[1]))
    ):
        order = {d: i for i, d in enumerate(result.datasets)}
        which = sorted(side.get("identified_datasets") or [], key=order.get)
        lines.append(
            f"  {first:<{width}} > {second}: on at least {side.get('count')} of "
            f"{n} ({_listed(which)})"
        )
    return lines


def holes_sentences(result):
    """The methods' sentences on holes and runs (``[]`` without them)."""
    sentences = []
    holes = _holes(result)
    if holes is not None:
        mode, cells, dropped = holes
        where = "had a failed fit" if _failed_fits(result) else "had no score"
        if mode == "drop":
            sentences.append(
                f"{count(len(cells), 'cell')} {where} ({_by_dataset(cells)}); the "
                f"{count(len(dropped), 'data set')} with one "
                f"({_listed(dropped)}) were left out."
            )
        elif mode == "skillings_mack":
            left = "was" if len(cells) == 1 else "were"
            sentences.append(
                f"{count(len(cells), 'cell')} {where} ({_by_dataset(cells)}) and "
                f"{left} left empty: each data set ranked the estimators it scored "
                "(the mean ranks average over the data sets that score each "
                "estimator, and ranks among fewer estimators are smaller), the "
                "rank tests were those of a table with missing values, and each "
                "pair was compared on the data sets both have."
            )
    runs = result.get("runs")
    if runs:
        n_runs = np.asarray(runs.get("n_runs"))
        sentences.append(
            f"Each estimator was run {int(n_runs.max())} times on each data set"
            + (
                f" ({int(n_runs[n_runs > 0].min())} at least, where runs failed)"
                if int(n_runs[n_runs > 0].min()) != int(n_runs.max())
                else ""
            )
            + "; the scores are the means of the runs, and the tests of split "
            "differences took the runs "
            + (
                "as independent replicates (correlation 0)."
                if runs.get("correlation") == 0
                else "as cross-validation splits of the sizes given."
            )
        )
    return sentences


def replicability_blocks(result, bibliography):
    """The report's section on the replicability count: a paragraph saying
    how it was computed, and a table of the pairs that differ on at least
    one data set."""
    found = result.get("replicability")
    if not found:
        return []
    names = list(result.names)
    cite = bibliography.cite(REPLICABILITY_REFERENCES)
    tests = [_TEST_NAMES.get(t, f"the {t} test") for t in found.get("tests") or []]
    two_sided = found.get("alternative") == "two-sided"
    level = found.get("level")
    paragraph = Text(
        "On how many data sets is one estimator better than another? Each pair "
        f"was tested on each data set alone ({' or '.join(tests) or 'no test'}), "
        "one-sided "
        + ("each way" if two_sided else "in the direction of the alternative")
        + ", and the counts are partial conjunction tests "
        f"({_METHOD_NAMES.get(found.get('method'), found.get('method'))}; {cite}) "
        f"at {level:g}"
        + (" each way (so at " if two_sided else " (")
        + f"{found.get('alpha'):g} in all): with probability at least "
        f"{1 - found.get('alpha'):g}, the first estimator is better on at least "
        "the number of data sets shown. The data sets named are those Holm's "
        "procedure identifies at the same level. Each pair is a claim of its own "
        "(not corrected for the number of pairs).",
    )
    rows = []
    for (a, b), one in found.get("results", {}).items():
        for key, first, second in (("a_better", a, b), ("b_better", b, a)):
            side = one.get(key)
            if side is None or not side.get("count"):
                continue
            rows.append(
                [
                    first,
                    second,
                    str(side.get("count")),
                    str(one.get("n_datasets")),
                    _listed(
                        sorted(
                            side.get("identified_datasets") or [],
                            key=list(result.datasets).index,
                        )
                    ),
                ]
            )
    rows.sort(key=lambda row: (names.index(row[0]), names.index(row[1])))
    blocks = [Heading("Replicability"), Paragraph(paragraph)]
    if rows:
        blocks.append(
            Table(
                ["better", "than", "on at least", "of", "data sets identified"],
                rows,
                caption=Text(
                    "On how many data sets the first estimator is better (partial "
                    "conjunctions at ",
                    alpha_is(found.get("alpha")),
                    " in all).",
                ),
                label="replicability",
                label_columns=2,
            )
        )
    else:
        blocks.append(
            Paragraph(
                f"No estimator is better than another on any of the "
                f"{count(len(result.datasets), 'data set')} by this count "
                f"({names_list(names)} compared)."
            )
        )
    return blocks


def csv_rows(result):
    """The CSV rows of the replicability count (section ``replicability``):
    one per pair and direction with a count above 0."""
    found = result.get("replicability")
    if not found:
        return []
    rows = []
    for (a, b), one in found.get("results", {}).items():
        for key, first, second in (("a_better", a, b), ("b_better", b, a)):
            side = one.get(key)
            if side is None:
                continue
            rows.append(
                {
                    "section": "replicability",
                    "test": f"replicability ({found.get('method')})",
                    "estimator_a": first,
                    "estimator_b": second,
                    "count": side.get("count"),
                    "n_datasets": one.get("n_datasets"),
                    "datasets_identified": "; ".join(
                        side.get("identified_datasets") or []
                    ),
                }
            )
    return rows
