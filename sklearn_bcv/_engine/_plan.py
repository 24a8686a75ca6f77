"""Which tests run on a comparison, and which one it recommends.

Everything here reads the registry's declarations (kind, design, needs,
alternatives, recommended designs); nothing matches error messages or names
particular tests. A test asked for by name that cannot run is refused with
a ``ValueError`` before any fit; with ``tests=None`` the tests that fit the
design and task run, and those that cannot honour a one-sided alternative
are reported as skipped.
"""

from typing import NamedTuple

from sklearn.utils import Bunch

from .._constants import CLASSIFICATION
from ..stats._registry import available_tests, get_entry, keyword_names

__all__ = [
    "PlannedTest",
    "call_test",
    "check_tests_argument",
    "plan_across",
    "plan_many",
    "plan_tests",
    "recommend",
    "run_tests",
    "unavailable_reason",
]

#: Needs that exist for classification only (right/wrong per record).
_CLASSIFICATION_NEEDS = {
    "tables": "contingency tables of right/wrong predictions",
    "correct": "which records each estimator gets right",
}

#: What a need is, in the message about a comparison that lacks it (the
#: needs computed from the predictions, which per-split scores do not give).
_NEED_TEXTS = {
    **_CLASSIFICATION_NEEDS,
    "loss_differences": "per-record losses",
}


class PlannedTest(NamedTuple):
    """A test that will run: its name, needs and parameters."""

    name: str
    needs: tuple
    params: dict


def check_tests_argument(tests, *, argument="tests"):
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
                    f"{argument}[{name!r}] must be a dict of parameters for the "
                    f"test; got {type(params).__name__}."
                )
            plan[name] = params
        return plan
    try:
        names = list(tests)
    except TypeError:
        names = []
    if not names or not all(isinstance(name, str) for name in names):
        raise ValueError(
            f"{argument} must be None, a test name, a non-empty list of names or a "
            f"dict {{name: {{param: value}}}}; got {tests!r}."
        )
    return {name: {} for name in names}


def _missing_need(entry, task):
    """The first need of ``entry`` that ``task`` cannot provide, or None
    (a task of None, not known, provides them all)."""
    if task in (CLASSIFICATION, None):
        return None
    return next((need for need in entry.needs if need in _CLASSIFICATION_NEEDS), None)


def _unavailable_need(entry, available):
    """The first need of ``entry`` the comparison does not hold (``available``
    a set of needs; None holds them all), or None."""
    if available is None:
        return None
    return next((need for need in entry.needs if need not in available), None)


def unavailable_reason(name, need):
    """Why the test ``name`` cannot run on per-split scores alone."""
    return (
        f"{name} needs {_NEED_TEXTS.get(need, need)}, which come from the "
        "predictions; only per-split scores were given"
    )


def _check_params(entry, params, argument, table_shape=None):
    """Refuse parameters the test's function does not take, and values its
    own checks refuse (before any fit; ``table_shape`` for the checks of
    the work of a whole table)."""
    accepted = keyword_names(entry.func)
    if accepted is not None:  # else **kwargs, or no signature to check against
        own = sorted(accepted - set(entry.needs))
        unknown = [name for name in params if name not in own]
        if unknown:
            raise ValueError(
                f"{argument}[{entry.name!r}] has unknown parameter(s) {unknown}; "
                f"{entry.name} takes {own}."
            )
    try:
        entry.check_params(params, table_shape=table_shape)
    except ValueError as exc:
        raise ValueError(f"{argument}[{entry.name!r}]: {exc}") from None


def _check_explicit(
    name, params, design, task, alternative, kind, argument, available=None
):
    """Refuse a test asked for by name that cannot run; warn if approximate."""
    entry = get_entry(name)
    if entry.kind != kind:
        raise ValueError(
            f"{name} is a test of kind {entry.kind!r}; {argument} takes tests of "
            f"kind {kind!r}: {available_tests(kind=kind)}."
        )
    unavailable = _unavailable_need(entry, available)
    if unavailable is not None:
        runnable = [
            other
            for other in design.applicable_tests(kind=kind)
            if _unavailable_need(get_entry(other), available) is None
        ]
        raise ValueError(
            f"{argument}: {unavailable_reason(name, unavailable)}. Tests of the "
            f"scores that fit this design: {runnable}; for the tests of "
            "predictions, fit the estimators (compare_many_estimators, or "
            "compare_search(..., refit_candidates=True))."
        )
    design.check_test(name)
    need = _missing_need(entry, task)
    if need is not None:
        raise ValueError(
            f"{name} needs {_CLASSIFICATION_NEEDS[need]}, which exist for "
            f"classification only; this comparison is a {task}. Use a test of "
            "score differences (e.g. corrected_t)."
        )
    if not entry.honours(alternative):
        raise ValueError(
            f"{name} supports alternative in {list(entry.alternatives)} only; got "
            f"{alternative!r}."
        )
    _check_params(entry, params, argument)
    return PlannedTest(name, entry.needs, params)


def plan_tests(
    tests,
    design,
    task,
    *,
    alternative="two-sided",
    kind="pair",
    argument="tests",
    available=None,
):
    """Return ``(plan, skipped)``: the tests that will run, and those left out.

    ``tests=None`` selects every registered test of ``kind`` declared to
    run by default (``by_default``, context ``"design"``; by its rank, then
    name) whose design fits and whose needs exist for the task, except the
    tests derived for block-regularized splits when the m×2 design is not
    block-regularized (asked for by name they run with a warning). Those
    that cannot honour a one-sided ``alternative``, and those whose needs
    the comparison does not hold (``available``, a set of needs; None: all
    of them, as a store of predictions holds), go to ``skipped`` (name ->
    reason); asked for by name, they are refused.
    """
    requested = check_tests_argument(tests, argument=argument)
    if requested is not None:
        plan = [
            _check_explicit(
                name, params, design, task, alternative, kind, argument, available
            )
            for name, params in requested.items()
        ]
        return plan, {}
    plan, skipped = [], {}
    entries = [
        get_entry(name)
        for name in design.applicable_tests(include_warned=False, kind=kind)
    ]
    for entry in sorted(
        (entry for entry in entries if entry.default_rank("design") is not None),
        key=lambda entry: entry.default_rank("design"),
    ):
        name = entry.name
        if _missing_need(entry, task) is not None:
            continue
        unavailable = _unavailable_need(entry, available)
        if unavailable is not None:
            skipped[name] = unavailable_reason(name, unavailable)
            continue
        if not entry.honours(alternative):
            skipped[name] = (
                f"{name} supports alternative in {list(entry.alternatives)} only"
            )
            continue
        plan.append(PlannedTest(name, entry.needs, {}))
    if not plan and kind == "pair":
        raise ValueError(
            f"No registered test applies to a {task} comparison on "
            f"{design.describe()}; score-difference tests need at least two "
            "splits (use cv=None, a 5×2 BCV, or k-fold CV)."
        )
    return plan, skipped


def call_test(test, needs, alpha, alternative):
    """Call a planned test with its needs; its own parameters win."""
    kwargs = {need: needs[need] for need in test.needs}
    kwargs.update(alpha=alpha, alternative=alternative)
    kwargs.update(test.params)
    return get_entry(test.name).func(**kwargs)


def run_tests(plan, needs, alpha, alternative):
    """Run the planned tests; a Bunch name -> result, in plan order."""
    return Bunch(
        **{test.name: call_test(test, needs, alpha, alternative) for test in plan}
    )


def recommend(design, task, scoring, alternative="two-sided", available=None):
    """The two-estimator test recommended for the design: ``(name, why)``.

    Among the registered tests recommended for ``design.kind`` whose design
    fits and whose needs exist for ``task`` (and are ``available``, a set
    of needs; None: all), the one of lowest rank that honours
    ``alternative``. A test of contingency tables speaks of accuracy, so it
    is recommended only when ``scoring`` is accuracy. ``(None, None)`` when
    no test is recommended (e.g. a regression on one hold-out split).
    """
    candidates = []
    for name in available_tests(kind="pair"):
        entry = get_entry(name)
        rank = entry.recommended_for.get(design.kind)
        if rank is None or not design.supports(entry.design):
            continue
        if _missing_need(entry, task) is not None:
            continue
        if _unavailable_need(entry, available) is not None:
            continue
        if "tables" in entry.needs and scoring != "accuracy":
            continue
        candidates.append((rank, name, entry))
    refused = []
    for _, name, entry in sorted(candidates):
        if not entry.honours(alternative):
            refused.append(name)
            continue
        if refused:
            return name, (
                f"recommended for a one-sided alternative on {design.describe()}, "
                f"which {' and '.join(refused)} cannot honour"
            )
        return name, entry.rationale or f"recommended for {design.describe()}"
    return None, None


def plan_many(
    tests,
    pairwise_tests,
    design,
    task,
    scoring,
    alternative,
    *,
    argument="pairwise_tests",
    available=None,
):
    """``(omnibus plan, omnibus skipped, pairwise plan)`` of k estimators on
    one data set, checked before any fit; ``argument`` names
    ``pairwise_tests`` in the messages (``benchmark``'s is
    ``dataset_tests``). With ``available`` (the needs the comparison holds;
    None: all), the tests that need more are left out; the skipped tests
    then include the pairwise test recommended with every need, when
    another is recommended in its place."""
    # An omnibus test asks whether any of the k estimators differ: it is
    # two-sided whatever the alternative of the pairwise tests.
    omnibus, skipped = plan_tests(
        tests, design, task, alternative="two-sided", kind="many", available=available
    )
    if pairwise_tests is None:
        recommended, _ = recommend(
            design, task, scoring.label, alternative, available=available
        )
        pairwise_tests = [] if recommended is None else [recommended]
        skipped.update(
            _replaced(recommended, design, task, scoring, alternative, available)
        )
    if isinstance(pairwise_tests, list | tuple) and not pairwise_tests:
        return omnibus, skipped, []
    pairwise, _ = plan_tests(
        pairwise_tests,
        design,
        task,
        alternative=alternative,
        kind="pair",
        argument=argument,
        available=available,
    )
    return omnibus, skipped, pairwise


def _replaced(recommended, design, task, scoring, alternative, available):
    """``{name: reason}`` of the pairwise test recommended when every need is
    held, if the comparison cannot run it and ``recommended`` runs instead."""
    full, _ = recommend(design, task, scoring.label, alternative)
    need = None if full is None else _unavailable_need(get_entry(full), available)
    if need is None or full == recommended:
        return {}
    instead = "" if recommended is None else f" ({recommended} runs instead)"
    return {full: unavailable_reason(full, need) + instead}


_NEED_TEXT = {
    "split_differences": "per-split scores (a 3-D score table)",
    "n_train": "n_train",
    "n_test": "n_test",
}


#: Parameters of a test across data sets that describe the table itself:
#: a comparison sets them from its own arguments, and refuses them in the
#: test's options (a ranking's ``greater_is_better`` would reverse what
#: every other test sees; its ``names`` would relabel it).
_TABLE_PARAMETERS = {
    "greater_is_better": "the comparison's greater_is_better (compare_scores"
    "(..., greater_is_better=False), the command line's --lower-is-better)",
    "names": "the comparison's names (names= or the table's columns)",
}


def plan_across(tests, *, pairwise, available, alternative, context, table_shape=None):
    """The plan of tests across data sets, checked before any fit.

    Parameters
    ----------
    tests : None, str, list or dict
        As the user gave ``tests=`` (``pairwise=False``) or
        ``pairwise_tests=`` (``pairwise=True``); None must have been
        replaced by the default names already.
    pairwise : bool
        Whether the tests compare one pair at a time (declared with role
        ``"pairwise"``) rather than all k estimators at once.
    available : set of str
        The needs the score table provides.
    alternative : str
    context : dict
        Parameters the comparison sets for every test whose function takes
        them (``control``, ``rope``, ``random_state``), unless the user set
        them in ``tests={name: {...}}``; ``names`` always (the parameters
        of the table itself, ``names`` and ``greater_is_better``, are
        refused in ``tests``).
    table_shape : tuple, default=None
        ``(n_datasets, k)`` when known before any fit: a test's bound on the
        work of the whole table is checked then.
    """
    argument = "pairwise_tests" if pairwise else "tests"
    requested = check_tests_argument(tests, argument=argument)
    plan = []
    for name, params in requested.items():
        entry = get_entry(name)
        if entry.kind != "datasets":
            raise ValueError(
                f"{name} is a test of kind {entry.kind!r}; {argument} takes tests "
                f"across data sets: {available_tests(kind='datasets')}."
            )
        all_at_once = entry.all_at_once
        if all_at_once == pairwise:
            where = "tests" if all_at_once else "pairwise_tests"
            what = "all the estimators at once" if all_at_once else "one pair at a time"
            raise ValueError(
                f"{name} compares {what}; pass it in {where}, not {argument}."
            )
        missing = [need for need in entry.needs if need not in available]
        if missing:
            raise ValueError(
                f"{name} needs {', '.join(_NEED_TEXT.get(m, m) for m in missing)}, "
                "which the comparison does not have: pass a score table of shape "
                "(n_datasets, n_splits, k) with n_train and n_test (benchmark "
                "knows them)."
            )
        if not entry.honours(alternative):
            raise ValueError(
                f"{name} supports alternative in {list(entry.alternatives)} only; "
                f"got {alternative!r}."
            )
        table_params = sorted(set(params) & set(_TABLE_PARAMETERS))
        if table_params:
            raise ValueError(
                f"{argument}[{name!r}] sets {', '.join(table_params)}, which "
                "describe the table and are the comparison's own: give "
                + "; ".join(_TABLE_PARAMETERS[key] for key in table_params)
                + "."
            )
        _check_params(entry, params, argument, table_shape=table_shape)
        accepted = keyword_names(entry.func) or frozenset()
        shared = {
            key: value
            for key, value in context.items()
            if key in accepted and key not in params
        }
        plan.append(PlannedTest(name, entry.needs, {**shared, **params}))
    return plan
