"""
==============================
Run the fits on a dask cluster
==============================

:func:`~sklearn_bcv.compare_estimators` fits A and B on every split in one
joblib pool, so the fits run on whatever joblib backend is active. With
``dask.distributed`` installed (``pip install "sklearn_bcv[distributed]"``),
point a :class:`~dask.distributed.Client` at your scheduler and select the
``"dask"`` backend. Here a small local cluster on 127.0.0.1 stands in for a
real one.
"""

# %%
from dask.distributed import Client, LocalCluster
from joblib import parallel_config
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bcv import compare_estimators

X, y = load_breast_cancer(return_X_y=True)
logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
forest = RandomForestClassifier(n_estimators=30, random_state=0)

# Two single-threaded workers talking TCP on the loopback interface. (They
# run as threads of this process so the example also works where new
# processes cannot be spawned; a real cluster has its own machines.)
cluster = LocalCluster(
    n_workers=2,
    threads_per_worker=1,
    processes=False,
    host="127.0.0.1",
    protocol="tcp://",
    dashboard_address=None,
)
client = Client(cluster)
with parallel_config(backend="dask"):
    on_dask = compare_estimators(logreg, forest, X, y, n_jobs=-1, random_state=0)
client.close()
cluster.close()
print(on_dask)

# %%
# All randomness (the splits, the estimators' seeds) is drawn in the calling
# process, so the cluster gives exactly the result of a local run.
import numpy as np

local = compare_estimators(logreg, forest, X, y, n_jobs=1, random_state=0)
print("same differences:", np.array_equal(on_dask.differences, local.differences))
print(
    "same BCV McNemar p-value:",
    on_dask.tests.bcv_mcnemar.pvalue == local.tests.bcv_mcnemar.pvalue,
)
