"""After a search: compare its candidates; compare ``cross_validate`` results.

:func:`compare_search` reads what a fitted ``GridSearchCV`` or
``RandomizedSearchCV`` recorded — each candidate's score on each of its
splits — and runs the statistics of one data set on them: each candidate
against the best (or every pair), with the design of the search's own
splitter, so the variance of a difference knows the training sets overlap.
With ``refit_candidates=True`` it fits the candidates again on the search's
splits (one joblib pool, k × n_splits fits), checks that the scores are the
search's, and adds the tests of predictions. :func:`compare_cross_validate`
does the same with the dicts ``cross_validate`` returned. Both end in
:func:`~sklearn_bcv._split_scores.compare_stored`, the statistics path of
:func:`compare_split_scores` and :func:`compare_many_estimators`.
"""

from collections.abc import Mapping
from numbers import Integral

import numpy as np
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.metrics import accuracy_score, get_scorer, get_scorer_names
from sklearn.model_selection import check_cv

from ._compat import Interval, StrOptions, _safe_split, validate_params
from ._constants import ALTERNATIVES, CLASSIFICATION, REGRESSION
from ._engine._cv_results import candidate_names, read_cv_results
from ._engine._design import check_splits, describe_design
from ._engine._fit import materialise_splits
from ._engine._needs import PredictionStore
from ._engine._prepare import fit_prepared, prepare_fits
from ._engine._scoring import Scoring
from ._engine._seeds import study_seed
from ._engine._split_scores import ScoreStore, design_of_cv, records_of
from ._engine._validation import (
    check_predictions,
    check_target,
    check_task,
    named_items,
)
from ._results._methods import describe_cv, make_provenance
from ._results._verdict import is_bayesian
from ._split_scores import SHARED_PARAMETERS as _SHARED
from ._split_scores import compare_stored

__all__ = ["MAX_COMPARED", "compare_cross_validate", "compare_search"]

#: How many candidates ``compare_search`` compares when ``candidates=None``:
#: the best-ranked ones (k - 1 comparisons with the best, or k(k - 1)/2 pairs).
MAX_COMPARED = 100


#: What ``benchmarks/reproduce_search_selection.py`` measured (1,000 grids
#: of equally good candidates per cell; 10 and 50 candidates, 5×2 BCV and
#: 10 × 10 repeated k-fold; alpha = 0.05): the rates at which the best was
#: declared better than at least one other (Holm) and, uncorrected, the
#: share of the other candidates it was declared better than.
SELECTION_RATES = {"any": ("7%", "13%"), "uncorrected": ("12%", "36%")}


def selection_note(correction):
    """The note of a comparison whose best, chosen on the same splits, is
    declared better than another candidate."""
    low, high = SELECTION_RATES["any"]
    text = (
        "the best was chosen on the very splits that test it, so 'the best is "
        "better' is optimistic: on simulated grids of equally good candidates "
        "(alpha = 0.05; 10 and 50 candidates; 5×2 BCV and 10 × 10 repeated "
        f"k-fold) it was declared better than at least one other in {low} to "
        f"{high} of the grids, above alpha"
    )
    if correction is None:
        low, high = SELECTION_RATES["uncorrected"]
        text += (
            f", and, without a correction, better than {low} to {high} of the others"
        )
    else:
        text += " (each single claim, after the correction, stayed below alpha)"
    return text + (
        "; to claim that the chosen configuration is better, test it on splits "
        "not used to choose it (nested cross-validation: the search inside "
        "each outer split, compare_estimators outside)"
    )


# --------------------------------------------------------------------------
# compare_search


def _unpack(search, cv):
    """``(cv_results, estimator, cv, refit, scoring, best_index)`` of a
    fitted search or of a ``cv_results_`` dict given with ``cv``."""
    if hasattr(search, "cv_results_"):
        return (
            search.cv_results_,
            getattr(search, "estimator", None),
            search.cv if cv is None else cv,
            getattr(search, "refit", None),
            getattr(search, "scoring", None),
            getattr(search, "best_index_", None),
        )
    if isinstance(search, Mapping) and "params" in search:
        if cv is None:
            raise ValueError(
                "a cv_results_ dict does not say how its splits were made: pass cv "
                "(the splitter the search was given), or the fitted search itself."
            )
        return search, None, cv, None, None, None
    if hasattr(search, "fit") and (
        hasattr(search, "param_grid") or hasattr(search, "param_distributions")
    ):
        raise ValueError(
            "search must be fitted: call search.fit(X, y) first (compare_search "
            "reads its cv_results_)."
        )
    raise TypeError(
        "search must be a fitted GridSearchCV / RandomizedSearchCV (or halving "
        "search), or a search's cv_results_ dict given with cv=; got "
        f"{type(search).__name__}."
    )


def _task(estimator):
    if estimator is None:
        return None
    if is_classifier(estimator):
        return CLASSIFICATION
    if is_regressor(estimator):
        return REGRESSION
    return None


def _label(metric, scoring):
    """The scoring's name in the summaries."""
    if metric == "score" and isinstance(scoring, str):
        return scoring
    return metric


def _choose(read, candidates):
    """``(indices in rank order, notes)`` of the compared candidates."""
    eligible, notes = read.eligible, []
    if read.excluded:
        shown = "; ".join(f"{j}: {why}" for j, why in list(read.excluded.items())[:5])
        notes.append(
            f"{len(read.excluded)} candidate(s) left out, without a score on "
            f"every split ({shown})"
        )
    if candidates is None:
        chosen = eligible[:MAX_COMPARED]
        if len(eligible) > MAX_COMPARED:
            notes.append(
                f"the {MAX_COMPARED} best-ranked of {len(eligible)} candidates are "
                "compared (candidates= chooses others)"
            )
    elif isinstance(candidates, Integral) and not isinstance(candidates, bool):
        if candidates < 2:
            raise ValueError(
                f"candidates must be at least 2 (the top k by rank); got {candidates}."
            )
        chosen = eligible[: int(candidates)]
    else:
        chosen = _listed_candidates(read, candidates)
    if len(chosen) < 2:
        raise ValueError(
            f"a comparison needs at least 2 candidates with a score on every split; "
            f"the search has {len(chosen)}."
        )
    if read.halving:
        notes.append(
            "a successive-halving search: the candidates of its last iteration "
            "are compared, on the splits of that iteration"
        )
    return chosen, notes


def _listed_candidates(read, candidates):
    try:
        listed = [int(j) for j in candidates]
    except (TypeError, ValueError):
        raise ValueError(
            "candidates must be None, an int (the top k by rank) or a list of "
            f"cv_results_ indices; got {candidates!r}."
        ) from None
    if len(set(listed)) != len(listed):
        raise ValueError(f"candidates lists an index twice: {listed}.")
    n = len(read.params)
    for j in listed:
        if not 0 <= j < n:
            raise ValueError(f"candidates: {j} is not an index of the {n} candidates.")
        if j in read.excluded:
            raise ValueError(f"candidates: candidate {j} has {read.excluded[j]}.")
        if j not in read.eligible:
            raise ValueError(
                f"candidates: candidate {j} is not of the search's last iteration."
            )
    rank = {j: position for position, j in enumerate(read.eligible)}
    return sorted(listed, key=rank.get)


def _control(control, names):
    if control is None:
        return None
    if control == "best":
        return names[0]
    if control not in names:
        raise ValueError(
            f"control must be 'best', None or a compared candidate's name; got "
            f"{control!r} (names: {names[:5]}{' ...' if len(names) > 5 else ''})."
        )
    return control


def _design(cv, n_splits, X, y, groups, classifier, halving):
    """``(design, splits or None)``: from the splits of ``cv`` on ``X`` when
    it is given (the exact sizes), else from the splitter alone."""
    cv = 5 if cv is None else cv
    if X is None or y is None or halving:
        return design_of_cv(cv, n_splits), None
    splitter = check_cv(cv, np.asarray(y), classifier=classifier)
    splits = materialise_splits(splitter, X, y, {"groups": groups})
    if len(splits) != n_splits:
        raise ValueError(
            f"cv={cv!r} makes {len(splits)} splits of X, but the search recorded "
            f"{n_splits}: X, y (and groups) must be those the search was fitted on."
        )
    return describe_design(splits, len(y), cv=splitter), splits


def _reproducible(cv):
    """Refuse a splitter whose splits cannot be drawn again as the search
    drew them (a shuffle without a seed, a used generator)."""
    if cv is None or isinstance(cv, Integral | list | tuple):
        return
    if not hasattr(cv, "split"):
        raise ValueError(
            "refit_candidates=True needs the search's splits again; its cv is an "
            "iterator that is used up. Pass cv= the list of (train, test) splits."
        )
    state = getattr(cv, "random_state", None)
    shuffles = getattr(cv, "shuffle", True)
    if shuffles and (state is None or isinstance(state, np.random.RandomState)):
        if not hasattr(cv, "random_state"):
            return
        raise ValueError(
            f"refit_candidates=True needs the search's splits again, but cv={cv!r} "
            "draws them at random without a fixed seed; give the splitter an int "
            "random_state (before the search), or compare without refitting."
        )


def _scoring_of(scoring, metric):
    """The scoring of one metric of the search, for refitting."""
    if isinstance(scoring, Mapping):
        scoring = scoring.get(metric)
    elif isinstance(scoring, list | tuple | set):
        scoring = metric
    if (
        scoring is None
        or isinstance(scoring, str)
        or hasattr(scoring, "set_score_request")
    ):
        return scoring
    raise ValueError(
        "refit_candidates=True scores the refitted candidates as the search did; "
        f"its scoring for {metric!r} is a plain callable ({scoring!r}), which "
        "cannot be read back: give the search a scorer name or a make_scorer "
        "object, or compare without refitting."
    )


def _refit(
    estimator,
    params,
    names,
    indices,
    expected,
    X,
    y,
    *,
    cv,
    scoring,
    groups,
    fit_params,
    n_jobs,
    random_state,
):
    """Fit the candidates on the search's splits: ``(store, design, fits)``,
    their scores checked against the search's."""
    estimators = [
        (repr(name), clone(estimator).set_params(**p)) for name, p in zip(names, params)
    ]
    prepared = prepare_fits(
        estimators,
        X,
        y,
        cv=5 if cv is None else cv,
        scoring=scoring,
        groups=groups,
        params=fit_params,
        random_state=random_state,
        owner="compare_search",
    )
    fits, store = fit_prepared(
        prepared, labels=names, n_jobs=n_jobs, verbose=0, error_score="raise"
    )
    found = store.scores
    close = np.isclose(found, expected, rtol=1e-9, atol=1e-12)
    if not close.all():
        split, j = np.argwhere(~close)[0]
        raise ValueError(
            f"the refitted candidate {names[j]!r} (cv_results_ index {indices[j]}) "
            f"scores {found[split, j]!r} on split {split}, the search recorded "
            f"{expected[split, j]!r}: X, y, groups and the fit parameters must be "
            "those of the search, and the estimator's randomness fixed "
            "(random_state)."
        )
    return store, prepared.design, fits


def _equivalent(result, rope):
    """``(names, test)``: the best and the candidates not shown worse than it
    (or, by a Bayesian test with a rope, shown not worse by more than it)."""
    if not result.pairwise:
        return None, None
    names = result.names
    best = names[0]
    bayesian = [test for test in result.pairwise if is_bayesian(test) and rope > 0]
    test = bayesian[0] if bayesian else next(iter(result.pairwise))
    table = result.pairwise[test]
    equivalent = [best]
    if is_bayesian(test):
        for name in names[1:]:
            forward = table.results.get((name, best))
            if forward is not None:
                p_not_worse = forward.p_a_better + forward.get("p_rope", 0.0)
            else:
                backward = table.results.get((best, name))
                if backward is None:
                    continue
                p_not_worse = backward.p_b_better + backward.get("p_rope", 0.0)
            if p_not_worse >= 1 - result.alpha:
                equivalent.append(name)
        return equivalent, test
    differ = set(result.verdict.differ_by_test.get(test, []))
    tested = {pair for pair in table.results}
    for name in names[1:]:
        if (name, best) not in tested and (best, name) not in tested:
            continue
        if (best, name) not in differ:
            equivalent.append(name)
    return equivalent, test


@validate_params(
    {
        "search": "no_validation",
        "X": ["array-like", "sparse matrix", None],
        "y": ["array-like", None],
        "metric": [str, None],
        "candidates": [Interval(Integral, 2, None, closed="left"), list, tuple, None],
        "control": [str, None],
        **_SHARED,
        "refit_candidates": ["boolean"],
        "n_jobs": [Integral, None],
        "cv": ["cv_object"],
        "groups": ["array-like", None],
        "params": [dict, None],
    },
    prefer_skip_nested_validation=False,  # the estimator is not validated yet
)
def compare_search(
    search,
    X=None,
    y=None,
    *,
    metric=None,
    candidates=None,
    control="best",
    tests=None,
    pairwise_tests=None,
    correction="holm",
    rope=0.0,
    alpha=0.05,
    refit_candidates=False,
    n_jobs=None,
    random_state=None,
    cv=None,
    groups=None,
    params=None,
):
    """Compare the candidates of a fitted search with sound tests.

    Is the best candidate of a ``GridSearchCV`` really better than the
    runner-up, which candidates are as good, would a simpler one do? The
    search recorded every candidate's score on each of its splits
    (``cv_results_``); each candidate is compared with the best (or every
    pair) by the test recommended for the design of the search's splitter,
    whose variance accounts for the overlap of the training sets (the
    corrected resampled t of Nadeau and Bengio (2003) on k-fold and repeated
    k-fold, the calibrated F test on a 5×2 block-regularized CV), with the
    p-values adjusted for multiplicity. Nothing is fitted unless
    ``refit_candidates=True``.

    Parameters
    ----------
    search : GridSearchCV, RandomizedSearchCV, halving search or dict
        A fitted search (its ``cv``, ``cv_results_``, ``estimator``), or a
        search's ``cv_results_`` given with ``cv=``. Of a halving search,
        the candidates of the last iteration are compared.
    X, y : array-like, default=None
        The data the search was fitted on: with them the splits are drawn
        again for their exact sizes (``refit_candidates=True`` needs them).
        Without them, the design comes from the splitter alone.
    metric : str, default=None
        For a multi-metric search, the metric to compare (default: the
        search's ``refit`` metric).
    candidates : None, int or list of int, default=None
        Which candidates: None, all of them up to the
        :data:`~sklearn_bcv._search.MAX_COMPARED` (100) best-ranked (the
        result notes it when there are more); an int k, the top k by rank;
        a list, those ``cv_results_`` indices.
    control : "best", str or None, default="best"
        ``"best"``: each candidate against the best (rank 1 on the metric);
        None: every pair; or a compared candidate's name.
    tests, pairwise_tests, correction, rope, alpha, random_state
        As in :func:`compare_split_scores` (with ``refit_candidates=True``,
        the tests of predictions too, as in
        :func:`compare_many_estimators`). ``rope > 0`` adds the Bayesian
        correlated t of Corani and Benavoli (2015), which then decides
        ``equivalent_to_best``.
    refit_candidates : bool, default=False
        Fit the compared candidates again on the search's own splits (one
        joblib pool, k × n_splits fits), check that their scores are those
        the search recorded (a mismatch names the candidate), and add the
        tests that need predictions (the McNemar family, Cochran's Q).
        Needs X, y, the fitted search, and a splitter that draws the same
        splits again (a seeded one).
    n_jobs : int, default=None
        Jobs fitting in parallel (``refit_candidates=True``).
    cv : int, splitter or list of (train, test), default=None
        The search's splitter, for a ``cv_results_`` dict (default: the
        search's ``cv``).
    groups : array-like, default=None
        Group labels of the splitter (with X, y).
    params : dict, default=None
        Fit parameters of the candidates (``refit_candidates=True``).

    Returns
    -------
    result : ManyComparisonResult
        As :func:`compare_split_scores` (or, refitted,
        :func:`compare_many_estimators`), the candidates named by the
        parameters that vary among them (``"C=0.1, kernel=linear"``), best
        first, plus

        params : list of dict
            The compared candidates' parameters, in ``names`` order.
        best_index : int
            The ``cv_results_`` index of the best compared candidate.
        candidates : list of int
            The ``cv_results_`` index of each compared candidate.
        equivalent_to_best : list of str
            The best and the candidates not shown worse than it by the
            first pairwise test (or shown not worse by more than the rope by
            the Bayesian test, when ``rope > 0``).
        equivalent_test : str
            The test that decided it.
        notes : list of str
            Candidates left out, a bound on their number, and that the best
            was chosen on the splits that test it (see Notes).

    See Also
    --------
    sklearn_bcv.model_selection.simplest_not_worse : A refit rule: the simplest
        candidate not shown worse than the best.
    compare_cross_validate : The results of ``cross_validate``.
    compare_split_scores : Split scores in any form.

    Notes
    -----
    The best is chosen by its mean over the same splits that then test it,
    so "best better than the others" is optimistic (the winner's curse). On
    grids of equally good candidates (the user guide, "After a search",
    gives the simulation) the per-candidate claims after Holm's correction
    stayed near or below alpha, but "better than at least one" was declared
    more often than alpha; the result says so in its notes. For a claim
    about the chosen configuration, test it on splits not used to choose
    it: nested cross-validation.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_bcv import StratifiedBlockRegularized5x2CV, compare_search
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pipe = make_pipeline(StandardScaler(), LogisticRegression())
    >>> grid = {"logisticregression__C": [0.001, 0.01, 0.1, 1.0]}
    >>> cv = StratifiedBlockRegularized5x2CV(random_state=0)
    >>> search = GridSearchCV(pipe, grid, cv=cv).fit(X, y)
    >>> result = compare_search(search)
    >>> result.names  # best first
    ['C=1', 'C=0.1', 'C=0.01', 'C=0.001']
    >>> list(result.pairwise)
    ['calibrated_f_5x2bcv']
    >>> result.equivalent_to_best
    ['C=1', 'C=0.1']
    >>> result.params[1], result.candidates
    ({'logisticregression__C': 0.1}, [3, 2, 1, 0])
    """
    results, estimator, cv, refit, scoring, search_best = _unpack(search, cv)
    read = read_cv_results(results, metric=metric, refit=refit, argument="search")
    drawn = study_seed(random_state)  # recorded: a run with None can be repeated
    chosen, notes = _choose(read, candidates)
    chosen_params = [read.params[j] for j in chosen]
    names = candidate_names(chosen_params, labels=chosen)
    control_name = _control(control, names)
    expected = read.scores[:, chosen]
    task = _task(estimator)
    classifier = task == CLASSIFICATION
    if refit_candidates:
        _check_refit(estimator, X, y, read.halving)
        _reproducible(cv)
        store, design, fits = _refit(
            estimator,
            chosen_params,
            names,
            chosen,
            expected,
            X,
            y,
            cv=cv,
            scoring=_scoring_of(scoring, read.metric),
            groups=groups,
            fit_params=params,
            n_jobs=n_jobs,
            random_state=drawn.seed,
        )
        given = None
    else:
        design, _ = _design(cv, read.n_splits, X, y, groups, classifier, read.halving)
        store = ScoreStore(
            expected,
            n_train=design.n_train,
            n_test=design.n_test,
            scoring=_label(read.metric, scoring),
            task=task,
        )
        fits, given = None, "split scores"
    result = compare_stored(
        store,
        design,
        names,
        tests=tests,
        pairwise_tests=pairwise_tests,
        correction=correction,
        control=control_name,
        rope=rope,
        alpha=alpha,
        random_state=drawn.seed,
        fits=fits,
    )
    equivalent, test = _equivalent(result, rope)
    result.update(
        params=chosen_params,
        best_index=int(chosen[0]),
        candidates=[int(j) for j in chosen],
        equivalent_to_best=equivalent,
        equivalent_test=test,
    )
    if callable(refit) and search_best is not None and search_best != read.best:
        notes.append(
            f"the search's own refit chose candidate {int(search_best)}; 'best' "
            f"here is the rank-1 candidate on {read.metric}"
        )
    if _best_declared_better(result):
        notes.append(selection_note(correction))
    result["notes"] = notes
    result["provenance"] = make_provenance(
        cv=describe_cv(cv if cv is not None else 5),
        seed=drawn,
        given=given,
        estimators=None
        if given
        else [
            (name, clone(estimator).set_params(**p))
            for name, p in zip(names, chosen_params)
        ],
    )
    return result


def _best_declared_better(result):
    """Whether a pairwise test declares the best (``names[0]``) better than
    another candidate."""
    best = result.names[0]
    return any(
        better == best
        for pairs in result.verdict.differ_by_test.values()
        for better, _ in pairs
    )


def _check_refit(estimator, X, y, halving):
    if estimator is None:
        raise ValueError(
            "refit_candidates=True fits the candidates again: pass the fitted "
            "search itself (its estimator), not its cv_results_."
        )
    if X is None or y is None:
        raise ValueError(
            "refit_candidates=True fits the candidates again on the search's "
            "splits: pass X and y, the data the search was fitted on."
        )
    if halving:
        raise ValueError(
            "refit_candidates=True cannot redraw the subsamples of a successive-"
            "halving search's iterations; compare it without refitting."
        )


# --------------------------------------------------------------------------
# compare_cross_validate


def _score_key(results, metric):
    """The ``test_<metric>`` key every result holds."""
    keys = [
        {key for key in value if isinstance(key, str) and key.startswith("test_")}
        for _, value in results
    ]
    common = set.intersection(*keys)
    if metric is not None:
        key = metric if metric.startswith("test_") else f"test_{metric}"
        if key not in common:
            raise ValueError(
                f"metric: every result needs {key!r}; the keys they share are "
                f"{sorted(common)}."
            )
        return key
    if "test_score" in common:
        return "test_score"
    if len(common) == 1:
        return next(iter(common))
    raise ValueError(
        "the cross_validate results hold several test scores "
        f"({sorted(common)}); pass metric= to say which to compare."
        if common
        else "the cross_validate results must hold test scores (test_score or "
        "test_<metric>) they all share; got none."
    )


def _cv_results(results):
    pairs = named_items(
        results,
        argument="results",
        expected="the dict cross_validate returned",
        at_least=2,
        too_few="the cross_validate results of at least 2 estimators",
    )
    for name, value in pairs:
        if not isinstance(value, Mapping):
            raise TypeError(
                f"results[{name!r}] must be the dict cross_validate returned; got "
                f"{type(value).__name__}."
            )
    return pairs


def _scores_of(pairs, key):
    columns = []
    for name, value in pairs:
        column = np.asarray(value[key], dtype=float)
        if column.ndim != 1:
            raise ValueError(
                f"results[{name!r}][{key!r}] must be one score per split; got shape "
                f"{column.shape}."
            )
        bad = np.flatnonzero(~np.isfinite(column))
        if bad.size:
            raise ValueError(
                f"results[{name!r}][{key!r}] is {column[bad[0]]} on split "
                f"{bad[0]} (a failed fit); every split needs a score."
            )
        columns.append(column)
    lengths = {column.size for column in columns}
    if len(lengths) != 1:
        raise ValueError(
            "every cross_validate result must have as many splits; got "
            + ", ".join(f"{name}: {c.size}" for (name, _), c in zip(pairs, columns))
            + "."
        )
    return np.column_stack(columns)


def _indices_of(name, value, n_splits):
    indices = value.get("indices")
    if indices is None:
        return None
    try:
        train, test = indices["train"], indices["test"]
    except (KeyError, TypeError):
        raise ValueError(
            f"results[{name!r}]['indices'] must be {{'train': [...], 'test': [...]}} "
            "as cross_validate(..., return_indices=True) returns it."
        ) from None
    if len(train) != n_splits or len(test) != n_splits:
        raise ValueError(
            f"results[{name!r}]['indices'] must hold one train and one test array "
            f"per split ({n_splits})."
        )
    return [(np.asarray(tr), np.asarray(te)) for tr, te in zip(train, test)]


def _shared_splits(pairs, n_splits):
    """The splits of the results that carry ``indices``, checked identical:
    ``(splits or None, names of the results without indices)``."""
    splits, first, unchecked = None, None, []
    for name, value in pairs:
        found = _indices_of(name, value, n_splits)
        if found is None:
            unchecked.append(name)
            continue
        if splits is None:
            splits, first = found, name
            continue
        for i, ((train, test), (train0, test0)) in enumerate(zip(found, splits)):
            if not (np.array_equal(train, train0) and np.array_equal(test, test0)):
                raise ValueError(
                    f"{first!r} and {name!r} were not evaluated on the same splits "
                    f"(split {i} differs): their scores cannot be compared split "
                    "by split. Run cross_validate with the same cv (a splitter with "
                    "a fixed random_state) for every estimator."
                )
    return splits, unchecked


def _rebuilt_predictions(pairs, splits, X, y, key):
    """Per-split predictions of the fitted estimators, their scores checked
    against those cross_validate recorded; ``(predictions, accuracy)``, the
    latter True when every score is the accuracy of the predictions."""
    metric = key.removeprefix("test_")
    scorer = None
    if metric != "score" and metric in get_scorer_names():
        scorer = get_scorer(metric)
    per_estimator, accuracy = [], True
    for name, value in pairs:
        estimators = value["estimator"]
        if len(estimators) != len(splits):
            raise ValueError(
                f"results[{name!r}]['estimator'] must hold one fitted estimator per "
                f"split ({len(splits)})."
            )
        predictions = []
        for i, (fitted, (train, test)) in enumerate(zip(estimators, splits)):
            X_test, y_test = _safe_split(fitted, X, y, test, train)
            predicted = np.asarray(fitted.predict(X_test))
            predictions.append(predicted)
            recorded = float(np.asarray(value[key])[i])
            if metric == "score":
                again = float(fitted.score(X_test, y_test))
            elif scorer is not None:
                again = float(scorer(fitted, X_test, y_test))
            else:
                again = recorded  # a scorer of the user's: nothing to check with
            if not np.isclose(again, recorded, rtol=1e-9, atol=1e-12):
                raise ValueError(
                    f"results[{name!r}]: the fitted estimator of split {i} scores "
                    f"{again!r} on X, y, cross_validate recorded {recorded!r}: X and "
                    "y must be the data cross_validate was given."
                )
            same = y_test.dtype.kind not in "fc" or predicted.dtype.kind not in "fc"
            accuracy = (
                accuracy
                and same
                and np.isclose(
                    accuracy_score(y_test, predicted), recorded, rtol=1e-12, atol=0
                )
            )
        per_estimator.append((f"results[{name!r}]", predictions))
    return per_estimator, bool(accuracy)


def _prediction_store(pairs, splits, X, y, key, scores):
    y = check_target(y)
    labelled, accuracy = _rebuilt_predictions(pairs, splits, X, y, key)
    checked = [
        check_predictions(per_split, splits, label, None)
        for label, per_split in labelled
    ]
    estimators = [value["estimator"][0] for _, value in pairs]
    tasks = {_task(estimator) for estimator in estimators}
    task = tasks.pop() if len(tasks) == 1 else None
    task = check_task(task, y, [p for per_split in checked for p in per_split])
    for (label, _), per_split in zip(labelled, checked):
        check_predictions(per_split, splits, label, task, y=y)
    label = "accuracy" if accuracy and task == CLASSIFICATION else key[5:]
    per_split = [list(row) for row in zip(*checked)]
    fitted = np.empty(scores.shape, dtype=object)
    fitted[...] = scores
    return PredictionStore(
        y, splits, per_split, task, Scoring(label), fitted_scores=fitted
    )


def _times(pairs, name):
    if not all(name in value for _, value in pairs):
        return None
    try:
        return np.column_stack([np.asarray(value[name], float) for _, value in pairs])
    except ValueError:
        return None


@validate_params(
    {
        "results": [dict, list, tuple],
        "X": ["array-like", "sparse matrix", None],
        "y": ["array-like", None],
        "cv": ["cv_object"],
        "metric": [str, None],
        **_SHARED,
        "control": [str, None],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "groups": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def compare_cross_validate(
    results,
    X=None,
    y=None,
    *,
    cv=None,
    metric=None,
    tests=None,
    pairwise_tests=None,
    correction="holm",
    control=None,
    rope=0.0,
    alpha=0.05,
    alternative="two-sided",
    random_state=None,
    groups=None,
):
    """Compare estimators from what ``cross_validate`` returned for each.

    The dicts of :func:`~sklearn.model_selection.cross_validate`, one per
    estimator, evaluated on the same splits of one data set: their per-split
    test scores go through the statistics of :func:`compare_split_scores`.
    When they carry the split indices (``return_indices=True``), the splits
    are checked to be the same for every estimator (a difference names the
    two) and give the design exactly; otherwise ``cv=`` says which splitter
    made them and is trusted (the result says so). With the fitted
    estimators too (``return_estimator=True``) and X, y, their predictions
    are rebuilt (their scores checked against those recorded) and the tests
    of predictions run as well: the McNemar family, Cochran's Q.

    Parameters
    ----------
    results : dict of str to dict
        Estimator name -> the dict ``cross_validate`` returned for it (with
        ``test_score`` or ``test_<metric>``); at least two.
    X, y : array-like, default=None
        The data ``cross_validate`` was given: with ``estimator`` and
        ``indices`` in every result, the predictions are rebuilt; with
        ``cv`` and no indices, the splits are drawn for their exact sizes.
    cv : int, splitter or list of (train, test), default=None
        The splitter ``cross_validate`` was given; needed when the results
        carry no ``indices``.
    metric : str, default=None
        Which ``test_<metric>`` to compare (default ``test_score``, or the
        only test score the results share).
    tests, pairwise_tests, correction, control, rope, alpha, alternative, \
random_state
        As in :func:`compare_split_scores`.
    groups : array-like, default=None
        Group labels of ``cv``, to draw its splits on X.

    Returns
    -------
    result : ManyComparisonResult
        As :func:`compare_split_scores` (with predictions rebuilt, as
        :func:`compare_many_predictions`), plus ``fit_time`` and
        ``score_time`` (n_splits, k) when the results have them, and
        ``notes``.

    See Also
    --------
    compare_search : The candidates of a fitted search.
    compare_many_estimators : Fit the estimators here.

    Examples
    --------
    >>> from sklearn.datasets import load_wine
    >>> from sklearn.model_selection import cross_validate
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bcv import BlockRegularized5x2CV, compare_cross_validate
    >>> X, y = load_wine(return_X_y=True)
    >>> cv = BlockRegularized5x2CV(random_state=0)
    >>> results = {
    ...     name: cross_validate(estimator, X, y, cv=cv, return_indices=True,
    ...                          return_estimator=True)
    ...     for name, estimator in [("bayes", GaussianNB()),
    ...                             ("tree", DecisionTreeClassifier(random_state=0))]}
    >>> result = compare_cross_validate(results, X, y)
    >>> list(result.tests), list(result.pairwise)
    (['bcv_cochran_q'], ['bcv_mcnemar'])
    >>> result.verdict.differ
    [('bayes', 'tree')]
    """
    pairs = _cv_results(results)
    names = [name for name, _ in pairs]
    key = _score_key(pairs, metric)
    scores = _scores_of(pairs, key)
    n_splits = scores.shape[0]
    splits, unchecked = _shared_splits(pairs, n_splits)
    notes = []
    seed = study_seed(random_state)  # recorded: a run with None can be repeated
    if splits is not None and unchecked:
        notes.append(
            f"the splits of {', '.join(unchecked)} could not be checked (no "
            "indices; cross_validate(..., return_indices=True) records them)"
        )
    rebuilt = (
        splits is not None
        and X is not None
        and y is not None
        and not unchecked
        and all("estimator" in value for _, value in pairs)
    )
    if splits is not None:
        n_samples = len(y) if y is not None else records_of(splits)
        splits = check_splits(splits, n_samples)
        design = describe_design(
            splits, n_samples, cv=cv if hasattr(cv, "split") else None
        )
    elif cv is None:
        raise ValueError(
            "the results carry no split indices: pass cv=, the splitter "
            "cross_validate was given (or run it with return_indices=True)."
        )
    else:
        if X is not None and y is not None:
            classifier = _task(_first_estimator(pairs)) == CLASSIFICATION
            splitter = check_cv(cv, np.asarray(y), classifier=classifier)
            drawn = materialise_splits(splitter, X, y, {"groups": groups})
            if len(drawn) != n_splits:
                raise ValueError(
                    f"cv={cv!r} makes {len(drawn)} splits of X, the results have "
                    f"{n_splits}."
                )
            design = describe_design(drawn, len(y), cv=splitter)
        else:
            design = design_of_cv(cv, n_splits)
        notes.append(
            f"the splits are trusted to be those of cv={describe_cv(cv)}: without "
            "indices (cross_validate(..., return_indices=True)) the result cannot "
            "check that every estimator saw the same splits"
        )
    if rebuilt:
        store = _prediction_store(pairs, splits, X, y, key, scores)
    else:
        store = ScoreStore(
            scores,
            n_train=design.n_train,
            n_test=design.n_test,
            scoring=key[5:],
            task=_task(_first_estimator(pairs)),
        )
    result = compare_stored(
        store,
        design,
        names,
        tests=tests,
        pairwise_tests=pairwise_tests,
        correction=correction,
        control=control,
        rope=rope,
        alpha=alpha,
        alternative=alternative,
        random_state=seed.seed,
    )
    fit_time, score_time = _times(pairs, "fit_time"), _times(pairs, "score_time")
    if fit_time is not None and fit_time.shape == scores.shape:
        result["fit_time"] = fit_time
    if score_time is not None and score_time.shape == scores.shape:
        result["score_time"] = score_time
    result["notes"] = notes
    result["provenance"] = make_provenance(
        cv=None if cv is None else describe_cv(cv),
        seed=seed,
        given="predictions" if rebuilt else "split scores",
    )
    return result


def _first_estimator(pairs):
    for _, value in pairs:
        fitted = value.get("estimator")
        if fitted is not None and len(fitted):
            return fitted[0]
    return None
