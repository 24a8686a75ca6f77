"""The seeds of a study: drawn once, recorded, and each data set's own.

Every entry point turns its ``random_state`` into one integer, the study
seed, before any split is drawn (:func:`study_seed`): an int is used as
given; ``None`` draws one from NumPy's global generator (as scikit-learn's
``random_state=None`` draws from it), and a ``RandomState`` instance gives
one draw. The integer is what the splits and the Monte Carlo sampling are
seeded with and what the result records, so a run made with
``random_state=None`` is repeated by passing the recorded seed.

Across data sets, each data set's splits are seeded by
:func:`dataset_seed`, a function of the study seed and the data set's
*name*, never of its position: adding, removing or reordering data sets
changes no other data set's splits.
"""

import hashlib
from numbers import Integral

import numpy as np
from sklearn.utils import Bunch, check_random_state

__all__ = ["dataset_seed", "derived_seed", "study_seed"]

#: Seeds are drawn below this bound (``numpy.int32``'s largest value, as
#: scikit-learn draws its own); a derived seed is at most this bound.
SEED_BOUND = int(np.iinfo(np.int32).max)


def study_seed(random_state):
    """The integer seed of a call and where it comes from.

    Parameters
    ----------
    random_state : int, RandomState instance or None
        The entry point's ``random_state``.

    Returns
    -------
    seed : Bunch
        ``seed`` (an int), ``origin`` (``"given"``, ``"drawn"`` for None or
        ``"drawn from the RandomState instance given"``) and ``given`` (the
        argument as a result can keep it: the int, None, or the kind of
        generator).

    Examples
    --------
    >>> from sklearn_bcv._engine._seeds import study_seed
    >>> study_seed(7).seed, study_seed(7).origin
    (7, 'given')
    >>> import numpy as np
    >>> np.random.seed(0)
    >>> first = study_seed(None)
    >>> np.random.seed(0)
    >>> first.seed == study_seed(None).seed, first.origin
    (True, 'drawn')
    """
    if isinstance(random_state, Integral) and not isinstance(random_state, bool):
        seed = int(random_state)
        return Bunch(seed=seed, origin="given", given=seed)
    generator = check_random_state(random_state)
    seed = int(generator.randint(SEED_BOUND))
    if random_state is None:
        return Bunch(seed=seed, origin="drawn", given=None)
    kind = type(random_state).__name__
    return Bunch(seed=seed, origin=f"drawn from the {kind} instance given", given=kind)


def dataset_seed(seed, name):
    """The seed of data set ``name``'s splits in a study seeded ``seed``.

    The first four bytes of the SHA-256 digest of the UTF-8 text
    ``"<seed>:<name>"``, read as a big-endian integer, modulo 2**31 (the
    methods of a report state it so): a function of the name alone, so the other
    data sets of a study do not change it, and anyone can compute it
    without this package.

    Examples
    --------
    >>> import hashlib
    >>> from sklearn_bcv._engine._seeds import dataset_seed
    >>> dataset_seed(0, "iris")
    1360328163
    >>> digest = hashlib.sha256(b"0:iris").digest()
    >>> int.from_bytes(digest[:4], "big") % 2**31
    1360328163
    """
    text = f"{int(seed)}:{name}".encode("utf-8", "surrogatepass")
    digest = hashlib.sha256(text).digest()
    return int.from_bytes(digest[:4], "big") % 2**31


def derived_seed(seed, split_seed):
    """The seed record (as :func:`study_seed` gives) of a data set's splits
    seeded ``split_seed`` by :func:`dataset_seed` in a study seeded
    ``seed``."""
    return Bunch(
        seed=int(split_seed),
        origin=f"derived from the study seed {int(seed)} and the data set's name",
        given=None,
    )
