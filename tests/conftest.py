import os

import numpy as np
import pytest
from hypothesis import settings

# "ci" keeps property tests quick on two cores and draws the same examples
# on every run (derandomized: a run that passes here passes in CI, and a
# failure reproduces); HYPOTHESIS_PROFILE=thorough explores more, at random.
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def global_random_seed():
    """A fixed seed, overridable with SKLEARN_BCV_SEED, as sklearn's tests do."""
    return int(os.environ.get("SKLEARN_BCV_SEED", "42"))


@pytest.fixture
def rng(global_random_seed):
    return np.random.default_rng(global_random_seed)
