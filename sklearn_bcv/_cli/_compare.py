"""``sklearn-bcv [compare]``: two estimators, the default subcommand.

Without arguments it runs the main job: a 5×2 block-regularized CV
comparison of a scaled logistic regression and a random forest of 50 trees
on scikit-learn's bundled breast cancer data, then prints the comparison
table and verdict (:func:`sklearn_bcv.compare_estimators`).
"""

from ._args import (
    Subcommand,
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
from ._estimators import add_pair_estimator_arguments, build_pair_estimators
from ._output import (
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

__all__ = ["COMMAND", "result_to_csv", "result_to_dict", "run"]


def add_arguments(parser):
    """The options of ``compare``."""
    add_data_arguments(parser)
    add_pair_estimator_arguments(parser)
    comparison = parser.add_argument_group("comparison")
    add_tests_argument(
        comparison,
        help="comma-separated registered tests to run (default: every test "
        "applicable to the design and task); 'list' prints the names",
    )
    add_design_arguments(
        comparison,
        alternative_help="greater: A better than B; less: B better "
        "(default: two-sided)",
    )
    add_output_arguments(
        parser,
        format_help="text: summary table and verdict (default); json; csv: one "
        "row per test",
        plot_help="also save a figure titled with the verdict (score "
        "differences, posterior, contingency tables; .png, .svg, .pdf, ...); "
        "needs matplotlib",
    )
    add_store_argument(parser)


def run(args, *, stdout, stderr):
    """Run the comparison the parsed ``args`` describe; return the result."""
    tests = parse_tests(args.tests)
    plot_path = None if args.plot is None else check_plot_path(args.plot)
    data = load_data(args)
    check_scoring(args.scoring, data.task, data.y)
    estimators, names = build_pair_estimators(args, data, stderr)
    cv = build_cv(args, data.task)
    check_splits(args, cv, data.X, data.y)
    estimator_a, estimator_b = estimators

    from .._compare import compare_estimators

    n_splits = cv.get_n_splits(data.X, data.y)
    message = (
        f"fitting {names[0]} and {names[1]} on {n_splits} splits of {data.description}"
    )
    with (
        opened_store(args, stderr) as store,
        fitting(message, args, stderr) as verbose,
        check_library_scoring(args.scoring),
    ):
        result = compare_estimators(
            estimator_a,
            estimator_b,
            data.X,
            data.y,
            cv=cv,
            tests=tests,
            scoring=args.scoring,
            alpha=args.alpha,
            alternative=args.alternative,
            n_jobs=args.n_jobs,
            verbose=verbose,
            random_state=args.random_state,
            store=store,
        )
    context = {
        "data": data.description,
        "task": data.task,
        "estimator_a": repr(estimator_a),
        "estimator_b": repr(estimator_b),
        "cv": repr(cv),
        "scoring": args.scoring,
        "alpha": args.alpha,
        "alternative": args.alternative,
        "random_state": args.random_state,
    }
    record_seed(result, args, stderr)  # a seed drawn: said and recorded
    write_result(
        stdout,
        args.format,
        document=lambda: result_to_dict(result, context),
        table=lambda: result_to_csv(result),
        text=lambda: (
            f"A: {estimator_a!r}\nB: {estimator_b!r}\n"
            f"data: {data.description}\ncv: {cv!r}\n\n"
            f"{result.summary(show='all' if args.all_tests else 'default')}\n"
        ),
    )
    if plot_path is not None:
        save_figure(plot_figure(result, names), plot_path, args=args, stderr=stderr)
    return result


# --------------------------------------------------------------------------
# Output


def result_to_dict(result, context):
    """The JSON document of ``--format json``: ``result.to_dict()`` and the
    command line's settings."""
    return result_document(result, context)


def result_to_csv(result):
    """The CSV text of ``--format csv``: one row per test (with its status),
    then one per split (the scores)."""
    return result_table(result)


def _plot_title(result, names):
    """One line above the --plot figure: the verdict, with the real names."""
    verdict = result.verdict
    if verdict.test is None or verdict.test not in result.tests:
        return f"A = {names[0]}, B = {names[1]}"
    decision = {
        "A better": f"significant: {names[0]} better",
        "B better": f"significant: {names[1]} better",
    }.get(verdict.decision, "no significant difference")
    p_text = "" if verdict.pvalue is None else f" (p = {verdict.pvalue:.3g})"
    return f"{verdict.test}{p_text}: {decision} at alpha = {result.alpha}"


def plot_figure(result, names):
    """The ``--plot`` figure of ``result``.

    Top row: the per-split differences and, when it was run, the posterior
    of the Bayesian correlated t test; bottom row (classifiers): the mean
    and effective contingency tables. The title is the verdict.
    """
    has_tables = result.get("tables", None) is not None
    has_posterior = "bayesian_correlated_t" in result.tests
    n_rows = 2 if has_tables else 1
    fig = new_figure(figsize=(12, 4.2 + 3.6 * (n_rows - 1)), layout="constrained")
    from .._plot import (
        ContingencyTableDisplay,
        PosteriorDisplay,
        ScoreDifferencesDisplay,
    )

    grid = fig.add_gridspec(n_rows, 2, height_ratios=[1.15, 1][:n_rows])
    ScoreDifferencesDisplay.from_result(
        result,
        estimator_names=names,
        ax=fig.add_subplot(grid[0, 0] if has_posterior else grid[0, :]),
    )
    if has_posterior:
        PosteriorDisplay.from_result(
            result, estimator_names=names, ax=fig.add_subplot(grid[0, 1])
        )
    if has_tables:
        bcv = result.tests.get("bcv_mcnemar", None)
        n_panels = 2 if bcv is not None and "effective_table" in bcv else 1
        axes = [fig.add_subplot(grid[1, i]) for i in range(n_panels)]
        ContingencyTableDisplay.from_result(
            result, estimator_names=names, ax=axes, show_splits=False
        )
    fig.suptitle(_plot_title(result, names), fontsize="large")
    return fig


COMMAND = Subcommand(
    name="compare",
    summary="two estimators (the default: what runs without a subcommand)",
    description=(
        "Compare two scikit-learn estimators with sound statistical tests "
        "on block-regularized m×2 cross-validation. Without arguments: a "
        "5×2 BCV comparison of a scaled logistic regression and a random "
        "forest on the bundled breast cancer data."
    ),
    examples=(
        "sklearn-bcv",
        "sklearn-bcv --dataset wine --tests bcv_mcnemar,calibrated_f_5x2bcv",
        "sklearn-bcv --data train.csv --target label --format json",
        "sklearn-bcv --estimator-b sklearn.svm.SVC --params-b '{\"C\": 10}'",
        "sklearn-bcv --cv mx2 --repeats 3 --plot comparison.png",
    ),
    add_arguments=add_arguments,
    run=run,
    test_lists={"tests": "pair"},
)
