"""``sklearn-bcv benchmark``: several estimators across several data sets.

Fits k estimators on every split of every data set in one pool
(:func:`sklearn_bcv.benchmark`), then ranks them on each data set and
reports Friedman's test, the post hoc rank test (Nemenyi, or
Bonferroni–Dunn against ``--control``) and the pairwise tests across data
sets. The data sets are scikit-learn's bundled ones (:data:`._data.DATASETS`,
loaded by :func:`._data.load_bundled`) and generated ones
(:data:`GENERATED`, ``NAME`` or ``NAME:SEED``); nothing is downloaded. The
estimators are given as in ``many``. Every option is checked before the
first fit.
"""

from collections import Counter
from typing import NamedTuple

import numpy as np

from ._across import (
    add_effect_sizes_argument,
    add_replicability_argument,
    effect_size_intervals,
    list_tests_of,
    parse_test_options,
    plot_figure,
    plot_test,  # noqa: F401 (the tests read it here)
    plot_title,  # noqa: F401 (the tests read it here)
    replicability_option,
    result_to_csv,
    result_to_dict,
    rope_width,
    score_lines,
)
from ._args import (
    CORRECTIONS,
    MAX_SEED,
    CLIError,
    Subcommand,
    UsageError,
    add_design_arguments,
    add_output_arguments,
    add_tests_argument,
    build_cv,
    check_library_scoring,
    check_scoring,
    check_splits,
    list_tests,
    parse_tests,
)
from ._data import (
    DATASETS,
    Data,
    check_target,
    load_bundled,
    read_table,
)
from ._estimators import add_preprocessing_arguments, with_preprocessor
from ._many import (
    _build_estimators,
    _named_json,
    _named_path,
    check_estimator_specs,
)
from ._output import (
    check_plot_path,
    fitting,
    save_figure,
    write_result,
)
from ._seed import record_seed
from ._store import add_store_argument, opened_store

__all__ = [
    "COMMAND",
    "DEFAULT_DATASETS",
    "GENERATED",
    "load_dataset",
    "parse_dataset",
    "result_to_csv",
    "result_to_dict",
    "run",
]

#: Data sets drawn by a generator of :mod:`sklearn.datasets`: name ->
#: (function, its parameters, task). ``NAME:SEED`` draws with that seed
#: (default 0; see :data:`DATA_STREAM`), so ``classification:1
#: classification:2`` are two data sets.
GENERATED = {
    "moons": ("make_moons", {"n_samples": 300, "noise": 0.3}, "classification"),
    "circles": (
        "make_circles",
        {"n_samples": 300, "noise": 0.2, "factor": 0.5},
        "classification",
    ),
    "classification": (
        "make_classification",
        {"n_samples": 300, "n_features": 20, "n_informative": 5, "n_redundant": 2},
        "classification",
    ),
    "blobs": (
        "make_blobs",
        {"n_samples": 300, "centers": 3, "cluster_std": 3.0},
        "classification",
    ),
    "gaussian_quantiles": (
        "make_gaussian_quantiles",
        {"n_samples": 300, "n_features": 4, "n_classes": 3},
        "classification",
    ),
    "hastie": ("make_hastie_10_2", {"n_samples": 600}, "classification"),
    "regression": (
        "make_regression",
        {"n_samples": 300, "n_features": 20, "n_informative": 5, "noise": 10.0},
        "regression",
    ),
    "friedman1": ("make_friedman1", {"n_samples": 300, "noise": 1.0}, "regression"),
}

#: What runs without ``--datasets``: five small classification data sets,
#: three bundled and two generated (well under a minute on two cores with
#: the default estimators).
DEFAULT_DATASETS = ("iris", "wine", "breast_cancer", "moons", "classification")

#: The seed of a generated data set named without ``:SEED``.
DEFAULT_SEED = 0

#: A generated data set is drawn with ``RandomState([DATA_STREAM, SEED])``,
#: not ``RandomState(SEED)``: a generator's first draw shuffles its records,
#: and a splitter seeded with the same integer (``--random-state``) would
#: draw the same permutation; ``make_moons(random_state=0)`` cut by
#: ``BlockRegularizedMx2CV(random_state=0)`` has one class in each half.
DATA_STREAM = 0xDA7A


# --------------------------------------------------------------------------
# Data sets


class DatasetSpec(NamedTuple):
    """A data set of ``--datasets``: its name as typed, and how to make it
    (or, for the user's CSV file, its ``(X, y, description)``)."""

    name: str
    base: str
    seed: int | None  # None for a bundled data set or a CSV file
    task: str
    data: tuple | None = None  # (X, y, description) of a CSV file
    preprocessor: object = None  # a CSV file's TableFeatures, when it needs one


def _as_datasets_error(exc, text):
    """A message of the CSV reader (about --data / --target) about
    --datasets (a usage error stays one)."""
    message = str(exc)
    for option in ("--data: ", "--target: ", "--data "):
        if message.startswith(option):
            message = message[len(option) :]
            break
    kind = UsageError if isinstance(exc, UsageError) else CLIError
    return kind(f"--datasets {text}: {message}")


def parse_csv_dataset(text):
    """The :class:`DatasetSpec` of ``PATH.csv:TARGET``, the file read (through
    the command line's one CSV reader, :func:`~._data.read_table`, as
    ``many --data`` reads it) and checked; None if ``text`` does not name a
    CSV file.

    A file with text columns or empty cells is encoded and imputed as in
    ``many --data``: every estimator is then fitted behind a
    :class:`~._data.TableFeatures` (on every data set; a data set of
    numbers passes it unchanged).
    """
    path, sep, target = text.rpartition(":")
    if not sep or not path.lower().endswith(".csv"):
        if text.lower().endswith(".csv"):
            raise UsageError(
                f"--datasets: {text} needs the name of its target column: {text}:TARGET"
            )
        return None
    if not target:
        raise UsageError(f"--datasets: {text} needs a target column name after ':'")
    try:
        X, y, task, preprocessor = read_table(path, target)
    except CLIError as exc:
        raise _as_datasets_error(exc, text) from None
    shape = f"{X.shape[0]} records, {X.shape[1]} features"
    if preprocessor is not None:
        shape += " (text columns encoded, empty cells imputed)"
    if task == "classification":
        shape += f", {len(np.unique(y))} classes"
    description = f"{shape} ({path}, target {target!r})"
    return DatasetSpec(text, path, None, task, (X, y, description), preprocessor)


def _valid_names():
    return (
        f"bundled: {', '.join(sorted(DATASETS))}; generated (NAME or "
        f"NAME:SEED): {', '.join(GENERATED)}; your CSV files: PATH.csv:TARGET"
    )


def parse_dataset(text):
    """The :class:`DatasetSpec` of one ``--datasets`` entry.

    >>> parse_dataset("iris")[:4]
    ('iris', 'iris', None, 'classification')
    >>> parse_dataset("moons:3")[:4]
    ('moons:3', 'moons', 3, 'classification')
    >>> parse_dataset("friedman1").seed
    0
    """
    from_file = parse_csv_dataset(text)
    if from_file is not None:
        return from_file
    base, sep, seed_text = text.partition(":")
    if base in DATASETS:
        if sep:
            raise UsageError(
                f"--datasets: {base} is bundled with scikit-learn and takes no "
                f":SEED; only generated data sets do ({', '.join(GENERATED)})"
            )
        return DatasetSpec(text, base, None, DATASETS[base][1])
    if base not in GENERATED:
        raise UsageError(
            f"--datasets: unknown data set {base!r}; valid names: {_valid_names()}"
        )
    seed = DEFAULT_SEED
    if sep:
        try:
            seed = int(seed_text)
        except ValueError:
            seed = -1
        if not 0 <= seed <= MAX_SEED:
            raise UsageError(
                f"--datasets: {text!r}: the seed after ':' must be an integer in "
                f"[0, {MAX_SEED}]"
            )
    return DatasetSpec(text, base, seed, GENERATED[base][2])


def parse_datasets(texts):
    """The :class:`DatasetSpec` of each ``--datasets`` entry (or the
    defaults), checked: known, distinct, at least 2, one task."""
    if texts is None:
        texts = DEFAULT_DATASETS
    names = [name.strip() for text in texts for name in text.split(",")]
    names = [name for name in names if name]
    specs = [parse_dataset(name) for name in names]
    repeated = sorted(name for name, count in Counter(names).items() if count > 1)
    if repeated:
        raise UsageError(
            f"--datasets: {', '.join(repeated)} given twice; for several draws of "
            "a generated data set give seeds (moons:1 moons:2)"
        )
    if len(specs) < 2:
        raise UsageError(
            f"--datasets: give at least 2 data sets to compare across; got "
            f"{len(specs)} ({_valid_names()})"
        )
    tasks = {spec.task for spec in specs}
    if len(tasks) > 1:
        by_task = "; ".join(
            f"{task}: {', '.join(spec.name for spec in specs if spec.task == task)}"
            for task in sorted(tasks)
        )
        raise UsageError(
            f"--datasets: the data sets must share one task (classification or "
            f"regression); got {by_task}"
        )
    return specs


def load_dataset(spec):
    """``(X, y, description)`` of a :class:`DatasetSpec`.

    A generated data set is ``make_NAME(**params, random_state=
    numpy.random.RandomState([DATA_STREAM, SEED]))`` (see :data:`DATA_STREAM`).
    """
    if spec.data is not None:  # a CSV file, read when parsed
        return spec.data
    if spec.seed is None:
        X, y, task, _ = load_bundled(spec.base)
        source = "scikit-learn"
    else:
        from sklearn import datasets

        function, params, task = GENERATED[spec.base]
        rng = np.random.RandomState([DATA_STREAM, spec.seed])
        X, y = getattr(datasets, function)(**params, random_state=rng)
        source = f"{function}, seed {spec.seed}"
    check_target(y, task)
    shape = f"{X.shape[0]} records, {X.shape[1]} features"
    if task == "classification":
        shape += f", {len(np.unique(y))} classes"
    return X, y, f"{shape} ({source})"


def dataset_source(spec):
    """Where a data set of ``--datasets`` comes from, as a rerun needs it:
    the loader or the generator with its parameters and seed, or the
    file."""
    if spec.data is not None:
        path, _, target = spec.name.rpartition(":")
        return f"the file {path}, its column {target!r} the target"
    if spec.seed is None:
        loader = DATASETS[spec.base][0]
        return f"sklearn.datasets.{loader}(return_X_y=True)"
    function, params, _ = GENERATED[spec.base]
    args = ", ".join(f"{key}={value!r}" for key, value in params.items())
    return (
        f"sklearn.datasets.{function}({args}, random_state="
        f"numpy.random.RandomState([0x{DATA_STREAM:X}, {spec.seed}]))"
    )


def list_datasets(stdout):
    """``--datasets list``: every name, its task and source."""
    width = max(len(name) for name in [*DATASETS, *GENERATED])
    for name, (loader, task) in sorted(DATASETS.items()):
        stdout.write(f"{name:{width}s}  {task:14s}  sklearn.datasets.{loader}\n")
    for name, (function, params, task) in GENERATED.items():
        args = ", ".join(f"{key}={value!r}" for key, value in params.items())
        stdout.write(
            f"{name:{width}s}  {task:14s}  sklearn.datasets.{function}({args}), "
            "NAME:SEED\n"
        )


# --------------------------------------------------------------------------
# Options


def _dataset_tests(text):
    """``--dataset-tests``: None (the default), ``[]`` for ``none``, or
    registered two-estimator tests."""
    if text is not None and text.strip() == "none":
        return []
    return parse_tests(text, kind="pair", option="--dataset-tests")


def add_arguments(parser):
    """The options of ``benchmark``."""
    data = parser.add_argument_group("data")
    data.add_argument(
        "--datasets",
        metavar="NAME",
        nargs="+",
        default=None,
        help="at least 2 data sets of one task: bundled with scikit-learn ("
        f"{', '.join(sorted(DATASETS))}) or generated ({', '.join(GENERATED)}; "
        "NAME:SEED draws with that seed, default 0) or your own CSV files "
        "as PATH.csv:TARGET (numeric features, TARGET the target column); "
        f"'list' describes them (default: {' '.join(DEFAULT_DATASETS)})",
    )
    models = parser.add_argument_group("estimators")
    models.add_argument(
        "--estimator",
        metavar="[NAME=]IMPORT.PATH",
        type=_named_path,
        action="append",
        default=None,
        help="an estimator class to compare, as in 'many': e.g. sklearn.svm.SVC "
        "or svc=sklearn.svm.SVC; repeat it for each estimator (at least 2); modules "
        "are imported from the installed environment, never the current "
        "directory. "
        "Default: those of 'many', a scaled LogisticRegression, "
        "RandomForestClassifier(n_estimators=50), DecisionTreeClassifier and "
        "GaussianNB (for regression: scaled Ridge, "
        "RandomForestRegressor(n_estimators=50), DecisionTreeRegressor and "
        "scaled KNeighborsRegressor)",
    )
    models.add_argument(
        "--estimators",
        dest="estimator",
        metavar="SPEC",
        type=_named_path,
        nargs="+",
        action="extend",
        default=None,
        help="several estimators after one option: --estimators "
        "sklearn.svm.SVC nb=sklearn.naive_bayes.GaussianNB is --estimator "
        "sklearn.svm.SVC --estimator nb=sklearn.naive_bayes.GaussianNB",
    )
    models.add_argument(
        "--params",
        metavar="NAME=JSON",
        type=_named_json,
        action="append",
        default=None,
        help="constructor parameters of the estimator NAME as a JSON object, "
        "e.g. 'SVC={\"C\": 10}' (for a default pipeline: of its final "
        "estimator); repeatable",
    )
    add_preprocessing_arguments(models)
    comparison = parser.add_argument_group("comparison")
    add_tests_argument(
        comparison,
        help="comma-separated tests of all the estimators at once: an omnibus "
        "test (friedman, friedman_aligned, quade) and post hoc families "
        "(nemenyi, exact_posthoc, bonferroni_dunn, holm, friedman_posthoc, "
        "aligned_posthoc, quade_posthoc) (default: friedman,nemenyi, or "
        "friedman,exact_posthoc with --control); 'auto' chooses them from "
        "the scores (normality and variance checks: repeated-measures ANOVA "
        "and Tukey, or Friedman and Nemenyi); "
        "'list' prints the tests across data sets",
    )
    add_tests_argument(
        comparison,
        "--pairwise-tests",
        help="comma-separated tests of one pair at a time across data sets "
        "(wilcoxon, sign, poisson_binomial, bayesian_signed_rank, "
        "bayesian_sign) (default: wilcoxon,poisson_binomial); 'list' prints "
        "the tests across data sets",
    )
    add_tests_argument(
        comparison,
        "--dataset-tests",
        help="comma-separated two-estimator tests run on every pair of each "
        "data set (the per-data-set results); 'none' runs none, the "
        "cheapest with many estimators; 'list' prints them (default: the "
        "test 'many' recommends for the design, e.g. bcv_mcnemar)",
    )
    comparison.add_argument(
        "--correction",
        choices=CORRECTIONS,
        default="holm",
        help="multiplicity correction of each pairwise test's p-values (default: holm)",
    )
    comparison.add_argument(
        "--control",
        metavar="NAME",
        default=None,
        help="compare every other estimator with this one only (the post hoc "
        "test becomes exact_posthoc against it)",
    )
    add_effect_sizes_argument(comparison)
    add_replicability_argument(comparison)
    comparison.add_argument(
        "--missing",
        choices=("error", "drop", "skillings_mack"),
        default="error",
        help="a fit that fails: error stops (default); drop leaves out the data "
        "sets where one failed; skillings_mack keeps every other score (a "
        "hole where the fits of an estimator failed on a data set: the "
        "Skillings-Mack test and its post hoc family, each pair on the data "
        "sets both have); the result names the failed cells",
    )
    comparison.add_argument(
        "--rope",
        type=rope_width,
        default=0.0,
        metavar="WIDTH",
        help="region of practical equivalence of the Bayesian tests, in score "
        "units, e.g. 0.01 (default: 0)",
    )
    add_design_arguments(
        comparison,
        alternative_help="of the pairwise tests: greater tests 'A better than "
        "B' with A the first of each pair in --estimator order (or the other "
        "estimator against --control); less: B better; the rank tests are "
        "two-sided (default: two-sided)",
    )
    add_output_arguments(
        parser,
        format_help="text: scores and ranks on each data set, the ranking, "
        "Friedman's test, the post hoc and pairwise tests (default); json; "
        "csv: one row per test and compared pair",
        plot_help="also save Demšar's critical-difference diagram of the mean "
        "ranks (.png, .svg, .pdf, ...); needs matplotlib",
    )
    add_store_argument(parser)
    # Across data sets the bar also counts the data sets done.
    parser._option_string_actions["--verbose"].help = (
        "a progress bar of the fits on stderr even when it is not a terminal "
        "(on a terminal it is shown by default); -vv: also a line per "
        "finished data set; -vvv: a line per fit"
    )


# --------------------------------------------------------------------------
# Running


def _describe_cv(args, cv):
    if cv is None:
        # Where the seed came from (drawn, the store's) is said on its own
        # line and in the provenance: a resumed run describes its splits as
        # the first run did.
        return (
            "5×2 block-regularized CV (BlockRegularized5x2CV), each data set "
            f"seeded from --random-state {args.random_state} and its name"
        )
    return repr(cv)


def run(args, *, stdout, stderr):
    """Run the benchmark the parsed ``args`` describe; return the result."""
    if args.datasets is not None and [d.strip() for d in args.datasets] == ["list"]:
        list_datasets(stdout)
        return None
    for option in ("--tests", "--pairwise-tests"):
        if getattr(args, option[2:].replace("-", "_")) == "list":
            list_tests_of(option, stdout)
            return None
    if args.dataset_tests is not None and args.dataset_tests.strip() == "list":
        list_tests(stdout, "pair")
        return None
    specs = parse_datasets(args.datasets)
    task = specs[0].task
    names = check_estimator_specs(args)
    tests, pairwise_tests = parse_test_options(args)
    dataset_tests = _dataset_tests(args.dataset_tests)
    plot_path = None if args.plot is None else check_plot_path(args.plot)
    check_scoring(args.scoring, task)
    # A CSV file with text columns or empty cells: every estimator behind
    # the same encoding and imputation as many --data (learnt per fit).
    table = next((spec.preprocessor for spec in specs if spec.preprocessor), None)
    named = _build_estimators(args, names, Data(None, None, task, "", None), stderr)
    named = [(name, with_preprocessor(est, table)) for name, est in named]
    # The default 5×2 BCV is benchmark's own: seeded per data set.
    cv = None if args.cv == "5x2" else build_cv(args, task)
    loaded = {spec.name: load_dataset(spec) for spec in specs}
    for name, (X, y, _) in loaded.items():
        check_scoring(args.scoring, task, y)
        if cv is not None:
            check_splits(args, cv, X, y, name=name)

    from .._benchmark import benchmark

    n_fits = sum(
        (10 if cv is None else cv.get_n_splits(X, y)) * len(named)
        for X, y, _ in loaded.values()
    )
    message = (
        f"fitting {len(named)} estimators on {len(specs)} data sets ({n_fits} fits)"
    )
    with (
        opened_store(args, stderr) as store,
        fitting(message, args, stderr) as verbose,
        check_library_scoring(args.scoring),
    ):
        result = benchmark(
            named,
            {name: (X, y) for name, (X, y, _) in loaded.items()},
            cv=cv,
            scoring=args.scoring,
            tests=tests,
            pairwise_tests=pairwise_tests,
            dataset_tests=dataset_tests,
            correction=None if args.correction == "none" else args.correction,
            control=args.control,
            rope=args.rope,
            alpha=args.alpha,
            alternative=args.alternative,
            effect_size=False if args.no_effect_sizes else None,
            effect_size_intervals=effect_size_intervals(args),
            n_jobs=args.n_jobs,
            verbose=verbose,
            random_state=args.random_state,
            store=store,
            missing=args.missing,
            error_score="raise" if args.missing == "error" else np.nan,
            replicability=replicability_option(args),
        )
    descriptions = {name: description for name, (_, _, description) in loaded.items()}
    context = {
        "task": task,
        "dataset_names": list(descriptions),
        "dataset_descriptions": descriptions,
        "estimators": {name: repr(estimator) for name, estimator in named},
        "cv": _describe_cv(args, cv),
        "alpha": args.alpha,
        "alternative": args.alternative,
        "correction": result.correction,
        "control": result.control,
        "rope": args.rope,
        "random_state": args.random_state,
    }
    record_seed(result, args, stderr)  # a seed drawn: said and recorded
    described = (result.get("provenance") or {}).get("datasets") or {}
    for spec in specs:  # the command line knows where each comes from
        if spec.name in described:
            described[spec.name]["source"] = dataset_source(spec)
    write_result(
        stdout,
        args.format,
        document=lambda: result_to_dict(result, context),
        table=lambda: result_to_csv(result),
        text=lambda: result_to_text(result, named, descriptions, context["cv"]),
    )
    if plot_path is not None:
        save_figure(plot_figure(result), plot_path, args=args, stderr=stderr)
    return result


# --------------------------------------------------------------------------
# Output


def result_to_text(result, named, descriptions, cv_text):
    """The text of ``--format text``: the settings, the per-data-set table
    and the result's summary (ranking, Friedman, post hoc, pairwise)."""
    width = max(len(name) for name in descriptions)
    estimators = "".join(
        f"  {name}: {estimator!r}\n".replace("\n ", "\n   ")
        for name, estimator in named
    )
    datasets = "".join(
        f"  {name:{width}s}  {text}\n" for name, text in descriptions.items()
    )
    scoring = result.get("scoring") or "score"
    table = "".join(f"  {line}\n" for line in score_lines(result))
    return (
        f"estimators:\n{estimators}data sets:\n{datasets}cv: {cv_text}\n\n"
        f"Mean {scoring} on each data set (rank):\n{table}\n{result}\n"
    )


COMMAND = Subcommand(
    name="benchmark",
    summary="several estimators across several data sets (ranks, Friedman, "
    "critical difference)",
    description=(
        "Compare k >= 2 scikit-learn estimators across several data sets, as "
        "the benchmark of a paper: each is fitted on every split of a "
        "block-regularized 5×2 CV of every data set, ranked on each data set, "
        "and Friedman's test with a post hoc rank test (Nemenyi, or "
        "Bonferroni–Dunn against --control) and pairwise tests across data "
        "sets say which differ. Without options: the four default "
        "estimators of 'many' on iris, wine, breast_cancer and two generated "
        "data sets (moons, classification); nothing is downloaded."
    ),
    examples=(
        "sklearn-bcv benchmark",
        "sklearn-bcv benchmark --datasets iris wine digits moons:1 moons:2 "
        "--plot cd.png",
        "sklearn-bcv benchmark --estimators sklearn.svm.SVC "
        "sklearn.naive_bayes.GaussianNB\n"
        "      knn=sklearn.neighbors.KNeighborsClassifier --control GaussianNB",
        "sklearn-bcv benchmark --pairwise-tests bayesian_signed_rank --rope 0.01 "
        "--format json",
        "sklearn-bcv benchmark --datasets diabetes regression friedman1",
        "sklearn-bcv benchmark --datasets iris wine mine.csv:label --store study.db",
        "sklearn-bcv benchmark --datasets list",
    ),
    add_arguments=add_arguments,
    run=run,
)
