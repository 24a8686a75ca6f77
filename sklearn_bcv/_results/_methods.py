"""What a report's methods say, and the works it cites: shared by every
result's report.

A result knows how it was made through its ``provenance`` field
(:func:`make_provenance`, filled by the entry point: the package's
version, the estimators and their parameters, the splitter, the seed);
:class:`Bibliography` collects the works a report cites as it is written
and gives its "References" section; the other helpers write the sentences
of the methods that every kind of result shares (the estimators, the
fits, the tests and why, the settings of the decisions).
"""

import inspect
import math
import re

import numpy as np
from sklearn.utils import Bunch

from .._version import __version__
from ..stats._references import CORRECTION_REFERENCES
from ..stats._registry import declaration
from ._blocks import (
    Heading,
    Items,
    References,
    Text,
    alpha_is,
    count,
    level_is,
    names_list,
)

__all__ = [
    "Bibliography",
    "describe_cv",
    "describe_estimator",
    "describe_seed",
    "estimators_sentence",
    "fits_sentence",
    "make_provenance",
    "settings_sentence",
    "tests_items",
    "version_sentence",
]

#: The longest parameter value a short description of an estimator
#: writes (a longer one is shown as ``...``).
_MAX_VALUE_CHARS = 40


def _default_params(estimator):
    """``{name: default}`` of the estimator class's ``__init__``."""
    try:
        parameters = inspect.signature(type(estimator).__init__).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin's __init__
        return {}
    return {
        name: p.default
        for name, p in parameters.items()
        if p.default is not inspect.Parameter.empty
    }


def _same(value, default):
    try:
        same = value is default or value == default
        return bool(same) if not isinstance(same, np.ndarray) else bool(same.all())
    except Exception:  # arrays of other shapes, objects without ==
        return False


def _value_text(value):
    if hasattr(value, "get_params") and hasattr(value, "fit"):
        return describe_estimator(value)
    text = repr(value)
    return text if len(text) <= _MAX_VALUE_CHARS else "..."


def describe_estimator(estimator):
    """A short description of an estimator: its class and the parameters
    it changes from their defaults, a pipeline as its steps.

    Examples
    --------
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_bcv._results._methods import describe_estimator
    >>> describe_estimator(RandomForestClassifier(n_estimators=30, random_state=0))
    'RandomForestClassifier(n_estimators=30, random_state=0)'
    >>> describe_estimator(make_pipeline(StandardScaler(), LogisticRegression(C=0.5)))
    'Pipeline(StandardScaler(), LogisticRegression(C=0.5))'
    """
    name = type(estimator).__name__
    steps = getattr(estimator, "steps", None)
    if isinstance(steps, list):
        inner = [
            describe_estimator(step)
            for _, step in steps
            if step is not None and not isinstance(step, str)
        ]
        return f"{name}({', '.join(inner)})"
    try:
        params = estimator.get_params(deep=False)
    except Exception:  # an object with a broken get_params: its class
        return name
    defaults = _default_params(estimator)
    changed = [
        f"{key}={_value_text(value)}"
        for key, value in params.items()
        if key not in defaults or not _same(value, defaults[key])
    ]
    return f"{name}({', '.join(changed)})"


def describe_seed(random_state):
    """The seed as a result keeps it: an int, None, or the kind of the
    generator given (which the report cannot restate)."""
    if random_state is None or isinstance(random_state, int | np.integer):
        return None if random_state is None else int(random_state)
    return f"a {type(random_state).__name__} instance"


def describe_cv(cv, random_state=None, *, per_dataset=False):
    """The splitter of a comparison as the methods state it: its ``repr``,
    the default 5×2 BCV with its seed, or the folds of an int."""
    if cv is None:
        seed = describe_seed(random_state)
        if per_dataset:
            return "BlockRegularized5x2CV, seeded per data set"
        if isinstance(seed, str):
            return f"BlockRegularized5x2CV seeded by {seed}"
        return f"BlockRegularized5x2CV(random_state={seed})"
    if isinstance(cv, int | np.integer) and not isinstance(cv, bool):
        return f"{int(cv)}-fold CV (StratifiedKFold for classifiers, else KFold)"
    return repr(cv)


def make_provenance(*, estimators=None, cv=None, random_state=None, given=None):
    """The ``provenance`` field of a result: how it was made.

    Parameters
    ----------
    estimators : list of (str, estimator), default=None
        The estimators fitted, by name; None when the scores or
        predictions were given.
    cv : str or object, default=None
        The splitter (its ``repr``), or a sentence saying how the splits
        were made; None when not known.
    random_state : int, RandomState instance or None, default=None
        The seed the entry point was given.
    given : str, default=None
        What was given instead of fits (``"scores"``, ``"predictions"``),
        or None when the entry point fitted the estimators.

    Returns
    -------
    provenance : Bunch
        ``version``, ``estimators`` (name -> short description, or None),
        ``cv`` (str or None), ``random_state`` (int, None or the kind of
        generator) and ``given``.
    """
    return Bunch(
        version=__version__,
        estimators=None
        if estimators is None
        else {str(name): describe_estimator(est) for name, est in estimators},
        cv=None if cv is None else (cv if isinstance(cv, str) else repr(cv)),
        random_state=describe_seed(random_state),
        given=given,
    )


# --------------------------------------------------------------------------
# The works cited


class Bibliography:
    """The works a report cites, collected as it is written.

    :meth:`cite` returns the citation of some references (``"Friedman
    1937; Demšar 2006"``) and keeps their entries; :meth:`blocks` gives
    the "References" section, its entries in the order of their
    citations' alphabet.
    """

    def __init__(self):
        self._entries = {}

    def cite(self, references):
        """The citation of ``references`` (pairs ``(citation, entry)``),
        ``""`` for none; their entries join the bibliography."""
        for citation, entry in references:
            self._entries.setdefault(citation, entry)
        return "; ".join(citation for citation, _ in references)

    def test(self, name):
        """The citation of the test ``name``'s declared references."""
        return self.cite(declaration(name).references)

    def correction(self, correction):
        """The citation of a multiplicity correction (``""`` for none)."""
        return self.cite(CORRECTION_REFERENCES.get(correction, ()))

    def blocks(self):
        """``[Heading("References"), References(...)]``, or ``[]``."""
        if not self._entries:
            return []
        entries = [self._entries[key] for key in sorted(self._entries, key=str.lower)]
        return [Heading("References"), References(entries)]


#: How a sentence names a multiplicity correction.
CORRECTION_NAMES = {
    "holm": "Holm's step-down method",
    "bonferroni": "Bonferroni's correction",
    "hochberg": "Hochberg's step-up method",
    "fdr_bh": "the Benjamini-Hochberg false discovery rate",
    "hommel": "Hommel's method",
    "finner": "Finner's method",
    "li": "Li's two-step method",
    "holland": "Holland and Copenhaver's method",
    "rom": "Rom's method",
    "shaffer": "Shaffer's method",
    "bergmann": "Bergmann and Hommel's method",
}


def cited(text, citation):
    """``text (citation)``, leaving out the works ``text`` cites already,
    as "Author 2006" or "Author (2006)" (``text`` alone when none is
    left); a citation closing ``text`` takes the new works inside it."""
    plain = re.sub(r"\((\d{4}[a-z]?)\)", r"\1", text)
    new = [c for c in citation.split("; ") if c and c not in plain]
    if not new:
        return text
    if re.search(r"\([^()]*\d{4}[a-z]?\)$", text):
        return f"{text[:-1]}; {'; '.join(new)})"
    return f"{text} ({'; '.join(new)})"


# --------------------------------------------------------------------------
# Sentences of the methods


def version_sentence(provenance):
    """``"Analysis by sklearn_bcv 0.1.0."``"""
    version = (provenance or {}).get("version") or __version__
    return f"Analysis by sklearn_bcv {version}."


def estimators_sentence(names, provenance):
    """The estimators and their parameters in short, or what is known of
    them."""
    described = (provenance or {}).get("estimators")
    if not described:
        return f"The estimators are {names_list(list(names))}."
    parts = [f"{name} = {described.get(name, '?')}" for name in names]
    return "The estimators: " + "; ".join(parts) + "."


def seed_text(provenance):
    """``"random_state=0"``, or why the splits cannot be drawn again."""
    seed = (provenance or {}).get("random_state")
    if isinstance(seed, int):
        return f"random_state={seed}"
    if seed is None:
        return "random_state=None (not reproducible)"
    return f"random_state {seed} (its state is not recorded)"


def fits_sentence(failed_fits):
    """``"350 fits, none failed."`` from the (…, k) failures, or None when
    nothing was fitted here."""
    if failed_fits is None:
        return None
    arrays = failed_fits if isinstance(failed_fits, list) else [failed_fits]
    total = sum(int(np.size(a)) for a in arrays)
    failed = sum(int(np.sum(a)) for a in arrays)
    what = "none failed" if not failed else f"{failed} failed (no test ran)"
    return f"{count(total, 'fit')}, {what}."


def tests_items(tests, bibliography, *, status=None, skipped=None):
    """The items of "Tests and why": each test run, with why it runs and
    the works it cites (``status``: name -> a word in parentheses), then
    those not run, with why not."""
    items = []
    for name in tests:
        why = declaration(name).rationale
        label = f"{name} ({status[name]})" if status else name
        text = f"{label}: {why}" if why else label
        items.append(cited(text, bibliography.test(name)))
    items += [f"{name}: not run ({reason})" for name, reason in (skipped or {}).items()]
    return items


def settings_sentence(
    *,
    alpha,
    correction=None,
    n_pairs=None,
    bayesian_ropes=(),
    bibliography,
):
    """alpha, the correction of the pairwise p-values and the decision
    rule of the Bayesian tests with their rope, as one sentence."""
    text = Text("Significance level ", alpha_is(alpha))
    if correction and n_pairs:
        how = cited(
            CORRECTION_NAMES.get(correction, f"the {correction} correction"),
            bibliography.correction(correction),
        )
        text += (
            f"; the p-values of the pairwise tests adjusted for the "
            f"{count(n_pairs, 'pair')} by {how}"
        )
    elif n_pairs:
        text += f"; the p-values of the {count(n_pairs, 'pair')} not adjusted"
    if bayesian_ropes:
        ropes = sorted({float(rope or 0.0) for rope in bayesian_ropes})
        rope_text = (
            "no region of practical equivalence (rope)"
            if ropes == [0.0]
            else "a region of practical equivalence (rope) of "
            + " and ".join(f"±{rope:g}" for rope in ropes if rope)
            + " in score units"
        )
        text += Text(
            "; a Bayesian test decides when a posterior probability exceeds ",
            level_is(alpha),
            f", with {rope_text}",
        )
    return text + "."


def pairwise_settings_sentence(result, bibliography):
    """:func:`settings_sentence` of a result with pairwise tables: its
    alpha, the correction of its frequentist tests over their pairs, and
    the rope of its Bayesian ones."""
    bayesian = {name: declaration(name).bayesian for name in result.pairwise}
    n_pairs = max(
        (
            len(table.results)
            for name, table in result.pairwise.items()
            if not bayesian[name]
        ),
        default=0,
    )
    ropes = [
        test_result.get("rope")
        for name, table in result.pairwise.items()
        if bayesian[name]
        for test_result in table.results.values()
    ]
    return settings_sentence(
        alpha=result.alpha,
        correction=result.get("correction"),
        n_pairs=n_pairs,
        bayesian_ropes=ropes,
        bibliography=bibliography,
    )


def methods_heading():
    return Heading("Methods")


def tests_blocks(items):
    return [Heading("Tests and why"), Items(items)] if items else []


def finite(value):
    return value is not None and math.isfinite(float(value))
