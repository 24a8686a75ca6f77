"""What ``benchmark`` and ``scores`` share: a comparison across data sets.

Both subcommands end in :func:`sklearn_bcv.compare_scores`' result: the
same test options (``--tests`` of all estimators at once,
``--pairwise-tests`` of one pair at a time, as the registry declares
them), the same ``--rope``, the same outputs (the per-data-set table, JSON,
CSV) and the same ``--plot`` (Demšar's critical-difference diagram).
"""

import argparse
import io

import numpy as np

from ._args import list_tests, parse_tests
from ._errors import CLIError
from ._output import new_figure, result_document, result_table

__all__ = [
    "add_effect_sizes_argument",
    "add_replicability_argument",
    "replicability_option",
    "effect_size_intervals",
    "compares_all_at_once",
    "list_tests_of",
    "parse_test_options",
    "plot_figure",
    "plot_test",
    "plot_title",
    "result_to_csv",
    "result_to_dict",
    "rope_width",
    "score_lines",
]


def rope_width(text):
    """An argparse type: a number >= 0 (the region of practical equivalence)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number >= 0; got {text!r}"
        ) from None
    if not value >= 0 or not np.isfinite(value):  # rejects nan and inf too
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0; got {text}")
    return value


def add_effect_sizes_argument(group):
    """``--no-effect-sizes``: compute no effect sizes (``effect_size=False``);
    ``--simultaneous-intervals``: their intervals simultaneous over the
    pairs (``effect_size_intervals="simultaneous"``). The two contradict
    each other: together, a usage error (status 2)."""
    group = group.add_mutually_exclusive_group()
    group.add_argument(
        "--no-effect-sizes",
        action="store_true",
        help="compute no effect sizes (their bootstrap intervals are the "
        "slowest part on thousands of data sets)",
    )
    group.add_argument(
        "--simultaneous-intervals",
        action="store_true",
        help="effect-size intervals that cover all the pairs together at 95%% "
        "(Bonferroni: each at 1 - 0.05/n_pairs), instead of each pair alone",
    )


def add_replicability_argument(group):
    """``--replicability``: the count of data sets on which each pair
    differs (``replicability=`` of :func:`~sklearn_bcv.compare_scores`)."""
    group.add_argument(
        "--replicability",
        choices=("bonferroni", "fisher", "none"),
        default=None,
        help="on how many data sets each pair differs (partial conjunctions of "
        "per-data-set one-sided tests; needs per-split scores with --n-train "
        "and --n-test, runs, or the fits of benchmark): bonferroni (default "
        "where possible; any dependence between data sets), fisher "
        "(independent data sets) or none",
    )


def replicability_option(args):
    """``replicability`` of :func:`~sklearn_bcv.compare_scores` from
    ``--replicability``."""
    choice = getattr(args, "replicability", None)
    return False if choice == "none" else choice


def effect_size_intervals(args):
    """``effect_size_intervals`` of :func:`~sklearn_bcv.compare_scores` from
    ``--simultaneous-intervals``."""
    return "simultaneous" if args.simultaneous_intervals else "per_pair"


def compares_all_at_once(name):
    """Whether the test across data sets ``name`` compares all k estimators
    at once (``--tests``) rather than a pair (``--pairwise-tests``), as its
    declared role says."""
    from ..stats._registry import get_entry

    return get_entry(name).all_at_once


def parse_test_options(args):
    """``(tests, pairwise_tests)``: registered tests across data sets, each
    in its own option; ``--tests auto`` is the library's automatic path."""
    if args.tests is not None and args.tests.strip() == "auto":
        _, pairwise_tests = parse_test_options(
            argparse.Namespace(tests=None, pairwise_tests=args.pairwise_tests)
        )
        return "auto", pairwise_tests
    tests = parse_tests(args.tests, kind="datasets", auto=True)
    pairwise_tests = parse_tests(
        args.pairwise_tests, kind="datasets", option="--pairwise-tests"
    )
    for option, names, at_once in (
        ("--tests", tests, True),
        ("--pairwise-tests", pairwise_tests, False),
    ):
        for name in names or []:
            if compares_all_at_once(name) != at_once:
                other = "--pairwise-tests" if at_once else "--tests"
                what = "one pair at a time" if at_once else "all at once"
                raise CLIError(f"{option}: {name} compares {what}; give it in {other}")
    return tests, pairwise_tests


def list_tests_of(option, stdout):
    """``--tests list`` / ``--pairwise-tests list``: the registered tests
    across data sets that the option takes."""
    buffer = io.StringIO()
    list_tests(buffer, "datasets")
    for line in buffer.getvalue().splitlines(keepends=True):
        if compares_all_at_once(line.split()[0]) == (option == "--tests"):
            stdout.write(line)


def score_lines(result):
    """The mean score of each estimator on each data set at the scores' own
    precision (``96.1``, not ``96.1000``), its rank in parentheses (1 =
    best), estimators in ``names`` order."""
    from .._results._blocks import fixed
    from .._results._text import text_table

    decimals = result._score_decimals()
    rows = [
        [dataset]
        + [
            "-" if np.isnan(score) else f"{fixed(score, decimals)} ({rank:g})"
            for score, rank in zip(result.scores[i], result.ranks[i])
        ]
        for i, dataset in enumerate(result.datasets)
    ]
    header = ["data set", *result.names]
    return text_table(header, rows, right_aligned=range(1, len(header)))


def result_to_dict(result, context):
    """The JSON document of ``--format json``: ``result.to_dict()`` and the
    command line's settings."""
    return result_document(result, context)


def result_to_csv(result):
    """The CSV text of ``--format csv``: the omnibus tests (Friedman and
    Iman-Davenport), each post hoc and pairwise test per compared pair, and
    the score and rank of each estimator on each data set (``section``
    says which)."""
    return result_table(result)


def plot_test(result):
    """The post hoc family the diagram draws: the first that ran and that
    the registry declares drawable (a critical-difference bar of a family
    against a control needs one), else the exact post hoc test with a
    control, else Nemenyi."""
    from ..stats._registry import declared_tests

    control = result.get("control")
    bar = declared_tests(role="posthoc", diagram="bar")
    groups = declared_tests(role="posthoc", diagram="groups")
    for name in result.tests:
        if name in groups or (
            name in bar and (name == "nemenyi" or control is not None)
        ):
            return name
    return "exact_posthoc" if control is not None else "nemenyi"


def plot_title(result, test):
    """The lines above the --plot figure: Friedman's test and the post hoc
    test drawn, with the number of data sets and alpha."""
    verdict = result.verdict
    n = len(result.datasets)
    lines = []
    if verdict.omnibus_test is not None:
        omnibus = result.tests[verdict.omnibus_test]
        outcome = "the estimators differ" if verdict.omnibus_reject else "no difference"
        lines.append(f"{verdict.omnibus_test} (p = {omnibus.pvalue:.3g}): {outcome}")
    if test in result.tests:
        differ = verdict.differ_by_test.get(test, [])
        pairs = "1 pair differs" if len(differ) == 1 else f"{len(differ)} pairs differ"
        lines.append(f"{test}: {pairs}")
    else:
        lines.append(f"{test} critical difference")
    return "\n".join(lines) + f" ({n} data sets, alpha = {result.alpha})"


def plot_figure(result):
    """The ``--plot`` figure: Demšar's critical-difference diagram.

    The display sizes a figure of its own through pyplot, which the command
    line keeps away from (:func:`._output.new_figure`); so it is drawn once
    on a scratch figure to measure it (its vertical axis is in inches, its
    horizontal one in ranks), then on a figure of that size with room for
    the title.
    """
    from .._plot import CriticalDifferenceDisplay

    test = plot_test(result)
    scratch_width = 12.0
    scratch = new_figure(figsize=(scratch_width, 4))
    display = CriticalDifferenceDisplay.from_result(
        result, test=test, ax=scratch.add_axes((0, 0, 1, 1))
    )
    bottom, top = display.ax_.get_ylim()
    xmin, xmax = display.ax_.get_xlim()
    k = len(result.names)
    per_rank = scratch_width / (xmax - xmin)
    outside = ((1 - xmin) + (xmax - k)) * per_rank
    axis_width = float(np.clip(0.5 * (k - 1), 2.6, 6.0))
    width = outside + axis_width
    height = max(top - bottom, 1.0)
    title = plot_title(result, test)
    title_height = 0.2 * (title.count("\n") + 1) + 0.2
    fig = new_figure(figsize=(width, height + title_height))
    ax = fig.add_axes((0, 0, 1, height / (height + title_height)))
    CriticalDifferenceDisplay.from_result(result, test=test, ax=ax)
    fig.suptitle(title, fontsize="medium")
    return fig
