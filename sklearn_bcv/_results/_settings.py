"""The settings of each test, as a methods section another lab reruns from.

A test's verdict depends on more than its name: the prior and the Monte
Carlo draws of a Bayesian test, the correlation heuristic of a test on
cross-validated splits, the rope where a test takes one (and that it takes
none where it does not), the resamples of a bootstrap. :func:`settings_text`
reads them off the results (what ran, not the defaults) and writes one
phrase per test that has any; a test registered by a third party gets the
phrases its result fields allow (a rope), nothing else.
"""

import numpy as np

from ..stats._references import NADEAU_2003
from ..stats._registry import declaration
from ._blocks import Math, Text

__all__ = ["effect_size_settings", "settings_text", "test_settings"]


def _first(results):
    """One result of a pairwise table (their settings are shared)."""
    return next(iter(results.values()), None) if results else None


def _draws(test):
    samples = test.get("samples")
    return None if samples is None else int(np.shape(samples)[0])


def _rope(test):
    rope = test.get("rope")
    if rope is None:
        return None
    return (
        "no rope (rope = 0)"
        if not rope
        else f"a region of practical equivalence (rope) of ±{float(rope):g} in "
        "score units"
    )


def _rho(n_train, n_test):
    """The phrase of the correlation heuristic, ρ = n_test / (n_train +
    n_test), with its value(s) on these splits."""
    if n_train is None or n_test is None:
        values = []
    else:
        n_train = np.atleast_1d(np.asarray(n_train, dtype=float))
        n_test = np.atleast_1d(np.asarray(n_test, dtype=float))
        values = np.unique(np.round(n_test / (n_train + n_test), 3))
    if len(values) == 1:
        value = f" = {values[0]:g}"
    elif len(values):
        value = f", from {values.min():g} to {values.max():g}"
    else:
        value = ""
    return Text(
        "the correlation of the splits set by the heuristic ",
        Math(
            r"\rho = n_{\mathrm{test}}/(n_{\mathrm{train}}+n_{\mathrm{test}})",
            "rho = n_test / (n_train + n_test)",
        ),
        value,
    )


def test_settings(
    name, test, *, n_train=None, n_test=None, bibliography, with_rope=True
):
    """The settings of test ``name`` from one of its results ``test``, as a
    :class:`~._blocks.Text` (None when it has none to state); its rope too
    unless ``with_rope`` is False (the decision rule says it)."""
    parts = []
    draws = _draws(test)
    if name == "bayesian_signed_rank":
        parts.append(
            f"a Dirichlet-process prior with its pseudo-observation at 0 of weight "
            f"{float(test.get('prior_weight', 0.5)):g}"
        )
    elif name == "bayesian_sign":
        parts.append(
            f"a Dirichlet prior of weight {float(test.get('prior_weight', 1.0)):g} "
            "on the rope"
        )
    elif name in ("poisson_binomial", "bayesian_correlated_t", "bayesian_hierarchical"):
        what = (
            "on each data set the correlated Bayesian t test of its splits, "
            if name == "poisson_binomial"
            else ""
        )
        cite = bibliography.cite([NADEAU_2003])
        parts.append(Text(what, _rho(n_train, n_test), f" ({cite})"))
    if draws and name in ("bayesian_signed_rank", "bayesian_sign"):
        parts.append(f"{draws:,} Monte Carlo draws of the posterior")
    elif draws and name == "bayesian_hierarchical":
        parts.append(f"{draws:,} posterior draws (MCMC)")
    if with_rope:
        rope = _rope(test)
        if rope is not None:
            parts.append(rope)
        elif declaration(name).bayesian:
            parts.append("no rope (the test takes none)")
    if not parts:
        return None
    text = Text(f"{declaration(name).title}: ")
    for i, part in enumerate(parts):
        text += Text(", " if i else "", part)
    return text


def effect_size_settings(result):
    """How the effect sizes' intervals were computed (None without any)."""
    effects = result.get("effect_sizes") or []
    if not effects:
        return None
    if any("asymptotic" in (e.get("note") or "") for e in effects):
        return "effect sizes: asymptotic (normal) confidence intervals"
    resamples = effects[0].get("n_resamples")
    resampled = f" ({resamples:,} resamples)" if resamples else ""
    return (
        "effect sizes: paired BCa (bias-corrected and accelerated) bootstrap "
        f"intervals{resampled}, the percentile interval where BCa is undefined"
    )


def settings_text(result, bibliography, *, seeded=True, with_rope=True):
    """The sentence of the settings of every test of ``result`` (its
    omnibus, post hoc and pairwise tests), and of its effect sizes; None
    when none has any. ``seeded``: say the seed of the Monte Carlo draws
    (not when a sentence of the seeds says it); ``with_rope``: the ropes
    too."""
    phrases = []
    tests = dict(result.get("tests") or {})
    for name, test in tests.items():
        phrase = test_settings(
            name, test, bibliography=bibliography, with_rope=with_rope
        )
        if phrase is not None:
            phrases.append(phrase)
    for name, table in (result.get("pairwise") or {}).items():
        test = _first(table.get("results"))
        if test is None:
            continue
        phrase = test_settings(
            name,
            test,
            n_train=result.get("n_train"),
            n_test=result.get("n_test"),
            bibliography=bibliography,
            with_rope=with_rope,
        )
        if phrase is not None:
            phrases.append(phrase)
    effects = effect_size_settings(result)
    if effects is not None:
        phrases.append(effects)
    if not phrases:
        return None
    text = Text("Settings: ")
    for i, phrase in enumerate(phrases):
        text += Text("; " if i else "", phrase)
    seed = (result.get("provenance") or {}).get("random_state")
    if seeded and isinstance(seed, int) and _sampled(result):
        text += Text(
            f"; the Monte Carlo draws and resamples seeded by the study seed, {seed}"
        )
    return text + "."


def _sampled(result):
    """Whether any test or interval of ``result`` draws at random."""
    for table in (result.get("pairwise") or {}).values():
        test = _first(table.get("results"))
        if test is not None and _draws(test):
            return True
    return bool(result.get("effect_sizes"))
