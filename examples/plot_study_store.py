"""
=============================================
Extend a finished study by one estimator
=============================================

A benchmark study is thousands of fits, and every reviewer asks for one more
baseline. With a study store (``store=``, a file), every fit is kept as it
finishes: rerunning the same call fits nothing, an interrupted one resumes
where it stopped, and adding an estimator fits that estimator only — the
tests across data sets and on each data set are then rebuilt from all the
fits, as if the study had been run in one go.
"""

# %%
# A finished study of five classifiers
# ------------------------------------
# Five classifiers on four data sets, each on the ten splits of a 5×2 BCV:
# 200 fits, kept in ``study.db``. Every estimator's randomness is seeded: a
# fit with ``random_state=None`` would be kept too, with a warning that a
# rerun would differ.
import os
import tempfile

from sklearn.datasets import load_breast_cancer, load_iris, load_wine, make_moons
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bcv import CriticalDifferenceDisplay, StudyStore, benchmark

datasets = {
    "iris": load_iris(return_X_y=True),
    "wine": load_wine(return_X_y=True),
    "cancer": load_breast_cancer(return_X_y=True),
    "moons": make_moons(n_samples=300, noise=0.3, random_state=0),
}
estimators = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression(random_state=0)),
    "bayes": GaussianNB(),
    "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
    "stump": DecisionTreeClassifier(max_depth=1, random_state=0),
    "majority": DummyClassifier(random_state=0),
}
path = os.path.join(tempfile.mkdtemp(), "study.db")
store = StudyStore(path)
study = benchmark(estimators, datasets, random_state=0, store=store)
print(store.last_call)
print(study.verdict.text)

# %%
# The same call again is a look-up
# ---------------------------------
# Nothing is fitted: the store holds all 200 fits. (After a Ctrl-C, a crash
# or ``kill -9``, the same call would fit only the fits the store lacks.)
again = benchmark(estimators, datasets, random_state=0, store=store)
print(store.last_call)
print((again.split_scores == study.split_scores).all())

# %%
# One more baseline: only its fits
# --------------------------------
# A nearest-neighbour classifier joins the study: its 40 fits run, the 200
# others are read from the store, and every test — Friedman's test and the
# post hoc tests across data sets, the tests of each data set in
# ``per_dataset`` — is computed on all six.
estimators["knn"] = make_pipeline(StandardScaler(), KNeighborsClassifier())
extended = benchmark(estimators, datasets, random_state=0, store=store)
print(store.last_call)
print(extended)

# %%
# What the store holds
# --------------------
# One row per fit (pandas is needed for :meth:`~sklearn_bcv.StudyStore.fits`);
# the estimators with their parameters, the data sets with their
# fingerprints. ``store.remove(estimator="knn")`` would take the baseline out
# again.
fits = store.fits()
print(fits.groupby("estimator").size())
print([(e.name, e.params.get("max_depth")) for e in store.estimators])
store.close()

# %%
# The critical-difference diagram of the extended study
# -----------------------------------------------------
CriticalDifferenceDisplay.from_result(extended)
