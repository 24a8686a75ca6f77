"""Reports of a result: what was compared, which tests ran and why, the
verdicts in sentences, effect sizes and the tables, in text, markdown,
LaTeX or HTML.

A report is first built as a short list of blocks (headings, paragraphs,
tables, figures) that do not depend on the format; each format then renders
the blocks, escaping every string that comes from the user (estimator and
data set names) once, at that last step.
"""

import html
import io
import re
import unicodedata

import numpy as np

from ._text import format_number, text_table

__all__ = [
    "REPORT_FORMATS",
    "check_report_format",
    "register_figures",
    "render_report",
]

#: The formats of :func:`render_report`.
REPORT_FORMATS = ("text", "markdown", "latex", "html")

#: The names tests go by in a sentence; any other test keeps its own name.
_TEST_NAMES = {
    "friedman": "Friedman test",
    "friedman_aligned": "Friedman aligned-ranks test",
    "quade": "Quade test",
    "nemenyi": "Nemenyi's post hoc test",
    "bonferroni_dunn": "Bonferroni-Dunn post hoc test",
    "holm": "Holm post hoc test",
    "friedman_posthoc": "post hoc z test on Friedman mean ranks",
    "aligned_posthoc": "post hoc z test on aligned mean ranks",
    "quade_posthoc": "Conover's post hoc t test on Quade's statistics",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "corrected_t": "corrected resampled t test (Nadeau & Bengio)",
    "paired_t": "paired t test",
    "rm_anova": "repeated-measures ANOVA",
    "tukey_rm": "Tukey's HSD test on the repeated-measures error term",
    "paired_t_datasets": "paired t test across data sets",
}

#: Why a test across data sets is run, when the registry gives no rationale.
_WHY = {
    "friedman": "the rank test of k estimators across data sets recommended "
    "by Demšar (2006); it assumes neither normality nor equal variances",
    "friedman_aligned": "aligned ranks compare scores across data sets as "
    "well as within them",
    "quade": "Quade's test weights each data set by the range of its scores",
    "nemenyi": "all pairs by their mean ranks, with the family-wise error "
    "controlled (Demšar 2006)",
    "bonferroni_dunn": "each estimator against the control by mean ranks",
    "wilcoxon": "each pair on its paired scores across data sets, the "
    "pairwise test Demšar (2006) recommends",
    "rm_anova": "the parametric test of k estimators across data sets, chosen "
    "when every estimator's scores look normal with equal variances",
    "tukey_rm": "all pairs by their mean scores, with the family-wise error "
    "controlled, on the repeated-measures ANOVA's error term",
    "paired_t_datasets": "a pair on its paired scores across data sets, "
    "chosen when both look normal",
}


def check_report_format(format):
    """``format`` if it is one of :data:`REPORT_FORMATS`, else a ValueError."""
    if not isinstance(format, str) or format not in REPORT_FORMATS:
        raise ValueError(
            f"format must be one of {', '.join(map(repr, REPORT_FORMATS))}; "
            f"got {format!r}."
        )
    return format


def render_report(result, format="text", *, figures=True):
    """The report of a comparison as a string.

    Parameters
    ----------
    result : ComparisonResult, ManyComparisonResult, BenchmarkResult or SequentialResult
        The result reported.
    format : {"text", "markdown", "latex", "html"}, default="text"
        ``"latex"`` gives a fragment (tables need ``booktabs``; the
        preamble lines needed are in a comment at its top), ``"html"`` one
        self-contained page (inline CSS, figures as inline SVG when
        matplotlib is installed).
    figures : bool, default=True
        HTML only: embed the figures.

    Returns
    -------
    report : str
    """
    check_report_format(format)
    blocks = _blocks(result)
    if format == "html" and figures:
        blocks += _figure_blocks(result)
    render = {
        "text": _render_text,
        "markdown": _render_markdown,
        "latex": _render_latex,
        "html": _render_html,
    }[format]
    return render(blocks)


# --------------------------------------------------------------------------
# Blocks


class _Table:
    """A table: plain-text cells, the cells in bold and the marked cells."""

    def __init__(self, header, rows, *, caption, bold=(), marked=(), notes=()):
        self.header = [str(h) for h in header]
        self.rows = [[str(c) for c in row] for row in rows]
        self.caption = caption
        self.bold = set(bold)
        self.marked = set(marked)
        self.notes = list(notes)


class _Figure:
    def __init__(self, caption, svg):
        self.caption, self.svg = caption, svg


def _blocks(result):
    kind = type(result).__name__
    if kind == "SequentialResult" or "boundaries" in result:
        return _sequential_blocks(result)
    if kind == "BenchmarkResult" or "datasets" in result:
        return _datasets_blocks(result)
    if kind == "ManyComparisonResult" or "names" in result:
        return _many_blocks(result)
    return _pair_blocks(result)


def _num(value, digits=3):
    return format_number(None if value is None else value, digits)


def _test_name(name):
    return _TEST_NAMES.get(name, f"{name} test")


def _why(name, test=None):
    try:
        from ..stats._registry import get_entry

        rationale = get_entry(name).rationale
    except (KeyError, ValueError):
        rationale = None
    return rationale or _WHY.get(name)


def _names_list(names):
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _count(n, noun):
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _capital(text):
    return text[:1].upper() + text[1:]


def _article(text):
    return ("an " if text[:1].lower() in "aeiou" else "a ") + text


def _omnibus_sentence(name, test, alpha, what):
    df = test.get("df")
    stat = _num(test.get("statistic"))
    if name in ("friedman", "friedman_aligned") and df is not None:
        shown = f"chi2({_num(df)}) = {stat}"
    elif name == "rm_anova" and df is not None:
        shown = f"F{_num(tuple(df))} = {stat}"
    elif df is not None:
        shown = f"statistic {stat}, df {_num(df)}"
    else:
        shown = f"statistic {stat}"
    outcome = "rejected" if test.get("reject") else "did not reject"
    text = (
        f"{_capital(_article(_test_name(name)))} {outcome} equal performance "
        f"of {what} ({shown}, p = {_num(test.get('pvalue'))}, alpha = {alpha})"
    )
    iman = test.get("iman_davenport")
    if iman is not None:
        text += (
            f"; its Iman-Davenport F form gives F{_num(tuple(iman.df))} = "
            f"{_num(iman.statistic)}, p = {_num(iman.pvalue)}"
        )
    return text + "."


def _pairs_sentence(pairs):
    if not pairs:
        return "found no pair that differs"
    shown = "; ".join(f"{a} better than {b}" for a, b in pairs)
    that = "pair that differs" if len(pairs) == 1 else "pairs that differ"
    return f"found {len(pairs)} {that}: {shown}"


def _posthoc_sentence(name, test, pairs, alpha, n_datasets):
    details = []
    cd = test.get("critical_difference")
    if cd is not None:
        cd_text = f"critical difference {_num(cd, 4)}"
        if test.get("continuity"):
            from ..stats._ranks import critical_difference

            k = len(np.asarray(test.get("mean_ranks")))
            textbook = critical_difference(k, n_datasets, alpha, name, continuity=False)
            cd_text += (
                ", with a continuity correction of 1/(2N); without it, as in "
                f"Demšar (2006), {_num(textbook, 4)}"
            )
        details.append(cd_text)
    correction = test.get("correction")
    if correction:
        details.append(f"{correction} correction")
    shown = f" ({'; '.join(details)})" if details else ""
    return (
        f"{_capital(_test_name(name))}{shown} {_pairs_sentence(pairs)} "
        f"at alpha = {alpha}."
    )


def _pairwise_sentence(name, table, pairs, alpha):
    correction = table.get("correction")
    if "p_a_better" in table:
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
    name_text = _test_name(name)
    n_pairs = len(table.get("results", {}))
    return (
        f"The pairwise {name_text} ({how}, {_count(n_pairs, 'pair')}) "
        f"{_pairs_sentence(pairs)} at alpha = {alpha}."
    )


def _auto_paragraphs(result):
    auto = result.get("auto") if hasattr(result, "get") else None
    if not auto:
        return []
    text = f"Automatic path: {auto.get('path')}."
    if auto.get("reason"):
        text += f" {auto.get('reason')}"
    normality = auto.get("normality") or []
    if normality:
        parts = [
            f"{n.get('estimator')} (W = {_num(n.get('statistic'))}, p = "
            f"{_num(n.get('pvalue'))}, {'normal' if n.get('normal') else 'not normal'})"
            for n in normality
        ]
        text += " Shapiro-Wilk tests of normality: " + "; ".join(parts) + "."
    variance = auto.get("variance")
    if variance:
        text += (
            f" {variance.get('test')} test of equal variances: statistic "
            f"{_num(variance.get('statistic'))}, p = {_num(variance.get('pvalue'))}"
            f" ({'equal' if variance.get('equal') else 'unequal'})."
        )
    if auto.get("effect_size_kind"):
        text += f" Effect size reported: {auto.get('effect_size_kind')}."
    return [("heading", "Assumptions checked"), ("para", text)]


def _effect_blocks(result):
    effects = result.get("effect_sizes") if hasattr(result, "get") else None
    if not effects:
        return []
    rows = []
    level = None
    for e in effects:
        lo, hi = e.get("confidence_interval") or (None, None)
        level = e.get("confidence_level", level)
        rows.append(
            (
                e.get("a"),
                e.get("b"),
                e.get("kind"),
                _num(e.get("estimate")),
                f"[{_num(lo)}, {_num(hi)}]",
                e.get("magnitude") or "-",
            )
        )
    level_text = "" if level is None else f"{100 * level:g}% "
    asymptotic = any("asymptotic" in (e.get("note") or "") for e in effects)
    how = "asymptotic (normal)" if asymptotic else "bootstrap"
    return [
        ("heading", "Effect sizes"),
        (
            "para",
            "Effect sizes of every pair (positive: the first estimator is "
            f"better), with {level_text}{how} confidence intervals.",
        ),
        _Table(
            ("A", "B", "kind", "estimate", f"{level_text}CI", "magnitude"),
            rows,
            caption="Effect sizes (positive: A better).",
        ),
    ]


def _first_posthoc(result):
    for name, test in result.tests.items():
        if np.ndim(test.get("reject")) == 2:
            return name, test
    return None, None


def _datasets_blocks(result):
    names, datasets = list(result.names), list(result.datasets)
    k, n = len(names), len(datasets)
    alpha = result.alpha
    scoring = result.get("scoring")
    compared = (
        f"{k} estimators ({_names_list(names)}) were compared on {n} data sets"
        + (f" ({_names_list(datasets)})" if n <= 12 else "")
    )
    if scoring:
        compared += f", scoring {scoring}"
    cv = result.get("cv")
    if cv is not None:
        compared += f", each evaluated by {cv}"
    compared += "."
    if result.get("control"):
        compared += f" Control: {result.control}."
    blocks = [("heading", "What was compared"), ("para", compared)]
    blocks += _auto_paragraphs(result)
    tests_text = []
    for name in list(result.tests) + list(result.pairwise):
        why = _why(name)
        tests_text.append(f"{name}" + (f": {why}" if why else ""))
    for name, reason in (result.get("skipped_tests") or {}).items():
        tests_text.append(f"{name}: not run ({reason})")
    if tests_text:
        blocks += [("heading", "Tests and why"), ("list", tests_text)]
    sentences = []
    verdict = result.verdict
    for name, test in result.tests.items():
        if np.ndim(test.get("reject")) == 0:
            sentences.append(
                _omnibus_sentence(name, test, alpha, f"the {k} estimators")
            )
    for name, test in result.tests.items():
        if np.ndim(test.get("reject")) == 2:
            pairs = verdict.differ_by_test.get(name, [])
            sentences.append(_posthoc_sentence(name, test, pairs, alpha, n))
    for name, table in result.pairwise.items():
        pairs = verdict.differ_by_test.get(name, [])
        sentences.append(_pairwise_sentence(name, table, pairs, alpha))
    if not sentences:
        sentences.append(verdict.text)
    blocks += [("heading", "Verdicts"), *[("para", s) for s in sentences]]
    blocks += _effect_blocks(result)
    blocks += [("heading", "Tables"), _datasets_table(result)]
    return blocks


def _marks_against(result, names):
    """Columns differing from the best (or the control) by the first post hoc
    test, and the note saying so."""
    name, test = _first_posthoc(result)
    if name is None:
        return set(), None
    control = result.get("control")
    rank = np.asarray(result.mean_ranks)
    ref = names.index(control) if control else int(np.argmin(rank))
    reject = np.asarray(test.reject, dtype=bool)
    tested = np.asarray(test.get("tested", ~np.eye(len(names), dtype=bool)))
    marked = {
        j for j in range(len(names)) if j != ref and reject[ref, j] and tested[ref, j]
    }
    what = "the control" if control else "the best (lowest mean rank)"
    how = [name]
    if test.get("correction"):
        how.append(f"{test.correction} correction")
    if test.get("continuity"):
        how.append("critical difference with continuity correction")
    if marked:
        note = (
            f"† differs from {what}, {names[ref]}, by {', '.join(how)} at "
            f"alpha = {result.alpha}."
        )
    else:
        note = (
            f"No estimator differs from {what}, {names[ref]}, by "
            f"{', '.join(how)} at alpha = {result.alpha}."
        )
    return marked, note


def _datasets_table(result):
    names = list(result.names)
    scores = np.asarray(result.scores, dtype=float)
    split = result.get("split_scores")
    sd = None
    if split is not None and np.ndim(split) == 3 and np.shape(split)[1] > 1:
        sd = np.std(np.asarray(split, dtype=float), axis=1, ddof=1)
    rows, bold = [], []
    for i, dataset in enumerate(result.datasets):
        row = [dataset]
        for j in range(len(names)):
            cell = f"{scores[i, j]:.4g}"
            if sd is not None:
                cell += f" ± {sd[i, j]:.2g}"
            row.append(cell)
        best = np.flatnonzero(scores[i] == np.nanmax(scores[i]))
        bold += [(i, 1 + int(j)) for j in best]
        rows.append(row)
    i = len(rows)
    rows.append(["mean score", *[f"{v:.4g}" for v in result.mean_scores]])
    best = np.flatnonzero(result.mean_scores == np.max(result.mean_scores))
    bold += [(i, 1 + int(j)) for j in best]
    rows.append(["mean rank", *[f"{v:.3f}" for v in result.mean_ranks]])
    best = np.flatnonzero(result.mean_ranks == np.min(result.mean_ranks))
    bold += [(i + 1, 1 + int(j)) for j in best]
    marked, note = _marks_against(result, names)
    caption = "Mean score" + (" (± sd over the splits)" if sd is not None else "")
    caption += (
        " per data set and estimator, and the mean ranks (1 = best); the best"
        " of each row in bold."
    )
    return _Table(
        ["data set", *names],
        rows,
        caption=caption,
        bold=bold,
        marked={(i + 1, 1 + j) for j in marked},
        notes=[note] if note else [],
    )


def _many_blocks(result):
    names = list(result.names)
    alpha = result.alpha
    design = result.get("design")
    compared = f"{len(names)} estimators ({_names_list(names)}) were compared"
    if design is not None:
        compared += f" on {design.describe()} of {design.n_samples} records"
    compared += f", task {result.get('task')}, scoring {result.get('scoring')}."
    blocks = [("heading", "What was compared"), ("para", compared)]
    blocks += _auto_paragraphs(result)
    tests_text = [
        f"{name}" + (f": {_why(name)}" if _why(name) else "")
        for name in list(result.tests) + list(result.pairwise)
    ]
    tests_text += [
        f"{name}: not run ({reason})"
        for name, reason in (result.get("skipped_tests") or {}).items()
    ]
    if tests_text:
        blocks += [("heading", "Tests and why"), ("list", tests_text)]
    sentences = [
        _omnibus_sentence(name, test, alpha, f"the {len(names)} estimators")
        for name, test in result.tests.items()
    ]
    for name, table in result.pairwise.items():
        pairs = result.verdict.differ_by_test.get(name, [])
        sentences.append(_pairwise_sentence(name, table, pairs, alpha))
    if not sentences:
        sentences.append(result.verdict.text)
    blocks += [("heading", "Verdicts"), *[("para", s) for s in sentences]]
    blocks += _effect_blocks(result)
    scores = np.asarray(result.scores, dtype=float)
    sd = scores.std(axis=0, ddof=1) if scores.shape[0] > 1 else None
    mean = np.asarray(result.mean_scores, dtype=float)
    best = int(np.argmax(mean))
    marked, note = set(), None
    if result.pairwise:
        test = next(iter(result.pairwise))
        differ = result.verdict.differ_by_test.get(test, [])
        ref = result.get("control") or names[best]
        marked = {names.index(b if a == ref else a) for a, b in differ if ref in (a, b)}
        note = (
            f"† differs from {ref} by the pairwise {test} at alpha = {alpha}"
            + (
                f" ({result.pairwise[test].correction} correction)"
                if result.pairwise[test].get("correction")
                else ""
            )
            + "."
        )
    rows = [
        [
            name,
            f"{mean[j]:.4g}" + ("" if sd is None else f" ± {sd[j]:.2g}"),
        ]
        for j, name in enumerate(names)
    ]
    blocks += [
        ("heading", "Tables"),
        _Table(
            ("estimator", "mean score" + ("" if sd is None else " ± sd")),
            rows,
            caption="Mean score of each estimator over the splits (the best in bold).",
            bold={(best, 1)},
            marked={(j, 1) for j in marked},
            notes=[note] if note else [],
        ),
    ]
    return blocks


def _pair_blocks(result):
    names = result.get("estimator_names") or ("A", "B")
    design = result.design
    mean_a, mean_b = np.mean(result.scores_a), np.mean(result.scores_b)
    compared = (
        f"Estimators A = {names[0]} and B = {names[1]} were compared on "
        f"{design.describe()} of {design.n_samples} records, task "
        f"{result.task}, scoring {result.scoring}: mean score A "
        f"{mean_a:.4g}, B {mean_b:.4g}, mean difference (A - B) "
        f"{mean_a - mean_b:+.4g}."
    )
    blocks = [("heading", "What was compared"), ("para", compared)]
    blocks += _auto_paragraphs(result)
    verdict = result.verdict
    tests_text = []
    for name in result.tests:
        status = (
            "recommended"
            if name == result.get("recommended_test")
            else "for reference, not the basis of the verdict"
        )
        why = verdict.rationale if name == verdict.test else _why(name)
        tests_text.append(f"{name} ({status})" + (f": {why}" if why else ""))
    tests_text += [
        f"{name}: not run ({reason})"
        for name, reason in (result.get("skipped_tests") or {}).items()
    ]
    if tests_text:
        blocks += [("heading", "Tests and why"), ("list", tests_text)]
    if verdict.test is not None:
        test = result.tests[verdict.test]
        stat = test.get("statistic")
        df = test.get("df")
        shown = [f"statistic {_num(stat)}"] if stat is not None else []
        if df is not None:
            shown.append(f"df {_num(df)}")
        if test.get("pvalue") is not None:
            shown.append(f"p = {_num(test.pvalue)}")
        decision = verdict.decision
        if decision in ("A better", "B better"):
            better, worse = names if decision == "A better" else names[::-1]
            outcome = f"found {better} better than {worse}"
        else:
            outcome = "found no significant difference between the estimators"
        sentence = (
            f"The {_test_name(verdict.test)} ({', '.join(shown)}), "
            f"{verdict.rationale}, {outcome} at alpha = {result.alpha}."
        )
    else:
        sentence = verdict.text
    blocks += [("heading", "Verdicts"), ("para", sentence)]
    blocks += _effect_blocks(result)
    rows = []
    bold = set()
    for i, (name, r) in enumerate(result.tests.items()):
        if name == verdict.test:
            bold.add((i, 0))
        decision = _decision(r, float(np.mean(result.differences)))
        if "p_a_better" in r:
            evidence = f"P(A better) = {_num(r.get('p_a_better'), 4)}"
        else:
            evidence = f"p = {_num(r.get('pvalue'), 4)}"
        rows.append(
            (
                name,
                _num(r.get("statistic"), 4),
                _num(r.get("df"), 4),
                evidence,
                "-" if decision is None else decision,
            )
        )
    if rows:
        blocks += [
            ("heading", "Tables"),
            _Table(
                ("test", "statistic", "df", "p-value or posterior", "decision"),
                rows,
                caption="The tests run (bold: the one the verdict rests on; "
                "the others are shown for reference). A Bayesian test decides "
                "when a posterior probability exceeds 1 - alpha; it is not a "
                "frequentist test at level alpha.",
                bold=bold,
            ),
        ]
    return blocks


def _decision(test, mean_difference):
    from ._pair import _decision as decision

    return decision(test, mean_difference)


def _sequential_blocks(result):
    comparison = result.comparison
    names = comparison.get("estimator_names") or ("A", "B")
    from ._sequential import _boundary_name, look_labels

    compared = (
        f"Estimators A = {names[0]} and B = {names[1]} were compared "
        f"sequentially on {comparison.design.n_samples} records by "
        f"{result.test}, with {_boundary_name(result)} boundaries at alpha = "
        f"{result.alpha} ({result.alternative}), looking after each repetition "
        f"of 2-fold CV from {result.min_repeats} to at most "
        f"{result.max_repeats} repetitions."
    )
    if result.rope:
        compared += f" Region of practical equivalence: ±{result.rope:g}."
    sentence = (
        f"The sequential test stopped after {result.n_repeats} repetitions "
        f"({result.n_fits} fits, {result.n_fits_saved} saved) with the decision: "
        f"{result.decision}."
    )
    trace = result.trace
    rows = [
        (
            str(int(m)),
            _num(float(s), 4),
            _num(float(lo), 4),
            _num(float(hi), 4),
            _num(float(p), 3),
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
    return [
        ("heading", "What was compared"),
        ("para", compared),
        ("heading", "Verdicts"),
        ("para", sentence),
        (
            "para",
            "The fixed-design tests on the same fits are not sequentially "
            "adjusted and are not reported here.",
        ),
        ("heading", "Tables"),
        _Table(
            ("m", "statistic", "lower", "upper", "cond. power", "look"),
            rows,
            caption="The looks taken and the boundaries.",
        ),
    ]


# --------------------------------------------------------------------------
# Figures (HTML)


#: The function listing the figures of a result for the HTML report:
#: ``result -> [(caption, draw), ...]``, ``draw(ax)`` drawing on a
#: matplotlib Axes. The plots sit above the results in the package's layers,
#: so :mod:`sklearn_bcv._plot` sets it when imported (as ``import
#: sklearn_bcv`` does) through :func:`register_figures`.
_FIGURES = []


def register_figures(func):
    """Set the function listing the figures of a result (see ``_FIGURES``)."""
    _FIGURES[:] = [func]
    return func


def _figure_blocks(result):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return [
            (
                "para",
                "Figures are left out: they need matplotlib (pip install matplotlib).",
            )
        ]
    if not _FIGURES:  # pragma: no cover - sklearn_bcv imports the plots
        return [("para", "Figures are left out: sklearn_bcv._plot is not loaded.")]
    blocks = []
    for caption, draw in _FIGURES[0](result):
        fig = Figure(figsize=(6.4, 3.6))
        try:
            draw(fig.add_subplot())
        except Exception as exc:  # a figure never stops the report
            blocks.append(("para", f"{caption}: not drawn ({exc})."))
            continue
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", bbox_inches="tight")
        svg = buffer.getvalue()
        blocks.append(_Figure(caption, svg[svg.find("<svg") :]))
    return blocks


# --------------------------------------------------------------------------
# Renderers

_DAGGER = "†"


def _cell_text(table, i, j, cell, bold=("", ""), mark=_DAGGER):
    if (i, j) in table.marked:
        cell = cell + mark
    if (i, j) in table.bold:
        cell = f"{bold[0]}{cell}{bold[1]}"
    return cell


def _render_text(blocks):
    out = ["Report", "======"]
    for block in blocks:
        if isinstance(block, _Table):
            rows = [
                [_cell_text(block, i, j, c, ("*", "*")) for j, c in enumerate(row)]
                for i, row in enumerate(block.rows)
            ]
            out += ["", block.caption]
            out += [
                "  " + line
                for line in text_table(
                    block.header, rows, right_aligned=tuple(range(1, len(block.header)))
                )
            ]
            out += ["  (*: bold)"] if block.bold else []
            out += [f"  {note}" for note in block.notes]
        elif isinstance(block, _Figure):
            continue
        elif block[0] == "heading":
            out += ["", block[1], "-" * len(block[1])]
        elif block[0] == "list":
            out += [f"* {item}" for item in block[1]]
        else:
            out.append(block[1])
    return "\n".join(out) + "\n"


def _md_escape(text):
    return re.sub(r"([\\`*_{}\[\]<>|~])", r"\\\1", str(text))


def _render_markdown(blocks):
    out = ["# Report"]
    for block in blocks:
        if isinstance(block, _Table):
            out += ["", f"*{_md_escape(block.caption)}*", ""]
            out.append("| " + " | ".join(_md_escape(h) for h in block.header) + " |")
            out.append(
                "|" + "|".join(["---", *["---:"] * (len(block.header) - 1)]) + "|"
            )
            for i, row in enumerate(block.rows):
                cells = [
                    _cell_text(block, i, j, _md_escape(c), ("**", "**"))
                    for j, c in enumerate(row)
                ]
                out.append("| " + " | ".join(cells) + " |")
            out += ["", *[_md_escape(note) for note in block.notes]]
        elif isinstance(block, _Figure):
            continue
        elif block[0] == "heading":
            out += ["", f"## {_md_escape(block[1])}", ""]
        elif block[0] == "list":
            out += [f"- {_md_escape(item)}" for item in block[1]]
        else:
            out += [_md_escape(block[1]), ""]
    return "\n".join(out).rstrip("\n") + "\n"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "±": r"$\pm$",
    "†": r"$^\dagger$",
    "−": "-",
}


def latex_escape(text):
    """``text`` with every character LaTeX treats specially escaped."""
    out = []
    for char in str(text):
        if char in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[char])
        elif ord(char) < 128:
            out.append(char)
        elif ord(char) < 0x180 and char.isalpha():
            # Latin-1 and Latin Extended-A letters: LaTeX's default utf8
            # input encoding knows them.
            out.append(char)
        else:
            base = unicodedata.normalize("NFKD", char)
            base = "".join(c for c in base if ord(c) < 128 and c.isprintable())
            out.append(latex_escape(base) if base else "?")
    return "".join(out)


def _render_latex(blocks):
    out = [
        "% Report of a sklearn-bcv comparison.",
        "% Preamble: \\usepackage{booktabs}",
    ]
    for block in blocks:
        if isinstance(block, _Table):
            spec = "l" + "r" * (len(block.header) - 1)
            out += [
                "",
                "\\begin{table}[htbp]",
                "\\centering",
                f"\\caption{{{latex_escape(block.caption)}}}",
                f"\\begin{{tabular}}{{{spec}}}",
                "\\toprule",
                " & ".join(latex_escape(h) for h in block.header) + " \\\\",
                "\\midrule",
            ]
            for i, row in enumerate(block.rows):
                if block.header[0] == "data set" and row[0] == "mean score":
                    out.append("\\midrule")
                cells = [
                    _cell_text(
                        block,
                        i,
                        j,
                        latex_escape(c),
                        ("\\textbf{", "}"),
                        "$^\\dagger$",
                    )
                    for j, c in enumerate(row)
                ]
                out.append(" & ".join(cells) + " \\\\")
            out += ["\\bottomrule", "\\end{tabular}"]
            for note in block.notes:
                out += ["", "\\smallskip", f"\\footnotesize {latex_escape(note)}"]
            out.append("\\end{table}")
        elif isinstance(block, _Figure):
            continue
        elif block[0] == "heading":
            out += ["", f"\\paragraph{{{latex_escape(block[1])}}}"]
        elif block[0] == "list":
            out += ["\\begin{itemize}"]
            out += [f"\\item {latex_escape(item)}" for item in block[1]]
            out += ["\\end{itemize}"]
        else:
            out += [latex_escape(block[1]), ""]
    return "\n".join(out).rstrip("\n") + "\n"


_CSS = (
    "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{padding:.2em .6em;text-align:right;border-bottom:1px solid #ccc}"
    "th:first-child,td:first-child{text-align:left}"
    "thead th{border-bottom:2px solid #222}caption{caption-side:top;"
    "text-align:left;font-style:italic}.note{font-size:.9em}"
    "figure{margin:1em 0}figure svg{max-width:100%;height:auto}"
)


def _render_html(blocks):
    esc = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8"><title>sklearn-bcv report</title>',
        f"<style>{_CSS}</style></head>",
        "<body>",
        "<h1>Report</h1>",
    ]
    if not any(isinstance(b, _Figure) for b in blocks):
        out.append('<p class="note">This report has tables only (no figures).</p>')
    for block in blocks:
        if isinstance(block, _Table):
            out += ["<table>", f"<caption>{esc(block.caption)}</caption>"]
            out.append(
                "<thead><tr>"
                + "".join(f"<th>{esc(h)}</th>" for h in block.header)
                + "</tr></thead><tbody>"
            )
            for i, row in enumerate(block.rows):
                cells = [
                    _cell_text(block, i, j, esc(c), ("<strong>", "</strong>"))
                    for j, c in enumerate(row)
                ]
                out.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
            out.append("</tbody></table>")
            out += [f'<p class="note">{esc(note)}</p>' for note in block.notes]
        elif isinstance(block, _Figure):
            out += [
                "<figure>",
                block.svg,
                f"<figcaption>{esc(block.caption)}</figcaption>",
                "</figure>",
            ]
        elif block[0] == "heading":
            out.append(f"<h2>{esc(block[1])}</h2>")
        elif block[0] == "list":
            out += ["<ul>", *[f"<li>{esc(item)}</li>" for item in block[1]], "</ul>"]
        else:
            out.append(f"<p>{esc(block[1])}</p>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
