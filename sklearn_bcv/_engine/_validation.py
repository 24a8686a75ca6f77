"""Checks of what the entry points are given: targets, predictions, estimators.

Every check raises a ``ValueError`` (or ``TypeError``) naming the argument
and what was expected, before any fit.
"""

import warnings
from collections import Counter
from collections.abc import Iterator, Mapping, Set

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.utils.multiclass import type_of_target as _sklearn_type_of_target

from .._compat import _num_samples
from .._constants import CLASSIFICATION, REGRESSION, TASKS
from ..stats._utils import check_label_type, label_type

__all__ = [
    "check_class_labels",
    "check_estimator_list",
    "check_predictions",
    "check_records",
    "check_target",
    "check_task",
    "task_from_target",
    "task_of_estimators",
]


def type_of_target(y):
    """scikit-learn's ``type_of_target``, quiet on values beyond the integer
    range (its test for whole numbers casts to int: 1e80 warns there)."""
    with np.errstate(invalid="ignore", over="ignore"):
        return _sklearn_type_of_target(y)


def check_target(y, *, name="y"):
    """``y`` as a 1-D array of finite, non-missing targets (a copy: results
    own their data)."""
    y = np.array(y)
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
    if label_type(y) == "mixed":
        raise ValueError(
            f"{name} mixes strings and numbers; class labels must be all strings "
            "or all numbers."
        )
    return y


def _check_labels(pred, y, name):
    """Predicted class labels must be of y's label type; labels y never holds
    are allowed (they count as errors) but warned about."""
    check_label_type(pred, y, name=name)
    unseen = np.setdiff1d(np.unique(pred), np.unique(y))
    if unseen.size:
        warnings.warn(
            f"{name} holds labels that y never holds: {unseen[:5].tolist()}"
            f"{' ...' if unseen.size > 5 else ''}; they count as errors.",
            UserWarning,
            stacklevel=6,
        )


def check_records(X, y, groups):
    """The number of records; X, y and groups must agree on it."""
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
    return n_samples


def task_from_target(y, predictions):
    """The task of a target and of predictions of it."""
    target_type = type_of_target(y)
    if target_type in ("binary", "multiclass"):
        # One call on all numeric predictions: continuous if any split's are.
        # (Labels of another type are refused later, by check_predictions.)
        predicted = [
            np.ravel(p)
            for p in map(np.asarray, predictions)
            if p.size and label_type(p) == "number"
        ]
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


def _is_continuous(predictions):
    """Whether numeric predictions hold values that are not class labels."""
    values = [np.ravel(p) for p in map(np.asarray, predictions) if p.size]
    values = [v for v in values if label_type(v) == "number"]
    return bool(values) and type_of_target(np.concatenate(values)) == "continuous"


def check_consistent_predictions(y, labelled):
    """Refuse class-label predictions mixed with continuous ones.

    ``labelled`` is a list of ``(label, per-split predictions)``. With class
    labels in ``y``, one estimator's continuous predictions (probabilities,
    regression outputs) next to the others' labels would otherwise turn the
    whole comparison into a regression scored with r2. All continuous is a
    regression of a whole-number target (see ``task``).
    """
    if type_of_target(y) not in ("binary", "multiclass") or len(labelled) < 2:
        return
    continuous = [_is_continuous(per_split) for _, per_split in labelled]
    if any(continuous) and not all(continuous):
        label, per_split = labelled[continuous.index(True)]
        split = next(i for i, p in enumerate(per_split) if _is_continuous([p]))
        others = [lab for (lab, _), c in zip(labelled, continuous) if not c]
        raise ValueError(
            f"{label}[{split}] holds continuous values, but y holds class labels "
            f"and {others[0]} predicts labels; predictions must all be class "
            "labels (use predict, not predict_proba) or, for a regression of "
            "a whole-number target, all numbers with task='regression'."
        )


def check_task(task, y, predictions):
    """The task: ``task`` checked against ``y``, or inferred when None."""
    if task is None:
        return task_from_target(y, predictions)
    if task not in TASKS:
        raise ValueError(
            f"task must be None, {CLASSIFICATION!r} or {REGRESSION!r}; got {task!r}."
        )
    if task == REGRESSION and y.dtype.kind not in "biuf":
        raise ValueError(f"a regression needs a numeric y; got dtype {y.dtype}.")
    if task == CLASSIFICATION:
        check_class_labels(y)
    return task


def check_class_labels(y, *, min_classes=1):
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


def check_predictions(predictions, splits, name, task, *, y=None):
    """A list of 1-D prediction arrays, one per split's test set (copies).

    With ``y`` and a classification, the predicted labels are checked
    against y's labels.
    """
    if isinstance(predictions, np.ndarray) and predictions.ndim == 1:
        raise ValueError(
            f"{name} must be a list with one array of predictions per split "
            "(predictions for splits[i][1]); got one flat array."
        )
    try:
        predictions = [np.array(p) for p in predictions]
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
    if task == CLASSIFICATION and y is not None and predictions:
        _check_labels(np.concatenate(predictions), y, name)
    return predictions


def _declared_type(estimator):
    """The estimator type an estimator declares (sklearn's tags, or the older
    ``_estimator_type``): "classifier", "regressor", "clusterer", ... or None."""
    try:
        from sklearn.utils import get_tags

        declared = get_tags(estimator).estimator_type
    except Exception:
        declared = None
    if declared is None:
        declared = getattr(estimator, "_estimator_type", None)
    return declared if isinstance(declared, str) else None


def _kind_of_estimator(estimator, label="the estimator"):
    """CLASSIFICATION, REGRESSION or None (undeclared); an estimator declared
    as something else (a clusterer, an outlier detector, a transformer) is
    refused: its predictions are cluster ids or inlier flags, not labels."""
    if is_classifier(estimator):
        return CLASSIFICATION
    if is_regressor(estimator):
        return REGRESSION
    declared = _declared_type(estimator)
    if declared is not None:
        raise TypeError(
            f"{label} must be a classifier or a regressor; got "
            f"{type(estimator).__name__}, a {declared} (its predictions are not "
            "class labels or targets). Compare classifiers or regressors."
        )
    return None


def task_of_estimators(estimators, y):
    """The task of fitting ``estimators`` to ``y``, refusing mixed kinds.

    ``estimators`` is a list of ``(label, estimator)``; a label names the
    estimator in messages (``"estimator_a"``, or ``"'forest'"``).
    """
    known = [
        (label, estimator, kind)
        for label, estimator in estimators
        if (kind := _kind_of_estimator(estimator, label)) is not None
    ]
    for label, estimator, kind in known[1:]:
        first_label, first, first_kind = known[0]
        if kind == first_kind:
            continue
        if len(estimators) == 2:
            raise ValueError(
                f"{first_label} and {label} must both be classifiers or both "
                f"regressors; got a {first_kind} model ({type(first).__name__}) "
                f"and a {kind} model ({type(estimator).__name__})."
            )
        raise ValueError(
            "estimators must all be classifiers or all regressors; got a "
            f"{first_kind} model ({first_label}: {type(first).__name__}) and a "
            f"{kind} model ({label}: {type(estimator).__name__})."
        )
    task = known[0][2] if known else task_from_target(y, [])
    if task == CLASSIFICATION:
        # Fitting a classifier needs two classes; scoring predictions does not.
        check_class_labels(y, min_classes=2)
    elif y.dtype.kind not in "biuf":
        raise ValueError(f"regressors need a numeric y; got dtype {y.dtype}.")
    return task


def check_estimator_list(estimators, *, name="estimators"):
    """``[(name, estimator), ...]`` from a list of pairs or a dict.

    At least two estimators, unique string names, each an object with
    ``fit``, ``predict`` and ``get_params`` (so that it can be cloned).
    """
    if isinstance(estimators, dict):
        pairs = list(estimators.items())
    elif isinstance(estimators, list | tuple):
        pairs = list(estimators)
        for i, pair in enumerate(pairs):
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise TypeError(
                    f"{name} must be a list of (name, estimator) pairs or a dict "
                    f"name -> estimator; {name}[{i}] is {pair!r}."
                )
    elif hasattr(estimators, "cv_results_"):  # a fitted search, given alone
        raise TypeError(
            f"{name} must be a list of (name, estimator) pairs or a dict name -> "
            f"estimator; got a fitted search ({type(estimators).__name__}). Its "
            "candidates are compared by compare_search(search); to compare the "
            "tuned model with other estimators, put the search in the list."
        )
    else:
        raise TypeError(
            f"{name} must be a list of (name, estimator) pairs or a dict name -> "
            f"estimator; got {type(estimators).__name__}."
        )
    if len(pairs) < 2:
        raise ValueError(
            f"{name} must hold at least 2 estimators to compare; got {len(pairs)}."
        )
    check_names([label for label, _ in pairs], argument=name)
    for label, estimator in pairs:
        missing = [
            method
            for method in ("fit", "predict", "get_params")
            if not callable(getattr(estimator, method, None))
        ]
        if missing:
            raise TypeError(
                f"{name}[{label!r}] must be an estimator with fit, predict and "
                f"get_params (it is cloned for every split); got "
                f"{type(estimator).__name__}, which has no {', '.join(missing)}."
            )
    return [(str(label), estimator) for label, estimator in pairs]


def named_items(value, *, argument, expected, at_least, too_few):
    """``[(name, item), ...]`` from a dict or a list of ``(str, item)`` pairs.

    ``expected`` names an item (in the ``TypeError``); at least ``at_least``
    items, ``too_few`` saying what (``"at least 2 data sets"``); names
    non-empty strings, each once.
    """
    if isinstance(value, dict):
        pairs = list(value.items())
    elif isinstance(value, list | tuple) and all(
        isinstance(pair, tuple | list) and len(pair) == 2 and isinstance(pair[0], str)
        for pair in value
    ):
        pairs = [tuple(pair) for pair in value]
    else:
        raise TypeError(
            f"{argument} must be a dict name -> {expected}; got {type(value).__name__}."
        )
    if len(pairs) < at_least:
        raise ValueError(f"{argument} must hold {too_few}; got {len(pairs)}.")
    check_names([name for name, _ in pairs], argument=argument)
    return pairs


def check_names(names, *, argument):
    """Names of estimators: non-empty strings, each once."""
    bad = [name for name in names if not isinstance(name, str) or not name]
    if bad:
        raise TypeError(
            f"the names in {argument} must be non-empty strings; got {bad[0]!r}."
        )
    # One pass (Counter), not names.count per name: 10**5 data sets in O(n).
    duplicates = sorted(name for name, n in Counter(names).items() if n > 1)
    if duplicates:
        raise ValueError(
            f"the names in {argument} must be unique; {duplicates} repeat."
        )
    return list(names)


def check_sequence(value, *, argument):
    """``value`` as a list, refusing unordered or one-shot collections.

    A set (or a dict, or its keys) has no order of its own: names taken from
    one would label columns in an order that changes between runs
    (``PYTHONHASHSEED``). A generator is read once and its length is unknown
    until then. Both are refused with a message saying what to pass.
    """
    if isinstance(value, Set | Mapping) or type(value).__name__.startswith("dict_"):
        raise TypeError(
            f"{argument} must be a sequence (a list or tuple, in column order); "
            f"got a {type(value).__name__}, whose order is not defined. Pass "
            f"e.g. sorted({argument}) or a list."
        )
    if isinstance(value, Iterator):
        raise TypeError(
            f"{argument} must be a sequence (a list or tuple, in column order); "
            f"got a {type(value).__name__} (an iterator). Pass list(...) of it."
        )
    return list(value)


def check_names_subset(value, names, *, name):
    """``value`` must be one of ``names`` (or None)."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in names:
        raise ValueError(f"{name} must be None or one of {names}; got {value!r}.")
    return value
