"""Compare two estimators: fit them on shared splits and run the tests.

:func:`compare_estimators` fits clones of two estimators on every split of
one materialised list of splits (one joblib pool) and hands their
predictions to the statistics path that :func:`compare_predictions` exposes:
the needs of the registered tests (contingency tables, score differences,
set sizes, per-record loss differences) are computed once, and every
requested test, built-in or registered by a third party, is called with
them through the registry.
"""

import inspect
import numbers
import time
import warnings
from collections import Counter
from itertools import product
from numbers import Integral, Real
from traceback import format_exc
from typing import NamedTuple

import numpy as np
from sklearn import get_config
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.exceptions import FitFailedWarning, UnsetMetadataPassedError
from sklearn.metrics import get_scorer, r2_score
from sklearn.model_selection import check_cv
from sklearn.utils import Bunch, indexable
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.parallel import Parallel, delayed

from ._compat import (
    HasMethods,
    Interval,
    StrOptions,
    _check_method_params,
    _num_samples,
    _safe_split,
    metric_of_scorer,
    validate_params,
)
from ._design import describe_design
from ._mcnemar import mcnemar_table
from ._registry import get_test, get_test_info
from ._stats_utils import ALTERNATIVES

__all__ = ["ComparisonResult", "compare_estimators", "compare_predictions"]

CLASSIFICATION, REGRESSION = "classification", "regression"

#: The test each design is best served by (why: see ``_recommend``).
_RECOMMENDATION_REASONS = {
    "bcv_mcnemar": "recommended for classifiers on a block-regularized m×2 CV "
    "(Yang et al.)",
    "calibrated_f_5x2bcv": "recommended for scores on a block-regularized m×2 CV "
    "(calibrated F-test)",
    "mcnemar": "recommended for one hold-out split",
    "corrected_t": "recommended for k-fold and other resampling designs "
    "(Nadeau & Bengio)",
    "combined_f_5x2cv": "recommended for a random m×2 CV (Alpaydin)",
}


# --------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------


class ComparisonResult(Bunch):
    """The result of :func:`compare_estimators` or :func:`compare_predictions`.

    A :class:`~sklearn.utils.Bunch` (attribute and key access) whose fields
    are documented in :func:`compare_predictions`. It keeps what the tests
    need (``tables``, ``differences``, ``n_train``, ``n_test``,
    ``loss_differences``) so :meth:`run_test` runs any other registered test
    later, without refitting. Printing it shows a table of the tests and a
    one-line verdict from the test recommended for the design.
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
        failed = self.get("failed_fits")
        if failed is not None and np.any(failed):
            raise ValueError(
                f"{name} cannot run: {int(np.sum(failed))} fits failed (see "
                "failed_fits), and every test needs every split. Fix the "
                "estimators or rerun with error_score='raise' to see the error."
            )
        test = _planned_test(name, self.design, self.task)
        return _call_test(test, dict(self), self.alpha, self.alternative, params)

    def __repr__(self):
        return _format_summary(self)

    __str__ = __repr__


def _format_number(value, digits=4):
    if value is None:
        return "-"
    if isinstance(value, tuple):
        return "(" + ", ".join(_format_number(v, digits) for v in value) + ")"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, Real):
        return f"{float(value):.{digits}g}"
    return str(value)


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
    reject = test_result.get("reject")
    if not isinstance(reject, bool | np.bool_):
        return str(reject)
    if not reject:
        return "no significant difference"
    return f"significant: {_direction(test_result, mean_difference)}"


def _estimator_name(estimator):
    """Short readable name: the class, with the steps or inner estimator."""
    name = type(estimator).__name__
    steps = getattr(estimator, "steps", None)
    if isinstance(steps, list):
        inner = [
            _estimator_name(step)
            for _, step in steps
            if step is not None and step != "passthrough"
        ]
        return f"{name}({', '.join(inner)})"
    # GridSearchCV and other meta-estimators taking an ``estimator`` parameter.
    inner = estimator.get_params(deep=False).get("estimator")
    if hasattr(inner, "fit"):
        return f"{name}({_estimator_name(inner)})"
    return name


def _format_summary(result):
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
    tests = result.get("tests") or {}
    if tests:
        header = (
            "test",
            "statistic",
            "df",
            "p-value",
            f"decision (alpha={result.alpha})",
        )
        rows = [
            (
                name,
                _format_number(r.get("statistic")),
                _format_number(r.get("df")),
                _format_number(r.get("pvalue")),
                _decision(r, mean_difference),
            )
            for name, r in tests.items()
        ]
        # Mark the test the verdict is based on.
        rows = [
            (f"{row[0]} *" if row[0] == result.recommended_test else row[0], *row[1:])
            for row in rows
        ]
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
        for row in [header, *rows]:
            cells = [row[0].ljust(widths[0])]
            cells += [row[i].rjust(widths[i]) for i in range(1, 4)]
            lines.append("  ".join([*cells, row[4]]).rstrip())
    skipped = result.get("skipped_tests") or {}
    if skipped and not np.any(result.get("failed_fits", False)):
        lines.append(
            f"not run (alternative={result.alternative!r} unsupported): "
            + ", ".join(skipped)
        )
    lines.append(_verdict(result, mean_difference))
    return "\n".join(lines)


def _verdict(result, mean_difference):
    tests = result.get("tests") or {}
    failed = result.get("failed_fits")
    if failed is not None and np.any(failed):
        return (
            f"Verdict: none; {int(np.sum(failed))} of {failed.size} fits failed "
            "(see failed_fits), and every test needs every split."
        )
    if not tests:
        return "Verdict: none; no test was run."
    recommended = result.recommended_test
    if recommended in tests:
        name, why = recommended, _recommendation_reason(recommended, result.design)
    else:
        name = next(iter(tests))
        why = (
            f"the recommended {recommended} was not run"
            if recommended
            else "no recommended test for this design"
        )
    test_result = tests[name]
    pvalue = test_result.get("pvalue")
    p_text = "" if pvalue is None else f" (p = {_format_number(pvalue, 3)})"
    if test_result.get("reject"):
        outcome = (
            f"the estimators differ at alpha={result.alpha}{p_text}: "
            f"{_direction(test_result, mean_difference)}."
        )
    else:
        outcome = f"no significant difference at alpha={result.alpha}{p_text}."
    return f"Verdict from {name} ({why}): {outcome}"


def _recommend(design, task, scoring, alternative="two-sided"):
    """The registered test recommended for the design, or None."""
    kind = design.kind
    if kind == "holdout":
        return "mcnemar" if task == CLASSIFICATION else None
    if kind == "bcv" and task == CLASSIFICATION and scoring == "accuracy":
        return "bcv_mcnemar"
    if kind in ("bcv", "mx2") and alternative != "two-sided":
        # The F tests below cannot honour a one-sided alternative.
        return "corrected_t"
    if kind == "bcv":
        return "calibrated_f_5x2bcv"
    if kind == "mx2":
        return "combined_f_5x2cv"
    return "corrected_t"


def _recommendation_reason(name, design):
    if name == "corrected_t" and design.is_mx2:
        return (
            "recommended for a one-sided alternative on an m×2 CV, which the "
            "F tests cannot honour (Nadeau & Bengio)"
        )
    return _RECOMMENDATION_REASONS[name]


# --------------------------------------------------------------------------
# Which tests run
# --------------------------------------------------------------------------


def _planned_test(name, design, task):
    """Check that the registered test ``name`` can run; return (name, needs).

    Raises ValueError when its design or needs do not fit; warns when a
    block-regularized test runs on a plain m×2 design.
    """
    needs = get_test_info(name)[0]
    design.check_test(name)
    if "tables" in needs and task != CLASSIFICATION:
        raise ValueError(
            f"{name} needs contingency tables of right/wrong predictions, which "
            "exist for classification only; this comparison is a regression. "
            "Use a test of score differences (e.g. corrected_t)."
        )
    return name, needs


def _check_tests_argument(tests):
    """Normalise ``tests`` to a dict ``{name: params}`` (None stays None)."""
    if tests is None:
        return None
    if isinstance(tests, str):
        return {tests: {}}
    if isinstance(tests, dict):
        plan = {}
        for name, params in tests.items():
            if params is None:
                params = {}
            if not isinstance(params, dict):
                raise ValueError(
                    f"tests[{name!r}] must be a dict of parameters for the test; "
                    f"got {type(params).__name__}."
                )
            plan[name] = params
        return plan
    names = list(tests)
    if not names or not all(isinstance(name, str) for name in names):
        raise ValueError(
            "tests must be None, a test name, a non-empty list of names or a dict "
            f"{{name: {{param: value}}}}; got {tests!r}."
        )
    return {name: {} for name in names}


def _plan_tests(tests, design, task):
    """``[(name, needs, params, explicit)]`` for the tests that will run.

    ``tests=None`` selects every registered test whose design fits and whose
    needs exist for the task, except the tests derived for block-regularized
    splits when the m×2 design is not block-regularized (asking for them by
    name runs them with a warning).
    """
    requested = _check_tests_argument(tests)
    if requested is not None:
        plan = []
        for name, params in requested.items():
            name, needs = _planned_test(name, design, task)
            plan.append((name, needs, params, True))
        return plan
    plan = [
        (name, needs, {}, False)
        for name in design.applicable_tests(include_warned=False)
        if not (
            "tables" in (needs := get_test_info(name)[0]) and task != CLASSIFICATION
        )
    ]
    if not plan:
        raise ValueError(
            f"No registered test applies to a {task} comparison on "
            f"{design.describe()}; score-difference tests need at least two "
            "splits (use cv=None, a 5×2 BCV, or k-fold CV)."
        )
    return plan


def _call_test(test, needs, alpha, alternative, params):
    name, test_needs = test
    kwargs = {need: needs[need] for need in test_needs}
    kwargs.update(alpha=alpha, alternative=alternative)
    kwargs.update(params)
    return get_test(name)(**kwargs)


def _run_tests(plan, needs, alpha, alternative):
    """Run the planned tests; return (Bunch of results, dict of skipped tests).

    A test chosen automatically (``tests=None``) that cannot honour the
    requested one-sided ``alternative`` (e.g. an F test) is skipped and
    reported in ``skipped``; one asked for by name raises.
    """
    results, skipped = Bunch(), {}
    for name, test_needs, params, explicit in plan:
        try:
            results[name] = _call_test(
                (name, test_needs), needs, alpha, alternative, params
            )
        except ValueError as exc:
            one_sided_refused = alternative != "two-sided" and "alternative" in str(exc)
            if explicit or not one_sided_refused:
                raise
            skipped[name] = str(exc)
    return results, skipped


# --------------------------------------------------------------------------
# Scoring and the needs
# --------------------------------------------------------------------------


class _Scoring(NamedTuple):
    """How a split is scored.

    ``metric(y_true, y_pred)`` scores predictions; it is None for a sklearn
    scorer that needs other outputs of the fitted estimator (``predict_proba``,
    ``decision_function``), which ``scorer(estimator, X_test, y_test)`` then
    scores where the estimator was fitted.
    """

    label: str
    metric: object = None
    scorer: object = None


def _resolve_scoring(scoring, task):
    """Return the :class:`_Scoring` of ``scoring``."""
    if scoring is None:
        if task == CLASSIFICATION:
            return _Scoring("accuracy", _accuracy)
        return _Scoring("r2", r2_score)
    if isinstance(scoring, str) or hasattr(scoring, "_score_func"):
        scorer = get_scorer(scoring)
        func, kwargs, sign, response_method = metric_of_scorer(scorer)
        label = scoring if isinstance(scoring, str) else repr(scorer)
        if response_method != "predict":
            return _Scoring(label, scorer=scorer)

        def metric(y_true, y_pred):
            return sign * func(y_true, y_pred, **kwargs)

        return _Scoring(label, metric)
    if callable(scoring):
        label = getattr(scoring, "__name__", repr(scoring))
        if _required_positional_count(scoring) > 2:
            raise ValueError(
                f"scoring={label!r} takes (estimator, X, y) like a sklearn scorer; "
                "the comparison scores predictions, so pass a metric callable "
                "(y_true, y_pred) -> float, a metric name, or "
                "sklearn.metrics.make_scorer(metric) of a predict-based metric."
            )
        return _Scoring(label, scoring)
    raise ValueError(
        "scoring must be None, the name of a sklearn metric of (y_true, y_pred) "
        f"or a callable (y_true, y_pred) -> float; got {scoring!r}."
    )


def _required_positional_count(func):
    """Positional parameters of ``func`` without a default (0 if unknown)."""
    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):  # builtins without a signature
        return 0
    positional = (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    )
    return sum(
        p.kind in positional and p.default is inspect.Parameter.empty
        for p in parameters
    )


def _accuracy(y_true, y_pred):
    """accuracy_score without its input checks (done once by the engine)."""
    return float(np.mean(y_true == y_pred))


def _score(metric, label, y_true, y_pred):
    return _check_score(metric(y_true, y_pred), label)


def _check_score(value, label):
    if np.ndim(value) != 0 or not np.isfinite(value):
        raise ValueError(
            f"scoring={label!r} must return one finite number per split; got {value!r}."
        )
    return float(value)


def _loss_difference(y_true, pred_a, pred_b, task):
    """loss_a - loss_b per record: 0-1 loss (classification) or squared error."""
    if task == CLASSIFICATION:
        return (pred_a != y_true).astype(np.float64) - (pred_b != y_true).astype(
            np.float64
        )
    y_true = y_true.astype(np.float64)
    return (pred_a - y_true) ** 2 - (pred_b - y_true) ** 2


def _compute_needs(y, predictions_a, predictions_b, splits, task, scoring, scores):
    """Everything the registered tests may need, each computed once.

    ``scores`` (n_splits, 2) are the scores of A and B when the fits scored
    themselves (``scoring.scorer``); otherwise the predictions are scored.
    """
    needs = {}
    tests_y = [y[test] for _, test in splits]
    if task == CLASSIFICATION:
        needs["tables"] = np.stack(
            [
                mcnemar_table(y_test, pred_a, pred_b)
                for y_test, pred_a, pred_b in zip(tests_y, predictions_a, predictions_b)
            ]
        )
    if scores is None:
        scores = [
            [_score(scoring.metric, scoring.label, t, p) for t, p in zip(tests_y, pred)]
            for pred in (predictions_a, predictions_b)
        ]
    else:
        scores = [[_check_score(v, scoring.label) for v in col] for col in scores.T]
    scores_a, scores_b = np.array(scores[0]), np.array(scores[1])
    needs["scores_a"], needs["scores_b"] = scores_a, scores_b
    needs["differences"] = scores_a - scores_b
    needs["n_train"] = float(np.mean([train.size for train, _ in splits]))
    needs["n_test"] = float(np.mean([test.size for _, test in splits]))
    needs["loss_differences"] = [
        _loss_difference(y_test, pred_a, pred_b, task)
        for y_test, pred_a, pred_b in zip(tests_y, predictions_a, predictions_b)
    ]
    return needs


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


def _check_target(y, *, name="y"):
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D (one target per record); got shape {y.shape}. "
            "Multi-output comparisons are not supported."
        )
    if y.shape[0] == 0:
        raise ValueError(f"{name} is empty.")
    if y.dtype.kind in "fc" and not np.all(np.isfinite(y)):
        raise ValueError(
            f"{name} contains NaN or infinity; every record needs a target."
        )
    if y.dtype == object and any(v is None or v != v for v in y):
        raise ValueError(f"{name} contains missing values (None or NaN).")
    return y


def _task_from_target(y, predictions):
    target_type = type_of_target(y)
    if target_type in ("binary", "multiclass"):
        # One call on all predictions: continuous if any split's are.
        predicted = [np.ravel(p) for p in predictions if np.asarray(p).size]
        continuous = bool(predicted) and (
            type_of_target(np.concatenate(predicted)) == "continuous"
        )
        return REGRESSION if continuous else CLASSIFICATION
    if target_type == "continuous":
        return REGRESSION
    raise ValueError(
        f"y must hold class labels or a continuous target; got a {target_type!r} "
        "target."
    )


def _check_task(task, y, predictions):
    if task is None:
        return _task_from_target(y, predictions)
    if task not in (CLASSIFICATION, REGRESSION):
        raise ValueError(
            f"task must be None, {CLASSIFICATION!r} or {REGRESSION!r}; got {task!r}."
        )
    if task == REGRESSION and y.dtype.kind not in "biuf":
        raise ValueError(f"a regression needs a numeric y; got dtype {y.dtype}.")
    if task == CLASSIFICATION:
        _check_class_labels(y)
    return task


def _check_class_labels(y, *, min_classes=1):
    """y must hold class labels (binary or multiclass), ``min_classes`` or more."""
    target_type = type_of_target(y)
    if target_type not in ("binary", "multiclass"):
        raise ValueError(
            f"a classification needs class labels in y; got a {target_type!r} "
            "target. Compare regressors for a continuous target."
        )
    classes = np.unique(y)
    if classes.size < min_classes:
        raise ValueError(
            f"y must hold at least two classes to compare classifiers; got "
            f"{classes.size} class ({classes[0]})."
        )


def _check_predictions(predictions, splits, name, task):
    if isinstance(predictions, np.ndarray) and predictions.ndim == 1:
        raise ValueError(
            f"{name} must be a list with one array of predictions per split "
            "(predictions for splits[i][1]); got one flat array."
        )
    try:
        predictions = [np.asarray(p) for p in predictions]
    except TypeError:
        raise ValueError(
            f"{name} must be a list of arrays, one per split; got "
            f"{type(predictions).__name__}."
        ) from None
    if len(predictions) != len(splits):
        raise ValueError(
            f"{name} must hold one array per split: {len(splits)} splits, got "
            f"{len(predictions)} arrays."
        )
    for i, (pred, (_, test)) in enumerate(zip(predictions, splits)):
        if pred.ndim != 1 or pred.shape[0] != test.size:
            raise ValueError(
                f"{name}[{i}] must be 1-D with one prediction per test record of "
                f"splits[{i}] ({test.size}); got shape {pred.shape}."
            )
        if pred.dtype.kind in "fc" and not np.all(np.isfinite(pred)):
            raise ValueError(
                f"{name}[{i}] contains NaN or infinity; every test record needs "
                "a prediction."
            )
        if task == REGRESSION and pred.dtype.kind not in "biuf":
            raise ValueError(
                f"{name}[{i}] must be numbers for a regression; got dtype {pred.dtype}."
            )
    return predictions


def _build_result(
    y,
    predictions_a,
    predictions_b,
    splits,
    design,
    task,
    plan,
    scoring,
    alpha,
    alternative,
    return_predictions=True,
    scores=None,
):
    """The one statistics path shared by both public functions."""
    needs = _compute_needs(
        y, predictions_a, predictions_b, splits, task, scoring, scores
    )
    tests, skipped = _run_tests(plan, needs, alpha, alternative)
    predictions = (predictions_a, predictions_b) if return_predictions else None
    return _make_result(
        tests,
        skipped,
        needs,
        predictions,
        splits,
        design,
        task,
        scoring.label,
        alpha,
        alternative,
    )


def _make_result(
    tests,
    skipped,
    fields,
    predictions,
    splits,
    design,
    task,
    label,
    alpha,
    alternative,
):
    """Assemble the ComparisonResult (the one place its fields are named)."""
    result = ComparisonResult(
        tests=tests,
        skipped_tests=skipped,
        **fields,
        test_indices=[test for _, test in splits],
        design=design,
        task=task,
        scoring=label,
        alpha=alpha,
        alternative=alternative,
        recommended_test=_recommend(design, task, label, alternative),
    )
    if predictions is not None:
        result["predictions_a"] = list(predictions[0])
        result["predictions_b"] = list(predictions[1])
    return result


@validate_params(
    {
        "y": ["array-like"],
        "predictions_a": ["array-like"],
        "predictions_b": ["array-like"],
        "splits": ["array-like"],
        "tests": [str, list, tuple, dict, None],
        "scoring": [str, callable, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "task": [StrOptions({CLASSIFICATION, REGRESSION}), None],
        "cv": [None, HasMethods("split")],
    },
    prefer_skip_nested_validation=True,
)
def compare_predictions(
    y,
    predictions_a,
    predictions_b,
    splits,
    *,
    tests=None,
    scoring=None,
    alpha=0.05,
    alternative="two-sided",
    task=None,
    cv=None,
):
    """Compare two estimators from their predictions on shared splits.

    The statistics half of :func:`compare_estimators`, for predictions made
    elsewhere: the needs of the registered tests are computed once from the
    predictions and every requested test is run through the registry.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True targets of all records.
    predictions_a, predictions_b : list of array-like
        ``predictions_a[i]`` holds estimator A's predictions for the test
        records ``splits[i][1]`` (in that order); likewise for B.
    splits : list of (train, test) pairs of int arrays
        The splits the predictions were made on, in the order the tests read
        them (for an m×2 design: fold 0, fold 1 of each repetition).
    tests : str, list of str or dict, default=None
        ``None`` runs every registered test applicable to the design and
        task (see Notes); a name or list of names runs those; a dict
        ``{name: {param: value}}`` passes parameters to each test.
    scoring : str or callable, default=None
        Score of one split, higher is better. ``None`` is accuracy for class
        labels and r2 for a continuous target; a string names a sklearn
        metric of ``(y_true, y_pred)`` (``"balanced_accuracy"``,
        ``"f1_macro"``, ``"r2"``, ``"neg_mean_squared_error"``, ...); a
        callable is called as ``scoring(y_true, y_pred)``. Scorers that
        need ``predict_proba`` or ``decision_function`` (``"roc_auc"``,
        ``"neg_log_loss"``) need the fitted estimators: use
        :func:`compare_estimators`.
    alpha : float, default=0.05
        Significance level of every test's ``reject``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.
    task : {"classification", "regression"}, default=None
        ``None`` infers it: classification when ``y`` holds class labels
        (binary or multiclass) and the predictions are labels too.
    cv : cross-validation generator, default=None
        The splitter that made ``splits``; a ``BlockRegularizedMx2CV``
        marks the design as block-regularized (otherwise this is inferred
        from the indices).

    Returns
    -------
    result : ComparisonResult
        A :class:`~sklearn.utils.Bunch` subclass with

        tests : Bunch
            Test name -> the test's result Bunch (``statistic``, ``pvalue``,
            ``df``, ``reject``, ...).
        skipped_tests : dict
            Tests chosen by ``tests=None`` that could not honour a one-sided
            ``alternative`` (F tests), with the reason.
        tables : ndarray of shape (n_splits, 2, 2)
            Classification only: ``tables[i, a, b]`` counts test records of
            split ``i`` that A gets right (``a=1``) or wrong (``a=0``) and B
            right or wrong (see :func:`~sklearn_bcv.mcnemar_table`).
        scores_a, scores_b, differences : ndarray of shape (n_splits,)
            Scores per split and ``scores_a - scores_b``.
        n_train, n_test : float
            Mean training and test set sizes.
        loss_differences : list of ndarray
            Per split, loss of A minus loss of B per test record (0-1 loss
            for classification, squared error for regression).
        test_indices : list of ndarray
            ``splits[i][1]``.
        predictions_a, predictions_b : list of ndarray
            The predictions.
        design : Design
            The design read off the splits (``design.kind`` is one of
            ``"holdout"``, ``"kfold"``, ``"mx2"``, ``"bcv"``, ``"any"``).
        task, scoring, alpha, alternative : the settings used.
        recommended_test : str or None
            The test the printed verdict is based on: ``bcv_mcnemar`` for
            classifiers (accuracy) on a block-regularized m×2 design,
            ``calibrated_f_5x2bcv`` for other scores on one, ``mcnemar`` on
            one hold-out split, ``combined_f_5x2cv`` on a random m×2 CV,
            ``corrected_t`` otherwise, and also in place of the two F tests
            when ``alternative`` is one-sided (they cannot honour it).

        ``result.run_test(name, **params)`` runs any other registered test
        on the stored needs without refitting.

    See Also
    --------
    compare_estimators : Fit two estimators on shared splits and compare them.
    sklearn_bcv.register_test : Add a test the engine runs like the built-in ones.

    Notes
    -----
    ``tests=None`` runs each registered test whose design fits the splits
    and whose needs exist for the task (contingency tables exist for
    classification only). Tests derived for block-regularized splits
    (design ``"bcv"``) are left out on an m×2 design that is not
    block-regularized, where their calibration does not hold; asked for by
    name they run with a ``UserWarning``. A test asked for on a design it
    does not fit raises ``ValueError`` naming the design it needs.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import KFold
    >>> from sklearn_bcv import compare_predictions
    >>> rng = np.random.RandomState(0)
    >>> y = rng.randint(0, 2, 400)
    >>> splits = list(KFold(5).split(y))
    >>> def noisy(accuracy, test):
    ...     return np.where(rng.rand(len(test)) < accuracy, y[test], 1 - y[test])
    >>> pred_a = [noisy(0.9, test) for _, test in splits]
    >>> pred_b = [noisy(0.7, test) for _, test in splits]
    >>> result = compare_predictions(y, pred_a, pred_b, splits)
    >>> result.design.describe()
    '5-fold CV'
    >>> sorted(result.tests)
    ['bayesian_correlated_t', 'corrected_t', 'cv_ci_z', 'kfold_mcnemar', 'paired_t']
    >>> result.tests.corrected_t.reject
    True

    A test registered by a third party runs through the engine like the
    built-in ones, also later on a stored result:

    >>> from sklearn.utils import Bunch
    >>> from sklearn_bcv import register_test
    >>> @register_test("sign_count", needs="differences", overwrite=True)
    ... def sign_count(*, differences, alpha=0.05, alternative="two-sided"):
    ...     wins = int(np.sum(np.asarray(differences) > 0))
    ...     return Bunch(statistic=wins, pvalue=None, df=None, reject=False,
    ...                  alternative=alternative, test="sign_count")
    >>> compare_predictions(y, pred_a, pred_b, splits,
    ...                     tests="sign_count").tests.sign_count.statistic
    5
    >>> result.run_test("sign_count").statistic
    5
    >>> from sklearn_bcv import unregister_test
    >>> unregister_test("sign_count")
    """
    y = _check_target(y)
    design = describe_design(splits, y.shape[0], cv=cv)
    splits = [
        (np.asarray(tr, dtype=np.intp), np.asarray(te, dtype=np.intp))
        for tr, te in splits
    ]
    # Shapes and finiteness first: the task is inferred from the predictions.
    predictions_a = _check_predictions(predictions_a, splits, "predictions_a", None)
    predictions_b = _check_predictions(predictions_b, splits, "predictions_b", None)
    task = _check_task(task, y, [*predictions_a, *predictions_b])
    for name, predictions in (
        ("predictions_a", predictions_a),
        ("predictions_b", predictions_b),
    ):
        _check_predictions(predictions, splits, name, task)
    scoring = _resolve_scoring(scoring, task)
    if scoring.metric is None:
        raise ValueError(
            f"scoring={scoring.label!r} needs the fitted estimators' "
            f"{metric_of_scorer(scoring.scorer)[3]!r} outputs; "
            "compare_predictions scores predicted values. Use a metric of "
            "(y_true, y_pred) such as 'accuracy', 'balanced_accuracy', "
            "'f1_macro', 'r2' or 'neg_mean_squared_error', a callable "
            "(y_true, y_pred) -> float, or compare_estimators, which scores "
            "the fitted estimators."
        )
    plan = _plan_tests(tests, design, task)
    return _build_result(
        y,
        predictions_a,
        predictions_b,
        splits,
        design,
        task,
        plan,
        scoring,
        alpha,
        alternative,
    )


# --------------------------------------------------------------------------
# Fitting
# --------------------------------------------------------------------------


def _fit_and_predict(
    estimator,
    X,
    y,
    train,
    test,
    *,
    fit_params,
    error_score,
    verbose,
    label,
    scorer=None,
):
    """Fit ``estimator`` on ``train`` and predict ``test`` (a joblib task).

    Returns a dict: predictions, score (``scorer(estimator, X_test, y_test)``
    when a scorer is given, else None), fit_time, score_time (time to predict
    and score), estimator, fit_error (traceback text or None).
    """
    fit_params = _check_method_params(X, params=fit_params or {}, indices=train)
    X_train, y_train = _safe_split(estimator, X, y, train)
    X_test, y_test = _safe_split(estimator, X, y, test, train)
    result = {
        "predictions": None,
        "score": None,
        "estimator": estimator,
        "fit_error": None,
    }
    start = time.perf_counter()
    try:
        estimator.fit(X_train, y_train, **fit_params)
    except Exception:
        if error_score == "raise":
            raise
        result["fit_time"] = time.perf_counter() - start
        result["score_time"] = 0.0
        result["fit_error"] = format_exc()
    else:
        result["fit_time"] = time.perf_counter() - start
        start = time.perf_counter()
        try:
            result["predictions"] = np.asarray(estimator.predict(X_test))
            if scorer is not None:
                result["score"] = scorer(estimator, X_test, y_test)
        except Exception:
            if error_score == "raise":
                raise
            result["fit_error"] = "predict or score failed:\n" + format_exc()
        result["score_time"] = time.perf_counter() - start
    if verbose > 1:
        print(
            f"[compare {label}] END fit_time={result['fit_time']:.3f}s, "
            f"predict_time={result['score_time']:.3f}s"
        )
    return result


def _warn_or_raise_about_fit_failures(outputs, error_score):
    """All fits failed: ValueError; some: FitFailedWarning with a summary."""
    errors = [out["fit_error"] for out in outputs if out["fit_error"] is not None]
    if not errors:
        return
    delimiter = "-" * 80 + "\n"
    summary = "\n".join(
        f"{delimiter}{n} fits failed with the following error:\n{error}"
        for error, n in Counter(errors).items()
    )
    if len(errors) == len(outputs):
        raise ValueError(
            f"\nAll the {len(outputs)} fits failed.\nIt is very likely that your "
            "estimators are misconfigured.\nYou can try to debug the error by "
            f"setting error_score='raise'.\n\nBelow are more details about the "
            f"failures:\n{summary}"
        )
    warnings.warn(
        f"\n{len(errors)} fits failed out of a total of {len(outputs)}.\nThe "
        f"scores of these splits are set to {error_score} and no test is run "
        "(every test needs every split).\nIf these failures are not expected, "
        "you can try to debug them by setting error_score='raise'.\n\nBelow are "
        f"more details about the failures:\n{summary}",
        FitFailedWarning,
        stacklevel=3,
    )


def _kind_of_estimator(estimator):
    if is_classifier(estimator):
        return CLASSIFICATION
    if is_regressor(estimator):
        return REGRESSION
    return None


def _task_of_estimators(estimator_a, estimator_b, y):
    kind_a, kind_b = _kind_of_estimator(estimator_a), _kind_of_estimator(estimator_b)
    if kind_a and kind_b and kind_a != kind_b:
        raise ValueError(
            "estimator_a and estimator_b must both be classifiers or both "
            f"regressors; got a {kind_a} model ({type(estimator_a).__name__}) "
            f"and a {kind_b} model ({type(estimator_b).__name__})."
        )
    task = kind_a or kind_b
    if task is None:
        task = _task_from_target(y, [])
    if task == CLASSIFICATION:
        # Fitting a classifier needs two classes; scoring predictions does not.
        _check_class_labels(y, min_classes=2)
    elif y.dtype.kind not in "biuf":
        raise ValueError(f"regressors need a numeric y; got dtype {y.dtype}.")
    return task


def _route_params(estimator_a, estimator_b, cv, params, groups):
    """Return (split params, fit params of A, fit params of B)."""
    params = {} if params is None else params
    if not get_config().get("enable_metadata_routing", False):
        return {"groups": groups}, params, params
    if groups is not None:
        raise ValueError(
            "groups can only be passed if metadata routing is not enabled; with "
            "sklearn.set_config(enable_metadata_routing=True) pass it in params "
            "(params={'groups': groups})."
        )
    router = (
        MetadataRouter(owner="compare_estimators")
        .add(
            splitter=cv,
            method_mapping=MethodMapping().add(caller="fit", callee="split"),
        )
        .add(
            estimator_a=estimator_a,
            method_mapping=MethodMapping().add(caller="fit", callee="fit"),
        )
        .add(
            estimator_b=estimator_b,
            method_mapping=MethodMapping().add(caller="fit", callee="fit"),
        )
    )
    try:
        routed = process_routing(router, "fit", **params)
    except UnsetMetadataPassedError as exc:
        # The caller is compare_estimators, not a fit method.
        raise UnsetMetadataPassedError(
            message=str(exc).replace("compare_estimators.fit", "compare_estimators"),
            unrequested_params=exc.unrequested_params,
            routed_params=exc.routed_params,
        ) from None
    return (
        routed.splitter.split,
        routed.estimator_a.fit,
        routed.estimator_b.fit,
    )


def _materialise_splits(cv, X, y, split_params):
    try:
        splits = list(cv.split(X, y, **split_params))
    except ValueError as exc:
        raise ValueError(
            f"cv={cv!r} cannot split the {_num_samples(X)} records: {exc}"
        ) from exc
    return [
        (np.asarray(tr, dtype=np.intp), np.asarray(te, dtype=np.intp))
        for tr, te in splits
    ]


def _default_cv(random_state):
    from ._split import BlockRegularized5x2CV

    return BlockRegularized5x2CV(random_state=random_state)


@validate_params(
    {
        # get_params: clone() needs it to give every fit a fresh copy.
        "estimator_a": [HasMethods(["fit", "predict", "get_params"])],
        "estimator_b": [HasMethods(["fit", "predict", "get_params"])],
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "cv": ["cv_object"],
        "tests": [str, list, tuple, dict, None],
        "scoring": [str, callable, None],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "groups": ["array-like", None],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
        "random_state": ["random_state"],
        "error_score": [StrOptions({"raise"}), Real],
        "return_estimator": ["boolean"],
        "return_predictions": ["boolean"],
        "params": [dict, None],
    },
    prefer_skip_nested_validation=False,  # the estimators are not validated yet
)
def compare_estimators(
    estimator_a,
    estimator_b,
    X,
    y,
    *,
    cv=None,
    tests=None,
    scoring=None,
    alpha=0.05,
    alternative="two-sided",
    groups=None,
    n_jobs=None,
    verbose=0,
    random_state=None,
    error_score="raise",
    return_estimator=False,
    return_predictions=True,
    params=None,
):
    """Fit two estimators on shared splits and compare them with sound tests.

    Clones of both estimators are fitted on every split of one list of
    splits (by default a block-regularized 5×2 CV), in one joblib pool; their
    predictions go through :func:`compare_predictions`, which runs every
    requested test (by default all that apply to the design and task).

    Parameters
    ----------
    estimator_a, estimator_b : estimator objects implementing fit and predict
        The two learning algorithms (scikit-learn compatible, so that they
        can be cloned); both classifiers or both regressors.
        They are cloned, never fitted in place. Meta-estimators such as
        :class:`~sklearn.model_selection.GridSearchCV` give nested CV.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        The data.
    y : array-like of shape (n_samples,)
        The target.
    cv : int, cross-validation generator or iterable, default=None
        ``None`` is ``BlockRegularized5x2CV(random_state=random_state)``.
        Otherwise any sklearn cv spec, resolved by
        :func:`~sklearn.model_selection.check_cv` (an int gives
        ``StratifiedKFold`` for classifiers). The splits are generated once
        and shared by A and B.
    tests : str, list of str or dict, default=None
        ``None`` runs every registered test applicable to the design and
        task; a name, a list of names, or ``{name: {param: value}}``.
    scoring : str, callable or scorer, default=None
        Score of one split, higher is better: ``None`` (accuracy for
        classifiers, r2 for regressors), any name
        :func:`~sklearn.metrics.get_scorer` knows (``"roc_auc"`` and
        ``"neg_log_loss"`` included), a scorer made by
        :func:`~sklearn.metrics.make_scorer`, or a callable
        ``(y_true, y_pred) -> float``. A scorer that needs
        ``predict_proba`` or ``decision_function`` scores each fitted
        estimator on its test set where it was fitted; the contingency
        tables and loss differences always come from ``predict``.
    alpha : float, default=0.05
        Significance level.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: A is better than B; ``"less"``: B is better.
    groups : array-like of shape (n_samples,), default=None
        Group labels passed to the splitter (when metadata routing is off).
    n_jobs : int, default=None
        Number of jobs fitting in parallel over (estimator, split) pairs;
        ``None`` means 1 unless in a joblib backend context.
    verbose : int, default=0
        Verbosity: ``> 0`` prints the number of fits and joblib progress,
        ``> 1`` one line per fit.
    random_state : int, RandomState instance or None, default=None
        Seeds the default ``cv`` only. Estimators keep their own
        ``random_state``: set it (an int or a RandomState instance) for
        reproducible fits, see Notes.
    error_score : "raise" or float, default="raise"
        ``"raise"`` re-raises an error of fit or predict. A number records
        the failure (a ``FitFailedWarning`` summarises them), sets the score
        of the failed splits to that number and runs no test, since every
        test needs every split; if all fits fail a ``ValueError`` is raised.
    return_estimator : bool, default=False
        Whether to return the fitted estimators (``estimators_a``,
        ``estimators_b``).
    return_predictions : bool, default=True
        Whether to return the predictions (``predictions_a``,
        ``predictions_b``), which :func:`compare_predictions` can reuse.
    params : dict, default=None
        Parameters for the estimators' ``fit`` (e.g. ``sample_weight``),
        indexed per split; with metadata routing enabled they are routed
        like :func:`~sklearn.model_selection.cross_validate` does (to the
        estimators' ``fit`` and the splitter's ``split``).

    Returns
    -------
    result : ComparisonResult
        The fields of :func:`compare_predictions`' result, plus

        fit_time, score_time : ndarray of shape (n_splits, 2)
            Seconds to fit and to predict, column 0 for A, 1 for B.
        estimators_a, estimators_b : list of estimators
            When ``return_estimator``.
        failed_fits : ndarray of bool of shape (n_splits, 2)
            Which fits failed (all False unless ``error_score`` is a number).
        estimator_names : tuple of str
            Short names of A and B (class names, with pipeline steps or the
            inner estimator), shown by the printed summary.

    See Also
    --------
    compare_predictions : The statistics from predictions made elsewhere.
    BlockRegularized5x2CV : The default splitter.
    sklearn.model_selection.cross_validate : Scores of one estimator.

    Notes
    -----
    All the randomness of the comparison is drawn in the calling process:
    the splits are materialised once before any fit, and every task receives
    a clone made there (a ``RandomState`` instance given to an estimator is
    copied into each clone in the same state, as in
    :func:`~sklearn.model_selection.cross_validate`). So with seeded
    estimators the result does not depend on ``n_jobs`` or the joblib
    backend. An estimator whose ``random_state`` is None draws from the
    global NumPy generator of whichever process runs the fit; its fits then
    differ from call to call even with ``n_jobs=1``, as everywhere in
    scikit-learn: give randomised estimators a ``random_state``.

    The fits run on the active joblib backend, so a cluster works unchanged.
    With dask::

        from distributed import Client
        from joblib import parallel_config
        client = Client("tcp://scheduler:8786")  # the cluster's scheduler
        with parallel_config(backend="dask"):
            result = compare_estimators(a, b, X, y, random_state=0)

    and with ray, ``from ray.util.joblib import register_ray`` then
    ``register_ray()`` and ``parallel_config(backend="ray")``.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bcv import compare_estimators
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> result = compare_estimators(
    ...     make_pipeline(StandardScaler(), LogisticRegression()),
    ...     DecisionTreeClassifier(random_state=0), X, y, random_state=0)
    >>> result.design.describe()
    '5×2 block-regularized CV'
    >>> result.tables.shape, result.fit_time.shape
    ((10, 2, 2), (10, 2))
    >>> result.recommended_test
    'bcv_mcnemar'
    >>> bool(result.tests.bcv_mcnemar.reject)
    True
    """
    y = _check_target(y)
    n_samples = _num_samples(X)
    if y.shape[0] != n_samples:
        raise ValueError(
            f"X and y must have the same number of records; got X with "
            f"{n_samples} and y with {y.shape[0]}."
        )
    if groups is not None and _num_samples(groups) != n_samples:
        raise ValueError(
            f"groups must have one label per record ({n_samples}); got "
            f"{_num_samples(groups)}."
        )
    X, groups = indexable(X, groups)
    task = _task_of_estimators(estimator_a, estimator_b, y)
    scoring = _resolve_scoring(scoring, task)
    _check_tests_argument(tests)
    cv = (
        _default_cv(random_state)
        if cv is None
        else check_cv(cv, y, classifier=task == CLASSIFICATION)
    )
    split_params, fit_params_a, fit_params_b = _route_params(
        estimator_a, estimator_b, cv, params, groups
    )
    splits = _materialise_splits(cv, X, y, split_params)
    design = describe_design(splits, n_samples, cv=cv)
    plan = _plan_tests(tests, design, task)

    n_splits = len(splits)
    if verbose > 0:
        print(
            f"Fitting 2 estimators on each of {n_splits} splits, totalling "
            f"{2 * n_splits} fits"
        )
    estimators = [
        (0, "A", estimator_a, fit_params_a),
        (1, "B", estimator_b, fit_params_b),
    ]
    parallel = Parallel(n_jobs=n_jobs, verbose=verbose, pre_dispatch="2*n_jobs")
    outputs = parallel(
        delayed(_fit_and_predict)(
            clone(estimator),
            X,
            y,
            train,
            test,
            fit_params=fit_params,
            error_score=error_score,
            verbose=verbose,
            label=f"{label} split {i + 1}/{n_splits}",
            scorer=scoring.scorer,
        )
        for (_, label, estimator, fit_params), (i, (train, test)) in product(
            estimators, enumerate(splits)
        )
    )
    if len(outputs) != 2 * n_splits:
        raise ValueError(
            f"Expected {2 * n_splits} fit results, got {len(outputs)}; the joblib "
            "backend lost tasks."
        )
    _warn_or_raise_about_fit_failures(outputs, error_score)
    outputs_a, outputs_b = outputs[:n_splits], outputs[n_splits:]
    failed = np.array(
        [
            [out_a["fit_error"] is not None, out_b["fit_error"] is not None]
            for out_a, out_b in zip(outputs_a, outputs_b)
        ]
    )
    predictions_a = [out["predictions"] for out in outputs_a]
    predictions_b = [out["predictions"] for out in outputs_b]
    scores = None
    if scoring.scorer is not None:
        scores = np.array(
            [[a["score"], b["score"]] for a, b in zip(outputs_a, outputs_b)],
            dtype=object,
        )
    if failed.any():
        result = _failed_result(
            y,
            predictions_a,
            predictions_b,
            splits,
            design,
            task,
            plan,
            scoring,
            alpha,
            alternative,
            error_score,
            failed,
            return_predictions,
            scores,
        )
    else:
        for name, predictions in (
            ("estimator_a", predictions_a),
            ("estimator_b", predictions_b),
        ):
            _check_predictions(predictions, splits, f"predictions of {name}", task)
        result = _build_result(
            y,
            predictions_a,
            predictions_b,
            splits,
            design,
            task,
            plan,
            scoring,
            alpha,
            alternative,
            return_predictions,
            scores,
        )
    result["failed_fits"] = failed
    result["estimator_names"] = (
        _estimator_name(estimator_a),
        _estimator_name(estimator_b),
    )
    result["fit_time"] = np.array(
        [[a["fit_time"], b["fit_time"]] for a, b in zip(outputs_a, outputs_b)]
    )
    result["score_time"] = np.array(
        [[a["score_time"], b["score_time"]] for a, b in zip(outputs_a, outputs_b)]
    )
    if return_estimator:
        result["estimators_a"] = [out["estimator"] for out in outputs_a]
        result["estimators_b"] = [out["estimator"] for out in outputs_b]
    return result


def _failed_result(
    y,
    predictions_a,
    predictions_b,
    splits,
    design,
    task,
    plan,
    scoring,
    alpha,
    alternative,
    error_score,
    failed,
    return_predictions,
    fitted_scores=None,
):
    """Scores (error_score where a fit failed) and no tests."""
    scores = np.full(failed.shape, float(error_score))
    for i, (_, test) in enumerate(splits):
        for j, predictions in enumerate((predictions_a, predictions_b)):
            if failed[i, j]:
                continue
            if fitted_scores is None:
                scores[i, j] = _score(
                    scoring.metric, scoring.label, y[test], predictions[i]
                )
            else:
                scores[i, j] = _check_score(fitted_scores[i, j], scoring.label)
    fields = dict(
        scores_a=scores[:, 0],
        scores_b=scores[:, 1],
        differences=scores[:, 0] - scores[:, 1],
        n_train=design.n_train,
        n_test=design.n_test,
    )
    skipped = {name: "a fit failed" for name, *_ in plan}
    predictions = (predictions_a, predictions_b) if return_predictions else None
    return _make_result(
        Bunch(),
        skipped,
        fields,
        predictions,
        splits,
        design,
        task,
        scoring.label,
        alpha,
        alternative,
    )
