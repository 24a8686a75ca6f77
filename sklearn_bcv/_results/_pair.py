"""Two estimators: :class:`ComparisonResult`, how it is built, its verdict
and its content (summary, report, CSV table)."""

import numpy as np
from sklearn.utils import Bunch

from .._engine._plan import plan_tests, recommend, run_tests
from ..stats._references import SPLITTER_REFERENCES
from ..stats._registry import declaration
from ._blocks import (
    Figure,
    Heading,
    Paragraph,
    Table,
    Text,
    alpha_is,
    capital,
    decimals_of,
    fixed,
    level_is,
    math_number,
    num,
    the,
)
from ._document import DocumentMixin
from ._methods import (
    Bibliography,
    cited,
    estimators_sentence,
    fits_sentence,
    seed_text,
    settings_sentence,
    tests_blocks,
    tests_items,
    version_sentence,
)
from ._roles import posterior_decision, posterior_phrase, probability, rope_of
from ._rows import TEST_COLUMNS, test_row
from ._text import format_number, join_lines, text_table
from ._verdict import (
    bayesian_rule,
    check_show,
    is_bayesian,
    not_recommended,
    test_status,
)

__all__ = ["ComparisonResult", "build_pair_result", "refuse_failed_fits"]

#: The columns of the CSV table of two estimators.
PAIR_CSV = (
    "section",
    "test",
    "status",
    *TEST_COLUMNS,
    "correction",
    "note",
    "split",
    "score_a",
    "score_b",
    "difference",
)


class ComparisonResult(DocumentMixin, Bunch):
    """The result of :func:`compare_estimators` or :func:`compare_predictions`.

    A :class:`~sklearn.utils.Bunch` (attribute and key access) with fixed
    fields, listed here once: built with an unknown field it raises a
    ``TypeError``; a field that does not apply is None. It keeps what the
    tests need (``tables``, ``differences``, ``n_train``, ``n_test``,
    ``loss_differences``) so :meth:`run_test` runs any other registered test
    later, without refitting. Printing it (:meth:`summary`) leads with the
    verdict of the test recommended for the design; :meth:`to_dict` and
    :meth:`to_json` give it as a JSON-safe document.

    Attributes
    ----------
    tests : Bunch
        Test name -> its result (a Bunch), in the order run.
    skipped_tests : dict
        Test name -> why it was not run.
    scores_a, scores_b, differences : ndarray of shape (n_splits,)
        Per-split scores and their difference A - B.
    n_train, n_test : ndarray of shape (n_splits,)
        Training and test sizes of each split.
    tables : ndarray of shape (n_splits, 2, 2) or None
        Contingency tables of the splits (classification).
    loss_differences : list of ndarray or None
        Per-record loss differences of each split.
    test_indices : list of ndarray
        The test records of each split.
    design : Design
        The resampling design the splits make.
    task, scoring : str
        ``"classification"`` or ``"regression"``; the scoring's name.
    alpha : float
        Significance level.
    alternative : str
        ``"two-sided"``, ``"greater"`` (A better) or ``"less"``.
    recommended_test : str or None
        The test recommended for the design.
    verdict : Bunch
        ``test``, ``rationale``, ``decision``, ``pvalue`` and ``text``.
    predictions_a, predictions_b : list of ndarray or None
        Per-split predictions (``return_predictions=True``).
    estimator_names : tuple of str or None
        Names of A and B, when known.
    failed_fits, fit_time, score_time : ndarray of shape (n_splits, 2) or None
        Per-split failures and times of A and B (fitted here).
    estimators_a, estimators_b : list of estimators or None
        The fitted estimators (``return_estimator=True``).
    sequentially_adjusted : bool or None
        False on the fixed-design comparison of a sequential result.
    provenance : Bunch or None
        How the result was made, for the methods of its report:
        ``version`` (of sklearn_bcv), ``estimators`` (name -> the class and
        the parameters it changes; None when the predictions were given),
        ``cv`` (the splitter), ``random_state`` (the seed; None, or the
        kind of generator given) and ``given`` (``"predictions"`` when
        they were given, else None).
    """

    _FIELDS = (
        "tests",
        "skipped_tests",
        "scores_a",
        "scores_b",
        "differences",
        "n_train",
        "n_test",
        "tables",
        "loss_differences",
        "test_indices",
        "design",
        "task",
        "scoring",
        "alpha",
        "alternative",
        "recommended_test",
        "verdict",
        "predictions_a",
        "predictions_b",
        "estimator_names",
        "failed_fits",
        "fit_time",
        "score_time",
        "estimators_a",
        "estimators_b",
        "sequentially_adjusted",
        "provenance",
    )

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
            {name: params},
            self.design,
            self.task,
            alternative=alternative,
            available={key for key, value in self.items() if value is not None},
        )
        return run_tests(plan, dict(self), alpha, alternative)[name]

    # ---- content ---------------------------------------------------------

    def _summary_text(self, show):
        return format_pair_summary(self, show)

    def _report_blocks(self):
        return _report_blocks(self)

    def _report_figures(self):
        """The score differences per split, and the posterior of each
        Bayesian test that draws one."""
        figures = [
            Figure(
                "Score differences (A - B) per split.",
                "ScoreDifferencesDisplay",
                self,
                label="differences",
            )
        ]
        for name in self.tests:
            if declaration(name).posterior == "density":
                figures.append(
                    Figure(
                        f"Posterior of the {declaration(name).title}.",
                        "PosteriorDisplay",
                        self,
                        {"test": name},
                        label=f"posterior-{name}",
                    )
                )
        return figures

    def _score_decimals(self):
        """The decimals of the scores: one precision for every number in
        score units (:func:`~._blocks.decimals_of`)."""
        scores = np.concatenate([np.ravel(self.scores_a), np.ravel(self.scores_b)])
        return decimals_of(scores)

    def _csv_table(self):
        """One row per test (with its status), then one per split."""
        rows = [
            test_row(name, test, test_status(self, name))
            for name, test in self.tests.items()
        ]
        for split, (a, b) in enumerate(zip(self.scores_a, self.scores_b)):
            rows.append(
                {
                    "section": "score",
                    "split": split,
                    "score_a": a,
                    "score_b": b,
                    "difference": a - b,
                }
            )
        return PAIR_CSV, rows


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
    recommended, why = recommend(
        design, store.task, store.scoring.label, alternative, available=store.available
    )
    result = ComparisonResult(
        tests=tests,
        skipped_tests=skipped,
        **needs,
        test_indices=store.test_indices,
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


def records_of(design, joint=","):
    """``", 569 records"`` (``joint`` first), or nothing when the number of
    records is not known (per-split scores given)."""
    if design.n_samples is None:
        return ""
    return f"{joint} {design.n_samples} records"


def _direction(name, test_result, mean_difference):
    """'A better' / 'B better' for a rejected null hypothesis of ``name``."""
    if is_bayesian(name):
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


def _decision(name, test_result, mean_difference):
    """The decision of the test ``name``: "A better", "B better" or "no
    difference"."""
    reject = test_result.get("reject")
    if not isinstance(reject, bool | np.bool_):
        return None
    if not reject:
        return "no difference"
    return _direction(name, test_result, mean_difference)


def _decision_text(name, test_result, mean_difference):
    decision = _decision(name, test_result, mean_difference)
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
    decision = _decision(name, test_result, mean_difference)
    if is_bayesian(name):
        probabilities = (
            f"P(A better) = {format_number(test_result.get('p_a_better'), 3)}, "
            f"P(rope) = {format_number(test_result.get('p_rope'), 3)}, "
            f"P(B better) = {format_number(test_result.get('p_b_better'), 3)}"
        )
        rule = bayesian_rule(result.alpha, result.alternative)
        found = "no decision" if decision in (None, "no difference") else decision
        outcome = f"{probabilities}; {found} ({rule})."
    elif decision not in (None, "no difference"):
        outcome = f"the estimators differ at alpha={result.alpha}{p_text}: {decision}."
    else:
        outcome = f"no significant difference at alpha={result.alpha}{p_text}."
    verdict.update(
        test=name,
        rationale=why,
        decision=decision,
        pvalue=pvalue,
        text=join_lines([f"Verdict from {name} ({why}): {outcome}"]),
    )
    return verdict


def _frequentist_rows(result, names, mean_difference):
    return [
        (
            name,
            format_number(result.tests[name].get("statistic")),
            format_number(result.tests[name].get("df")),
            format_number(result.tests[name].get("pvalue")),
            _decision_text(name, result.tests[name], mean_difference),
            test_status(result, name),
        )
        for name in names
    ]


def _bayesian_rows(result, names, mean_difference):
    rows = []
    for name in names:
        r = result.tests[name]
        decision = _decision(name, r, mean_difference)
        rows.append(
            (
                name,
                format_number(r.get("p_a_better"), 3),
                format_number(r.get("p_rope"), 3),
                format_number(r.get("p_b_better"), 3),
                "no decision" if decision == "no difference" else str(decision),
                test_status(result, name),
            )
        )
    return rows


def _test_lines(result, names, mean_difference):
    """The tables of the tests ``names``: frequentist under their alpha,
    Bayesian as posterior probabilities with the decision rule named."""
    lines = []
    frequentist = [n for n in names if not is_bayesian(n)]
    bayesian = [n for n in names if is_bayesian(n)]
    if frequentist:
        header = (
            "test",
            "statistic",
            "df",
            "p-value",
            f"decision (alpha={result.alpha})",
            "status",
        )
        rows = _frequentist_rows(result, frequentist, mean_difference)
        lines += ["  " + x for x in text_table(header, rows, right_aligned=(1, 2, 3))]
    if bayesian:
        lines.append(
            "  Bayesian tests (posterior probabilities; "
            f"{bayesian_rule(result.alpha, result.alternative)}):"
        )
        header = ("test", "P(A better)", "P(rope)", "P(B better)", "decision", "status")
        rows = _bayesian_rows(result, bayesian, mean_difference)
        lines += ["  " + x for x in text_table(header, rows, right_aligned=(1, 2, 3))]
    return lines


def format_pair_summary(result, show="default"):
    """The printed summary: the verdict of the recommended test first, the
    other tests apart with their status (the tests this library does not
    recommend only with ``show="all"``)."""
    check_show(show)
    names = result.get("estimator_names")
    who = (
        f"A = {names[0]} and B = {names[1]}" if names else "estimator A and estimator B"
    )
    lines = [
        f"Comparison of {who} on {result.design.describe()}"
        + records_of(result.design),
        f"task: {result.task or 'not given'}, scoring: {result.scoring}, mean score A "
        f"{np.mean(result.scores_a):.4g}, B {np.mean(result.scores_b):.4g}, "
        f"mean difference (A - B) {np.mean(result.differences):+.4g}",
        *result.verdict.text.split("\n"),
    ]
    mean_difference = float(np.mean(result.differences))
    lead = result.verdict.test
    if lead is not None and lead in result.tests:
        lines += _test_lines(result, [lead], mean_difference)
    others = [name for name in result.tests if name != lead]
    hidden = []
    if show != "all":
        hidden = [n for n in others if not_recommended(n) is not None]
        others = [n for n in others if not_recommended(n) is None]
    if others:
        lines.append("Other tests (not the verdict; each with its status):")
        lines += _test_lines(result, others, mean_difference)
    if hidden:
        lines.append(
            f"Not shown, not recommended here: {', '.join(hidden)} "
            "(summary(show='all') or --all-tests shows them)."
        )
    skipped = result.get("skipped_tests") or {}
    if skipped and not np.any(result.get("failed_fits", False)):
        alternative = result.alternative
        one_sided = [n for n in skipped if not declaration(n).honours(alternative)]
        if one_sided:
            lines.append(
                f"not run (alternative={result.alternative!r} unsupported): "
                + ", ".join(one_sided)
            )
        lines += [
            f"not run: {why}" for name, why in skipped.items() if name not in one_sided
        ]
    return join_lines(lines)


# --------------------------------------------------------------------------
# The report


def _report_blocks(result):
    names = result.get("estimator_names") or ("A", "B")
    bibliography = Bibliography()
    blocks = [Heading("Methods"), Paragraph(_methods(result, names, bibliography))]
    verdict = result.verdict
    status = {
        name: "recommended"
        if name == result.get("recommended_test")
        else "for reference, not the basis of the verdict"
        for name in result.tests
    }
    items = tests_items(
        result.tests, bibliography, status=status, skipped=result.get("skipped_tests")
    )
    if verdict.test in result.tests and verdict.rationale:
        # The verdict's test: why it is the verdict's, in its own words.
        i = list(result.tests).index(verdict.test)
        items[i] = cited(
            f"{verdict.test} ({status[verdict.test]}): {verdict.rationale}",
            bibliography.test(verdict.test),
        )
    blocks += tests_blocks(items)
    blocks += [Heading("Verdicts"), Paragraph(_verdict_sentence(result, names))]
    blocks += [
        Paragraph(_posterior_sentence(result, name, names))
        for name in result.tests
        if is_bayesian(name) and name != verdict.test
    ]
    tables = _tests_tables(result, names)
    if tables:
        blocks += [Heading("Tables"), *tables]
    blocks += result._report_figures()
    blocks += bibliography.blocks()
    return blocks


def _methods(result, names, bibliography):
    """What was compared, how, and how it was decided, in one paragraph."""
    design = result.design
    provenance = result.get("provenance") or {}
    decimals = result._score_decimals()
    mean_a, mean_b = np.mean(result.scores_a), np.mean(result.scores_b)
    difference = fixed(mean_a - mean_b, decimals)
    difference = difference if difference.startswith("-") else f"+{difference}"
    splits = f"the {design.n_splits} splits of a {design.describe()}"
    if design.n_splits == 1:
        splits = "one hold-out split"
    cite = bibliography.cite(SPLITTER_REFERENCES.get(design.kind, ()))
    if provenance.get("given") or not provenance:
        how = (
            f"on {provenance.get('given') or 'predictions'} given on {splits}"
            + (f" ({cite})" if cite else "")
            + " (the estimators that made them and the seed of the splits are "
            "not known to sklearn_bcv)"
        )
    else:
        parts = (provenance.get("cv"), seed_text(provenance), cite)
        how = f"each fitted and scored on {splits} ({'; '.join(p for p in parts if p)})"
    text = [
        f"Estimators A = {names[0]} and B = {names[1]} were compared on one data "
        f"set{records_of(design, ' of')}, task {result.task or 'not given'}, "
        f"{how}, scoring {result.scoring}: mean score A {fixed(mean_a, decimals)}, B "
        f"{fixed(mean_b, decimals)}, mean difference (A - B) {difference}."
    ]
    if provenance.get("estimators"):
        text.append(estimators_sentence(["A", "B"], provenance))
    fits = fits_sentence(result.get("failed_fits"))
    if fits:
        text.append(f"In all, {fits}")
    ropes = [rope_of(test) for name, test in result.tests.items() if is_bayesian(name)]
    settings = settings_sentence(
        alpha=result.alpha, bayesian_ropes=ropes, bibliography=bibliography
    )
    return Text(" ".join(text) + " ", settings, " ", version_sentence(provenance))


def _verdict_sentence(result, names):
    verdict = result.verdict
    if verdict.test is None:
        return verdict.text
    test = result.tests[verdict.test]
    title = capital(the(declaration(verdict.test).title))
    if is_bayesian(verdict.test):
        rope = rope_of(test)
        p = (test.get("p_a_better"), test.get("p_rope"), test.get("p_b_better"))
        decision = posterior_decision(
            *p,
            reject=verdict.decision in ("A better", "B better"),
            alpha=result.alpha,
            rope=rope,
            name_a=names[0],
            name_b=names[1],
        )
        return Text(
            f"{title}, {verdict.rationale}, gives "
            f"{posterior_phrase(*p, names[0], names[1], rope)}: {decision} at ",
            level_is(result.alpha),
            ".",
        )
    stat = test.get("statistic")
    df = test.get("df")
    shown = [Text("statistic ", math_number(stat))] if stat is not None else []
    if df is not None:
        shown.append(Text(f"df {num(df)}"))
    if test.get("pvalue") is not None:
        shown.append(Text("p = ", math_number(test.pvalue)))
    shown = sum((Text(", " if i else "", part) for i, part in enumerate(shown)), Text())
    decision = verdict.decision
    if decision in ("A better", "B better"):
        better, worse = names if decision == "A better" else names[::-1]
        outcome = f"found {better} better than {worse}"
    else:
        outcome = "found no significant difference between the estimators"
    return Text(
        f"{title} (",
        shown,
        f"), {verdict.rationale}, {outcome} at ",
        alpha_is(result.alpha),
        ".",
    )


def _posterior_sentence(result, name, names):
    """What a Bayesian test other than the verdict's gives, for reference:
    its posterior probabilities and their decision at ``1 - alpha``."""
    test = result.tests[name]
    rope = rope_of(test)
    p = (test.get("p_a_better"), test.get("p_rope"), test.get("p_b_better"))
    decision = posterior_decision(
        *p,
        reject=bool(test.get("reject")),
        alpha=result.alpha,
        rope=rope,
        name_a=names[0],
        name_b=names[1],
    )
    return Text(
        f"For reference, {the(declaration(name).title)} gives "
        f"{posterior_phrase(*p, names[0], names[1], rope)}: {decision} at "
        f"{1 - result.alpha:g} (",
        level_is(result.alpha),
        ").",
    )


def _tests_tables(result, names):
    """The tests run, frequentist and Bayesian apart, the verdict's in
    bold."""
    mean_difference = float(np.mean(result.differences))
    frequentist = [name for name in result.tests if not is_bayesian(name)]
    bayesian = [name for name in result.tests if is_bayesian(name)]
    tables = []
    if frequentist:
        rows, bold = [], set()
        stats = [result.tests[name].get("statistic") for name in frequentist]
        stats = [s if np.ndim(s) == 0 else None for s in stats]
        decimals = decimals_of([s for s in stats if s is not None], max_decimals=4)
        for i, name in enumerate(frequentist):
            r = result.tests[name]
            if name == result.verdict.test:
                bold.add((i, 0))
            decision = _decision(name, r, mean_difference)
            df = r.get("df")
            rows.append(
                (
                    name,
                    fixed(stats[i], decimals),
                    num(df, 4) if np.ndim(df) == 0 else num(tuple(np.ravel(df)), 4),
                    probability(r.get("pvalue")),
                    "-" if decision is None else decision,
                )
            )
        tables.append(
            Table(
                ("test", "statistic", "df", "p", "decision"),
                rows,
                caption=Text(
                    "The frequentist tests run (bold: the one the verdict rests "
                    "on; the others for reference), each at ",
                    alpha_is(result.alpha),
                    ".",
                ),
                label="tests",
                bold=bold,
            )
        )
    if bayesian:
        rows, bold = [], set()
        ropes = {rope_of(result.tests[name]) for name in bayesian}
        middle = "P(rope)" if max(ropes) > 0 else "P(neither better)"
        for i, name in enumerate(bayesian):
            r = result.tests[name]
            if name == result.verdict.test:
                bold.add((i, 0))
            p = (r.get("p_a_better"), r.get("p_rope"), r.get("p_b_better"))
            decision = posterior_decision(
                *p,
                reject=bool(r.get("reject")),
                alpha=result.alpha,
                rope=rope_of(r),
                name_a="A",
                name_b="B",
            )
            rows.append((name, *[probability(v) for v in p], decision))
        tables.append(
            Table(
                ("test", "P(A better)", middle, "P(B better)", "decision"),
                rows,
                caption=Text(
                    "The Bayesian tests run (posterior probabilities; a decision "
                    "when one exceeds ",
                    level_is(result.alpha),
                    "; "
                    + (
                        "rope " + ", ".join(f"±{rope:g}" for rope in sorted(ropes))
                        if max(ropes) > 0
                        else "no rope"
                    )
                    + ").",
                ),
                label="bayesian-tests",
                bold=bold,
            )
        )
    return tables
