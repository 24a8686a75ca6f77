"""Sequential m×2 BCV: fit one repetition at a time, stop when it is clear.

:func:`sequential_compare` draws one nested block-regularized design of
``max_repeats`` repetitions, fits the first ``min_repeats`` repetitions in
one joblib pool and then one repetition (its two splits × two estimators)
at a time, and looks at a registered test's statistic after each
repetition (``stats._sequential``). The fits it made are the fits of the
returned ``comparison``, a :class:`ComparisonResult` on the splits used.
"""

from numbers import Integral, Real

import numpy as np

from ._compat import HasMethods, Interval, StrOptions, validate_params
from ._constants import ALTERNATIVES, CLASSIFICATION
from ._engine._design import describe_design
from ._engine._fit import DataSet, FitResults, fit_all, worker_count
from ._engine._needs import PredictionStore
from ._engine._plan import _check_params, plan_tests
from ._engine._prepare import prepare_fits
from ._engine._progress import FitProgress
from ._engine._seeds import study_seed
from ._engine._validation import check_records, check_target, task_of_estimators
from ._results import build_pair_result, estimator_name
from ._results._methods import make_provenance, uses_pandas
from ._results._sequential import SequentialResult
from ._split import (
    BlockRegularizedMx2CV,
    StratifiedBlockRegularizedMx2CV,
    _n_sub_blocks,
)
from .stats._registry import get_entry
from .stats._sequential import (
    BOUNDARIES,
    DECISIONS,
    FUTILITY,
    STOPPED_BY,
    _check_repeats,
    check_boundary,
    check_futility,
    check_rope,
    check_sequential_test,
    first_stop,
    look_statistics,
    sequential_boundaries,
    sequential_codes,
)

__all__ = ["sequential_compare"]


def _test_and_params(test):
    """``"name"`` or ``{"name": {param: value}}`` -> (name, params)."""
    if isinstance(test, dict):
        if len(test) != 1:
            raise ValueError(
                "test must be a test's name or a dict {name: params} of one test; "
                f"got a dict of {len(test)} entries."
            )
        ((name, params),) = test.items()
        if not isinstance(params, dict):
            raise ValueError(
                f"test={{{name!r}: ...}} needs a dict of the test's parameters; "
                f"got {params!r}."
            )
        return name, dict(params)
    return test, {}


def _check_stratify(stratify, task, y, max_repeats):
    """Whether to stratify: "auto" keeps the plain design the BCV tests are
    calibrated on, unless a class has fewer than two records per sub-block
    (a plain half of the data could then miss it)."""
    if stratify == "auto":
        if task != CLASSIFICATION:
            return False
        _, counts = np.unique(y, return_counts=True)
        return bool(counts.min() < 2 * _n_sub_blocks(max_repeats))
    if stratify and task != CLASSIFICATION:
        raise ValueError(
            "stratify=True needs classifiers (class labels to stratify on); "
            "the estimators are regressors."
        )
    return bool(stratify)


def _nested_cv(stratify, n_repeats, max_repeats, random_state):
    """The nested design: its first ``n_repeats`` repetitions of ``max_repeats``."""
    kind = StratifiedBlockRegularizedMx2CV if stratify else BlockRegularizedMx2CV
    return kind(n_repeats=n_repeats, max_repeats=max_repeats, random_state=random_state)


def _check_design_size(n_samples, max_repeats):
    needed = _n_sub_blocks(max_repeats)
    if n_samples < needed:
        raise ValueError(
            f"max_repeats={max_repeats} is too large for {n_samples} records: a "
            f"block-regularized design of {max_repeats} repetitions needs at "
            f"least {needed} records ({needed} sub-blocks); use max_repeats <= "
            f"{(1 << (max(n_samples, 2).bit_length() - 1)) - 1}."
        )


def _merge(parts):
    """One :class:`FitResults` of the splits of several batches, in order."""
    return FitResults(
        predictions=[row for part in parts for row in part.predictions],
        fit_time=np.concatenate([part.fit_time for part in parts]),
        score_time=np.concatenate([part.score_time for part in parts]),
        failed=np.concatenate([part.failed for part in parts]),
        errors=[error for part in parts for error in part.errors],
        scores=None
        if parts[0].scores is None
        else np.concatenate([part.scores for part in parts]),
    )


@validate_params(
    {
        "estimator_a": [HasMethods(["fit", "predict", "get_params"])],
        "estimator_b": [HasMethods(["fit", "predict", "get_params"])],
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "test": [str, dict],
        "min_repeats": [Interval(Integral, 1, None, closed="left")],
        "max_repeats": [Interval(Integral, 1, None, closed="left")],
        "boundary": [StrOptions(set(BOUNDARIES))],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "rope": [Interval(Real, 0, None, closed="left")],
        "futility": [StrOptions(set(FUTILITY)), None],
        "futility_threshold": [Interval(Real, 0, 1, closed="left")],
        "scoring": [str, callable, None],
        "stratify": [StrOptions({"auto"}), "boolean"],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=False,  # the estimators are not validated yet
)
def sequential_compare(
    estimator_a,
    estimator_b,
    X,
    y,
    *,
    test="bcv_mcnemar",
    min_repeats=3,
    max_repeats=7,
    boundary="obrien_fleming",
    alpha=0.05,
    alternative="two-sided",
    rope=0.0,
    futility="conditional_power",
    futility_threshold=0.1,
    scoring=None,
    stratify="auto",
    n_jobs=None,
    verbose=0,
    random_state=None,
):
    """Compare two estimators on a sequential m×2 BCV: stop fitting when clear.

    One nested block-regularized design of ``max_repeats`` repetitions is
    drawn; its first ``min_repeats`` repetitions are fitted, then one more
    repetition (two splits × two estimators, in parallel) at a time. After
    each repetition the test's statistic on the repetitions so far is
    compared with a group-sequential boundary, and fitting stops at the first
    crossing. The overall type I error is ``alpha`` under Yang et al.'s
    variance model, however many looks are taken.

    Parameters
    ----------
    estimator_a, estimator_b : estimator objects implementing fit and predict
        The two learning algorithms, both classifiers or both regressors;
        cloned for every fit.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        The data.
    y : array-like of shape (n_samples,)
        The target.
    test : str or dict, default="bcv_mcnemar"
        The statistic looked at: ``"bcv_mcnemar"`` (classifiers, accuracy:
        the signed root of the effective-table McNemar statistic) or
        ``"bcv_t"`` (the mean score difference under the BCV variance model,
        for any ``scoring``, regression included). ``{name: {"rho1": ...,
        "rho2": ...}}`` sets the test's correlations, which also set the
        boundaries.
    min_repeats : int, default=3
        The first look, in repetitions of 2-fold CV.
    max_repeats : int, default=7
        The last look. Every design with the same ``random_state`` is a
        prefix of this one, so with ``max_repeats <= 7`` the first five
        repetitions are the paper's 5×2 BCV. At most 50 (the boundaries over
        more looks take minutes to compute).
    boundary : {"obrien_fleming", "pocock"}, default="obrien_fleming"
        O'Brien and Fleming's boundary (wide at the first looks, near the
        fixed-design critical value at the last) or Pocock's constant one
        (stops earlier on large differences, at some cost at the last look).
    alpha : float, default=0.05
        Overall significance level.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: stop only for "A better" (one-sided boundary);
        ``"less"``: only for "B better".
    rope : float, default=0.0
        Region of practical equivalence, in units of the score difference
        (accuracy for ``bcv_mcnemar``). When positive, fitting also stops
        with "no difference" as soon as the ``(1 - alpha)`` interval of the
        mean difference lies inside ``[-rope, rope]`` (``stopped_by`` is
        ``"rope"``; a futility stop, which can only lower the type I error).
    futility : "conditional_power" or None, default="conditional_power"
        A non-binding futility stop: before the last look, stop with "no
        difference" (``stopped_by`` ``"futility"``) when the conditional
        power under the
        current trend (the chance that the last look crosses its boundary
        if the difference is the one seen so far) is below
        ``futility_threshold``. The boundaries do not change, so the type
        I error can only fall. None: no futility stop (the design goes on
        to ``max_repeats`` unless a boundary is crossed or the rope's rule
        stops it).
    futility_threshold : float in [0, 1), default=0.1
        The conditional power below which ``futility`` stops.
    scoring : str, callable or None, default=None
        Score of one split for ``bcv_t`` and for ``comparison`` (as in
        :func:`compare_estimators`); ``bcv_mcnemar`` looks at accuracy.
    stratify : "auto" or bool, default="auto"
        Whether to stratify the splits on the class labels
        (:class:`StratifiedBlockRegularizedMx2CV`). ``"auto"`` uses the
        plain :class:`BlockRegularizedMx2CV`, on which the BCV tests are
        calibrated (stratification changes the correlations they assume),
        unless a class has fewer than two records per sub-block (fewer than
        16 for ``max_repeats <= 7``): then a plain half of the data could
        miss it, and the splits are stratified.
    n_jobs : int, default=None
        Number of jobs fitting in parallel (at most the 4 fits of one
        repetition, ``4 * min_repeats`` at the first look).
    verbose : int, default=0
        ``> 0`` shows a progress bar on stderr (fits done of the most the
        design may need, elapsed and remaining time; tqdm's when it is
        installed) and prints each look's statistic and boundary; ``> 1``
        also one line per fit.
    random_state : int, RandomState instance or None, default=None
        Seeds the splits. Estimators keep their own ``random_state``.

    Returns
    -------
    result : SequentialResult
        A :class:`~sklearn.utils.Bunch` with

        decision : str
            ``"A better"``, ``"B better"``, ``"no difference"`` (the rope's
            equivalence stop or the conditional-power futility stop) or
            ``"undecided"`` (``max_repeats`` reached without crossing).
        stopped_by : str
            Why the design stopped: ``"boundary"`` (the statistic crossed
            one: "A better" or "B better"), ``"rope"`` (the interval lies
            inside the rope), ``"futility"`` (crossing had become
            unlikely) or ``"max_repeats"`` (the last look, crossing
            nothing: "undecided").
        n_repeats, min_repeats, max_repeats : int
            Repetitions fitted (m at the stop) and the looks' range.
        trace : Bunch
            One entry per look taken: ``repeats``, ``statistic``, ``lower``,
            ``upper`` (the boundaries in the statistic's scale),
            ``estimate`` and ``low``/``high`` (the mean difference and its
            unadjusted ``(1 - alpha)`` interval), ``conditional_power``
            (under the current trend; at the last look 1 if it crossed, else
            0) and ``decision`` (the codes of
            :data:`~sklearn_bcv.stats._sequential.DECISIONS`: 0 go on, 1 and
            -1 a boundary crossed, 2 the rope, 3 futility).
        boundaries : Bunch
            ``repeats``, ``lower``, ``upper`` at every possible look (also
            those not taken), ``nominal_alpha``, ``constant`` and the
            model's ``variance_factor`` (see
            :func:`~sklearn_bcv.stats.group_sequential_boundaries`).
        n_fits, n_fits_saved : int
            Fits made, and fits a fixed design of ``max_repeats``
            repetitions would have made on top.
        comparison : ComparisonResult
            :func:`compare_estimators`' result on the splits used, from the
            same fits; its p-values are those of a fixed design and are not
            sequentially adjusted (``comparison.sequentially_adjusted`` is
            False).
        cv : BlockRegularizedMx2CV or StratifiedBlockRegularizedMx2CV
            The splitter of the splits used (``n_repeats`` at the stop,
            ``max_repeats``): ``compare_estimators(..., cv=result.cv)``
            refits the same splits.
        estimate, confidence_interval : float, tuple
            The mean difference A - B at the stop (accuracy for
            ``bcv_mcnemar``) and its unadjusted two-sided ``(1 - alpha)``
            interval (whatever ``alternative``: the rope's rule reads it).
        test, boundary, alpha, alternative, rope, futility, \
futility_threshold : the settings used (``futility_threshold`` is None
            without a futility rule).

    See Also
    --------
    compare_estimators : A fixed design.
    SequentialDisplay : The statistic's path against the boundaries.
    sklearn_bcv.stats.group_sequential_boundaries : The boundaries.

    Notes
    -----
    Look m uses the first m repetitions of the nested design. Under seed
    000's model the mean difference over m repetitions has variance
    ``sigma**2·V_m``, ``V_m = (1 + rho1 + 2(m - 1)·rho2) / (2m)``, and the
    standardised look statistics are jointly normal with
    ``corr(z_m, z_m') = sqrt(V_m' / V_m)`` for ``m <= m'``; the boundaries
    keep the probability that any look crosses at ``alpha`` under that
    law. ``bcv_t`` is referred to Student's t with ``2m - 1`` degrees of
    freedom at the nominal level of each look, the constant calibrated on a
    seeded simulation of the model, since its looks' variance estimates
    make them less correlated than that normal law (see
    :func:`~sklearn_bcv.stats.group_sequential_boundaries`, ``statistic``).
    Identical predictions give
    a statistic of 0 at every look: never "A better" nor "B better".

    The futility rule follows Jennison and Turnbull (2000, §10.2): with
    information ``I_m = 1 / V_m`` and the current trend
    ``theta_hat = z_m / sqrt(I_m)``, the last look's statistic given
    ``z_m`` is normal with mean ``z_m·sqrt(I_M / I_m)`` and variance
    ``1 - I_m / I_M``; the conditional power is its probability beyond
    ``±c_M`` (see :func:`~sklearn_bcv.stats._sequential.conditional_power`;
    ``bcv_t``'s statistic is read on the normal scale of its boundaries).
    ``V_m`` is the boundaries' model with ``rho2`` at most 0.2 (the
    boundaries' 0.5 makes the looks more correlated than measured with
    real learners and lost power; ``I_3 / I_7 = 117/161`` for the
    defaults). A crossing wins over the rope's rule, which wins over the
    futility rule at the same look. Most null comparisons stop at the
    first look.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_bcv import sequential_compare
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> result = sequential_compare(
    ...     make_pipeline(StandardScaler(), LogisticRegression()),
    ...     DummyClassifier(), X, y, random_state=0)
    >>> result.decision, result.n_repeats, result.n_fits, result.n_fits_saved
    ('A better', 3, 12, 16)
    >>> result.stopped_by
    'boundary'
    """
    name, params = _test_and_params(test)
    form = check_sequential_test(name)
    for reserved in ("alpha", "alternative"):
        if reserved in params:
            raise ValueError(
                f"test[{name!r}] cannot set {reserved}: pass {reserved}= to "
                "sequential_compare (it sets the boundaries)."
            )
    _check_params(get_entry(name), params, "test")
    min_repeats, max_repeats = _check_repeats(min_repeats, max_repeats)
    check_boundary(boundary)
    rope = check_rope(rope)
    threshold = check_futility(futility, futility_threshold)
    worker_count(n_jobs, 1)  # n_jobs checked before any fit

    estimators = [("estimator_a", estimator_a), ("estimator_b", estimator_b)]
    y_checked = check_target(y)
    n_samples = check_records(X, y_checked, None)
    task = task_of_estimators(estimators, y_checked)
    if form.needs == "tables" and task != CLASSIFICATION:
        raise ValueError(
            f"test={name!r} compares classifiers (contingency tables); the "
            "estimators are regressors: use test='bcv_t'."
        )
    _check_design_size(n_samples, max_repeats)
    stratify = _check_stratify(stratify, task, y_checked, max_repeats)
    seed = study_seed(random_state)  # recorded: a run with None can be repeated
    random_state = seed.seed
    cv = _nested_cv(stratify, max_repeats, max_repeats, random_state)
    prepared = prepare_fits(
        estimators,
        X,
        y,
        cv=cv,
        scoring=scoring,
        groups=None,
        params=None,
        random_state=random_state,
        owner="sequential_compare",
    )
    # The boundaries (seconds to minutes for many looks) only after every
    # cheap check (scoring, stratify, the estimators) has passed.
    form, bounds, lower, upper = sequential_boundaries(
        name,
        min_repeats,
        max_repeats,
        boundary=boundary,
        alpha=alpha,
        alternative=alternative,
        params=params,
    )
    scorer = prepared.scoring.scorer if prepared.scoring.needs_estimator else None
    labels = [("A", estimator_a, {}), ("B", estimator_b, {})]

    parts, looks, codes, repeats = [], [], [], min_repeats
    fitted = 0
    # The bar counts the fits of every look against the most the design may
    # need; the looks' lines are written through it so they do not break it.
    progress = None
    if verbose > 0:
        progress = FitProgress(
            [("", 4 * max_repeats)], label="sequential", at_most=True
        )
    try:
        while True:
            batch = prepared.splits[2 * fitted : 2 * repeats]
            if verbose > 1:
                progress.write(
                    f"Fitting repetitions {fitted + 1}-{repeats}: {2 * len(batch)} fits"
                )
            parts += fit_all(
                [DataSet(prepared.X, prepared.y, batch, labels, scorer=scorer)],
                n_jobs=n_jobs,
                verbose=verbose,
                progress=progress,
            )
            fitted = repeats
            store = PredictionStore.of_fits(
                prepared.y,
                prepared.splits[: 2 * repeats],
                _merge(parts),
                prepared.task,
                prepared.scoring,
                "raise",
                [("A", estimator_a), ("B", estimator_b)],
            )
            values = store.pair_needs(0, 1, only=(form.needs,))[form.needs]
            look = look_statistics(form, values, [repeats], alpha=alpha, params=params)
            power, code = sequential_codes(
                form,
                look,
                bounds,
                lower,
                upper,
                repeats=[repeats],
                rope=rope,
                futility_threshold=threshold,
            )
            index = repeats - min_repeats
            look["conditional_power"] = power
            looks.append(look)
            codes.append(code)
            if verbose > 0:
                progress.write(
                    f"Look {repeats}: statistic {float(look.statistic[0]):.3f}, "
                    f"boundaries [{lower[index]:.3f}, {upper[index]:.3f}], "
                    f"conditional power {float(power[0]):.3f} -> "
                    + (
                        f"{DECISIONS[int(code[0])]} "
                        f"(stopped by {STOPPED_BY[int(code[0])]})"
                        if code[0]
                        else "continue"
                    )
                )
            if code[0] != 0 or repeats == max_repeats:
                if progress is not None and repeats < max_repeats:
                    progress.stop_early()
                break
            repeats += 1

    finally:
        if progress is not None:
            progress.close()
    _, decision = first_stop(np.concatenate(codes))
    used_cv = _nested_cv(stratify, repeats, max_repeats, random_state)
    design = describe_design(prepared.splits[: 2 * repeats], n_samples, cv=used_cv)
    plan, skipped = plan_tests(None, design, task, alternative=alternative)
    comparison = build_pair_result(
        store,
        0,
        1,
        design=design,
        plan=plan,
        skipped=skipped,
        alpha=alpha,
        alternative=alternative,
        fits=_merge(parts),
        estimator_names=(estimator_name(estimator_a), estimator_name(estimator_b)),
    )
    comparison["sequentially_adjusted"] = False
    comparison["provenance"] = make_provenance(
        estimators=[("A", estimator_a), ("B", estimator_b)],
        cv=used_cv,
        seed=seed,
        pandas=uses_pandas(X, y),
    )
    taken = slice(0, repeats - min_repeats + 1)
    trace = {
        "repeats": bounds.repeats[taken],
        "statistic": np.concatenate([look.statistic for look in looks]),
        "lower": lower[taken],
        "upper": upper[taken],
        "estimate": np.concatenate([look.estimate for look in looks]),
        "low": np.concatenate([look.low for look in looks]),
        "high": np.concatenate([look.high for look in looks]),
        "conditional_power": np.concatenate([look.conditional_power for look in looks]),
        "decision": np.concatenate(codes),
    }
    return SequentialResult.build(
        decision=DECISIONS[int(decision)],
        stopped_by=STOPPED_BY[int(decision)],
        n_repeats=repeats,
        min_repeats=min_repeats,
        max_repeats=max_repeats,
        trace=trace,
        bounds=bounds,
        lower=lower,
        upper=upper,
        comparison=comparison,
        test=name,
        test_params=params,
        rope=rope,
        futility=futility,
        futility_threshold=threshold,
        statistic_reference="t" if form.t_reference else "normal",
        cv=used_cv,
        provenance=comparison.provenance,
    )
