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


#: The contexts in which a test may run when the user names none (see
#: ``by_default`` of :func:`register_test`), by kind: a test of two or of k
#: estimators on one data set runs wherever its design fits (``"design"``);
#: a test across data sets on every pair (``"all_pairs"``) or against a
#: control (``"control"``), and on a table with holes (``"incomplete"``,
#: ``"incomplete_control"``: ``compare_scores(missing="skillings_mack")``).
DEFAULT_CONTEXTS = {
    "pair": ("design",),
    "many": ("design",),
    "datasets": ("all_pairs", "control", "incomplete", "incomplete_control"),
}

#: What a test across data sets is (``role`` of :func:`register_test`).
ROLES = ("omnibus", "posthoc", "pairwise", "ranking")

#: The roles of the tests of all k estimators at once (``tests=``); the
#: others compare one pair at a time (``pairwise_tests=``).
ALL_AT_ONCE_ROLES = ("omnibus", "posthoc", "ranking")

DIAGRAMS = ("bar", "groups")

#: How the result of a two-estimator test on (B, A) follows from that on
#: (A, B) (``swap`` of :func:`register_test`).
SWAPS = ("negate", "same", "recompute")

#: How a report writes an omnibus statistic (``statistic_label``).
STATISTIC_LABELS = ("chi2", "F")

#: What a post hoc family compares (``compares``).
COMPARES = ("ranks", "scores")

#: How a report draws the posterior of a Bayesian test: of one pair
#: (``"simplex"``, ``"density"``) or of a ranking of all k (``"ranking"``).
POSTERIORS = ("simplex", "density", "ranking")


@dataclass(frozen=True)
class RegisteredTest:
    """What the registry knows of a test (see :func:`register_test`).

    Every declaration is read from here, and from nowhere else, by the
    engine (what runs), the command line (what it lists and takes), the
    verdicts (what is recommended), the summaries and reports (what a test
    is called, why it runs, how it is worded) and the Displays.
    """

    name: str
    func: object
    needs: tuple
    design: str | None = None
    kind: str = "pair"
    alternatives: tuple = ALTERNATIVES
    recommended_for: dict = field(default_factory=dict)
    rationale: str | None = None
    param_check: object = None
    role: str | None = None
    omnibus: str | None = None
    diagram: str | None = None
    by_default: dict = field(default_factory=dict)
    display_name: str | None = None
    not_recommended: str | None = None
    swap: str | None = None
    bayesian: bool = False
    statistic_label: str | None = None
    compares: str | None = None
    content: object = None
    references: tuple = ()
    posterior: str | None = None
    batched: bool = False
    incomplete: bool = False

    @property
    def title(self):
        """The test's name in a sentence: its ``display_name``, else
        ``"<name> test"``."""
        return self.display_name or f"{self.name} test"

    @property
    def citation(self):
        """The short citations of ``references`` (``"Friedman 1937; Demšar
        2006"``), or ``""`` when the test declares none."""
        return "; ".join(short for short, _ in self.references)

    @property
    def all_at_once(self):
        """Whether a test across data sets compares all k estimators at once
        (``tests=``) rather than one pair at a time (``pairwise_tests=``)."""
        return self.role in ALL_AT_ONCE_ROLES

    @property
    def recommended(self):
        """Whether the library recommends the test where its design fits."""
        return self.not_recommended is None

    def default_rank(self, context):
        """The test's rank among those run by default in ``context`` (lower
        runs first), or None when it does not run there unless named."""
        return self.by_default.get(context)

    def check_params(self, params, table_shape=None):
        """Run the test's own checks of ``params`` (a ValueError naming the
        parameter), so that a bad value fails before any fit.

        ``alpha`` and ``alternative`` are checked here; the others by the
        test's ``param_check``, called with every parameter of its own, the
        user's values over the function's defaults. ``table_shape``
        ``(n_datasets, k)``, when the comparison knows it, goes to a
        ``param_check`` that takes it (a bound on the work of the whole
        table, refused before any fit).
        """
        if "alpha" in params:
            check_alpha(params["alpha"])
        if "alternative" in params:
            check_alternative(
                params["alternative"], test=self.name, allowed=self.alternatives
            )
        if self.param_check is not None:
            own = _own_defaults(self.func, (*self.needs, "alpha", "alternative"))
            checked = {**own, **_without(params, ("alpha", "alternative"))}
            accepted = keyword_names(self.param_check)
            if table_shape is not None and (
                accepted is None or "table_shape" in accepted
            ):
                checked["table_shape"] = tuple(table_shape)
            self.param_check(**checked)

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
    by_default=None,
    display_name=None,
    not_recommended=None,
    swap=None,
    bayesian=False,
    statistic_label=None,
    compares=None,
    content=None,
    references=None,
    posterior=None,
    batched=False,
    incomplete=False,
    overwrite=False,
):
    """Register a statistical test under ``name`` (decorator).

    Everything the package knows of a test is declared here, once: what it
    needs and serves, when it runs by default, whether it is recommended,
    how a report names it and says why it runs, and how its result on a
    pair (B, A) follows from that on (A, B).

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
        The one line saying why the test is run: the report's "Tests and
        why" gives it, and the verdict of a recommended two-estimator test
        (e.g. ``"recommended for one hold-out split"``).
    param_check : callable, default=None
        The test's own check of its parameters, raising a ``ValueError``
        that names the parameter. It is called with every keyword parameter
        of the test but its needs, ``alpha`` and ``alternative`` (the user's
        values from ``tests={name: {...}}`` over the function's defaults),
        before any fit, so a bad value fails at once rather than after every
        fit. ``alpha`` and ``alternative`` are always checked.
    role : {"omnibus", "posthoc", "pairwise", "ranking"}, default=None
        What a test across data sets (``kind="datasets"``) is: an omnibus
        test of all k estimators; a post hoc family (every pair, or every
        estimator against ``control``, as (k, k) tables with ``reject``); a
        test of one pair at a time (``pairwise_tests=``); or a ranking, a
        model of all k estimators that decides nothing (e.g. each one's
        probability of being the best), reported by its ``content``. The
        first, second and fourth run in ``tests=``. None: ``"omnibus"`` for
        a test that needs ``"scores"``, ``"pairwise"`` otherwise. Tests of
        the other kinds have no role.
    omnibus : str, default=None
        For a post hoc family, the omnibus test whose statistic it follows
        up (e.g. ``"friedman"``).
    diagram : {"bar", "groups"}, default=None
        How :class:`~sklearn_bcv.CriticalDifferenceDisplay` draws a post hoc
        family: ``"bar"``, a critical difference of mean ranks (Nemenyi,
        Bonferroni–Dunn); ``"groups"``, the maximal sets of estimators no
        two of which it finds different; None, not drawn.
    defaults : dict of str to int, default=None
        The earlier spelling of ``by_default`` given as a dict; give one of
        the two.
    by_default : bool or dict of str to int, default=None
        Whether the test runs when the user names none. True: wherever it
        fits; False: only when asked for by name (e.g. ``aso``, meant for
        score samples of random seeds rather than cross-validation splits);
        a dict: the contexts in which it runs, each with a rank (lower runs
        first) — for a test across data sets ``"all_pairs"`` (no control)
        and ``"control"`` (with one); for the other kinds ``"design"``. A
        pairwise test runs by default only when its needs are available.
        None: True for a test of two or of k estimators on one data set,
        False for a test across data sets.
    display_name : str, default=None
        The test's name in a report's sentences (e.g. ``"Wilcoxon
        signed-rank test"``); None: ``"<name> test"``.
    not_recommended : str, default=None
        Why the library does not recommend the test: summaries show it only
        on request (``summary(show="all")``, ``--all-tests``), with this
        reason beside it. None: recommended where its design fits.
    swap : {"negate", "same", "recompute"}, default=None
        For a test of two estimators (``kind="pair"``, or a test across
        data sets of role ``"pairwise"``): how its statistic on (B, A)
        follows from that on (A, B) — the negated statistic (t and z
        statistics, mean differences), the same one (symmetric statistics:
        McNemar's, F), or neither, so the test is run again with A and B
        swapped. The (k, k) tables of the pairwise tests read it; a test
        checks every registered declaration against running both ways.
        None: ``"recompute"`` (always right, twice the work).
    bayesian : bool, default=False
        Whether the test returns posterior probabilities (``p_a_better``,
        ``p_rope``, ``p_b_better``) and decides when one exceeds
        ``1 - alpha``, instead of a p-value: summaries, reports and plots
        show it as posteriors under that rule, never "at alpha".
    statistic_label : {"chi2", "F"}, default=None
        How a report writes an omnibus statistic with its degrees of
        freedom: ``"chi2(3) = 7.8"``, ``"F(3, 27) = 4.2"``; None:
        ``"statistic 7.8, df 3"``.
    compares : {"ranks", "scores"}, default=None
        What a post hoc family compares, in the summary ("on mean ranks");
        None: ``"ranks"``.
    content : callable, default=None
        For a test across estimators (``kind="many"`` or ``"datasets"``):
        what its result contributes to the printed summary, the report and
        the CSV table, in place of its role's usual wording. Called as
        ``content(name, result, context)`` with the test's result (a
        Bunch; for a pairwise test its (k, k) table, with ``results`` by
        pair) and a Bunch ``context`` (``names``, ``alpha``,
        ``alternative``, ``control``, ``greater_is_better``,
        ``n_datasets``), it returns a dict with any of ``"summary"`` (lines
        of the printed summary), ``"sentences"`` (the report's verdicts),
        ``"tables"`` (dicts with ``header``, ``rows`` of text cells,
        ``caption`` and optionally ``notes``) and ``"csv_rows"`` (dicts, one
        per row of ``--format csv``; keys that are not columns yet become
        columns). See the user guide, "Adding a test".
    references : dict of str to str, default=None
        The works behind the test, each as its short citation (the
        author-year form a report writes beside the test, e.g.
        ``"Demšar 2006"``) -> its full entry in the report's bibliography
        (``"J. Demšar. Statistical comparisons of classifiers over multiple
        data sets. Journal of Machine Learning Research, 7:1-30, 2006."``).
        A sequence of ``(citation, entry)`` pairs is taken too. Reports cite
        them in their methods and list them under "References".
    posterior : {"simplex", "density", "ranking"}, default=None
        For a Bayesian test: how a report draws its posterior.
        ``"simplex"``: samples of ``(θ_A, θ_rope, θ_B)`` of one pair in the
        result's ``samples``, drawn by
        :class:`~sklearn_bcv.PosteriorSimplexDisplay`; ``"density"``: the
        posterior density of one pair's difference, drawn by
        :class:`~sklearn_bcv.PosteriorDisplay` (the built-in
        ``bayesian_correlated_t`` and ``bayesian_bcv_mcnemar``);
        ``"ranking"``: a ranking of all k estimators (``prob_best``,
        ``weights``, ``weights_interval``), drawn by
        :class:`~sklearn_bcv.RankProbabilityDisplay` (``plackett_luce``);
        None: not drawn.
    batched : bool, default=False
        For a test of one pair at a time (of two estimators on one data
        set, or across data sets): whether it takes its needs with a leading
        axis of comparisons (``differences``, ``scores_a`` and ``scores_b``
        of shape (n_comparisons, n_splits); ``dataset_differences`` of shape
        (n_comparisons, n_datasets), ``split_differences`` of shape
        (n_comparisons, n_datasets, n_splits)) and returns a result whose
        fields are arrays over it (or tuples of such arrays, an interval's
        bounds), the same numbers as one call per comparison. The pairs of
        a comparison are then tested in one call.
    incomplete : bool, default=False
        For a test of all k estimators at once across data sets: whether it
        takes a table with holes (NaN where an estimator has no score on a
        data set, e.g. the Skillings–Mack test), which
        ``compare_scores(missing="skillings_mack")`` keeps. The other tests
        run on complete tables only. Its ``by_default`` contexts
        ``"incomplete"`` (all pairs) and ``"incomplete_control"`` say whether
        it runs there when the user names none.
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
    >>> @register_test("sign_test", needs="differences", design="any",
    ...                display_name="sign test of the splits",
    ...                rationale="counts the splits each estimator wins")
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
    >>> "sign_test (for reference, not the basis of the verdict): counts" in (
    ...     result.report())
    True

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
    for argument, value in (
        ("rationale", rationale),
        ("display_name", display_name),
        ("not_recommended", not_recommended),
    ):
        _check_text(argument, value)
    role, omnibus, diagram = _check_declarations(kind, needs, role, omnibus, diagram)
    declared = dict(
        by_default=_check_by_default(kind, by_default, defaults),
        swap=_check_swap(kind, role, swap),
        bayesian=_check_bool("bayesian", bayesian),
        statistic_label=_check_choice(
            "statistic_label", statistic_label, STATISTIC_LABELS
        ),
        compares=_check_choice("compares", compares, COMPARES),
        content=_check_content(kind, content),
        references=_check_references(references),
        posterior=_check_choice("posterior", posterior, POSTERIORS),
        batched=_check_bool("batched", batched),
        incomplete=_check_bool("incomplete", incomplete),
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
            name=name,
            func=func,
            needs=needs,
            design=design,
            kind=kind,
            alternatives=alternatives,
            recommended_for=recommended_for,
            rationale=rationale,
            param_check=param_check,
            role=role,
            omnibus=omnibus,
            diagram=diagram,
            display_name=display_name,
            not_recommended=not_recommended,
            **declared,
        )
        return func

    return decorator


def _check_text(argument, value):
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{argument} must be a string or None; got {value!r}.")
    if argument != "rationale" and value is not None and not value.strip():
        raise ValueError(f"{argument} must be a non-empty string or None; got ''.")


def _check_bool(argument, value):
    if not isinstance(value, bool):
        raise ValueError(f"{argument} must be True or False; got {value!r}.")
    return value


def _check_choice(argument, value, choices):
    if value is not None and value not in choices:
        raise ValueError(
            f"{argument} must be None or one of {list(choices)}; got {value!r}."
        )
    return value


def _check_declarations(kind, needs, role, omnibus, diagram):
    """The role (resolved) and the post hoc declarations of a test, checked."""
    if kind != "datasets":
        if role is not None:
            raise ValueError(
                f"role declares what a test across data sets is; a test of kind "
                f"{kind!r} has none (got role={role!r})."
            )
    elif role is None:
        role = "omnibus" if "scores" in needs else "pairwise"
    elif role not in ROLES:
        raise ValueError(f"role must be None or one of {list(ROLES)}; got {role!r}.")
    if omnibus is not None and not isinstance(omnibus, str):
        raise ValueError(f"omnibus must be None or a test name; got {omnibus!r}.")
    diagram = _check_choice("diagram", diagram, DIAGRAMS)
    return role, omnibus, diagram


def _check_by_default(kind, by_default, defaults):
    """``{context: rank}`` of the one "runs by default" declaration."""
    contexts = DEFAULT_CONTEXTS[kind]
    argument = "by_default"
    if defaults is not None:
        argument = "defaults"
        if by_default not in (None, True):
            raise ValueError(
                "defaults is the earlier spelling of by_default; give one of them "
                f"(got by_default={by_default!r} and defaults={defaults!r})."
            )
        by_default = defaults
    if by_default is None:
        by_default = kind != "datasets"
    if isinstance(by_default, bool):  # tables with holes: by name only
        complete = [c for c in contexts if not c.startswith("incomplete")]
        return dict.fromkeys(complete, 0) if by_default else {}
    if not isinstance(by_default, dict) or not all(
        context in contexts and isinstance(rank, int) and not isinstance(rank, bool)
        for context, rank in by_default.items()
    ):
        expected = "True, False or a dict" if argument == "by_default" else "a dict"
        raise ValueError(
            f"{argument} must be {expected} {{context: rank}} with contexts among "
            f"{list(contexts)} (a test of kind {kind!r}) and integer ranks; got "
            f"{by_default!r}."
        )
    return dict(by_default)


def _check_swap(kind, role, swap):
    """The swap rule of a test of two estimators ("recompute" by default);
    None for the others."""
    of_a_pair = kind == "pair" or role == "pairwise"
    if swap is None:
        return "recompute" if of_a_pair else None
    if not of_a_pair:
        raise ValueError(
            "swap declares how a test of two estimators treats the pair (B, A); "
            f"this test compares more (kind {kind!r}, role {role!r}): leave it None."
        )
    return _check_choice("swap", swap, SWAPS)


def _check_references(references):
    """``references`` as a tuple of ``(citation, entry)`` pairs of
    non-empty strings."""
    if references is None:
        return ()
    pairs = references.items() if isinstance(references, dict) else references
    try:
        pairs = tuple(tuple(pair) for pair in pairs)
    except TypeError:
        pairs = None
    if (
        isinstance(references, str)
        or pairs is None
        or not all(
            len(pair) == 2
            and all(isinstance(text, str) and text.strip() for text in pair)
            for pair in pairs
        )
    ):
        raise ValueError(
            "references must be a dict {citation: entry} (or a sequence of "
            "(citation, entry) pairs) of non-empty strings, e.g. {'Demšar 2006': "
            "'J. Demšar. Statistical comparisons of classifiers over multiple "
            f"data sets. JMLR 7:1-30, 2006.'}}; got {references!r}."
        )
    return pairs


def _check_content(kind, content):
    if content is None:
        return None
    if kind == "pair":
        raise ValueError(
            "content words the result of a test across estimators (kind 'many' "
            "or 'datasets'); a two-estimator test is reported by its "
            "ComparisonResult."
        )
    if not callable(content):
        raise ValueError(f"content must be a callable or None; got {content!r}.")
    return content


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
    ``by_default`` of :func:`register_test`), by rank then name; with
    ``available`` (a set of needs), only those whose needs it holds."""
    chosen = [
        (entry.default_rank(context), name)
        for name, entry in _REGISTRY.items()
        if entry.kind == kind
        and entry.role == role
        and entry.default_rank(context) is not None
        and (available is None or set(entry.needs) <= set(available))
    ]
    return [name for _, name in sorted(chosen)]


def declaration(name):
    """The declarations of ``name`` for reading a result: its registry entry,
    or, for a test no longer registered (a result outlives an
    :func:`unregister_test`), the defaults of an undeclared test."""
    entry = _REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        return RegisteredTest(name=str(name), func=None, needs=())
    return entry


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
