"""The study store: one SQLite file of fits that outlives any process.

The file format, kept for years (``doc/user_guide.rst``, "Long studies"):

* ``PRAGMA application_id`` is :data:`APPLICATION_ID` ("BCVS") and
  ``PRAGMA user_version`` the schema version; the table ``meta`` repeats
  both as text (``format``, ``schema_version``) with the creating version
  of sklearn_bcv.
* ``datasets``, ``estimators``, ``splits``: one row per fingerprint (see
  :mod:`._fingerprint`, a ``UNIQUE`` column) under an integer ``id``, with
  what describes it: names, sizes, the estimator's class and parameters as
  JSON, a split's train and test indices as little-endian integers in the
  narrowest width that holds them (the width is the byte count over
  ``n_train`` or ``n_test``).
* ``calls``: one row per call that made fits: when it started and with
  which library versions (JSON).
* ``fits``: one row per fit, keyed by (data set, estimator, split, fit
  parameters) — the ids of the first three, the fingerprint of the fourth
  (``''`` for none); a ``WITHOUT ROWID`` table, so the key is the table's
  only B-tree. Then the split's index in the call, fit and score times,
  whether it failed (and the traceback text), which response methods were
  asked of it (``responses``, JSON), the id of the call that made it, and
  its arrays: for each of ``predict``, ``predict_proba``,
  ``decision_function``, ``predict_log_proba`` and ``classes`` three
  columns, ``<kind>_dtype``, ``<kind>_shape`` and ``<kind>`` (raw
  little-endian numbers as a BLOB, or JSON text; :mod:`._codec`), NULL
  when the fit does not have that output (:mod:`._columns`).

Nothing in the file is code: no pickles; opening a file checks its
application id, schema version and that it holds exactly the tables and
indexes above (no triggers or views), with ``trusted_schema`` off. Every
fit is written in its own transaction: one ``INSERT`` (SQLite's autocommit
makes a single statement its own transaction) on ids looked up once per
call; a fit of 100 test labels is a row of about 150 bytes, so a commit
appends about one 2 KiB page to the WAL journal (``synchronous=NORMAL``: a
killed process loses nothing committed; a power cut may lose the last
commits but never leaves a damaged file); two processes may write at once
(SQLite serialises them; ``busy_timeout`` waits for the other).
"""

import contextlib
import errno
import json
import os
import sqlite3
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from sklearn.utils import Bunch

from .._checks import check_creatable, check_path
from .._engine._seeds import study_seed
from .._version import __version__
from ._codec import decode_array, encode_array
from ._columns import FIT_COLUMNS, OUTPUT_KINDS
from ._resume import StudySession

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "StudyStore",
    "call_seed",
    "opened_store",
]

#: ``PRAGMA application_id`` of a study store: b"BCVS" as a big-endian int.
APPLICATION_ID = int.from_bytes(b"BCVS", "big")

#: The schema this version writes and the newest it reads.
SCHEMA_VERSION = 1

#: Seconds a write waits for another process holding the file.
BUSY_TIMEOUT = 60.0

#: The key of the ``meta`` table holding the store's study seed.
_RANDOM_STATE_KEY = "random_state"

#: Page size of a new store (bytes).
PAGE_SIZE = 2048

#: Journal pages between two checkpoints (8 MiB of 2 KiB pages).
CHECKPOINT_PAGES = 4096

_SCHEMA = {
    "meta": """CREATE TABLE meta (
        key TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL)""",
    "calls": """CREATE TABLE calls (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created TEXT NOT NULL,
        versions TEXT NOT NULL)""",
    "datasets": """CREATE TABLE datasets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        fingerprint TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        n_samples INTEGER NOT NULL,
        description TEXT NOT NULL,
        created TEXT NOT NULL)""",
    "estimators": """CREATE TABLE estimators (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        fingerprint TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        class TEXT NOT NULL,
        params TEXT NOT NULL,
        random_state_fixed INTEGER NOT NULL,
        created TEXT NOT NULL)""",
    "splits": """CREATE TABLE splits (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        fingerprint TEXT NOT NULL UNIQUE,
        n_train INTEGER NOT NULL,
        n_test INTEGER NOT NULL,
        train BLOB NOT NULL,
        test BLOB NOT NULL)""",
    "fits": """CREATE TABLE fits (
        dataset INTEGER NOT NULL REFERENCES datasets(id),
        estimator INTEGER NOT NULL REFERENCES estimators(id),
        split INTEGER NOT NULL REFERENCES splits(id),
        fit_params TEXT NOT NULL,
        split_index INTEGER NOT NULL,
        fit_time REAL NOT NULL,
        score_time REAL NOT NULL,
        failed INTEGER NOT NULL,
        error TEXT,
        responses TEXT NOT NULL,
        call INTEGER NOT NULL REFERENCES calls(id),
        """
    + ",\n        ".join(
        f"{kind}_dtype TEXT, {kind}_shape TEXT, {kind}" for kind in OUTPUT_KINDS
    )
    + """,
        PRIMARY KEY (dataset, estimator, split, fit_params)) WITHOUT ROWID""",
}


def _keep_statement(kinds):
    """The statement that writes a fit's row with the outputs ``kinds``.

    One statement, so one transaction of its own in autocommit mode; the
    columns of the other kinds stay NULL. A fit fitted again (after a
    failure, or to give more outputs) replaces its row.
    """
    unknown = set(kinds) - set(OUTPUT_KINDS)
    if unknown:
        raise ValueError(f"a study store keeps no {sorted(unknown)} outputs.")
    columns = [*FIT_COLUMNS[:11], *(f"{k}{part}" for k in kinds
               for part in ("_dtype", "_shape", ""))]  # fmt: skip
    return (
        f"INSERT OR REPLACE INTO fits ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' * len(columns))})"
    )


def _now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _versions():
    import sklearn

    return json.dumps(
        {
            "sklearn_bcv": __version__,
            "scikit-learn": sklearn.__version__,
            "numpy": np.__version__,
            "python": sys.version.split()[0],
        },
        sort_keys=True,
    )


def _retry_while_busy(connection, work):
    """Run ``work()``, again while SQLite reports the file busy, for up to
    ``BUSY_TIMEOUT`` seconds.

    SQLite's busy handler waits for most locks, but not where waiting
    could deadlock (two connections creating one new file at once, or
    switching it to WAL): those fail at once, and the whole step, which
    is one transaction or none, is simply tried again.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT
    pause = 0.001
    while True:
        try:
            return work()
        except sqlite3.OperationalError as exc:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if not _error_name(exc).startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
                raise
            if time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(2 * pause, 0.1)


def _error_name(exc):
    """SQLite's error name of ``exc`` (Python 3.11+), else one from its text."""
    name = getattr(exc, "sqlite_errorname", None)
    if name:
        return name
    text = str(exc).lower()
    for needle, name in (
        ("not a database", "SQLITE_NOTADB"),
        ("malformed", "SQLITE_CORRUPT"),
        ("readonly", "SQLITE_READONLY"),
        ("read-only", "SQLITE_READONLY"),
        ("disk is full", "SQLITE_FULL"),
        ("unable to open", "SQLITE_CANTOPEN"),
        ("locked", "SQLITE_BUSY"),
    ):
        if needle in text:
            return name
    return "SQLITE_ERROR"


class StudyStore:
    """A file that keeps the fits of a study: resume it, extend it, read it.

    Pass it (or its path) as ``store=`` to :func:`~sklearn_bcv.benchmark`,
    :func:`~sklearn_bcv.compare_many_estimators` or
    :func:`~sklearn_bcv.compare_estimators`: every finished fit is written
    to it as it arrives, and a later call fits only what the store does not
    hold. An interrupted study loses at most the fits in flight; adding an
    estimator or a data set fits only those.

    Parameters
    ----------
    path : str or os.PathLike
        The study file (SQLite, through the standard library's
        :mod:`sqlite3`; no server). Without NUL bytes or control characters.
        In mode ``"a"`` a missing file is created when the first call
        given the store is accepted (its first write): a call refused for
        its arguments leaves nothing behind. That the file can be created
        is tried at once, so a path that cannot be written fails here.
    mode : {"a", "r"}, default="a"
        ``"a"`` reads and writes (creating the file); ``"r"`` only reads:
        an entry point given a read-only store uses the fits it holds and
        fits the others without keeping them.

    Attributes
    ----------
    path : pathlib.Path
    mode : str
    datasets : list of Bunch
        One per data set: ``name`` (the name it was first stored under),
        ``fingerprint``, ``n_samples``, ``n_fits``, ``description``.
    estimators : list of Bunch
        One per estimator (class and parameters): ``name``,
        ``fingerprint``, ``class_name``, ``params`` (the JSON description
        of its parameters), ``random_state_fixed``, ``n_fits``.
    n_fits : int
        The number of fits in the store.
    last_call : Bunch or None
        What the last call given this store found and did: ``n_found``
        (fits found in the store), ``n_to_fit`` and ``n_kept`` (fits made and
        written); None before any call.

    See Also
    --------
    benchmark : Fit k estimators on many data sets (``store=``).

    Notes
    -----
    A fit is keyed by SHA-256 fingerprints of its data set (the contents of
    X, y and groups, with dtypes and shapes), its split (train and test
    indices), its estimator (class and parameters) and its fit parameters.
    The file holds numbers, text and JSON only — never pickles or code — so
    a store from someone else is safe to open; a file that is not a study
    store, a damaged one or one of a newer schema gives a one-line error
    naming the file. The file is written only by the process that called
    the entry point (never by joblib's or dask's workers), one transaction
    per fit, so ``kill -9`` at any moment leaves a consistent file. Two
    processes may use one store at once.

    Examples
    --------
    >>> import os, tempfile
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bcv import StudyStore, compare_estimators
    >>> X, y = load_iris(return_X_y=True)
    >>> path = os.path.join(tempfile.mkdtemp(), "study.db")
    >>> with StudyStore(path) as store:
    ...     first = compare_estimators(GaussianNB(),
    ...         DecisionTreeClassifier(random_state=0), X, y, random_state=0,
    ...         store=store)
    ...     again = compare_estimators(GaussianNB(),
    ...         DecisionTreeClassifier(random_state=0), X, y, random_state=0,
    ...         store=store)  # nothing is fitted: every fit is in the store
    ...     len(store.fits())
    20
    >>> bool((first.scores_a == again.scores_a).all())
    True
    """

    def __init__(self, path, *, mode="a"):
        if mode not in ("a", "r"):
            raise ValueError(f"mode must be 'a' or 'r'; got {mode!r}.")
        if not isinstance(path, str | os.PathLike):
            raise TypeError(
                f"path must be a str or os.PathLike; got {type(path).__name__}."
            )
        self.path = Path(os.fsdecode(check_path(path, name="path")))
        self.mode = mode
        self._connection = None
        self._known = set()  # fingerprints known to be in the file
        self._statements = {}  # output kinds -> the statement keeping a fit
        self._pending_random_state = None  # recorded with the next call's fits
        self.last_call = None
        # A file still to be created reads as an empty store, from memory,
        # until the first write creates it (_created is then True).
        self._created = mode == "r" or os.path.lexists(self.path)
        if self._created:
            self._connection = self._open()
        else:
            self._check_creatable()
            self._connection = _empty_store()

    def _check_creatable(self):
        """A new store can be created at the path: its directory exists and
        accepts a file (tried for real), or a one-line error naming it."""
        path = self.path
        if not path.parent.is_dir():
            raise FileNotFoundError(
                errno.ENOENT,
                f"cannot create study store {path}: no directory {path.parent}",
            )
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise PermissionError(
                errno.EACCES,
                f"cannot write to study store {path}: its directory is "
                "read-only (open it with mode='r' to read it)",
            )
        try:
            check_creatable(path)
        except OSError as exc:
            raise PermissionError(
                errno.EACCES, f"cannot create study store {path}: {exc}"
            ) from None

    def _create_now(self):
        """Create the file of a store opened before it existed (its first
        write: the call that writes has been accepted)."""
        if self._created:
            return
        self._db()  # a closed store stays closed
        self._connection.close()
        self._connection = None
        self._connection = self._open()
        self._created = True

    # ------------------------------------------------------------------
    # Opening and checking

    def _fail(self, exc, doing):
        """A one-line error naming the file for a sqlite3 error."""
        name = _error_name(exc)
        where = str(self.path)
        if name == "SQLITE_NOTADB":
            return ValueError(
                f"{where} is not a sklearn_bcv study store (not an SQLite database)."
            )
        if name.startswith("SQLITE_CORRUPT") or "could not decode" in str(exc).lower():
            return ValueError(
                f"study store {where} is damaged ({exc}); nothing was written to it. "
                "Copy it aside and start a new store, or recover its fits with "
                "sqlite3's '.recover'."
            )
        if name.startswith("SQLITE_READONLY"):
            return PermissionError(
                errno.EACCES,
                f"cannot write to study store {where}: the file or its directory is "
                "read-only (open it with mode='r' to read it)",
            )
        if name == "SQLITE_FULL":
            return OSError(
                errno.ENOSPC,
                f"cannot write to study store {where}: the disk is full; the fits "
                "stored before are kept (free space and rerun to resume)",
            )
        if name.startswith("SQLITE_CANTOPEN"):
            return OSError(
                errno.EACCES,
                f"cannot open study store {where} while {doing} (a missing or "
                "read-only directory, or not a file)",
            )
        if name.startswith("SQLITE_BUSY"):
            return OSError(
                errno.EBUSY,
                f"study store {where} is locked by another process for more than "
                f"{BUSY_TIMEOUT:.0f} s",
            )
        return OSError(f"study store {where}: {exc} (while {doing})")

    def _open(self):
        path = self.path
        if path.exists() and not path.is_file():
            raise ValueError(f"{path} is not a sklearn_bcv study store (not a file).")
        if self.mode == "r":
            if not path.is_file():
                raise FileNotFoundError(
                    errno.ENOENT, f"study store {path} does not exist"
                )
            uri = f"{path.absolute().as_uri()}?mode=ro"
            wal = path.with_name(path.name + "-wal")
            if not os.access(path.parent, os.W_OK) and not wal.exists():
                # SQLite cannot make its shared-memory file in a read-only
                # directory; with no journal left to read, the file is final.
                uri += "&immutable=1"
        else:
            if path.is_file() and not os.access(path, os.W_OK):
                raise PermissionError(
                    errno.EACCES,
                    f"cannot write to study store {path}: the file is read-only "
                    "(open it with mode='r' to read it)",
                )
            # SQLite's journal is a file beside the store: the directory
            # must take new files, existing store or not.
            self._check_creatable()
            uri = f"{path.absolute().as_uri()}?mode=rwc"
        try:
            connection = sqlite3.connect(
                uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None
            )
        except sqlite3.Error as exc:
            raise self._fail(exc, "opening it") from None
        try:
            connection.execute("PRAGMA trusted_schema = OFF")
            connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
            _retry_while_busy(connection, lambda: self._prepare(connection))
            connection.execute("PRAGMA foreign_keys = ON")
        except BaseException as exc:
            connection.close()
            if isinstance(exc, sqlite3.Error):
                raise self._fail(exc, "opening it") from None
            raise
        return connection

    def _objects(self, connection):
        rows = connection.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchall()
        return {(kind, name) for kind, name in rows}

    def _prepare(self, connection):
        """Check (or create) the store and set the connection's modes."""
        self._check_or_create(connection)
        if self.mode == "a":
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = NORMAL")
            # Fewer checkpoints (each syncs the disk): the journal may
            # grow to CHECKPOINT_PAGES pages between two.
            connection.execute(f"PRAGMA wal_autocheckpoint = {CHECKPOINT_PAGES}")

    def _check_or_create(self, connection):
        # One read transaction: the header and the tables of one snapshot,
        # not of a store another process is creating between two reads.
        connection.execute("BEGIN")
        try:
            application_id = connection.execute("PRAGMA application_id").fetchone()[0]
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            objects = self._objects(connection)
        finally:
            connection.execute("COMMIT")
        if application_id == 0 and version == 0 and not objects:
            if self.mode == "r":
                raise ValueError(
                    f"{self.path} is not a sklearn_bcv study store (an empty file)."
                )
            self._create(connection)
            return
        if application_id != APPLICATION_ID:
            raise ValueError(
                f"{self.path} is not a sklearn_bcv study store (an SQLite database "
                "of another application)."
            )
        if version > SCHEMA_VERSION:
            raise ValueError(
                f"study store {self.path} has schema version {version}; this "
                f"sklearn_bcv ({__version__}) reads versions up to {SCHEMA_VERSION}: "
                "upgrade sklearn_bcv to open it."
            )
        expected = {
            ("index" if "INDEX" in sql.split("(")[0] else "table", name)
            for name, sql in _SCHEMA.items()
        }
        if version < 1 or objects != expected:
            extra = sorted(f"{kind} {name}" for kind, name in objects - expected)
            missing = sorted(f"{kind} {name}" for kind, name in expected - objects)
            detail = "; ".join(
                part
                for part in (
                    f"unexpected {', '.join(extra)}" if extra else "",
                    f"missing {', '.join(missing)}" if missing else "",
                )
                if part
            )
            raise ValueError(
                f"study store {self.path} is damaged: its tables are not those of "
                f"schema version {version} ({detail or 'bad version'})."
            )
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise ValueError(
                f"study store {self.path} is damaged ({check}); nothing was written "
                "to it. Copy it aside and start a new store, or recover its fits "
                "with sqlite3's '.recover'."
            )

    def _create(self, connection):
        # An empty file becomes a store: WAL first, so that creating the
        # schema is one quick transaction (a foreign file is never changed).
        # Pages of 2 KiB: a commit writes whole pages to the journal, and a
        # fit's rows change a few bytes of three or four pages.
        connection.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        connection.execute("PRAGMA synchronous = NORMAL")  # fewer syncs to switch
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have created it since we looked.
            if self._objects(connection):
                connection.execute("ROLLBACK")
                self._check_or_create(connection)
                return
            for sql in _SCHEMA.values():
                connection.execute(sql)
            connection.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [
                    ("format", "sklearn_bcv study store"),
                    ("schema_version", str(SCHEMA_VERSION)),
                    ("created", _now()),
                    ("created_by", f"sklearn_bcv {__version__}"),
                ],
            )
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------------
    # Context manager and closing

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def close(self):
        """Close the file (a closed store cannot be used again)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    @property
    def closed(self):
        return self._connection is None

    def _db(self):
        if self._connection is None:
            raise ValueError(f"study store {self.path} is closed.")
        return self._connection

    def count_call_fits(self, call):
        """How many fits the call ``call`` (its id) has committed."""
        ((count,),) = self._read("SELECT COUNT(*) FROM fits WHERE call = ?", (call,))
        return int(count)

    def _read(self, sql, params=(), doing="reading it"):
        try:
            return self._db().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._fail(exc, doing) from None

    def _write(self, statements, doing, *, read=None, lastrowid=False):
        """Run ``[(sql, params or [params...]), ...]`` in one transaction;
        return the ids of ``read`` (see :meth:`_ids`) read in it, or the
        last statement's ``lastrowid``."""
        if self.mode == "r":
            raise PermissionError(
                errno.EACCES, f"study store {self.path} is open read-only (mode='r')"
            )
        self._create_now()
        db = self._db()
        result = None
        try:
            db.execute("BEGIN IMMEDIATE")
            for sql, params in statements:
                if isinstance(params, list):
                    cursor = db.executemany(sql, params)
                else:
                    cursor = db.execute(sql, params)
            if lastrowid:
                result = cursor.lastrowid
            if read is not None:
                result = self._ids(read, lambda sql, p: db.execute(sql, p).fetchall())
            db.execute("COMMIT")
        except BaseException as exc:
            if db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if isinstance(exc, sqlite3.Error):
                raise self._fail(exc, doing) from None
            raise
        return result

    def __repr__(self):
        state = "closed" if self.closed else f"{self.n_fits} fits"
        return f"StudyStore({str(self.path)!r}, mode={self.mode!r}) <{state}>"

    # ------------------------------------------------------------------
    # What the engine uses: a session, which registers, looks up and keeps

    def session(self, datasets, *, error_score):
        """A :class:`~._resume.StudySession` of the engine's data sets."""
        return StudySession(self, datasets, error_score=error_score)

    def register(self, datasets=(), estimators=(), splits=()):
        """Write the rows of data sets, estimators and splits not yet in the
        file (one transaction) and return their integer ids.

        Each argument is a list of dicts. Returns ``{table: {fingerprint:
        id}}`` for the three tables; in mode ``"r"`` only the rows already
        in the file have an id.
        """
        now = _now()
        new = {
            "datasets": [
                (r["fingerprint"], r["name"], r["n_samples"],
                 json.dumps(r["description"], sort_keys=True), now)
                for r in datasets if r["fingerprint"] not in self._known
            ],
            "estimators": [
                (r["fingerprint"], r["name"], r["description"]["class"],
                 json.dumps(r["description"]["params"], sort_keys=True),
                 int(r["random_state_fixed"]), now)
                for r in estimators if r["fingerprint"] not in self._known
            ],
            "splits": [
                (r["fingerprint"], len(r["train"]), len(r["test"]),
                 _indices(r["train"]), _indices(r["test"]))
                for r in splits if r["fingerprint"] not in self._known
            ],
        }  # fmt: skip
        columns = {
            "datasets": "fingerprint, name, n_samples, description, created",
            "estimators": "fingerprint, name, class, params, random_state_fixed, "
            "created",
            "splits": "fingerprint, n_train, n_test, train, test",
        }
        wanted = {
            "datasets": [r["fingerprint"] for r in datasets],
            "estimators": [r["fingerprint"] for r in estimators],
            "splits": [r["fingerprint"] for r in splits],
        }
        statements = [
            (
                f"INSERT OR IGNORE INTO {table} ({columns[table]}) VALUES "
                f"({', '.join('?' * len(rows[0]))})",
                rows,
            )
            for table, rows in new.items()
            if rows
        ]
        if self.mode == "a" and statements:
            ids = self._write(statements, "registering the study", read=wanted)
        else:
            ids = self._ids(wanted, self._read)
        for group in (datasets, estimators, splits):
            self._known.update(r["fingerprint"] for r in group)
        return ids

    def _ids(self, wanted, read):
        """``{table: {fingerprint: id}}`` of the fingerprints in ``wanted``."""
        ids = {}
        for table, fingerprints in wanted.items():
            unique = list(dict.fromkeys(fingerprints))
            ids[table] = {}
            for start in range(0, len(unique), 500):
                chunk = unique[start : start + 500]
                marks = ",".join("?" * len(chunk))
                ids[table].update(
                    (fp, fit_id)
                    for fit_id, fp in read(
                        f"SELECT id, fingerprint FROM {table} "
                        f"WHERE fingerprint IN ({marks})",
                        chunk,
                    )
                )
        return ids

    def new_call(self):
        """The id of a new row of ``calls`` (when and with which library
        versions the fits of this call are made); None in mode ``"r"``.
        The seed noted by :meth:`note_random_state` becomes the store's
        (:attr:`random_state`) in the same transaction, unless it has one."""
        if self.mode == "r":
            return None
        statements = []
        if self._pending_random_state is not None:
            statements.append((
                "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
                (_RANDOM_STATE_KEY, str(self._pending_random_state)),
            ))  # fmt: skip
            self._pending_random_state = None
        statements.append(
            ("INSERT INTO calls (created, versions) VALUES (?, ?)",
             (_now(), _versions()))
        )  # fmt: skip
        return self._write(statements, "registering the call", lastrowid=True)

    @property
    def random_state(self):
        """The study seed of the first call that fitted into the store, or
        None (a store of sklearn_bcv 0.1 or none fitted yet).

        An entry point given this store and ``random_state=None`` seeds its
        splits with it, so rerunning the call resumes the study; an int
        ``random_state`` is used as given.
        """
        rows = self._read("SELECT value FROM meta WHERE key = ?", (_RANDOM_STATE_KEY,))
        if not rows:
            return None
        try:
            return int(rows[0][0])
        except ValueError:
            raise self._damaged(f"its seed {rows[0][0]!r} is not an integer") from None

    def note_random_state(self, seed):
        """Record ``seed`` as the store's :attr:`random_state` with the first
        fit this call keeps, unless the store holds one already."""
        self._pending_random_state = int(seed)

    def lookup(self, dataset, estimators):
        """Stored fits of ``estimators`` (ids) on data set ``dataset`` (an id).

        Returns a dict ``(split, estimator, fit_params) -> Bunch`` (split
        and estimator ids) with ``fit_time``, ``score_time``, ``failed``,
        ``error``, ``responses`` (the response methods asked of the fit) and
        ``outputs`` (kind -> array).
        """
        if not estimators or dataset is None:
            return {}
        marks = ",".join("?" * len(estimators))
        rows = self._read(
            f"SELECT {', '.join(FIT_COLUMNS[1:4] + FIT_COLUMNS[5:10])}, "
            f"{', '.join(FIT_COLUMNS[11:])} FROM fits "
            f"WHERE dataset = ? AND estimator IN ({marks})",
            (dataset, *estimators),
        )
        found = {}
        for row in rows:
            estimator, split, fit_params = row[:3]
            fit_time, score_time, failed, error, responses = row[3:8]
            where = f"fit of estimator {estimator} on split {split}"
            try:
                record = Bunch(
                    fit_time=float(fit_time),
                    score_time=float(score_time),
                    failed=bool(failed),
                    error=None if error is None else str(error),
                    responses=tuple(json.loads(responses)),
                    outputs={},
                )
            except (TypeError, ValueError) as exc:
                raise self._damaged(f"{where}: {exc}") from None
            for n, kind in enumerate(OUTPUT_KINDS):
                dtype, shape, value = row[8 + 3 * n : 11 + 3 * n]
                if dtype is None and value is None:
                    continue
                try:
                    record.outputs[kind] = decode_array(
                        dtype,
                        shape,
                        value if isinstance(value, bytes) else None,
                        value if isinstance(value, str) else None,
                    )
                except (TypeError, ValueError) as exc:
                    raise self._damaged(f"output {kind} of {where}: {exc}") from None
            found[(split, estimator, fit_params)] = record
        return found

    def _damaged(self, detail):
        return ValueError(f"study store {self.path} is damaged ({detail}).")

    def keep(self, kinds, row):
        """Write one fit, its row in ``fits``, in its own transaction.

        ``row`` holds the first eleven of :data:`._columns.FIT_COLUMNS` —
        the ids of the data set, estimator, split, the fit parameters'
        fingerprint, ..., ``responses`` as JSON text, the call's id — then
        ``dtype``, ``shape`` and numbers (bytes) or text of each output kind
        in ``kinds`` (a tuple, :func:`._codec.encode_array`). One statement:
        SQLite runs it as one transaction (autocommit), about one page of
        the journal.
        """
        if self.mode == "r":
            return
        statement = self._statements.get(kinds)
        if statement is None:
            statement = self._statements[kinds] = _keep_statement(kinds)
        self._create_now()
        try:
            self._db().execute(statement, row)
        except sqlite3.Error as exc:
            raise self._fail(exc, "writing a fit") from None

    # ------------------------------------------------------------------
    # What the user reads and removes

    @property
    def n_fits(self):
        """Number of fits in the store."""
        return int(self._read("SELECT COUNT(*) FROM fits")[0][0])

    @property
    def datasets(self):
        rows = self._read(
            "SELECT d.name, d.fingerprint, d.n_samples, d.description, "
            "(SELECT COUNT(*) FROM fits f WHERE f.dataset = d.id) "
            "FROM datasets d ORDER BY d.id"
        )
        return [
            Bunch(
                name=name,
                fingerprint=fingerprint,
                n_samples=n_samples,
                description=_json_or_text(description),
                n_fits=n_fits,
            )
            for name, fingerprint, n_samples, description, n_fits in rows
        ]

    @property
    def estimators(self):
        rows = self._read(
            "SELECT e.name, e.fingerprint, e.class, e.params, e.random_state_fixed, "
            "(SELECT COUNT(*) FROM fits f WHERE f.estimator = e.id) "
            "FROM estimators e ORDER BY e.id"
        )
        return [
            Bunch(
                name=name,
                fingerprint=fingerprint,
                class_name=class_name,
                params=_json_or_text(params),
                random_state_fixed=bool(fixed),
                n_fits=n_fits,
            )
            for name, fingerprint, class_name, params, fixed, n_fits in rows
        ]

    def fits(self):
        """One row per stored fit, as a :class:`pandas.DataFrame`.

        Rows in the order of the calls that made them, then of data sets,
        estimators (as first stored) and splits. Columns: ``dataset``,
        ``estimator`` (names), ``split`` (its index in the call that made the
        fit), ``n_train``, ``n_test``, ``fit_time``,
        ``score_time``, ``failed``, ``error``, ``outputs`` (the arrays kept,
        comma-separated), ``created``, and the fingerprints
        ``dataset_fingerprint``, ``estimator_fingerprint``,
        ``split_fingerprint``, ``fit_params_fingerprint``.
        """
        try:
            import pandas as pd
        except ImportError:
            raise ImportError(
                "StudyStore.fits() returns a pandas DataFrame and needs pandas: "
                "pip install pandas (datasets and estimators need nothing)."
            ) from None
        rows = self._read(
            "SELECT d.name, e.name, f.split_index, s.n_train, s.n_test, f.fit_time, "
            "f.score_time, f.failed, f.error, "
            + " || ".join(
                f"(CASE WHEN f.{kind}_dtype IS NULL THEN '' ELSE '{kind},' END)"
                for kind in sorted(OUTPUT_KINDS)
            )
            + ", c.created, d.fingerprint, e.fingerprint, s.fingerprint, "
            "f.fit_params FROM fits f "
            "JOIN datasets d ON d.id = f.dataset "
            "JOIN estimators e ON e.id = f.estimator "
            "JOIN splits s ON s.id = f.split "
            "JOIN calls c ON c.id = f.call "
            "ORDER BY f.call, f.dataset, f.estimator, f.split_index"
        )
        rows = [(*row[:9], row[9].rstrip(",") or None, *row[10:]) for row in rows]
        columns = [
            "dataset", "estimator", "split", "n_train", "n_test", "fit_time",
            "score_time", "failed", "error", "outputs", "created",
            "dataset_fingerprint", "estimator_fingerprint", "split_fingerprint",
            "fit_params_fingerprint",
        ]  # fmt: skip
        frame = pd.DataFrame(rows, columns=columns)
        frame["failed"] = frame["failed"].astype(bool)
        return frame

    def _match(self, table, value, what):
        """Ids of ``table`` rows matching a name or fingerprint prefix."""
        rows = self._read(f"SELECT id, fingerprint, name FROM {table}")
        if hasattr(value, "get_params"):
            from ._fingerprint import describe_estimator, fingerprint_json

            value = fingerprint_json(describe_estimator(value))
        if not isinstance(value, str) or not value:
            raise ValueError(
                f"{what} must be a name or a fingerprint"
                + (" or an estimator" if table == "estimators" else "")
                + f"; got {value!r}."
            )
        by_name = [row_id for row_id, _, name in rows if name == value]
        if by_name:
            return by_name
        by_fp = [
            row_id for row_id, fp, _ in rows if len(value) >= 8 and fp.startswith(value)
        ]
        if len(by_fp) == 1:
            return by_fp
        names = sorted({name for _, _, name in rows})
        raise ValueError(
            f"{what}={value!r} is not in study store {self.path}; it holds {names}."
        )

    def remove(self, estimator=None, dataset=None):
        """Remove the fits of an estimator, of a data set, or of both at once.

        Parameters
        ----------
        estimator : str or estimator, default=None
            A name as stored (``estimators``), a fingerprint (or a prefix of
            8 characters or more), or an estimator object (its class and
            parameters).
        dataset : str, default=None
            A name as stored (``datasets``) or a fingerprint (prefix).

        Returns
        -------
        n_removed : int
            The number of fits removed. Data sets, estimators and splits
            left without fits are removed too.
        """
        if estimator is None and dataset is None:
            raise ValueError("remove() needs estimator, dataset or both.")
        where, params = [], []
        for value, table, column in (
            (estimator, "estimators", "estimator"),
            (dataset, "datasets", "dataset"),
        ):
            if value is None:
                continue
            fps = self._match(table, value, column)
            where.append(f"{column} IN ({','.join('?' * len(fps))})")
            params.extend(fps)
        condition = " AND ".join(where)
        (count,) = self._read(f"SELECT COUNT(*) FROM fits WHERE {condition}", params)[0]
        self._write(
            [
                (f"DELETE FROM fits WHERE {condition}", tuple(params)),
                *(
                    (
                        f"DELETE FROM {table} WHERE id NOT IN "
                        f"(SELECT {column} FROM fits)",
                        (),
                    )
                    for table, column in (
                        ("datasets", "dataset"),
                        ("estimators", "estimator"),
                        ("splits", "split"),
                        ("calls", "call"),
                    )
                ),
            ],
            "removing fits",
        )
        self._known.clear()
        return int(count)


def _empty_store():
    """An in-memory database with a study store's tables and no rows: how a
    store whose file is not created yet reads."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    for sql in _SCHEMA.values():
        connection.execute(sql)
    return connection


def _indices(indices):
    """Bytes of a split's indices: little-endian integers in the narrowest
    width that holds them (one byte each below 128 records; the width is the
    byte count over ``n_train`` or ``n_test``), as :mod:`._codec` writes
    ``int64`` arrays."""
    return encode_array(np.asarray(indices, dtype=np.int64), "a split")[2]


def _json_or_text(text):
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def call_seed(random_state, study_store):
    """The study seed of a call (:func:`~sklearn_bcv._engine._seeds.study_seed`)
    given ``study_store`` (a :class:`StudyStore` or None).

    With ``random_state=None`` a store that holds a seed gives it (rerunning
    the call resumes the study); otherwise the seed is drawn or taken as
    given, and the store records it with the first fit it keeps if it holds
    none.
    """
    if random_state is None and study_store is not None:
        recorded = study_store.random_state
        if recorded is not None:
            return Bunch(
                seed=recorded,
                origin=f"recorded in the study store {study_store.path.name}",
                given=None,
            )
    seed = study_seed(random_state)
    if study_store is not None:
        study_store.note_random_state(seed.seed)
    return seed


@contextlib.contextmanager
def opened_store(store):
    """The :class:`StudyStore` of a ``store=`` argument (None stays None);
    a store opened from a path is closed at the end."""
    if store is None:
        yield None
        return
    if isinstance(store, StudyStore):
        if store.closed:
            raise ValueError(f"store: study store {store.path} is closed.")
        yield store
        return
    if not isinstance(store, str | os.PathLike):
        raise ValueError(
            "store must be None, a path (str or os.PathLike) of a study file or a "
            f"StudyStore; got {type(store).__name__}."
        )
    opened = StudyStore(check_path(store, name="store"))
    try:
        yield opened
    finally:
        opened.close()
