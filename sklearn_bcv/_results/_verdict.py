"""What each test is worth here: its status beside the verdict.

The printed summaries lead with the verdict of the recommended test; every
other test is shown apart with its status (:func:`test_status`), and the
tests this library does not recommend (``not_recommended`` of
:func:`~sklearn_bcv.register_test`) only on request (``show="all"``,
``--all-tests``). Bayesian tests (``bayesian=True``) are shown as posterior
probabilities with their decision rule named (:func:`bayesian_rule`), never
under a frequentist ``alpha`` header. Everything here reads the registry's
declarations.
"""

from ..stats._registry import declaration

__all__ = [
    "SHOW",
    "bayesian_rule",
    "check_show",
    "is_bayesian",
    "not_recommended",
    "test_status",
]


#: The values of ``show`` of the summaries.
SHOW = ("default", "all")


def check_show(show):
    if show not in SHOW:
        raise ValueError(f"show must be one of {SHOW}; got {show!r}.")
    return show


def not_recommended(name):
    """Why the test ``name`` is not recommended, or None."""
    return declaration(name).not_recommended


def is_bayesian(name):
    """Whether the test ``name`` gives posterior probabilities (its
    ``bayesian`` declaration) rather than a p-value."""
    return declaration(name).bayesian


def test_status(result, name):
    """``"recommended"``, ``"valid here"`` or ``"not recommended: why"``.

    ``result`` is a two-estimator result (its ``recommended_test``).
    """
    if name == result.get("recommended_test"):
        return "recommended"
    why = not_recommended(name)
    if why is not None:
        return f"not recommended: {why}"
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
