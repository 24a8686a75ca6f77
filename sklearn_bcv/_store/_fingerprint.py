"""Fingerprints of what a fit depends on: its data set, split and estimator.

A study store finds a fit again by three SHA-256 fingerprints (and one of
the fit's parameters). Each is computed from a canonical description, the
same in every process and on every machine:

* the data set: X, y and groups, element by element, with their dtypes and
  shapes (a float32 copy of X is another data set; a Fortran-ordered copy is
  the same one); a sparse matrix by its canonical CSR form and its format
  (estimators may treat CSR and CSC input differently), a DataFrame by its
  column names, dtypes, values and index;
* the split: its train and test indices, in their order;
* the estimator: its class (module and qualified name) and its parameters
  (``get_params(deep=False)``), a nested estimator described the same way
  in place (which covers ``get_params(deep=True)``).

Parameters are described as JSON: numbers, strings, lists, dicts, arrays by
their own fingerprint, classes and named functions by their qualified name,
a ``RandomState`` by its state. A parameter that cannot be written down
deterministically (a lambda, a local function, an arbitrary object) is
refused with a ``ValueError`` naming it: a fingerprint of its memory address
would never match again, and one of its ``repr`` may match something else.
"""

import hashlib
import inspect
import json
import numbers

import numpy as np

__all__ = [
    "describe_estimator",
    "fingerprint_data",
    "fingerprint_json",
    "fingerprint_split",
]

#: numpy kinds stored as raw little-endian numbers.
NUMERIC_KINDS = "biufc"


def fingerprint_json(value):
    """SHA-256 (hex) of the canonical JSON text of ``value``."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _text_elements(values, what):
    """The elements of a text or object array as JSON-safe Python values."""
    out = []
    for value in values.ravel(order="C").tolist():
        if value is None or isinstance(value, str | bool | int):
            out.append(value)
        elif isinstance(value, float):
            out.append(value if np.isfinite(value) else repr(value))
        else:
            raise ValueError(
                f"{what} holds a {type(value).__name__}; a study store keys data "
                "sets by numbers and strings only."
            )
    return out


def _update_array(hasher, values, what):
    """Feed one array (dtype, shape, elements) into ``hasher``."""
    values = np.asarray(values)
    kind = values.dtype.kind
    if kind in NUMERIC_KINDS:
        little = values.astype(values.dtype.newbyteorder("<"), copy=False)
        hasher.update(f"numbers|{little.dtype.str}|{values.shape}|".encode())
        hasher.update(np.ascontiguousarray(little).tobytes())
    elif kind in "Mm":  # dates and durations: their int64 counts and unit
        hasher.update(f"time|{values.dtype.str}|{values.shape}|".encode())
        hasher.update(np.ascontiguousarray(values.view("<i8")).tobytes())
    elif kind in "USO":
        elements = _text_elements(values, what)
        hasher.update(f"text|{values.dtype.str}|{values.shape}|".encode())
        hasher.update(json.dumps(elements, separators=(",", ":")).encode("utf-8"))
    else:
        raise ValueError(
            f"{what} has dtype {values.dtype}; a study store keys data sets by "
            "numbers and strings only."
        )


def _update_sparse(hasher, matrix, what):
    csr = matrix.tocsr(copy=True)
    csr.sum_duplicates()
    csr.sort_indices()
    hasher.update(f"sparse|{matrix.format}|{csr.shape}|".encode())
    for part in (csr.indptr.astype(np.int64), csr.indices.astype(np.int64), csr.data):
        _update_array(hasher, part, what)


def _update_frame(hasher, frame, what):
    columns = [str(column) for column in frame.columns]
    hasher.update(f"frame|{json.dumps(columns)}|".encode())
    for column, (_, series) in zip(columns, frame.items()):
        hasher.update(f"column|{series.dtype}|".encode())
        _update_array(hasher, series.to_numpy(), f"{what} column {column!r}")
    _update_array(hasher, frame.index.to_numpy(), f"the index of {what}")


def _update_any(hasher, values, what):
    if values is None:
        hasher.update(b"none|")
    elif hasattr(values, "tocsr") and hasattr(values, "format"):
        _update_sparse(hasher, values, what)
    elif hasattr(values, "columns") and hasattr(values, "items"):
        _update_frame(hasher, values, what)
    elif hasattr(values, "to_numpy"):  # a pandas Series
        _update_array(hasher, values.to_numpy(), what)
        _update_array(hasher, values.index.to_numpy(), f"the index of {what}")
    else:
        _update_array(hasher, np.asarray(values), what)


def fingerprint_data(X, y, groups=None):
    """SHA-256 (hex) of a data set: its X, y and groups contents.

    >>> import numpy as np
    >>> X, y = np.arange(6.0).reshape(3, 2), np.array([0, 1, 0])
    >>> fingerprint_data(X, y) == fingerprint_data(np.asfortranarray(X), y)
    True
    >>> fingerprint_data(X, y) == fingerprint_data(X.astype(np.float32), y)
    False
    """
    hasher = hashlib.sha256(b"sklearn_bcv data set v1|")
    for part, what in ((X, "X"), (y, "y"), (groups, "groups")):
        hasher.update(f"{what}|".encode())
        _update_any(hasher, part, what)
    return hasher.hexdigest()


def fingerprint_split(train, test):
    """SHA-256 (hex) of a split's train and test indices, in order."""
    hasher = hashlib.sha256(b"sklearn_bcv split v1|")
    for part in (train, test):
        _update_array(hasher, np.asarray(part, dtype=np.int64), "a split")
    return hasher.hexdigest()


def _qualified_name(obj):
    return f"{obj.__module__}.{obj.__qualname__}"


def _describe_function(func, path):
    name = getattr(func, "__qualname__", None)
    module = getattr(func, "__module__", None)
    if not name or not module or "<lambda>" in name or "<locals>" in name:
        raise ValueError(
            f"{path} is {func!r}, which a study store cannot write down (a lambda or "
            "a local function has no name that finds it again); use a function "
            "defined at the top level of a module."
        )
    return {"function": f"{module}.{name}"}


def _describe(value, path):
    """The JSON description of one parameter value (see the module doc)."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        return value if np.isfinite(value) else {"float": repr(value)}
    if isinstance(value, list | tuple):
        items = [_describe(item, f"{path}[{n}]") for n, item in enumerate(value)]
        return items if isinstance(value, list) else {"tuple": items}
    if isinstance(value, dict):
        if not all(isinstance(key, str | int) for key in value):
            raise ValueError(f"{path} is a dict whose keys are not all str or int.")
        return {
            "dict": [
                [key, _describe(item, f"{path}[{key!r}]")]
                for key, item in sorted(value.items(), key=lambda kv: repr(kv[0]))
            ]
        }
    if isinstance(value, np.ndarray):
        hasher = hashlib.sha256()
        _update_array(hasher, value, path)
        return {"array": value.dtype.str, "shape": list(value.shape),
                "sha256": hasher.hexdigest()}  # fmt: skip
    if isinstance(value, np.dtype):
        return {"dtype": value.str}
    if isinstance(value, np.random.RandomState):
        state = value.get_state(legacy=False)
        return {"RandomState": fingerprint_json(_jsonable_state(state))}
    if inspect.isclass(value):
        return {"class": _qualified_name(value)}
    if hasattr(value, "get_params") and not inspect.isclass(value):
        return describe_estimator(value, path)
    if inspect.isfunction(value) or inspect.isbuiltin(value):
        return _describe_function(value, path)
    raise ValueError(
        f"{path} is a {type(value).__name__}, which a study store cannot write down "
        "deterministically (it keeps numbers, strings, lists, dicts, arrays, "
        "estimators, classes and named functions); pass store=None for this "
        "comparison, or give the estimator parameters of those kinds."
    )


def _jsonable_state(state):
    """A RandomState's state dict with its arrays as lists."""
    if isinstance(state, dict):
        return {key: _jsonable_state(item) for key, item in state.items()}
    if isinstance(state, np.ndarray):
        return state.tolist()
    if isinstance(state, np.integer | np.floating):
        return state.item()
    return state


def describe_estimator(estimator, path="estimator"):
    """``{"class": module.qualname, "params": {...}}`` of an estimator.

    >>> from sklearn.linear_model import LogisticRegression
    >>> describe_estimator(LogisticRegression(C=2.0))["params"]["C"]
    2.0
    """
    try:
        params = estimator.get_params(deep=False)
    except Exception as exc:
        raise ValueError(
            f"{path}.get_params() failed ({type(exc).__name__}: {exc}); a study "
            "store keys estimators by their parameters."
        ) from None
    return {
        "class": _qualified_name(type(estimator)),
        "params": {
            name: _describe(value, f"{path}.{name}")
            for name, value in sorted(params.items())
        },
    }
