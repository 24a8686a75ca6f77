"""Fitting: one flat joblib pool of (data set, split, estimator) tasks.

Whatever the entry point, the fits of a comparison are one list of tasks,
one per (data set, split, estimator), run by one
:class:`~sklearn.utils.parallel.Parallel` call: each estimator is fitted
once per split, never once per pair. All the randomness is drawn in the
calling process (the splits are materialised and every task gets a clone
made there), so results do not depend on ``n_jobs`` or the joblib backend.
A task sends back only what the statistics need (the predictions, a score
when the scorer needs the fitted estimator, the timings), and the fitted
estimator only when asked for.
"""

import numbers
import os
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from traceback import format_exc

import numpy as np
from joblib import cpu_count, effective_n_jobs
from joblib.parallel import BACKENDS, get_active_backend
from sklearn import get_config
from sklearn.base import clone
from sklearn.exceptions import FitFailedWarning, UnsetMetadataPassedError
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.parallel import Parallel, delayed

from .._compat import _check_method_params, _num_samples, _safe_split
from .._split import BlockRegularized5x2CV

__all__ = [
    "DataSet",
    "FitResults",
    "default_cv",
    "fit_all",
    "materialise_splits",
    "route_params",
    "worker_count",
]

#: Backends whose workers are processes on this machine: more of them than
#: cores only adds start-up time and memory.
_LOCAL_PROCESS_BACKENDS = tuple(
    BACKENDS[name] for name in ("loky", "multiprocessing") if name in BACKENDS
)


def worker_count(n_jobs, n_tasks):
    """The number of joblib workers to run ``n_tasks`` tasks with.

    ``n_jobs`` as joblib reads it (None: the active backend's default; -1:
    every core, or every worker of a cluster backend), capped at the number
    of tasks, and at the number of cores for a backend of local processes:
    ``n_jobs=100`` on 20 fits starts 20 workers on a cluster and no more
    processes than cores on one machine, never 100.

    Raises a ValueError naming ``n_jobs`` for 0 or a non-integer.
    """
    if n_jobs is not None and (
        isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral)
    ):
        raise ValueError(f"n_jobs must be None or a nonzero integer; got {n_jobs!r}.")
    if n_jobs == 0:
        raise ValueError(
            "n_jobs must be None or a nonzero integer; got 0. Use None or 1 to "
            "fit in this process, -1 to use every core."
        )
    workers = min(effective_n_jobs(n_jobs), max(int(n_tasks), 1))
    backend, _ = get_active_backend()
    if isinstance(backend, _LOCAL_PROCESS_BACKENDS):
        workers = min(workers, cpu_count())
    return max(workers, 1)


@dataclass
class DataSet:
    """One data set of a comparison and the estimators to fit on its splits.

    ``estimators`` is a list of ``(label, estimator, fit_params)``; ``label``
    names the estimator in verbose messages.
    """

    X: object
    y: np.ndarray
    splits: list
    estimators: list
    scorer: object = None
    name: str = ""
    groups: object = None


@dataclass
class FitResults:
    """What the fits of one data set gave, indexed (split, estimator).

    ``predictions[i][j]`` holds estimator ``j``'s predictions on the test set
    of split ``i`` (None where the fit failed); ``scores`` the scores the
    fitted estimators gave themselves (only with a scorer that needs the
    fitted estimator, else None); ``fit_time``, ``score_time`` and
    ``failed`` are arrays of shape (n_splits, k).
    """

    predictions: list
    fit_time: np.ndarray
    score_time: np.ndarray
    failed: np.ndarray
    errors: list
    scores: np.ndarray | None = None
    estimators: list | None = field(default=None, repr=False)


def _fit_and_predict(
    estimator,
    X,
    y,
    train,
    test,
    *,
    fit_params,
    error_score,
    verbose,
    label,
    scorer=None,
    return_estimator=False,
    task=None,
    responses=(),
):
    """Fit ``estimator`` on ``train`` and predict ``test`` (one joblib task).

    Returns a dict: predictions, score (``scorer(estimator, X_test,
    y_test)`` when a scorer is given, else None), fit_time, score_time (time
    to predict and score), fit_error (traceback text or None) and, when
    ``return_estimator``, the fitted estimator. Nothing else travels back to
    the parent: a fitted forest can weigh megabytes. ``task`` is sent back
    as it came, so outputs that arrive out of order find their place.
    ``responses`` names the methods (``predict_proba``, ...) whose outputs
    on the test set a study store keeps (sent back under ``"responses"``).
    """
    fit_params = _check_method_params(X, params=fit_params or {}, indices=train)
    X_train, y_train = _safe_split(estimator, X, y, train)
    X_test, y_test = _safe_split(estimator, X, y, test, train)
    result = {"predictions": None, "score": None, "fit_error": None, "task": task}
    start = time.perf_counter()
    try:
        estimator.fit(X_train, y_train, **fit_params)
    except Exception:
        if error_score == "raise":
            raise
        result["fit_time"] = time.perf_counter() - start
        result["score_time"] = 0.0
        result["fit_error"] = format_exc()
    else:
        result["fit_time"] = time.perf_counter() - start
        start = time.perf_counter()
        try:
            result["predictions"] = _checked_predictions(
                estimator.predict(X_test), len(test), label
            )
            if responses:
                result["responses"] = _responses(estimator, X_test, responses)
            if scorer is not None:
                result["score"] = scorer(estimator, X_test, y_test)
        except Exception:
            if error_score == "raise":
                raise
            result["fit_error"] = "predict or score failed:\n" + format_exc()
        result["score_time"] = time.perf_counter() - start
    if return_estimator:
        result["estimator"] = estimator
    if verbose > 1:
        print(
            f"[compare {label}] END fit_time={result['fit_time']:.3f}s, "
            f"predict_time={result['score_time']:.3f}s"
        )
    return result


def _checked_predictions(predictions, n_test, label):
    """The predictions of one fit, checked where they are made: one finite
    value per test record. A bad ``predict`` then fails at its first fit,
    naming the estimator and split, not after every fit."""
    predictions = np.asarray(predictions)
    if predictions.ndim != 1 or predictions.shape[0] != n_test:
        raise ValueError(
            f"[{label}] predict must return one prediction per test record "
            f"({n_test}); got shape {predictions.shape}."
        )
    if predictions.dtype.kind in "fc" and not np.all(np.isfinite(predictions)):
        raise ValueError(f"[{label}] predict returned NaN or infinity.")
    return predictions


def _responses(estimator, X_test, methods):
    """The outputs of those of ``methods`` the fitted estimator has (and its
    ``classes_``), for a study store."""
    outputs = {
        method: np.asarray(getattr(estimator, method)(X_test))
        for method in methods
        if hasattr(estimator, method)
    }
    if hasattr(estimator, "classes_"):
        outputs["classes"] = np.asarray(estimator.classes_)
    return outputs


def _tasks(datasets):
    """The flat list of (data set, split, estimator) indices.

    Ordered estimator by estimator within a data set, as
    :func:`~sklearn.model_selection.cross_validate` orders its splits, and
    data set after data set with no barrier between them, the data sets of
    largest training sets first: a fit's cost grows with its training set,
    and starting the longest fits first leaves the short ones to fill the
    workers at the end (the longest-processing-time-first rule) instead of
    one long fit running alone. The order changes when fits run, not the
    results: each output is placed by its task's indices.
    """
    order = sorted(
        range(len(datasets)),
        key=lambda d: -max((train.size for train, _ in datasets[d].splits), default=0),
    )
    return [
        (d, i, j)
        for d in order
        for j in range(len(datasets[d].estimators))
        for i in range(len(datasets[d].splits))
    ]


def fit_all(
    datasets,
    *,
    n_jobs=None,
    verbose=0,
    error_score="raise",
    return_estimator=False,
    progress=None,
    store=None,
):
    """Fit every estimator on every split of every data set in one pool.

    Parameters
    ----------
    datasets : list of DataSet
    n_jobs, verbose, error_score, return_estimator
        As in :func:`~sklearn_bcv.compare_estimators`.
    progress : FitProgress, default=None
        Told of each fit as it finishes (joblib's own progress messages
        are then off); its maker closes it.
    store : StudyStore, default=None
        Fits found in it are not fitted again; each new fit is kept in it as
        it arrives: ``store.session(datasets, error_score=...)`` splits the
        tasks into those found and those to fit, and keeps each output
        (:mod:`sklearn_bcv._store`, a layer above the engine, implements it).

    Returns
    -------
    results : list of FitResults
        One per data set, in order.
    """
    tasks = _tasks(datasets)
    worker_count(n_jobs, len(tasks))  # n_jobs refused before the store is written
    session, found = None, []
    if store is not None:
        session = store.session(datasets, error_score=error_score)
        found, tasks = session.split_tasks(tasks)
        if verbose > 0:
            session.report()
        if progress is not None:
            progress.already_done([t["task"][0] for t in found])
    n_jobs = worker_count(n_jobs, len(tasks))
    calls = (
        delayed(_fit_and_predict)(
            clone(datasets[d].estimators[j][1]),
            datasets[d].X,
            datasets[d].y,
            *datasets[d].splits[i],
            fit_params=datasets[d].estimators[j][2],
            error_score=error_score,
            verbose=verbose,
            label=_task_label(datasets[d], i, j),
            # With a store, scored from the kept outputs in this process.
            scorer=None if session else datasets[d].scorer,
            return_estimator=return_estimator,
            task=(d, i, j),
            **({"responses": session.responses[d]} if session else {}),
        )
        for d, i, j in tasks
    )
    if session is not None:
        outputs = _run_kept(calls, n_jobs, progress, session, verbose) + found
        tasks = tasks + [out["task"] for out in found]
    elif progress is None:
        parallel = Parallel(
            n_jobs=n_jobs, verbose=verbose, pre_dispatch="2*n_jobs", batch_size=1
        )
        outputs = parallel(calls)
    else:
        outputs = _run_with_progress(calls, n_jobs, progress)
    if len(outputs) != len(tasks):
        raise ValueError(
            f"Expected {len(tasks)} fit results, got {len(outputs)}; the joblib "
            "backend lost tasks."
        )
    _warn_or_raise_about_fit_failures(outputs, error_score)
    return _collect(datasets, outputs, return_estimator)


def _run_kept(calls, n_jobs, progress, session, verbose):
    """Run the tasks, keeping each fit in the study store as it arrives.

    Ctrl-C stops the pool (joblib ends its workers) and raises a
    ``KeyboardInterrupt`` that says how many fits are kept and how to
    resume.
    """
    try:
        outputs = _run_with_progress(
            calls, n_jobs, progress, on_output=session.keep, verbose=verbose
        )
    except KeyboardInterrupt as exc:
        raise KeyboardInterrupt(session.interrupted()).with_traceback(
            exc.__traceback__
        ) from None
    session.finish()
    return outputs


def _run_with_progress(calls, n_jobs, progress, *, on_output=None, verbose=0):
    """Run the tasks, telling ``progress`` (and ``on_output``) of each as it
    finishes.

    Outputs come back in the order they finish where the joblib backend can
    stream them; a backend that cannot (multiprocessing) returns them all at
    the end, and the bar then moves once.
    """
    options = dict(n_jobs=n_jobs, pre_dispatch="2*n_jobs", batch_size=1)
    if progress is None:
        options["verbose"] = verbose
    calls = list(calls)
    if not calls:  # every fit was in the study store: start no worker
        return []
    try:
        stream = Parallel(**options, return_as="generator_unordered")(calls)
    except ValueError as exc:
        if "return_as" not in str(exc):
            raise
        stream = Parallel(**options)(calls)
    outputs = []
    try:
        for out in stream:
            if on_output is not None:
                on_output(out)
            outputs.append(out)
            if progress is not None:
                progress.update(out["task"][0])
    except BaseException:
        # Raised here (Ctrl-C while a fit is kept, say), not inside joblib:
        # closing the generator makes joblib abort its tasks and end its
        # workers now. Left to the garbage collector, an interrupt that
        # ends the program would keep it alive (the traceback holds the
        # generator), waiting at exit for workers that may never finish.
        close = getattr(stream, "close", None)
        if close is not None:
            close()
        raise
    return outputs


def _task_label(data, i, j):
    where = f"{data.name} " if data.name else ""
    return f"{where}{data.estimators[j][0]} split {i + 1}/{len(data.splits)}"


def _collect(datasets, outputs, return_estimator):
    shapes = [(len(data.splits), len(data.estimators)) for data in datasets]
    predictions = [[[None] * k for _ in range(n)] for n, k in shapes]
    fit_time = [np.zeros(shape) for shape in shapes]
    score_time = [np.zeros(shape) for shape in shapes]
    failed = [np.zeros(shape, dtype=bool) for shape in shapes]
    scores = [np.empty(shape, dtype=object) for shape in shapes]
    estimators = [[[None] * k for _ in range(n)] for n, k in shapes]
    errors = [[] for _ in shapes]
    for out in outputs:
        d, i, j = out["task"]
        predictions[d][i][j] = out["predictions"]
        fit_time[d][i, j] = out["fit_time"]
        score_time[d][i, j] = out["score_time"]
        failed[d][i, j] = out["fit_error"] is not None
        scores[d][i, j] = out["score"]
        if out["fit_error"] is not None:
            errors[d].append(out["fit_error"])
        if return_estimator:
            estimators[d][i][j] = out["estimator"]
    return [
        FitResults(
            predictions=predictions[d],
            fit_time=fit_time[d],
            score_time=score_time[d],
            failed=failed[d],
            errors=errors[d],
            scores=scores[d] if data.scorer is not None else None,
            estimators=estimators[d] if return_estimator else None,
        )
        for d, data in enumerate(datasets)
    ]


def _warn_or_raise_about_fit_failures(outputs, error_score):
    """All fits failed: ValueError; some: FitFailedWarning with a summary."""
    errors = [out["fit_error"] for out in outputs if out["fit_error"] is not None]
    if not errors:
        return
    delimiter = "-" * 80 + "\n"
    summary = "\n".join(
        f"{delimiter}{n} fits failed with the following error:\n{error}"
        for error, n in Counter(errors).items()
    )
    if len(errors) == len(outputs):
        raise ValueError(
            f"\nAll the {len(outputs)} fits failed.\nIt is very likely that your "
            "estimators are misconfigured.\nYou can try to debug the error by "
            f"setting error_score='raise'.\n\nBelow are more details about the "
            f"failures:\n{summary}"
        )
    warnings.warn(
        f"\n{len(errors)} fits failed out of a total of {len(outputs)}.\nThe "
        f"scores of these splits are set to {error_score} and no test is run "
        "(every test needs every split; across data sets, benchmark's "
        "missing='skillings_mack' or 'drop' compares the other scores).\nIf "
        "these failures are not expected, "
        "you can try to debug them by setting error_score='raise'.\n\nBelow are "
        f"more details about the failures:\n{summary}",
        FitFailedWarning,
        stacklevel=4,
    )


def route_params(estimators, cv, params, groups, *, owner):
    """Return (split params, [fit params of each estimator]).

    ``estimators`` is a list of ``(label, estimator)``. Without metadata
    routing every estimator receives ``params`` and the splitter
    ``groups``; with it they are routed as
    :func:`~sklearn.model_selection.cross_validate` routes them.
    """
    params = {} if params is None else params
    if not get_config().get("enable_metadata_routing", False):
        return {"groups": groups}, [params] * len(estimators)
    if groups is not None:
        raise ValueError(
            "groups can only be passed if metadata routing is not enabled; with "
            "sklearn.set_config(enable_metadata_routing=True) pass it in params "
            "(params={'groups': groups})."
        )
    router = MetadataRouter(owner=owner).add(
        splitter=cv, method_mapping=MethodMapping().add(caller="fit", callee="split")
    )
    keys = [f"estimator_{i}" for i in range(len(estimators))]
    for key, (_, estimator) in zip(keys, estimators):
        router.add(
            **{key: estimator},
            method_mapping=MethodMapping().add(caller="fit", callee="fit"),
        )
    try:
        routed = process_routing(router, "fit", **params)
    except UnsetMetadataPassedError as exc:
        # The caller is the entry point, not a fit method.
        raise UnsetMetadataPassedError(
            message=str(exc).replace(f"{owner}.fit", owner),
            unrequested_params=exc.unrequested_params,
            routed_params=exc.routed_params,
        ) from None
    return routed.splitter.split, [routed[key].fit for key in keys]


def _physical_memory():
    """Bytes of memory of this machine, or None where it cannot be read."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _check_split_memory(cv, X, y, split_params):
    """Refuse, before drawing them, splits whose indices alone would fill
    half of this machine's memory (n_splits × n_samples indices)."""
    memory = _physical_memory()
    try:
        n_splits = int(cv.get_n_splits(X, y, **split_params))
    except Exception:  # a splitter that cannot say: its splits will tell
        return
    needed = n_splits * _num_samples(X) * np.dtype(np.intp).itemsize
    if memory is not None and needed > memory / 2:
        raise ValueError(
            f"cv={cv!r} makes {n_splits} splits of {_num_samples(X)} records: "
            f"{needed / 2**30:.1f} GiB of indices, more than half of this "
            f"machine's {memory / 2**30:.1f} GiB; use fewer splits."
        )


def materialise_splits(cv, X, y, split_params):
    """The splits of ``cv`` as a list of (train, test) intp arrays (copies:
    a splitter may hand out arrays the caller keeps)."""
    _check_split_memory(cv, X, y, split_params)
    try:
        splits = list(cv.split(X, y, **split_params))
    except ValueError as exc:
        raise ValueError(
            f"cv={cv!r} cannot split the {_num_samples(X)} records: {exc}"
        ) from exc
    return [
        (np.array(tr, dtype=np.intp), np.array(te, dtype=np.intp)) for tr, te in splits
    ]


def default_cv(random_state):
    """The default design: a 5×2 block-regularized CV."""
    return BlockRegularized5x2CV(random_state=random_state)
