"""``sklearn-bcv many``: any number of estimators on one data set.

Fits k estimators once per split (:func:`sklearn_bcv.compare_many_estimators`)
and reports the omnibus test of the k estimators, the pairwise tests with
multiplicity-adjusted p-values and the pairs that differ. Without
``--estimator`` it compares four quick defaults for the task. Every option
is checked before the first fit.
"""

import argparse
from collections import Counter

from ._args import (
    CORRECTIONS,
    Subcommand,
    UsageError,
    add_design_arguments,
    add_output_arguments,
    add_tests_argument,
    build_cv,
    check_library_scoring,
    check_scoring,
    check_splits,
    parse_tests,
)
from ._data import add_data_arguments, load_data
from ._estimators import (
    add_preprocessing_arguments,
    build_estimator,
    check_estimator_task,
    default_estimators,
    parse_params,
    preprocessing_steps,
    with_preprocessor,
    with_steps,
)
from ._output import (
    chatter,
    check_plot_path,
    fitting,
    new_figure,
    result_document,
    result_table,
    save_figure,
    write_result,
)
from ._seed import record_seed
from ._store import add_store_argument, opened_store

__all__ = ["COMMAND", "estimator_names", "result_to_csv", "result_to_dict", "run"]


#: Options of ``compare`` that have no meaning here (one of each pair).
TWO_ESTIMATOR_OPTIONS = ("--estimator-a", "--estimator-b", "--params-a", "--params-b")


# --------------------------------------------------------------------------
# Options


def _named_path(text):
    """An argparse type: ``[NAME=]IMPORT.PATH`` -> ``(name or None, path)``."""
    name, sep, path = text.partition("=")
    if not sep:
        return None, text.strip()
    name, path = name.strip(), path.strip()
    if not name or not path:
        raise argparse.ArgumentTypeError(
            f"expected [NAME=]IMPORT.PATH such as svc=sklearn.svm.SVC; got {text!r}"
        )
    return name, path


def _named_json(text):
    """An argparse type: ``NAME=JSON`` -> ``(name, JSON text)``."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(
            f"expected NAME=JSON such as 'SVC={{\"C\": 10}}'; got {text!r}"
        )
    return name.strip(), value


def add_arguments(parser):
    """The options of ``many``."""
    add_data_arguments(parser)
    models = parser.add_argument_group("estimators")
    models.add_argument(
        "--estimator",
        metavar="[NAME=]IMPORT.PATH",
        type=_named_path,
        action="append",
        default=None,
        help="an estimator class to compare, e.g. sklearn.svm.SVC or "
        "svc=sklearn.svm.SVC; repeat it for each estimator (at least 2); modules "
        "are imported from the installed environment, never the current "
        "directory. The "
        "name defaults to the class name, numbered when it repeats (SVC-1, "
        "SVC-2). Default: a scaled LogisticRegression, "
        "RandomForestClassifier(n_estimators=50), DecisionTreeClassifier and "
        "GaussianNB (for regression: scaled Ridge, "
        "RandomForestRegressor(n_estimators=50), DecisionTreeRegressor and "
        "scaled KNeighborsRegressor)",
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
    for option in TWO_ESTIMATOR_OPTIONS:  # to say what to use instead
        models.add_argument(option, default=None, help=argparse.SUPPRESS)
    comparison = parser.add_argument_group("comparison")
    add_tests_argument(
        comparison,
        help="comma-separated omnibus tests of the k estimators (default: "
        "those applicable to the design and task); 'list' prints the names",
    )
    add_tests_argument(
        comparison,
        "--pairwise-tests",
        help="comma-separated two-estimator tests run on every pair (default: "
        "the test recommended for the design); 'list' prints the names",
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
        help="compare every other estimator with this one only (k - 1 pairs "
        "instead of k(k - 1)/2)",
    )
    add_design_arguments(
        comparison,
        alternative_help="of the pairwise tests: greater tests 'A better than "
        "B' with A the first of each pair in --estimator order (or the other "
        "estimator against --control); less: B better (default: two-sided)",
    )
    add_output_arguments(
        parser,
        format_help="text: ranking, omnibus test and pairs that differ "
        "(default); json; csv: one row per pairwise test and pair",
        plot_help="also save the significance matrix of the adjusted pairwise "
        "p-values (.png, .svg, .pdf, ...); needs matplotlib",
    )
    add_store_argument(parser)


def estimator_names(specs):
    """Unique names for the ``--estimator [NAME=]PATH`` options ``specs``.

    A given NAME is kept (two alike are a usage error); otherwise the name is
    the class name, the last part of the path, numbered ``-1``, ``-2``, ...
    when several estimators would share it (as
    :func:`~sklearn.pipeline.make_pipeline` names its steps).
    """
    given = [name for name, _ in specs if name is not None]
    repeated = sorted(name for name, count in Counter(given).items() if count > 1)
    if repeated:
        raise UsageError(
            f"--estimator: the name(s) {repeated} are given twice; each "
            "estimator needs its own NAME"
        )
    bases = [path.rpartition(".")[2] or path for _, path in specs]
    counts = Counter(base for (name, _), base in zip(specs, bases) if name is None)
    taken, numbers, names = set(given), Counter(), []
    for (name, _), base in zip(specs, bases):
        if name is None:
            name = base
            if counts[base] > 1 or base in taken:
                while name in taken or name == base:
                    numbers[base] += 1
                    name = f"{base}-{numbers[base]}"
            taken.add(name)
        names.append(name)
    return names


def _check_names(args, names):
    """``--params`` and ``--control`` name estimators that are compared."""
    for name, _ in args.params or []:
        if name not in names:
            raise UsageError(
                f"--params: no estimator named {name!r}; the estimators are {names}"
            )
    repeated = sorted(
        name
        for name, count in Counter(name for name, _ in args.params or []).items()
        if count > 1
    )
    if repeated:
        raise UsageError(
            f"--params: parameters of {repeated} given twice; put them in one "
            "JSON object"
        )
    if args.control is not None and args.control not in names:
        raise UsageError(
            f"--control: no estimator named {args.control!r}; the estimators "
            f"are {names}"
        )


def _check_usage(args):
    """What can be checked on the command line alone, before any loading."""
    for option in TWO_ESTIMATOR_OPTIONS:
        if getattr(args, option.lstrip("-").replace("-", "_")) is not None:
            raise UsageError(
                f"{option} belongs to the two-estimator comparison; with "
                "--estimator (or 'many') give every estimator as --estimator "
                "[NAME=]IMPORT.PATH and its parameters as --params NAME=JSON"
            )
    return check_estimator_specs(args)


def check_estimator_specs(args):
    """The names of the ``--estimator`` options, or None for the defaults."""
    specs = args.estimator or []
    if len(specs) == 1:
        raise UsageError(
            "--estimator: give at least 2 estimators to compare (or none for "
            "the default set)"
        )
    if specs:
        names = estimator_names(specs)
        _check_names(args, names)
        return names
    return None


def _build_estimators(args, names, data, stderr):
    """``[(name, estimator), ...]`` from the options, or the defaults."""
    if args.estimator:
        specs = [(name, path, None) for name, (_, path) in zip(names, args.estimator)]
    else:
        specs = [
            (name, None, default)
            for name, default in default_estimators(data.task, args.random_state)
        ]
        _check_names(args, [name for name, _, _ in specs])
    params = {
        name: parse_params(text, f"--params {name}") for name, text in args.params or []
    }
    steps = preprocessing_steps(args, chatter(args, stderr))
    estimators = []
    for name, path, default in specs:
        estimator = build_estimator(
            path,
            params.get(name),
            default=default,
            option="--estimator",
            params_option=f"--params {name}",
            stdout=chatter(args, stderr),
            random_state=args.random_state,
        )
        check_estimator_task(estimator, data.task, f"--estimator {name}")
        estimators.append((name, with_steps(estimator, steps)))
    return estimators


def run(args, *, stdout, stderr):
    """Run the comparison the parsed ``args`` describe; return the result."""
    names = _check_usage(args)
    tests = parse_tests(args.tests, kind="many")
    pairwise_tests = parse_tests(args.pairwise_tests, option="--pairwise-tests")
    plot_path = None if args.plot is None else check_plot_path(args.plot)
    data = load_data(args)
    check_scoring(args.scoring, data.task, data.y)
    named = _build_estimators(args, names, data, stderr)
    cv = build_cv(args, data.task)
    check_splits(args, cv, data.X, data.y)
    named = [(name, with_preprocessor(est, data.preprocessor)) for name, est in named]

    from .._many import compare_many_estimators

    n_splits = cv.get_n_splits(data.X, data.y)
    message = (
        f"fitting {len(named)} estimators on {n_splits} splits of {data.description}"
    )
    with (
        opened_store(args, stderr) as store,
        fitting(message, args, stderr) as verbose,
        check_library_scoring(args.scoring),
    ):
        result = compare_many_estimators(
            named,
            data.X,
            data.y,
            cv=cv,
            tests=tests,
            pairwise_tests=pairwise_tests,
            correction=None if args.correction == "none" else args.correction,
            control=args.control,
            scoring=args.scoring,
            alpha=args.alpha,
            alternative=args.alternative,
            n_jobs=args.n_jobs,
            verbose=verbose,
            random_state=args.random_state,
            return_predictions=False,
            store=store,
        )
    context = {
        "data": data.description,
        "task": data.task,
        "estimators": {name: repr(estimator) for name, estimator in named},
        "cv": repr(cv),
        "alpha": args.alpha,
        "alternative": args.alternative,
        "correction": result.correction,
        "control": result.control,
        "random_state": args.random_state,
    }
    listed = "".join(
        f"  {name}: {est!r}\n".replace("\n ", "\n   ") for name, est in named
    )
    record_seed(result, args, stderr)  # a seed drawn: said and recorded
    write_result(
        stdout,
        args.format,
        document=lambda: result_to_dict(result, context),
        table=lambda: result_to_csv(result),
        text=lambda: (
            f"estimators:\n{listed}data: {data.description}\ncv: {cv!r}\n\n"
            f"{result.summary(show='all' if args.all_tests else 'default')}\n"
        ),
    )
    if plot_path is not None:
        save_figure(plot_figure(result), plot_path, args=args, stderr=stderr)
    return result


# --------------------------------------------------------------------------
# Output


def result_to_dict(result, context):
    """The JSON document of ``--format json``: ``result.to_dict()`` and the
    command line's settings."""
    return result_document(result, context)


def result_to_csv(result):
    """The CSV text of ``--format csv``: the omnibus tests, one row per
    pairwise test and pair, then the scores (``section`` says which)."""
    return result_table(result)


def plot_title(result):
    """The lines above the --plot figure: the omnibus test, the pairs that
    differ in the plotted (first) pairwise test, and alpha."""
    verdict = result.verdict
    lines = []
    if verdict.omnibus_test is not None:
        omnibus = result.tests[verdict.omnibus_test]
        outcome = "the estimators differ" if verdict.omnibus_reject else "no difference"
        lines.append(f"{verdict.omnibus_test} (p = {omnibus.pvalue:.3g}): {outcome}")
    if verdict.pairwise_test is not None:
        n_pairs = len(result.pairwise[verdict.pairwise_test].results)
        lines.append(
            f"{len(verdict.differ)} of {n_pairs} pairs differ ({verdict.pairwise_test})"
        )
    if not lines:
        return f"{len(result.names)} estimators"
    return "\n".join(lines) + f" at alpha = {result.alpha}"


def plot_figure(result):
    """The ``--plot`` figure: the significance matrix of the pairwise tests."""
    from .._plot import SignificanceMatrixDisplay

    side = 2.2 + 0.75 * len(result.names)
    fig = new_figure(figsize=(side + 1.6, side + 0.4), layout="constrained")
    SignificanceMatrixDisplay.from_result(result, ax=fig.add_subplot())
    fig.suptitle(plot_title(result), fontsize="medium")
    return fig


COMMAND = Subcommand(
    name="many",
    summary="any number of estimators on one data set",
    description=(
        "Compare k >= 2 scikit-learn estimators on one data set: each is "
        "fitted once per split of a block-regularized m×2 CV, an omnibus test "
        "asks whether any differ, and two-estimator tests on every pair (or "
        "against --control), with adjusted p-values, say which. Without "
        "--estimator: four quick default estimators for the task."
    ),
    examples=(
        "sklearn-bcv many",
        "sklearn-bcv many --dataset wine --format csv",
        "sklearn-bcv many --estimator sklearn.svm.SVC --estimator "
        "knn=sklearn.neighbors.KNeighborsClassifier\n"
        "      --estimator sklearn.naive_bayes.GaussianNB "
        "--params 'knn={\"n_neighbors\": 3}'",
        "sklearn-bcv many --control LogisticRegression --correction bonferroni",
        "sklearn-bcv many --dataset diabetes --plot significance.png",
    ),
    add_arguments=add_arguments,
    run=run,
    test_lists={"tests": "many", "pairwise_tests": "pair"},
    implied_by=("--estimator",),
)
