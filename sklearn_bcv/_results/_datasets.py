"""Estimators across data sets: :class:`BenchmarkResult`, how it is built,
its verdict and its content (summary, report, CSV table)."""

import numpy as np
from sklearn.utils import Bunch

from .._engine._incomplete import nan_mean
from .._engine._plan import run_tests
from ..stats._ranks import nemenyi_continuity, rank_scores
from ..stats._references import EFFECT_SIZE_REFERENCES, SPLITTER_REFERENCES
from ..stats._registry import declaration
from ..stats._skillings_mack import table_ranks
from ..stats._ties import scores_precision
from ..stats._utils import stable_mean
from ._attainable import fixed_note
from ._blocks import (
    ALPHA,
    Choice,
    Figure,
    FigurePanels,
    FloatsHere,
    Heading,
    Math,
    Paragraph,
    Table,
    Text,
    alpha_is,
    capital,
    count,
    decimals_of,
    fixed,
    level_is,
    names_list,
    num,
    the,
)
from ._document import DocumentMixin
from ._incomplete import csv_rows as replicability_csv_rows
from ._incomplete import (
    holes_sentences,
    replicability_blocks,
    replicability_lines,
    run_sd,
)
from ._incomplete import summary_lines as incomplete_summary_lines
from ._methods import (
    Bibliography,
    adjusted_name,
    estimators_sentence,
    fits_sentence,
    pairwise_settings_sentence,
    seed_text,
    tests_blocks,
    tests_items,
    version_sentence,
)
from ._pairwise import (
    matrix_fields,
    pair_a_better,
    pairs_tested,
    pairwise_lines,
    run_pairwise,
    split_pairs,
)
from ._roles import (
    decided_by,
    hooked_content,
    omnibus_sentence,
    p_evidence,
    pair_table,
    pairwise_sentences,
    posthoc_sentence,
    probability,
    ranking_content,
    rope_of,
    verdict_blocks,
)
from ._rows import TEST_COLUMNS, pair_row, test_row, with_extra_columns
from ._settings import settings_text
from ._study import (
    datasets_table,
    per_dataset_items,
    per_dataset_tests,
    seeds_sentence,
)
from ._text import format_number, join_lines, shared_ranks, short_names, text_table
from ._verdict import check_show, is_bayesian

__all__ = ["BenchmarkResult", "build_datasets_result"]

#: The columns of a benchmark's CSV table (a test's ``content`` may add
#: its own after them).
BENCHMARK_CSV = (
    "section",
    "test",
    "status",
    "estimator_a",
    "estimator_b",
    "mean_rank_a",
    "mean_rank_b",
    "mean_score_a",
    "mean_score_b",
    *TEST_COLUMNS,
    "correction",
    "note",
    "dataset",
    "estimator",
    "score",
    "rank",
)


class BenchmarkResult(DocumentMixin, Bunch):
    """The result of :func:`~sklearn_bcv.benchmark` or
    :func:`~sklearn_bcv.compare_scores`.

    A :class:`~sklearn.utils.Bunch` with fixed fields, listed here once
    (an unknown field is a ``TypeError``; one that does not apply is None).
    Printing it shows the estimators by mean rank, the Friedman test, the
    post hoc groups and the pairwise tests; :meth:`to_frame` gives the same
    as tables, :meth:`to_dict` and :meth:`to_json` as a JSON-safe document.

    Attributes
    ----------
    names : list of str
        The estimators' names.
    datasets : list of str
        The data sets' names.
    scores, ranks : ndarray of shape (n_datasets, k)
        Mean score and rank (1 = best) of each estimator on each data set.
    mean_scores, mean_ranks : ndarray of shape (k,)
        Their means over the data sets.
    tests : Bunch
        Omnibus and post hoc test name -> its result.
    skipped_tests : dict
        Test name -> why it was not run.
    pairwise : Bunch
        Pairwise test name -> its (k, k) table.
    alpha : float
        Significance level.
    alternative : str
        Alternative of the pairwise tests.
    correction : str or None
        Multiple-comparison correction of the pairwise p-values.
    control : str or None
        The control estimator, if any.
    verdict : Bunch
        ``omnibus_test``, ``omnibus_reject``, ``posthoc_test``,
        ``pairwise_test``, ``differ``, ``differ_by_test`` and ``text``.
    split_scores : ndarray or list of ndarray or None
        Per-split scores of each data set, when known.
    n_train, n_test : ndarray or None
        Training and test sizes of the splits, when known.
    scoring : str or None
        The scoring's name.
    fit_time, score_time, failed_fits : ndarray or None
        Per-split times and failures (:func:`~sklearn_bcv.benchmark`).
    per_dataset : Bunch or None
        Data set name -> its :class:`ManyComparisonResult`
        (:func:`~sklearn_bcv.benchmark`).
    effect_sizes : list of Bunch or None
        Effect sizes with their confidence intervals, one per pair compared
        (``a``, ``b``, ``kind``, ``estimate`` positive when ``a`` is better,
        ``confidence_interval``, ``confidence_level``, ``magnitude``,
        ``note``); see :func:`~sklearn_bcv.stats.effect_size`.
    effect_size_kind : str or None
        The kind of ``effect_sizes``.
    mean_differences : list of Bunch or None
        The mean difference of every pair of ``effect_sizes`` in the
        scores' units (``kind="mean_difference"``, positive when ``a`` is
        better), with its confidence interval.
    auto : Bunch or None
        The assumption tests and the path of ``tests="auto"``.
    greater_is_better : bool, default=True
        Whether a higher score is better (False for losses and errors).
    provenance : Bunch or None
        How the result was made, for the methods of its report:
        ``version`` (of sklearn_bcv), ``estimators`` (name -> the class and
        the parameters it changes; None when the scores were given),
        ``cv`` (the splitter, or None), ``random_state`` (the seed; None,
        or the kind of generator given) and ``given`` (``"scores"`` for
        :func:`~sklearn_bcv.compare_scores`, else None).
    missing : Bunch or None
        How missing scores were treated: ``mode`` (``missing=`` of
        :func:`~sklearn_bcv.compare_scores`: ``"error"``, ``"drop"`` or
        ``"skillings_mack"``), ``cells`` (``[data set, estimator]`` of every
        hole of the table given, or of every cell with a failed fit) and
        ``dropped`` (the data sets left out). With holes kept, ``scores``
        and ``ranks`` are NaN there, each data set ranks the estimators it
        has, and ``mean_scores`` and ``mean_ranks`` average over the data
        sets that score each estimator.
    runs : Bunch or None
        With several runs per cell: ``scores`` (n_datasets, k, n_runs) as
        given, ``n_runs`` (n_datasets, k) the runs of each cell, and
        ``correlation`` (0: independent runs; None: the set sizes give it).
        ``scores`` of the result are then the means over the runs.
    replicability : Bunch or None
        On how many data sets each pair differs
        (:func:`~sklearn_bcv.stats.replicability`, from a one-sided test of
        the pair on each data set alone): ``count`` (k, k), row better than
        column on at least that many data sets (at the error rate
        ``level``: ``alpha``, or ``alpha / 2`` each way when two-sided),
        ``identified`` (``(better, worse)`` -> the data sets, by Holm's
        procedure), ``tested`` (k, k), ``results`` (pair -> ``a_better``,
        ``b_better``: each the full result), ``method``, ``tests`` (the
        per-data-set tests), ``alpha``, ``level`` and ``alternative``. None
        without per-data-set p-values.
    """

    _FIELDS = (
        "names",
        "datasets",
        "scores",
        "mean_scores",
        "ranks",
        "mean_ranks",
        "tests",
        "skipped_tests",
        "pairwise",
        "alpha",
        "alternative",
        "correction",
        "control",
        "verdict",
        "split_scores",
        "n_train",
        "n_test",
        "scoring",
        "fit_time",
        "score_time",
        "failed_fits",
        "per_dataset",
        "effect_sizes",
        "effect_size_kind",
        "mean_differences",
        "auto",
        "greater_is_better",
        "provenance",
        "missing",
        "runs",
        "replicability",
    )
    _DEFAULTS = {"greater_is_better": True}

    def to_frame(self, kind="pairwise"):
        """The result as a :class:`pandas.DataFrame`.

        Parameters
        ----------
        kind : {"pairwise", "scores", "ranks"}, default="pairwise"
            ``"pairwise"``: one row per test and compared pair (the post hoc
            rank tests and the pairwise tests): ``test``, ``estimator_a``,
            ``estimator_b``, their mean ranks and mean scores, then
            ``statistic``, ``pvalue``, ``pvalue_adjusted`` and ``reject``
            (frequentist tests) or ``p_a_better``, ``p_rope``,
            ``p_b_better`` and ``reject`` (Bayesian tests and
            ``poisson_binomial``). ``"scores"`` and ``"ranks"``: the
            (n_datasets, k) table, rows = data sets, columns = estimators.

        Returns
        -------
        frame : pandas.DataFrame
        """
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - depends on the machine
            raise ImportError("to_frame needs pandas: pip install pandas") from exc
        if kind in ("scores", "ranks"):
            return pd.DataFrame(
                self[kind],
                index=pd.Index(self.datasets, name="dataset"),
                columns=list(self.names),
            )
        if kind != "pairwise":
            raise ValueError(
                f"kind must be 'pairwise', 'scores' or 'ranks'; got {kind!r}."
            )
        rows = [
            self._frame_row(test, table, a, b)
            for test, table, a, b in self._compared_pairs()
        ]
        return pd.DataFrame(rows)

    def _frame_row(self, test, table, a, b):
        row = {
            "test": test,
            "estimator_a": self.names[a],
            "estimator_b": self.names[b],
            "mean_rank_a": float(self.mean_ranks[a]),
            "mean_rank_b": float(self.mean_ranks[b]),
            "mean_score_a": float(self.mean_scores[a]),
            "mean_score_b": float(self.mean_scores[b]),
        }
        for field in matrix_fields(test):
            value = table.get(field)
            if value is not None:
                row[field] = np.asarray(value)[a, b].item()
        return row

    # ---- content ---------------------------------------------------------

    def _ranking(self):
        """Estimator indices, best first: by mean rank."""
        return sorted(range(len(self.names)), key=lambda j: self.mean_ranks[j])

    def _tests_of(self, role):
        """``{name: result}`` of the tests in ``tests`` declared ``role``."""
        return {
            name: test
            for name, test in self.tests.items()
            if declaration(name).role == role
        }

    def _contributions(self):
        """``{name: Contribution}`` of the tests worded otherwise than by
        their role's sentences here: those with a ``content`` hook (in
        ``tests`` or ``pairwise``) and those that decide nothing (a ranking,
        worded by :func:`~._roles.ranking_content` without a hook)."""
        rankings = set(self._rankings())
        out = {}
        for name, test in [*self.tests.items(), *self.pairwise.items()]:
            contribution = hooked_content(name, test, self)
            if contribution is None and name in rankings:
                contribution = ranking_content(name, test, self)
            if contribution is not None:
                out[name] = contribution
        return out

    def _rankings(self):
        """The tests in ``tests`` that decide nothing, in order."""
        return [
            name
            for name in self.tests
            if declaration(name).role not in ("omnibus", "posthoc")
        ]

    def _compared_pairs(self):
        """``(test, table, a, b)`` of every compared pair of every (k, k)
        test: the post hoc families, then the pairwise tests."""
        k = len(self.names)
        for test, table in self._tests_of("posthoc").items():
            tested = np.asarray(table.get("tested", ~np.eye(k, dtype=bool)))
            # The order of the pairwise tests: A first in names order, or the
            # other estimator (A) against the control (B).
            pairs = pairs_tested(
                k, None if self.control is None else self.names.index(self.control)
            )
            for a, b in pairs:
                if tested[a, b]:
                    yield test, table, a, b
        for test, table in self.pairwise.items():
            for name_a, name_b in table.results:
                yield test, table, self.names.index(name_a), self.names.index(name_b)

    def _summary_text(self, show):
        return _format_summary(self, show)

    def _report_blocks(self):
        return _report_blocks(self)

    def _report_figures(self):
        """The critical difference diagram of each post hoc family that
        draws one, the significance matrix of each pairwise test, the
        posterior of the closest pair of each Bayesian test, and the scores
        per data set."""
        return _figures(self)

    def _score_decimals(self):
        """The decimals of the scores as given: one precision for every
        number in score units (:func:`~._blocks.decimals_of`)."""
        split = self.get("split_scores")
        values = np.ravel(np.asarray(self.scores, dtype=float))
        if isinstance(split, np.ndarray):
            values = np.concatenate([values, np.ravel(split)])
        return decimals_of(values)

    def _csv_table(self):
        return _csv_table(self)


def build_datasets_result(
    table,
    *,
    rank_plan,
    pairwise_plan,
    correction,
    control,
    alpha,
    alternative,
    skipped=None,
):
    """The :class:`BenchmarkResult` of a :class:`ScoreTable`.

    ``control`` is a column index or None. ``skipped`` (test name -> reason)
    marks a comparison whose tests cannot run (a fit failed): then none run.
    """
    names = list(table.names)
    # Failed fits (error_score=np.nan) leave scores that cannot be ranked:
    # their ranks are NaN and no test runs (``skipped`` says why). A table
    # with holes kept (missing="skillings_mack") ranks each data set's
    # scores among themselves.
    finite = bool(np.all(np.isfinite(table.scores)))
    if finite or skipped:
        ranks = (
            rank_scores(table.scores) if finite else np.full(table.scores.shape, np.nan)
        )
        mean_scores, mean_ranks = stable_mean(table.scores, axis=0), ranks.mean(0)
    else:
        ranks = table_ranks(table.scores)
        mean_scores = nan_mean(table.scores, axis=0)
        mean_ranks = nan_mean(ranks, axis=0)
    result = BenchmarkResult(
        names=names,
        datasets=list(table.datasets),
        scores=table.scores,
        mean_scores=mean_scores,
        ranks=ranks,
        mean_ranks=mean_ranks,
        tests=Bunch(),
        skipped_tests=dict(skipped or {}),
        pairwise=Bunch(),
        alpha=alpha,
        alternative=alternative,
        correction=correction,
        control=None if control is None else names[control],
    )
    if table.split_scores is not None:
        result["split_scores"] = table.split_scores
    result["n_train"], result["n_test"] = table.n_train, table.n_test
    if not skipped:
        # The tie rule reads the precision of the scores as given (float32).
        with scores_precision(getattr(table, "precision", 0.0)):
            result["tests"] = run_tests(
                rank_plan, table.all_needs(), alpha, "two-sided"
            )
            result["pairwise"] = run_pairwise(
                pairwise_plan,
                names,
                table.pair_needs,
                control=control,
                correction=correction,
                alpha=alpha,
                alternative=alternative,
                needs_of_pairs=table.pairs_needs,
            )
    result["verdict"] = _verdict(result)
    return result


def _rank_differ(result, test):
    """Pairs ``(better, worse)`` a post hoc rank test separates, best first."""
    tested = np.asarray(test.get("tested", ~np.eye(len(result.names), dtype=bool)))
    reject = np.asarray(test.reject, dtype=bool) & tested
    pairs = set()
    for a, b in zip(*np.nonzero(reject)):
        a, b = int(a), int(b)
        a_better = result.mean_ranks[a] <= result.mean_ranks[b]
        pairs.add((a, b) if a_better else (b, a))
    rank = result.mean_ranks
    return sorted(pairs, key=lambda pair: (rank[pair[0]], rank[pair[1]]))


def _verdict(result):
    verdict = Bunch(
        omnibus_test=None,
        omnibus_reject=None,
        posthoc_test=None,
        pairwise_test=None,
        differ=[],
        differ_by_test={},
        text="",
    )
    if result.skipped_tests and not result.tests and not result.pairwise:
        reasons = sorted(set(result.skipped_tests.values()))
        verdict.text = f"Verdict: none; no test was run ({'; '.join(reasons)})."
        return verdict
    lines = []
    own = result._contributions()

    def said(name, lines):  # a test's own content, else its role's lines
        return own[name].summary if name in own else lines

    omnibus = result._tests_of("omnibus")
    if omnibus:
        name, test = next(iter(omnibus.items()))
        verdict.omnibus_test, verdict.omnibus_reject = name, bool(test.reject)
        lines += said(name, [_omnibus_line(result, name, test)])
        lines += _fixed_lines(result, name, test)
    for name, test in result._tests_of("posthoc").items():
        differ = _rank_differ(result, test)
        verdict.differ_by_test[name] = _named(result, differ)
        verdict.posthoc_test = verdict.posthoc_test or name
        lines += said(name, _rank_lines(result, name, test, differ))
        lines += _fixed_lines(result, name, test)
    for name in result._rankings():
        lines += own[name].summary
    for name, table in result.pairwise.items():
        differ, same = split_pairs(result, name, table)
        verdict.differ_by_test[name] = _named(result, differ)
        verdict.pairwise_test = verdict.pairwise_test or name
        lines += said(name, pairwise_lines(result, name, table, differ, same))
        lines += _fixed_lines(result, name, table)
    first = verdict.posthoc_test or verdict.pairwise_test
    if first is not None:
        verdict.differ = verdict.differ_by_test[first]
    verdict.text = join_lines(lines) if lines else "Verdict: none; no test was run."
    return verdict


def _fixed_lines(result, name, test):
    """The note of a verdict no outcome could change (its smallest
    attainable p-value, after the correction in use, is not below alpha)."""
    note = fixed_note(name, test, result)
    return [] if note is None else [f"  note: {str(note)}"]


def _named(result, pairs):
    return [(result.names[a], result.names[b]) for a, b in pairs]


def _omnibus_line(result, name, test):
    outcome = (
        "the estimators differ"
        if test.reject
        else "no significant difference among the estimators"
    )
    decided = decided_by(test, len(result.names))
    if decided is None:
        text = (
            f"{name}: statistic {format_number(test.statistic)} (df "
            f"{format_number(test.df)}, p = {format_number(test.pvalue, 3)})"
        )
    else:
        text = (
            f"{name}: statistic {format_number(test.statistic)} (df "
            f"{format_number(test.df)}), p = {format_number(test.pvalue, 3)} by "
            f"{str(decided)}"
        )
    supplementary = []
    if decided is not None and test.get("method") != "chi2":
        chi2_p = test.get("pvalue_chi2")
        if chi2_p is not None:
            supplementary.append(f"chi-squared p = {format_number(chi2_p, 3)}")
    iman = test.get("iman_davenport")
    if iman is not None and test.get("method") != "iman_davenport":
        supplementary.append(
            f"Iman-Davenport F {format_number(iman.statistic)} (df "
            f"{format_number(tuple(iman.df))}, p = {format_number(iman.pvalue, 3)})"
        )
    if supplementary:
        text += ("; supplementary: " if decided else ", ") + ", ".join(supplementary)
    return f"{text}: {outcome} at alpha={result.alpha}."


def _rank_lines(result, name, test, differ):
    cd = test.get("critical_difference")
    cd_text = "" if cd is None else f", critical difference {format_number(cd, 3)}"
    if cd is not None and test.get("continuity"):
        n, k = len(result.datasets), len(result.names)
        half = nemenyi_continuity(k, n)
        cd_text += (
            f" (with the continuity correction {'1/N' if k == 2 else '1/(2N)'} = "
            f"{format_number(half, 3)};"
            f" the textbook CD of Demšar is {format_number(cd - half, 3)})"
        )
    correction = test.get("correction")
    label = name
    if correction is not None and not name.startswith(
        ("holm", "bonferroni")  # the test's name says it already
    ):
        label = f"{name} ({correction})"
    lines = [
        f"Post hoc {label} on mean {declaration(name).compares or 'ranks'}"
        f"{cd_text}: {len(differ)} "
        f"{'pair differs' if len(differ) == 1 else 'pairs differ'} at "
        f"alpha={result.alpha} (family-wise)."
    ]
    if differ:
        width = max(len(result.names[better]) for better, _ in differ)
        p = test.get("pvalue_adjusted", test.get("pvalue"))
        for better, worse in differ:
            p_text = (
                ""
                if p is None
                else f"  p = {format_number(np.asarray(p)[better, worse], 3)}"
            )
            lines.append(
                f"  {result.names[better]:<{width}} > {result.names[worse]}{p_text}"
            )
    return lines


def _format_summary(result, show="default"):
    check_show(show)
    k, n = len(result.names), len(result.datasets)
    scoring = result.get("scoring")
    lines = [
        f"Comparison of {k} estimators on {n} data sets"
        + (f", scoring: {scoring}" if scoring else "")
    ]
    sign = 1.0 if result.get("greater_is_better", True) else -1.0
    order = sorted(
        range(k), key=lambda j: (result.mean_ranks[j], -sign * result.mean_scores[j])
    )
    decimals = result._score_decimals()
    ranks = shared_ranks([float(result.mean_ranks[j]) for j in order])
    rows = [
        (
            str(rank),
            result.names[j],
            f"{result.mean_ranks[j]:.3f}",
            fixed(result.mean_scores[j], decimals),
        )
        for rank, j in zip(ranks, order)
    ]
    lines += [
        "  " + line
        for line in text_table(
            ("rank", "estimator", "mean rank", "mean score"),
            rows,
            right_aligned=(0, 2, 3),
        )
    ]
    auto = result.get("auto")
    if auto:
        lines.append(f"tests chosen automatically ({auto.path}): {auto.reason}")
    failed = result.get("failed_fits")
    if failed is not None:
        where = [d for d, f in zip(result.datasets, failed) if np.any(f)]
        if where:
            lines.append(f"fits failed on: {', '.join(where)} (see failed_fits)")
    lines += incomplete_summary_lines(result)
    lines += result.verdict.text.split("\n")
    lines += replicability_lines(result)
    return join_lines(lines)


# --------------------------------------------------------------------------
# The report


def _report_blocks(result):
    names = list(result.names)
    k = len(names)
    alpha = result.alpha
    bibliography = Bibliography()
    data_table = datasets_table(result)
    blocks = [
        Heading("Methods"),
        *[Paragraph(p) for p in _methods(result, bibliography, data_table)],
    ]
    if data_table is not None:
        blocks.append(data_table)
    blocks += _auto_blocks(result.get("auto"))
    blocks += tests_blocks(
        tests_items(
            [*result.tests, *result.pairwise],
            bibliography,
            skipped=result.get("skipped_tests"),
        )
        + per_dataset_items(result, bibliography)
    )
    blocks.append(FloatsHere())  # LaTeX: the tables and figures from here on
    own = result._contributions()
    verdict = result.verdict
    what = f"the {k} estimators"
    sentences = {}  # test name -> its sentences, in the order of the report
    for name, test in result._tests_of("omnibus").items():
        sentences[name] = [omnibus_sentence(name, test, alpha, what)]
    for name, test in result._tests_of("posthoc").items():
        pairs = verdict.differ_by_test.get(name, [])
        sentences[name] = [
            posthoc_sentence(
                name,
                test,
                pairs,
                alpha,
                len(result.datasets),
                evidence=p_evidence(result.names, test, pairs),
            )
        ]
    sentences.update(dict.fromkeys(result._rankings(), []))
    sentences.update(
        pairwise_sentences(names, result.pairwise, verdict.differ_by_test, alpha)
    )
    for name, test in [*result.tests.items(), *result.pairwise.items()]:
        note = fixed_note(name, test, result, sentence=True)
        if note is not None and name in sentences:
            sentences[name] = [*sentences[name], note]
    verdicts, tables = verdict_blocks(sentences, own, verdict.text)
    blocks += verdicts
    blocks += _effect_blocks(result, bibliography)
    scores = _scores_tables(result)
    if len(scores) > 1:
        # A paper's pages: the sds are the bars of the figure of the scores
        # per data set (the other formats give their table too).
        scores = [scores[0], Choice(scores[1:], [])]
    blocks += [Heading("Tables"), *scores]
    pair_tables = _pair_tables(result, own)
    combined = _all_pairs_table(result, own) if len(pair_tables) > 1 else None
    blocks += pair_tables if combined is None else [Choice(pair_tables, [combined])]
    blocks += _per_dataset_tables(result)
    blocks += replicability_blocks(result, bibliography)
    blocks += tables
    blocks += result._report_figures()
    blocks += bibliography.blocks()
    return blocks


def _design_sentence(result, bibliography):
    """How the scores were obtained: the splitter and its seed on every
    data set, or, for scores given, that this is not known here."""
    provenance = result.get("provenance") or {}
    per_dataset = result.get("per_dataset") or {}
    split = result.get("split_scores")
    if provenance.get("given") or not per_dataset:
        given = (
            f"the scores of each of the {np.shape(split)[1]} splits of every data set"
            if isinstance(split, np.ndarray)
            else "one score per data set and estimator"
        )
        if result.get("runs"):
            given = "the score of each run of every estimator on every data set"
        return (
            f"The scores were given as a table ({given}): how they were obtained "
            "(the splitter, its seed, the fits) is not known to sklearn_bcv and "
            "is not stated here."
        )
    designs = sorted({one.design.describe() for one in per_dataset.values()})
    splits = sorted({one.design.n_splits for one in per_dataset.values()})
    design = designs[0] if len(designs) == 1 else " or ".join(designs)
    what = (
        f"{count(splits[0], 'split')} each"
        if len(splits) == 1
        else f"{'-'.join(map(str, (splits[0], splits[-1])))} splits"
    )
    cv = provenance.get("cv")
    kinds = {one.design.kind for one in per_dataset.values()}
    cite = bibliography.cite(
        [ref for kind in sorted(kinds) for ref in SPLITTER_REFERENCES.get(kind, ())]
    )
    seeded = any(
        d.get("seed") is not None for d in (provenance.get("datasets") or {}).values()
    )  # then a sentence of its own says how the seeds derive
    seed = None if seeded else seed_text(provenance)
    how = "; ".join(part for part in (cv, seed, cite) if part)
    return (
        f"Each estimator was fitted and scored on the splits of a {design} of "
        f"every data set ({what}; {how}), scoring {result.get('scoring')}."
    )


def _methods(result, bibliography, data_table=None):
    """The paragraphs of the methods: what was compared, how (the data
    sets, the seeds), how it was decided (every test's settings), and with
    which software."""
    names, datasets = list(result.names), list(result.datasets)
    k, n = len(names), len(datasets)
    provenance = result.get("provenance")
    compared = (
        f"{k} estimators ({names_list(names)}) were compared on {n} data sets"
        + (f" ({names_list(datasets)})" if n <= 12 else "")
    )
    scoring = result.get("scoring")
    if scoring and not result.get("per_dataset"):
        compared += f", scoring {scoring}"
    compared += "."
    if result.get("control"):
        compared += f" Control: {result.control}."
    first = [compared, estimators_sentence(names, provenance)]
    first.append(_design_sentence(result, bibliography))
    fits = fits_sentence(result.get("failed_fits"))
    if fits:
        first.append(f"In all, {fits}")
    first += holes_sentences(result)
    if not result.get("greater_is_better", True):
        first.append("A lower score is better (a loss or an error).")
    second = []
    if result._tests_of("omnibus") or result._tests_of("posthoc"):
        second.append(
            "The estimators were ranked on each data set (1 = best; ties share "
            "their mean rank), and every data set counts as one observation."
        )
    settings = pairwise_settings_sentence(result, bibliography, by_test=True)
    paragraphs = [" ".join(first)]
    seeds = seeds_sentence(result, data_table)
    if seeds is not None:
        paragraphs.append(seeds)
    decided = Text(" ".join(second) + (" " if second else ""), settings)
    each = settings_text(result, bibliography, seeded=seeds is None, with_rope=False)
    if each is not None:
        decided += Text(" ", each)
    paragraphs.append(decided)
    paragraphs.append(version_sentence(provenance))
    return paragraphs


def _auto_blocks(auto):
    """The assumptions the automatic path checked, and its choice."""
    if not auto:
        return []
    text = f"Automatic path: {auto.get('path')}."
    if auto.get("reason"):
        text += f" {auto.get('reason')}"
    normality = auto.get("normality") or []
    if normality:
        parts = [
            f"{n.get('estimator')} (W = {num(n.get('statistic'))}, p = "
            f"{num(n.get('pvalue'))}, {'normal' if n.get('normal') else 'not normal'})"
            for n in normality
        ]
        text += " Shapiro-Wilk tests of normality: " + "; ".join(parts) + "."
    variance = auto.get("variance")
    if variance:
        text += (
            f" {variance.get('test')} test of equal variances: statistic "
            f"{num(variance.get('statistic'))}, p = {num(variance.get('pvalue'))}"
            f" ({'equal' if variance.get('equal') else 'unequal'})."
        )
    if auto.get("effect_size_kind"):
        text += f" Effect size reported: {auto.get('effect_size_kind')}."
    return [Heading("Assumptions checked"), Paragraph(text)]


#: How a table heads the kinds of effect sizes (LaTeX: the symbol in math).
EFFECT_NAMES = {
    "cohen_dz": Text("Cohen's ", Math("d_z", "d_z", r"d_{\mbox{\scriptsize$z$}}")),
    "cohen_d": Text("Cohen's ", Math("d", "d")),
    "cliff_delta": Text("Cliff's ", Math(r"\delta", "delta")),
    "akinshin_gamma": Text("Akinshin's ", Math(r"\gamma", "gamma")),
}


#: The symbol of each kind of effect size, in a table's header.
EFFECT_SYMBOLS = {
    kind: Text(*[piece for piece in name.pieces if isinstance(piece, Math)])
    for kind, name in EFFECT_NAMES.items()
}


#: Below this many data sets a report says that the bootstrap intervals
#: of the effect sizes run narrower than their level (doc/reproduction.rst:
#: 0.88 for a 95% interval of a mean difference over 7 data sets).
SMALL_BOOTSTRAP = 15


def _effect_blocks(result, bibliography):
    """The effect sizes of every pair with their confidence intervals: the
    mean difference in the scores' units beside the standardised kind, one
    column per number (each estimate and the two ends of its interval),
    the kinds in the header; the paragraph says how the intervals hold (per
    pair, or simultaneously over the pairs)."""
    effects = result.get("effect_sizes")
    if not effects:
        return []
    differences = result.get("mean_differences") or []
    kind = effects[0].get("kind")
    standardised = kind != "mean_difference"
    by_pair = {(e.get("a"), e.get("b")): e for e in differences}
    units = result._score_decimals()
    values = [e.get("estimate") for e in effects] + [
        bound for e in effects for bound in (e.get("confidence_interval") or ())
    ]
    decimals = max(2, min(3, decimals_of(values, significant=2)))

    def numbers(effect, places):
        if effect is None:
            return ["-", "-", "-"]
        lo, hi = effect.get("confidence_interval") or (None, None)
        return [fixed(v, places) for v in (effect.get("estimate"), lo, hi)]

    rows = []
    position = {result.names[j]: n for n, j in enumerate(result._ranking())}
    effects = sorted(
        effects,
        key=lambda e: sorted(
            (position.get(e.get("a"), 0), position.get(e.get("b"), 0))
        ),
    )  # in the order of the estimators' mean ranks, as everywhere
    for e in effects:
        pair = (e.get("a"), e.get("b"))
        row = [*pair]
        if standardised and differences:
            row += numbers(by_pair.get(pair), units)
        row += numbers(e, decimals if standardised else units)
        if standardised:
            row.append(e.get("magnitude") or "-")
        rows.append(row)
    name = EFFECT_NAMES.get(kind, Text(str(kind)))
    # The header names the kind by its symbol (the caption by its name).
    symbol = EFFECT_SYMBOLS.get(kind, name)
    header = ["A", "B"]
    if standardised and differences:
        header += ["difference", "low", "high"]
    header += [symbol, "low", "high"] if standardised else ["difference", "low", "high"]
    if standardised:
        header.append("magnitude")
    level = effects[0].get("confidence_level")
    family = effects[0].get("simultaneous_level")
    asymptotic = any("asymptotic" in (e.get("note") or "") for e in effects)
    how = "asymptotic (normal)" if asymptotic else "bootstrap"
    cite = bibliography.cite(
        list(EFFECT_SIZE_REFERENCES.get(kind, ()))
        + ([] if asymptotic else list(EFFECT_SIZE_REFERENCES["bootstrap"]))
    )
    if family is not None:
        intervals = (
            f"simultaneous {100 * family:g}% {how} confidence intervals over the "
            f"{count(len(effects), 'pair')} (Bonferroni: each at "
            f"{100 * level:.4g}%), which cover all the effects together"
        )
        short = f"simultaneous {100 * family:g}% intervals"
    else:
        intervals = (
            f"{100 * level:g}% {how} confidence intervals, each for its own pair, "
            "not adjusted for the number of pairs"
        )
        short = f"{100 * level:g}% intervals, each for its own pair"
    what = (
        Text("the mean difference of the scores (in their units) and ", name)
        if standardised and differences
        else Text(
            name
            if standardised
            else "the mean difference of the scores (in their units)"
        )
    )
    n = len(result.datasets)
    caveat = (
        f" With {n} data sets, bootstrap intervals are narrower than their "
        "level (a 95% interval held 84% to 88% of the time over 7 data sets in "
        "the simulation of sklearn_bcv's reproduction guide, “The mean "
        "difference, one pair and all the pairs at once”): read them as "
        "approximate."
        if n < SMALL_BOOTSTRAP and not asymptotic
        else ""
    )
    return [
        Heading("Effect sizes"),
        Paragraph(
            Text(
                "Effect sizes of every pair (positive: the first estimator is "
                "better): ",
                what,
                f", with {intervals}" + (f" ({cite})" if cite else "") + "." + caveat,
            )
        ),
        Table(
            header,
            rows,
            caption=Text("Effect sizes (positive: A better): ", what, f"; {short}."),
            label="effect-sizes",
            label_columns=2,
            names=list(result.names),
        ).introduce("the effect sizes with their intervals"),
    ]


def _marks_against(result, names):
    """Columns differing from the best (or the control) by the first post hoc
    family, and the note saying so."""
    posthoc = result._tests_of("posthoc")
    if not posthoc:
        return set(), None
    name, test = next(iter(posthoc.items()))
    control = result.get("control")
    rank = np.asarray(result.mean_ranks)
    ref = names.index(control) if control else int(np.argmin(rank))
    reject = np.asarray(test.reject, dtype=bool)
    tested = np.asarray(test.get("tested", ~np.eye(len(names), dtype=bool)))
    marked = {
        j for j in range(len(names)) if j != ref and reject[ref, j] and tested[ref, j]
    }
    what = "the control" if control else "the best (lowest mean rank)"
    how = [the(declaration(name).title)]
    if test.get("correction"):
        how.append(f"{adjusted_name(test.correction)} correction")
    if test.get("continuity"):
        how.append("critical difference with continuity correction")
    if marked:
        note = Text(
            f"† differs from {what}, {names[ref]}, by {', '.join(how)} at ",
            alpha_is(result.alpha),
            ".",
        )
    else:
        note = Text(
            f"No estimator differs from {what}, {names[ref]}, by {', '.join(how)} at ",
            alpha_is(result.alpha),
            ".",
        )
    return marked, note


#: Beyond this many estimators the spread over the splits gets a table of
#: its own, so the table of scores stays narrow enough for a paper's
#: column.
MAX_INLINE_SD = 4


def _split_sd(result):
    """The sd of each data set's per-split scores (or of each cell's runs),
    (n_datasets, k), or None."""
    split = result.get("split_scores")
    if split is not None and np.ndim(split) == 3 and np.shape(split)[1] > 1:
        return np.std(np.asarray(split, dtype=float), axis=1, ddof=1)
    runs = (result.get("runs") or {}).get("scores")
    if runs is not None and np.shape(runs)[2] > 1:
        return run_sd(runs)
    return None


def _spread_of(result):
    """What :func:`_split_sd` is over: ``"the splits"`` or ``"the runs"``."""
    return "the runs" if result.get("runs") else "the splits"


def _scores_tables(result):
    """Mean score (± sd over the splits, up to :data:`MAX_INLINE_SD`
    estimators) per data set and estimator, and the mean scores and ranks;
    the best of each data set's row in bold (not the mean score over the
    data sets: scores of different data sets are not compared). The
    estimators in the order of their mean ranks, as everywhere in the
    report. Beyond, the sds in a table of their own."""
    order = result._ranking()
    names = [result.names[j] for j in order]
    k = len(names)
    decimals = result._score_decimals()
    scores = np.asarray(result.scores, dtype=float)[:, order]
    sd = _split_sd(result)
    sd = None if sd is None else sd[:, order]
    inline = sd is not None and k <= MAX_INLINE_SD
    sign = 1.0 if result.get("greater_is_better", True) else -1.0
    rows, bold = [], []
    for i, dataset in enumerate(result.datasets):
        row = [dataset]
        for j in range(k):
            cell = fixed(scores[i, j], decimals)
            if inline:
                cell += f" ± {fixed(sd[i, j], decimals)}"
            row.append(cell)
        best = np.flatnonzero(sign * scores[i] == np.nanmax(sign * scores[i]))
        bold += [(i, 1 + int(j)) for j in best]
        rows.append(row)
    i = len(rows)
    mean_scores = np.asarray(result.mean_scores, dtype=float)[order]
    rows.append(["mean score", *[fixed(v, decimals) for v in mean_scores]])
    mean_ranks = np.asarray(result.mean_ranks, dtype=float)[order]
    rows.append(["mean rank", *[f"{v:.3f}" for v in mean_ranks]])
    best = np.flatnonzero(mean_ranks == np.min(mean_ranks))
    bold += [(i + 1, 1 + int(j)) for j in best]
    marked, note = _marks_against(result, list(result.names))
    position = {j: n for n, j in enumerate(order)}
    caption = "Mean score" + (f" (± sd over {_spread_of(result)})" if inline else "")
    caption += (
        " per data set and estimator, the estimators by mean rank (1 = best); "
        "the best of each data set in bold (the mean score over the data sets "
        "is not compared)."
    )
    table = Table(
        ["data set", *names],
        rows,
        caption=caption,
        label="scores",
        bold=bold,
        marked={(i + 1, 1 + position[j]) for j in marked},
        notes=[note] if note else [],
        rules={i},
        names=names,
    )
    tables = [
        table.introduce(
            "the mean score of each estimator on each data set and the mean ranks"
        )
    ]
    if sd is not None and not inline:
        sds = Table(
            ["data set", *names],
            [
                [dataset, *[fixed(v, decimals) for v in sd[i]]]
                for i, dataset in enumerate(result.datasets)
            ],
            caption=f"Standard deviation of the scores over {_spread_of(result)} "
            "of each data set.",
            label="scores-sd",
            names=names,
        )
        tables.append(
            sds.introduce(f"their standard deviations over {_spread_of(result)}")
        )
    return tables


def _pair_tables(result, own):
    """A table of every pair of each post hoc family and pairwise test
    (those without their own content)."""
    names = list(result.names)
    rank = np.asarray(result.mean_ranks, dtype=float)
    by_test = {}
    for name, table, a, b in result._compared_pairs():
        by_test.setdefault(name, (table, []))[1].append((a, b))
    # The pairs in the order of the estimators' mean ranks (as everywhere).
    position = {j: n for n, j in enumerate(result._ranking())}
    tables = []
    for name, (table, pairs) in by_test.items():
        if name in own:
            continue
        pairs = sorted(pairs, key=lambda ab: sorted((position[ab[0]], position[ab[1]])))
        posthoc = name in result.tests
        if posthoc:
            compares = declaration(name).compares or "ranks"
            mean_ranks = rank if compares == "ranks" else None

            def a_better(a, b):
                return rank[a] <= rank[b]

        else:
            mean_ranks = None

            def a_better(a, b, name=name, table=table):
                return pair_a_better(result, name, table, a, b)

        tables.append(
            pair_table(
                name,
                table,
                pairs,
                names,
                alpha=result.alpha,
                a_better=a_better,
                mean_ranks=mean_ranks,
            )
        )
    return tables


def _all_pairs_table(result, own):
    """One table of every pair by every post hoc and pairwise test (a
    paper's compact form of their tables): each test's deciding numbers —
    a frequentist test's family-wise or adjusted p-value, a Bayesian test's
    posterior probabilities — bold where it decides; None when a test has
    its own content."""
    names = list(result.names)
    by_test = {}
    for name, table, a, b in result._compared_pairs():
        if name in own:
            return None
        by_test.setdefault(name, (table, set()))[1].add((a, b))
    position = {j: n for n, j in enumerate(result._ranking())}
    pairs = sorted(
        {pair for _, tested in by_test.values() for pair in tested},
        key=lambda ab: sorted((position[ab[0]], position[ab[1]])),
    )
    alpha = result.alpha
    header, columns, described = ["A", "B"], [], []
    for name, (table, _) in by_test.items():
        title = declaration(name).title
        short = _TEST_SHORT.get(name, title)
        if is_bayesian(name):
            rope = max(
                [rope_of(r) for r in (table.get("results") or {}).values()] or [0.0]
            )
            fields = [("p_a_better", "P(A)")]
            if rope > 0:
                fields.append(("p_rope", "P(rope)"))
            fields.append(("p_b_better", "P(B)"))
            for field, label in fields:
                header.append(f"{short} {label}")
                columns.append((name, table, field, lambda v: v > 1 - alpha))
            what = "posterior probabilities" + (
                f", rope ±{rope:g}" if rope > 0 else ", no rope"
            )
        else:
            adjusted = table.get("pvalue_adjusted")
            correction = table.get("correction")
            field = "pvalue" if adjusted is None else "pvalue_adjusted"
            header.append(
                f"{short} p" + (f" ({adjusted_name(correction)})" if correction else "")
            )
            columns.append((name, table, field, lambda v: v < alpha))
            what = (
                f"{adjusted_name(correction)}-adjusted p-values"
                if correction
                else "family-wise p-values"
                if adjusted is not None
                else "p-values"
            )
        described.append(
            f"{the(title)}" + (f" ({short})" if short != title else "") + f", {what}"
        )
    rows, bold = [], set()
    for i, (a, b) in enumerate(pairs):
        row = [names[a], names[b]]
        for name, table, field, decides in columns:
            if (a, b) not in by_test[name][1]:
                row.append("-")
                continue
            value = float(np.asarray(table[field])[a, b])
            if decides(value):
                bold.add((i, len(row)))
            row.append(probability(value))
        rows.append(row)
    caption = Text(
        "Every pair by every test: "
        + "; ".join(described)
        + ". Bold: a decision (a p-value below ",
        alpha_is(alpha),
        ", a posterior probability above ",
        level_is(alpha),
        "); the Bayesian tests are not adjusted for the number of pairs.",
    )
    table = Table(
        header,
        rows,
        caption=caption,
        label="pairs",
        bold=bold,
        label_columns=2,
        names=names,
    )
    return table.introduce("every pair by every test, its decisions in bold")


#: Short names of tests in the header of the table of every pair.
_TEST_SHORT = {
    "nemenyi": "Nemenyi",
    "wilcoxon": "Wilcoxon",
    "sign": "sign",
    "poisson_binomial": "PB",
    "bayesian_signed_rank": "BSR",
    "bayesian_sign": "BS",
    "bayesian_hierarchical": "BH",
    "bonferroni_dunn": "Bonferroni-Dunn",
    "holm": "Holm",
}


def _per_dataset_tables(result):
    """The tests of each data set on its own (``per_dataset``): the
    omnibus test, the pairs its first pairwise test separates, and the
    best estimator there."""
    per_dataset = result.get("per_dataset")
    if not per_dataset:
        return []
    omnibus = sorted({name for one in per_dataset.values() for name in one.tests})
    pairwise = sorted({name for one in per_dataset.values() for name in one.pairwise})
    one_each = len(omnibus) <= 1 and len(pairwise) <= 1
    header = ["data set", "records"]
    if not one_each:
        header.append("tests")
    header += ["statistic", "p", "pairs that differ", "best"]
    rows, bold = [], set()
    decimals = []
    for dataset, one in per_dataset.items():
        name, test = next(iter(one.tests.items()), (None, None))
        pair_test = one.verdict.get("pairwise_test")
        differ = (
            len(one.verdict.differ_by_test.get(pair_test, [])) if pair_test else None
        )
        n_pairs = len(one.pairwise[pair_test].results) if pair_test else 0
        best = one.names[int(np.argmax(one.mean_scores))]
        stat = None if test is None else test.get("statistic")
        decimals.append(stat)
        row = [dataset, str(one.design.n_samples)]
        if not one_each:
            row.append(" / ".join(t for t in (name, pair_test) if t) or "-")
        row += [
            stat,
            "-" if test is None else probability(test.get("pvalue")),
            "-" if differ is None else f"{differ} of {n_pairs}",
            best,
        ]
        if test is not None and test.get("reject"):
            bold.add((len(rows), len(row) - 3))
        rows.append(row)
    stat_decimals = decimals_of([d for d in decimals if d is not None], max_decimals=2)
    column = header.index("statistic")
    for row in rows:
        row[column] = fixed(row[column], stat_decimals)
    _, _, correction = per_dataset_tests(result)
    adjusted = (
        f", {adjusted_name(correction)}-adjusted over the data set's pairs"
        if correction
        else ", not adjusted for the number of pairs"
    )
    what = []
    if one_each and omnibus:
        what.append(
            f"the {declaration(omnibus[0]).title} of the {len(result.names)} "
            "estimators"
            + (" (this library's extension)" if omnibus[0] == "bcv_cochran_q" else "")
        )
    if one_each and pairwise:
        what.append(
            f"the number of pairs its {declaration(pairwise[0]).title} separates"
            + adjusted
        )
    caption = Text(
        "Each data set on its own"
        + (f": {' and '.join(what)}" if what else "")
        + " (on its own splits; bold: p below ",
        alpha_is(result.alpha),
        "), and the best estimator there by mean score.",
    )
    table = Table(
        header,
        rows,
        caption=caption,
        label="per-dataset",
        bold=bold,
        label_columns=1,
        names=list(result.names),
    )
    return [table.introduce("the tests of each data set on its own splits")]


#: The side of a cell of a significance matrix at print size, inches: its
#: value ("0.966" at 7.5 pt) with room around it.
MATRIX_CELL = 0.32


def _matrix_figure(result, posteriors=()):
    """One figure of the significance matrices of every pairwise test, as
    panels side by side, rows and columns numbered by mean rank (the key and
    the colours in the caption), then the ``posteriors`` (figures of
    :func:`_posterior_figures`) as panels; None without a pairwise test."""
    tests = list(result.pairwise)
    if not tests:
        return None
    k = len(result.names)
    panel = k * MATRIX_CELL + 0.5  # the cells, the row numbers, a margin
    n_panels = len(tests) + len(posteriors)

    def columns(width):
        return max(1, int(width // panel))

    parts = []
    for name in tests:
        title = declaration(name).title
        if is_bayesian(name):
            parts.append(f"{the(title)} (its decision)")
        else:
            correction = result.pairwise[name].get("correction")
            how = f"{adjusted_name(correction)}-adjusted" if correction else "the"
            parts.append(Text(f"{the(title)} ({how} p-values, red below ", ALPHA, ")"))
    text = Text("Every pair by ")
    for i, part in enumerate(parts):
        sep = "" if i == 0 else (" and " if i == len(parts) - 1 else ", ")
        text += Text(sep, part)
    if posteriors:
        text += Text(", then ", posteriors[0].intro)
    if any(is_bayesian(name) for name in tests):
        text += (
            ". A decision is blue (the row better), red (the column better) or "
            "green (neither: the rope), darker as its probability, in bold, nears "
            "1; a pale tint: no decision (the likelier outcome's probability)"
        )
    labels = short_names(result.names)  # as the figure writes them
    key = ", ".join(
        f"{n} {labels[j]}" for n, j in enumerate(result._ranking(), start=1)
    )
    caption = text + f". Rows (A) and columns (B) by mean rank: {key}."
    figure = FigurePanels(
        caption,
        [
            (
                "SignificanceMatrixDisplay",
                {
                    "test": name,
                    "column_labels": "numbers",
                    "row_labels": False,
                    "colorbar": False,
                    "cell_fontsize": "small",
                    "title": declaration(name).title,
                },
            )
            for name in tests
        ]
        + [(posterior.display, posterior.params) for posterior in posteriors],
        result,
        columns=columns,
        row_height=0.62 + k * MATRIX_CELL,
        label="significance",
        size=(min(n_panels, 3) * panel, 0.62 + k * MATRIX_CELL),
        width="page" if n_panels > 2 else "line",
        max_width=n_panels * panel,
    )
    intro = Text("the decisions on every pair, in colour")
    for posterior in posteriors:
        intro += Text(", and ", posterior.intro)
    return figure.introduce(intro)


def _figures(result):
    """The figures of the report (see :meth:`BenchmarkResult._report_figures`),
    each drawn for the width a paper sets it at, with its introduction."""
    figures = []
    k = len(result.names)
    for name in result._tests_of("posthoc"):
        if declaration(name).diagram is not None:
            title = declaration(name).title
            figure = Figure(
                f"Critical difference diagram ({title}).",
                "CriticalDifferenceDisplay",
                result,
                {"test": name},
                label=f"critical-difference-{name}",
                height=0.85 + 0.22 * (-(-k // 2)),
            )
            figures.append(figure.introduce("the critical difference diagram"))
    posteriors = _posterior_figures(result)
    # One figure: the decisions on every pair, then the posterior of the two
    # best (a panel each), rather than floats of their own.
    matrices = _matrix_figure(result, posteriors)
    if matrices is not None:
        figures.append(matrices)
        posteriors = []
    figures += posteriors
    figures += [
        Figure(
            f"{capital(the(declaration(name).title))}: the posterior probability "
            "that each estimator is the best, and its weight with its credible "
            "interval.",
            "RankProbabilityDisplay",
            result,
            {"test": name},
            label=f"ranking-{name}",
        ).introduce("each estimator's probability of being the best")
        for name in result._rankings()
        if declaration(name).posterior == "ranking"
    ]
    n = len(result.datasets)
    bars = _split_sd(result) is not None
    figures.append(
        Figure(
            "The score of each estimator on each data set"
            + (" (bars: sd over the splits)." if bars else "."),
            "DatasetScoresDisplay",
            result,
            label="dataset-scores",
            size=(6.4, min(2.0 + 0.35 * n, 9.0)),
            height=min(0.85 + 0.15 * n + 0.17 * (-(-k // 4)), 9.0),
        ).introduce("the scores on each data set")
    )
    return figures


def _posterior_figures(result):
    """The posterior simplex of each test that declares one (``posterior``
    of :func:`~sklearn_bcv.register_test`), for the pair of the best
    estimator (or the control) and its closest rival by mean rank."""
    order = result._ranking()
    if len(order) < 2:
        return []
    control = result.get("control")
    first = result.names.index(control) if control else order[0]
    second = next(j for j in order if j != first)
    a, b = result.names[first], result.names[second]
    figures = []
    for name in result.pairwise:
        if declaration(name).posterior != "simplex":
            continue
        title = declaration(name).title
        figures.append(
            Figure(
                f"Posterior of {the(title)} for {a} against {b}.",
                "PosteriorSimplexDisplay",
                result,
                {"name_a": a, "name_b": b, "test": name},
                label=f"posterior-{name}",
                size=(5.0, 4.4),
                height=lambda width: 0.88 * width,
                max_width=3.0,
            ).introduce(f"the posterior of {the(title)} for {a} against {b}")
        )
    return figures


# --------------------------------------------------------------------------
# The CSV table


def _csv_table(result):
    """The omnibus tests (Friedman and Iman-Davenport), each post hoc and
    pairwise test per compared pair, the rows of the tests that decide
    nothing, and the score and rank of each estimator on each data set."""
    own = result._contributions()
    rows = []
    for name, test in result._tests_of("omnibus").items():
        if name in own:
            continue
        row = test_row(name, test)
        decided = decided_by(test, len(result.names))
        if decided is not None:
            row["note"] = "; ".join(
                part for part in (row.get("note"), f"p-value by {str(decided)}") if part
            )
        rows.append(row)
        if decided is not None and test.get("method") != "chi2":
            chi2_row = {**test, "pvalue": test.get("pvalue_chi2")}
            chi2_row["reject"] = bool(chi2_row["pvalue"] < result.alpha)
            rows.append(test_row(f"{name} (chi-squared)", chi2_row))
        iman = test.get("iman_davenport")
        if iman is not None:
            rows.append(test_row(f"{name} (Iman-Davenport F)", iman))
    for contribution in own.values():
        rows += contribution.csv_rows
    for name, table, a, b in result._compared_pairs():
        if name in own:
            continue
        row = pair_row(
            table,
            matrix_fields(name),
            name,
            a,
            b,
            result.names,
            mean_score_a=result.mean_scores[a],
            mean_score_b=result.mean_scores[b],
            mean_rank_a=result.mean_ranks[a],
            mean_rank_b=result.mean_ranks[b],
        )
        row["section"] = "pairwise" if name in result.pairwise else "posthoc"
        rows.append(row)
    rows += replicability_csv_rows(result)
    for i, dataset in enumerate(result.datasets):
        for j, name in enumerate(result.names):
            rows.append(
                {
                    "section": "score",
                    "dataset": dataset,
                    "estimator": name,
                    "score": result.scores[i][j],
                    "rank": result.ranks[i][j],
                }
            )
    return with_extra_columns(BENCHMARK_CSV, rows), rows
