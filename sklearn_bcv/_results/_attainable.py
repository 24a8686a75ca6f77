"""Verdicts that no outcome could change, said where they are printed.

A test with a discrete null law has a smallest p-value it can reach with
the data sets at hand, their ties and the correction in use (its result's
``min_pvalue``, and ``min_pvalue_adjusted`` for a family; a pairwise
table holds both per pair). When even that floor is not below alpha, no
scores whatever could have made the test reject: the verdict was fixed in
advance. This module is the one place that notices it, for every role
(omnibus, post hoc family, pairwise test), and words it with what would
change it (more data sets, a control, fewer pairs, the exact post hoc
test). The summary and the report both print :func:`fixed_note`.
"""

import numpy as np
from sklearn.utils import Bunch

from ..stats._attainable import adjusted_floor, datasets_needed
from ..stats._corrections import PAIRS_ONLY
from ..stats._exact_ranks import smallest_difference_pvalue
from ..stats._registry import declaration
from ._blocks import Text, alpha_is, count, math_number, the

__all__ = ["attainable_floor", "fixed_note"]

#: How a note names the p-value of a test that says what gave it
#: (``method``), so that the supplementary p-values printed beside it are
#: not read as contradicting it.
_METHOD_WORDS = {
    "exact": "exact permutation ",
    "monte_carlo": "Monte Carlo permutation ",
    "chi2": "chi-squared ",
    "iman_davenport": "Iman-Davenport ",
}

#: The tests whose family the exact post hoc test can stand in for.
_RANK_FAMILIES = (
    "wilcoxon",
    "sign",
    "nemenyi",
    "friedman_posthoc",
    "holm",
    "bonferroni_dunn",
)


def _pairwise(name):
    """Whether ``name`` is a test of one pair at a time (its result here is
    a (k, k) table over the pairs), as the registry declares."""
    return declaration(name).role == "pairwise"


def attainable_floor(name, test, k):
    """The floor of ``test`` (the result of ``name``; a pairwise table
    too): a Bunch with ``raw`` (the smallest raw p-value of a comparison),
    ``adjusted`` (of the family after its correction), ``n_comparisons``
    and ``correction``; None when the test reports no floor."""
    if _pairwise(name):  # a (k, k) table of a test of one pair: per pair
        floors = test.get("min_pvalue")
        if floors is None or not test.results:
            return None
        adjusted = np.asarray(test.get("min_pvalue_adjusted", floors), dtype=float)
        floors = np.asarray(floors, dtype=float)
        tested = np.asarray(test.get("tested", ~np.eye(k, dtype=bool)), dtype=bool)
        return Bunch(
            raw=float(np.min(floors[tested])),
            adjusted=float(np.min(adjusted[tested])),
            n_comparisons=len(test.results),
            correction=test.get("correction"),
        )
    raw = test.get("min_pvalue")
    if raw is None or np.ndim(raw):
        return None
    adjusted = test.get("min_pvalue_adjusted", raw)
    role = declaration(name).role
    n_comparisons = test.get("n_comparisons")
    if role == "posthoc" and n_comparisons is None:
        n_comparisons = k * (k - 1) // 2
    return Bunch(
        raw=float(raw),
        adjusted=float(adjusted),
        n_comparisons=int(n_comparisons or 1),
        correction=test.get("correction"),
    )


def _p(value):
    """A p-value in a note: 3 significant digits, a power of ten in math."""
    return math_number(value, 3)


def fixed_note(name, test, result, *, sentence=False):
    """The note of a verdict fixed in advance, or None: a
    :class:`~._blocks.Text` (alpha and powers of ten in math for LaTeX;
    ``str()`` of it is the plain note), starting with a capital when
    ``sentence``.

    ``result`` is the comparison across data sets (its ``names``,
    ``datasets``, ``alpha``, ``control``, ``ranks``)."""
    k = len(result.names)
    alpha = float(result.alpha)
    floor = attainable_floor(name, test, k)
    if floor is None or floor.adjusted < alpha:
        return None
    n = len(result.datasets)
    title = the(declaration(name).title)
    m, correction = floor.n_comparisons, floor.correction
    if m > 1 and correction and floor.adjusted != floor.raw:
        what = Text(
            _p(floor.raw),
            " for one comparison and ",
            _p(floor.adjusted),
            f" after the {correction} correction over {count(m, 'comparison')}",
        )
    elif m > 1 and floor.adjusted != floor.raw:
        what = Text(_p(floor.adjusted), f" over its {count(m, 'comparison')}")
    else:
        what = Text(_p(floor.adjusted))
    kind = _METHOD_WORDS.get(test.get("method"), "")
    opening = "No" if sentence else "no"
    text = Text(
        f"{opening} outcome could change this verdict: with {count(n, 'data set')} "
        f"and their ties the smallest {kind}p-value {title} can reach is ",
        what,
        ", not below ",
        alpha_is(alpha),
        ".",
    )
    changes = _what_would_change(name, test, result, floor)
    if len(changes) > 1:
        changes[-1] = Text("or ", changes[-1])
    if changes:
        joined = changes[0]
        for change in changes[1:]:
            joined = Text(joined, "; ", change)
        text += Text(" It could reject ", joined, ".")
    return text


def _what_would_change(name, test, result, floor):
    k, n = len(result.names), len(result.datasets)
    alpha = float(result.alpha)
    alternative = result.alternative if _pairwise(name) else "two-sided"
    m, correction = floor.n_comparisons, floor.correction
    out = []
    needed = datasets_needed(
        name,
        k,
        n_comparisons=m,
        correction=correction,
        alpha=alpha,
        alternative=alternative,
    )
    if needed is not None:
        more = "" if needed > n else ", as ties count for nothing"
        out.append(Text(f"with at least {needed} data sets without ties{more}"))
    else:
        out.append(Text("with more data sets"))
    if m > 1:
        if correction and result.get("control") is None and m > k - 1 >= 1:
            one = "holm" if correction in PAIRS_ONLY else correction
            against = adjusted_floor(floor.raw, k - 1, one, alpha=alpha)
            if against < alpha:
                out.append(
                    Text(
                        f"against a control, whose {count(k - 1, 'comparison')} "
                        "can reach an adjusted p-value of ",
                        _p(against),
                    )
                )
        if floor.raw < alpha:
            out.append(
                Text("with fewer comparisons, one alone reaching ", _p(floor.raw))
            )
    ranks = result.get("ranks")
    ran = result.get("tests") or {}
    if (
        name in _RANK_FAMILIES
        and m > 1
        and ranks is not None
        and np.isfinite(ranks).all()  # the exact post hoc needs no hole
        and "exact_posthoc" not in ran
    ):
        exact = smallest_difference_pvalue(np.asarray(ranks, dtype=float))
        reach = adjusted_floor(exact, m, correction or "holm", alpha=alpha)
        if reach < alpha:
            out.append(
                Text(
                    "by the exact rank-sum post hoc test, tests=['exact_posthoc'], "
                    "whose smallest adjusted p-value here is ",
                    _p(reach),
                )
            )
    ran = result.get("pairwise") or {}
    if (
        _pairwise(name)
        and result.get("split_scores") is not None
        and "poisson_binomial" not in ran
    ):
        out.append(
            Text(
                "by the Poisson-binomial test of the per-split scores, "
                "pairwise_tests=['poisson_binomial']"
            )
        )
    return out
