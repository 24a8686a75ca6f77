"""Short texts shared by the printed summaries of every result."""

import numbers
from numbers import Real

__all__ = ["estimator_name", "format_number", "text_table"]


def format_number(value, digits=4):
    """A short text of a number, a tuple of numbers, or "-" for None."""
    if value is None:
        return "-"
    if isinstance(value, tuple):
        return "(" + ", ".join(format_number(v, digits) for v in value) + ")"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, Real):
        return f"{float(value):.{digits}g}"
    return str(value)


def estimator_name(estimator):
    """Short readable name: the class, with the steps or inner estimator."""
    name = type(estimator).__name__
    steps = getattr(estimator, "steps", None)
    if isinstance(steps, list):
        inner = [
            estimator_name(step)
            for _, step in steps
            if step is not None and step != "passthrough"
        ]
        return f"{name}({', '.join(inner)})"
    # GridSearchCV and other meta-estimators taking an ``estimator`` parameter.
    inner = estimator.get_params(deep=False).get("estimator")
    if hasattr(inner, "fit"):
        return f"{name}({estimator_name(inner)})"
    return name


def text_table(header, rows, *, right_aligned=()):
    """Rows of cells as aligned lines (columns in ``right_aligned`` justified)."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            cell.rjust(width) if i in right_aligned else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines
