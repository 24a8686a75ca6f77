"""Type I error of the tests across data sets on null score tables.

Every experiment is a fresh score table of k estimators on N data sets in
which all the estimators have the same expected score on every data set
(the null hypothesis of every test across data sets). The tables of a
block of experiments are drawn at once with numpy; each table then goes
through :func:`~sklearn_bcv.compare_scores` (the one statistics path of
:func:`~sklearn_bcv.benchmark`), and the decisions of the rank tests, of
the pairwise frequentist tests with Holm's correction and of the Bayesian
tests are counted. The blocks run in one joblib pool; their seeds are
drawn in the calling process, so the result does not depend on ``n_jobs``.
"""

import time
import zlib
from numbers import Integral, Real

import numpy as np
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.parallel import Parallel, delayed

from .._benchmark import compare_scores
from .._checks import check_integer
from .._compat import Interval, StrOptions, validate_params
from .._engine._fit import worker_count
from ..stats._across_utils import _check_n_samples
from ..stats._registry import declared_tests, get_entry, keyword_names
from ._checks import (
    MAX_BLOCK_CELLS,
    MAX_DATASETS,
    MAX_ESTIMATORS,
    MAX_EXPERIMENTS,
    MAX_SPLITS,
    MORE_ONLY_COSTS_TIME,
)
from ._result import CI_METHODS, build_result

__all__ = ["simulate_null_across"]

#: Data set sizes, drawn uniformly for each data set (Corani & Benavoli 2015, §4.2).
DATASET_SIZES = (25, 50, 100, 250, 500, 1000)
#: Expected scores (accuracies) of the data sets: Uniform(low, high).
MEAN_SCORE_RANGE = (0.6, 0.95)

#: The named null setups. ``df``: None for normal noise, else Student t(df);
#: ``per_split``: per-split scores (else one mean score per data set);
#: ``test_fraction``: n_test / n of each split (None: 1 / n_splits, k-fold);
#: ``rho``: the true correlation of the splits (None: n_test / n, the one
#: the Poisson-binomial test assumes).
SETUPS = {
    "exchangeable": {"df": None, "per_split": False},
    "heavy_tailed": {"df": 3, "per_split": False},
    "per_split": {"df": None, "per_split": True, "test_fraction": 0.5, "rho": None},
    "per_split_kfold": {
        "df": None,
        "per_split": True,
        "test_fraction": None,
        "rho": None,
    },
    "per_split_mismatched": {
        "df": None,
        "per_split": True,
        "test_fraction": None,
        "rho": 0.3,
    },
}
_SPEC_KEYS = {"df", "per_split", "test_fraction", "rho"}


def _declared(role):
    """The tests of ``role`` the registry declares, those run by default
    first (by their rank), then the others by name."""
    entries = {name: get_entry(name) for name in declared_tests(role=role)}
    return tuple(
        sorted(
            entries,
            key=lambda name: (min(entries[name].by_default.values(), default=99), name),
        )
    )


#: The tests across data sets, in the order of the table, as the registry
#: declares them: omnibus tests, post hoc families (of all k estimators at
#: once), and pairwise tests -- frequentist or Bayesian.
RANK_TESTS = _declared("omnibus") + _declared("posthoc")
BAYESIAN_PAIRWISE = ("poisson_binomial", "bayesian_signed_rank", "bayesian_sign")
FREQUENTIST_PAIRWISE = tuple(
    name for name in _declared("pairwise") if not get_entry(name).bayesian
)
TESTS = RANK_TESTS + FREQUENTIST_PAIRWISE + BAYESIAN_PAIRWISE
#: Experiments per block: one draw of score tables, one joblib task.
BLOCK = 250
_SEED_BOUND = np.iinfo(np.int32).max


# --------------------------------------------------------------------------
# Setups and score tables
# --------------------------------------------------------------------------


def _check_setups(setups):
    """``{label: spec}`` from None, a name, a list of names or a dict."""
    if setups is None:
        setups = list(SETUPS)
    if isinstance(setups, str):
        setups = [setups]
    if isinstance(setups, dict):
        items = list(setups.items())
    else:
        items = []
        for name in setups:
            if not isinstance(name, str) or name not in SETUPS:
                raise ValueError(
                    f"setups must name null setups among {sorted(SETUPS)} (or be a "
                    f"dict label -> spec); got {name!r}."
                )
            items.append((name, SETUPS[name]))
    if not items:
        raise ValueError("setups must name at least one null setup.")
    checked = {}
    for label, spec in items:
        if not isinstance(spec, dict) or not set(spec) <= _SPEC_KEYS:
            raise ValueError(
                f"setup {label!r} must be a dict with keys among {sorted(_SPEC_KEYS)}"
                f"; got {spec!r}."
            )
        spec = {
            "df": None,
            "per_split": False,
            "test_fraction": None,
            "rho": None,
            **spec,
        }
        df, fraction, rho = spec["df"], spec["test_fraction"], spec["rho"]
        if not isinstance(spec["per_split"], bool | np.bool_):
            raise ValueError(
                f"setup {label!r}: per_split must be a bool; got {spec['per_split']!r}."
            )
        if df is not None and not (isinstance(df, Real) and df > 0):
            raise ValueError(f"setup {label!r}: df must be None or > 0; got {df!r}.")
        if fraction is not None and not (
            isinstance(fraction, Real) and 0 < fraction <= 0.5
        ):
            raise ValueError(
                f"setup {label!r}: test_fraction must be None or in (0, 0.5]; got "
                f"{fraction!r}."
            )
        if rho is not None and not (isinstance(rho, Real) and 0 <= rho < 1):
            raise ValueError(
                f"setup {label!r}: rho must be None or in [0, 1); got {rho!r}."
            )
        checked[str(label)] = spec
    return checked


def _check_tests(tests):
    if tests is None:
        return list(TESTS)
    if isinstance(tests, str):
        tests = [tests]
    unknown = [name for name in tests if name not in TESTS]
    if unknown or not tests:
        raise ValueError(
            f"tests must be a non-empty list of tests across data sets among "
            f"{list(TESTS)}; got {tests!r}."
        )
    return [name for name in TESTS if name in tests]


def _check_sizes(n_experiments, n_datasets, n_estimators, n_splits, n_samples, specs):
    """The sizes, each bounded (:mod:`._checks`), and one experiment's table
    bounded too, before any work."""
    sizes = [
        check_integer(value, name=name, low=low, high=high, why=MORE_ONLY_COSTS_TIME)
        for value, name, low, high in (
            (n_experiments, "n_experiments", 1, MAX_EXPERIMENTS),
            (n_datasets, "n_datasets", 2, MAX_DATASETS),
            (n_estimators, "n_estimators", 2, MAX_ESTIMATORS),
            (n_splits, "n_splits", 2, MAX_SPLITS),
        )
    ]
    _, n_datasets, n_estimators, n_splits = sizes
    # The Bayesian tests' own bound on their Monte Carlo draws, checked here
    # rather than in the first block.
    sizes.append(_check_n_samples(n_samples, n_datasets))
    per_split = any(spec["per_split"] for spec in specs.values())
    cells = n_datasets * n_estimators * (n_splits if per_split else 1)
    if cells > MAX_BLOCK_CELLS:
        what = (
            "n_datasets × n_splits × n_estimators"
            if per_split
            else ("n_datasets × n_estimators")
        )
        raise ValueError(
            f"{what} must be at most {MAX_BLOCK_CELLS:,} (the scores of one "
            f"experiment; a block of {BLOCK} experiments is drawn at once); got "
            f"{cells:,}."
        )
    return sizes


def describe_setup(spec, n_splits):
    """One line describing a null setup (the design of its results)."""
    noise = "normal" if spec["df"] is None else f"Student t({spec['df']:g})"
    if not spec["per_split"]:
        return f"one score per data set, {noise} noise"
    fraction = spec["test_fraction"] or 1.0 / n_splits
    rho = "n_test / n" if spec["rho"] is None else f"{spec['rho']:g}"
    return (
        f"{n_splits} splits per data set, n_test = {fraction:g}·n, {noise} noise, "
        f"split correlation rho = {rho}"
    )


def null_scores(spec, n_experiments, n_datasets, n_estimators, n_splits, rng):
    """Score tables of ``n_experiments`` experiments of one null setup.

    Data set i of an experiment has n_i records (uniform over
    :data:`DATASET_SIZES`) and expected score ``mu_i`` (uniform over
    :data:`MEAN_SCORE_RANGE`), the same for every estimator. Without splits
    the score of estimator j is ``mu_i + sigma_i·e_ij`` with
    ``sigma_i = sqrt(mu_i (1 - mu_i) / n_i)``; with splits, on split s,
    ``mu_i + sigma_i·(sqrt(rho_i)·u_ij + sqrt(1 - rho_i)·e_isj)`` with
    ``n_test_i = round(f·n_i)``, ``n_train_i = n_i - n_test_i``,
    ``sigma_i = sqrt(mu_i (1 - mu_i) / n_test_i)`` and ``rho_i`` the setup's
    ``rho`` or else ``n_test_i / n_i`` (the correlated t model). ``u`` and
    ``e`` are independent, normal or Student t.

    Returns
    -------
    scores : ndarray of shape (n_experiments, n_datasets, k) or \
(n_experiments, n_datasets, n_splits, k)
    n_train, n_test : ndarray of shape (n_experiments, n_datasets) or None
    """
    shape = (n_experiments, n_datasets)

    def noise(size):
        if spec["df"] is None:
            return rng.standard_normal(size)
        return rng.standard_t(spec["df"], size)

    sizes = rng.choice(np.asarray(DATASET_SIZES), size=shape)
    mu = rng.uniform(*MEAN_SCORE_RANGE, size=shape)
    if not spec["per_split"]:
        sigma = np.sqrt(mu * (1.0 - mu) / sizes)
        scores = mu[..., None] + sigma[..., None] * noise(shape + (n_estimators,))
        return scores, None, None
    fraction = spec["test_fraction"] or 1.0 / n_splits
    n_test = np.maximum(1, np.rint(fraction * sizes)).astype(np.int64)
    n_train = sizes - n_test
    rho = n_test / sizes if spec["rho"] is None else np.full(shape, spec["rho"])
    sigma = np.sqrt(mu * (1.0 - mu) / n_test)[..., None, None]
    shared = noise(shape + (1, n_estimators))  # u_ij: the same on every split
    own = noise(shape + (n_splits, n_estimators))  # e_isj
    rho = rho[..., None, None]
    scores = mu[..., None, None] + sigma * (
        np.sqrt(rho) * shared + np.sqrt(1.0 - rho) * own
    )
    return scores, n_train.astype(np.float64), n_test.astype(np.float64)


# --------------------------------------------------------------------------
# One experiment through compare_scores
# --------------------------------------------------------------------------


def _takes_control(name):
    """Whether a post hoc family can be run against a control."""
    return "control" in (keyword_names(get_entry(name).func) or ())


def entries_of(tests, per_split):
    """``[(label, test, kind, level_factor), ...]`` of the counted decisions.

    ``kind`` says what the rate is; the rate of a calibrated procedure is
    ``level_factor · alpha``: 1, except for the Bayesian "either side"
    decision, two one-sided decisions at 1 - alpha (comparable to a
    two-sided test at 2·alpha).
    """
    out = []
    for name in tests:
        role = get_entry(name).role if name in RANK_TESTS else None
        if name == "friedman":
            out += [
                ("friedman", name, "rejection (chi-squared)", 1),
                ("iman_davenport", name, "rejection (F)", 1),
                ("friedman_exact", name, "rejection (permutation, the default)", 1),
            ]
        elif role == "omnibus":
            out.append((name, name, "rejection", 1))
        elif role == "posthoc" and not _takes_control(name):
            out.append((name, name, "FWER, all pairs", 1))
        elif role == "posthoc":
            out.append((name, name, "FWER, against estimator 0", 1))
        elif name in FREQUENTIST_PAIRWISE:
            out += [
                (f"{name}+holm", name, "FWER, all pairs, Holm", 1),
                (f"{name} (1 pair)", name, "per comparison, unadjusted", 1),
            ]
        elif name != "poisson_binomial" or per_split:
            out += [
                (f"{name} (either)", name, "decision, either side", 2),
                (f"{name} (greater)", name, "decision, A better", 1),
            ]
    return out


def _plans(tests, n_samples):
    rank = {name: {} for name in tests if name in RANK_TESTS}
    for name in rank:
        if get_entry(name).role == "posthoc" and _takes_control(name):
            rank[name] = {"control": 0}
    pairwise = {name: {} for name in tests if name not in RANK_TESTS}
    for name in ("bayesian_signed_rank", "bayesian_sign"):
        if name in pairwise:
            pairwise[name] = {"n_samples": n_samples}
    return rank, pairwise


def experiment_decisions(
    scores, n_train, n_test, *, tests, alpha, rope, n_samples, random_state
):
    """The decisions of one experiment: ``{label: (reject, value)}``.

    ``value`` is the p-value behind the decision (the smallest adjusted one
    for a family) or, for a Bayesian test, the posterior probability.
    """
    per_split = np.ndim(scores) == 3
    tests = [t for t in tests if t != "poisson_binomial" or per_split]
    rank_plan, pairwise_plan = _plans(tests, n_samples)
    result = compare_scores(
        scores,
        n_train=n_train,
        n_test=n_test,
        tests=rank_plan or [],
        pairwise_tests=pairwise_plan or [],
        correction="holm",
        rope=rope,
        alpha=alpha,
        random_state=random_state,
    )
    out = {}
    for label, name, _, factor in entries_of(tests, per_split):
        if label == "friedman":  # the chi-squared approximation
            p = float(result.tests[name].pvalue_chi2)
            out[label] = (p < alpha, p)
        elif label == "friedman_exact" or (
            name in RANK_TESTS and get_entry(name).role == "omnibus" and label == name
        ):
            test = result.tests[name]
            out[label] = (bool(test.reject), float(test.pvalue))
        elif label == "iman_davenport":
            test = result.tests[name].iman_davenport
            out[label] = (bool(test.reject), float(test.pvalue))
        elif name in RANK_TESTS:
            test = result.tests[name]
            p = float(np.min(test.pvalue_adjusted[test.tested]))
            out[label] = (bool(test.reject.any()), p)
        elif label.endswith("+holm"):
            table = result.pairwise[name]
            p = float(np.min(table.pvalue_adjusted[table.tested]))
            out[label] = (bool(table.reject.any()), p)
        elif label.endswith("(1 pair)"):
            p = float(result.pairwise[name].pvalue[0, 1])
            out[label] = (p < alpha, p)
        else:
            table = result.pairwise[name]
            p_a, p_b = float(table.p_a_better[0, 1]), float(table.p_b_better[0, 1])
            if factor == 2:
                out[label] = (max(p_a, p_b) > 1.0 - alpha, max(p_a, p_b))
            else:
                out[label] = (p_a > 1.0 - alpha, p_a)
    return out


def _run_block(spec, block_seed, size, n_datasets, n_estimators, n_splits, options):
    """Decisions of ``size`` experiments: ``{label: (rejects, values)}``."""
    rng = np.random.default_rng(block_seed)
    scores, n_train, n_test = null_scores(
        spec, size, n_datasets, n_estimators, n_splits, rng
    )
    seeds = rng.integers(_SEED_BOUND, size=size)
    rows = [
        experiment_decisions(
            scores[r],
            None if n_train is None else n_train[r],
            None if n_test is None else n_test[r],
            random_state=int(seeds[r]),
            **options,
        )
        for r in range(size)
    ]
    return {
        label: (
            np.array([row[label][0] for row in rows], dtype=bool),
            np.array([row[label][1] for row in rows], dtype=np.float64),
        )
        for label in rows[0]
    }


# --------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------


class NullAcrossResult(Bunch):
    """Rejection rates of the tests across data sets on several null setups.

    Returned by :func:`simulate_null_across`, where its fields are
    documented. Printing it shows one row per decision and one column per
    setup: the rate and its confidence interval.
    """

    def to_text(self, *, rst=False, digits=3, flag=True):
        """The table of rates and intervals, one column per setup.

        Parameters
        ----------
        rst : bool, default=False
            A reStructuredText simple table (for doc/reproduction.rst).
        digits : int, default=3
            Decimals of the rates and bounds.
        flag : bool, default=True
            Mark with ``(!)`` a rate whose interval lies entirely above the
            level a calibrated procedure would have (``levels``).

        Returns
        -------
        text : str
        """
        from ._paper import format_text_table

        header = ["decision", "level"] + list(self.setups)
        rows = []
        for label in self.tests:
            row = [label, f"{self.levels[label]:g}"]
            for setup in self.setups:
                result = self.results[setup]
                if label not in result.rates:
                    row.append("-")
                    continue
                low, high = result.ci[label]
                mark = " (!)" if flag and low > self.levels[label] else ""
                row.append(
                    f"{result.rates[label]:.{digits}f} "
                    f"[{low:.{digits}f}, {high:.{digits}f}]{mark}"
                )
            rows.append(row)
        level = f"{100 * self.confidence_level:g}%"
        title = (
            f"Rejection rates over {self.n_experiments} experiments per setup "
            f"(N = {self.n_datasets} data sets, k = {self.n_estimators} "
            f"estimators; alpha = {self.alpha:g}; {level} {self.ci_method} "
            "intervals)"
        )
        table = format_text_table(header, rows, rst=rst)
        return table if rst else f"{title}\n{table}"

    def __repr__(self):
        return self.to_text()

    __str__ = __repr__


@validate_params(
    {
        "setups": [str, list, tuple, dict, None],
        "tests": [str, list, tuple, None],
        "alpha": [Interval(Real, 0, 0.5, closed="neither")],
        "rope": [Interval(Real, 0, None, closed="left")],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "ci_method": [StrOptions(set(CI_METHODS))],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
        "verbose": ["verbose"],
    },
    prefer_skip_nested_validation=True,
)
def simulate_null_across(
    n_experiments=1000,
    *,
    n_datasets=20,
    n_estimators=4,
    n_splits=10,
    setups=None,
    tests=None,
    alpha=0.05,
    rope=0.0,
    n_samples=2000,
    confidence_level=0.95,
    ci_method="wilson",
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Type I error of the tests across data sets on simulated null score tables.

    Every experiment draws a table of k estimators' scores on N data sets in
    which the estimators have the same expected score on every data set,
    and runs the tests across data sets on it through
    :func:`~sklearn_bcv.compare_scores`. The null setups:

    * ``"exchangeable"``: one score per data set,
      ``scores[i, j] = mu_i + sigma_i·e_ij``, e iid standard normal;
    * ``"heavy_tailed"``: the same with Student t(3) noise;
    * ``"per_split"``: per-split scores of an m×2-like design (n_test =
      n_train = n/2), ``score[i, s, j] = mu_i + sigma_i·(sqrt(rho)·u_ij +
      sqrt(1 - rho)·e_isj)`` with ``rho = n_test / n = 1/2``: the correlated
      t model of Corani & Benavoli 2015 that ``poisson_binomial`` assumes, matched;
    * ``"per_split_kfold"``: the same for a k-fold-like design, n_test =
      n / n_splits (rho = 0.1 for 10 splits), matched;
    * ``"per_split_mismatched"``: the k-fold-like sizes (so the test assumes
      rho = 1 / n_splits) but a true correlation of 0.3.

    ``mu_i`` is uniform over (0.6, 0.95), the size n_i of data set i uniform
    over {25, 50, 100, 250, 500, 1000} (Corani & Benavoli 2015, §4.2), and
    ``sigma_i`` the
    binomial standard error ``sqrt(mu_i (1 - mu_i) / n)`` of a score on n_i
    records (on the n_test_i test records of a split with splits).

    Counted decisions (``tests`` selects the tests they come from):

    * ``friedman`` (its chi-squared approximation), ``iman_davenport``,
      ``friedman_exact`` (its default p-value, the permutation law given the
      ties, exact or Monte Carlo), ``friedman_aligned``, ``quade`` (the
      registry's omnibus tests): the omnibus rejection;
    * the post hoc families: ``nemenyi`` on all pairs, the others
      (``bonferroni_dunn``, ``holm``, ``friedman_posthoc``,
      ``aligned_posthoc``, ``quade_posthoc``, with their default Holm
      correction) against estimator 0: the family-wise error, some pair
      rejected;
    * ``wilcoxon+holm``, ``sign+holm``: the test on every pair with Holm's
      correction, family-wise error; ``wilcoxon (1 pair)``, ``sign (1
      pair)``: pair (0, 1) unadjusted, the per-comparison rate;
    * ``<bayesian test> (either)``: on pair (0, 1) a posterior probability
      above ``1 - alpha`` on either side; ``<bayesian test> (greater)``:
      ``p_a_better > 1 - alpha`` (estimator 0 better), Corani & Benavoli's one-sided
      use. The Bayesian tests are ``poisson_binomial`` (per-split setups
      only), ``bayesian_signed_rank`` and ``bayesian_sign``.

    Parameters
    ----------
    n_experiments : int, default=1000
        Experiments (score tables) per setup, 1 to 100,000.
    n_datasets : int, default=20
        Data sets N of every table, 2 to 10,000.
    n_estimators : int, default=4
        Estimators k, 2 to 50 (1,225 pairs, about 17 s per experiment).
    n_splits : int, default=10
        Splits per data set of the per-split setups (5×2 or 10-fold CV), 2
        to 1,000. One experiment's table, ``N × n_splits × k`` scores with
        per-split setups (``N × k`` without), holds at most 100,000; larger
        sizes are refused before any work (:mod:`sklearn_bcv.simulation`'s
        bounds keep an experiment within about a minute and the memory of
        a block of experiments within a few hundred megabytes).
    setups : str, list of str or dict, default=None
        Null setups: names among those above (None: all five), or a dict
        ``{label: spec}`` with spec keys ``df`` (None for normal noise, else
        the degrees of freedom of Student t noise), ``per_split`` (bool),
        ``test_fraction`` (n_test / n of a split, in (0, 0.5]; None: 1 /
        n_splits) and ``rho`` (the true correlation of the splits, in
        [0, 1); None: n_test / n, matched).
    tests : str or list of str, default=None
        Tests across data sets to run, among those the registry declares
        (``RANK_TESTS``: omnibus and post hoc; ``wilcoxon``, ``sign``;
        ``poisson_binomial``, ``bayesian_signed_rank``, ``bayesian_sign``)
        (None: all).
    alpha : float, default=0.05
        Significance level, and ``1 - alpha`` the posterior probability of a
        Bayesian decision.
    rope : float, default=0.0
        Region of practical equivalence of ``bayesian_signed_rank`` and
        ``bayesian_sign``, in score units.
    n_samples : int, default=2000
        Monte Carlo samples of ``bayesian_signed_rank`` and
        ``bayesian_sign`` (their default, 50,000, is 25 times slower; the
        decision at 0.95 then carries a Monte Carlo error of about
        ``sqrt(0.95·0.05 / 2000) = 0.005`` in the posterior probability);
        ``n_samples × (N + 1)`` at most 2**28, the tests' own bound.
    confidence_level : float, default=0.95
        Level of the rates' confidence intervals.
    ci_method : {"wilson", "exact", "wilsoncc"}, default="wilson"
        Binomial interval (see :func:`rejection_rate_interval`).
    random_state : int, RandomState instance or None, default=None
        Draws the seeds of the blocks of experiments (score tables and
        Monte Carlo sampling). Pass an int for reproducible output.
    n_jobs : int, default=None
        Blocks of 250 experiments run in parallel
        (:class:`sklearn.utils.parallel.Parallel`); the seeds are drawn in
        the calling process, so the result does not depend on ``n_jobs``.
    verbose : int, default=0
        Print joblib's progress messages when > 0.

    Returns
    -------
    result : NullAcrossResult
        A :class:`~sklearn.utils.Bunch` (printing it shows the table) with

        setups : list of str
            The setups' labels, in the order of the columns.
        tests : list of str
            The counted decisions (labels above), in the order of the rows.
        results : Bunch
            Setup label -> :class:`SimulationResult` of its decisions
            (``rates``, ``ci``, ``n_rejections``, ``rejections``; ``pvalues``
            holds the p-value behind each frequentist decision, the smallest
            adjusted one for a family, and the posterior probability behind
            each Bayesian one; its ``design`` describes the setup).
        levels : Bunch
            Decision label -> the rate a calibrated procedure would have:
            ``alpha``, or ``2·alpha`` for a Bayesian decision on either side.
        kinds : Bunch
            Decision label -> what its rate is (e.g. ``"FWER, all pairs,
            Holm"``).
        frequentist : list of str
            The decisions whose rate must be at most ``alpha``.
        specs : Bunch
            Setup label -> its spec (``df``, ``per_split``,
            ``test_fraction``, ``rho``).
        elapsed : float
            Seconds the simulation took.
        n_experiments, n_datasets, n_estimators, n_splits, alpha, rope, \
n_samples, confidence_level, ci_method
            The arguments.

    See Also
    --------
    sklearn_bcv.compare_scores : The tests run on every table.
    simulate_many_loss_vectors : The tests of k estimators on one data set.

    Notes
    -----
    Under every setup the k estimators are exchangeable on each data set,
    so the rank tests, Wilcoxon's and the sign test are exact or
    asymptotically valid whatever ``mu_i`` and ``sigma_i``; the scores are
    continuous, so there are no ties. ``poisson_binomial`` also needs the
    splits: on the per-split setups the posterior of each data set's mean
    difference is exactly the correlated t test's when ``rho`` is matched
    (the shared term ``u`` moves every split alike, so the sample variance
    of the splits sees only ``e``), and too narrow when the true
    correlation is larger than ``n_test / n``. The shared term ``u_ij`` is
    what the splits of one data set have in common (their records): it
    makes the estimators differ on the sample at hand although their
    expected scores are equal, and the correlated t posterior's factor
    ``1 / n_splits + rho / (1 - rho)`` is what accounts for it. The test's
    inference is about the q data sets at hand, not a population of data
    sets (Corani & Benavoli 2015), so its rate is that of declaring A better on most of
    these data sets when it is better on none.

    Examples
    --------
    >>> from sklearn_bcv.simulation import simulate_null_across
    >>> result = simulate_null_across(
    ...     40, n_datasets=10, n_estimators=3, setups=["exchangeable"],
    ...     tests=["friedman", "wilcoxon"], random_state=0)
    >>> result.tests  # doctest: +NORMALIZE_WHITESPACE
    ['friedman', 'iman_davenport', 'friedman_exact', 'wilcoxon+holm',
     'wilcoxon (1 pair)']
    >>> result.results["exchangeable"].n_repetitions
    40
    """
    specs = _check_setups(setups)
    tests = _check_tests(tests)
    n_experiments, n_datasets, n_estimators, n_splits, n_samples = _check_sizes(
        n_experiments, n_datasets, n_estimators, n_splits, n_samples, specs
    )
    options = {
        "tests": tests,
        "alpha": alpha,
        "rope": rope,
        "n_samples": n_samples,
    }
    for label, spec in specs.items():
        if not entries_of(tests, spec["per_split"]):
            raise ValueError(
                f"None of the tests {tests} applies to setup {label!r}: "
                "poisson_binomial needs per-split scores."
            )
    rng = check_random_state(random_state)
    entropy = int(rng.randint(_SEED_BOUND))
    sizes = [
        min(BLOCK, n_experiments - first) for first in range(0, n_experiments, BLOCK)
    ]
    tasks = []
    for label, spec in specs.items():
        # A setup's draws depend on its label, not on its place in the list.
        key = zlib.crc32(label.encode("utf-8"))
        block_seeds = np.random.SeedSequence([entropy, key]).spawn(len(sizes))
        tasks += [(label, spec, seed, size) for seed, size in zip(block_seeds, sizes)]

    start = time.perf_counter()
    outputs = Parallel(n_jobs=worker_count(n_jobs, len(tasks)), verbose=verbose)(
        delayed(_run_block)(
            spec, seed, size, n_datasets, n_estimators, n_splits, options
        )
        for _, spec, seed, size in tasks
    )
    elapsed = time.perf_counter() - start

    results, levels, kinds = Bunch(), Bunch(), Bunch()
    order = []
    for label, spec in specs.items():
        parts = [out for task, out in zip(tasks, outputs) if task[0] == label]
        entries = entries_of(tests, spec["per_split"])
        names = [entry[0] for entry in entries]
        results[label] = build_result(
            rejections={n: np.concatenate([p[n][0] for p in parts]) for n in names},
            pvalues={n: np.concatenate([p[n][1] for p in parts]) for n in names},
            statistics={n: None for n in names},
            design=describe_setup(spec, n_splits),
            alpha=alpha,
            alternative="two-sided",
            confidence_level=confidence_level,
            ci_method=ci_method,
        )
        for name, _, kind, factor in entries:
            levels[name] = factor * alpha
            kinds[name] = kind
            if name not in order:
                order.append(name)
    every = [e[0] for e in entries_of(tests, True)]
    order = [name for name in every if name in order]
    return NullAcrossResult(
        setups=list(specs),
        tests=order,
        results=results,
        levels=levels,
        kinds=kinds,
        frequentist=[
            name for name in order if not name.endswith(("(either)", "(greater)"))
        ],
        specs=Bunch(**specs),
        elapsed=elapsed,
        n_experiments=n_experiments,
        n_datasets=n_datasets,
        n_estimators=n_estimators,
        n_splits=n_splits,
        alpha=alpha,
        rope=rope,
        n_samples=n_samples,
        confidence_level=confidence_level,
        ci_method=ci_method,
    )
