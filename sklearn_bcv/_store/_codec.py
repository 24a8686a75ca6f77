"""Arrays in a study store: typed numbers, or text — never pickles.

An array is four columns: ``dtype`` (numpy's little-endian dtype string
such as ``<f8``, ``<i8``, ``|b1``, ``<U7``, or ``object``), ``shape`` (a
JSON list), ``numbers`` (the raw little-endian bytes, C order) for numbers,
``text`` (a JSON list) for text and object labels. Integers (class
labels, mostly) are written in the narrowest width of their kind (signed or
unsigned: 1, 2, 4 or 8 bytes) that holds every element, and read back as
their ``dtype``: the width is the byte count over the element count (a
``<i8`` array of 100 labels in 0..9 is 100 bytes, not 800). Reading checks
every column against what it claims, so a damaged or hand-made row gives a
``ValueError``, never an array of garbage or code run.
"""

import json
import re

import numpy as np

from ._fingerprint import NUMERIC_KINDS

__all__ = ["decode_array", "encode_array"]

#: dtype strings a store may hold: fixed-size numbers, text, object labels.
_NUMERIC_DTYPE = re.compile(r"^(\|b1|[<|][iu][1248]|<f[248]|<c(8|16))$")
_TEXT_DTYPE = re.compile(r"^<U[0-9]{1,9}$")
_MAX_NDIM = 4


def encode_array(values, what):
    """``(dtype, shape, numbers, text)`` of an array (one of the last two None).

    >>> encode_array(np.array([1, 0]), "predictions")[:2]
    ('<i8', '[2]')
    >>> encode_array(np.array(["cat", "dog"]), "predictions")[3]
    '["cat","dog"]'
    """
    values = np.asarray(values)
    shape = "[" + ", ".join(map(str, values.shape)) + "]"  # as json.dumps
    dtype = values.dtype
    kind = dtype.kind
    if kind in NUMERIC_KINDS:
        if dtype.byteorder == ">":  # big-endian: swap to little first
            values = values.astype(dtype.newbyteorder("<"))
            dtype = values.dtype
        if kind in "iu" and dtype.itemsize > 1 and values.size:
            return dtype.str, shape, _narrow(values), None
        return dtype.str, shape, values.tobytes(), None
    if kind in "UO":
        elements = []
        for value in values.ravel(order="C").tolist():
            if value is None or isinstance(value, str | bool | int):
                elements.append(value)
            elif isinstance(value, float) and np.isfinite(value):
                elements.append(value)
            else:
                raise ValueError(
                    f"{what} hold a {type(value).__name__} ({value!r}); a study "
                    "store keeps numbers and text labels only."
                )
        dtype = values.dtype.str if kind == "U" else "object"
        text = json.dumps(elements, separators=(",", ":"), ensure_ascii=False)
        return dtype, shape, None, text
    raise ValueError(
        f"{what} have dtype {values.dtype}; a study store keeps numbers and text "
        "labels only."
    )


#: The narrower little-endian integers of each kind, narrowest first.
_NARROWER = {
    kind: [np.dtype(f"<{kind}{width}") for width in (1, 2, 4)] for kind in "iu"
}


def _narrow(values):
    """Little-endian bytes of an integer array in the narrowest width of its
    kind that holds its elements.

    A width holds them when the narrowed array, widened again, gives the
    same bytes (one cast each way and a byte comparison: cheaper than a
    minimum and a maximum).

    >>> len(_narrow(np.array([0, 1, 255], dtype=np.int64)))  # int16 needed
    6
    """
    dtype = values.dtype
    same = values.tobytes()
    for narrower in _NARROWER[dtype.kind]:
        if narrower.itemsize >= dtype.itemsize:
            break
        narrow = values.astype(narrower)
        if narrow.astype(dtype).tobytes() == same:
            return narrow.tobytes()
    return same


def _check_shape(shape_text):
    shape = json.loads(shape_text)
    if (
        not isinstance(shape, list)
        or len(shape) > _MAX_NDIM
        or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                   for n in shape)
    ):  # fmt: skip
        raise ValueError(f"bad shape {shape_text!r}")
    return tuple(shape)


def decode_array(dtype, shape_text, numbers, text):
    """The array of a stored row; ValueError if the row is not consistent.

    >>> decode_array(*encode_array(np.array([0.5, 2.0]), "predictions"))
    array([0.5, 2. ])
    """
    shape = _check_shape(shape_text)
    size = int(np.prod(shape, dtype=np.int64))
    if _NUMERIC_DTYPE.match(dtype or ""):
        if not isinstance(numbers, bytes) or text is not None:
            raise ValueError(f"a {dtype} array without its bytes")
        little = np.dtype(dtype)
        stored = little
        if little.kind in "iu" and size and len(numbers) != size * little.itemsize:
            width, rest = divmod(len(numbers), size)  # written narrower
            if not rest and width in (1, 2, 4) and width < little.itemsize:
                stored = np.dtype(f"<{little.kind}{width}")
        if len(numbers) != size * stored.itemsize:
            raise ValueError(
                f"{len(numbers)} bytes for a {dtype} array of shape {list(shape)}"
            )
        values = np.frombuffer(numbers, dtype=stored).reshape(shape)
        return values.astype(little.newbyteorder("="))
    if dtype == "object" or _TEXT_DTYPE.match(dtype or ""):
        if not isinstance(text, str) or numbers is not None:
            raise ValueError(f"a {dtype} array without its text")
        elements = json.loads(text)
        if not isinstance(elements, list) or len(elements) != size:
            raise ValueError(f"text of {dtype} array does not hold {size} labels")
        if not all(
            e is None or isinstance(e, str | bool | int | float) for e in elements
        ):
            raise ValueError("text labels that are not numbers or strings")
        if dtype == "object":
            values = np.empty(size, dtype=object)
            values[:] = elements
            return values.reshape(shape)
        return np.array(elements, dtype=dtype).reshape(shape)
    raise ValueError(f"unknown dtype {dtype!r}")
