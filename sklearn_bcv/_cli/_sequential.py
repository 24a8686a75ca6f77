"""``sklearn-bcv sequential``: two estimators, one repetition at a time.

Fits a nested block-regularized m×2 CV repetition by repetition and stops
when the look statistic crosses a group-sequential boundary
(:func:`sklearn_bcv.sequential_compare`). ``--sequential`` given without a
subcommand selects it, so ``sklearn-bcv --sequential`` runs the main job
sequentially.
"""

from ._args import (
    CLIError,
    Subcommand,
    add_level_arguments,
    add_output_arguments,
    check_library_scoring,
    check_scoring,
    int_in,
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

__all__ = ["COMMAND", "result_to_csv", "result_to_dict", "run"]

#: Most repetitions ``--max-repeats`` takes (a boundary over more looks
#: takes seconds to compute, and 4 fits per repetition add up).
MAX_LOOKS = 50
SEQUENTIAL_TESTS = ("bcv_mcnemar", "bcv_t")
BOUNDARIES = ("obrien_fleming", "pocock")


def _rope(text):
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number >= 0; got {text!r}"
        ) from None
    if not value >= 0 or value == float("inf"):  # also rejects nan
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0; got {text}")
    return value


def _probability(text):
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number in [0, 1); got {text!r}"
        ) from None
    if not 0 <= value < 1:  # also rejects nan
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1); got {text}")
    return value


def add_arguments(parser):
    """The options of ``sequential``."""
    add_data_arguments(parser)
    add_pair_estimator_arguments(parser)
    sequential = parser.add_argument_group("sequential design")
    sequential.add_argument(
        "--sequential",
        action="store_true",
        help="select this subcommand (sklearn-bcv --sequential is sklearn-bcv "
        "sequential)",
    )
    sequential.add_argument(
        "--test",
        choices=SEQUENTIAL_TESTS,
        default=None,
        help="the look statistic: bcv_mcnemar (classifiers' accuracy) or bcv_t "
        "(any --scoring, regression included); default: bcv_mcnemar for "
        "classifiers, bcv_t for regressors",
    )
    repeats = int_in(1, MAX_LOOKS, what=f"an integer in [1, {MAX_LOOKS}]")
    sequential.add_argument(
        "--min-repeats",
        type=repeats,
        default=3,
        metavar="M",
        help="repetitions of 2-fold CV before the first look (default: 3)",
    )
    sequential.add_argument(
        "--max-repeats",
        type=repeats,
        default=7,
        metavar="M",
        help="the last look; the data must have at least the next power of two "
        "above M records (default: 7; the first 5 repetitions are then the "
        "paper's 5×2 BCV)",
    )
    sequential.add_argument(
        "--boundary",
        choices=BOUNDARIES,
        default="obrien_fleming",
        help="obrien_fleming: wide at the first looks, near the fixed test's "
        "critical value at the last (default); pocock: the same at every look",
    )
    sequential.add_argument(
        "--rope",
        type=_rope,
        default=0.0,
        metavar="R",
        help="also stop with 'no difference' when the (1 - alpha) interval of "
        "the mean difference lies inside [-R, R] (default: 0, off)",
    )
    sequential.add_argument(
        "--futility",
        choices=("conditional_power", "none"),
        default="conditional_power",
        help="conditional_power: before the last look, stop with 'no difference "
        "found (futility)' when the chance that the last look crosses its "
        "boundary, if the difference stays the one seen so far, is below "
        "--futility-threshold (non-binding: the level can only fall; default); "
        "none: go on to --max-repeats",
    )
    sequential.add_argument(
        "--futility-threshold",
        type=_probability,
        default=0.1,
        metavar="P",
        help="the conditional power below which --futility stops (default: 0.1)",
    )
    add_level_arguments(
        sequential,
        alternative_help="greater: stop only for A better; less: only for B "
        "better (default: two-sided)",
    )
    add_output_arguments(
        parser,
        format_help="text: the looks, the boundaries and the decision (default); "
        "json; csv: one row per look",
        plot_help="also save the statistic's path against the boundaries "
        "(.png, .svg, .pdf, ...); needs matplotlib",
    )


def run(args, *, stdout, stderr):
    """Run the sequential comparison ``args`` describe; return the result."""
    if args.min_repeats > args.max_repeats:
        raise CLIError(
            f"--min-repeats {args.min_repeats} is more than --max-repeats "
            f"{args.max_repeats}"
        )
    plot_path = None if args.plot is None else check_plot_path(args.plot)
    data = load_data(args)
    check_scoring(args.scoring, data.task, data.y)
    test = args.test or ("bcv_mcnemar" if data.task == "classification" else "bcv_t")
    if test == "bcv_mcnemar" and data.task != "classification":
        raise CLIError(
            "--test bcv_mcnemar compares classifiers; the target is continuous: "
            "use --test bcv_t"
        )
    (estimator_a, estimator_b), names = build_pair_estimators(args, data, stderr)

    from .._results._sequential import format_sequential_summary
    from .._sequential import sequential_compare

    message = (
        f"fitting {names[0]} and {names[1]} one repetition at a time on "
        f"{data.description}"
    )
    with (
        fitting(message, args, stderr) as verbose,
        check_library_scoring(args.scoring),
    ):
        try:
            result = sequential_compare(
                estimator_a,
                estimator_b,
                data.X,
                data.y,
                test=test,
                min_repeats=args.min_repeats,
                max_repeats=args.max_repeats,
                boundary=args.boundary,
                alpha=args.alpha,
                alternative=args.alternative,
                rope=args.rope,
                futility=None if args.futility == "none" else args.futility,
                futility_threshold=args.futility_threshold,
                scoring=args.scoring,
                n_jobs=args.n_jobs,
                verbose=verbose,
                random_state=args.random_state,
            )
        except ValueError as exc:
            if "is too large for" in str(exc):
                raise CLIError(f"--max-repeats: {exc}") from None
            raise
    context = {
        "data": data.description,
        "task": data.task,
        "estimator_a": repr(estimator_a),
        "estimator_b": repr(estimator_b),
        "cv": repr(result.cv),
        "scoring": args.scoring,
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
            f"data: {data.description}\ncv: {result.cv!r}\n\n"
            f"{format_sequential_summary(result, where='cli')}\n"
        ),
    )
    if plot_path is not None:
        save_figure(plot_figure(result, names), plot_path, args=args, stderr=stderr)
    return result


# --------------------------------------------------------------------------
# Output


def result_to_dict(result, context):
    """The JSON document of ``--format json``: ``result.to_dict()``, the
    command line's settings, the looks as rows (``looks``) and the
    fixed-design tests on the same fits (``fixed_design_tests``, not
    sequentially adjusted)."""
    from .._results._document import to_plain
    from .._results._sequential import look_rows

    extra = {
        "looks": look_rows(result),
        "fixed_design_tests": to_plain(dict(result.comparison.tests)),
    }
    return result_document(result, {**context, **extra})


def result_to_csv(result):
    """The CSV text of ``--format csv``: one row per look."""
    return result_table(result)


def plot_figure(result, names):
    """The ``--plot`` figure: the path against the boundaries."""
    from .._plot import SequentialDisplay

    fig = new_figure(figsize=(7, 4.6), layout="constrained")
    SequentialDisplay.from_result(result, estimator_names=names, ax=fig.add_subplot())
    return fig


COMMAND = Subcommand(
    name="sequential",
    summary="two estimators, one repetition at a time until the answer is clear",
    description=(
        "Compare two scikit-learn estimators on a sequential block-regularized "
        "m×2 CV: fit one repetition (two splits, both estimators) at a time from "
        "--min-repeats on, and stop as soon as the look statistic crosses a "
        "group-sequential boundary (overall level alpha) or --max-repeats is "
        "reached. Without arguments: the main job's two estimators on the "
        "bundled breast cancer data."
    ),
    examples=(
        "sklearn-bcv --sequential",
        "sklearn-bcv sequential --dataset wine --boundary pocock --plot path.png",
        "sklearn-bcv sequential --dataset diabetes --max-repeats 10 --format json",
        "sklearn-bcv sequential --rope 0.01 --alternative greater",
        "sklearn-bcv sequential --dataset wine --futility none",
    ),
    add_arguments=add_arguments,
    run=run,
    implied_by=("--sequential",),
)
