"""
=======================================
Nested comparison of two tuned models
=======================================

When A and B have hyper-parameters, the fair comparison is between the two
*tuning procedures*: each outer training set tunes A and B by an inner
cross-validation, and the tuned models are tested on the outer test set.
Passing two :class:`~sklearn.model_selection.GridSearchCV` objects to
:func:`~sklearn_bcv.compare_estimators` does exactly that, with a 5×2 BCV as
the outer loop. Tuning on the whole data set first and comparing afterwards
would leak the test records into the choice of hyper-parameters.
"""

# %%
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sklearn_bcv import compare_estimators

X, y = load_breast_cancer(return_X_y=True)
inner_cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)

tuned_logreg = GridSearchCV(
    make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    {"logisticregression__C": [0.1, 1.0, 10.0]},
    cv=inner_cv,
)
tuned_svc = GridSearchCV(
    make_pipeline(StandardScaler(), SVC()),
    {"svc__C": [0.5, 5.0], "svc__gamma": ["scale", 0.01]},
    cv=inner_cv,
)

# %%
# Ten outer fits of each search (each with its own inner CV). The outer
# splits are shared by A and B; ``return_estimator=True`` keeps the fitted
# searches so we can look at the chosen hyper-parameters.
result = compare_estimators(
    tuned_logreg,
    tuned_svc,
    X,
    y,
    tests=["bcv_mcnemar", "calibrated_f_5x2bcv", "bayesian_correlated_t"],
    random_state=0,
    return_estimator=True,
)
print(result)

# %%
# The hyper-parameters chosen on each outer training set vary: that
# variability is part of what is being compared.
for split, (search_a, search_b) in enumerate(
    zip(result.estimators_a, result.estimators_b)
):
    print(split, search_a.best_params_, search_b.best_params_)
