"""Whether a rerun can fit an estimator differently: the study store's
``random_state`` rule.

A study store keeps each fit; a resumed or extended study reuses them and
fits only the rest, which is exact only when a rerun would fit the same
estimator the same way. An estimator whose ``random_state`` is None draws
from NumPy's global generator -- if it draws at all. The store warns
(:class:`~sklearn_bcv._store.UnfixedRandomStateWarning`) only where a
rerun can really differ, by this rule, applied to the estimator and to
every estimator nested in its parameters:

1. **Seeded by its parent.** An ensemble built on scikit-learn's
   ``BaseEnsemble`` (``BaggingClassifier``, ``AdaBoostClassifier``,
   ``IsolationForest``, ...) sets every ``random_state`` of the estimator
   it is given (its ``estimator`` parameter) from its own: with the
   ensemble's ``random_state`` fixed, a ``random_state=None`` inside is
   fixed too, and nothing is said of it; with the ensemble's None, the
   ensemble itself is reported.
2. **Known estimators, by their parameters.** scikit-learn's documentation
   says when each of these consumes its ``random_state``; a None it does
   not consume changes nothing: ``LogisticRegression`` and
   ``LogisticRegressionCV`` with the ``sag``, ``saga`` or ``liblinear``
   solver only (the default ``lbfgs`` is deterministic);
   ``DummyClassifier`` with the ``stratified`` or ``uniform`` strategy only;
   ``SVC`` and ``NuSVC`` with ``probability=True`` only; ``LinearSVC`` and
   ``LinearSVR`` with ``dual=True`` (``dual="auto"``: may, it depends on the
   data's shape); ``Ridge`` and ``RidgeClassifier`` with the ``sag`` or
   ``saga`` solver (``"auto"``: may); the coordinate-descent models
   (``Lasso``, ``ElasticNet``, their ``CV`` and ``MultiTask`` forms) with
   ``selection="random"`` only; ``SGDClassifier``, ``SGDRegressor``,
   ``Perceptron`` and the passive-aggressive models with ``shuffle=True``
   or ``early_stopping=True``; ``PCA`` with the ``arpack`` or
   ``randomized`` solver (``"auto"``: may). Trees, forests, gradient
   boosting, bagging, AdaBoost, neural networks, ``TruncatedSVD``,
   k-means and the random kernel approximations always consume it;
   ``HistGradientBoosting*`` when ``early_stopping=True`` (otherwise: may,
   it depends on the number of records).
3. **Anything else** with ``random_state=None``: whether it draws cannot be
   known from outside, and the warning says a rerun *may* differ.

The classes are matched exactly (a subclass may draw where its parent does
not, so it falls under rule 3), by their public scikit-learn names.
"""

import importlib

__all__ = ["unfixed_random_states"]

_SAG = ("sag", "saga")


def _logistic(params):
    return params.get("solver") in (*_SAG, "liblinear")


def _ridge(params):
    solver = params.get("solver")
    return True if solver in _SAG else (None if solver == "auto" else False)


def _coordinate_descent(params):
    return params.get("selection") == "random"


def _sgd(params):
    return (
        params.get("shuffle", True) is not False or params.get("early_stopping") is True
    )


def _svc(params):
    return params.get("probability") is True  # (a sentinel string: deprecated)


def _liblinear_dual(params):
    dual = params.get("dual")
    return None if isinstance(dual, str) else bool(dual)


def _dummy(params):
    return params.get("strategy") in ("stratified", "uniform")


def _pca(params):
    solver = params.get("svd_solver")
    return (
        True
        if solver in ("arpack", "randomized")
        else (None if solver == "auto" else False)
    )


def _hist_gradient_boosting(params):
    return True if params.get("early_stopping") is True else None


def _always(params):
    return True


#: (public module, class) -> params -> True (consumes ``random_state``),
#: False (never) or None (depends on the data: may).
_RULES = {
    **{
        ("sklearn.linear_model", name): _logistic
        for name in ("LogisticRegression", "LogisticRegressionCV")
    },
    **{("sklearn.linear_model", name): _ridge for name in ("Ridge", "RidgeClassifier")},
    **{
        ("sklearn.linear_model", name): _coordinate_descent
        for name in (
            "Lasso",
            "ElasticNet",
            "LassoCV",
            "ElasticNetCV",
            "MultiTaskLasso",
            "MultiTaskElasticNet",
            "MultiTaskLassoCV",
            "MultiTaskElasticNetCV",
        )
    },
    **{
        ("sklearn.linear_model", name): _sgd
        for name in (
            "SGDClassifier",
            "SGDRegressor",
            "SGDOneClassSVM",
            "Perceptron",
            "PassiveAggressiveClassifier",
            "PassiveAggressiveRegressor",
        )
    },
    **{("sklearn.svm", name): _svc for name in ("SVC", "NuSVC")},
    **{("sklearn.svm", name): _liblinear_dual for name in ("LinearSVC", "LinearSVR")},
    ("sklearn.dummy", "DummyClassifier"): _dummy,
    ("sklearn.decomposition", "PCA"): _pca,
    **{
        ("sklearn.ensemble", name): _hist_gradient_boosting
        for name in ("HistGradientBoostingClassifier", "HistGradientBoostingRegressor")
    },
    **{
        (module, name): _always
        for module, names in (
            (
                "sklearn.tree",
                (
                    "DecisionTreeClassifier",
                    "DecisionTreeRegressor",
                    "ExtraTreeClassifier",
                    "ExtraTreeRegressor",
                ),
            ),
            (
                "sklearn.ensemble",
                (
                    "RandomForestClassifier",
                    "RandomForestRegressor",
                    "ExtraTreesClassifier",
                    "ExtraTreesRegressor",
                    "GradientBoostingClassifier",
                    "GradientBoostingRegressor",
                    "BaggingClassifier",
                    "BaggingRegressor",
                    "AdaBoostClassifier",
                    "AdaBoostRegressor",
                    "IsolationForest",
                    "RandomTreesEmbedding",
                ),
            ),
            ("sklearn.neural_network", ("MLPClassifier", "MLPRegressor")),
            ("sklearn.decomposition", ("TruncatedSVD",)),
            ("sklearn.cluster", ("KMeans", "MiniBatchKMeans")),
            (
                "sklearn.kernel_approximation",
                ("RBFSampler", "Nystroem", "SkewedChi2Sampler"),
            ),
        )
        for name in names
    },
}

#: Parameters through which a ``BaseEnsemble`` seeds the estimator it builds.
_SEEDED_PARAMS = ("estimator", "base_estimator")

_CLASSES = {}


def _rule(estimator):
    """The rule of ``type(estimator)`` (exact class), or None."""
    if not _CLASSES:
        for (module, name), rule in _RULES.items():
            cls = getattr(importlib.import_module(module), name, None)
            if cls is not None:
                _CLASSES[cls] = rule
    return _CLASSES.get(type(estimator))


def _seeds_its_estimator(estimator):
    """Whether ``estimator`` sets the random states of the estimator it is
    given from its own (scikit-learn's ``BaseEnsemble._make_estimator``)."""
    from sklearn.ensemble import BaseEnsemble

    return isinstance(estimator, BaseEnsemble)


def _uses(estimator, params):
    """True, False or None (may): whether ``estimator`` consumes its
    ``random_state`` with these parameters."""
    rule = _rule(estimator)
    if rule is None:
        return None
    try:
        return rule(params)
    except Exception:  # a parameter of an unexpected kind: cannot tell
        return None


def _join(path, name):
    return f"{path}.{name}" if path else name


def unfixed_random_states(estimator, path=""):
    """Where ``estimator`` has a ``random_state`` of None that a rerun may
    draw differently from (the module's rule).

    Parameters
    ----------
    estimator : estimator
        An estimator with ``get_params``.
    path : str, default=""
        The estimator's place in its parent, for the paths returned.

    Returns
    -------
    unfixed : list of (str, bool)
        ``(path, certain)`` for each such ``random_state``: ``certain`` when
        the estimator is known to consume it, False when it may.

    Examples
    --------
    >>> from sklearn.ensemble import BaggingClassifier, RandomForestClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> unfixed_random_states(LogisticRegression())
    []
    >>> unfixed_random_states(BaggingClassifier(DecisionTreeClassifier(),
    ...                                         random_state=0))
    []
    >>> unfixed_random_states(BaggingClassifier(DecisionTreeClassifier()))
    [('random_state', True)]
    >>> unfixed_random_states(RandomForestClassifier())
    [('random_state', True)]
    """
    try:
        params = estimator.get_params(deep=False)
    except Exception:  # describing it for the store fails first, naming it
        return []
    found = []
    if "random_state" in params and params["random_state"] is None:
        uses = _uses(estimator, params)
        if uses is not False:
            found.append((_join(path, "random_state"), bool(uses)))
    seeds = _seeds_its_estimator(estimator)
    for name, value in sorted(params.items()):
        if name == "random_state" or (seeds and name in _SEEDED_PARAMS):
            continue  # the ensemble's own random_state covers what it seeds
        found.extend(_nested(value, _join(path, name)))
    return found


def _nested(value, path):
    """The unfixed random states of the estimators inside one parameter."""
    if hasattr(value, "get_params") and not isinstance(value, type):
        return unfixed_random_states(value, path)
    if isinstance(value, list | tuple):
        return [
            found
            for n, item in enumerate(value)
            for found in _nested(item, f"{path}[{n}]")
        ]
    if isinstance(value, dict):
        return [
            found
            for key, item in value.items()
            for found in _nested(item, f"{path}[{key!r}]")
        ]
    return []
