"""Hypothesis strategies shared by the hostile-input tests."""

from hypothesis import strategies as st

#: Finite floats from subnormals up to ±1e300, both signs.
EXTREME = st.floats(
    min_value=-1e300,
    max_value=1e300,
    allow_nan=False,
    allow_infinity=False,
    allow_subnormal=True,
)
