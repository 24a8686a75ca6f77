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
from ..stats._registry import declaration, get_entry, keyword_names
from ._blocks import (
    Heading,
    Items,
    References,
    Text,
    alpha_is,
    count,
    level_is,
    names_list,
    the,
)

__all__ = [
    "GIVEN_SPLITTER",
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
    the default 5×2 BCV with its seed, the folds of an int, or the count of
    a list of given splits (not their indices)."""
    if cv is None:
        seed = describe_seed(random_state)
        if per_dataset:
            return "BlockRegularized5x2CV, seeded per data set from the study seed"
        if isinstance(seed, str):
            return f"BlockRegularized5x2CV seeded by {seed}"
        return f"BlockRegularized5x2CV(random_state={seed})"
    if isinstance(cv, int | np.integer) and not isinstance(cv, bool):
        return f"{int(cv)}-fold CV (StratifiedKFold for classifiers, else KFold)"
    if isinstance(cv, list | tuple):
        return f"{len(cv)} given splits"
    return repr(cv)


def library_versions(*, pandas=False):
    """The versions a methods section states: Python, sklearn_bcv,
    scikit-learn, NumPy and SciPy (and pandas when ``pandas``)."""
    import platform

    import scipy
    import sklearn

    versions = {
        "Python": platform.python_version(),
        "sklearn_bcv": __version__,
        "scikit-learn": sklearn.__version__,
        "NumPy": np.__version__,
        "SciPy": scipy.__version__,
    }
    if pandas:
        import pandas as pd

        versions["pandas"] = pd.__version__
    return versions


def uses_pandas(*objects):
    """Whether any of ``objects`` is a pandas object (its version is then
    part of the methods)."""
    return any(type(obj).__module__.split(".")[0] == "pandas" for obj in objects)


def _public_path(func):
    """``module.name`` of a function, by the shortest public module that
    holds it (``sklearn.datasets.make_moons``, not
    ``sklearn.datasets._samples_generator.make_moons``)."""
    import importlib

    module = getattr(func, "__module__", None) or ""
    name = getattr(func, "__qualname__", None) or getattr(func, "__name__", "")
    parts = module.split(".")
    for end in range(1, len(parts) + 1):
        candidate = ".".join(parts[:end])
        if any(part.startswith("_") for part in parts[1:end]):
            break
        try:
            if getattr(importlib.import_module(candidate), name, None) is func:
                return f"{candidate}.{name}"
        except Exception:  # a module that cannot be imported again
            break
    return f"{module}.{name}" if module else name


def describe_source(data):
    """Where a data set of :func:`~sklearn_bcv.benchmark` comes from, when
    that can be said exactly: a ``functools.partial`` of a function with
    its arguments (``sklearn.datasets.make_moons(n_samples=300,
    random_state=1)``) or a named function called without any; None for
    arrays and for lambdas and local functions (their code is not read).

    Examples
    --------
    >>> from functools import partial
    >>> from sklearn.datasets import load_iris, make_moons
    >>> from sklearn_bcv._results._methods import describe_source
    >>> describe_source(partial(make_moons, n_samples=300, noise=0.3, random_state=1))
    'sklearn.datasets.make_moons(n_samples=300, noise=0.3, random_state=1)'
    >>> describe_source(partial(load_iris, return_X_y=True))
    'sklearn.datasets.load_iris(return_X_y=True)'
    >>> describe_source(lambda: make_moons()) is None
    True
    """
    import functools

    if isinstance(data, functools.partial):
        if not callable(data.func) or "<" in getattr(data.func, "__qualname__", "<"):
            return None
        arguments = [_value_text(value) for value in data.args]
        arguments += [f"{key}={_value_text(v)}" for key, v in data.keywords.items()]
        return f"{_public_path(data.func)}({', '.join(arguments)})"
    qualname = getattr(data, "__qualname__", None)
    if inspect.isfunction(data) and qualname and "<" not in qualname:
        return f"{_public_path(data)}()"
    return None


def describe_dataset(X, y, *, task, source=None, seed=None):
    """What the methods say of one data set: ``n_samples``, ``n_features``,
    ``n_classes`` (classification) or ``target_range`` (regression: the
    smallest and largest target), ``source`` (or None) and ``seed`` (of its
    splits, or None)."""
    shape = np.shape(X) if not hasattr(X, "shape") else X.shape
    n_features = int(shape[1]) if len(shape) > 1 else 1
    target = np.asarray(y)
    described = Bunch(
        n_samples=int(shape[0]),
        n_features=n_features,
        n_classes=None,
        target_range=None,
        source=source,
        seed=seed,
    )
    if task == "classification":
        described.n_classes = int(len(np.unique(target)))
    elif target.size and target.dtype.kind in "biuf":
        described.target_range = [float(np.min(target)), float(np.max(target))]
    return described


#: The ``seed`` of :func:`make_provenance` when the user gave the splitter:
#: no seed of the comparison's own (the splitter's ``repr`` says its own).
GIVEN_SPLITTER = Bunch(seed=None, origin="splitter", given=None)


def make_provenance(
    *, estimators=None, cv=None, random_state=None, given=None, seed=None, pandas=False
):
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
        The seed the entry point was given (when ``seed`` is None).
    given : str, default=None
        What was given instead of fits (``"scores"``, ``"predictions"``),
        or None when the entry point fitted the estimators.
    seed : Bunch, default=None
        The study seed the entry point drew or was given
        (:func:`~sklearn_bcv._engine._seeds.study_seed`): recorded as
        ``random_state``, with where it came from.
    pandas : bool, default=False
        Whether pandas handled the input (its version is then recorded).

    Returns
    -------
    provenance : Bunch
        ``version`` (of sklearn_bcv), ``versions`` (Python, sklearn_bcv,
        scikit-learn, NumPy, SciPy, and pandas when used), ``estimators``
        (name -> short description, or None), ``cv`` (str or None),
        ``random_state`` (the int seed used; None, or the kind of generator,
        when no seed was drawn), ``random_state_origin`` (``"given"``,
        ``"drawn"``, ... or None) and ``given``.
    """
    return Bunch(
        version=__version__,
        versions=library_versions(pandas=pandas),
        estimators=None
        if estimators is None
        else {str(name): describe_estimator(est) for name, est in estimators},
        cv=None if cv is None else (cv if isinstance(cv, str) else repr(cv)),
        random_state=describe_seed(random_state) if seed is None else seed.seed,
        random_state_origin=None if seed is None else seed.origin,
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


#: How "<name>-adjusted p-values" names a multiplicity correction.
ADJUSTED_NAMES = {
    "holm": "Holm",
    "bonferroni": "Bonferroni",
    "hochberg": "Hochberg",
    "fdr_bh": "Benjamini-Hochberg",
    "hommel": "Hommel",
    "finner": "Finner",
    "li": "Li",
    "holland": "Holland",
    "rom": "Rom",
    "shaffer": "Shaffer",
    "bergmann": "Bergmann-Hommel",
}


def adjusted_name(correction):
    """``"Holm"`` of ``"holm"`` (a correction's name before "-adjusted")."""
    return ADJUSTED_NAMES.get(correction, str(correction))


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
    """``"Analysis by sklearn_bcv 0.1.0 (Python 3.11.7, scikit-learn 1.9.1,
    NumPy 2.4.6, SciPy 1.17.1)."``: the software a rerun needs, as the
    result recorded it."""
    version = (provenance or {}).get("version") or __version__
    others = {
        k: v
        for k, v in ((provenance or {}).get("versions") or {}).items()
        if k != "sklearn_bcv"
    }
    if not others:
        return f"Analysis by sklearn_bcv {version}."
    listed = ", ".join(f"{k} {v}" for k, v in others.items())
    return f"Analysis by sklearn_bcv {version} ({listed})."


def estimators_sentence(names, provenance):
    """The estimators and their parameters in short, or what is known of
    them."""
    described = (provenance or {}).get("estimators")
    if not described:
        return f"The estimators are {names_list(list(names))}."
    parts = [f"{name} = {described.get(name, '?')}" for name in names]
    return "The estimators: " + "; ".join(parts) + "."


def seed_text(provenance):
    """``"random_state=0"`` (with where a seed not given came from, and how
    to repeat the run), or why the splits cannot be drawn again; None for a
    splitter given by the user (its ``repr`` says its seed)."""
    seed = (provenance or {}).get("random_state")
    origin = (provenance or {}).get("random_state_origin")
    if origin == "splitter":  # the splitter given: its repr says its seed
        return None
    if isinstance(seed, int):
        if origin in (None, "given"):
            return f"random_state={seed}"
        if origin.startswith("drawn"):
            how = "drawn as none was given" if origin == "drawn" else origin
            return f"random_state={seed}, {how} (random_state={seed} repeats the run)"
        return f"random_state={seed}, {origin}"
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
    if isinstance(bayesian_ropes, dict) and bayesian_ropes:
        text += Text(
            "; a Bayesian test decides when a posterior probability exceeds ",
            level_is(alpha),
            f"; {_ropes_by_test(bayesian_ropes)}",
        )
    elif bayesian_ropes:
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


def _ropes_by_test(ropes):
    """``"the Bayesian signed-rank test with a region of practical
    equivalence (rope) of ±0.01 in score units, the Poisson-binomial test
    without one (it takes none)"``, from ``{title: rope, or None for a test
    that takes none}``."""
    given = [(t, r) for t, r in ropes.items() if r]
    parts = []
    if given:
        parts.append(
            "a region of practical equivalence (rope) of "
            + ", ".join(f"±{float(r):g} for {the(t)}" for t, r in given)
            + " (in score units)"
        )
    zero = [t for t, r in ropes.items() if r is not None and not r]
    if zero:
        parts.append(f"no rope for {names_list([the(t) for t in zero])}")
    none = [t for t, r in ropes.items() if r is None]
    if none:
        parts.append(f"{names_list([the(t) for t in none])} takes none")
    return "; ".join(parts)


def _takes_rope(name):
    """Whether the registered test ``name`` takes a rope (its parameters)."""
    return "rope" in (keyword_names(get_entry(name).func) or ())


def pairwise_settings_sentence(result, bibliography, *, by_test=False):
    """:func:`settings_sentence` of a result with pairwise tables: its
    alpha, the correction of its frequentist tests over their pairs, and
    the rope of its Bayesian ones (``by_test``: test by test, saying which
    takes none)."""
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
    if by_test:
        ropes = {
            declaration(name).title: max(
                (r.get("rope") or 0.0 for r in table.results.values()),
                default=0.0,
            )
            if _takes_rope(name)
            else None
            for name, table in result.pairwise.items()
            if bayesian[name]
        }
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
