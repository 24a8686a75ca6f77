"""Bad and hostile study stores: one-line errors naming the file, nothing
stored lost, no code run, two writers at once."""

import errno
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_iris

import sklearn_bcv
from sklearn_bcv import StudyStore, compare_many_estimators
from sklearn_bcv._store._study import SCHEMA_VERSION

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import _store_study  # noqa: E402
from _store_study import RecordingCentroid  # noqa: E402

X, Y = load_iris(return_X_y=True)


def _study(path, **kwargs):
    return compare_many_estimators(
        {"c0": RecordingCentroid(0.0), "c5": RecordingCentroid(0.5)},
        X,
        Y,
        random_state=0,
        store=path,
        **kwargs,
    )


@pytest.fixture
def stored(tmp_path):
    path = tmp_path / "study.db"
    _study(path)
    return path


def _one_line(exc_info, path):
    text = str(exc_info.value)
    assert "\n" not in text
    assert str(path) in text
    return text


@pytest.mark.parametrize(
    "content",
    [
        b"dataset,score\niris,0.9\n",
        np.random.default_rng(0).bytes(4096),
        b"SQLite format 3\x00" + b"\xff" * 200,
    ],
    ids=["csv", "random bytes", "bad header"],
)
def test_a_file_that_is_not_a_store(tmp_path, content):
    path = tmp_path / "results.csv"
    path.write_bytes(content)
    with pytest.raises(ValueError) as info:
        StudyStore(path)
    assert "is not a sklearn_bcv study store (not an SQLite database)" in (
        _one_line(info, path)
    )
    assert path.read_bytes() == content  # untouched
    with pytest.raises(ValueError, match="study store"):
        _study(path)
    assert path.read_bytes() == content


def test_a_directory_is_not_a_store(tmp_path):
    with pytest.raises(ValueError, match="not a file"):
        StudyStore(tmp_path)


def test_an_sqlite_database_of_another_application(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE fits (x)")
    with pytest.raises(ValueError) as info:
        StudyStore(path)
    assert "an SQLite database of another application" in _one_line(info, path)


def test_a_newer_schema(stored):
    with sqlite3.connect(stored) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(ValueError) as info:
        StudyStore(stored)
    text = _one_line(info, stored)
    assert f"schema version {SCHEMA_VERSION + 1}" in text
    assert "upgrade sklearn_bcv" in text


def test_a_truncated_store(stored, tmp_path):
    data = stored.read_bytes()
    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError) as info:
        StudyStore(truncated)
    assert "is damaged" in _one_line(info, truncated)
    assert truncated.stat().st_size == len(data) // 2  # nothing written


def test_a_damaged_row_is_refused(stored):
    with sqlite3.connect(stored) as db:
        db.execute("UPDATE fits SET predict = x'000000' WHERE split = 1")
    with pytest.raises(ValueError) as info:
        _study(stored)
    assert "is damaged" in _one_line(info, stored)


def test_a_hostile_store_runs_no_code(tmp_path, stored):
    """Triggers, views, pickles and code in names are refused or inert."""
    marker = tmp_path / "pwned"
    with sqlite3.connect(stored) as db:
        db.execute(
            "UPDATE estimators SET class = ?, params = ?",
            (f"os.system('touch {marker}')", json.dumps({"x": "__import__('os')"})),
        )
        # A pickle where numbers should be: refused by its dtype, never loaded.
        db.execute(
            "UPDATE fits SET predict_dtype = '|O', predict = ? WHERE split = 1",
            (b"\x80\x04\x95" + f"os.system('touch {marker}')".encode(),),
        )
    with StudyStore(stored) as store:
        assert store.estimators[0].class_name.startswith("os.system")
        store.fits()
    with pytest.raises(ValueError, match="damaged.*unknown dtype"):
        _study(stored)
    assert not marker.exists()
    with sqlite3.connect(stored) as db:
        db.execute(
            "CREATE TRIGGER wipe AFTER INSERT ON fits BEGIN DELETE FROM fits; END"
        )
    with pytest.raises(ValueError) as info:
        StudyStore(stored)
    assert "unexpected trigger wipe" in _one_line(info, stored)


def test_read_only_file_and_directory(stored, tmp_path, monkeypatch):
    n_fits = StudyStore(stored, mode="r").n_fits
    real_access = os.access

    def no_write(path, mode, *args, **kwargs):
        if mode & os.W_OK:
            return False
        return real_access(path, mode, *args, **kwargs)

    # Permissions as a user other than root sees them.
    monkeypatch.setattr(os, "access", no_write)
    with pytest.raises(PermissionError) as info:
        StudyStore(stored)
    assert "the file is read-only (open it with mode='r'" in _one_line(info, stored)
    fresh = tmp_path / "new.db"
    with pytest.raises(PermissionError) as info:
        _study(fresh)
    assert "its directory is read-only" in _one_line(info, fresh)
    with StudyStore(stored, mode="r") as store:  # read in a read-only directory
        assert store.n_fits == n_fits
    monkeypatch.undo()
    with StudyStore(stored, mode="r") as store:
        assert store.n_fits == n_fits
        with pytest.raises(PermissionError, match="read-only"):
            store.remove(estimator="c0")


@pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() == 0,
    reason="root writes read-only files; POSIX permissions",
)
def test_read_only_permissions_for_real(stored):
    stored.chmod(0o444)
    try:
        with pytest.raises(PermissionError, match="read-only"):
            StudyStore(stored)
        assert StudyStore(stored, mode="r").n_fits == 20
    finally:
        stored.chmod(0o644)


def test_a_full_disk_keeps_the_fits_before(tmp_path):
    path = tmp_path / "study.db"
    store = StudyStore(path)
    _study(store)
    kept = store.n_fits
    pages = store._connection.execute("PRAGMA page_count").fetchone()[0]
    # SQLite's own limit on the file's size: the next pages are "disk full".
    store._connection.execute(f"PRAGMA max_page_count = {pages + 1}")
    estimators = {f"c{s}": RecordingCentroid(s) for s in np.linspace(0.1, 0.9, 8)}
    with pytest.raises(OSError) as info:
        compare_many_estimators(estimators, X, Y, random_state=0, store=store)
    assert info.value.errno == errno.ENOSPC
    assert "the disk is full; the fits stored before are kept" in _one_line(info, path)
    store.close()
    with StudyStore(path) as store:
        assert store.n_fits >= kept
        assert store._connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    # Space again: the same call resumes.
    result = compare_many_estimators(estimators, X, Y, random_state=0, store=path)
    assert result.scores.shape == (10, 8)


def _create_at_once(path, barrier, outcomes):
    try:
        store = StudyStore(path)
        barrier.wait()
        store._create_now()  # the first write of an accepted call
        store.close()
        outcomes.put("ok")
    except Exception as exc:  # reported to the test, which names it
        outcomes.put(repr(exc))


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="needs fork"
)
def test_processes_creating_one_new_store_at_once(tmp_path):
    """Four processes create one new store at the same instant, ten times:
    each opens it (none is refused as locked or as another application's
    file), and the file is one store."""
    context = multiprocessing.get_context("fork")
    for trial in range(10):
        path = tmp_path / f"study{trial}.db"
        barrier, outcomes = context.Barrier(4), context.Queue()
        processes = [
            context.Process(target=_create_at_once, args=(path, barrier, outcomes))
            for _ in range(4)
        ]
        for process in processes:
            process.start()
        results = [outcomes.get(timeout=120) for _ in processes]
        for process in processes:
            process.join()
        assert results == ["ok"] * 4
        with StudyStore(path, mode="r") as store:
            assert store.n_fits == 0
            assert store._connection.execute("PRAGMA journal_mode").fetchone() == (
                "wal",
            )


def test_two_processes_write_one_store_at_once(tmp_path):
    """The same study run twice at once: both finish, each fit is stored
    once, both give the one-go numbers."""
    paths = [str(HERE), str(Path(sklearn_bcv.__file__).parents[1])]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths), PYTHONWARNINGS="ignore")
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                str(HERE / "_store_study.py"),
                str(tmp_path / "study.db"),
                str(tmp_path / "fits.log"),
                "0.0",
                "1",
                str(tmp_path / f"out{n}.json"),
            ],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(2)
    ]
    for process in processes:
        _, stderr = process.communicate(timeout=120)
        assert process.returncode == 0, stderr
    expected = json.loads(
        json.dumps(_store_study.numbers(_store_study.run(None, None, 0.0, 1)))
    )
    for n in range(2):
        assert json.loads((tmp_path / f"out{n}.json").read_text()) == expected
    with StudyStore(tmp_path / "study.db") as store:
        assert store.n_fits == _store_study.N_FITS
        frame = store.fits()
    keys = ["dataset_fingerprint", "split_fingerprint", "estimator_fingerprint"]
    assert not frame.duplicated(keys).any()
