"""
========================================================
Block-regularized CV in cross_validate and GridSearchCV
========================================================

The splitters are ordinary scikit-learn cross-validators: they plug into
:func:`~sklearn.model_selection.cross_validate`,
:class:`~sklearn.model_selection.GridSearchCV` and anything else that takes
``cv=``. A 5×2 BCV makes ten splits; every record is tested once per
repetition and, on 8k records, any two training sets of different
repetitions share exactly a quarter of the data.
"""

# %%
# The splits
# ----------
import numpy as np

from sklearn_bcv import BlockRegularized5x2CV

X_toy = np.arange(16).reshape(-1, 1)
cv = BlockRegularized5x2CV(random_state=0)
print(cv)
train_sets = [set(train) for train, _ in cv.split(X_toy)]
for i, (train, test) in enumerate(cv.split(X_toy)):
    print(f"split {i}: train {sorted(train)}, test {sorted(test)}")

# Training sets of different repetitions (splits 0 and 2, 0 and 4, ...)
# overlap in n/4 = 4 records.
print(
    "overlaps with split 0:",
    [len(train_sets[0] & train_sets[j]) for j in range(2, 10, 2)],
)

# %%
# In cross_validate
# -----------------
from sklearn.datasets import load_wine
from sklearn.model_selection import cross_validate
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X, y = load_wine(return_X_y=True)
knn = make_pipeline(StandardScaler(), KNeighborsClassifier())
scores = cross_validate(knn, X, y, cv=BlockRegularized5x2CV(random_state=0))
print("test accuracy per split:", scores["test_score"].round(3))
print(f"mean accuracy: {scores['test_score'].mean():.3f}")

# %%
# In GridSearchCV
# ---------------
# The stratified variant keeps the class proportions in every half.
from sklearn.model_selection import GridSearchCV

from sklearn_bcv import StratifiedBlockRegularized5x2CV

search = GridSearchCV(
    knn,
    {"kneighborsclassifier__n_neighbors": [1, 5, 15]},
    cv=StratifiedBlockRegularized5x2CV(random_state=0),
)
search.fit(X, y)
print("best parameters:", search.best_params_)
print("mean test score per candidate:", search.cv_results_["mean_test_score"].round(3))
