"""Estimators across data sets: :class:`BenchmarkResult`, how it is built,
its verdict and its text."""

import numpy as np
from sklearn.utils import Bunch

from .._engine._plan import run_tests
from ..stats._ranks import rank_scores
from ..stats._utils import stable_mean
from ._document import DocumentMixin
from ._pairwise import (
    matrix_fields,
    pairs_tested,
    pairwise_lines,
    run_pairwise,
    split_pairs,
)
from ._text import format_number, text_table
from ._verdict import check_show

__all__ = ["BenchmarkResult", "build_datasets_result"]


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
    auto : Bunch or None
        The assumption tests and the path of ``tests="auto"``.
    greater_is_better : bool, default=True
        Whether a higher score is better (False for losses and errors).
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
        "auto",
        "greater_is_better",
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
            for test, table, a, b in _compared_pairs(self)
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
        fields = [f for f in matrix_fields(table) if f in table]
        row.update({field: np.asarray(table[field])[a, b].item() for field in fields})
        return row

    def _summary_text(self, show):
        return _format_summary(self, show)


def _compared_pairs(result):
    """``(test, table, a, b)`` of every compared pair of every (k, k) test."""
    k = len(result.names)
    for test, table in _rank_tables(result).items():
        tested = np.asarray(table.get("tested", ~np.eye(k, dtype=bool)))
        # The order of the pairwise tests: A first in names order, or the
        # other estimator (A) against the control (B).
        pairs = pairs_tested(
            k, None if result.control is None else result.names.index(result.control)
        )
        for a, b in pairs:
            if tested[a, b]:
                yield test, table, a, b
    for test, table in result.pairwise.items():
        for name_a, name_b in table.results:
            yield test, table, result.names.index(name_a), result.names.index(name_b)


def _rank_tables(result):
    """The tests of all k estimators that give (k, k) decisions (post hoc)."""
    return Bunch(
        **{
            name: test
            for name, test in result.tests.items()
            if np.ndim(test.get("reject")) == 2
        }
    )


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
    # their ranks are NaN and no test runs (``skipped`` says why).
    finite = bool(np.all(np.isfinite(table.scores)))
    ranks = (
        rank_scores(table.scores)
        if finite or not skipped
        else np.full(table.scores.shape, np.nan)
    )
    result = BenchmarkResult(
        names=names,
        datasets=list(table.datasets),
        scores=table.scores,
        mean_scores=stable_mean(table.scores, axis=0),
        ranks=ranks,
        mean_ranks=ranks.mean(axis=0),
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
        result["tests"] = run_tests(rank_plan, table.all_needs(), alpha, "two-sided")
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
    omnibus = {n: t for n, t in result.tests.items() if np.ndim(t.get("reject")) == 0}
    if omnibus:
        name, test = next(iter(omnibus.items()))
        verdict.omnibus_test, verdict.omnibus_reject = name, bool(test.reject)
        lines.append(_omnibus_line(result, name, test))
    for name, test in _rank_tables(result).items():
        differ = _rank_differ(result, test)
        verdict.differ_by_test[name] = _named(result, differ)
        verdict.posthoc_test = verdict.posthoc_test or name
        lines += _rank_lines(result, name, test, differ)
    for name, table in result.pairwise.items():
        differ, same = split_pairs(result, table)
        verdict.differ_by_test[name] = _named(result, differ)
        verdict.pairwise_test = verdict.pairwise_test or name
        lines += pairwise_lines(result, name, table, differ, same)
        lines += _powerless_line(result, name, table)
    first = verdict.posthoc_test or verdict.pairwise_test
    if first is not None:
        verdict.differ = verdict.differ_by_test[first]
    verdict.text = "\n".join(lines) if lines else "Verdict: none; no test was run."
    return verdict


def _powerless_line(result, name, table):
    """A warning when a test cannot reject any pair whatever the scores
    (its smallest attainable p-value is not below alpha)."""
    smallest = [r.get("min_pvalue") for r in table.results.values()]
    if not smallest or any(p is None or p < result.alpha for p in smallest):
        return []
    return [
        f"  note: with {len(result.datasets)} data sets {name} cannot reach "
        f"p < {result.alpha} (its smallest p-value is "
        f"{format_number(min(smallest), 3)}): more data sets, or the "
        "Poisson-binomial test of per-split scores."
    ]


def _named(result, pairs):
    return [(result.names[a], result.names[b]) for a, b in pairs]


def _omnibus_line(result, name, test):
    outcome = (
        "the estimators differ"
        if test.reject
        else "no significant difference among the estimators"
    )
    text = (
        f"{name}: statistic {format_number(test.statistic)} (df "
        f"{format_number(test.df)}, p = {format_number(test.pvalue, 3)})"
    )
    iman = test.get("iman_davenport")
    if iman is not None:
        text += (
            f", Iman-Davenport F {format_number(iman.statistic)} (df "
            f"{format_number(tuple(iman.df))}, p = {format_number(iman.pvalue, 3)})"
        )
    return f"{text}: {outcome} at alpha={result.alpha}."


def _rank_lines(result, name, test, differ):
    cd = test.get("critical_difference")
    cd_text = "" if cd is None else f", critical difference {format_number(cd, 3)}"
    if cd is not None and test.get("continuity"):
        n = len(result.datasets)
        cd_text += (
            f" (with the continuity correction 1/(2N) = {format_number(0.5 / n, 3)};"
            f" the textbook CD of Demšar is {format_number(cd - 0.5 / n, 3)})"
        )
    correction = test.get("correction")
    label = name
    if correction is not None and not name.startswith(
        ("holm", "bonferroni")  # the test's name says it already
    ):
        label = f"{name} ({correction})"
    lines = [
        f"Post hoc {label} on mean {'scores' if name == 'tukey_rm' else 'ranks'}"
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
    rows = [
        (
            str(r + 1),
            result.names[j],
            f"{result.mean_ranks[j]:.3f}",
            f"{result.mean_scores[j]:.4g}",
        )
        for r, j in enumerate(order)
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
    lines.append(result.verdict.text)
    return "\n".join(lines)
