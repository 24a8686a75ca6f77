"""The columns of a fit's row in a study store (one row per fit).

The ids of the data set, estimator, split (and the fingerprint of the fit
parameters, ``''`` for none) are the row's key; then the split's index in
the call, the times, the failure (and its traceback), the response methods
asked of the fit (JSON), the id of the call that made it, and for each
output kind three columns: ``<kind>_dtype``, ``<kind>_shape`` and
``<kind>`` — its little-endian numbers (a BLOB) or its labels (JSON text),
see :mod:`._codec` — all three NULL when the fit does not have that output.
"""

__all__ = ["FIT_COLUMNS", "OUTPUT_KINDS"]

#: Output kinds a fit may hold.
OUTPUT_KINDS = (
    "predict",
    "predict_proba",
    "decision_function",
    "predict_log_proba",
    "classes",
)

#: The columns of a fit's row, in order (what ``StudyStore.keep`` takes).
FIT_COLUMNS = (
    "dataset", "estimator", "split", "fit_params", "split_index", "fit_time",
    "score_time", "failed", "error", "responses", "call",
    *(f"{kind}{part}" for kind in OUTPUT_KINDS
      for part in ("_dtype", "_shape", "")),
)  # fmt: skip
