"""One data set's comparison, up to its store of predictions.

Every entry point on one data set does the same things before its
statistics: check the data, find the task and the scoring, materialise the
splits and read their design (then plan its tests, before any fit), fit
the estimators in one pool, and gather their predictions in a
:class:`~sklearn_bcv._engine._needs.PredictionStore`. Or, for predictions
made elsewhere, check them and store them. Both ways are written once here.
"""

import copy
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import check_cv
from sklearn.utils import indexable

from .._constants import CLASSIFICATION
from ._design import describe_design
from ._fit import DataSet, default_cv, fit_all, materialise_splits, route_params
from ._needs import PredictionStore
from ._progress import FitProgress
from ._scoring import check_scoring_on_target, resolve_scoring, scoring_of_predictions
from ._validation import (
    check_consistent_predictions,
    check_predictions,
    check_records,
    check_target,
    check_task,
    task_of_estimators,
)

__all__ = [
    "Prepared",
    "fit_datasets",
    "fit_prepared",
    "prepare_fits",
    "store_predictions",
]


@dataclass
class Prepared:
    """A data set ready to be fitted: the checked inputs, splits and design.

    ``estimators`` is a list of ``(label, estimator, fit_params)``; the
    label names the estimator in messages and verbose output.
    """

    X: object
    y: np.ndarray
    task: str
    scoring: object
    splits: list
    design: object
    estimators: list
    groups: object = None


def check_fittable(estimators, *, error_score="raise"):
    """Clone every estimator and check its parameters, before any fit.

    ``estimators`` is a list of ``(label, estimator)``. An estimator that
    cannot be cloned, or whose parameters scikit-learn's own validation
    refuses (``LogisticRegression(C=-1)``), would otherwise fail inside its
    first fit, after the other estimators' fits; the error names it by its
    label (a ``ValueError``, so that it is not reported as a parameter of
    the entry point). With a numeric ``error_score`` invalid parameters are
    left to the fits, which record them as failed (as
    :func:`~sklearn.model_selection.cross_validate` does); cloning is
    always checked (every fit's clone is made in this process).
    """
    for label, estimator in estimators:
        try:
            cloned = clone(estimator)
        except Exception as exc:
            raise ValueError(
                f"{label} ({type(estimator).__name__}) cannot be cloned, and every "
                f"fit needs a fresh clone: {type(exc).__name__}: {exc}"
            ) from None
        validate = getattr(cloned, "_validate_params", None)
        # sklearn's validation reads the class's _parameter_constraints.
        if (
            error_score == "raise"
            and callable(validate)
            and hasattr(cloned, "_parameter_constraints")
        ):
            try:
                validate()
            except Exception as exc:
                raise ValueError(
                    f"{label} ({type(estimator).__name__}) has an invalid "
                    f"parameter: {exc}"
                ) from None


def copy_records(X):
    """``X`` to fit on, never the user's object: a list of rows (lists or
    tuples) becomes one array copy, so that an estimator mutating its input
    changes the copy (arrays and DataFrames are copied by indexing)."""
    if isinstance(X, list | tuple) and any(isinstance(r, list | tuple) for r in X):
        try:
            return np.array(X)
        except ValueError:  # ragged rows: keep them as given, deep-copied
            return copy.deepcopy(X)
    return X


def prepare_fits(
    estimators,
    X,
    y,
    *,
    cv,
    scoring,
    groups,
    params,
    random_state,
    owner,
    error_score="raise",
):
    """Check the data and materialise the splits, before any fit.

    ``estimators`` is a list of ``(label, estimator)``; ``owner`` names the
    entry point in metadata-routing messages; ``error_score`` decides whether
    invalid estimator parameters are refused here (see
    :func:`check_fittable`).
    """
    y = check_target(y)
    n_samples = check_records(X, y, groups)
    X, groups = indexable(copy_records(X), groups)
    task = task_of_estimators(estimators, y)
    check_fittable(estimators, error_score=error_score)
    scoring = resolve_scoring(scoring, task)
    check_scoring_on_target(scoring, y, task)
    cv = (
        default_cv(random_state)
        if cv is None
        else check_cv(cv, y, classifier=task == CLASSIFICATION)
    )
    split_params, fit_params = route_params(estimators, cv, params, groups, owner=owner)
    splits = materialise_splits(cv, X, y, split_params)
    return Prepared(
        X,
        y,
        task,
        scoring,
        splits,
        describe_design(splits, n_samples, cv=cv),
        [(label, est, fp) for (label, est), fp in zip(estimators, fit_params)],
        groups,
    )


def fit_prepared(
    prepared,
    *,
    labels,
    n_jobs,
    verbose,
    error_score,
    return_estimator=False,
    study_store=None,
    progress_label="compare",
):
    """Fit every estimator once per split; return ``(fits, store)``.

    ``labels`` name the estimators in verbose output (``"A"``, ``"B"``);
    ``study_store`` is a study store (its fits are not fitted again).
    ``verbose > 0`` shows a progress bar (fits done of the total, elapsed,
    time left) on stderr, labelled ``progress_label``; ``verbose > 1`` also
    prints the number of fits and a line per fit.
    """
    k, n_splits = len(prepared.estimators), len(prepared.splits)
    if verbose > 1:
        print(
            f"Fitting {k} estimators on each of {n_splits} splits, totalling "
            f"{k * n_splits} fits"
        )
    progress = (
        FitProgress([("", k * n_splits)], label=progress_label) if verbose > 0 else None
    )
    try:
        ((fits, store),) = fit_datasets(
            [prepared],
            labels=labels,
            n_jobs=n_jobs,
            verbose=verbose,
            error_score=error_score,
            return_estimator=return_estimator,
            progress=progress,
            study_store=study_store,
        )
    finally:
        if progress is not None:
            progress.close()
    return fits, store


def fit_datasets(
    prepared,
    *,
    labels,
    n_jobs,
    verbose,
    error_score,
    return_estimator=False,
    names=None,
    progress=None,
    study_store=None,
):
    """Fit every estimator once per split of every prepared data set, in one
    pool; return a list of ``(fits, store)``, one per data set.

    ``names`` name the data sets in verbose output; ``progress`` (a
    :class:`~sklearn_bcv._engine._progress.FitProgress`) is told of each fit;
    ``study_store`` (a :class:`~sklearn_bcv.StudyStore`) keeps the fits.
    """
    names = [""] * len(prepared) if names is None else names
    data = [
        DataSet(
            p.X,
            p.y,
            p.splits,
            [(label, est, fp) for label, (_, est, fp) in zip(labels, p.estimators)],
            scorer=p.scoring.scorer if p.scoring.needs_estimator else None,
            name=name,
            groups=p.groups,
        )
        for p, name in zip(prepared, names)
    ]
    all_fits = fit_all(
        data,
        n_jobs=n_jobs,
        verbose=verbose,
        error_score=error_score,
        return_estimator=return_estimator,
        progress=progress,
        store=study_store,
    )
    return [
        (
            fits,
            PredictionStore.of_fits(
                p.y,
                p.splits,
                fits,
                p.task,
                p.scoring,
                error_score,
                [(label, est) for label, est, _ in p.estimators],
            ),
        )
        for p, fits in zip(prepared, all_fits)
    ]


def store_predictions(y, predictions, splits, *, task, scoring, cv):
    """Check predictions made elsewhere; return ``(store, design)``.

    ``predictions`` is a list of ``(label, per-split predictions)``; the
    label names them in messages (``"predictions_a"``).
    """
    y = check_target(y)
    design = describe_design(splits, y.shape[0], cv=cv)
    # Copies: results own their data.
    splits = [
        (np.array(tr, dtype=np.intp), np.array(te, dtype=np.intp)) for tr, te in splits
    ]
    # Shapes and finiteness first: the task is inferred from the predictions.
    checked = [
        check_predictions(per_split, splits, label, None)
        for label, per_split in predictions
    ]
    if task is None:
        check_consistent_predictions(
            y,
            [(label, per_split) for (label, _), per_split in zip(predictions, checked)],
        )
    task = check_task(task, y, [p for per_split in checked for p in per_split])
    for (label, _), per_split in zip(predictions, checked):
        check_predictions(per_split, splits, label, task, y=y)
    scoring = scoring_of_predictions(scoring, task)
    check_scoring_on_target(scoring, y, task)
    per_split = [list(row) for row in zip(*checked)]
    return PredictionStore(y, splits, per_split, task, scoring), design
