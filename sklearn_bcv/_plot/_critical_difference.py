"""Demšar's critical-difference diagram of mean ranks across data sets."""

from numbers import Integral, Real

import numpy as np

from .._compat import check_matplotlib_support
from .._results._letters import check_posthoc_test, family_decisions, maximal_groups
from ..stats._ranks import critical_difference
from ..stats._registry import declared_tests, get_entry
from ._common import check_result
from ._labels import display_names
from ._validate import check_mean_ranks, check_names

__all__ = ["CriticalDifferenceDisplay"]

# Layout, in inches (the vertical axis of the drawing is in inches; on a
# figure the display makes, the horizontal one is too, up to the rank scale).
_TICK = 0.07  # length of the integer ticks (half ranks: half of it)
_PAD = 0.12  # horizontal elbow past the end of the rank axis
_GAP = 0.05  # between the end of an elbow and its name
_MARGIN = 0.08  # around the drawing
_GROUP_STEP = 0.1  # between two levels of group lines
_GROUP_WIDTH = 3.0  # points
_LINE_WIDTH = 0.9  # points


def nonsignificant_groups(mean_ranks, cd):
    """Maximal groups of estimators whose mean ranks differ by less than ``cd``.

    Parameters
    ----------
    mean_ranks : ndarray of shape (k,)
    cd : float

    Returns
    -------
    groups : list of tuple of int
        Indices into ``mean_ranks``, each group ordered best (lowest) mean
        rank first and the groups by their best member. Only groups of two
        or more estimators are returned, and none is contained in another.
        On a line, the cliques of "closer than ``cd``" are runs of
        consecutive estimators in rank order, so these are the maximal
        cliques.
    """
    order = np.argsort(mean_ranks, kind="stable")
    ranks = np.asarray(mean_ranks, dtype=float)[order]
    k = len(ranks)
    groups, last_end = [], -1
    for start in range(k):
        end = start
        while end + 1 < k and ranks[end + 1] - ranks[start] < cd:
            end += 1
        # A run ending where the previous one ended is contained in it.
        if end > last_end and end > start:
            groups.append(tuple(int(i) for i in order[start : end + 1]))
        last_end = max(last_end, end)
    return groups


def _levels(spans, min_gap):
    """A level for each span ``(low, high)`` such that the spans on one level
    are at least ``min_gap`` apart (greedy, in the given order)."""
    ends, levels = [], []
    for low, high in spans:
        for level, end in enumerate(ends):
            if low - end >= min_gap:
                ends[level] = high
                levels.append(level)
                break
        else:
            ends.append(high)
            levels.append(len(ends) - 1)
    return levels, len(ends)


class CriticalDifferenceDisplay:
    """Critical-difference diagram of mean ranks across data sets.

    Demšar's diagram (2006, Figs. 1 and 2): the mean rank of each estimator
    on an axis from 1 to k, its name joined to it by an elbow line (the
    better half of the estimators on the side of rank 1, the worse half on
    the other side), the critical difference (CD) as a bar above the axis
    and, for the Nemenyi test, thick lines joining the groups of estimators
    whose mean ranks differ by less than the CD (the maximal groups only).
    Two estimators not joined by any line differ significantly. For the
    Bonferroni–Dunn test, which compares every estimator with a control,
    the thick line is the interval of ± CD around the control's mean rank:
    the estimators outside it differ significantly from the control.

    It is recommended to build the display with :meth:`from_ranks` or
    :meth:`from_result`.

    Parameters
    ----------
    mean_ranks : array-like of shape (k,)
        Mean rank of each estimator across the data sets, 1 = best.
    names : list of str of length k
        The estimators, in the order of ``mean_ranks``; unique.
    critical_difference : float
        The critical difference of mean ranks, > 0.
    n_datasets : int
        Number of data sets the ranks are averaged over.
    test : {"nemenyi", "bonferroni_dunn"}, default="nemenyi"
        The post hoc test the CD belongs to.
    alpha : float, default=0.05
        Significance level of the CD.
    control : str, default=None
        Name of the control estimator, required by ``"bonferroni_dunn"``;
        with ``"nemenyi"`` its name is only written in bold.
    groups : list of tuple of str, default=None
        For a post hoc family drawn from its groups (every registered
        family but ``"nemenyi"`` and ``"bonferroni_dunn"``; see
        :meth:`from_result`): the maximal sets of estimators no two of which
        it finds different, each of at least two names. Then
        ``critical_difference`` is None and no bar is drawn.

    Attributes
    ----------
    ax_ : matplotlib Axes
        The axes drawn on (without frame or ticks).
    figure_ : matplotlib Figure
        The figure holding the axes.
    groups_ : list of tuple of str
        The groups joined by a thick line, names best mean rank first: with
        ``"nemenyi"``, the maximal groups of at least two estimators whose
        mean ranks differ pairwise by less than the CD; with
        ``"bonferroni_dunn"``, at most one group, the control and the
        estimators within less than the CD of it. An estimator in no group
        differs significantly from every other (from the control).
    group_lines_ : list of matplotlib Line2D
        The thick line of each group, in the order of ``groups_`` (with
        ``"bonferroni_dunn"``, empty: the interval is ``interval_line_``).
    interval_line_ : matplotlib Line2D or None
        The interval of ± CD around the control, clipped to the rank axis,
        with ``"bonferroni_dunn"``; None with ``"nemenyi"``.
    name_texts_ : dict of str to matplotlib Text
        The label of each estimator.
    elbow_lines_ : dict of str to matplotlib Line2D
        The line from each estimator's mean rank to its label.
    axis_line_ : matplotlib Line2D
        The rank axis.
    cd_line_ : matplotlib Line2D or None
        The bar of length CD above the axis (None for a family drawn from
        its groups).
    cd_text_ : matplotlib Text
        The value of the CD, above its bar (for a family drawn from its
        groups: its name and alpha).
    order_ : ndarray of shape (k,)
        Indices into ``names`` by increasing mean rank (best first).

    See Also
    --------
    SignificanceMatrixDisplay : The pairwise tests of k estimators as a
        heat map.
    PosteriorSimplexDisplay : Posterior of a Bayesian comparison across data
        sets.

    Notes
    -----
    The critical difference is that of the Nemenyi test (all pairs) or of
    the Bonferroni–Dunn test (against a control), as given by
    :func:`sklearn_bcv.stats._ranks.critical_difference` [1]_. Two mean
    ranks that differ by at least the CD differ significantly.

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research, 7:1–30, 2006.

    Examples
    --------
    Demšar's example (§3.2.2): four algorithms on 14 data sets. At
    alpha = 0.05 even the best and the worst mean ranks are closer than the
    CD, so one line joins them all; at alpha = 0.10, with Demšar's CD,
    C4.5 differs from the two best.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_bcv import CriticalDifferenceDisplay
    >>> ranks = [3.143, 2.000, 2.893, 1.964]
    >>> names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    >>> display = CriticalDifferenceDisplay.from_ranks(
    ...     ranks, n_datasets=14, names=names)
    >>> display.cd_text_.get_text()  # Demšar's 1.254, plus 1/(2N)
    'CD = 1.289'
    >>> display.groups_
    [('C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5')]
    >>> CriticalDifferenceDisplay.from_ranks(
    ...     ranks, n_datasets=14, names=names, alpha=0.10, continuity=False
    ... ).groups_
    [('C4.5+m+cf', 'C4.5+m', 'C4.5+cf'), ('C4.5+cf', 'C4.5')]
    """

    def __init__(
        self,
        mean_ranks,
        names,
        critical_difference,
        *,
        n_datasets,
        test="nemenyi",
        alpha=0.05,
        control=None,
        groups=None,
    ):
        self.mean_ranks = mean_ranks
        self.names = names
        self.critical_difference = critical_difference
        self.n_datasets = n_datasets
        self.test = test
        self.alpha = alpha
        self.control = control
        self.groups = groups

    def _bar(self):
        """Whether the test is drawn with a critical-difference bar."""
        return get_entry(self.test).diagram == "bar"

    def _check(self):
        """``(mean_ranks, names, cd)``, validated."""
        drawable = declared_tests(role="posthoc", diagram="bar") + declared_tests(
            role="posthoc", diagram="groups"
        )
        if self.test not in drawable:
            raise ValueError(
                f"test must be one of {sorted(drawable)}; got {self.test!r}."
            )
        alpha = self.alpha
        if not (isinstance(alpha, Real) and 0 < alpha < 1):
            raise ValueError(f"alpha must be a number in (0, 1); got {alpha!r}.")
        n_datasets = self.n_datasets
        if isinstance(n_datasets, bool) or not (
            isinstance(n_datasets, Integral) and n_datasets >= 2
        ):
            raise ValueError(f"n_datasets must be an integer >= 2; got {n_datasets!r}.")
        mean_ranks = check_mean_ranks(
            self.mean_ranks, complete=not get_entry(self.test).incomplete
        )
        k = len(mean_ranks)
        names = check_names(self.names, k, per="one per mean rank")
        cd = self.critical_difference
        if not self._bar():
            self._check_groups(names)
            if cd is not None:
                raise ValueError(
                    f"test={self.test!r} is drawn from its groups, without a "
                    f"critical difference; pass critical_difference=None, got {cd!r}."
                )
            cd = np.nan
        elif not (isinstance(cd, Real) and np.isfinite(cd) and cd > 0):
            raise ValueError(
                f"critical_difference must be a finite number > 0; got {cd!r}."
            )
        if self.control is not None and str(self.control) not in names:
            raise ValueError(
                f"control must be None or one of the names {names}; got "
                f"{self.control!r}."
            )
        if self.test == "bonferroni_dunn" and self.control is None:
            raise ValueError(
                "test='bonferroni_dunn' compares every estimator with a control; "
                "give control, one of the names."
            )
        return mean_ranks, names, float(cd)

    def _check_groups(self, names):
        groups = self.groups
        ok = isinstance(groups, list | tuple) and all(
            isinstance(group, list | tuple)
            and len(group) >= 2
            and len({str(member) for member in group}) == len(group)
            and all(str(member) in names for member in group)
            for group in groups
        )
        if not ok:
            raise ValueError(
                f"test={self.test!r} is drawn from its groups: pass groups, a "
                "list of tuples of at least two different names (the maximal "
                f"sets no two of which differ); got {groups!r}."
            )

    def _groups(self, mean_ranks, names, cd):
        """The groups as tuples of indices, best mean rank first."""
        if not self._bar():
            position = np.argsort(np.argsort(mean_ranks, kind="stable"), kind="stable")
            groups = [
                tuple(
                    sorted((names.index(str(m)) for m in g), key=position.__getitem__)
                )
                for g in self.groups
            ]
            return sorted(groups, key=lambda g: [position[i] for i in g])
        if self.test == "nemenyi":
            return nonsignificant_groups(mean_ranks, cd)
        c = names.index(str(self.control))
        order = np.argsort(mean_ranks, kind="stable")
        group = tuple(int(j) for j in order if abs(mean_ranks[j] - mean_ranks[c]) < cd)
        return [group] if len(group) > 1 else []

    def plot(self, ax=None, *, reverse=False, show_ranks=False, fontsize=10):
        """Draw the diagram.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on (its frame and ticks are turned off); None makes
            a new figure sized for the names and k, which is the way to get
            a publication-ready figure. On the caller's axes the drawing is
            stretched to fill them: give them a height of about 0.25 inch
            per estimator.
        reverse : bool, default=False
            False draws rank 1 (the best) on the left; True on the right, as
            Demšar's figures do. The better half of the estimators is always
            labelled on the side of rank 1.
        show_ranks : bool, default=False
            Whether to write the mean rank beside each name.
        fontsize : float, default=10
            Size of the names in points; the tick labels and the CD are
            written slightly smaller.

        Returns
        -------
        display : CriticalDifferenceDisplay
            The object itself, with ``figure_``, ``ax_``, ``groups_``,
            ``group_lines_``, ``interval_line_``, ``name_texts_``,
            ``elbow_lines_``, ``axis_line_``, ``cd_line_``, ``cd_text_``
            and ``order_`` set.
        """
        check_matplotlib_support("CriticalDifferenceDisplay.plot")
        import matplotlib.pyplot as plt

        mean_ranks, names, cd = self._check()
        k = len(names)
        control = None if self.control is None else str(self.control)
        order = np.argsort(mean_ranks, kind="stable")
        groups = self._groups(mean_ranks, names, cd)

        def xpos(rank):
            return k + 1 - rank if reverse else rank

        own_figure = ax is None
        if own_figure:
            fig = plt.figure(figsize=(6, 3))
            ax = fig.add_axes((0, 0, 1, 1))
        fig = ax.figure
        ax.set_axis_off()
        small = 0.85 * fontsize

        # The names first, to measure them; placed once the scale is known.
        # Left side: the estimators with the smallest x (the better half
        # unless reversed), the leftmost on the top row; the right side
        # mirrors it, so no elbow crosses another.
        by_x = sorted(range(k), key=lambda j: (xpos(mean_ranks[j]), j))
        n_left = -(-k // 2)
        left = by_x[:n_left]
        right = by_x[n_left:][::-1]
        texts = {}
        labels = display_names(names)  # drawable text; names stay the keys
        for side, members in (("left", left), ("right", right)):
            for j in members:
                label = labels[j]
                if show_ranks:
                    label = f"{label} ({mean_ranks[j]:.2f})"
                texts[j] = ax.text(
                    0,
                    0,
                    label,
                    ha="right" if side == "left" else "left",
                    va="center",
                    fontsize=fontsize,
                    fontweight="bold" if names[j] == control else "normal",
                )
        extents = {j: t.get_window_extent() for j, t in texts.items()}
        width = {j: e.width / fig.dpi for j, e in extents.items()}
        text_height = max(e.height for e in extents.values()) / fig.dpi
        left_text = max(width[j] for j in left)
        right_text = max((width[j] for j in right), default=0.0)
        outside_left = left_text + _PAD + _GAP + _MARGIN
        outside_right = right_text + _PAD + _GAP + _MARGIN

        # Vertical layout, in inches, the axis at y = 0.
        char = small / 72
        cd_y = _TICK + 0.05 + char * 1.2 + 0.12
        top = cd_y + 0.06 + char * 1.3 + _MARGIN
        if self.test != "bonferroni_dunn":
            spans = [
                (xpos(mean_ranks[list(g)]).min(), xpos(mean_ranks[list(g)]).max())
                for g in groups
            ]
            spans_sorted = sorted(range(len(spans)), key=lambda i: spans[i])
        else:
            spans, spans_sorted = [], []
        row = max(0.2, 1.45 * text_height)

        # Horizontal scale: inches per rank.
        if own_figure:
            axis_width = float(np.clip(0.5 * (k - 1), 2.6, 6.0))
            per_rank = axis_width / (k - 1)
            total_width = outside_left + axis_width + outside_right
        else:
            total_width = ax.get_window_extent().width / fig.dpi
            axis_width = max(
                total_width - outside_left - outside_right, 0.3 * total_width
            )
            per_rank = axis_width / (k - 1)
        # Groups on one level stay 0.1 inch apart; each line extends a
        # little past the ranks it joins.
        extend = 0.04 / per_rank
        levels, n_levels = _levels(
            [(spans[i][0] - extend, spans[i][1] + extend) for i in spans_sorted],
            min_gap=0.1 / per_rank,
        )
        if self.test == "bonferroni_dunn":
            n_levels = 1
        first_row = -(0.16 + n_levels * _GROUP_STEP + 0.06 + row / 2)
        n_rows = max(len(left), len(right))
        bottom = first_row - (n_rows - 1) * row - row / 2 - _MARGIN + 0.04

        xmin = 1 - outside_left / per_rank
        xmax = k + outside_right / per_rank
        ax.set_xlim(xmin, xmax)
        ax.set_ylim(bottom, top)
        if own_figure:
            fig.set_size_inches(total_width, top - bottom)

        line = {"color": "black", "linewidth": _LINE_WIDTH, "solid_capstyle": "butt"}
        # The rank axis, its ticks and labels.
        (self.axis_line_,) = ax.plot([1, k], [0, 0], **line)
        for r in np.arange(1, k + 0.5, 0.5):
            tick = _TICK if float(r).is_integer() else _TICK / 2
            ax.plot([r, r], [0, tick], **line)
        for r in range(1, k + 1):
            ax.text(
                r,
                _TICK + 0.05,
                str(k + 1 - r if reverse else r),
                ha="center",
                va="bottom",
                fontsize=small,
            )

        # The CD bar at the left end of the axis, its value above it; a
        # family drawn from its groups names itself and its level instead.
        if self._bar():
            bar = [1, 1 + cd]
            (self.cd_line_,) = ax.plot(bar, [cd_y, cd_y], **line)
            for x in bar:
                ax.plot([x, x], [cd_y - 0.04, cd_y + 0.04], **line)
            label, where, align = f"CD = {cd:.3f}", 1 + cd / 2, "center"
        else:
            self.cd_line_ = None
            label, where, align = f"{_title(self.test)}, α = {self.alpha:g}", 1, "left"
        self.cd_text_ = ax.text(
            where, cd_y + 0.06, label, ha=align, va="bottom", fontsize=small
        )

        # Elbows and names.
        pad, gap = _PAD / per_rank, _GAP / per_rank
        self.elbow_lines_, self.name_texts_ = {}, {}
        for side, members in (("left", left), ("right", right)):
            for i, j in enumerate(members):
                x = xpos(mean_ranks[j])
                y = first_row - i * row
                end = 1 - pad if side == "left" else k + pad
                (self.elbow_lines_[names[j]],) = ax.plot([x, x, end], [0, y, y], **line)
                texts[j].set_position((end - gap if side == "left" else end + gap, y))
                self.name_texts_[names[j]] = texts[j]

        # The groups (Nemenyi) or the interval around the control.
        thick = {
            "color": "black",
            "linewidth": _GROUP_WIDTH,
            "solid_capstyle": "round",
            "zorder": 3,
        }
        self.group_lines_ = [None] * len(spans)
        for i, level in zip(spans_sorted, levels):
            low, high = spans[i]
            y = -(0.16 + level * _GROUP_STEP)
            (self.group_lines_[i],) = ax.plot(
                [low - extend, high + extend], [y, y], **thick
            )
            if not self._bar():  # a group need not be a run of ranks: mark it
                members = xpos(mean_ranks[list(groups[i])])
                ax.plot(members, [y] * len(members), "o", color="black",
                        markersize=4, zorder=4)  # fmt: skip
        self.interval_line_ = None
        if self.test == "bonferroni_dunn":
            x = xpos(mean_ranks[names.index(control)])
            y = -0.16
            (self.interval_line_,) = ax.plot(
                [max(x - cd, 1), min(x + cd, k)], [y, y], **thick
            )
            ax.plot([x], [y], "o", color="black", markersize=5, zorder=4)

        self.groups_ = [tuple(names[j] for j in group) for group in groups]
        self.order_ = order
        self.figure_, self.ax_ = fig, ax
        return self

    @classmethod
    def from_ranks(
        cls,
        mean_ranks,
        n_datasets,
        names,
        *,
        alpha=0.05,
        test="nemenyi",
        control=None,
        continuity=True,
        ax=None,
        **plot_kwargs,
    ):
        """Plot the diagram of mean ranks, computing the critical difference.

        Parameters
        ----------
        mean_ranks : array-like of shape (k,)
            Mean rank of each estimator across the data sets, 1 = best.
        n_datasets : int
            Number of data sets the ranks are averaged over, >= 2.
        names : list of str of length k
            The estimators, in the order of ``mean_ranks``.
        alpha : float, default=0.05
            Significance level of the critical difference.
        test : {"nemenyi", "bonferroni_dunn"}, default="nemenyi"
            Nemenyi (all pairs) or Bonferroni–Dunn (against ``control``).
        control : str, default=None
            The control estimator, required by ``"bonferroni_dunn"``.
        continuity : bool, default=True
            Nemenyi's CD with the continuity correction ``1/(2N)`` that
            :func:`~sklearn_bcv.stats.nemenyi` applies by default; False
            draws Demšar's CD.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        **plot_kwargs : dict
            Passed to :meth:`plot` (``reverse``, ``show_ranks``,
            ``fontsize``).

        Returns
        -------
        display : CriticalDifferenceDisplay
            The drawn display.
        """
        k = len(np.atleast_1d(mean_ranks))
        cd = critical_difference(k, n_datasets, alpha, test, continuity=continuity)
        display = cls(
            mean_ranks,
            names,
            cd,
            n_datasets=n_datasets,
            test=test,
            alpha=alpha,
            control=control,
        )
        return display.plot(ax=ax, **plot_kwargs)

    @classmethod
    def from_result(cls, result, *, test="nemenyi", alpha=None, ax=None, **plot_kwargs):
        """Plot the diagram of a post hoc family across data sets.

        Parameters
        ----------
        result : Bunch
            Returned by :func:`~sklearn_bcv.benchmark` or
            :func:`~sklearn_bcv.compare_scores`: its ``names``,
            ``datasets``, ``mean_ranks``, ``alpha``, ``control`` and
            ``scores`` are read, and ``result.tests[test]`` when the
            comparison ran that test (else the test is run on
            ``result.scores``).
        test : str, default="nemenyi"
            The post hoc family drawn. ``"nemenyi"`` and
            ``"bonferroni_dunn"`` (which needs ``result.control``) are
            drawn with their critical-difference bar; every other family
            the registry declares (``"exact_posthoc"``, ``"holm"``,
            ``"friedman_posthoc"``, ``"aligned_posthoc"``,
            ``"quade_posthoc"``, with the
            correction they ran with) by its groups: the maximal sets of
            estimators no two of which it finds different (with a control,
            the control and the estimators not different from it), each a
            thick line with a dot on each member. The estimators sit at
            their Friedman mean ranks whatever the family.
        alpha : float, default=None
            The family-wise significance level drawn; None is the level the
            comparison ran at.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        **plot_kwargs : dict
            Passed to :meth:`plot` (``reverse``, ``show_ranks``,
            ``fontsize``).

        Returns
        -------
        display : CriticalDifferenceDisplay
            The drawn display.
        """
        check_result(
            result,
            ("names", "datasets", "mean_ranks"),
            owner="CriticalDifferenceDisplay",
            source="datasets",
        )
        test = check_posthoc_test(test, owner="CriticalDifferenceDisplay")
        if get_entry(test).diagram is None:
            raise ValueError(
                f"CriticalDifferenceDisplay: {test} cannot be drawn; choose one of "
                f"{declared_tests(role='posthoc', diagram='groups')}."
            )
        if alpha is not None and not (
            isinstance(alpha, Real) and not isinstance(alpha, bool) and 0 < alpha < 1
        ):
            raise ValueError(
                f"alpha must be None or a number in (0, 1); got {alpha!r}."
            )
        control = result.get("control", None)
        if test == "bonferroni_dunn" and control is None:
            raise ValueError(
                "test='bonferroni_dunn' compares every estimator with a control, "
                "but result.control is None; run the comparison with control, "
                "or use test='nemenyi'."
            )
        names = list(result["names"])
        n_datasets = len(result["datasets"])
        level = result.get("alpha", 0.05) if alpha is None else float(alpha)
        ran = (result.get("tests", None) or {}).get(test, None) or {}
        if get_entry(test).diagram == "bar":
            cd = ran.get("critical_difference", None)
            if cd is None or level != ran.get("alpha", level):
                cd = critical_difference(len(names), n_datasets, level, test)
            groups = None
        else:
            reject, family_control, _ = family_decisions(result, test, alpha)
            cd = None
            order = np.argsort(result["mean_ranks"], kind="stable")
            if family_control is None:
                found = maximal_groups(reject, order, min_size=2)
            else:
                c = int(family_control)
                group = [j for j in order if j == c or not reject[j, c]]
                found = [tuple(group)] if len(group) > 1 else []
                control = names[c]
            groups = [tuple(names[j] for j in group) for group in found]
        display = cls(
            result["mean_ranks"],
            names,
            None if cd is None else float(cd),
            n_datasets=n_datasets,
            test=test,
            alpha=level,
            control=control,
            groups=groups,
        )
        return display.plot(ax=ax, **plot_kwargs)


def _title(test):
    """A test's display name (a name the registry does not know, as is)."""
    from ..stats._registry import declaration

    try:
        return declaration(test).title
    except (KeyError, ValueError):
        return str(test)
