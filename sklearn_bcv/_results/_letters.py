"""The decisions of a post hoc family as groups and letters.

A post hoc family decides, for each pair it tests, whether the two
estimators differ. Its groups are the maximal sets of estimators no two of
which it finds different (the maximal cliques of the graph of "not found
different"); the compact letter display gives each group a letter, so two
estimators share a letter exactly when the family does not separate them.
"""

from collections.abc import Mapping
from numbers import Real

import numpy as np

from ..stats._corrections import check_correction
from ..stats._registry import declared_tests, get_entry, get_test, keyword_names

__all__ = ["compact_letters", "family_decisions", "maximal_groups"]


def _posthoc_names():
    return declared_tests(role="posthoc")


def check_posthoc_test(test, *, owner):
    """``test`` must name a registered post hoc family."""
    names = _posthoc_names()
    if not isinstance(test, str) or test not in names:
        raise ValueError(f"{owner}: test must be one of {names}; got {test!r}.")
    return test


def family_decisions(result, test, alpha=None):
    """``(reject, control, ran)`` of the post hoc family ``test`` on a result
    across data sets: a (k, k) bool array in ``result.names`` order, the
    control's index (None: all pairs), and the family's result Bunch.

    The family is the one the comparison ran (``result.tests[test]``) when
    ``alpha`` is None or equal to its level; otherwise it is run again on
    ``result.scores`` at ``alpha``, with the parameters it ran with (its
    ``control``, ``correction``) or, when it did not run, the comparison's
    control and the family's defaults. One statistics path: the registered
    test itself.
    """
    if not isinstance(result, Mapping) or not {"names", "scores"} <= set(result):
        raise ValueError(
            "The result must come from benchmark or compare_scores (it needs "
            "names and scores)."
        )
    if alpha is not None and not (
        isinstance(alpha, Real) and not isinstance(alpha, bool) and 0 < alpha < 1
    ):
        raise ValueError(f"alpha must be None or a number in (0, 1); got {alpha!r}.")
    ran = (result.get("tests", None) or {}).get(test, None)
    if ran is not None and (alpha is None or float(alpha) == float(ran.alpha)):
        return np.asarray(ran.reject, dtype=bool), ran.get("control"), ran
    names = list(result["names"])
    params = {}
    if ran is not None:
        if ran.get("control") is not None:
            params["control"] = int(ran.control)
        if ran.get("correction") is not None and "correction" in _keywords(test):
            params["correction"] = check_correction(ran.correction)
        if "continuity" in ran and "continuity" in _keywords(test):
            params["continuity"] = bool(ran.continuity)
    elif result.get("control") is not None and "control" in _keywords(test):
        params["control"] = names.index(result["control"])
    level = result.get("alpha", 0.05) if alpha is None else float(alpha)
    sign = 1.0 if result.get("greater_is_better", True) else -1.0
    scores = sign * np.asarray(result["scores"])
    fresh = get_test(test)(scores=scores, alpha=level, **params)
    return np.asarray(fresh.reject, dtype=bool), fresh.get("control"), fresh


def _keywords(test):
    return keyword_names(get_entry(test).func) or frozenset()


def maximal_groups(reject, order=None, *, min_size=1):
    """The maximal sets of estimators no two of which are rejected.

    Parameters
    ----------
    reject : array-like of shape (k, k) of bool
        Whether the family finds each pair different (read symmetrically).
    order : array-like of shape (k,), default=None
        Estimators best first; the groups list their members in this order
        and are sorted by their best member. None: index order.
    min_size : int, default=1
        Leave out smaller groups.

    Returns
    -------
    groups : list of tuple of int

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bcv._results._letters import maximal_groups
    >>> reject = np.zeros((4, 4), dtype=bool)
    >>> reject[0, 3] = reject[3, 0] = True  # only 0 and 3 differ
    >>> maximal_groups(reject)
    [(0, 1, 2), (1, 2, 3)]
    """
    reject = np.asarray(reject, dtype=bool)
    k = len(reject)
    order = np.arange(k) if order is None else np.asarray(order)
    position = np.empty(k, dtype=int)
    position[order] = np.arange(k)
    same = ~(reject | reject.T)
    neighbours = [set(np.flatnonzero(same[i])) - {i} for i in range(k)]
    cliques = []

    def expand(clique, candidates, excluded):  # Bron–Kerbosch with a pivot
        if not candidates and not excluded:
            cliques.append(clique)
            return
        pivot = max(candidates | excluded, key=lambda v: len(neighbours[v]))
        for v in sorted(candidates - neighbours[pivot]):
            expand(clique | {v}, candidates & neighbours[v], excluded & neighbours[v])
            candidates = candidates - {v}
            excluded = excluded | {v}

    expand(frozenset(), set(range(k)), set())
    groups = [
        tuple(sorted((int(i) for i in clique), key=lambda i: position[i]))
        for clique in cliques
        if len(clique) >= min_size
    ]
    return sorted(groups, key=lambda g: [position[i] for i in g])


def _letter(i):
    """a, b, ..., z, aa, ab, ...: the i-th letter name."""
    name = ""
    i += 1
    while i:
        i, rest = divmod(i - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


def compact_letters(result, test="nemenyi", *, alpha=None):
    """The compact letter display of a post hoc family across data sets.

    Each maximal group of estimators no two of which the family finds
    different gets a letter (``"a"`` for the group holding the best mean
    rank, then in order of the groups' best members); an estimator gets the
    letters of its groups. Two estimators share a letter exactly when the
    family does not find them different.

    Parameters
    ----------
    result : Bunch
        Returned by :func:`~sklearn_bcv.benchmark` or
        :func:`~sklearn_bcv.compare_scores`.
    test : str, default="nemenyi"
        A post hoc family over all pairs: ``"nemenyi"``,
        ``"exact_posthoc"``, ``"friedman_posthoc"``, ``"aligned_posthoc"``,
        ``"quade_posthoc"``, ``"holm"``, ``"bonferroni_dunn"`` (each run
        without a control). The
        family that ran in ``result`` is read; one that did not run is run
        on ``result.scores``.
    alpha : float, default=None
        Family-wise significance level; None is the level the comparison
        ran at.

    Returns
    -------
    letters : dict of str to str
        Estimator name -> its letters, in ``result.names`` order.

    Examples
    --------
    Demšar's Table 6 at alpha = 0.10 with Nemenyi's test: C4.5+m+cf
    differs from C4.5, and nothing else differs.

    >>> from sklearn_bcv import compact_letters, compare_scores
    >>> auc = [
    ...     [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...     [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...     [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    ...     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    ...     [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    ...     [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    ...     [0.972, 0.981, 0.9751, 0.975], [0.957, 0.978, 0.946, 0.970]]
    >>> names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    >>> result = compare_scores(auc, names=names, alpha=0.10, pairwise_tests=[])
    >>> compact_letters(result)
    {'C4.5': 'b', 'C4.5+m': 'ab', 'C4.5+cf': 'ab', 'C4.5+m+cf': 'a'}
    """
    test = check_posthoc_test(test, owner="compact_letters")
    reject, control, _ = family_decisions(result, test, alpha)
    if control is not None:
        raise ValueError(
            f"compact_letters needs a family of all pairs; {test} was run against "
            "a control. Run it without control (or use "
            "CriticalDifferenceDisplay.from_result, which draws a control "
            "family)."
        )
    names = [str(name) for name in result["names"]]
    mean_ranks = np.asarray(result.get("mean_ranks", np.arange(len(names))))
    order = np.argsort(mean_ranks, kind="stable")
    letters = {name: "" for name in names}
    for index, group in enumerate(maximal_groups(reject, order)):
        for member in group:
            letters[names[member]] += _letter(index)
    return letters
