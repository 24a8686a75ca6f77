"""Rows of the CSV tables: a test's row, and a pair's row of a (k, k)
table, as every result writes them (the columns a result adds are its
own)."""

import numpy as np

from ._document import nonfinite_kind, nonfinite_meaning

__all__ = [
    "TEST_COLUMNS",
    "pair_row",
    "test_row",
    "undefined_note",
    "with_extra_columns",
]

#: The columns of a test's row (those it does not have stay empty).
TEST_COLUMNS = (
    "statistic",
    "df",
    "pvalue",
    "pvalue_adjusted",
    "reject",
    "p_a_better",
    "p_rope",
    "p_b_better",
)


def undefined_note(row):
    """``"pvalue undefined (NaN)"``, ...: why a statistic or p-value cell is
    empty; None when both are defined."""
    notes = [
        f"{field} undefined ({nonfinite_meaning(kind).split(':')[0]})"
        for field in ("statistic", "pvalue")
        if (kind := nonfinite_kind(row.get(field))) not in (None, "array")
    ]
    return "; ".join(notes) or None


def test_row(name, test, status=None, **extra):
    """The row of the test ``name`` (section ``test``): its scalar fields
    among :data:`TEST_COLUMNS` (``df`` also when it is a tuple)."""
    row = {"section": "test", "test": name, "status": status, **extra}
    for field in TEST_COLUMNS:
        value = test.get(field)
        if np.ndim(value) == 0:
            row[field] = value
        elif field == "df":
            row[field] = list(np.ravel(value))
    row["correction"] = test.get("correction")
    row["note"] = undefined_note(test)
    return row


def pair_row(table, fields, test, a, b, names, **columns):
    """The row of the pair ``(a, b)`` (indices into ``names``) of the (k, k)
    ``table`` of ``test`` (section ``pairwise``): the pair, ``columns``
    (e.g. the mean scores), then entry ``[a, b]`` of each of ``fields``."""
    row = {
        "section": "pairwise",
        "test": test,
        "estimator_a": names[a],
        "estimator_b": names[b],
        **columns,
        "correction": table.get("correction"),
    }
    for field in fields:
        value = table.get(field)
        if value is not None and field in TEST_COLUMNS:
            row[field] = np.asarray(value)[a, b]
    row["note"] = undefined_note(row)
    return row


def with_extra_columns(columns, rows):
    """``columns``, then every other key of ``rows`` in the order they
    appear (the columns a test's ``content`` adds)."""
    out = list(columns)
    seen = set(out)
    for row in rows:
        for key in row:
            if key not in seen:
                seen.add(key)
                out.append(key)
    return tuple(out)
