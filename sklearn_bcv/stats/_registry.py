"""Registry of the statistical tests.

A registered test is a plain function called with keyword arguments named
after what it needs (for two estimators: ``tables``, ``differences``,
``n_train``, ``n_test``, ``loss_differences``; for k estimators:
``correct``, ``scores``, ...) plus ``alpha``, ``alternative`` and its own
parameters. It returns a :class:`~sklearn.utils.Bunch`. Besides the
function, the registry keeps what the test **declares**: the kind of
comparison it serves, the design of splits it is derived for, the
alternatives it honours and the designs it is recommended for. The engine
plans a comparison from these declarations alone.
"""

import inspect
from dataclasses import dataclass, field

from .._constants import ALTERNATIVES, DESIGNS, KINDS, NEEDS
from ._utils import check_alpha, check_alternative

__all__ = [
    "available_tests",
    "get_test",
    "register_test",
    "unregister_test",
    "NEEDS",
    "DESIGNS",
    "KINDS",
]


@dataclass(frozen=True)
class RegisteredTest:
    """What the registry knows of a test (see :func:`register_test`)."""

    name: str
    func: object
    needs: tuple
    design: str
    kind: str = "pair"
    alternatives: tuple = ALTERNATIVES
    recommended_for: dict = field(default_factory=dict)
    rationale: str | None = None
    param_check: object = None
    role: str | None = None
    omnibus: str | None = None
    diagram: str | None = None
    defaults: dict = field(default_factory=dict)
    by_default: bool = True
    batched: bool = False

    def check_params(self, params):
        """Run the test's own checks of ``params`` (a ValueError naming the
        parameter), so that a bad value fails before any fit.

        ``alpha`` and ``alternative`` are checked here; the others by the
        test's ``param_check``, called with every parameter of its own, the
        user's values over the function's defaults.
        """
        if "alpha" in params:
            check_alpha(params["alpha"])
        if "alternative" in params:
            check_alternative(
                params["alternative"], test=self.name, allowed=self.alternatives
            )
        if self.param_check is not None:
            own = _own_defaults(self.func, (*self.needs, "alpha", "alternative"))
            self.param_check(**{**own, **_without(params, ("alpha", "alternative"))})

    def honours(self, alternative):
        """Whether the test can test ``alternative``."""
        return alternative in self.alternatives


_REGISTRY = {}


def register_test(
    name,
    *,
    needs,
    design=None,
    kind="pair",
    alternatives=None,
    recommended_for=None,
    rationale=None,
    param_check=None,
    role=None,
    omnibus=None,
    diagram=None,
    defaults=None,
    by_default=True,
    batched=False,
    overwrite=False,
):
    """Register a statistical test under ``name`` (decorator).

    Parameters
    ----------
    name : str
        The name users pass to :func:`get_test` and to ``tests=`` of
        :func:`~sklearn_bcv.compare_estimators` (or ``tests=`` /
        ``pairwise_tests=`` of :func:`~sklearn_bcv.compare_many_estimators`).
    needs : str or sequence of str
        The inputs the test is called with (see :data:`NEEDS`): for
        ``kind="pair"`` among ``"tables"``, ``"differences"``,
        ``"n_train"``, ``"n_test"`` and ``"loss_differences"``; for
        ``kind="many"`` among ``"correct"``, ``"scores"``, ``"n_train"``
        and ``"n_test"``.
    design : {"holdout", "kfold", "mx2", "bcv", "any"}, default=None
        The design of splits the test is derived for. None means any
        design, one hold-out split included; ``"any"`` means at least two
        splits (a test that needs two splits, e.g. to estimate a variance
        across them, declares it).
    kind : {"pair", "many", "datasets"}, default="pair"
        What the test compares: two estimators on one data set, k
        estimators on one data set (an omnibus test), or estimators across
        data sets.
    alternatives : sequence of str, default=None
        The alternatives the test honours, among ``"two-sided"``,
        ``"greater"`` and ``"less"``; None means all three. The engine
        refuses the others before any fit, and leaves the test out of
        ``tests=None`` when a one-sided alternative is asked for.
    recommended_for : dict of str to int, default=None
        The designs for which the test is the engine's recommendation (the
        test the printed verdict is based on), each with a rank: among the
        tests recommended for a design that can run on the comparison, the
        one of lowest rank is chosen. A test of contingency tables speaks of
        accuracy, so it is recommended only when the scoring is accuracy.
    rationale : str, default=None
        Why the test is recommended, shown in the verdict (e.g.
        ``"recommended for one hold-out split"``).
    param_check : callable, default=None
        The test's own check of its parameters, raising a ``ValueError``
        that names the parameter. It is called with every keyword parameter
        of the test but its needs, ``alpha`` and ``alternative`` (the user's
        values from ``tests={name: {...}}`` over the function's defaults),
        before any fit, so a bad value fails at once rather than after every
        fit. ``alpha`` and ``alternative`` are always checked.
    role : {"omnibus", "posthoc", "pairwise"}, default=None
        What a test across data sets (``kind="datasets"``) is: an omnibus
        test of all k estimators, a post hoc family (every pair, or every
        estimator against ``control``, as (k, k) tables with ``reject``), or
        a test of one pair at a time (``pairwise_tests=``). None: not
        declared (every test of another kind).
    omnibus : str, default=None
        For a post hoc family, the omnibus test whose statistic it follows
        up (e.g. ``"friedman"``).
    diagram : {"bar", "groups"}, default=None
        How :class:`~sklearn_bcv.CriticalDifferenceDisplay` draws a post hoc
        family: ``"bar"``, a critical difference of mean ranks (Nemenyi,
        Bonferroni–Dunn); ``"groups"``, the maximal sets of estimators no
        two of which it finds different; None, not drawn.
    defaults : dict of str to int, default=None
        The contexts in which the test runs when the user names none, each
        with a rank (lower runs first): ``"all_pairs"`` (no control),
        ``"control"`` (with one); a pairwise test runs there only when its
        needs are available.
    by_default : bool, default=True
        Whether ``tests=None`` runs the test wherever its design fits; a test
        registered with False runs only when asked for by name (e.g.
        ``aso``, meant for score samples of random seeds rather than
        cross-validation splits).
    batched : bool, default=False
        For a test across data sets of one pair at a time: whether it takes
        its needs with a leading axis of comparisons (``dataset_differences``
        of shape (n_comparisons, n_datasets), ``split_differences`` of shape
        (n_comparisons, n_datasets, n_splits)) and returns a result whose
        fields are arrays over it, the same numbers as one call per
        comparison. The pairs of a study are then tested in one call.
    overwrite : bool, default=False
        Whether to replace a test already registered under ``name``.

    Returns
    -------
    decorator : callable
        Registers the decorated function and returns it unchanged.

    Notes
    -----
    The function is called with keyword arguments only: one per entry of
    ``needs`` (for two estimators: ``tables`` of shape (n_splits, 2, 2),
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
    kind = _check_kind(kind)
    needs = (needs,) if isinstance(needs, str) else tuple(needs)
    unknown = sorted(set(needs) - set(NEEDS[kind]))
    if not needs or unknown:
        raise ValueError(
            f"needs must name one or more of {list(NEEDS[kind])} (the needs of "
            f"a {kind!r} test); got {list(needs)!r}."
        )
    design = None if design is None else _check_design(design)
    alternatives = _check_alternatives(alternatives)
    recommended_for = _check_recommended_for(recommended_for)
    if rationale is not None and not isinstance(rationale, str):
        raise ValueError(f"rationale must be a string or None; got {rationale!r}.")
    role, omnibus, diagram, defaults = _check_declarations(
        role, omnibus, diagram, defaults
    )
    if name in _REGISTRY and not overwrite:
        raise ValueError(
            f"A test named {name!r} is already registered; pass overwrite=True "
            "to replace it."
        )

    def decorator(func):
        _check_signature(func, name, needs)
        if param_check is not None and not callable(param_check):
            raise ValueError(
                f"param_check must be a callable or None; got {param_check!r}."
            )
        _REGISTRY[name] = RegisteredTest(
            name,
            func,
            needs,
            design,
            kind,
            alternatives,
            recommended_for,
            rationale,
            param_check,
            role,
            omnibus,
            diagram,
            defaults,
            bool(by_default),
            bool(batched),
        )
        return func

    return decorator


ROLES = ("omnibus", "posthoc", "pairwise")
DIAGRAMS = ("bar", "groups")
DEFAULT_CONTEXTS = ("all_pairs", "control")


def _check_declarations(role, omnibus, diagram, defaults):
    """The declarations of a test across data sets, checked."""
    if role is not None and role not in ROLES:
        raise ValueError(f"role must be None or one of {list(ROLES)}; got {role!r}.")
    if omnibus is not None and not isinstance(omnibus, str):
        raise ValueError(f"omnibus must be None or a test name; got {omnibus!r}.")
    if diagram is not None and diagram not in DIAGRAMS:
        raise ValueError(
            f"diagram must be None or one of {list(DIAGRAMS)}; got {diagram!r}."
        )
    if defaults is None:
        defaults = {}
    if not isinstance(defaults, dict) or not all(
        context in DEFAULT_CONTEXTS
        and isinstance(rank, int)
        and not isinstance(rank, bool)
        for context, rank in defaults.items()
    ):
        raise ValueError(
            "defaults must be a dict {context: rank} with contexts among "
            f"{list(DEFAULT_CONTEXTS)} and integer ranks; got {defaults!r}."
        )
    return role, omnibus, diagram, dict(defaults)


def declared_tests(*, role=None, diagram=None, kind="datasets"):
    """Names of the registered tests of ``kind`` with that ``role`` and
    ``diagram`` (None: any), sorted."""
    return sorted(
        name
        for name, entry in _REGISTRY.items()
        if entry.kind == kind
        and (role is None or entry.role == role)
        and (diagram is None or entry.diagram == diagram)
    )


def default_tests(context, *, role, available=None, kind="datasets"):
    """The tests of ``role`` that run by default in ``context`` (see
    ``defaults`` of :func:`register_test`), by rank then name; with
    ``available`` (a set of needs), only those whose needs it holds."""
    chosen = [
        (entry.defaults[context], name)
        for name, entry in _REGISTRY.items()
        if entry.kind == kind
        and entry.role == role
        and context in entry.defaults
        and (available is None or set(entry.needs) <= set(available))
    ]
    return [name for _, name in sorted(chosen)]


def _check_kind(kind):
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {list(KINDS)}; got {kind!r}.")
    return kind


def _check_design(design):
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {list(DESIGNS)}; got {design!r}.")
    return design


def _check_alternatives(alternatives):
    if alternatives is None:
        return ALTERNATIVES
    alternatives = (alternatives,) if isinstance(alternatives, str) else alternatives
    try:
        alternatives = tuple(alternatives)
    except TypeError:
        alternatives = ()
    if not alternatives or not set(alternatives) <= set(ALTERNATIVES):
        raise ValueError(
            f"alternatives must name one or more of {list(ALTERNATIVES)}; got "
            f"{alternatives!r}."
        )
    return tuple(a for a in ALTERNATIVES if a in alternatives)


def _check_recommended_for(recommended_for):
    if recommended_for is None:
        return {}
    if not isinstance(recommended_for, dict) or not all(
        design in DESIGNS and isinstance(rank, int) and not isinstance(rank, bool)
        for design, rank in recommended_for.items()
    ):
        raise ValueError(
            "recommended_for must be a dict {design: rank} with designs among "
            f"{list(DESIGNS)} and integer ranks; got {recommended_for!r}."
        )
    return dict(recommended_for)


def _own_defaults(func, excluded):
    """``{name: default}`` of ``func``'s keyword parameters with a default,
    but those ``excluded``."""
    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {
        p.name: p.default
        for p in parameters
        if p.default is not inspect.Parameter.empty and p.name not in excluded
    }


def _without(params, names):
    return {key: value for key, value in params.items() if key not in names}


def keyword_names(func):
    """Names ``func`` accepts as keywords; None when it takes ``**kwargs``
    or has no signature to read (some builtins)."""
    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    by_keyword = (
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        inspect.Parameter.KEYWORD_ONLY,
    )
    return frozenset(p.name for p in parameters if p.kind in by_keyword)


def _check_signature(func, name, needs):
    """Fail at registration, not deep inside a comparison, on a bad signature."""
    if not callable(func):
        raise ValueError(
            f"register_test({name!r}, ...) decorates a function; got {func!r}."
        )
    accepted = keyword_names(func)
    if accepted is None:
        return
    missing = [arg for arg in (*needs, "alpha", "alternative") if arg not in accepted]
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
    del _REGISTRY[get_entry(name).name]


def get_entry(name):
    """The :class:`RegisteredTest` of ``name`` (ValueError listing the names)."""
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
    return get_entry(name).func


def get_test_info(name):
    """Return ``(needs, design)`` of the registered test ``name`` (design
    None: any design)."""
    entry = get_entry(name)
    return entry.needs, entry.design


def available_tests(design=None, kind="pair"):
    """List the names of the registered tests.

    Parameters
    ----------
    design : str, default=None
        If given, only the tests registered for that design (see
        :data:`DESIGNS`); None lists every design (and the tests registered
        with ``design=None``, which run on any design).
    kind : {"pair", "many", "datasets"} or None, default="pair"
        Only the tests of that kind: ``"pair"`` compares two estimators,
        ``"many"`` k estimators on one data set (omnibus tests),
        ``"datasets"`` estimators across data sets; None lists every kind.

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
    >>> available_tests(kind="many")
    ['bcv_cochran_q', 'cochran_q', 'looney_f']
    """
    if design is not None:
        _check_design(design)
    if kind is not None:
        _check_kind(kind)
    return sorted(
        name
        for name, entry in _REGISTRY.items()
        if (design is None or entry.design == design)
        and (kind is None or entry.kind == kind)
    )
