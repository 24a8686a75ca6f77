"""The order of the gallery: first steps first, simulations last.

sphinx-gallery sorts the examples with :class:`ExampleOrder` (named in
``conf.py``); ``tests/test_docs.py`` checks that every example is listed,
so a new example is placed on purpose.
"""

#: The examples from a first comparison to the advanced tools.
ORDER = [
    # First steps: one data set, then many estimators, then many data sets.
    "plot_compare_two_classifiers.py",
    "plot_compare_many_classifiers.py",
    "plot_benchmark_many_datasets.py",
    "plot_compare_scores.py",
    # Reading and reporting the results.
    "plot_reading_the_plots.py",
    "plot_report.py",
    # Inside scikit-learn's model selection, and runs made elsewhere.
    "plot_bcv_in_model_selection.py",
    "plot_grid_search_comparison.py",
    "plot_compare_predictions.py",
    "plot_nested_cv_comparison.py",
    # Long and costly studies.
    "plot_sequential_comparison.py",
    "plot_study_store.py",
    "plot_dask_cluster.py",
    # How the tests behave: simulations.
    "plot_simulation_type1_error.py",
    "plot_simulation_power.py",
    "plot_seed002_power.py",
]


class ExampleOrder:
    """Sort key of sphinx-gallery: an example's place in :data:`ORDER`
    (any example not listed comes last, by name)."""

    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __call__(self, filename):
        name = filename.rsplit("/", 1)[-1]
        return (ORDER.index(name), name) if name in ORDER else (len(ORDER), name)

    def __repr__(self):
        return f"<{type(self).__name__}>"
