"""Two estimators: :class:`ComparisonResult`, how it is built, its verdict."""

import numpy as np
from sklearn.utils import Bunch

from .._engine._plan import plan_tests, recommend, run_tests
from ._text import format_number, text_table

__all__ = ["ComparisonResult", "build_pair_result", "refuse_failed_fits"]


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
        refuse_failed_fits(self.get("failed_fits"), name)
        alpha = params.pop("alpha", self.alpha)
        alternative = params.pop("alternative", self.alternative)
        plan, _ = plan_tests(
            {name: params}, self.design, self.task, alternative=alternative
        )
        return run_tests(plan, dict(self), alpha, alternative)[name]

    def report(self, format="text"):
        """A report of the comparison of two estimators.

        What was compared, which tests ran and why, the verdicts in
        sentences, the effect sizes and the tables.

        Parameters
        ----------
        format : {"text", "markdown", "latex", "html"}, default="text"
            ``"latex"``: a fragment whose tables use ``booktabs``;
            ``"html"``: one self-contained page, the figures inline SVG
            (tables only without matplotlib). Every name is escaped.

        Returns
        -------
        report : str

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from sklearn_bcv import compare_estimators
        >>> X, y = make_classification(n_samples=200, random_state=0)
        >>> result = compare_estimators(
        ...     LogisticRegression(), DecisionTreeClassifier(random_state=0),
        ...     X, y, random_state=0)
        >>> text = result.report()
        >>> text.splitlines()[3]
        'What was compared'
        >>> "Verdicts" in text and "corrected" not in result.report("latex")[:0]
        True
        """
        from ._report import render_report

        return render_report(self, format)

    def __repr__(self):
        return _format_pair_summary(self)

    __str__ = __repr__


def refuse_failed_fits(failed, name):
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
        lines += text_table(header, rows, right_aligned=(1, 2, 3))
    skipped = result.get("skipped_tests") or {}
    if skipped and not np.any(result.get("failed_fits", False)):
        lines.append(
            f"not run (alternative={result.alternative!r} unsupported): "
            + ", ".join(skipped)
        )
    lines.append(result.verdict.text)
    return "\n".join(lines)
