"""Helpers shared by the Display objects: names, result fields, axes, legends.

Everything here reads fields of a result (``estimator_names``, ``design``,
``differences``, ``scoring``), never its printed text.
"""

from collections.abc import Mapping

import numpy as np

from ._labels import MAX_LABEL_LENGTH, display_text

__all__ = [
    "axes_grid",
    "check_result",
    "legend_below",
    "n_repeats_of",
    "pair_labels",
    "pair_names",
    "result_pair_names",
    "score_name_of",
    "single_axes",
]


#: Where the results the displays read come from, by kind.
_PAIR_SOURCE = "compare_estimators or compare_predictions"
_MANY_SOURCE = (
    "compare_many_estimators, compare_many_predictions, benchmark or compare_scores"
)
_DATASETS_SOURCE = "benchmark or compare_scores"
SOURCES = {
    "pair": _PAIR_SOURCE,
    "many": _MANY_SOURCE,
    "datasets": _DATASETS_SOURCE,
    "sequential": "sequential_compare",
}


def check_result(result, fields, *, owner, source):
    """``result`` must be a mapping (a result Bunch) holding ``fields``; a
    one-line error naming what ``owner`` needs and where it comes from."""
    if not isinstance(result, Mapping):
        raise TypeError(
            f"{owner} needs the result of {SOURCES[source]}; got "
            f"{type(result).__name__}."
        )
    missing = [name for name in fields if name not in result]
    if missing:
        raise ValueError(
            f"{owner} needs the result of {SOURCES[source]}; this one has no "
            f"{', '.join(missing)}."
        )


def pair_names(estimator_names, *, name="estimator_names"):
    """The names of A and B: ``("A", "B")`` for None, else two strings.

    Two equal names (two estimators of one class, as
    :func:`~sklearn_bcv.compare_estimators` names them) are told apart by
    their roles, ``"tree (A)"`` and ``"tree (B)"``: the figure must say
    which side is which.
    """
    if estimator_names is None:
        return ("A", "B")
    if isinstance(estimator_names, str) or not hasattr(estimator_names, "__iter__"):
        raise ValueError(f"{name} must hold two names (A, B); got {estimator_names!r}.")
    names = tuple(str(item) for item in estimator_names)
    if len(names) != 2:
        raise ValueError(f"{name} must hold two names (A, B); got {estimator_names!r}.")
    if names[0] == names[1]:
        names = (f"{names[0]} (A)", f"{names[1]} (B)")
    return names


def pair_labels(estimator_names, *, name="estimator_names"):
    """The names of A and B as the figure writes them: :func:`pair_names`
    made drawable (:func:`~._labels.display_text`), still told apart when
    the shortening makes them equal."""
    names = pair_names(estimator_names, name=name)
    drawn = tuple(display_text(item) for item in names)
    if drawn[0] == drawn[1]:
        short = MAX_LABEL_LENGTH - 4
        drawn = tuple(
            f"{display_text(item, limit=short)} ({role})"
            for item, role in zip(names, "AB")
        )
    return drawn


def result_pair_names(result, estimator_names):
    """``estimator_names`` when given, else ``result.estimator_names``."""
    if estimator_names is not None:
        return pair_names(estimator_names)
    return pair_names(result.get("estimator_names", None))


def score_name_of(result, default="score"):
    """``result.scoring`` when it is a name (as a figure writes it), else
    ``default``."""
    scoring = result.get("scoring", None)
    return display_text(scoring) if isinstance(scoring, str) else default


def n_repeats_of(result):
    """The number of repetitions when ``result`` comes from an m×2 design.

    ``result.design`` is the engine's design object (with ``n_repeats``) or,
    in hand-built results, a design name such as ``"bcv"``.
    """
    design = result.get("design", None)
    n_splits = len(np.asarray(result["differences"]))
    if isinstance(design, str):
        return n_splits // 2 if design in ("mx2", "bcv") and n_splits % 2 == 0 else None
    n_repeats = getattr(design, "n_repeats", None)
    return n_repeats if n_repeats is not None and 2 * n_repeats == n_splits else None


def single_axes(ax, figsize=(6, 4)):
    """``(ax, own_figure)``: the caller's axes, or one on a new figure.

    A figure the display makes uses constrained layout, so what is drawn
    outside the axes (a legend below, a colorbar) gets room.
    """
    if ax is not None:
        return ax, False
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax, True


def axes_grid(n_panels, n_cols):
    """``(figure, axes)``: a new grid of ``n_cols`` columns, one axes per panel."""
    import matplotlib.pyplot as plt

    n_rows = -(-n_panels // n_cols)
    fig, axes = plt.subplots(
        n_rows,
        n_cols,
        figsize=(2.4 * n_cols, 2.3 * n_rows),
        squeeze=False,
        constrained_layout=True,
    )
    axes = axes.ravel()
    for extra in axes[n_panels:]:
        extra.set_visible(False)
    return fig, axes[:n_panels]


def legend_below(ax, *, ncol, own_figure):
    """A legend under the axes, so it never hides the data or the annotation.

    On a figure the display made itself, a figure legend placed "outside"
    lets constrained layout make room for it; an axes legend anchored below
    the axes is only settled by a second layout pass, so the first saved
    image clips the y label. On the user's axes, the axes legend below them.
    """
    style = {"ncol": ncol, "fontsize": "small", "frameon": False}
    if own_figure:
        return ax.figure.legend(loc="outside lower center", **style)
    # On the caller's figure (a report's, drawn for a paper's column), as
    # many columns as its width holds.
    fig = ax.figure
    for columns in range(ncol, 0, -1):
        style["ncol"] = columns
        legend = ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), **style)
        if columns == 1:
            break
        fig.draw_without_rendering()
        # Centred under the axes, no wider than they are: it stays within
        # the figure whatever the labels on their left.
        if legend.get_window_extent().width <= ax.get_window_extent().width:
            break
        legend.remove()
    return legend
