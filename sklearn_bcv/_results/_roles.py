"""What the result of a test across estimators says, by the test's role.

A test of k estimators on one data set, or across data sets, is declared
with a role (``role`` of :func:`~sklearn_bcv.register_test`): an omnibus
test, a post hoc family, a test of one pair at a time, or a ranking that
decides nothing. The sentences of each role are written here, once, for
:class:`ManyComparisonResult` and :class:`BenchmarkResult`, from the
test's declarations (its ``display_name``, ``statistic_label``,
``bayesian``); a test may instead bring its own wording through its
``content`` hook (:func:`hooked_content`), which needs no change here nor
in the result classes.
"""

import numpy as np
from sklearn.utils import Bunch

from ..stats._ranks import critical_difference
from ..stats._registry import declaration
from ._blocks import Table, article, capital, count, num
from ._rows import TEST_COLUMNS, undefined_note
from ._text import text_table
from ._verdict import is_bayesian

__all__ = [
    "Contribution",
    "hooked_content",
    "omnibus_sentence",
    "pairs_sentence",
    "pairwise_sentence",
    "posthoc_sentence",
    "ranking_content",
    "hook_context",
]


class Contribution:
    """What one test contributes to a result's summary (``summary``: lines),
    report (``sentences``; ``tables``: :class:`~._blocks.Table` blocks) and
    CSV table (``csv_rows``: dicts)."""

    def __init__(self, summary=(), sentences=(), tables=(), csv_rows=()):
        self.summary = [str(line) for line in summary]
        self.sentences = [str(sentence) for sentence in sentences]
        self.tables = list(tables)
        self.csv_rows = [dict(row) for row in csv_rows]


def hook_context(result):
    """The Bunch a ``content`` hook is called with: ``names``, ``alpha``,
    ``alternative``, ``control``, ``greater_is_better`` and ``n_datasets``
    (None on one data set)."""
    datasets = result.get("datasets")
    return Bunch(
        names=list(result.names),
        alpha=result.alpha,
        alternative=result.alternative,
        control=result.get("control"),
        greater_is_better=bool(result.get("greater_is_better", True)),
        n_datasets=None if datasets is None else len(datasets),
    )


def hooked_content(name, test, result):
    """The :class:`Contribution` of ``name``'s own ``content`` hook, checked;
    None when the test declares none (its role's wording applies)."""
    hook = declaration(name).content
    if hook is None:
        return None
    given = hook(name, test, hook_context(result))
    if not isinstance(given, dict):
        raise TypeError(
            f"The content hook of the test {name!r} must return a dict with any "
            f"of 'summary', 'sentences', 'tables' and 'csv_rows'; got {given!r}."
        )
    unknown = sorted(set(given) - {"summary", "sentences", "tables", "csv_rows"})
    if unknown:
        raise TypeError(
            f"The content hook of the test {name!r} returned unknown keys "
            f"{unknown}; it gives 'summary', 'sentences', 'tables' and 'csv_rows'."
        )
    tables = [_hooked_table(name, table) for table in given.get("tables", ())]
    rows = [
        {"section": "test", "test": name, **row} for row in given.get("csv_rows", ())
    ]
    return Contribution(
        given.get("summary", ()), given.get("sentences", ()), tables, rows
    )


def _hooked_table(name, table):
    try:
        return Table(
            table["header"],
            table["rows"],
            caption=table["caption"],
            notes=table.get("notes", ()),
        )
    except (KeyError, TypeError, AttributeError):
        raise TypeError(
            f"The content hook of the test {name!r} gave a table that is not a "
            "dict with 'header', 'rows' (of text cells) and 'caption'; got "
            f"{table!r}."
        ) from None


# --------------------------------------------------------------------------
# The sentences of each role


def omnibus_sentence(name, test, alpha, what):
    """ "A Friedman test rejected equal performance of ``what`` (chi2(3) =
    ..., p = ..., alpha = ...)."""
    entry = declaration(name)
    df = test.get("df")
    stat = num(test.get("statistic"))
    if entry.statistic_label == "chi2" and df is not None:
        shown = f"chi2({num(df)}) = {stat}"
    elif entry.statistic_label == "F" and df is not None:
        shown = f"F{num(tuple(df))} = {stat}"
    elif df is not None:
        shown = f"statistic {stat}, df {num(df)}"
    else:
        shown = f"statistic {stat}"
    outcome = "rejected" if test.get("reject") else "did not reject"
    text = (
        f"{capital(article(entry.title))} {outcome} equal performance "
        f"of {what} ({shown}, p = {num(test.get('pvalue'))}, alpha = {alpha})"
    )
    iman = test.get("iman_davenport")
    if iman is not None:
        text += (
            f"; its Iman-Davenport F form gives F{num(tuple(iman.df))} = "
            f"{num(iman.statistic)}, p = {num(iman.pvalue)}"
        )
    return text + "."


def pairs_sentence(pairs):
    """``"found 2 pairs that differ: a better than b; ..."``."""
    if not pairs:
        return "found no pair that differs"
    shown = "; ".join(f"{a} better than {b}" for a, b in pairs)
    that = "pair that differs" if len(pairs) == 1 else "pairs that differ"
    return f"found {len(pairs)} {that}: {shown}"


def posthoc_sentence(name, test, pairs, alpha, n_datasets):
    """The sentence of a post hoc family: its critical difference or
    correction, and the pairs it separates."""
    details = []
    cd = test.get("critical_difference")
    if cd is not None:
        cd_text = f"critical difference {num(cd, 4)}"
        if test.get("continuity"):
            k = len(np.asarray(test.get("mean_ranks")))
            textbook = critical_difference(k, n_datasets, alpha, name, continuity=False)
            cd_text += (
                ", with a continuity correction of 1/(2N); without it, as in "
                f"Demšar (2006), {num(textbook, 4)}"
            )
        details.append(cd_text)
    correction = test.get("correction")
    if correction:
        details.append(f"{correction} correction")
    shown = f" ({'; '.join(details)})" if details else ""
    return (
        f"{capital(declaration(name).title)}{shown} {pairs_sentence(pairs)} "
        f"at alpha = {alpha}."
    )


def pairwise_sentence(name, table, pairs, alpha):
    """The sentence of a pairwise test: how it decides and the pairs it
    separates."""
    correction = table.get("correction")
    if is_bayesian(name):
        how = (
            "posterior probabilities, a decision when P(better) > 1 - alpha, "
            "not a frequentist test"
        )
        if correction:
            how += f"; {correction} correction"
    elif correction:
        how = f"{correction}-adjusted p-values"
    else:
        how = "unadjusted p-values"
    n_pairs = len(table.get("results", {}))
    return (
        f"The pairwise {declaration(name).title} ({how}, {count(n_pairs, 'pair')}) "
        f"{pairs_sentence(pairs)} at alpha = {alpha}."
    )


def ranking_content(name, test, result):
    """The wording of a ranking without a ``content`` hook: its fields of
    one value per estimator as a table, and as CSV rows (section
    ``ranking``, one per estimator)."""
    names = list(result.names)
    k = len(names)
    fields = [
        field
        for field, value in test.items()
        if field != "names" and np.ndim(value) == 1 and np.shape(value)[0] == k
    ]
    rows = [[names[j], *[num(test[f][j], 4) for f in fields]] for j in range(k)]
    title = declaration(name).title
    table = Table(
        ["estimator", *fields],
        rows,
        caption=f"The {title}: one row per estimator.",
    )
    summary = [f"{name} (one row per estimator):"] + [
        "  " + line
        for line in text_table(
            ["estimator", *fields], rows, right_aligned=range(1, len(fields) + 1)
        )
    ]
    csv_rows = [
        {"section": "ranking", "test": name, "estimator": names[j]}
        | {field: np.asarray(test[field])[j] for field in fields}
        for j in range(k)
    ]
    scalars = {
        field: value
        for field, value in test.items()
        if field in TEST_COLUMNS and np.ndim(value) == 0 and value is not None
    }
    sentences = [f"The {title} ran on the {k} estimators (see its table)."]
    if scalars:
        csv_rows.insert(
            0,
            {"section": "test", "test": name, **scalars, "note": undefined_note(test)},
        )
    return Contribution(summary, sentences, [table], csv_rows)
