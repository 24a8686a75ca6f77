"""A study store inside one call: which fits are kept, which to fit, keeping.

The engine (:func:`sklearn_bcv._engine._fit.fit_all`) hands its flat list
of (data set, split, estimator) tasks to a :class:`StudySession`, which
fingerprints them, registers them in the store, and splits them into the
fits found in the store (their outputs, as a worker would have sent them)
and the tasks left to fit. Each fit that arrives from a worker is kept in
its own transaction, in this (the calling) process.

A scoring that needs more than ``predict`` (``roc_auc``, ``neg_log_loss``)
is computed here, from the stored ``predict_proba`` / ``decision_function``
outputs, for new and stored fits alike: a resumed study scores exactly as
an uninterrupted one, and a later scoring that needs those outputs refits
nothing. A stored fit is reused when it holds what the call needs: the
predictions, the response methods the scoring asks for, and — with
``error_score="raise"`` — no failure (a failed fit is then fitted again).
"""

import contextlib
import json
import re
import sys
import warnings
from traceback import format_exc

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import Bunch

from .._engine._scoring import _needs_of
from ..stats._utils import label_type
from ._codec import encode_array
from ._columns import OUTPUT_KINDS
from ._fingerprint import (
    describe_estimator,
    fingerprint_data,
    fingerprint_json,
    fingerprint_split,
)
from ._randomness import unfixed_random_states

__all__ = ["StudySession", "UnfixedRandomStateWarning"]

#: Response methods a study store keeps beside ``predict``.
RESPONSES = ("predict_proba", "decision_function", "predict_log_proba")

#: Kept whenever the scoring needs any response: a later scoring that needs
#: the other one then refits nothing.
DEFAULT_RESPONSES = ("predict_proba", "decision_function")


_WHAT = {kind: f"the {kind} outputs" for kind in OUTPUT_KINDS}


class UnfixedRandomStateWarning(UserWarning):
    """An estimator stored with a ``random_state=None`` it consumes (or may
    consume): a rerun without the store would (or may) fit it differently.

    Only where a rerun can differ: a None the estimator does not consume
    with its parameters (``LogisticRegression()``'s lbfgs solver,
    ``DummyClassifier()``'s default strategy) or that an ensemble seeds
    from its own fixed ``random_state`` says nothing (the rule:
    :mod:`sklearn_bcv._store._randomness`).
    """


class _StoredOutputs(ClassifierMixin, BaseEstimator):
    """A fitted classifier's outputs on one test set, as a scorer reads them."""

    def __init__(self, outputs=None):
        self.outputs = outputs

    @property
    def classes_(self):
        if "classes" not in self.outputs:
            raise AttributeError("classes_")
        return self.outputs["classes"]

    def _method(name):
        def method(self, X):
            return self.outputs[name]

        method.__name__ = name  # scorers name the method they call by it

        def getter(self):
            if name not in self.outputs:
                raise AttributeError(name)
            return method.__get__(self)

        return property(getter)

    predict = _method("predict")
    predict_proba = _method("predict_proba")
    decision_function = _method("decision_function")
    predict_log_proba = _method("predict_log_proba")
    del _method


def _responses_of(scorer):
    """The response methods a scorer asks for, from its own message."""
    _, response = _needs_of(scorer, "scoring")
    methods = [m for m in re.split(r"[,\s]+", response) if m]
    unknown = [m for m in methods if m not in RESPONSES]
    if unknown or not methods:
        raise ValueError(
            f"store: the scoring needs {response!r} of the fitted estimators; a "
            f"study store keeps predict and {', '.join(RESPONSES)} only. Use "
            "store=None with this scoring."
        )
    return tuple(methods)


def _fit_params_fingerprint(fit_params):
    """Fingerprint of the fit parameters of one estimator ('' when none)."""
    if not fit_params:
        return ""
    from ._fingerprint import _describe

    return fingerprint_json(
        {name: _describe(value, f"params[{name!r}]")
         for name, value in sorted(fit_params.items())}
    )  # fmt: skip


class StudySession:
    """The tasks of one call against a study store.

    Parameters
    ----------
    store : StudyStore
    datasets : list of DataSet
        The engine's data sets (``X``, ``y``, ``groups``, ``splits``,
        ``estimators`` as ``(label, estimator, fit_params)``, ``scorer``).
    error_score : "raise" or float
    """

    def __init__(self, store, datasets, *, error_score):
        self.store = store
        self.datasets = datasets
        self.error_score = error_score
        self.responses = []  # per data set: the responses a fit must give
        self.needed = []  # per data set: the responses the scorer reads
        self.keys = []  # per data set: (data fp, [split fps], [(est fp, params fp)])
        self.ids = []  # per data set: (data id, [split ids], [estimator ids])
        self.names = {}  # estimator fingerprint -> label
        self._call = None  # id of this call's row in the store (first keep)
        self._responses_text = []  # per data set: responses as stored (JSON)
        self.kept = 0
        self.not_kept = 0
        self._describe()

    def _describe(self):
        rows_d, rows_e, rows_s = [], [], []
        estimators, described = {}, {}
        for data in self.datasets:
            fp_data = fingerprint_data(data.X, data.y, getattr(data, "groups", None))
            fp_splits = [fingerprint_split(tr, te) for tr, te in data.splits]
            fp_estimators = []
            for label, estimator, fit_params in data.estimators:
                # Described once per object and call (benchmark hands the
                # same estimators to every data set).
                if id(estimator) not in described:
                    description = describe_estimator(estimator, label)
                    described[id(estimator)] = (
                        estimator,  # alive, so that its id is not reused
                        description,
                        fingerprint_json(description),
                    )
                _, description, fp = described[id(estimator)]
                fp_estimators.append((fp, _fit_params_fingerprint(fit_params)))
                if fp not in estimators:
                    estimators[fp] = (
                        _store_name(label, estimator),
                        description,
                        unfixed_random_states(estimator),
                    )
            self.keys.append((fp_data, fp_splits, fp_estimators))
            if data.scorer is not None:
                needed = _responses_of(data.scorer)
                wanted = tuple(dict.fromkeys((*DEFAULT_RESPONSES, *needed)))
            else:
                needed = wanted = ()
            self.needed.append(needed)
            self.responses.append(wanted)
            rows_d.append(
                {
                    "fingerprint": fp_data,
                    "name": data.name or f"data-{fp_data[:8]}",
                    "n_samples": int(len(data.y)),
                    "description": _data_description(data),
                }
            )
            rows_s.extend(
                {"fingerprint": fp, "train": tr, "test": te}
                for fp, (tr, te) in zip(fp_splits, data.splits)
            )
        for fp, (label, description, unfixed) in estimators.items():
            rows_e.append(
                {
                    "fingerprint": fp,
                    "name": label,
                    "description": description,
                    "random_state_fixed": not unfixed,
                    "unfixed": unfixed,
                }
            )
            self.names[fp] = label
        self._estimator_rows = rows_e
        self._responses_text = [json.dumps(list(r)) for r in self.responses]
        ids = self.store.register(rows_d, rows_e, rows_s)
        # Integer ids, looked up once per call: a fit's row holds ids only.
        for fp_data, fp_splits, fp_estimators in self.keys:
            self.ids.append(
                (
                    ids["datasets"].get(fp_data),
                    [ids["splits"].get(fp) for fp in fp_splits],
                    [ids["estimators"].get(fp) for fp, _ in fp_estimators],
                )
            )

    # ------------------------------------------------------------------

    def _usable(self, record, d):
        if record.failed:
            return self.error_score != "raise"
        if "predict" not in record.outputs:
            return False
        return set(self.needed[d]) <= set(record.responses)

    def split_tasks(self, tasks):
        """``(outputs found in the store, tasks left to fit)``."""
        found_by_data = {}
        for d, (id_data, _, id_estimators) in enumerate(self.ids):
            found_by_data[d] = self.store.lookup(
                id_data, sorted({e for e in id_estimators if e is not None})
            )
        found, todo = [], []
        for task in tasks:
            d, i, j = task
            _, id_splits, id_estimators = self.ids[d]
            fp_params = self.keys[d][2][j][1]
            record = found_by_data[d].get((id_splits[i], id_estimators[j], fp_params))
            if record is not None and self._usable(record, d):
                found.append(self._output_of(task, record))
            else:
                todo.append(task)
        self._warn_unfixed(todo)
        self.n_found, self.n_todo = len(found), len(todo)
        self.store.last_call = Bunch(
            n_found=self.n_found, n_to_fit=self.n_todo, n_kept=0
        )
        return found, todo

    def _warn_unfixed(self, todo):
        fitted = {self.keys[d][2][j][0] for d, _, j in todo}
        for row in self._estimator_rows:
            if row["unfixed"] and row["fingerprint"] in fitted:
                certain = [path for path, sure in row["unfixed"] if sure]
                maybe = [path for path, sure in row["unfixed"] if not sure]
                which = [
                    f"{', '.join(paths)}, {what}"
                    for paths, what in (
                        (certain, "which it uses"),
                        (maybe, "which it may use"),
                    )
                    if paths
                ]
                differs = "would" if certain else "may"
                warnings.warn(
                    f"estimator {row['name']!r} has random_state=None at "
                    f"{'; and at '.join(which)}: its fits are kept in "
                    f"study store {self.store.path}, but a rerun {differs} fit it "
                    "differently; set random_state to an int for a study that can "
                    "be resumed exactly.",
                    UnfixedRandomStateWarning,
                    stacklevel=5,
                )

    def _check_stored(self, task, record):
        """A stored fit's outputs must be those a fit of this task can give:
        one finite prediction per test record, of the target's label type,
        and response arrays with a row per test record. A file edited or
        damaged so that its rows decode but do not fit is blamed on the
        store, naming the file, not on the estimator."""
        if record.failed:
            return
        d, i, j = task
        data = self.datasets[d]
        n_test = len(data.splits[i][1])
        problem = None
        for kind, values in record.outputs.items():
            if kind == "classes":
                continue
            if values.ndim < 1 or values.shape[0] != n_test:
                problem = (
                    f"its {kind} output has shape {values.shape}, not one row per "
                    f"test record ({n_test})"
                )
            elif values.dtype.kind in "fc" and not np.all(np.isfinite(values)):
                problem = f"its {kind} output holds NaN or infinity"
            elif kind == "predict" and values.ndim != 1:
                problem = f"its predictions have shape {values.shape}, not 1-D"
            elif (
                kind in ("predict_proba", "predict_log_proba")
                and "classes" in record.outputs
                and values.shape[1:] != record.outputs["classes"].shape
            ):
                problem = (
                    f"its {kind} output has shape {values.shape} for "
                    f"{record.outputs['classes'].size} classes"
                )
            if problem:
                break
        predictions = record.outputs.get("predict")
        if problem is None and predictions is not None:
            y_type = label_type(np.asarray(data.y))
            if y_type != "mixed" and label_type(predictions) != y_type:
                problem = (
                    f"its predictions are {label_type(predictions)}s, the target's "
                    f"labels {y_type}s"
                )
        if problem is not None:
            name = self.names.get(self.keys[d][2][j][0], "?")
            where = f" of data set {data.name!r}" if data.name else ""
            raise self.store._damaged(
                f"the stored fit of {name!r} on split {i + 1}{where}: {problem}; "
                "remove that estimator's fits (StudyStore.remove) or use a new "
                "store"
            )

    def _output_of(self, task, record):
        self._check_stored(task, record)
        outputs = record.outputs
        out = {
            "task": task,
            "predictions": outputs.get("predict"),
            "score": None,
            "fit_time": record.fit_time,
            "score_time": record.score_time,
            "fit_error": record.error if record.failed else None,
            "stored": True,
        }
        self._score(out, outputs)
        return out

    def _score(self, out, outputs):
        """The scorer's score from stored outputs (scorers beyond predict)."""
        d, i, _ = out["task"]
        data = self.datasets[d]
        if data.scorer is None or out["fit_error"] is not None:
            return
        y_test = np.asarray(data.y)[data.splits[i][1]]
        try:
            out["score"] = data.scorer(_StoredOutputs(outputs), None, y_test)
        except Exception:
            if self.error_score == "raise":
                raise
            out["fit_error"] = "scoring failed:\n" + format_exc()

    def keep(self, out):
        """Keep one fit that came from a worker (and score it if needed)."""
        d, i, j = out["task"]
        outputs = out.pop("responses", None) or {}
        if out["predictions"] is not None:
            outputs["predict"] = out["predictions"]
        if self.store.mode == "a":
            if self._call is None:
                self._call = self.store.new_call()
            id_data, id_splits, id_estimators = self.ids[d]
            error = out["fit_error"]
            row = [
                id_data,
                id_estimators[j],
                id_splits[i],
                self.keys[d][2][j][1],
                i,
                float(out["fit_time"]),
                float(out["score_time"]),
                int(error is not None),
                error,
                self._responses_text[d],
                self._call,
            ]
            kinds = ()
            if error is None:
                kinds = tuple(outputs)
                for kind in kinds:
                    dtype, shape, numbers, text = encode_array(
                        outputs[kind], _WHAT[kind]
                    )
                    row += (dtype, shape, text if numbers is None else numbers)
            self.store.keep(kinds, row)
            self.kept += 1
            self.store.last_call["n_kept"] = self.kept  # a Bunch
        else:
            self.not_kept += 1
        self._score(out, outputs)

    # ------------------------------------------------------------------

    def report(self, file=None):
        """One line on what the store gave (``verbose``)."""
        file = sys.stderr if file is None else file
        file.write(
            f"[study store] {self.store.path}: {self.n_found} fits found, "
            f"{self.n_todo} to fit\n"
        )

    def interrupted(self):
        """The message of an interrupted call."""
        total = self.n_found + self.n_todo
        if self._call is not None:
            # Read back, not counted: Ctrl-C may land between a fit's commit
            # and the count that follows it.
            with contextlib.suppress(Exception):
                self.kept = self.store.count_call_fits(self._call)
        have = self.n_found + self.kept
        if self.store.mode != "a":
            return (
                f"interrupted; study store {self.store.path} is read-only and kept "
                "none of the new fits"
            )
        return (
            f"interrupted; {have} of the {total} fits of this study are kept in "
            f"{self.store.path} ({self.kept} new): rerun the same call or command "
            f"to resume (it fits the {total - have} others)"
        )

    def finish(self):
        if self.not_kept:
            warnings.warn(
                f"study store {self.store.path} is open read-only: the "
                f"{self.not_kept} new fits were not kept.",
                UserWarning,
                stacklevel=5,
            )


def _store_name(label, estimator):
    """The name an estimator is stored under: its name in the call, or its
    class for the unnamed two of compare_estimators (labelled A and B)."""
    label = label.strip("'")
    return type(estimator).__name__ if label in ("A", "B") else label


def _data_description(data):
    X = data.X
    shape = getattr(X, "shape", None)
    return {
        "X": type(X).__name__,
        "shape": None if shape is None else [int(n) for n in shape],
        "dtype": str(getattr(X, "dtype", "")) or None,
        "y_dtype": str(np.asarray(data.y).dtype),
        "groups": getattr(data, "groups", None) is not None,
    }
