"""Study stores (private): the fits of a study kept in one file.

* ``_fingerprint``: SHA-256 fingerprints of data sets, splits, estimators;
* ``_codec``: arrays as typed numbers or text, never pickles;
* ``_study``: :class:`StudyStore`, the SQLite file and its schema;
* ``_resume``: a store inside one call of the engine (look up, keep).
"""

from ._resume import UnfixedRandomStateWarning
from ._study import StudyStore, call_seed, opened_store

__all__ = ["StudyStore", "UnfixedRandomStateWarning", "call_seed", "opened_store"]
