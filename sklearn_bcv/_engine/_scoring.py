"""How a split is scored, through scikit-learn's public scorer API.

Every scoring the user may give (``None``, a scorer name, a scorer, or a
metric callable ``(y_true, y_pred)``) becomes a scorer ``(estimator, X,
y) -> float``. A scorer that reads only ``predict`` scores stored
predictions: it is called on a tiny estimator whose ``predict`` returns
them, so predictions made elsewhere are scored exactly as a fitted
estimator would be. A scorer that needs ``predict_proba`` or
``decision_function`` (``"roc_auc"``, ``"neg_log_loss"``) scores each
fitted estimator where it was fitted. Which kind a scorer is, is found by
calling it (public behaviour), never by reading its private attributes.
"""

import inspect
import warnings
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.metrics import get_scorer, get_scorer_names, make_scorer

from .._constants import CLASSIFICATION

__all__ = [
    "Scoring",
    "check_score",
    "check_scoring_on_target",
    "resolve_scoring",
    "score_predictions",
    "scoring_of_predictions",
]


class Scoring(NamedTuple):
    """A resolved scoring.

    ``scorer(estimator, X, y)`` is None for the default accuracy of
    classifiers, which the engine reads off the correctness of the
    predictions it computes anyway (the same number as
    :func:`~sklearn.metrics.accuracy_score`). ``needs_estimator`` is True
    for a scorer that needs more than ``predict``; ``response`` then says
    what it needs.
    """

    label: str
    scorer: object = None
    needs_estimator: bool = False
    response: str = "predict"


class _StoredPredictions(BaseEstimator):
    """An 'estimator' whose predict returns predictions made before."""

    def __init__(self, predictions=None):
        self.predictions = predictions

    def predict(self, X):
        return self.predictions


class _PredictCalled(Exception):
    """Raised by the probe's predict: the scorer reads predict only."""


class _Probe(BaseEstimator):
    def predict(self, X):
        raise _PredictCalled


def _needs_of(scorer, label):
    """``(needs_estimator, response)`` of a scorer, found by calling it."""
    try:
        scorer(_Probe(), None, np.array([0, 1]))
    except _PredictCalled:
        return False, "predict"
    except AttributeError as exc:
        # The scorer asked for a method the probe lacks ("has none of the
        # following attributes: decision_function, predict_proba").
        return True, str(exc).rsplit(": ", 1)[-1].rstrip(".") or str(exc)
    except Exception as exc:
        raise ValueError(
            f"scoring={label!r} must be a scorer (estimator, X, y) -> float; "
            f"calling it failed ({type(exc).__name__}: {exc})."
        ) from None
    return False, "predict"


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


def _is_scorer(scoring):
    """A scorer object (from make_scorer or get_scorer), not a bare metric."""
    return callable(scoring) and hasattr(scoring, "set_score_request")


def resolve_scoring(scoring, task):
    """Return the :class:`Scoring` of ``scoring`` for ``task``."""
    if scoring is None:
        if task == CLASSIFICATION:
            return Scoring("accuracy")
        return Scoring("r2", get_scorer("r2"))
    if isinstance(scoring, str) or _is_scorer(scoring):
        scorer = get_scorer(scoring)
        label = scoring if isinstance(scoring, str) else repr(scorer)
        _check_not_loss_by_name(scorer, label)
        return Scoring(label, scorer, *_needs_of(scorer, label))
    if callable(scoring):
        label = getattr(scoring, "__name__", repr(scoring))
        if _required_positional_count(scoring) > 2:
            raise ValueError(
                f"scoring={label!r} takes (estimator, X, y) like a sklearn scorer; "
                "the comparison scores predictions, so pass a metric callable "
                "(y_true, y_pred) -> float, a metric name, or "
                "sklearn.metrics.make_scorer(metric) of a predict-based metric."
            )
        _check_not_loss_by_name(scoring, label)
        return Scoring(label, make_scorer(scoring))
    raise ValueError(
        "scoring must be None, the name of a sklearn metric of (y_true, y_pred) "
        f"or a callable (y_true, y_pred) -> float; got {scoring!r}."
    )


def check_score(value, label):
    """A finite float, or a ValueError naming the scoring."""
    if np.ndim(value) != 0 or not np.isfinite(value):
        overflow = (
            " (it overflowed float64: rescale y)"
            if np.ndim(value) == 0 and np.isinf(value)
            else ""
        )
        raise ValueError(
            f"scoring={label!r} must return one finite number per split; got "
            f"{value!r}{overflow}."
        )
    return float(value)


def score_predictions(scoring, y_true, y_pred):
    """Score of stored predictions (a scoring that reads ``predict`` only).

    An overflow inside the metric is not warned about: its infinite score
    is refused with a message saying so.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        value = scoring.scorer(_StoredPredictions(y_pred), None, y_true)
    return check_score(value, scoring.label)


def scoring_of_predictions(scoring, task):
    """The scoring of predictions made elsewhere: it must read predict only."""
    scoring = resolve_scoring(scoring, task)
    if scoring.needs_estimator:
        raise ValueError(
            f"scoring={scoring.label!r} needs the fitted estimators' "
            f"{scoring.response} outputs; scoring predicted values cannot give "
            "them. Use a metric of (y_true, y_pred) such as 'accuracy', "
            "'balanced_accuracy', 'f1_macro', 'r2' or 'neg_mean_squared_error', "
            "a callable (y_true, y_pred) -> float, or fit the estimators "
            "(compare_estimators), which scores the fitted estimators."
        )
    return scoring


#: Records of a regression target a scoring is tried on before any fit.
_PROBE_RECORDS = 100


class _ClassifierProbe(ClassifierMixin, BaseEstimator):
    """A classifier of ``y`` (distinct labels): with ``shift=0`` perfect, its
    predictions ``y``, its probabilities and decision values one-hot; with
    ``shift=1`` always wrong (each label predicted as the next class)."""

    def __init__(self, y=None, shift=0):
        self.y = y
        self.shift = shift

    def _predicted(self):
        classes = self.classes_
        index = np.searchsorted(classes, self.y)
        return classes[(index + self.shift) % classes.size]

    def _one_hot(self):
        return (self._predicted()[:, None] == self.classes_[None, :]).astype(float)

    @property
    def classes_(self):
        return np.unique(self.y)

    def predict(self, X):
        return self._predicted()

    def predict_proba(self, X):
        return self._one_hot()

    def decision_function(self, X):
        one_hot = self._one_hot()
        return one_hot[:, 1] * 2 - 1 if one_hot.shape[1] == 2 else one_hot


class _RegressorProbe(RegressorMixin, BaseEstimator):
    """A regressor of ``y`` off by one half plus ``offset``: its predictions
    are continuous (as a regressor's are, even for whole-number targets) and
    positive wherever ``y >= 0`` (as the deviances need); a large ``offset``
    makes it a clearly worse regressor."""

    def __init__(self, y=None, offset=0.0):
        self.y = y
        self.offset = offset

    def predict(self, X):
        return self.y + 0.5 + self.offset


#: Endings of the names of sklearn's metrics where lower is better.
_LOSS_SUFFIXES = ("_error", "_loss", "_deviance")


def _loss_message(label):
    return (
        f"scoring={label!r} is a loss (lower is better), but the comparison "
        "needs a score where higher is better, or it ranks the better estimator "
        "last. Pass the negated scorer by name (e.g. 'neg_mean_squared_error') "
        "or make_scorer(metric, greater_is_better=False), e.g. "
        "make_scorer(mean_squared_error, greater_is_better=False)."
    )


def _check_not_loss_by_name(scoring, label):
    """Refuse a metric callable, or a scorer made from one without
    ``greater_is_better=False``, whose name says it is a loss."""
    func = getattr(scoring, "_score_func", scoring)
    sign = getattr(scoring, "_sign", 1)
    name = getattr(func, "__name__", "")
    if sign > 0 and isinstance(name, str) and name.endswith(_LOSS_SUFFIXES):
        raise ValueError(_loss_message(label))


def check_scoring_on_target(scoring, y, task):
    """Refuse, before any fit, a scoring that cannot score this target.

    The scorer is called on a perfect 'estimator' of (part of) ``y``: a
    scoring that fails then, such as ``"roc_auc"`` or ``"f1"`` on a
    multiclass target, would fail on every fit. The message names the
    scorings of the same family that can (``"roc_auc_ovr"``, ...).
    """
    if scoring.scorer is None:
        return
    if task != CLASSIFICATION and scoring.needs_estimator:
        raise ValueError(
            f"scoring={scoring.label!r} needs a classifier's {scoring.response}; "
            "a regression has none. Use a regression metric such as 'r2', "
            "'neg_mean_squared_error' or 'neg_mean_absolute_error'."
        )
    if task == CLASSIFICATION:
        probe_y = np.unique(y)
        probe = _ClassifierProbe(probe_y)
        worse = _ClassifierProbe(probe_y, shift=1)
        target = f"a {'binary' if probe_y.size == 2 else 'multiclass'} target"
    else:
        probe_y = y[:_PROBE_RECORDS]
        probe = _RegressorProbe(probe_y)
        spread = float(np.ptp(probe_y)) if probe_y.size else 0.0
        worse = _RegressorProbe(probe_y, offset=10.0 * (spread + 1.0))
        target = "a continuous target"
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            good = scoring.scorer(probe, None, probe_y)
    except Exception as exc:
        family = [
            name for name in get_scorer_names() if name.startswith(f"{scoring.label}_")
        ]
        instead = f" Scorings of its family that may: {family}." if family else ""
        # The probe is ours, not the user's: do not name it.
        reason = str(exc).replace(type(probe).__name__, "the estimator").rstrip(". ")
        raise ValueError(
            f"scoring={scoring.label!r} cannot score {target}: {reason}.{instead}"
        ) from None
    _check_not_loss_by_behaviour(scoring, good, worse, probe_y)


def _check_not_loss_by_behaviour(scoring, good, worse, probe_y):
    """Refuse a scoring that scores a clearly worse 'estimator' higher than a
    better one: a loss whose name did not say so (a lambda, a renamed
    function). Where the two cannot be told apart (equal scores, a failure
    on the worse one) the scoring is taken as given."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            bad = scoring.scorer(worse, None, probe_y)
        good, bad = float(good), float(bad)
    except Exception:
        return
    if np.isfinite(good) and np.isfinite(bad) and bad > good:
        raise ValueError(_loss_message(scoring.label))
