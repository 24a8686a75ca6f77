"""Registry of the statistical tests that compare two learning algorithms.

A registered test is a plain function called with keyword arguments named
after what it needs (``tables``, ``differences``, ``n_train``, ``n_test``,
``loss_differences``) plus ``alpha``, ``alternative`` and its own
parameters. It returns a :class:`~sklearn.utils.Bunch`.
"""

import inspect
from dataclasses import dataclass

__all__ = [
    "available_tests",
    "get_test",
    "register_test",
    "unregister_test",
    "NEEDS",
    "DESIGNS",
]

#: What a test may ask for; the comparison engine computes each once.
NEEDS = ("tables", "differences", "n_train", "n_test", "loss_differences")

#: The designs a test may be derived for.
#:
#: ``"holdout"``  one train/test split;
#: ``"kfold"``    k >= 2 splits whose test sets partition the records;
#: ``"mx2"``      m repetitions of 2-fold CV (split 2r tests on T_r, 2r+1 on S_r);
#: ``"bcv"``      an m×2 design whose training sets are block-regularized
#:                (the test warns, through the engine, on a plain m×2 design);
#: ``"any"``      any design with at least two splits.
DESIGNS = ("holdout", "kfold", "mx2", "bcv", "any")


@dataclass(frozen=True)
class _RegisteredTest:
    name: str
    func: object
    needs: tuple
    design: str


_REGISTRY = {}


def register_test(name, *, needs, design=None, overwrite=False):
    """Register a statistical test under ``name`` (decorator).

    Parameters
    ----------
    name : str
        The name users pass to :func:`get_test` and to ``tests=`` of
        :func:`~sklearn_bcv.compare_estimators`.
    needs : str or sequence of str
        The inputs the test is called with, among ``"tables"``,
        ``"differences"``, ``"n_train"``, ``"n_test"`` and
        ``"loss_differences"``.
    design : {"holdout", "kfold", "mx2", "bcv", "any"}, default=None
        The design of splits the test is derived for; None means ``"any"``.
    overwrite : bool, default=False
        Whether to replace a test already registered under ``name``.

    Returns
    -------
    decorator : callable
        Registers the decorated function and returns it unchanged.

    Notes
    -----
    The function is called with keyword arguments only: one per entry of
    ``needs`` (see :data:`NEEDS`: ``tables`` of shape (n_splits, 2, 2),
    ``differences`` of shape (n_splits,), ``n_train``, ``n_test``,
    ``loss_differences``), plus ``alpha``, ``alternative`` and whatever
    parameters the user passes through ``tests={name: {...}}``. It returns a
    :class:`~sklearn.utils.Bunch` with at least ``statistic``, ``pvalue``,
    ``df``, ``reject``, ``alternative`` and ``test``. Once registered it is
    listed by :func:`available_tests`, returned by :func:`get_test` and run
    by :func:`~sklearn_bcv.compare_estimators` and
    :func:`~sklearn_bcv.compare_predictions` exactly like the built-in
    tests: by name in ``tests=``, and with ``tests=None`` whenever ``design``
    fits the splits and the task provides its needs.

    Examples
    --------
    A sign test on the per-split differences, registered and then run
    through :func:`~sklearn_bcv.compare_predictions` like a built-in test:

    >>> import numpy as np
    >>> from scipy.stats import binomtest
    >>> from sklearn.model_selection import KFold
    >>> from sklearn.utils import Bunch
    >>> from sklearn_bcv import available_tests, compare_predictions, register_test
    >>> @register_test("sign_test", needs="differences", design="any")
    ... def sign_test(*, differences, alpha=0.05, alternative="two-sided"):
    ...     wins = int(np.sum(np.asarray(differences) > 0))
    ...     n = wins + int(np.sum(np.asarray(differences) < 0))  # ties dropped
    ...     pvalue = binomtest(wins, n, alternative=alternative).pvalue if n else 1.0
    ...     return Bunch(statistic=wins, pvalue=pvalue, df=None,
    ...                  reject=pvalue < alpha, alternative=alternative,
    ...                  test="sign_test")
    >>> y = np.tile([0, 1], 50)
    >>> splits = list(KFold(5).split(y))
    >>> pred_a = [y[test] for _, test in splits]  # always right
    >>> pred_b = [np.zeros_like(y[test]) for _, test in splits]
    >>> result = compare_predictions(y, pred_a, pred_b, splits,
    ...                              tests=["sign_test", "corrected_t"])
    >>> sign = result.tests.sign_test
    >>> sign.statistic, float(round(sign.pvalue, 4)), bool(sign.reject)
    (5, 0.0625, False)

    :func:`unregister_test` removes it again:

    >>> from sklearn_bcv import unregister_test
    >>> unregister_test("sign_test")
    >>> "sign_test" in available_tests()
    False
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string; got {name!r}.")
    needs = (needs,) if isinstance(needs, str) else tuple(needs)
    unknown = sorted(set(needs) - set(NEEDS))
    if not needs or unknown:
        raise ValueError(
            f"needs must name one or more of {list(NEEDS)}; got {list(needs)!r}."
        )
    design = "any" if design is None else design
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {list(DESIGNS)}; got {design!r}.")
    if name in _REGISTRY and not overwrite:
        raise ValueError(
            f"A test named {name!r} is already registered; pass overwrite=True "
            "to replace it."
        )

    def decorator(func):
        _check_signature(func, name, needs)
        _REGISTRY[name] = _RegisteredTest(name, func, needs, design)
        return func

    return decorator


def _check_signature(func, name, needs):
    """Fail at registration, not deep inside a comparison, on a bad signature."""
    if not callable(func):
        raise ValueError(
            f"register_test({name!r}, ...) decorates a function; got {func!r}."
        )
    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):  # some builtins have no signature
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return
    by_keyword = {
        p.name
        for p in parameters
        if p.kind
        in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    }
    missing = [arg for arg in (*needs, "alpha", "alternative") if arg not in by_keyword]
    if missing:
        func_name = getattr(func, "__name__", repr(func))
        raise ValueError(
            f"The test {name!r} is called with the keyword arguments "
            f"{[*needs, 'alpha', 'alternative']}; {func_name}() does not "
            f"accept {missing}."
        )


def unregister_test(name):
    """Remove the test registered under ``name``.

    Meant for third-party tests (e.g. to clean up after an experiment);
    removing a built-in test leaves it out of every comparison until it is
    registered again.

    Parameters
    ----------
    name : str
        A name from :func:`available_tests`.

    Examples
    --------
    >>> from sklearn.utils import Bunch
    >>> from sklearn_bcv import available_tests, register_test
    >>> from sklearn_bcv import unregister_test
    >>> @register_test("always_one", needs="differences")
    ... def always_one(*, differences, alpha=0.05, alternative="two-sided"):
    ...     return Bunch(statistic=0.0, pvalue=1.0, df=None, reject=False,
    ...                  alternative=alternative, test="always_one")
    >>> "always_one" in available_tests()
    True
    >>> unregister_test("always_one")
    >>> "always_one" in available_tests()
    False
    """
    del _REGISTRY[_get_entry(name).name]


def _get_entry(name):
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"{name!r} is not a registered test. Valid names: {sorted(_REGISTRY)}."
        ) from None


def get_test(name):
    """Return the registered test function called ``name``.

    Parameters
    ----------
    name : str
        A name from :func:`available_tests`.

    Returns
    -------
    test : callable
        Called with keyword arguments (what it needs, ``alpha``,
        ``alternative`` and its own parameters); returns a Bunch.

    Examples
    --------
    >>> from sklearn_bcv import get_test
    >>> result = get_test("mcnemar")(tables=[[30, 1], [11, 58]], correction=False)
    >>> round(result.statistic, 3)
    8.333
    """
    return _get_entry(name).func


def get_test_info(name):
    """Return ``(needs, design)`` of the registered test ``name``."""
    entry = _get_entry(name)
    return entry.needs, entry.design


def available_tests(design=None):
    """List the names of the registered tests.

    Parameters
    ----------
    design : str, default=None
        If given, only the tests registered for that design (see
        :data:`DESIGNS`); None lists them all.

    Returns
    -------
    names : list of str
        Sorted test names.

    Examples
    --------
    >>> from sklearn_bcv import available_tests
    >>> "bcv_mcnemar" in available_tests()
    True
    >>> available_tests(design="holdout")
    ['mcnemar', 'proportion_z']
    """
    if design is not None and design not in DESIGNS:
        raise ValueError(f"design must be one of {list(DESIGNS)}; got {design!r}.")
    return sorted(
        name
        for name, entry in _REGISTRY.items()
        if design is None or entry.design == design
    )
