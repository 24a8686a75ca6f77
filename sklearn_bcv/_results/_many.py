"""k estimators on one data set: :class:`ManyComparisonResult`, how it is
built, its verdict and its content (summary, report, CSV table)."""

import numpy as np
from sklearn.utils import Bunch

from .._engine._plan import plan_tests, run_tests
from ..stats._references import SPLITTER_REFERENCES
from ..stats._registry import declaration
from ._blocks import (
    Figure,
    Heading,
    Paragraph,
    Table,
    Text,
    alpha_is,
    decimals_of,
    fixed,
    names_list,
)
from ._document import DocumentMixin
from ._methods import (
    Bibliography,
    estimators_sentence,
    fits_sentence,
    pairwise_settings_sentence,
    seed_text,
    tests_blocks,
    tests_items,
    version_sentence,
)
from ._pair import build_pair_result, records_of, refuse_failed_fits
from ._pairwise import (
    matrix_fields,
    pair_a_better,
    pairwise_lines,
    ranking,
    run_pairwise,
    split_pairs,
)
from ._roles import (
    hooked_content,
    omnibus_sentence,
    pair_table,
    pairwise_sentences,
    verdict_blocks,
)
from ._rows import TEST_COLUMNS, pair_row, test_row, with_extra_columns
from ._settings import settings_text
from ._text import format_number, join_lines, shared_ranks, text_table
from ._verdict import check_show, not_recommended

__all__ = ["ManyComparisonResult", "build_many_result"]

#: The columns of the CSV table of k estimators on one data set (a test's
#: ``content`` may add its own after them).
MANY_CSV = (
    "section",
    "test",
    "status",
    "estimator_a",
    "estimator_b",
    "mean_score_a",
    "mean_score_b",
    *TEST_COLUMNS,
    "correction",
    "note",
    "estimator",
    "split",
    "score",
)


class ManyComparisonResult(DocumentMixin, Bunch):
    """The result of :func:`compare_many_estimators` (or ``_predictions``).

    A :class:`~sklearn.utils.Bunch` with fixed fields, listed here once
    (an unknown field is a ``TypeError``; one that does not apply is None);
    :meth:`to_dict` and :meth:`to_json` give it as a JSON-safe document.
    :meth:`pair` gives the two-estimator
    result of any pair (the same numbers as :func:`compare_estimators` on
    the same splits), :meth:`to_frame` a long table of the pairwise tests.
    Printing it shows the ranking, the omnibus verdict and the pairs that
    differ, best estimator first.

    Attributes
    ----------
    names : list of str
        The estimators' names.
    tests : Bunch
        Omnibus test name -> its result.
    skipped_tests : dict
        Test name -> why it was not run.
    pairwise : Bunch
        Pairwise test name -> its (k, k) table (``pvalue``,
        ``pvalue_adjusted``, ``reject``, ... and ``results`` by pair).
    scores : ndarray of shape (n_splits, k)
        Per-split scores.
    mean_scores : ndarray of shape (k,)
        Mean score of each estimator.
    n_train, n_test : ndarray of shape (n_splits,)
        Training and test sizes of each split.
    test_indices : list of ndarray
        The test records of each split.
    design : Design
        The resampling design.
    task, scoring : str
        The task and the scoring's name.
    alpha : float
        Significance level.
    alternative : str
        Alternative of the pairwise tests.
    correction : str or None
        Multiple-comparison correction of the pairwise p-values.
    control : str or None
        The control estimator, if any.
    verdict : Bunch
        ``omnibus_test``, ``omnibus_reject``, ``pairwise_test``,
        ``differ``, ``differ_by_test`` and ``text``.
    failed_fits, fit_time, score_time : ndarray of shape (n_splits, k) or None
        Per-split failures and times.
    predictions : dict or None
        Name -> per-split predictions (``return_predictions=True``).
    provenance : Bunch or None
        How the result was made, for the methods of its report:
        ``version`` (of sklearn_bcv), ``estimators`` (name -> the class and
        the parameters it changes; None when the predictions were given),
        ``cv`` (the splitter), ``random_state`` (the seed; None, or the
        kind of generator given) and ``given`` (``"predictions"`` or
        ``"split scores"`` when they were given, else None).
    params : list of dict or None
        After a search (:func:`compare_search`): the parameters of each
        compared candidate, in ``names`` order; else None.
    best_index : int or None
        After a search: the ``cv_results_`` index of the best compared
        candidate (rank 1 on the metric).
    candidates : list of int or None
        After a search: the ``cv_results_`` index of each compared
        candidate, in ``names`` order.
    equivalent_to_best : list of str or None
        After a search: the best candidate and those not shown worse than
        it by ``equivalent_test`` (or, for a Bayesian test, shown not worse
        by more than its rope).
    equivalent_test : str or None
        The pairwise test that decided ``equivalent_to_best``.
    notes : list of str or None
        What the reader must know beside the numbers (e.g. that the best
        was chosen on the splits that test it); printed and reported.
    """

    _FIELDS = (
        "names",
        "tests",
        "skipped_tests",
        "pairwise",
        "scores",
        "mean_scores",
        "n_train",
        "n_test",
        "test_indices",
        "design",
        "task",
        "scoring",
        "alpha",
        "alternative",
        "correction",
        "control",
        "verdict",
        "failed_fits",
        "fit_time",
        "score_time",
        "predictions",
        "provenance",
        "params",
        "best_index",
        "candidates",
        "equivalent_to_best",
        "equivalent_test",
        "notes",
    )

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
        refuse_failed_fits(self.get("failed_fits"), name)
        alpha = params.pop("alpha", self.alpha)
        plan, _ = plan_tests(
            {name: params},
            self.design,
            self.task,
            kind="many",
            available=self._store.available,
        )
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
            fields = matrix_fields(test)
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

    # ---- content ---------------------------------------------------------

    def _ranking(self):
        """Estimator indices, best first: by mean score (ties in names
        order)."""
        return sorted(range(len(self.names)), key=lambda j: -self.mean_scores[j])

    def _contributions(self):
        """``{name: Contribution}`` of the tests with a ``content`` hook."""
        out = {}
        for name, test in [*self.tests.items(), *self.pairwise.items()]:
            contribution = hooked_content(name, test, self)
            if contribution is not None:
                out[name] = contribution
        return out

    def _summary_text(self, show):
        return _format_many_summary(self, show)

    def _report_blocks(self):
        return _report_blocks(self)

    def _report_figures(self):
        """The significance matrix of each pairwise test, and the posterior
        of the two best estimators by each Bayesian test that draws one."""
        return _figures(self)

    def _score_decimals(self):
        """The decimals of the scores: one precision for every number in
        score units (:func:`~._blocks.decimals_of`)."""
        return decimals_of(np.ravel(np.asarray(self.scores, dtype=float)))

    def _csv_table(self):
        own = self._contributions()
        rows = [
            test_row(name, test) for name, test in self.tests.items() if name not in own
        ]
        for contribution in own.values():
            rows += contribution.csv_rows
        for name, table in self.pairwise.items():
            if name in own:
                continue
            rows += [
                pair_row(
                    table,
                    matrix_fields(name),
                    name,
                    *(self.names.index(estimator) for estimator in pair),
                    self.names,
                    mean_score_a=self.mean_scores[self.names.index(pair[0])],
                    mean_score_b=self.mean_scores[self.names.index(pair[1])],
                )
                for pair in table.results
            ]
        scores = np.asarray(self.scores)
        for split in range(scores.shape[0]):
            for j, name in enumerate(self.names):
                rows.append(
                    {
                        "section": "score",
                        "estimator": name,
                        "split": split,
                        "score": scores[split, j],
                    }
                )
        return with_extra_columns(MANY_CSV, rows), rows


def _pair_of(result, a, b, *, tests):
    store = result._store
    plan, skipped = plan_tests(
        tests,
        result.design,
        store.task,
        alternative=result.alternative,
        available=store.available,
    )
    pair = build_pair_result(
        store,
        a,
        b,
        design=result.design,
        plan=plan,
        skipped=skipped,
        alpha=result.alpha,
        alternative=result.alternative,
        return_predictions=result.get("predictions") is not None,
        fits=result._fits,
        estimator_names=(result.names[a], result.names[b]),
    )
    provenance = result.get("provenance")
    if provenance is not None:
        described = provenance.get("estimators") or {}
        pair["provenance"] = Bunch(
            **{
                **provenance,
                "estimators": None
                if not described
                else {
                    "A": described[result.names[a]],
                    "B": described[result.names[b]],
                },
            }
        )
    return pair


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
    switch="pairwise_tests",
):
    """The :class:`ManyComparisonResult` of the k estimators of ``store``;
    ``switch`` names the argument that chose ``pairwise_plan``."""
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
        test_indices=store.test_indices,
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
        result["pairwise"] = run_pairwise(
            pairwise_plan,
            names,
            store.pair_needs,
            control=control,
            correction=correction,
            alpha=alpha,
            alternative=alternative,
            switch=switch,
            needs_of_pairs=store.pairs_needs,
        )
    result["verdict"] = _many_verdict(result)
    return result


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
        lines += _omnibus_lines(result, name, omnibus)
    for test, table in result.pairwise.items():
        differ, same = split_pairs(result, test, table)
        verdict.differ_by_test[test] = [
            (result.names[better], result.names[worse]) for better, worse in differ
        ]
    lines += _pairwise_text(result, "all")
    if result.pairwise:
        verdict.pairwise_test = next(iter(result.pairwise))
        verdict.differ = verdict.differ_by_test[verdict.pairwise_test]
    verdict.text = join_lines(lines) if lines else "Verdict: none; no test was run."
    return verdict


def _omnibus_lines(result, name, omnibus):
    """The summary line of the omnibus test (or those of its own content)."""
    hooked = hooked_content(name, omnibus, result)
    if hooked is not None:
        return hooked.summary
    outcome = (
        "the estimators differ"
        if omnibus.reject
        else "no significant difference among the estimators"
    )
    return [
        f"Omnibus {name} (statistic {format_number(omnibus.statistic)}, df "
        f"{format_number(omnibus.df)}, p = {format_number(omnibus.pvalue, 3)}): "
        f"{outcome} at alpha={result.alpha}."
    ]


def _pairwise_text(result, show):
    lines, hidden = [], []
    for test, table in result.pairwise.items():
        why = not_recommended(test)
        if show != "all" and why is not None:
            hidden.append(test)
            continue
        hooked = hooked_content(test, table, result)
        if hooked is not None:
            lines += hooked.summary
        else:
            differ, same = split_pairs(result, test, table)
            lines += pairwise_lines(result, test, table, differ, same)
        if why is not None:
            lines.append(f"  (not recommended: {why})")
    if hidden:
        lines.append(
            f"Not shown, not recommended here: {', '.join(hidden)} "
            "(summary(show='all') or --all-tests shows them)."
        )
    return lines


def _format_many_summary(result, show="default"):
    check_show(show)
    lines = [
        f"Comparison of {len(result.names)} estimators on "
        f"{result.design.describe()}" + records_of(result.design),
        f"task: {result.task or 'not given'}, scoring: {result.scoring}",
    ]
    order = ranking(result)
    decimals = result._score_decimals()
    ranks = shared_ranks([float(result.mean_scores[j]) for j in order])
    rows = [
        (str(rank), result.names[j], fixed(result.mean_scores[j], decimals))
        for rank, j in zip(ranks, order)
    ]
    lines += [
        "  " + line
        for line in text_table(
            ("rank", "estimator", "mean score"), rows, right_aligned=(0, 2)
        )
    ]
    verdict = result.verdict.text.split("\n")
    failed = result.get("failed_fits")
    fits_failed = failed is not None and bool(np.any(failed))
    if result.pairwise and (show != "all") and not fits_failed:
        verdict = verdict[: 1 if result.tests else 0] + _pairwise_text(result, show)
    lines += verdict
    lines += _search_lines(result)
    return join_lines(lines)


def _search_lines(result):
    """The candidates as good as the best (after a search), and the notes."""
    lines = []
    equivalent = result.get("equivalent_to_best")
    if equivalent is not None and result.get("equivalent_test"):
        lines.append(
            f"As good as the best ({equivalent[0]}) by "
            f"{result.equivalent_test}: {', '.join(equivalent)}."
        )
    lines += [
        f"Note: {note}" + ("" if note.endswith(".") else ".")
        for note in result.get("notes") or ()
    ]
    return lines


# --------------------------------------------------------------------------
# The report


def _report_blocks(result):
    names = list(result.names)
    alpha = result.alpha
    bibliography = Bibliography()
    blocks = [
        Heading("Methods"),
        *[Paragraph(p) for p in _methods(result, bibliography)],
    ]
    blocks += tests_blocks(
        tests_items(
            [*result.tests, *result.pairwise],
            bibliography,
            skipped=result.get("skipped_tests"),
        )
    )
    own = result._contributions()
    what = f"the {len(names)} estimators"
    sentences = {
        name: [omnibus_sentence(name, test, alpha, what)]
        for name, test in result.tests.items()
    }
    sentences.update(
        pairwise_sentences(names, result.pairwise, result.verdict.differ_by_test, alpha)
    )
    verdicts, tables = verdict_blocks(sentences, own, result.verdict.text)
    blocks += verdicts
    blocks += [Paragraph(line) for line in _search_lines(result)]
    blocks += [Heading("Tables"), _scores_table(result)]
    for name, table in result.pairwise.items():
        if name in own:
            continue
        pairs = [(names.index(a), names.index(b)) for a, b in table.results]
        blocks.append(
            pair_table(
                name,
                table,
                pairs,
                names,
                alpha=alpha,
                a_better=lambda a, b, name=name, table=table: pair_a_better(
                    result, name, table, a, b
                ),
            )
        )
    blocks += tables
    blocks += result._report_figures()
    blocks += bibliography.blocks()
    return blocks


def _design_text(result, bibliography):
    """How the scores were obtained: the splits, the splitter and its seed,
    or, for predictions given, what is not known here."""
    design = result.get("design")
    provenance = result.get("provenance") or {}
    splits = f"the {design.n_splits} splits of a {design.describe()}"
    cite = bibliography.cite(SPLITTER_REFERENCES.get(design.kind, ()))
    if provenance.get("given") or not provenance:
        cv = provenance.get("cv")
        return (
            f"The {provenance.get('given') or 'predictions'} were given, on {splits}"
            + (f" ({cv})" if cv else "")
            + (f" ({cite})" if cite else "")
            + ": the estimators that made them and the seed of the splits are not "
            "known to sklearn_bcv and are not stated here."
        )
    how = "; ".join(
        part for part in (provenance.get("cv"), seed_text(provenance), cite) if part
    )
    return f"Each estimator was fitted and scored on {splits} ({how})."


def _methods(result, bibliography):
    names = list(result.names)
    design = result.get("design")
    provenance = result.get("provenance")
    compared = (
        f"{len(names)} estimators ({names_list(names)}) were compared on one data "
        f"set{records_of(design, ' of')}, task "
        f"{result.get('task') or 'not given'}, scoring {result.get('scoring')}."
    )
    if result.get("control"):
        compared += f" Control: {result.control}."
    first = [compared]
    if (provenance or {}).get("estimators"):
        first.append(estimators_sentence(names, provenance))
    first.append(_design_text(result, bibliography))
    fits = fits_sentence(result.get("failed_fits"))
    if fits:
        first.append(f"In all, {fits}")
    settings = pairwise_settings_sentence(result, bibliography, by_test=True)
    each = settings_text(result, bibliography, with_rope=False)
    if each is not None:
        settings = Text(settings, " ", each)
    return [" ".join(first), settings + " " + version_sentence(provenance)]


def _scores_table(result):
    """Mean score (± sd) of each estimator over the splits, the best in
    bold, marked where the first pairwise test separates it from the best
    (or the control)."""
    names = list(result.names)
    scores = np.asarray(result.scores, dtype=float)
    sd = scores.std(axis=0, ddof=1) if scores.shape[0] > 1 else None
    mean = np.asarray(result.mean_scores, dtype=float)
    decimals = result._score_decimals()
    best = int(np.argmax(mean))
    marked, note = set(), None
    if result.pairwise:
        test = next(iter(result.pairwise))
        differ = result.verdict.differ_by_test.get(test, [])
        ref = result.get("control") or names[best]
        marked = {names.index(b if a == ref else a) for a, b in differ if ref in (a, b)}
        note = Text(
            f"† differs from {ref} by the pairwise {test} at ",
            alpha_is(result.alpha),
            (
                f" ({result.pairwise[test].correction} correction)"
                if result.pairwise[test].get("correction")
                else ""
            )
            + ".",
        )
    rows = [
        [
            name,
            fixed(mean[j], decimals)
            + ("" if sd is None else f" ± {fixed(sd[j], decimals)}"),
        ]
        for j, name in enumerate(names)
    ]
    return Table(
        ("estimator", "mean score" + ("" if sd is None else " ± sd")),
        rows,
        caption="Mean score of each estimator over the splits (the best in bold).",
        label="scores",
        bold={(best, 1)},
        marked={(j, 1) for j in marked},
        notes=[note] if note else [],
    )


def _figures(result):
    k = len(result.names)
    side = min(2.2 + 0.75 * k, 8.0)
    figures = [
        Figure(
            f"Every pair by the {declaration(name).title}.",
            "SignificanceMatrixDisplay",
            result,
            {"test": name},
            label=f"significance-{name}",
            size=(side + 1.6, side),
        )
        for name in result.pairwise
    ]
    order = ranking(result)
    a, b = result.names[order[0]], result.names[order[1]]
    for name, table in result.pairwise.items():
        run = table.results.get((a, b))
        pair = (a, b)
        if run is None:
            run, pair = table.results.get((b, a)), (b, a)
        if declaration(name).posterior != "density" or run is None:
            continue
        figures.append(
            Figure(
                f"Posterior of the {declaration(name).title} for {pair[0]} (A) "
                f"against {pair[1]} (B).",
                "PosteriorDisplay",
                Bunch(tests=Bunch(**{name: run}), estimator_names=pair),
                {"test": name},
                label=f"posterior-{name}",
            )
        )
    return figures
