"""The result objects of the comparisons, how they are built, and their text.

:class:`ComparisonResult` (two estimators) and
:class:`ManyComparisonResult` (k estimators on one data set) are
:class:`~sklearn.utils.Bunch` objects. One function builds each, whether
fits failed or not, from the engine's store of per-split predictions; the
verdict is a field of the result (``result.verdict``), computed once, which
the printed summary, the plots and the command line all read.
"""

import numbers
from itertools import combinations
from numbers import Real

import numpy as np
from sklearn.utils import Bunch

from ._engine._plan import plan_tests, recommend, run_tests
from .stats._corrections import adjust_pvalues

__all__ = [
    "ComparisonResult",
    "ManyComparisonResult",
    "build_many_result",
    "build_pair_result",
    "estimator_name",
]


# --------------------------------------------------------------------------
# Two estimators
# --------------------------------------------------------------------------


class ComparisonResult(Bunch):
    """The result of :func:`compare_estimators` or :func:`compare_predictions`.

    A :class:`~sklearn.utils.Bunch` (attribute and key access) whose fields
    are documented in :func:`compare_predictions`. It keeps what the tests
    need (``tables``, ``differences``, ``n_train``, ``n_test``,
    ``loss_differences``) so :meth:`run_test` runs any other registered test
    later, without refitting. Printing it shows a table of the tests and the
    verdict (``verdict``) of the test recommended for the design.
    """

    def run_test(self, name, **params):
        """Run the registered test ``name`` on the stored needs.

        Parameters
        ----------
        name : str
            A registered test (see :func:`~sklearn_bcv.available_tests`).
        **params : dict
            Passed to the test; ``alpha`` and ``alternative`` default to
            those of the comparison.

        Returns
        -------
        result : :class:`~sklearn.utils.Bunch`
            The test's result (not added to ``self.tests``).
        """
        _refuse_failed_fits(self.get("failed_fits"), name)
        alpha = params.pop("alpha", self.alpha)
        alternative = params.pop("alternative", self.alternative)
        plan, _ = plan_tests(
            {name: params}, self.design, self.task, alternative=alternative
        )
        return run_tests(plan, dict(self), alpha, alternative)[name]

    def __repr__(self):
        return _format_pair_summary(self)

    __str__ = __repr__


def _refuse_failed_fits(failed, name):
    if failed is not None and np.any(failed):
        raise ValueError(
            f"{name} cannot run: {int(np.sum(failed))} fits failed (see "
            "failed_fits), and every test needs every split. Fix the "
            "estimators or rerun with error_score='raise' to see the error."
        )


def build_pair_result(
    store,
    a,
    b,
    *,
    design,
    plan,
    skipped,
    alpha,
    alternative,
    return_predictions=True,
    fits=None,
    estimator_names=None,
):
    """The :class:`ComparisonResult` of estimators ``a`` and ``b`` of ``store``.

    ``fits`` (the engine's :class:`~sklearn_bcv._engine._fit.FitResults`)
    adds ``failed_fits``, ``fit_time``, ``score_time`` and, when they were
    kept, ``estimators_a`` / ``estimators_b``. When a fit of A or B failed,
    the scores of the failed splits are ``error_score`` and no test runs.
    """
    needs = store.pair_needs(a, b)
    if store.failed_among(a, b):
        tests, skipped = Bunch(), {test.name: "a fit failed" for test in plan}
    else:
        tests = run_tests(plan, needs, alpha, alternative)
    recommended, why = recommend(design, store.task, store.scoring.label, alternative)
    result = ComparisonResult(
        tests=tests,
        skipped_tests=skipped,
        **needs,
        test_indices=[test for _, test in store.splits],
        design=design,
        task=store.task,
        scoring=store.scoring.label,
        alpha=alpha,
        alternative=alternative,
        recommended_test=recommended,
    )
    if return_predictions:
        result["predictions_a"] = store.predictions_of(a)
        result["predictions_b"] = store.predictions_of(b)
    if estimator_names is not None:
        result["estimator_names"] = tuple(estimator_names)
    if fits is not None:
        columns = [a, b]
        result["failed_fits"] = fits.failed[:, columns]
        result["fit_time"] = fits.fit_time[:, columns]
        result["score_time"] = fits.score_time[:, columns]
        if fits.estimators is not None:
            result["estimators_a"] = [row[a] for row in fits.estimators]
            result["estimators_b"] = [row[b] for row in fits.estimators]
    result["verdict"] = _pair_verdict(result, why)
    return result


def _direction(test_result, mean_difference):
    """'A better' / 'B better' for a rejected null hypothesis."""
    if "p_a_better" in test_result:
        return (
            "A better"
            if test_result["p_a_better"] >= test_result["p_b_better"]
            else "B better"
        )
    if test_result.get("alternative") == "greater":
        return "A better"
    if test_result.get("alternative") == "less":
        return "B better"
    return "A better" if mean_difference >= 0 else "B better"


def _decision(test_result, mean_difference):
    """The decision of one test: "A better", "B better" or "no difference"."""
    reject = test_result.get("reject")
    if not isinstance(reject, bool | np.bool_):
        return None
    if not reject:
        return "no difference"
    return _direction(test_result, mean_difference)


def _decision_text(test_result, mean_difference):
    decision = _decision(test_result, mean_difference)
    if decision is None:
        return str(test_result.get("reject"))
    if decision == "no difference":
        return "no significant difference"
    return f"significant: {decision}"


def _pair_verdict(result, why):
    """The verdict Bunch: the test it rests on, its decision and the text."""
    failed = result.get("failed_fits")
    verdict = Bunch(test=None, rationale=None, decision=None, pvalue=None, text="")
    if failed is not None and np.any(failed):
        verdict.text = (
            f"Verdict: none; {int(np.sum(failed))} of {failed.size} fits failed "
            "(see failed_fits), and every test needs every split."
        )
        return verdict
    tests = result.tests
    if not tests:
        verdict.text = "Verdict: none; no test was run."
        return verdict
    recommended = result.recommended_test
    if recommended in tests:
        name = recommended
    else:
        name = next(iter(tests))
        why = (
            f"the recommended {recommended} was not run"
            if recommended
            else "no recommended test for this design"
        )
    test_result = tests[name]
    mean_difference = float(np.mean(result.differences))
    pvalue = test_result.get("pvalue")
    p_text = "" if pvalue is None else f" (p = {format_number(pvalue, 3)})"
    decision = _decision(test_result, mean_difference)
    if decision not in (None, "no difference"):
        outcome = f"the estimators differ at alpha={result.alpha}{p_text}: {decision}."
    else:
        outcome = f"no significant difference at alpha={result.alpha}{p_text}."
    verdict.update(
        test=name,
        rationale=why,
        decision=decision,
        pvalue=pvalue,
        text=f"Verdict from {name} ({why}): {outcome}",
    )
    return verdict


def format_number(value, digits=4):
    """A short text of a number, a tuple of numbers, or "-" for None."""
    if value is None:
        return "-"
    if isinstance(value, tuple):
        return "(" + ", ".join(format_number(v, digits) for v in value) + ")"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, Real):
        return f"{float(value):.{digits}g}"
    return str(value)


def estimator_name(estimator):
    """Short readable name: the class, with the steps or inner estimator."""
    name = type(estimator).__name__
    steps = getattr(estimator, "steps", None)
    if isinstance(steps, list):
        inner = [
            estimator_name(step)
            for _, step in steps
            if step is not None and step != "passthrough"
        ]
        return f"{name}({', '.join(inner)})"
    # GridSearchCV and other meta-estimators taking an ``estimator`` parameter.
    inner = estimator.get_params(deep=False).get("estimator")
    if hasattr(inner, "fit"):
        return f"{name}({estimator_name(inner)})"
    return name


def _text_table(header, rows, *, right_aligned=()):
    """Rows of cells as aligned lines (columns in ``right_aligned`` justified)."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            cell.rjust(width) if i in right_aligned else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def _format_pair_summary(result):
    names = result.get("estimator_names")
    who = (
        f"A = {names[0]} and B = {names[1]}" if names else "estimator A and estimator B"
    )
    lines = [
        f"Comparison of {who} on {result.design.describe()}, "
        f"{result.design.n_samples} records",
        f"task: {result.task}, scoring: {result.scoring}, mean score A "
        f"{np.mean(result.scores_a):.4g}, B {np.mean(result.scores_b):.4g}, "
        f"mean difference (A - B) {np.mean(result.differences):+.4g}",
    ]
    mean_difference = float(np.mean(result.differences))
    if result.tests:
        header = (
            "test",
            "statistic",
            "df",
            "p-value",
            f"decision (alpha={result.alpha})",
        )
        rows = [
            (
                # Mark the test the verdict is based on.
                f"{name} *" if name == result.verdict.test else name,
                format_number(r.get("statistic")),
                format_number(r.get("df")),
                format_number(r.get("pvalue")),
                _decision_text(r, mean_difference),
            )
            for name, r in result.tests.items()
        ]
        lines += _text_table(header, rows, right_aligned=(1, 2, 3))
    skipped = result.get("skipped_tests") or {}
    if skipped and not np.any(result.get("failed_fits", False)):
        lines.append(
            f"not run (alternative={result.alternative!r} unsupported): "
            + ", ".join(skipped)
        )
    lines.append(result.verdict.text)
    return "\n".join(lines)


# --------------------------------------------------------------------------
# k estimators on one data set
# --------------------------------------------------------------------------


class ManyComparisonResult(Bunch):
    """The result of :func:`compare_many_estimators` (or ``_predictions``).

    A :class:`~sklearn.utils.Bunch` whose fields are documented in
    :func:`compare_many_predictions`. :meth:`pair` gives the two-estimator
    result of any pair (the same numbers as :func:`compare_estimators` on
    the same splits), :meth:`to_frame` a long table of the pairwise tests.
    Printing it shows the ranking, the omnibus verdict and the pairs that
    differ, best estimator first.
    """

    def pair(self, name_a, name_b):
        """The two-estimator comparison of ``name_a`` (A) and ``name_b`` (B).

        The same :class:`ComparisonResult`, with the same numbers, as
        :func:`compare_estimators` (or :func:`compare_predictions`) on the
        same splits: every two-estimator test applicable to the design
        (``tests=None``), computed from the stored predictions without
        refitting.

        Parameters
        ----------
        name_a, name_b : str
            Two different names of :attr:`names`.

        Returns
        -------
        result : ComparisonResult
        """
        a, b = (
            self._index(name, arg)
            for name, arg in ((name_a, "name_a"), (name_b, "name_b"))
        )
        if a == b:
            raise ValueError(f"name_a and name_b must differ; both are {name_a!r}.")
        return _pair_of(self, a, b, tests=None)

    def _index(self, name, argument="name"):
        if not isinstance(name, str) or name not in self.names:
            raise ValueError(f"{argument} must be one of {self.names}; got {name!r}.")
        return self.names.index(name)

    def run_test(self, name, **params):
        """Run the registered k-estimator (omnibus) test ``name`` on the stored needs.

        Parameters
        ----------
        name : str
            A test of ``available_tests(kind="many")``.
        **params : dict
            Passed to the test; ``alpha`` defaults to the comparison's.

        Returns
        -------
        result : :class:`~sklearn.utils.Bunch`
        """
        _refuse_failed_fits(self.get("failed_fits"), name)
        alpha = params.pop("alpha", self.alpha)
        plan, _ = plan_tests({name: params}, self.design, self.task, kind="many")
        return run_tests(plan, self._store.many_needs(), alpha, "two-sided")[name]

    def to_frame(self):
        """The pairwise tests as a long :class:`pandas.DataFrame`.

        One row per pairwise test and tested pair: ``test``,
        ``estimator_a``, ``estimator_b``, ``mean_score_a``,
        ``mean_score_b``, then ``statistic``, ``pvalue``,
        ``pvalue_adjusted`` and ``reject`` (frequentist tests) or
        ``p_a_better``, ``p_rope``, ``p_b_better`` and ``reject`` (Bayesian
        tests). Needs pandas.

        Returns
        -------
        frame : pandas.DataFrame
        """
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - depends on the machine
            raise ImportError("to_frame needs pandas: pip install pandas") from exc
        rows = []
        for test, table in self.pairwise.items():
            fields = _matrix_fields(table)
            for name_a, name_b in table.results:
                a, b = self.names.index(name_a), self.names.index(name_b)
                row = {
                    "test": test,
                    "estimator_a": name_a,
                    "estimator_b": name_b,
                    "mean_score_a": float(self.mean_scores[a]),
                    "mean_score_b": float(self.mean_scores[b]),
                }
                row.update({field: table[field][a, b].item() for field in fields})
                rows.append(row)
        return pd.DataFrame(rows)

    def __repr__(self):
        return _format_many_summary(self)

    __str__ = __repr__


def _pair_of(result, a, b, *, tests):
    store = result._store
    plan, skipped = plan_tests(
        tests, result.design, store.task, alternative=result.alternative
    )
    return build_pair_result(
        store,
        a,
        b,
        design=result.design,
        plan=plan,
        skipped=skipped,
        alpha=result.alpha,
        alternative=result.alternative,
        return_predictions="predictions" in result,
        fits=result._fits,
        estimator_names=(result.names[a], result.names[b]),
    )


def _pairs_tested(k, control):
    """The ordered pairs (A, B) each test is run on: A first in names order,
    or every other estimator (A) against the control (B)."""
    if control is None:
        return list(combinations(range(k), 2))
    return [(j, control) for j in range(k) if j != control]


def _is_bayesian(test_result):
    return test_result.get("pvalue") is None and "p_a_better" in test_result


def _matrix_fields(table):
    if "pvalue" in table:
        return ("statistic", "pvalue", "pvalue_adjusted", "reject")
    return ("p_a_better", "p_rope", "p_b_better", "reject")


def _pairwise_table(results, pairs, k, names, *, correction, alpha, alternative):
    """(k, k) arrays of one pairwise test over ``pairs``, NaN-free.

    Row = A, column = B. A two-sided test is symmetric: the entry [B, A]
    repeats the p-values of [A, B], and its statistic is that of the test
    run with A and B swapped (``swapped``); a Bayesian test's [B, A] holds
    the same posterior seen from B. Entries of pairs not tested (the
    diagonal; with a control, pairs without it; with a one-sided
    alternative, [B, A]) hold p-value 1 (or probabilities 0, 1, 0),
    statistic 0 and reject False, and are False in ``tested``.
    """
    first = results[pairs[0]][0]
    tested = np.zeros((k, k), dtype=bool)
    if _is_bayesian(first):
        table = Bunch(
            p_a_better=np.zeros((k, k)),
            p_rope=np.ones((k, k)),
            p_b_better=np.zeros((k, k)),
            reject=np.zeros((k, k), dtype=bool),
        )
        for (a, b), (result, _) in results.items():
            views = [(a, b, "p_a_better", "p_b_better")]
            if alternative == "two-sided":  # else only "A better" was asked
                views.append((b, a, "p_b_better", "p_a_better"))
            for row, col, better, worse in views:
                table.p_a_better[row, col] = result[better]
                table.p_b_better[row, col] = result[worse]
                table.p_rope[row, col] = result.get("p_rope", 0.0)
                table.reject[row, col] = bool(result.reject)
                tested[row, col] = True
        table.correction = None
    else:
        raw = np.array([float(results[pair][0].pvalue) for pair in pairs])
        adjusted = adjust_pvalues(raw, correction)
        table = Bunch(
            statistic=np.zeros((k, k)),
            pvalue=np.ones((k, k)),
            pvalue_adjusted=np.ones((k, k)),
            reject=np.zeros((k, k), dtype=bool),
        )
        mirror = alternative == "two-sided"
        for (a, b), p, q in zip(pairs, raw, adjusted):
            result, swapped = results[(a, b)]
            entries = [(a, b, result)] + ([(b, a, swapped)] if mirror else [])
            for row, col, own in entries:
                table.statistic[row, col] = _finite_statistic(own.get("statistic"))
                table.pvalue[row, col] = p
                table.pvalue_adjusted[row, col] = q
                table.reject[row, col] = bool(q < alpha)
                tested[row, col] = True
        table.correction = correction
    table.tested = tested
    table.results = {(names[a], names[b]): results[(a, b)][0] for a, b in pairs}
    return table


def _finite_statistic(value):
    """A float for the (k, k) statistic array (0 when the test has none)."""
    if value is None or np.ndim(value) != 0:
        return 0.0
    return float(value)


def build_many_result(
    store,
    *,
    names,
    design,
    omnibus_plan,
    omnibus_skipped,
    pairwise_plan,
    correction,
    control,
    alpha,
    alternative,
    return_predictions=True,
    fits=None,
):
    """The :class:`ManyComparisonResult` of the k estimators of ``store``."""
    k = len(names)
    scores = store.scores
    result = ManyComparisonResult(
        names=list(names),
        tests=Bunch(),
        skipped_tests=dict(omnibus_skipped),
        pairwise=Bunch(),
        scores=scores,
        mean_scores=scores.mean(axis=0),
        n_train=store.n_train,
        n_test=store.n_test,
        test_indices=[test for _, test in store.splits],
        design=design,
        task=store.task,
        scoring=store.scoring.label,
        alpha=alpha,
        alternative=alternative,
        correction=correction,
        control=None if control is None else names[control],
        _store=store,
        _fits=fits,
    )
    if fits is not None:
        result["failed_fits"] = fits.failed
        result["fit_time"] = fits.fit_time
        result["score_time"] = fits.score_time
    if return_predictions:
        result["predictions"] = {
            name: store.predictions_of(j) for j, name in enumerate(names)
        }
    if store.any_failed:
        result.skipped_tests.update(
            {test.name: "a fit failed" for test in (*omnibus_plan, *pairwise_plan)}
        )
    else:
        result["tests"] = run_tests(
            omnibus_plan, store.many_needs(), alpha, "two-sided"
        )
        pairs = _pairs_tested(k, control)
        for test in pairwise_plan:
            results = {}
            for a, b in pairs:
                forward = _run_one(
                    test, store.pair_needs(a, b, test.needs), alpha, alternative
                )
                # A two-sided p-value does not depend on the order of the
                # pair; the statistic of [B, A] is that of B against A.
                swapped = None
                if alternative == "two-sided" and not _is_bayesian(forward):
                    swapped = _run_one(
                        test, store.pair_needs(b, a, test.needs), alpha, alternative
                    )
                results[(a, b)] = (forward, swapped)
            result.pairwise[test.name] = _pairwise_table(
                results,
                pairs,
                k,
                names,
                correction=correction,
                alpha=alpha,
                alternative=alternative,
            )
    result["verdict"] = _many_verdict(result)
    return result


def _run_one(test, needs, alpha, alternative):
    return run_tests([test], needs, alpha, alternative)[test.name]


def _ranking(result):
    """Estimator indices, best mean score first (ties in names order)."""
    return sorted(range(len(result.names)), key=lambda j: -result.mean_scores[j])


def _many_verdict(result):
    """Omnibus decision and the pairs that differ, best estimator first.

    ``differ`` holds the pairs of the first pairwise test (the one the
    engine recommends when ``pairwise_tests=None``), ``differ_by_test``
    those of every pairwise test.
    """
    verdict = Bunch(
        omnibus_test=None,
        omnibus_reject=None,
        pairwise_test=None,
        differ=[],
        differ_by_test={},
        text="",
    )
    failed = result.get("failed_fits")
    if failed is not None and np.any(failed):
        verdict.text = (
            f"Verdict: none; {int(np.sum(failed))} of {failed.size} fits failed "
            "(see failed_fits), and every test needs every split."
        )
        return verdict
    lines = []
    if result.tests:
        name, omnibus = next(iter(result.tests.items()))
        verdict.omnibus_test, verdict.omnibus_reject = name, bool(omnibus.reject)
        outcome = (
            "the estimators differ"
            if omnibus.reject
            else "no significant difference among the estimators"
        )
        lines.append(
            f"Omnibus {name} (statistic {format_number(omnibus.statistic)}, df "
            f"{format_number(omnibus.df)}, p = {format_number(omnibus.pvalue, 3)}): "
            f"{outcome} at alpha={result.alpha}."
        )
    for test, table in result.pairwise.items():
        differ, same = _split_pairs(result, table)
        verdict.differ_by_test[test] = [
            (result.names[better], result.names[worse]) for better, worse in differ
        ]
        lines += _pairwise_lines(result, test, table, differ, same)
    if result.pairwise:
        verdict.pairwise_test = next(iter(result.pairwise))
        verdict.differ = verdict.differ_by_test[verdict.pairwise_test]
    verdict.text = "\n".join(lines) if lines else "Verdict: none; no test was run."
    return verdict


def _split_pairs(result, table):
    """``(differ, same)``: index pairs (better, worse) that differ, best
    estimator first, and the pairs that do not (better ranked first)."""
    rank = {j: r for r, j in enumerate(_ranking(result))}
    differ, same = [], []
    for name_a, name_b in table.results:
        a, b = result.names.index(name_a), result.names.index(name_b)
        if table.reject[a, b]:
            a_better = _pair_a_better(result, table, a, b)
            differ.append((a, b) if a_better else (b, a))
        else:
            same.append(tuple(sorted((a, b), key=rank.get)))
    differ.sort(key=lambda pair: (rank[pair[0]], rank[pair[1]]))
    same.sort(key=lambda pair: (rank[pair[0]], rank[pair[1]]))
    return differ, same


def _pairwise_lines(result, test, table, differ, same):
    if table.get("correction"):
        how = f"{table.correction}-adjusted p-values"
    elif "p_a_better" in table:
        how = "posterior probabilities"
    else:
        how = "raw p-values"
    lines = [
        f"Pairwise {test} ({how}, {len(table.results)} pairs): "
        f"{len(differ)} differ at alpha={result.alpha}."
    ]
    if differ:
        width = max(len(result.names[better]) for better, _ in differ)
        width_worse = max(len(result.names[worse]) for _, worse in differ)
        lines += [
            f"  {result.names[better]:<{width}} > {result.names[worse]:<{width_worse}}"
            + _pair_evidence(table, better, worse)
            for better, worse in differ
        ]
    if same:
        lines.append(
            "  no significant difference: "
            + ", ".join(f"{result.names[a]} ~ {result.names[b]}" for a, b in same)
        )
    return lines


def _pair_a_better(result, table, a, b):
    """Whether A (row ``a``) is the better of a rejected pair."""
    if "p_a_better" in table:
        return table.p_a_better[a, b] >= table.p_b_better[a, b]
    if result.alternative == "greater":
        return True
    if result.alternative == "less":
        return False
    return result.mean_scores[a] >= result.mean_scores[b]


def _pair_evidence(table, better, worse):
    if "p_a_better" in table:
        return f"  P = {format_number(table.p_a_better[better, worse], 3)}"
    q = table.pvalue_adjusted[better, worse]
    if not table.tested[better, worse]:
        q = table.pvalue_adjusted[worse, better]
    return f"  p = {format_number(q, 3)}"


def _format_many_summary(result):
    lines = [
        f"Comparison of {len(result.names)} estimators on "
        f"{result.design.describe()}, {result.design.n_samples} records",
        f"task: {result.task}, scoring: {result.scoring}",
    ]
    rows = [
        (str(r + 1), result.names[j], f"{result.mean_scores[j]:.4g}")
        for r, j in enumerate(_ranking(result))
    ]
    lines += [
        "  " + line
        for line in _text_table(
            ("rank", "estimator", "mean score"), rows, right_aligned=(0, 2)
        )
    ]
    lines.append(result.verdict.text)
    return "\n".join(lines)
