"""``--store FILE`` on compare, many and benchmark; ``benchmark --datasets
PATH.csv:TARGET``; Ctrl-C of a command with a store, and its rerun."""

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine, make_classification
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import sklearn_bcv
from sklearn_bcv import StudyStore, benchmark
from sklearn_bcv._cli import main

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from _store_study import RecordingCentroid  # noqa: E402

ESTIMATORS = [
    "--estimator",
    "nb=sklearn.naive_bayes.GaussianNB",
    "--estimator",
    "stump=sklearn.tree.DecisionTreeClassifier",
    "--params",
    'stump={"max_depth": 1, "random_state": 0}',
]


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def _write_csv(path, X, y):
    header = [f"x{j}" for j in range(X.shape[1])] + ["label"]
    rows = [",".join(repr(float(v)) for v in row) + f",{t}" for row, t in zip(X, y)]
    path.write_text(",".join(header) + "\n" + "\n".join(rows) + "\n")


@pytest.fixture
def csv_file(tmp_path):
    X, y = make_classification(n_samples=80, n_features=4, random_state=0)
    path = tmp_path / "mine.csv"
    _write_csv(path, X, np.where(y == 1, "yes", "no"))
    return path, X, np.where(y == 1, "yes", "no")


def test_benchmark_store_rerun_fits_nothing_and_gives_the_same_output(
    tmp_path, csv_file
):
    store = tmp_path / "study.db"
    argv = ["benchmark", "--datasets", "iris", f"{csv_file[0]}:label", "--format",
            "json", "--store", str(store), *ESTIMATORS]  # fmt: skip
    status, first, err = run_cli(*argv)
    assert status == 0, err
    assert f"study store {store}: 0 fits found, 40 fitted and kept" in err
    status, again, err = run_cli(*argv)
    assert status == 0, err
    assert f"study store {store}: 40 fits found, 0 fitted and kept" in err
    first, again = json.loads(first), json.loads(again)
    first.pop("fit_time"), again.pop("fit_time")
    first.pop("score_time"), again.pop("score_time")
    # Without --random-state the first command drew its seed and the store
    # kept it; the rerun took it from the store (and says so).
    seed = first["random_state"]
    assert first["provenance"].pop("random_state_origin") == "drawn"
    assert again["provenance"].pop("random_state_origin") == (
        "recorded in the study store study.db"
    )
    assert first == again
    # The CSV file is a data set like any other: the library gives the same.
    X, y = csv_file[1], csv_file[2]
    library = benchmark(
        {
            "nb": GaussianNB(),
            "stump": DecisionTreeClassifier(max_depth=1, random_state=0),
        },
        {"iris": load_iris(return_X_y=True), f"{csv_file[0]}:label": (X, y)},
        random_state=seed,
    )
    assert first["split_scores"] == library.split_scores.tolist()


def test_compare_and_many_store(tmp_path):
    store = tmp_path / "study.db"
    for argv, n_fits in (
        (["compare", "--dataset", "iris"], 20),
        (["many", "--dataset", "iris", *ESTIMATORS], 20),
    ):
        status, out, err = run_cli(*argv, "--store", str(store))
        assert status == 0, err
        status, again, err = run_cli(*argv, "--store", str(store))
        assert status == 0, err
        assert f"{n_fits} fits found, 0 fitted and kept" in err
        assert again == out
    with StudyStore(store) as opened:
        assert opened.n_fits == 40


def test_store_errors_are_one_line(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a study\n")
    status, _, err = run_cli("many", "--store", str(bad), *ESTIMATORS)
    assert status == 1
    assert err.strip().splitlines()[-1] == (
        f"error: --store: {bad} is not a sklearn_bcv study store (not an SQLite "
        "database)."
    )
    assert bad.read_text() == "not a study\n"
    status, _, err = run_cli("compare", "--store", str(tmp_path))
    assert status == 2
    assert "is a directory; give the name of a file" in err


def test_benchmark_csv_datasets_checked_before_fitting(tmp_path, csv_file):
    path = csv_file[0]
    status, _, err = run_cli("benchmark", "--datasets", "iris", str(path))
    assert status == 2
    assert f"{path} needs the name of its target column: {path}:TARGET" in err
    status, _, err = run_cli("benchmark", "--datasets", "iris", f"{path}:nope")
    assert status == 1
    assert f"error: --datasets {path}:nope: no column 'nope' in {path}" in err
    text = tmp_path / "text.csv"
    text.write_text("colour,size,label\nred,1,a\nblue,2,b\nred,3,a\nblue,4,b\n")
    status, _, err = run_cli("benchmark", "--datasets", "iris", f"{text}:nope")
    assert status == 1
    assert f"error: --datasets {text}:nope: no column 'nope' in {text}" in err
    missing = tmp_path / "absent.csv"
    status, _, err = run_cli("benchmark", "--datasets", "iris", f"{missing}:label")
    assert status == 1
    assert f"--datasets {missing}:label:" in err


def _children(pid):
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid):
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(
    sys.platform == "win32" or not Path("/proc").is_dir(),
    reason="POSIX signals and /proc",
)
def test_ctrl_c_of_a_command_then_the_same_command_resumes(tmp_path):
    log, store = tmp_path / "fits.log", tmp_path / "study.db"
    params = json.dumps({"log": str(log), "delay": 0.02})
    shrunk = json.dumps({"log": str(log), "delay": 0.02, "shrink": 0.5})
    argv = [
        sys.executable, "-m", "sklearn_bcv", "benchmark", "--datasets", "iris",
        "wine", "moons", "--estimator", "a=_store_study.RecordingCentroid",
        "--estimator", "b=_store_study.RecordingCentroid", "--params",
        f"a={params}", "--params", f"b={shrunk}",
        "--n-jobs", "2", "--store", str(store), "--format", "json",
    ]  # fmt: skip
    paths = [str(HERE), str(Path(sklearn_bcv.__file__).parents[1])]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths), PYTHONWARNINGS="ignore")
    process = subprocess.Popen(
        argv,
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if store.exists():
                try:
                    if StudyStore(store, mode="r").n_fits >= 10:
                        break
                except (OSError, ValueError):
                    pass
            assert process.poll() is None, process.stderr.read()
            time.sleep(0.02)
        workers = _children(process.pid)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        process.wait(timeout=30)
    assert process.returncode == 130
    assert out == ""
    kept = StudyStore(store, mode="r").n_fits
    assert 10 <= kept < 60
    assert err.strip().splitlines()[-1] == (
        f"error: interrupted; {kept} of the 60 fits of this study are kept in "
        f"{store} ({kept} new): rerun the same call or command to resume (it "
        f"fits the {60 - kept} others)"
    )
    assert "Traceback" not in err
    before = len(log.read_text().splitlines())
    resumed = subprocess.run(
        argv, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert len(log.read_text().splitlines()) - before == 60 - kept
    assert f"{kept} fits found, {60 - kept} fitted and kept" in resumed.stderr
    # The interrupted command drew its seed and the store kept it with its
    # first fit: the rerun, without --random-state, took it from there.
    document = json.loads(resumed.stdout)
    seed = document["random_state"]
    assert StudyStore(store, mode="r").random_state == seed
    assert f"random state {seed}: the study store's" in resumed.stderr
    # The numbers of one uninterrupted run.
    from sklearn_bcv._cli._benchmark import load_dataset, parse_dataset

    moons = load_dataset(parse_dataset("moons"))[:2]
    plain = benchmark(
        {"a": RecordingCentroid(0.0), "b": RecordingCentroid(0.5)},
        {
            "iris": load_iris(return_X_y=True),
            "wine": load_wine(return_X_y=True),
            "moons": moons,
        },
        random_state=seed,
    )
    assert document["split_scores"] == plain.split_scores.tolist()
    assert document["verdict"]["text"] == plain.verdict.text
