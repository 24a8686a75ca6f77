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
from ._blocks import (
    Heading,
    Paragraph,
    Table,
    Text,
    alpha_is,
    article,
    capital,
    chi2,
    count,
    decimals_of,
    f_stat,
    fixed,
    level_is,
    math_number,
    num,
    the,
)
from ._methods import adjusted_name
from ._rows import TEST_COLUMNS, undefined_note
from ._text import text_table
from ._verdict import is_bayesian

__all__ = [
    "Contribution",
    "bayesian_pairwise_sentence",
    "decided_by",
    "hook_context",
    "hooked_content",
    "middle_name",
    "omnibus_sentence",
    "p_evidence",
    "pair_table",
    "pairs_sentence",
    "pairwise_sentence",
    "pairwise_sentences",
    "posterior_decision",
    "posterior_phrase",
    "posthoc_sentence",
    "probability",
    "ranking_content",
    "rope_of",
    "verdict_blocks",
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
            label=table.get("label", name),
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


def decided_by(test, k, *, brackets=True):
    """What gave an omnibus test's p-value, in words, for a test that says
    (its ``method``): ``"the exact permutation test given the ties (N = 8,
    k = 5)"`` (``brackets=False``: ``", N = 8, k = 5"``, inside a
    parenthesis already), a :class:`~._blocks.Text` (a standard error's
    power of ten in math; ``str()`` is the plain words); None for a test
    that does not."""
    method = test.get("method")
    n = test.get("n_datasets")
    size = f"N = {n}, k = {k}" if n is not None else f"k = {k}"
    if method == "exact":
        what = "the exact permutation test given the ties"
        return Text(f"{what} ({size})" if brackets else f"{what}, {size}")
    if method == "monte_carlo":
        resamples = test.get("n_resamples")
        se = test.get("pvalue_mc_se")
        what = "a Monte Carlo permutation test given the ties"
        how = Text(f"{resamples} resamples" if resamples else "")
        if se is not None:
            how += Text(
                ", standard error " if brackets else " with standard error ",
                math_number(se, 2),
            )
        if brackets:
            return Text(f"{what} (", how, f"; {size})")
        return Text(f"{what}, ", how, f", {size}")
    if method == "chi2":
        return Text("the chi-squared approximation")
    if method == "iman_davenport":
        return Text("Iman and Davenport's F approximation")
    return None


def omnibus_sentence(name, test, alpha, what, cite=""):
    """ "A Friedman test rejected equal performance of ``what`` (chi2(3) =
    ..., p = ..., alpha = ...)." (LaTeX: the statistic and alpha in math);
    ``cite``: the citation of its works, after its name."""
    entry = declaration(name)
    df = test.get("df")
    stat = math_number(test.get("statistic"))
    if entry.statistic_label == "chi2" and df is not None:
        shown = Text(chi2(df), " = ", stat)
    elif entry.statistic_label == "F" and df is not None:
        shown = Text(f_stat(tuple(np.ravel(df))), " = ", stat)
    elif df is not None:
        shown = Text("statistic ", stat, f", df {num(df)}")
    else:
        shown = Text("statistic ", stat)
    outcome = "rejected" if test.get("reject") else "did not reject"
    title = entry.title
    if "'s " in title and not title.split(" ", 1)[0].endswith("'s"):
        title = f"the {title}"  # the BCV Cochran's Q test
    elif not title.split(" ", 1)[0].endswith("'s"):
        title = article(title)  # a Friedman test
    title = capital(title) + (f" ({cite})" if cite else "")
    k = np.shape(test.get("mean_ranks"))[0] if test.get("mean_ranks") is not None else 0
    decided = decided_by(test, k, brackets=False) if k else None
    text = Text(
        f"{title} {outcome} equal performance of {what} (",
        shown,
        ", p = ",
        math_number(test.get("pvalue")),
        Text(" by ", decided, "; ") if decided else ", ",
        alpha_is(alpha),
        ")",
    )
    method = test.get("method")
    iman = test.get("iman_davenport")
    if decided is not None:
        extra = []
        if method != "chi2" and test.get("pvalue_chi2") is not None:
            extra.append(
                Text(
                    "the chi-squared approximation gives p = ",
                    math_number(test.get("pvalue_chi2")),
                )
            )
        if iman is not None and method != "iman_davenport":
            extra.append(
                Text(
                    "its Iman-Davenport F form ",
                    f_stat(tuple(iman.df)),
                    " = ",
                    math_number(iman.statistic),
                    ", p = ",
                    math_number(iman.pvalue),
                )
            )
        if extra:
            joined = extra[0] if len(extra) == 1 else Text(extra[0], " and ", extra[1])
            text += Text("; supplementary, ", joined)
    elif iman is not None:
        text += Text(
            "; its Iman-Davenport F form gives ",
            f_stat(tuple(iman.df)),
            " = ",
            math_number(iman.statistic),
            ", p = ",
            math_number(iman.pvalue),
        )
    return text + "."


def pairs_sentence(pairs, evidence=None):
    """``"found 2 pairs that differ: a better than b (p = 0.01); ..."``;
    ``evidence`` gives each pair's value in parentheses."""
    if not pairs:
        return "found no pair that differs"
    shown = "; ".join(
        f"{a} better than {b}" + (f" ({evidence[a, b]})" if evidence else "")
        for a, b in pairs
    )
    that = "pair that differs" if len(pairs) == 1 else "pairs that differ"
    return f"found {len(pairs)} {that}: {shown}"


def posthoc_sentence(name, test, pairs, alpha, n_datasets, cite="", evidence=None):
    """The sentence of a post hoc family: its critical difference or
    correction, and the pairs it separates (with their p-values)."""
    details = []
    cd = test.get("critical_difference")
    if cd is not None:
        cd_text = f"critical difference {num(cd, 4)}"
        if test.get("continuity"):
            k = len(np.asarray(test.get("mean_ranks")))
            textbook = critical_difference(k, n_datasets, alpha, name, continuity=False)
            cd_text += (
                f", with a continuity correction of {'1/N' if k == 2 else '1/(2N)'}; "
                "without it, as in "
                f"Demšar (2006), {num(textbook, 4)}"
            )
        details.append(cd_text)
    correction = test.get("correction")
    if correction:
        details.append(f"{correction} correction")
    if cite:
        details.append(cite)
    shown = f" ({'; '.join(details)})" if details else ""
    return Text(
        f"{capital(declaration(name).title)}{shown} "
        f"{pairs_sentence(pairs, evidence)} at ",
        alpha_is(alpha),
        " (its table gives every pair).",
    )


def pairwise_sentence(name, table, pairs, alpha, cite="", evidence=None):
    """The sentence of a frequentist pairwise test: how its p-values are
    adjusted and the pairs it separates (with their p-values)."""
    correction = table.get("correction")
    how = (
        f"{adjusted_name(correction)}-adjusted p-values"
        if correction
        else "unadjusted p-values"
    )
    n_pairs = len(table.get("results", {}))
    if cite:
        how += f"; {cite}"
    return Text(
        f"The pairwise {declaration(name).title} ({how}, {count(n_pairs, 'pair')}) "
        f"{pairs_sentence(pairs, evidence)} at ",
        alpha_is(alpha),
        ".",
    )


# --------------------------------------------------------------------------
# Posterior probabilities in words


def p_evidence(names, test, pairs):
    """``{(better, worse): "p = 0.015"}`` of the pairs (names) a
    frequentist test separates, from its (adjusted) p-values; None for a
    test without p-values."""
    p = test.get("pvalue_adjusted")
    p = test.get("pvalue") if p is None else p
    if p is None:
        return None
    p = np.asarray(p, dtype=float)
    out = {}
    for better, worse in pairs:
        a, b = names.index(better), names.index(worse)
        out[better, worse] = p_is(min(p[a, b], p[b, a]), "p")
    return out


def pairwise_sentences(names, pairwise, differ_by_test, alpha):
    """``{test name: [its sentence]}`` of every pairwise test of a result
    (``pairwise``: name -> its table), in their order."""
    sentences = {}
    for name, table in pairwise.items():
        pairs = differ_by_test.get(name, [])
        sentences[name] = [
            bayesian_pairwise_sentence(name, table, names, alpha)
            if is_bayesian(name)
            else pairwise_sentence(
                name, table, pairs, alpha, evidence=p_evidence(names, table, pairs)
            )
        ]
    return sentences


def verdict_blocks(sentences, own, fallback):
    """The "Verdicts" of a report from ``{test name: [sentences]}``, a
    test's content hook (``own``: name -> :class:`Contribution`) speaking
    in its place, and the tables those hooks add; ``fallback`` alone when
    no test says anything. Returns ``(blocks, tables)``."""
    said, tables = [], []
    for name, lines in sentences.items():
        if name in own:
            lines = own[name].sentences
            tables += own[name].tables
        said += lines
    return [Heading("Verdicts"), *[Paragraph(s) for s in said or [fallback]]], tables


def rope_of(test_result):
    """The rope of a Bayesian test's result, 0 when it has none."""
    rope = test_result.get("rope")
    return 0.0 if rope is None else float(rope)


def middle_name(rope):
    """What the middle posterior probability is: equivalence within the
    rope, or neither estimator better (no rope)."""
    return f"equivalent within ±{rope:g}" if rope > 0 else "neither better"


def probability(p):
    """A posterior probability or a p-value with three decimals,
    ``"<0.001"`` and ``">0.999"`` beyond them."""
    if p is None or not np.isfinite(p):
        return "-"
    text = f"{float(p):.3f}"
    if text == "0.000" and p > 0:
        return "<0.001"
    if text == "1.000" and p < 1:
        return ">0.999"
    return text


def p_is(p, symbol="P"):
    """``"P = 0.993"``, ``"P > 0.999"``."""
    text = probability(p)
    return f"{symbol} {text[0]} {text[1:]}" if text[0] in "<>" else f"{symbol} = {text}"


def posterior_phrase(p_a, p_rope, p_b, name_a, name_b, rope):
    """``"P(forest better) = 0.86, P(equivalent within ±0.01) = 0.14,
    P(tree better) = 0.00"``."""
    return (
        f"{p_is(p_a, f'P({name_a} better)')}, "
        f"{p_is(p_rope, f'P({middle_name(rope)})')}, "
        f"{p_is(p_b, f'P({name_b} better)')}"
    )


def posterior_decision(p_a, p_rope, p_b, *, reject, alpha, rope, name_a, name_b):
    """``"forest better"``, ``"equivalent within ±0.01"`` or ``"no
    decision"``: what a Bayesian test decides at level ``1 - alpha``
    (``reject``: its own decision for a better one)."""
    level = 1 - alpha
    if reject:
        return f"{name_a if p_a >= p_b else name_b} better"
    if rope > 0 and p_rope > level:
        return middle_name(rope)
    return "no decision"


def bayesian_pairwise_sentence(name, table, names, alpha, cite=""):
    """The sentence of a Bayesian pairwise test: its decision rule and
    rope, then the pairs it decides with their posterior probability."""
    ropes = {rope_of(r) for r in table.results.values()} or {0.0}
    rope = max(ropes)
    decided, equivalent = [], []
    for name_a, name_b in table.results:
        a, b = names.index(name_a), names.index(name_b)
        p_a, p_rope, p_b = (
            float(table.p_a_better[a, b]),
            float(table.p_rope[a, b]),
            float(table.p_b_better[a, b]),
        )
        if table.reject[a, b]:
            better, worse, p = (
                (name_a, name_b, p_a) if p_a >= p_b else (name_b, name_a, p_b)
            )
            decided.append(f"{better} better than {worse} ({p_is(p)})")
        elif rope > 0 and p_rope > 1 - alpha:
            equivalent.append(f"{name_a} and {name_b} ({p_is(p_rope)})")
    n_pairs = len(table.results)
    rope_text = f"a rope of ±{rope:g}" if rope > 0 else "no rope"
    how = Text(
        "posterior probabilities, ",
        rope_text,
        "; a decision when one exceeds ",
        level_is(alpha),
        f"; not adjusted for the {count(n_pairs, 'pair')}",
    )
    if cite:
        how += f"; {cite}"
    if decided:
        found = f"decided {len(decided)} of the {count(n_pairs, 'pair')}: " + "; ".join(
            decided
        )
    else:
        found = f"decided none of the {count(n_pairs, 'pair')}"
    if equivalent:
        found += f"; found equivalent within ±{rope:g}: " + "; ".join(equivalent)
    left = n_pairs - len(decided) - len(equivalent)
    if left and (decided or equivalent):
        found += f"; {count(left, 'pair')} undecided"
    return Text(
        f"{capital(the(declaration(name).title))} (",
        how,
        f") {found} (its table gives every pair).",
    )


# --------------------------------------------------------------------------
# Every pair of a (k, k) table


def pair_table(name, table, pairs, names, *, alpha, a_better, mean_ranks=None):
    """The table of a post hoc family or a pairwise test: one row per
    tested pair (A, B), its statistic and (adjusted) p-value, or its
    posterior probabilities, and its decision; the deciding values in bold.

    ``pairs`` are index pairs (A, B) in the order of the tests;
    ``a_better(a, b)`` says whether A is the better of a separated pair;
    ``mean_ranks`` adds the mean ranks of a post hoc family on ranks.
    """
    title = declaration(name).title
    rows, bold = [], set()
    if is_bayesian(name):
        rope = max([rope_of(r) for r in (table.get("results") or {}).values()] or [0.0])
        middle = "P(rope)" if rope > 0 else "P(neither)"
        header = ["A", "B", "P(A better)", middle, "P(B better)"]
        for i, (a, b) in enumerate(pairs):
            p = [table.p_a_better[a, b], table.p_rope[a, b], table.p_b_better[a, b]]
            decision = posterior_decision(
                *p,
                reject=bool(table.reject[a, b]),
                alpha=alpha,
                rope=rope,
                name_a="A",
                name_b="B",
            )
            rows.append([names[a], names[b], *[probability(v) for v in p], decision])
            for j, v in enumerate(p):
                if v > 1 - alpha:
                    bold.add((i, 2 + j))
        caption = Text(
            f"{capital(the(title))}, pair by pair: the posterior probabilities and the "
            "decision when one exceeds ",
            level_is(alpha),
            " ("
            + (
                f"P(rope): equivalent within the rope, ±{rope:g}"
                if rope > 0
                else "no rope; P(neither): neither better"
            )
            + "; not adjusted for the number of pairs).",
        )
    else:
        statistic = np.asarray(table.get("statistic"), dtype=float)
        adjusted = table.get("pvalue_adjusted")
        raw = np.asarray(table.get("pvalue"), dtype=float)
        shown = raw if adjusted is None else np.asarray(adjusted, dtype=float)
        stats = [statistic[a, b] for a, b in pairs]
        stat_decimals = decimals_of(stats, max_decimals=2)
        correction = table.get("correction")
        # A pairwise test: its p-value and the adjusted one; a post hoc
        # family: its family-wise p-value alone.
        family = mean_ranks is not None or (adjusted is not None and not correction)
        header = ["A", "B"]
        if mean_ranks is not None:
            header += ["rank A", "rank B"]
        header.append("statistic")
        if family:
            header.append("p (family-wise)" if adjusted is not None else "p")
        else:
            adjusted_header = f"p ({adjusted_name(correction)})"
            header += ["p"] + ([adjusted_header] if correction else [])
        for i, (a, b) in enumerate(pairs):
            reject = bool(table.reject[a, b])
            row = [names[a], names[b]]
            if mean_ranks is not None:
                row += [f"{mean_ranks[a]:.3f}", f"{mean_ranks[b]:.3f}"]
            row.append(fixed(statistic[a, b], stat_decimals))
            if family:
                row.append(probability(shown[a, b]))
            else:
                row.append(probability(raw[a, b]))
                if correction:
                    row.append(probability(shown[a, b]))
            if reject:
                bold.add((i, len(row) - 1))
            decision = (
                ("A" if a_better(a, b) else "B") + " better" if reject else "n.s."
            )
            rows.append([*row, decision])
        how = (
            f"{adjusted_name(correction)}-adjusted p-values"
            if correction
            else ("family-wise p-values" if adjusted is not None else "p-values")
        )
        caption = Text(
            f"{capital(the(title))}, pair by pair ({how}); bold: below ",
            alpha_is(alpha),
            ".",
        )
    header.append("decision")
    table = Table(
        header,
        rows,
        caption=caption,
        label=f"pairs-{name}",
        bold=bold,
        label_columns=2,
        names=names,
    )
    return table.introduce(f"every pair by {the(title)}")


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
        caption=f"{capital(the(title))}: one row per estimator.",
        label=name,
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
