"""Type I error, power and fits of the sequential m×2 BCV tests.

:func:`simulate_sequential` runs the group-sequential m×2 BCV tests of
:func:`sklearn_bcv.sequential_compare` on Yang et al.'s setups, side by side
with the fixed-design BCV McNemar tests and the Bayesian m×2 BCV McNemar
test, all read from the same splits of one nested block-regularized design
per replication:

* ``"epsilon"``: Dietterich's epsilon loss vectors (Yang et al. 2023, §5.2), split
  as :func:`~sklearn_bcv.simulation.simulate_loss_vectors` splits them
  (vectorised, no learner). Every record's loss is fixed whatever the
  training set, so the two tables of a repetition always add up to the
  same table and the mean table is the same at every look: the statistic's
  path is almost fixed, a sanity check only;
* ``"simple"``: Yang et al.'s simple data set
  (:func:`~sklearn_bcv.datasets.make_simple`) with its two real learners,
  unpenalised logistic regression and the majority class
  (:func:`~sklearn_bcv.simulation._paper.simple_learners`); ``delta = 0``
  is the null, ``delta > 0`` the power setups of Figure 4.

Per replication the ``2 * max_repeats`` splits are fitted once; the tables
and accuracy differences of those fits feed every procedure. The decisions
are reached through the functions :func:`~sklearn_bcv.sequential_compare`
uses (``stats._sequential``: :func:`look_statistics`,
:func:`sequential_codes`, :func:`first_stop`), vectorised over the
replications, so the simulation and one comparison share one path.
"""

import time
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import clone
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.parallel import Parallel, delayed

from .._compat import Interval, StrOptions, validate_params
from .._constants import ALTERNATIVES
from .._engine._fit import worker_count
from .._sequential import _check_design_size
from .._split import BlockRegularizedMx2CV
from ..datasets import make_epsilon_losses, make_simple
from ..stats._registry import get_test
from ..stats._sequential import (
    BOUNDARIES,
    FUTILITY,
    SEQUENTIAL_TESTS,
    _check_repeats,
    check_futility,
    first_stop,
    group_sequential_boundaries,
    look_statistics,
    sequential_boundaries,
    sequential_codes,
)
from ._checks import (
    MAX_RECORDS,
    MORE_ONLY_COSTS_TIME,
    check_experiments,
    check_grid,
)
from ._losses import simulate_loss_vectors
from ._paper import format_text_table, simple_learners
from ._result import rejection_rate_interval

__all__ = ["SequentialSimulationResult", "simulate_sequential"]

#: The setups of :func:`simulate_sequential`.
SETUPS = ("epsilon", "simple")
#: The fixed design the Bayesian test and the agreement column refer to.
_REFERENCE_REPEATS = 5
_SEED_BOUND = np.iinfo(np.int32).max
#: Replications of the simple setup per joblib task (about 0.5 s at n=1000).
_BATCH = 40
#: Most loss values the epsilon setup draws at once (n_repetitions ×
#: n_samples float64 uniforms: 800 MB).
_MAX_EPSILON_DRAWS = 10**8


# --------------------------------------------------------------------------
# Tables and differences of one replication of the simple setup
# --------------------------------------------------------------------------


def majority_predictions(y_train, n_test):
    """What ``DummyClassifier(strategy="most_frequent")`` fitted on
    ``y_train`` (labels 0/1) predicts for ``n_test`` records: the most
    frequent class, the smaller label on a tie."""
    ones = int(np.count_nonzero(y_train))
    label = 1 if ones > y_train.size - ones else 0
    return np.full(n_test, label, dtype=np.int64)


def _split_needs(correct_a, correct_b):
    """Contingency table (``table[i, j]``: A's correctness i, B's j) and the
    accuracy difference A - B of one split, as the engine computes them."""
    table = np.array(
        [
            [np.sum(~correct_a & ~correct_b), np.sum(~correct_a & correct_b)],
            [np.sum(correct_a & ~correct_b), np.sum(correct_a & correct_b)],
        ],
        dtype=np.int64,
    )
    return table, correct_a.mean() - correct_b.mean()


def _simple_batch(n_samples, delta, seeds, max_repeats):
    """Tables ``(b, 2M, 2, 2)`` and differences ``(b, 2M)`` of replications
    ``seeds`` (``(b, 2)``: data and split seeds) of the simple setup."""
    logistic, _ = simple_learners()
    n_splits = 2 * max_repeats
    tables = np.empty((len(seeds), n_splits, 2, 2), dtype=np.int64)
    differences = np.empty((len(seeds), n_splits))
    for r, (data_seed, cv_seed) in enumerate(seeds):
        X, y = make_simple(n_samples, delta=delta, random_state=int(data_seed))
        cv = BlockRegularizedMx2CV(n_repeats=max_repeats, random_state=int(cv_seed))
        for k, (train, test) in enumerate(cv.split(X)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an unlucky split's convergence
                predicted = clone(logistic).fit(X[train], y[train]).predict(X[test])
            correct_a = predicted == y[test]
            correct_b = majority_predictions(y[train], test.size) == y[test]
            tables[r, k], differences[r, k] = _split_needs(correct_a, correct_b)
    return tables, differences


def _simple_needs(n_samples, delta, seeds, max_repeats, n_jobs):
    batches = [seeds[i : i + _BATCH] for i in range(0, len(seeds), _BATCH)]
    outputs = Parallel(n_jobs=worker_count(n_jobs, len(batches)))(
        delayed(_simple_batch)(n_samples, delta, batch, max_repeats)
        for batch in batches
    )
    return (
        np.concatenate([tables for tables, _ in outputs]),
        np.concatenate([differences for _, differences in outputs]),
    )


def _epsilon_needs(n_samples, epsilon, n_repetitions, seeds, max_repeats):
    """Tables and differences of the epsilon loss vectors, split by the
    nested design as :func:`simulate_loss_vectors` splits them."""
    loss_a, loss_b = make_epsilon_losses(
        n_samples, epsilon=epsilon, n_datasets=n_repetitions, random_state=seeds[0]
    )
    result = simulate_loss_vectors(
        loss_a,
        loss_b,
        BlockRegularizedMx2CV(n_repeats=max_repeats, random_state=seeds[1]),
        tests=["bcv_mcnemar"],
        random_state=seeds[2],
    )
    return result.tables, result.differences


# --------------------------------------------------------------------------
# The procedures, vectorised over the replications
# --------------------------------------------------------------------------


def _codes(result):
    """Decision codes (1 A better, -1 B better, 0 none) of a fixed test."""
    reject = np.asarray(result.reject, dtype=bool)
    return np.where(reject, np.where(np.asarray(result.z) > 0, 1, -1), 0)


def sequential_decisions(
    test,
    values,
    *,
    min_repeats,
    max_repeats,
    boundary,
    alpha,
    alternative,
    futility_threshold=None,
):
    """Decision codes and repetitions at the stop of ``test``'s sequential
    form on every replication, as :func:`sklearn_bcv.sequential_compare`
    reaches them (same boundaries, look statistics and stopping rule).

    ``values`` holds the test's needs over the whole design, a leading
    replication axis first: tables ``(R, 2M, 2, 2)`` or differences
    ``(R, 2M)``. ``futility_threshold`` (None: no futility stop) is the
    conditional power below which a look stops for futility (code 3).
    Returns ``(codes, repeats)``, two int arrays ``(R,)``.
    """
    form, bounds, lower, upper = sequential_boundaries(
        test,
        min_repeats,
        max_repeats,
        boundary=boundary,
        alpha=alpha,
        alternative=alternative,
    )
    looks = look_statistics(form, values, bounds.repeats, alpha=alpha, params={})
    _, codes = sequential_codes(
        form, looks, bounds, lower, upper, futility_threshold=futility_threshold
    )
    index, decision = first_stop(codes)
    return decision.astype(np.int64), bounds.repeats[index]


def _procedure_name(test, boundary, futility_threshold):
    """``"sequential bcv_t (pocock)"``, with ``", futility"`` when the
    conditional-power futility stop is on."""
    futility = "" if futility_threshold is None else ", futility"
    return f"sequential {test} ({boundary}{futility})"


def fixed_designs(max_repeats):
    """The fixed m×2 BCV McNemar designs compared: 5×2 (when it fits in the
    nested design) and ``max_repeats``×2."""
    return sorted({min(_REFERENCE_REPEATS, max_repeats), max_repeats})


def _procedures(tables, differences, *, tests, boundaries, settings):
    """``{procedure: (codes, repeats, extra)}`` of every procedure."""
    min_repeats, max_repeats = settings["min_repeats"], settings["max_repeats"]
    alpha, alternative = settings["alpha"], settings["alternative"]
    n_repetitions = tables.shape[0]
    out = {}
    for test in tests:
        values = tables if SEQUENTIAL_TESTS[test].needs == "tables" else differences
        for boundary in boundaries:
            for threshold in settings.get("futility_thresholds", (None,)):
                codes, repeats = sequential_decisions(
                    test,
                    values,
                    min_repeats=min_repeats,
                    max_repeats=max_repeats,
                    boundary=boundary,
                    alpha=alpha,
                    alternative=alternative,
                    futility_threshold=threshold,
                )
                name = _procedure_name(test, boundary, threshold)
                out[name] = (codes, repeats, {})
    mcnemar = get_test("bcv_mcnemar")
    reference = None
    for m in fixed_designs(max_repeats):
        result = mcnemar(
            tables=tables[:, : 2 * m], alpha=alpha, alternative=alternative
        )
        codes = _codes(result)
        if reference is None:
            reference = (m, codes)
        out[f"fixed bcv_mcnemar {m}×2"] = (codes, np.full(n_repetitions, m), {})
    m, reference_codes = reference
    bayes = get_test("bayesian_bcv_mcnemar")(
        tables=tables[:, : 2 * m], alpha=alpha, alternative=alternative
    )
    p_a, p_b = np.asarray(bayes.p_a_better), np.asarray(bayes.p_b_better)
    reject = np.asarray(bayes.reject, dtype=bool)
    codes = np.where(reject, np.where(p_a > p_b, 1, -1), 0)
    extra = {"p_a_better": p_a, "p_b_better": p_b}
    out[f"bayesian_bcv_mcnemar {m}×2"] = (codes, np.full(n_repetitions, m), extra)
    return out, reference_codes


def _row(setup, n_samples, delta, name, codes, repeats, reference, settings):
    n_repetitions = codes.size
    n_rejections = int(np.count_nonzero(np.abs(codes) == 1))
    low, high = rejection_rate_interval(n_rejections, n_repetitions)
    asn = float(np.mean(repeats))
    return {
        "setup": setup,
        "n_samples": n_samples,
        "delta": delta,
        "procedure": name,
        "n_repetitions": n_repetitions,
        "n_rejections": n_rejections,
        "rate": n_rejections / n_repetitions,
        "ci_low": low,
        "ci_high": high,
        "a_better": float(np.mean(codes == 1)),
        "b_better": float(np.mean(codes == -1)),
        "futility": float(np.mean(codes == 3)),
        "asn": asn,
        "mean_fits": 4.0 * asn,
        "fits_saved": 4.0 * (settings["max_repeats"] - asn),
        "agreement": float(np.mean(codes == reference)),
    }


# --------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------


class SequentialSimulationResult(Bunch):
    """Rejection rates, mean repetitions and fits of the sequential m×2 BCV
    tests and their fixed-design and Bayesian counterparts.

    Returned by :func:`simulate_sequential`. ``rows`` holds one dict per
    (n, delta, procedure); :meth:`to_frame` gives them as a DataFrame and
    printing the result shows them as a table. ``decisions[(n, delta)]``
    and ``repeats[(n, delta)]`` map each procedure to the decision codes
    (1 "A better", -1 "B better", 0 none) and the repetitions fitted at the
    stop of every replication; ``p_a_better`` / ``p_b_better[(n, delta)]``
    the Bayesian test's posterior probabilities.
    """

    def to_frame(self):
        """The rows as a :class:`pandas.DataFrame` (needs pandas).

        Columns: ``setup``, ``n_samples``, ``delta`` (None for the epsilon
        setup), ``procedure``, ``n_repetitions``, ``n_rejections``, ``rate``
        and its 95% Wilson interval ``ci_low``, ``ci_high``, ``a_better``
        and ``b_better`` (rates of each decision), ``futility`` (rate of
        the futility stop, 0 without it), ``asn`` (mean number of
        repetitions fitted), ``mean_fits`` (4 fits per repetition),
        ``fits_saved`` (against a fixed ``max_repeats``×2 design) and
        ``agreement`` (share of replications whose decision is that of
        the fixed 5×2 BCV McNemar test).

        Returns
        -------
        frame : pandas.DataFrame
        """
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - depends on the machine
            raise ImportError("to_frame needs pandas: pip install pandas") from exc
        return pd.DataFrame(self.rows)

    def to_text(self, *, rst=False, digits=3):
        """The rows as a table: rate [95% interval], the rates of "A better"
        and "B better", ASN, mean fits, fits saved and agreement."""
        header = [
            "n",
            "delta",
            "procedure",
            "rate [95% CI]",
            "A better",
            "B better",
            "futile",
            "ASN",
            "fits",
            "saved",
            "agree",
        ]
        lines = []
        for row in self.rows:
            delta = "-" if row["delta"] is None else f"{row['delta']:g}"
            lines.append(
                [
                    str(row["n_samples"]),
                    delta,
                    row["procedure"],
                    f"{row['rate']:.{digits}f} [{row['ci_low']:.{digits}f}, "
                    f"{row['ci_high']:.{digits}f}]",
                    f"{row['a_better']:.{digits}f}",
                    f"{row['b_better']:.{digits}f}",
                    f"{row['futility']:.{digits}f}",
                    f"{row['asn']:.2f}",
                    f"{row['mean_fits']:.1f}",
                    f"{row['fits_saved']:.1f}",
                    f"{row['agreement']:.{digits}f}",
                ]
            )
        table = format_text_table(header, lines, rst=rst)
        if rst:
            return table
        return (
            f"Sequential m×2 BCV on the {self.setup} setup: {self.n_repetitions} "
            f"replications per cell, looks at m = {self.min_repeats}..."
            f"{self.max_repeats}, alpha = {self.alpha:g}, {self.alternative}\n"
            f"{table}"
        )

    def __repr__(self):
        return self.to_text()

    __str__ = __repr__


# --------------------------------------------------------------------------
# The runner
# --------------------------------------------------------------------------


def _check_names(values, allowed, name):
    values = (values,) if isinstance(values, str) else tuple(values)
    if not values:
        raise ValueError(f"{name} must name at least one of {list(allowed)}.")
    for value in values:
        if value not in allowed:
            raise ValueError(f"{name} must be among {list(allowed)}; got {value!r}.")
    if len(set(values)) < len(values):
        raise ValueError(f"{name} must name each one once; got {list(values)}.")
    return values


@validate_params(
    {
        "setup": [StrOptions(set(SETUPS))],
        "delta": [Interval(Real, 0, None, closed="left"), list, tuple],
        "min_repeats": [Interval(Integral, 1, None, closed="left")],
        "max_repeats": [Interval(Integral, 1, None, closed="left")],
        "tests": [str, list, tuple],
        "boundaries": [str, list, tuple],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "alternative": [StrOptions(set(ALTERNATIVES))],
        "futility": [StrOptions(set(FUTILITY)), None],
        "futility_threshold": [Interval(Real, 0, 1, closed="left")],
        "epsilon": [Interval(Real, 0, 2 / 3, closed="both")],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def simulate_sequential(
    setup="simple",
    n_samples=1000,
    delta=0.0,
    *,
    n_repetitions=1000,
    min_repeats=3,
    max_repeats=7,
    tests=("bcv_mcnemar", "bcv_t"),
    boundaries=("pocock", "obrien_fleming"),
    alpha=0.05,
    alternative="two-sided",
    futility=None,
    futility_threshold=0.1,
    epsilon=0.1,
    n_jobs=None,
    verbose=0,
    random_state=None,
):
    """Type I error, power and fits of the sequential m×2 BCV tests.

    Every replication draws a data set and one nested block-regularized
    design of ``max_repeats`` repetitions
    (:class:`~sklearn_bcv.BlockRegularizedMx2CV`), fits it once, and reads
    from the same ``2 * max_repeats`` splits:

    * the sequential tests of :func:`~sklearn_bcv.sequential_compare`, for
      each of ``tests`` (``"bcv_mcnemar"`` on the tables, ``"bcv_t"`` on
      the accuracy differences) and each of ``boundaries``, with looks at
      ``min_repeats, ..., max_repeats``: the decision and the repetitions
      fitted at the stop;
    * the fixed-design :func:`~sklearn_bcv.stats.bcv_mcnemar` on the first
      5 repetitions (the 5×2 BCV, the prefix of the nested design) and on
      all ``max_repeats``;
    * :func:`~sklearn_bcv.stats.bayesian_bcv_mcnemar` on the 5×2 BCV: how
      often ``p_a_better`` or ``p_b_better`` exceeds ``1 - alpha`` and how
      often its decision is the fixed 5×2 test's.

    Parameters
    ----------
    setup : {"simple", "epsilon"}, default="simple"
        ``"simple"``: :func:`~sklearn_bcv.datasets.make_simple` data with
        unpenalised logistic regression as A and the majority class as B
        (Yang et al.'s simple data set; ``delta = 0`` is the null).
        ``"epsilon"``: Dietterich's epsilon loss vectors
        (:func:`~sklearn_bcv.datasets.make_epsilon_losses`, a null setup
        without learners; each record's loss is fixed whatever the split,
        so the statistic's path is almost fixed: a sanity check only).
    n_samples : int or sequence of int, default=1000
        Records per data set; at least the ``2**k`` sub-blocks of
        ``max_repeats`` repetitions (8 for ``max_repeats <= 7``), at most
        100,000 (every replication refits on them).
    delta : float or sequence of float, default=0.0
        The simple setup's mean of the predictor in class 1; one row per
        (``n_samples``, ``delta``). The epsilon setup takes only 0.
    n_repetitions : int, default=1000
        Replications per (``n_samples``, ``delta``), at most 100,000; the
        epsilon setup draws all of them at once, so there ``n_repetitions
        × n_samples`` is at most 10**8 (800 MB of random draws). Larger
        sizes are refused before any work.
    min_repeats, max_repeats : int, default=3, 7
        The sequential tests' first and last looks.
    tests : str or sequence of str, default=("bcv_mcnemar", "bcv_t")
        The sequential tests (names with a sequential form).
    boundaries : str or sequence of str, default=("pocock", "obrien_fleming")
        The group-sequential boundaries.
    alpha : float, default=0.05
        Overall level of every procedure (the Bayesian test decides when a
        posterior probability exceeds ``1 - alpha``).
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        Passed to every procedure; ``"greater"`` stops only for "A better".
    futility : "conditional_power" or None, default=None
        ``"conditional_power"`` adds, next to each sequential test without
        a futility stop, the same test with
        :func:`~sklearn_bcv.sequential_compare`'s conditional-power futility
        stop (procedure ``"sequential <test> (<boundary>, futility)"``), on
        the same splits.
    futility_threshold : float in [0, 1), default=0.1
        The conditional power below which the futility stop stops.
    epsilon : float, default=0.1
        Error rate of both algorithms in the epsilon setup.
    n_jobs : int, default=None
        Joblib workers fitting the simple setup's replications (batches of
        40); the epsilon setup is vectorised in the calling process.
    verbose : int, default=0
        Print each cell's time when > 0.
    random_state : int, RandomState instance or None, default=None
        Every seed is drawn from it in the calling process (a data seed and
        a split seed per replication, shared by all the cells: common
        random numbers), so the result does not depend on ``n_jobs``.

    Returns
    -------
    result : SequentialSimulationResult
        A :class:`~sklearn.utils.Bunch` with ``rows`` (one dict per cell and
        procedure, see :meth:`SequentialSimulationResult.to_frame`),
        ``decisions``, ``repeats``, ``p_a_better``, ``p_b_better`` (per
        cell ``(n_samples, delta)``), ``seeds``, ``elapsed`` (seconds per
        cell) and the settings.

    See Also
    --------
    sklearn_bcv.sequential_compare : One sequential comparison.
    sklearn_bcv.stats.group_sequential_boundaries : The boundaries.
    simulate_loss_vectors : The fixed designs on loss vectors.

    Notes
    -----
    A procedure "rejects" when it decides "A better" or "B better"; its
    rate is a type I error under the null setups and a power otherwise,
    with a 95% Wilson interval (:func:`rejection_rate_interval`). ASN is
    the mean number of repetitions fitted (the stop of a sequential test,
    m of a fixed one); a repetition is 4 fits (2 splits × 2 estimators),
    and ``fits_saved`` is counted against the fixed ``max_repeats``×2
    design. The splits are unstratified
    (:class:`~sklearn_bcv.BlockRegularizedMx2CV`, as
    ``sequential_compare(..., stratify=False)``); the majority class's
    predictions are computed directly (those of
    ``DummyClassifier(strategy="most_frequent")``) and logistic
    regression is fitted on every split.

    Examples
    --------
    >>> from sklearn_bcv.simulation import simulate_sequential
    >>> result = simulate_sequential(
    ...     "simple", n_samples=200, delta=1.0, n_repetitions=20,
    ...     tests="bcv_mcnemar", boundaries="pocock", random_state=0)
    >>> for row in result.rows:
    ...     print(f"{row['procedure']:<32} {row['rate']:.2f} {row['asn']:.2f}")
    sequential bcv_mcnemar (pocock)  1.00 3.05
    fixed bcv_mcnemar 5×2            1.00 5.00
    fixed bcv_mcnemar 7×2            1.00 7.00
    bayesian_bcv_mcnemar 5×2         1.00 5.00

    A large difference (``delta = 1``): every procedure decides "A better",
    and the sequential test mostly stops at its first look (3 repetitions,
    12 fits instead of the 20 of the 5×2 BCV).
    """
    n_values = check_grid(
        n_samples,
        "n_samples",
        kind=Integral,
        low=1,
        high=MAX_RECORDS,
        why=MORE_ONLY_COSTS_TIME,
    )
    n_repetitions = check_experiments(n_repetitions, "n_repetitions")
    if setup == "epsilon" and n_repetitions * max(n_values) > _MAX_EPSILON_DRAWS:
        raise ValueError(
            f"n_repetitions × n_samples must be at most {_MAX_EPSILON_DRAWS:,} for "
            "the epsilon setup (its loss vectors are drawn at once); got "
            f"{n_repetitions} × {max(n_values)}."
        )
    deltas = check_grid(delta, "delta")
    tests = _check_names(tests, tuple(SEQUENTIAL_TESTS), "tests")
    boundaries = _check_names(boundaries, BOUNDARIES, "boundaries")
    min_repeats, max_repeats = _check_repeats(min_repeats, max_repeats)
    for n in n_values:
        _check_design_size(n, max_repeats)
    if setup == "epsilon":
        if any(d != 0 for d in deltas):
            raise ValueError(
                "the epsilon setup is a null setup without delta; got delta="
                f"{delta!r}. Set its error rate with epsilon=."
            )
        deltas = (None,)
    if setup == "simple" and any(d < 0 for d in deltas):
        raise ValueError(f"delta must be >= 0; got {delta!r}.")
    threshold = check_futility(futility, futility_threshold)
    settings = {
        "min_repeats": min_repeats,
        "max_repeats": max_repeats,
        "alpha": float(alpha),
        "alternative": alternative,
        "futility_thresholds": (None,) if threshold is None else (None, threshold),
    }
    # The boundaries first: they are checked (and cached) before any fit.
    for boundary in boundaries:
        group_sequential_boundaries(
            min_repeats,
            max_repeats,
            boundary=boundary,
            alpha=alpha,
            alternative=alternative,
        )

    rng = check_random_state(random_state)
    seeds = rng.randint(_SEED_BOUND, size=(n_repetitions, 2))
    epsilon_seeds = [int(s) for s in rng.randint(_SEED_BOUND, size=3)]

    rows, decisions, repeats, p_a, p_b, elapsed = [], {}, {}, {}, {}, {}
    for n in n_values:
        for d in deltas:
            start = time.perf_counter()
            if setup == "epsilon":
                tables, differences = _epsilon_needs(
                    n, epsilon, n_repetitions, epsilon_seeds, max_repeats
                )
            else:
                tables, differences = _simple_needs(
                    n, float(d), seeds, max_repeats, n_jobs
                )
            procedures, reference = _procedures(
                tables,
                differences,
                tests=tests,
                boundaries=boundaries,
                settings=settings,
            )
            key = (n, d)
            decisions[key], repeats[key] = {}, {}
            for name, (codes, stops, extra) in procedures.items():
                rows.append(_row(setup, n, d, name, codes, stops, reference, settings))
                decisions[key][name], repeats[key][name] = codes, stops
                if extra:
                    p_a[key], p_b[key] = extra["p_a_better"], extra["p_b_better"]
            elapsed[key] = time.perf_counter() - start
            if verbose > 0:
                print(
                    f"[simulate_sequential] {setup}, n = {n}, delta = {d}: "
                    f"{elapsed[key]:.1f} s"
                )
    return SequentialSimulationResult(
        rows=rows,
        decisions=decisions,
        repeats=repeats,
        p_a_better=p_a,
        p_b_better=p_b,
        seeds=seeds,
        elapsed=elapsed,
        setup=setup,
        n_samples=n_values,
        deltas=deltas,
        n_repetitions=n_repetitions,
        min_repeats=min_repeats,
        max_repeats=max_repeats,
        tests=tests,
        boundaries=boundaries,
        alpha=float(alpha),
        alternative=alternative,
        futility=futility,
        futility_threshold=threshold,
        epsilon=epsilon if setup == "epsilon" else None,
    )
