"""Score tables with holes and with several runs per cell.

The one path by which :func:`~sklearn_bcv.compare_scores`,
:func:`~sklearn_bcv.benchmark` and the command line's ``scores`` read a
results table that is not one finite number per cell:

* **holes**: NaN where an estimator has no score on a data set (it crashed,
  timed out, or a paper printed none). ``missing="error"`` refuses them,
  naming the cells; ``"drop"`` leaves out the data sets with a hole;
  ``"skillings_mack"`` keeps every score (the Skillings–Mack test, and
  pairwise tests on the data sets both estimators have). With per-split
  scores a cell with a missing split is a hole (a mean over the other
  splits would be biased: the failures are rarely at random).
* **runs**: several runs of each estimator on each data set (random seeds
  of a stochastic learner), an (n_datasets, k, n_runs) array with
  ``runs=True`` or a long table with a ``run`` column. The ranks and rank
  tests use each cell's mean over its runs; the tests of per-split
  differences (``poisson_binomial``, ``bayesian_hierarchical``) use the
  runs, paired by run (run r of A with run r of B), independent of each
  other (correlation 0) unless ``n_train`` and ``n_test`` say they are
  cross-validation splits. A run that is NaN is left out of its cell's
  mean; a cell with no run is a hole.

Everything is checked here, before any statistic runs, and what was found
is returned beside the table (:class:`TableInput`), for the result to say.
"""

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from sklearn.utils import Bunch

from ..stats._registry import (
    ALL_AT_ONCE_ROLES,
    available_tests,
    default_tests,
    get_entry,
    keyword_names,
)
from ..stats._ties import merge_rows, precision_of, scores_precision, tie_unit
from ..stats._utils import power_of_two_scale, unscale
from ._scores import ScoreTable, _frame_values, _is_frame, _labels, check_sizes
from ._scores import score_table as _complete_table
from ._validation import check_names

__all__ = [
    "MISSING",
    "IncompleteTable",
    "TableInput",
    "array_from_cells",
    "benchmark_holes",
    "check_auto",
    "check_missing",
    "check_plan",
    "check_takes_holes",
    "describe_holes",
    "incomplete_defaults",
    "lacking_cells",
    "nan_mean",
    "pairs_without_data",
    "planning_needs",
    "read_table",
    "with_run_correlation",
]

#: What ``missing=`` takes.
MISSING = ("error", "drop", "skillings_mack")

#: How many data sets a message about holes names before "and N more".
NAMED = 50

_HINT = (
    "pass missing='skillings_mack' to keep every score (the Skillings–Mack "
    "test, and each pair on the data sets both have), or missing='drop' to "
    "leave out the data sets with a hole"
)


def check_missing(missing):
    """``missing`` as one of :data:`MISSING`."""
    if not isinstance(missing, str) or missing not in MISSING:
        raise ValueError(f"missing must be one of {list(MISSING)}; got {missing!r}.")
    return missing


# --------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------


@dataclass
class IncompleteTable(ScoreTable):
    """A :class:`ScoreTable` with holes (NaN cells) or runs.

    ``observed`` (N, k) marks the cells with a score; ``complete`` those
    whose every split or run is finite (the rows the tests of per-split
    differences can use); with ``runs`` the ``split_scores`` hold the runs,
    (N, n_runs, k), and without ``n_train`` / ``n_test`` they are
    independent (a test that takes ``rho`` is given 0).
    """

    observed: np.ndarray | None = None
    complete: np.ndarray | None = None
    runs: bool = False

    @property
    def has_holes(self):
        return not bool(self.observed.all())

    @property
    def per_pair(self):
        """Whether the pairs have different rows (holes, or runs missing),
        so that each pair's test runs on its own."""
        return not bool(self.complete.all())

    @property
    def independent_runs(self):
        """Runs without set sizes: independent replicates (correlation 0)."""
        return self.runs and self.n_train is None

    def _sizes(self, rows):
        needs = {}
        for name in ("n_train", "n_test"):
            value = getattr(self, name)
            if value is not None:
                needs[name] = value[rows]
            elif self.independent_runs:
                needs[name] = None  # the test is given rho=0
        return needs

    def pair_needs(self, a, b, only=None):
        """The needs of A = column ``a``, B = ``b`` on the data sets both
        have (and, for the split differences, where both have every split
        or run)."""
        rows, complete = self._pair_rows((a, b))
        needs = {"dataset_differences": self._difference(self.scores[rows], a, b)}
        # The tie rule's scale of each difference: its own pair's scores on
        # its own data set, on the rows of the differences the test takes.
        scale = np.nan_to_num(self._pair_scale(a, b))
        splits = only is not None and "split_differences" in only
        needs["score_scale"] = scale[complete if splits else rows]
        if self.split_scores is not None:
            needs["split_differences"] = self._difference(
                self.split_scores[complete], a, b
            )
            needs.update(self._sizes(complete))
        if only is not None:
            needs = {key: value for key, value in needs.items() if key in only}
        return needs

    def _pair_rows(self, pair):
        """The rows of a pair: where both are scored, and where both have
        every split or run."""
        a, b = pair
        return (
            self.observed[:, a] & self.observed[:, b],
            self.complete[:, a] & self.complete[:, b],
        )

    @property
    def pairs_needs(self):
        """The batched needs of many pairs; with holes, of pairs with the
        same rows (``group_of`` gives a pair's group, by which
        :func:`~sklearn_bcv._results._pairwise.run_pairwise` batches)."""
        if self.per_pair:

            def needs_of_group(pairs, only=None):
                parts = [self.pair_needs(a, b, only) for a, b in pairs]
                needs = {}
                for name, value in parts[0].items():
                    if value is None or name in ("n_train", "n_test"):
                        needs[name] = value
                    else:
                        needs[name] = np.stack([part[name] for part in parts])
                return needs

            def group_of(pair):
                return tuple(rows.tobytes() for rows in self._pair_rows(pair))

            needs_of_group.group_of = group_of
            return needs_of_group

        def needs_of_pairs(pairs, only=None):
            needs = ScoreTable.pairs_needs(self, pairs, only)
            everything = np.ones(len(self.datasets), dtype=bool)
            for name, value in self._sizes(everything).items():
                if only is None or name in only:
                    needs[name] = value
            return needs

        return needs_of_pairs


def pairs_without_data(table, pairs, *, at_least=2):
    """The pairs ``(a, b)`` with fewer than ``at_least`` data sets in common."""
    if not isinstance(table, IncompleteTable) or not table.has_holes:
        return []
    observed = table.observed
    return [
        (a, b)
        for a, b in pairs
        if int(np.count_nonzero(observed[:, a] & observed[:, b])) < at_least
    ]


def nan_mean(values, axis):
    """The mean of the finite values along ``axis`` (NaN where none), as
    :func:`~sklearn_bcv.stats._utils.stable_mean`: no overflow."""
    values = np.asarray(values, dtype=np.float64)
    finite = ~np.isnan(values)
    count = finite.sum(axis=axis)
    scaled, exponent = power_of_two_scale(np.where(finite, values, 0.0), axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.sum(scaled, axis=axis) / count
    return np.where(count > 0, unscale(mean, exponent), np.nan)


# --------------------------------------------------------------------------
# What was found
# --------------------------------------------------------------------------


class TableInput(NamedTuple):
    """A checked table and what the result says of it.

    ``table`` is a :class:`ScoreTable` (complete, one number per cell: the
    path of a table without holes is unchanged) or an
    :class:`IncompleteTable`; ``missing`` a Bunch: ``mode``, ``cells``
    (``[data set, estimator]`` of every hole of the table given),
    ``dropped`` (the data sets left out); ``runs`` a Bunch (``scores``
    (n_datasets, k, n_runs) in the units given, ``n_runs`` per cell,
    ``correlation``) or None; ``user_scores`` the (n_datasets, k) cell means
    (NaN at the holes) and ``user_splits`` the per-split scores as given
    (None for runs), on the rows kept.
    """

    table: ScoreTable
    missing: Bunch
    runs: Bunch | None
    user_scores: np.ndarray
    user_splits: np.ndarray | None


def describe_holes(datasets, names, lacking, *, shown=NAMED):
    """``"2 data set(s) lack a score: d4 lacks B; d7 lacks A, C"``.

    ``lacking`` maps a data set's index to the list of what it lacks (an
    estimator name, or ``"B (split 1)"``); at most ``shown`` data sets are
    named, then how many more.
    """
    parts = [
        f"{datasets[i]} lacks {', '.join(what)}"
        for i, what in list(lacking.items())[:shown]
    ]
    more = len(lacking) - shown
    text = f"{len(lacking)} data set(s) lack a score: {'; '.join(parts)}"
    if more > 0:
        text += f"; and {more} more data sets"
    return text


def lacking_cells(values, names, kind, split_labels=None):
    """``{data set index: [what it lacks, ...]}`` of an array with NaN holes
    of ``kind`` ``"means"`` (N, k), ``"splits"`` (N, n_splits, k) or
    ``"runs"`` (N, k, n_runs)."""
    values = np.asarray(values, dtype=np.float64)
    if kind == "runs":
        observed = ~np.isnan(values).all(axis=2)
    elif kind == "splits":
        observed = ~np.isnan(values).any(axis=1)
    else:
        observed = ~np.isnan(values)
    return _lacking(observed, values, names, kind, split_labels)


def _lacking(observed, values, names, kind, split_labels=None):
    """``{data set index: [what it lacks, ...]}`` of a table's holes."""
    lacking = {}
    for i in np.flatnonzero(~observed.all(axis=1)):
        what = []
        for j in np.flatnonzero(~observed[i]):
            if kind == "splits":
                missing_splits = np.flatnonzero(np.isnan(values[i, :, j]))
                if missing_splits.size < values.shape[1]:
                    labels = (
                        missing_splits
                        if split_labels is None
                        else [split_labels[i][s] for s in missing_splits]
                    )
                    shown = ", ".join(str(s) for s in labels[:NAMED])
                    word = "split" if len(labels) == 1 else "splits"
                    what.append(f"{names[j]} ({word} {shown})")
                    continue
            what.append(str(names[j]))
        lacking[int(i)] = what
    return lacking


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------


def _long_columns(frame):
    """``{key: column}`` of a long DataFrame (``dataset``, ``estimator`` and
    optional ``run`` or ``split``, any case), or None for a wide one."""
    lowered = {}
    for column in frame.columns:
        if isinstance(column, str):
            lowered.setdefault(column.lower(), column)
    if "dataset" not in lowered or "estimator" not in lowered:
        return None
    keys = {
        key: lowered[key]
        for key in ("dataset", "estimator", "run", "split")
        if key in lowered
    }
    if "run" in keys and "split" in keys:
        raise ValueError(
            "scores: a long table has a 'run' column (several runs per cell) or a "
            "'split' column (the splits of a cross-validation), not both."
        )
    others = [c for c in frame.columns if c not in keys.values()]
    if "score" in lowered and lowered["score"] in others:
        keys["score"] = lowered["score"]
    elif len(others) == 1:
        keys["score"] = others[0]
    else:
        raise ValueError(
            "scores: a long table has the columns dataset, estimator, optional run "
            "or split, and one score column (named 'score', or the only other "
            f"column); got the columns {[str(c) for c in frame.columns]}."
        )
    return keys


def _order_within(groups, labels):
    """For each row, the index of its label among the labels of its group,
    in order of first appearance within the group."""
    pairs = {}
    counts = {}
    out = np.empty(len(labels), dtype=np.intp)
    for row, (group, label) in enumerate(zip(groups, labels)):
        key = (group, label)
        if key not in pairs:
            pairs[key] = counts.get(group, 0)
            counts[group] = pairs[key] + 1
        out[row] = pairs[key]
    return out


def _long_values(frame, keys):
    """``(values, datasets, names, kind, labels)`` of a long DataFrame."""
    import pandas as pd

    dataset_codes, datasets = pd.factorize(frame[keys["dataset"]], sort=False)
    name_codes, names = pd.factorize(frame[keys["estimator"]], sort=False)
    datasets, names = [str(d) for d in datasets], [str(n) for n in names]
    if (dataset_codes < 0).any() or (name_codes < 0).any():
        raise ValueError(
            "scores: a long table's dataset and estimator cells must not be empty."
        )
    try:
        scores = pd.to_numeric(frame[keys["score"]]).to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"scores: the score column {str(keys['score'])!r} must hold numbers."
        ) from None
    per = "run" if "run" in keys else "split" if "split" in keys else None
    n_datasets, k = len(datasets), len(names)
    if per is None:
        cell = dataset_codes * k + name_codes
        if np.unique(cell).size != cell.size:
            raise ValueError(
                "scores: a long table gives some (dataset, estimator) twice; give "
                "each score once (or add a 'run' column for several runs per cell)."
            )
        values = np.full((n_datasets, k), np.nan)
        values[dataset_codes, name_codes] = scores
        return values, list(datasets), list(names), "means", None
    labels = frame[keys[per]].to_numpy()
    within = _order_within(dataset_codes, labels)
    depth = int(within.max()) + 1 if within.size else 0
    cell = (dataset_codes * k + name_codes) * depth + within
    if np.unique(cell).size != cell.size:
        raise ValueError(
            f"scores: a long table gives some (dataset, estimator, {per}) twice; "
            "give each score once."
        )
    per_dataset = [[] for _ in range(n_datasets)]
    for d, w, label in zip(dataset_codes, within, labels):
        if w == len(per_dataset[d]):
            per_dataset[d].append(label)
    if per == "split":
        counts = {len(found) for found in per_dataset}
        if len(counts) > 1:
            raise ValueError(
                "scores: per-split scores need the same number of splits on every "
                f"data set; got {sorted(counts)}."
            )
        values = np.full((n_datasets, depth, k), np.nan)
        values[dataset_codes, within, name_codes] = scores
        return values, list(datasets), list(names), "splits", per_dataset
    values = np.full((n_datasets, k, depth), np.nan)
    values[dataset_codes, name_codes, within] = scores
    return values, list(datasets), list(names), "runs", per_dataset


def _checked_array(values, kind):
    """``values`` as a float array of the shape of ``kind``; NaN is a hole,
    an infinity an error."""
    shapes = {
        "means": "(n_datasets, k)",
        "splits": "(n_datasets, n_splits, k)",
        "runs": "(n_datasets, k, n_runs)",
    }
    try:
        arr = np.asarray(values)
    except ValueError:
        raise ValueError(
            f"scores must be an array of shape {shapes[kind]}; got a ragged nested "
            "sequence."
        ) from None
    if arr.dtype.kind not in "biuf":
        raise ValueError(
            f"scores must hold numbers (higher is better); got dtype {arr.dtype}."
        )
    ndim = 2 if kind == "means" else 3
    if arr.ndim != ndim:
        raise ValueError(
            f"scores must be an array of shape {shapes[kind]}; got shape {arr.shape}."
        )
    k_axis = 2 if kind == "splits" else 1
    if arr.shape[0] < 2 or arr.shape[k_axis] < 2:
        raise ValueError(
            f"scores must hold at least 2 data sets and 2 estimators (shape "
            f"{shapes[kind]}); got shape {arr.shape}."
        )
    if kind == "splits" and arr.shape[1] < 2:
        raise ValueError(
            "per-split scores (n_datasets, n_splits, k) need at least 2 splits per "
            f"data set; got shape {arr.shape}."
        )
    if kind == "runs" and arr.shape[2] < 1:
        raise ValueError(f"runs need at least 1 run per cell; got shape {arr.shape}.")
    arr = arr.astype(np.float64)
    if np.isinf(arr).any():
        where = np.argwhere(np.isinf(arr))[0].tolist()
        raise ValueError(
            f"scores must be finite (NaN marks a missing score); got "
            f"{arr[tuple(where)]} at index {where}."
        )
    return arr


def _input_values(scores, runs):
    """``(values, datasets, names, kind, labels)`` of what the user gave."""
    labels = None
    if _is_frame(scores):
        keys = _long_columns(scores)
        if keys is not None:
            values, datasets, names, kind, labels = _long_values(scores, keys)
            if runs is False and kind == "runs":
                raise ValueError(
                    "scores: the long table has a 'run' column, but runs=False; "
                    "drop the column, or leave runs=None."
                )
            if runs is True and kind != "runs":
                raise ValueError(
                    "runs=True takes a long table with a 'run' column (or an array "
                    "(n_datasets, k, n_runs)); this one has none."
                )
            return values, datasets, names, kind, labels
        values, datasets, names = _frame_values(scores)
        if runs and values.ndim == 3:  # rows indexed by (data set, run)
            return np.swapaxes(values, 1, 2), datasets, names, "runs", None
    else:
        values, datasets, names = scores, None, None
    kind = "means"
    if np.ndim(values) == 3:
        kind = "runs" if runs else "splits"
    elif runs:
        raise ValueError(
            "runs=True takes scores of shape (n_datasets, k, n_runs) (or a long "
            f"table with a 'run' column); got shape {np.shape(values)}."
        )
    return values, datasets, names, kind, labels


def _check_runs(runs):
    if runs is not None and not isinstance(runs, bool | np.bool_):
        raise ValueError(f"runs must be None, True or False; got {runs!r}.")
    return None if runs is None else bool(runs)


def read_table(
    scores,
    *,
    names=None,
    datasets=None,
    n_train=None,
    n_test=None,
    runs=None,
    missing="error",
    split_labels=None,
):
    """Check a score table with possible holes and runs: a :class:`TableInput`.

    Parameters are those of :func:`~sklearn_bcv.compare_scores`;
    ``split_labels`` (one list per data set) names the splits or runs in
    the messages (the command line's labels; default: their index).
    """
    missing = check_missing(missing)
    runs = _check_runs(runs)
    precision = precision_of(scores)  # float32 scores tie at float32's
    values, frame_datasets, frame_names, kind, labels = _input_values(scores, runs)
    arr = _checked_array(values, kind)
    labels = split_labels if split_labels is not None else labels
    n_datasets = arr.shape[0]
    k = arr.shape[1] if kind == "runs" else arr.shape[-1]
    if kind != "runs" and names is not None and arr.ndim == 3:
        given = len(names) if not isinstance(names, str) else None
        if given == arr.shape[1] != arr.shape[2]:
            raise ValueError(
                f"scores of shape {arr.shape} are read as (n_datasets, n_splits, "
                f"k) per-split scores, but names has {given} names, the length of "
                "the second axis: for several runs per cell, (n_datasets, k, "
                "n_runs), pass runs=True."
            )
    names = _labels(
        names,
        frame_names or [f"estimator_{j}" for j in range(k)],
        argument="names",
        expected="estimator (column)",
    )
    datasets = _labels(
        datasets,
        frame_datasets or [f"dataset_{i}" for i in range(n_datasets)],
        argument="datasets",
        expected="data set (row)",
    )
    names = check_names(list(names), argument="names")
    datasets = check_names([str(d) for d in datasets], argument="datasets")
    n_train = check_sizes(n_train, n_datasets, name="n_train")
    n_test = check_sizes(n_test, n_datasets, name="n_test")
    if kind == "runs":
        by_run = np.moveaxis(arr, 2, 1)  # (N, n_runs, k), as split scores
        observed = ~np.isnan(arr).all(axis=2)
        complete = ~np.isnan(arr).any(axis=2)
        means = nan_mean(arr, axis=2)
    elif kind == "splits":
        observed = complete = ~np.isnan(arr).any(axis=1)
        # A cell that lacks a split is a hole: none of its splits is used.
        by_run = np.where(observed[:, None, :], arr, np.nan)
        means = np.where(observed, nan_mean(arr, axis=1), np.nan)
    else:
        by_run = None
        observed = complete = ~np.isnan(arr)
        means = arr
    lacking = _lacking(observed, arr, names, kind, labels)
    if not observed.any(axis=0).all():
        empty = [names[j] for j in np.flatnonzero(~observed.any(axis=0))]
        raise ValueError(
            f"scores: estimator(s) {empty} have no score on any data set; leave "
            "them out."
        )
    if lacking and missing == "error":
        raise ValueError(
            "scores must be finite (NaN marks a missing score, which "
            f"missing='error' refuses); {describe_holes(datasets, names, lacking)}; "
            f"{_HINT}."
        )
    cells = [[datasets[i], names[j]] for i, j in zip(*np.nonzero(~observed))]
    keep = np.ones(n_datasets, dtype=bool)
    if missing == "drop":
        keep = observed.all(axis=1)
        if keep.sum() < 2:
            raise ValueError(
                f"scores: {int(keep.sum())} data set(s) without a hole remain after "
                "missing='drop' left out those with one "
                f"({describe_holes(datasets, names, lacking)}); comparing across "
                "data sets needs at least 2: pass missing='skillings_mack' to keep "
                "every score."
            )
    dropped = [datasets[i] for i in np.flatnonzero(~keep)]
    report = Bunch(mode=missing, cells=cells, dropped=dropped)
    kept = [datasets[i] for i in np.flatnonzero(keep)]
    sizes = [None if s is None else s[keep] for s in (n_train, n_test)]
    user_splits = None if kind != "splits" else arr[keep]
    if kind != "runs" and bool(observed[keep].all()):  # today's path, unchanged
        table = _complete_table(
            means[keep] if kind == "means" else by_run[keep],
            names=list(names),
            datasets=kept,
            n_train=sizes[0],
            n_test=sizes[1],
            precision=precision,
        )
        return TableInput(table, report, None, table.scores, user_splits)
    means, cell_scale = _merged_means(means, by_run, precision)
    table = IncompleteTable(
        scores=means[keep],
        names=list(names),
        datasets=kept,
        split_scores=None if by_run is None else by_run[keep],
        n_train=sizes[0],
        n_test=sizes[1],
        observed=observed[keep],
        complete=complete[keep],
        runs=kind == "runs",
        precision=precision,
        cell_scale=None if cell_scale is None else cell_scale[keep],
    )
    run_info = None
    if kind == "runs":
        counts = (~np.isnan(arr[keep])).sum(axis=2)
        run_info = Bunch(
            scores=arr[keep],
            n_runs=counts,
            correlation=None if n_train is not None else 0.0,
        )
    return TableInput(table, report, run_info, table.scores, user_splits)


def _merged_means(means, by_run, precision):
    """``(means, cell_scale)``: the means of per-split scores or runs
    (``by_run``, (N, n, k), NaN where absent) made equal within each data
    set when equal in the user's decimals (each by the magnitude of its
    own scores), and the largest ``|score|`` each mean comes from; the
    user's own scores (``by_run`` None) as they are."""
    if by_run is None:
        return means, None
    magnitude = np.abs(np.where(np.isnan(by_run), 0.0, by_run))
    cell_scale = magnitude.max(axis=1) if by_run.shape[1] else np.zeros(means.shape)
    with scores_precision(precision):
        return merge_rows(means, tie_unit() * cell_scale), cell_scale


def array_from_cells(cells, names, datasets, *, per=None):
    """The array of a table read as ``{data set: {estimator: value}}`` (or
    ``{estimator: {label: value}}`` with ``per`` = ``"split"`` or
    ``"run"``), NaN where a cell (or a split, a run) is absent; and the
    labels of the splits or runs of each data set (None without ``per``).

    Splits of a data set are its labels in order of first appearance, and
    every data set must have as many; runs may differ in number.
    """
    n_datasets, k = len(datasets), len(names)
    if per is None:
        values = np.full((n_datasets, k), np.nan)
        for i, dataset in enumerate(datasets):
            row = cells[dataset]
            for j, name in enumerate(names):
                value = row.get(name)
                if value is not None:
                    values[i, j] = value
        return values, None
    labels = []
    for dataset in datasets:
        found = {}
        for value in cells[dataset].values():
            if isinstance(value, dict):
                found.update(dict.fromkeys(value))
        labels.append(list(found))
    depth = max((len(found) for found in labels), default=0)
    if per == "split" and len({len(found) for found in labels}) > 1:
        raise ValueError(
            "per-split scores need the same number of splits on every data set; "
            "got "
            + ", ".join(f"{d}: {len(found)}" for d, found in zip(datasets, labels))
        )
    values = np.full((n_datasets, depth, k), np.nan)
    for i, dataset in enumerate(datasets):
        position = {label: s for s, label in enumerate(labels[i])}
        for j, name in enumerate(names):
            for label, value in (cells[dataset].get(name) or {}).items():
                if value is not None:
                    values[i, position[label], j] = value
    if per == "run":
        values = np.moveaxis(values, 1, 2)  # (N, k, n_runs)
    return values, labels


# --------------------------------------------------------------------------
# benchmark: the holes its failed fits leave
# --------------------------------------------------------------------------


def benchmark_holes(table, failed, missing):
    """The :class:`TableInput` of ``benchmark``'s table, whose cells with a
    failed fit (``failed``: (n_datasets, k) bool, any split failed) are
    holes.

    ``missing="error"`` keeps the table as it is (no test runs on it: the
    fits are kept, and the result names the failed cells);
    ``"drop"`` leaves out the data sets with a failed cell; and
    ``"skillings_mack"`` keeps every other cell.
    """
    missing = check_missing(missing)
    datasets, names = list(table.datasets), list(table.names)
    cells = [[datasets[i], names[j]] for i, j in zip(*np.nonzero(failed))]
    report = Bunch(mode=missing, cells=cells, dropped=[])
    splits = table.split_scores
    if missing == "error" or not failed.any():
        return TableInput(table, report, None, table.scores, splits)
    observed = ~failed
    keep = np.ones(len(datasets), dtype=bool)
    if missing == "drop":
        keep = observed.all(axis=1)
        report.dropped = [datasets[i] for i in np.flatnonzero(~keep)]
        if keep.sum() < 2:
            return TableInput(table, report, None, table.scores, splits)
        kept = dataclasses.replace(
            table,
            scores=table.scores[keep],
            datasets=[datasets[i] for i in np.flatnonzero(keep)],
            split_scores=None if splits is None else splits[keep],
            n_train=None if table.n_train is None else table.n_train[keep],
            n_test=None if table.n_test is None else table.n_test[keep],
            cell_scale=None if table.cell_scale is None else table.cell_scale[keep],
        )
        return TableInput(kept, report, None, kept.scores, kept.split_scores)
    scores = np.where(observed, table.scores, np.nan)
    if splits is not None:
        splits = np.where(observed[:, None, :], splits, np.nan)
    holed = IncompleteTable(
        scores=scores,
        names=names,
        datasets=datasets,
        split_scores=splits,
        n_train=table.n_train,
        n_test=table.n_test,
        observed=observed,
        complete=observed,
        runs=False,
        precision=table.precision,
        cell_scale=table.cell_scale,
    )
    return TableInput(holed, report, None, scores, splits)


# --------------------------------------------------------------------------
# Planning: which tests a table with holes or runs can run
# --------------------------------------------------------------------------


def incomplete_defaults(tests, control, missing):
    """``tests=`` as given, or with ``missing="skillings_mack"`` and
    ``tests=None`` the tests declared to run by default on tables with
    holes (Skillings–Mack and its post hoc family), with or without holes:
    the names of the result's tests do not depend on where the holes
    fell."""
    if tests is not None or missing != "skillings_mack":
        return tests
    context = "incomplete" if control is None else "incomplete_control"
    return [
        name for role in ALL_AT_ONCE_ROLES for name in default_tests(context, role=role)
    ]


def planning_needs(table):
    """The needs a plan may use: the table's, and for independent runs the
    set sizes too (a test that takes ``rho`` is given 0 instead)."""
    needs = set(table.available)
    if isinstance(table, IncompleteTable) and table.independent_runs:
        needs |= {"n_train", "n_test"}
    return needs


def check_auto(table):
    """``tests="auto"`` checks normality on complete columns only."""
    if isinstance(table, IncompleteTable) and table.has_holes:
        raise ValueError(
            "tests='auto' checks each estimator's scores for normality, which "
            "needs a table without holes; name the tests (missing='skillings_mack' "
            "runs skillings_mack and its post hoc family by default), or pass "
            "missing='drop'."
        )


def check_takes_holes(rank_plan, *, where="this table has holes"):
    """Refuse a test of all estimators at once that needs a complete table."""
    takes_holes = sorted(
        name for name in available_tests(kind="datasets") if get_entry(name).incomplete
    )
    for test in rank_plan:
        if not get_entry(test.name).incomplete:
            raise ValueError(
                f"{test.name} needs a score of every estimator on every data set; "
                f"{where} (missing='skillings_mack'). Tests that take holes: "
                f"{takes_holes} (or pass missing='drop')."
            )


def check_plan(table, rank_plan, pairwise_plan, pairs, names):
    """Refuse, before any test runs, what a table with holes or runs
    cannot give: a test of all estimators at once that needs a complete
    table, a test of set sizes without ``rho`` on independent runs, and a
    pair with fewer than 2 data sets in common."""
    if not isinstance(table, IncompleteTable):
        return
    if table.has_holes:
        check_takes_holes(rank_plan)
    if table.independent_runs:
        for test in pairwise_plan:
            needs_sizes = {"n_train", "n_test"} & set(test.needs)
            accepted = keyword_names(get_entry(test.name).func) or frozenset()
            if needs_sizes and "rho" not in accepted:
                raise ValueError(
                    f"{test.name} needs n_train and n_test, the set sizes of "
                    "cross-validation splits; the runs are independent (no sizes). "
                    "Pass n_train and n_test if the runs are splits."
                )
    if pairwise_plan:
        short = pairs_without_data(table, pairs)
        if short:
            shown = ", ".join(f"{names[a]} and {names[b]}" for a, b in short[:NAMED])
            raise ValueError(
                f"the pairwise tests compare each pair on the data sets both "
                f"have; {shown} have fewer than 2 in common. Pass "
                "pairwise_tests=[] (the Skillings–Mack tests still compare them "
                "through the others), or a control."
            )


def with_run_correlation(plan, table):
    """The pairwise ``plan`` with ``rho=0`` for the tests of set sizes on
    independent runs (unless the user set it)."""
    if not (isinstance(table, IncompleteTable) and table.independent_runs):
        return plan
    planned = []
    for test in plan:
        accepted = keyword_names(get_entry(test.name).func) or frozenset()
        if "rho" in accepted and "rho" not in test.params:
            test = test._replace(params={**test.params, "rho": 0.0})
        planned.append(test)
    return planned
