"""The pairwise tests of k estimators as a heat map of p-values or decisions."""

import math
from numbers import Real

import numpy as np

from .._compat import check_matplotlib_support
from .._results._methods import adjusted_name
from .._results._roles import probability
from ..stats import available_tests
from ..stats._registry import declaration
from ._common import check_result, score_name_of
from ._labels import display_names
from ._validate import check_bool_matrix, check_matrix_size, check_names

__all__ = ["SignificanceMatrixDisplay"]

_KINDS = ("pvalue", "reject", "probability", "decision")

#: The colours of the decisions of a Bayesian test (``kind="decision"``):
#: the row better, the column better, both equivalent within the rope.
_DECISION_COLORS = {
    "row": (0.129, 0.400, 0.675),
    "column": (0.698, 0.094, 0.169),
    "rope": (0.106, 0.471, 0.216),
}
_DECISION_LABELS = {
    "row": "row (A) better",
    "column": "column (B) better",
    "rope": "neither better (rope)",
}

# Cells without a test: the diagonal, pairs left out by a control or by a
# one-sided alternative.
_UNTESTED_COLOR = "#d4d4d4"


def _p_floor(alpha):
    """The smallest p-value the colour scale tells apart from smaller ones."""
    return min(1e-4, alpha / 10)


def _text_floor(alpha):
    """P-values below it are written ``<floor`` (0.001 unless alpha is tiny)."""
    return 1e-3 if alpha > 1e-3 else 10.0 ** (math.floor(math.log10(alpha)) - 1)


def _format_pvalue(p, alpha):
    """A p-value as the tables of a report write it (three decimals,
    ``<0.001``, ``>0.999``; one format per quantity), with a finer floor
    when ``alpha`` is below 0.001."""
    floor = _text_floor(alpha)
    if floor < 1e-3 and p < 1e-3:
        return f"<{floor:g}" if p < floor else f"{p:.0e}"
    return probability(p)


def _format_probability(p):
    """A probability as the tables of a report write it: ``<0.001``,
    ``0.943``, ``>0.999``."""
    return probability(p)


def _unmasked(values):
    """Floats with NaN in the masked entries (NaN stays NaN through the
    norms, and matplotlib draws it in the colormap's "bad" colour)."""
    return np.ma.filled(np.ma.asarray(values, dtype=float), np.nan)


def _pvalue_norm(alpha):
    """Log scale of p-values with ``alpha`` at the middle of the colormap.

    The p-values below ``alpha`` use the lower half of the colormap (from
    the floor, ``min(1e-4, alpha / 10)``, and below), those above it the
    upper half, so the colour changes where the decision does.
    """
    from matplotlib.colors import FuncNorm

    knots = np.log10([_p_floor(alpha), alpha, 1.0])
    positions = [0.0, 0.5, 1.0]

    def forward(p):
        p = np.clip(_unmasked(p), 1e-300, 1.0)
        return np.interp(np.log10(p), knots, positions)

    def inverse(u):
        return 10.0 ** np.interp(u, positions, knots)

    return FuncNorm((forward, inverse), vmin=_p_floor(alpha), vmax=1.0)


def _probability_norm(alpha):
    """P(row better) with the decisions (below alpha, above 1 - alpha) in the
    outer quarters of the colormap and the undecided range in its middle."""
    from matplotlib.colors import FuncNorm

    knots = [0.0, alpha, 0.5, 1.0 - alpha, 1.0]
    positions = [0.0, 0.25, 0.5, 0.75, 1.0]

    def forward(p):
        return np.interp(_unmasked(p), knots, positions)

    def inverse(u):
        return np.interp(u, positions, knots)

    return FuncNorm((forward, inverse), vmin=0.0, vmax=1.0)


def _default_cmap(kind):
    """Colormaps that change abruptly where the decision changes.

    p-values: the significant ones (lower half) from dark red to orange, the
    others (upper half) from pale blue to white. Probabilities: saturated
    red (row worse) or blue (row better) in the decided outer quarters, pale
    in the undecided middle. Decisions: pale blue or red.
    """
    import matplotlib as mpl
    from matplotlib.colors import ListedColormap

    def part(name, low, high, n=64):
        return mpl.colormaps[name](np.linspace(low, high, n))

    if kind == "pvalue":
        colors = [part("YlOrRd_r", 0.0, 0.62), part("Blues_r", 0.72, 1.0)]
    elif kind == "probability":
        colors = [
            part("RdBu", 0.0, 0.2),
            part("RdBu", 0.32, 0.5),
            part("RdBu", 0.5, 0.68),
            part("RdBu", 0.8, 1.0),
        ]
    else:
        colors = [part("Blues_r", 0.8, 0.8, 1), part("YlOrRd_r", 0.15, 0.15, 1)]
    return ListedColormap(np.vstack(colors), name=f"significance_{kind}")


def _format_scores(scores):
    """The mean scores with one number of decimals: three significant
    digits of the largest in magnitude (``0.948``, ``0.790``; ``1234``)."""
    finite = np.abs(scores[np.isfinite(scores)])
    largest = finite.max() if finite.size else 0.0
    magnitude = math.floor(math.log10(largest)) if largest > 0 else 0
    decimals = max(0, 2 - magnitude)
    return [f"{score:.{decimals}f}" for score in scores]


def _untested_rgb():
    """The grey of the untested cells, as RGB."""
    from matplotlib.colors import to_rgb

    return np.array(to_rgb(_UNTESTED_COLOR))


def _text_color(rgba):
    """Black on light cells, white on dark ones (relative luminance)."""
    r, g, b = rgba[:3]
    return "white" if 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.45 else "black"


class SignificanceMatrixDisplay:
    """Heat map of the pairwise tests of k estimators.

    One cell per ordered pair of estimators (row = A, column = B): the
    adjusted p-value of a frequentist pairwise test (``kind="pvalue"``), its
    decision (``kind="reject"``) or, for a Bayesian test, its decision and
    the probability of the decided outcome (``kind="decision"``, the
    default of :meth:`from_result`) or the posterior probability that the
    row estimator is better than the column one (``kind="probability"``).
    The colour changes where the decision does: with the default colormaps,
    p-values below ``alpha`` are red to orange and the others pale blue to
    white; a Bayesian decision is blue (row better), red (column better) or
    green (equivalent within the rope), darker as its probability nears 1,
    and a pair without a decision is a pale tint of its likelier outcome;
    the cell writes the probability of that outcome (in bold when decided).
    The cells without a test — the diagonal, pairs left out by a control or
    by a one-sided alternative — are grey and blank. The estimators are
    ordered best first: by mean rank (``mean_ranks``) or by mean score, the
    number beside each name.

    It is recommended to build the display with :meth:`from_result`.

    Parameters
    ----------
    values : array-like of shape (k, k)
        The matrix drawn, in ``names`` order, row = A and column = B:
        p-values in [0, 1] (``kind="pvalue"``), booleans (``"reject"``) or
        probabilities P(A better than B) in [0, 1] (``"probability"``).
        Entries of untested cells are ignored; NaN in a tested cell is
        refused (for ``"reject"`` too: it is no decision). At most
        ``MAX_MATRIX_K`` = 40 estimators (the figure grows with k²).
    names : list of str of length k
        The estimators, in the order of the rows of ``values``.
    alpha : float, default=0.05
        Significance level: a p-value below ``alpha``, or a probability
        above ``1 - alpha`` (or below ``alpha``), is a decision.
    tested : array-like of bool of shape (k, k), default=None
        Which cells hold a test; None means every cell off the diagonal.
    reject : array-like of bool of shape (k, k), default=None
        The decisions, written in bold; None derives them from ``values``
        and ``alpha``: a p-value below ``alpha``, a probability above
        ``1 - alpha`` or below ``alpha`` (right without a rope only, where
        P(B better) = 1 - P(A better); with a rope, pass the test's
        decisions).
    kind : {"pvalue", "reject", "probability", "decision"}, default="pvalue"
        What ``values`` holds; ``"decision"``: P(A better), with
        ``p_b_better`` (and ``p_rope``) beside it.
    test_name : str, default=None
        Name of the test, in the title.
    correction : str, default=None
        Multiplicity correction of the p-values (``"holm"``, …), in the
        title; None means raw p-values.
    mean_scores : array-like of shape (k,), default=None
        Mean score of each estimator, written beside its name and used to
        order the estimators; None keeps ``names`` order.
    score_name : str, default=None
        Name of the score (e.g. ``"accuracy"``), in the axis label.
    p_b_better, p_rope : array-like of shape (k, k), default=None
        ``kind="decision"``: P(B better) and P(equivalent within the rope)
        (None: no rope, P(neither) = 1 - P(A better) - P(B better)).
    mean_ranks : array-like of shape (k,), default=None
        Mean rank of each estimator (1 = best): the order and the number
        beside each name, instead of ``mean_scores``.

    Attributes
    ----------
    ax_ : matplotlib Axes
        The axes of the heat map.
    figure_ : matplotlib Figure
        The figure holding the axes.
    im_ : matplotlib AxesImage
        The heat map; untested cells are masked.
    text_ : ndarray of shape (k, k), dtype=object
        The matplotlib Text of each cell, in the plotted order, or None for
        an untested cell (or when ``annotate=False``).
    colorbar_ : matplotlib Colorbar or None
        The colorbar, None when ``colorbar=False``.
    order_ : ndarray of shape (k,)
        Indices into ``names`` of the plotted rows (and columns): cell
        ``[i, j]`` of the plot is the pair
        ``(names[order_[i]], names[order_[j]])``.

    See Also
    --------
    compare_many_estimators : Fit k estimators and test every pair.
    compare_many_predictions : The same tests on predictions made elsewhere.
    PosteriorDisplay : Posterior of the Bayesian correlated t test of a pair.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sklearn_bcv import SignificanceMatrixDisplay
    >>> pvalues = np.array([[1.0, 0.2, 0.0004],
    ...                     [0.2, 1.0, 0.03],
    ...                     [0.0004, 0.03, 1.0]])
    >>> display = SignificanceMatrixDisplay(
    ...     pvalues, names=["tree", "forest", "dummy"], correction="holm",
    ...     mean_scores=[0.91, 0.95, 0.62], test_name="bcv_mcnemar").plot()
    >>> [label.get_text() for label in display.ax_.get_yticklabels()]
    ['forest (0.950)', 'tree (0.910)', 'dummy (0.620)']
    >>> display.text_[0, 2].get_text(), display.text_[1, 2].get_text()
    ('0.030', '<0.001')
    >>> display.text_[0, 0] is None
    True
    """

    def __init__(
        self,
        values,
        *,
        names,
        alpha=0.05,
        tested=None,
        reject=None,
        kind="pvalue",
        test_name=None,
        correction=None,
        mean_scores=None,
        score_name=None,
        p_b_better=None,
        p_rope=None,
        mean_ranks=None,
    ):
        self.values = values
        self.names = names
        self.alpha = alpha
        self.tested = tested
        self.reject = reject
        self.kind = kind
        self.test_name = test_name
        self.correction = correction
        self.mean_scores = mean_scores
        self.score_name = score_name
        self.p_b_better = p_b_better
        self.p_rope = p_rope
        self.mean_ranks = mean_ranks

    def _check(self):
        """``(values, names, tested, reject, mean_scores)``, validated."""
        if self.kind not in _KINDS:
            raise ValueError(
                f"kind must be one of {', '.join(map(repr, _KINDS))}; "
                f"got {self.kind!r}."
            )
        alpha = self.alpha
        if not (isinstance(alpha, Real) and 0 < alpha < 1):
            raise ValueError(f"alpha must be a number in (0, 1); got {alpha!r}.")
        values = np.asarray(self.values)
        if self.kind != "reject":
            values = values.astype(float)
        if values.ndim != 2 or values.shape[0] != values.shape[1] or not len(values):
            raise ValueError(
                "values must be a square matrix of shape (k, k); got shape "
                f"{np.shape(self.values)}."
            )
        k = len(values)
        check_matrix_size(k, name="values")
        names = check_names(self.names, k, per="one per row of values")
        tested = self._square("tested", self.tested, k)
        if tested is None:
            tested = ~np.eye(k, dtype=bool)
        if self.kind == "reject":  # NaN is no decision: refused where tested
            values = check_bool_matrix(
                np.where(tested, values, False), name="values (tested cells)"
            )
        if self.kind != "reject":
            inside = np.isfinite(values) & (values >= 0) & (values <= 1)
            if not inside[tested].all():
                what = "p-values" if self.kind == "pvalue" else "probabilities"
                raise ValueError(
                    f"values must hold {what} in [0, 1] in every tested cell."
                )
        reject = self._square("reject", self.reject, k)
        if reject is None:
            if self.kind == "pvalue":
                reject = values < alpha
            elif self.kind in ("probability", "decision"):
                reject = (values > 1 - alpha) | (values < alpha)
            else:
                reject = values
        mean_scores = self.mean_scores
        if mean_scores is not None:
            mean_scores = np.asarray(mean_scores, dtype=float)
            if mean_scores.shape != (k,):
                raise ValueError(
                    f"mean_scores must have shape (k,) = ({k},); got shape "
                    f"{mean_scores.shape}."
                )
        if self.mean_ranks is not None:
            ranks = np.asarray(self.mean_ranks, dtype=float)
            if ranks.shape != (k,):
                raise ValueError(
                    f"mean_ranks must have shape (k,) = ({k},); got shape "
                    f"{ranks.shape}."
                )
        if self.kind == "decision":
            self._outcomes = self._check_outcomes(values, tested, k)
        return values, names, tested, reject & tested, mean_scores

    def _check_outcomes(self, values, tested, k):
        """``(p_a, p_rope, p_b)`` of a decision matrix, checked."""
        if self.p_b_better is None:
            raise ValueError(
                "kind='decision' needs p_b_better (and p_rope with a rope): the "
                "decided outcome may be either estimator."
            )
        outcomes = [values]
        for name, array in (("p_rope", self.p_rope), ("p_b_better", self.p_b_better)):
            if array is None:  # no rope: the rest of the probability
                outcomes.append(None)
                continue
            array = np.asarray(array, dtype=float)
            if array.shape != (k, k):
                raise ValueError(
                    f"{name} must have the shape of values, ({k}, {k}); got shape "
                    f"{array.shape}."
                )
            inside = np.isfinite(array) & (array >= 0) & (array <= 1)
            if not inside[tested].all():
                raise ValueError(
                    f"{name} must hold probabilities in [0, 1] in every tested cell."
                )
            outcomes.append(array)
        p_a, p_rope, p_b = outcomes
        if p_rope is None:
            p_rope = np.clip(1.0 - p_a - p_b, 0.0, 1.0)
        return p_a, p_rope, p_b

    def _decisions(self, p_a, p_rope, p_b):
        """``(outcome, probability, decided)`` of every cell: the decided
        outcome (``"row"``, ``"column"``, ``"rope"``) and its probability,
        or the likelier outcome and its probability when none is decided."""
        level = 1 - self.alpha
        stacked = np.stack([p_a, p_b, p_rope])
        likeliest = np.argmax(stacked, axis=0)
        probability = np.take_along_axis(stacked, likeliest[None], axis=0)[0]
        names = np.array(["row", "column", "rope"])[likeliest]
        return names, probability, probability > level

    @staticmethod
    def _square(name, array, k):
        if array is None:
            return None
        array = check_bool_matrix(array, name=name)
        if array.shape != (k, k):
            raise ValueError(
                f"{name} must have the shape of values, ({k}, {k}); got shape "
                f"{array.shape}."
            )
        return array

    def _title(self):
        correction = self.correction and adjusted_name(self.correction)
        alpha = f"α = {self.alpha:g}"
        if self.kind == "decision":
            what = f"decision when P > {1 - self.alpha:g}"
        elif self.kind == "pvalue":
            what = (
                f"{correction}-adjusted p-values, {alpha}"
                if correction
                else f"p-values (no correction), {alpha}"
            )
        elif self.kind == "probability":
            what = f"P(A better than B); a decision beyond {1 - self.alpha:g}"
        else:
            what = f"decisions at {alpha}" + (
                f" ({correction}-adjusted p-values)" if correction else ""
            )
        return what if self.test_name is None else f"{self.test_name}\n{what}"

    def plot(
        self,
        ax=None,
        *,
        cmap=None,
        annotate=True,
        colorbar=True,
        sort=True,
        values_format=None,
        column_labels="names",
        row_labels=True,
        cell_fontsize=None,
        title=None,
    ):
        """Draw the heat map.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure sized for k estimators.
        cmap : str or matplotlib Colormap, default=None
            Colormap; None uses the display's own (see the class
            description). The threshold ``alpha`` sits at the middle of the
            colormap for p-values (on a log scale) and at its quarters for
            probabilities, so a diverging colormap shows it too.
        annotate : bool, default=True
            Whether to write the value in each tested cell.
        colorbar : bool, default=True
            Whether to add a colorbar, with the threshold marked.
        sort : bool, default=True
            Whether to order the estimators best mean score first (ties in
            ``names`` order); False keeps ``names`` order. Without
            ``mean_scores`` the order is always that of ``names``.
        values_format : str, default=None
            Format specification of the p-values and probabilities written
            in the cells (e.g. ``".2g"``); None writes them compactly
            as a report's tables do (``<0.001``, ``0.004``, ``0.630``,
            ``>0.999``).
        column_labels : {"names", "numbers"}, default="names"
            ``"numbers"`` labels the columns 1 to k and numbers the rows'
            names alike (``1 forest (0.950)``), so long names take no room
            under the heat map (the layout of a paper's column).
        row_labels : bool, default=True
            Whether to write the names beside the rows; False numbers them
            only (a panel beside another that names them).
        cell_fontsize : float or str, default=None
            Size of the values in the cells; None: ``"medium"`` up to 6
            estimators, ``"small"`` beyond.
        title : str, default=None
            The title; None: the test and what the cells hold (two lines).

        Returns
        -------
        display : SignificanceMatrixDisplay
            The object itself, with ``figure_``, ``ax_``, ``im_``, ``text_``,
            ``colorbar_`` and ``order_`` set.
        """
        check_matplotlib_support("SignificanceMatrixDisplay.plot")
        import matplotlib as mpl
        import matplotlib.pyplot as plt

        values, names, tested, reject, mean_scores = self._check()
        k = len(names)
        order = np.arange(k)
        ranks = None if self.mean_ranks is None else np.asarray(self.mean_ranks, float)
        if sort and ranks is not None:
            order = np.argsort(ranks, kind="stable")
        elif sort and mean_scores is not None:
            order = np.argsort(-mean_scores, kind="stable")
        grid = np.ix_(order, order)
        values, tested, reject = values[grid], tested[grid], reject[grid]
        drawn = display_names(names)  # drawable text of the names
        labels = [drawn[j] for j in order]
        if ranks is not None:
            labels = [f"{label} ({ranks[j]:.2f})" for label, j in zip(labels, order)]
        elif mean_scores is not None:
            scores = _format_scores(mean_scores)
            labels = [f"{label} ({scores[j]})" for label, j in zip(labels, order)]

        if ax is None:
            side = 2.2 + 0.75 * k
            _, ax = plt.subplots(figsize=(side + 1.6, side), layout="constrained")
        fig = ax.figure

        if self.kind == "decision":
            outcome, prob, decided = self._decisions(
                *(array[grid] for array in self._outcomes)
            )
            colors = self._decision_colors(outcome, prob, decided, tested)
            self.im_ = ax.imshow(colors, interpolation="nearest")
            texts = [
                self._cell_text(prob[i, j], values_format)
                for i, j in zip(*np.nonzero(tested))
            ]
            reject = decided & tested
        else:
            if self.kind == "pvalue":
                norm = _pvalue_norm(self.alpha)
            elif self.kind == "probability":
                norm = _probability_norm(self.alpha)
            else:
                norm = mpl.colors.BoundaryNorm([-0.5, 0.5, 1.5], 2)
            cmap = _default_cmap(self.kind) if cmap is None else cmap
            cmap = mpl.colormaps[cmap] if isinstance(cmap, str) else cmap
            cmap = cmap.with_extremes(bad=_UNTESTED_COLOR)
            # Untested cells are NaN, drawn in the colormap's "bad" colour.
            drawn = np.ma.masked_invalid(np.where(tested, values.astype(float), np.nan))
            self.im_ = ax.imshow(drawn, cmap=cmap, norm=norm, interpolation="nearest")
            colors = self.im_.to_rgba(drawn)
            texts = [
                self._cell_text(values[i, j], values_format)
                for i, j in zip(*np.nonzero(tested))
            ]

        self.text_ = np.full((k, k), None, dtype=object)
        if annotate:
            for (i, j), text in zip(zip(*np.nonzero(tested)), texts):
                self.text_[i, j] = ax.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    color=_text_color(colors[i, j]),
                    fontweight="bold" if reject[i, j] else "normal",
                    fontsize=cell_fontsize or ("medium" if k <= 6 else "small"),
                )

        if column_labels not in ("names", "numbers"):
            raise ValueError(
                f"column_labels must be 'names' or 'numbers'; got {column_labels!r}."
            )
        numbers = [str(i + 1) for i in range(k)]
        if column_labels == "numbers":
            ax.set_xticks(np.arange(k), labels=numbers)
            rows = [f"{i + 1}  {label}" for i, label in enumerate(labels)]
        else:
            ax.set_xticks(np.arange(k), labels=labels)
            rows = labels
        ax.set_yticks(np.arange(k), labels=rows if row_labels else numbers)
        if column_labels == "names" and (
            k > 3 or max(len(label) for label in labels) > 12
        ):
            plt.setp(
                ax.get_xticklabels(), rotation=40, ha="right", rotation_mode="anchor"
            )
        # Thin white lines between the cells.
        ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=2)
        ax.tick_params(which="minor", length=0)
        ax.spines[:].set_visible(False)
        score = (
            " (mean rank)"
            if ranks is not None
            else f" (mean {self.score_name})"
            if self.score_name and mean_scores is not None
            else ""
        )
        ax.set_ylabel(f"A{score}" if row_labels else "A")
        ax.set_xlabel(f"B{score}" if column_labels == "names" else "B")
        ax.set_title(self._title() if title is None else title, fontsize="medium")

        self._numbered = column_labels == "numbers"
        if self.kind == "decision":
            self.colorbar_ = None
            if colorbar:
                self._decision_legend(ax)
        else:
            self.colorbar_ = self._colorbar(fig, ax) if colorbar else None
        self.figure_, self.ax_, self.order_ = fig, ax, order
        return self

    def _decision_colors(self, outcome, prob, decided, tested):
        """RGBA of every cell: the outcome's colour, deep (0.55 to 1 of it,
        as its probability goes from 1 - alpha to 1) when decided, a pale
        tint (0.10 to 0.30) of the likelier outcome when not; grey when
        untested."""
        level = 1 - self.alpha
        k = len(outcome)
        rgba = np.ones((k, k, 4))
        for i in range(k):
            for j in range(k):
                if not tested[i, j]:
                    rgba[i, j, :3] = _untested_rgb()
                    continue
                p = float(prob[i, j])
                if decided[i, j]:
                    depth = 0.55 + 0.45 * (p - level) / max(1 - level, 1e-12)
                else:
                    depth = 0.10 + 0.20 * max(
                        0.0, (p - 1 / 3) / max(level - 1 / 3, 1e-12)
                    )
                base = np.array(_DECISION_COLORS[outcome[i, j]])
                rgba[i, j, :3] = 1.0 - depth * (1.0 - base)
        return rgba

    def _decision_legend(self, ax):
        """The decisions' colours, beside the heat map."""
        from matplotlib.patches import Patch

        handles = [
            Patch(facecolor=_DECISION_COLORS[key], label=_DECISION_LABELS[key])
            for key in ("row", "column", "rope")
        ]
        handles.append(Patch(facecolor=(0.93, 0.93, 0.93), label="no decision (pale)"))
        self.legend_ = ax.legend(
            handles=handles,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.12 if self._numbered else -0.35),
            ncol=2,
            frameon=False,
            fontsize="small",
            title=f"decided when P > {1 - self.alpha:g}",
            title_fontsize="small",
        )

    def _cell_text(self, value, values_format):
        if self.kind == "reject":
            return "differ" if value else "n.s."
        if values_format is not None:
            return format(value, values_format)
        if self.kind == "pvalue":
            return _format_pvalue(value, self.alpha)
        return _format_probability(value)

    def _colorbar(self, fig, ax):
        alpha = self.alpha
        colorbar = fig.colorbar(self.im_, ax=ax, shrink=0.8, aspect=25)
        if self.kind == "reject":
            colorbar.set_ticks([0, 1], labels=["n.s.", "differ"])
            colorbar.ax.tick_params(length=0)
            colorbar.set_label(f"decision at α = {alpha:g}")
            return colorbar
        if self.kind == "pvalue":
            floor = _p_floor(alpha)
            ticks = sorted({floor, 1e-3, 1e-2, alpha, 1.0} - {0.0})
            ticks = [t for t in ticks if floor <= t <= 1.0]
            labels = [
                f"≤{t:g}" if t == floor else (f"α = {t:g}" if t == alpha else f"{t:g}")
                for t in ticks
            ]
            thresholds = [alpha]
            label = "adjusted p-value" if self.correction else "p-value"
        else:
            ticks = [0.0, alpha, 0.5, 1 - alpha, 1.0]
            labels = ["0", f"{alpha:g}", "0.5", f"{1 - alpha:g}", "1"]
            thresholds = [alpha, 1 - alpha]
            label = "P(A better than B)"
        colorbar.set_ticks(ticks, labels=labels)
        colorbar.minorticks_off()
        for threshold in thresholds:
            colorbar.ax.axhline(threshold, color="black", linewidth=1.5)
        colorbar.set_label(label)
        return colorbar

    @classmethod
    def from_result(cls, result, *, test=None, kind=None, ax=None, **plot_kwargs):
        """Plot a pairwise test of a comparison of k estimators.

        Parameters
        ----------
        result : ManyComparisonResult
            Returned by :func:`~sklearn_bcv.compare_many_estimators` or
            :func:`~sklearn_bcv.compare_many_predictions`.
        test : str, default=None
            A pairwise test of ``result.pairwise``; None is the first.
        kind : {"pvalue", "reject", "probability", "decision"}, default=None
            What to draw: the adjusted p-values (``pvalue_adjusted``), the
            decisions (``reject``), or, of a Bayesian test, its decisions
            with the probability of the decided outcome (``"decision"``) or
            P(A better than B), A the row (``p_a_better``). None is
            ``"pvalue"`` for a frequentist test and ``"decision"`` for a
            Bayesian one. The title names the test by its display name;
            the estimators are ordered by mean rank when the result has
            them (across data sets), else by mean score.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        **plot_kwargs : dict
            Passed to :meth:`plot` (``cmap``, ``annotate``, ``colorbar``,
            ``sort``, ``values_format``).

        Returns
        -------
        display : SignificanceMatrixDisplay
            The drawn display.
        """
        check_result(
            result, ("names",), owner="SignificanceMatrixDisplay", source="many"
        )
        pairwise = result.get("pairwise", None) or {}
        if not pairwise:
            raise ValueError(
                "result has no pairwise test to plot (result.pairwise is "
                "empty); run the comparison with pairwise_tests, any of "
                f"{available_tests(kind='pair')} that fits its design."
            )
        if test is None:
            test = next(iter(pairwise))
        elif test not in pairwise:
            raise ValueError(
                f"test must be one of the pairwise tests of the result "
                f"{list(pairwise)}; got {test!r}."
            )
        table = pairwise[test]
        bayesian = declaration(test).bayesian
        if kind is None:
            kind = "decision" if bayesian else "pvalue"
        if kind not in _KINDS:
            raise ValueError(
                f"kind must be None or one of {', '.join(map(repr, _KINDS))}; "
                f"got {kind!r}."
            )
        if kind == "pvalue" and bayesian:
            raise ValueError(
                f"{test} is Bayesian: it gives posterior probabilities, not "
                "p-values; use kind='probability' or kind='reject'."
            )
        if kind in ("probability", "decision") and not bayesian:
            raise ValueError(
                f"{test} gives p-values, not posterior probabilities; use "
                "kind='pvalue' or kind='reject'."
            )
        field = {
            "pvalue": "pvalue_adjusted",
            "probability": "p_a_better",
            "decision": "p_a_better",
        }
        values = table[field.get(kind, "reject")]
        display = cls(
            values,
            names=result["names"],
            alpha=result.get("alpha", 0.05),
            tested=table.get("tested", None),
            reject=table.get("reject", None),
            kind=kind,
            test_name=declaration(test).title,
            correction=None if bayesian else table.get("correction", None),
            mean_scores=result.get("mean_scores", None),
            score_name=score_name_of(result, default=None),
            p_b_better=table.get("p_b_better", None) if kind == "decision" else None,
            p_rope=table.get("p_rope", None) if kind == "decision" else None,
            mean_ranks=result.get("mean_ranks", None),
        )
        return display.plot(ax=ax, **plot_kwargs)
