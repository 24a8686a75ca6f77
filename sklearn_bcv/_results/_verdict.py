"""What each test is worth here: its status beside the verdict.

The printed summaries lead with the verdict of the recommended test; every
other test is shown apart with its status (:func:`test_status`), and the
tests this library does not recommend only on request (``show="all"``,
``--all-tests``). Bayesian tests are shown as posterior probabilities with
their decision rule named (:func:`bayesian_rule`), never under a
frequentist ``alpha`` header.
"""

__all__ = [
    "NOT_RECOMMENDED",
    "SHOW",
    "bayesian_rule",
    "check_show",
    "is_bayesian_result",
    "test_status",
]

#: Why a registered two-estimator test is not recommended (shown beside it).
NOT_RECOMMENDED = {
    "paired_t": (
        "its variance ignores the correlation of overlapping training sets, "
        "so it rejects too often (Dietterich 1998; Nadeau & Bengio 2003)"
    ),
    "kfold_mcnemar": (
        "it sums the K folds' statistics as if independent; they are "
        "correlated, so its type I error is not controlled"
    ),
    "combined_t_5x2cv": (
        "it treats the 2m differences as independent, so its type I error is "
        "inflated (0.15-0.29 at 0.05, Yang et al. Table V)"
    ),
}

#: The values of ``show`` of the summaries.
SHOW = ("default", "all")


def check_show(show):
    if show not in SHOW:
        raise ValueError(f"show must be one of {SHOW}; got {show!r}.")
    return show


def is_bayesian_result(test_result):
    return test_result.get("pvalue") is None and "p_a_better" in test_result


def test_status(result, name):
    """``"recommended"``, ``"valid here"`` or ``"not recommended: why"``.

    ``result`` is a two-estimator result (its ``recommended_test``).
    """
    if name == result.get("recommended_test"):
        return "recommended"
    if name in NOT_RECOMMENDED:
        return f"not recommended: {NOT_RECOMMENDED[name]}"
    return "valid here"


def bayesian_rule(alpha, alternative="two-sided"):
    """The decision rule of a Bayesian test, in words."""
    level = 1.0 - alpha
    if alternative == "greater":
        return f"decide 'A better' when P(A better) > {level:g} (1 - alpha)"
    if alternative == "less":
        return f"decide 'B better' when P(B better) > {level:g} (1 - alpha)"
    return (
        f"decide for A (or B) when P(A better) (or P(B better)) > {level:g} (1 - alpha)"
    )
