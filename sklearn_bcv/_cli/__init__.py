"""Command line interface: ``sklearn-bcv`` and ``python -m sklearn_bcv``.

One module per responsibility: :mod:`._main` (entry point, subcommands,
errors and exit statuses), :mod:`._args` (what subcommands share: errors,
argument types, option groups), :mod:`._data` (bundled data sets, CSV
files), :mod:`._estimators` (import paths, JSON parameters, defaults),
:mod:`._output` (progress, JSON/CSV values, figures), and one module per
subcommand (:mod:`._compare`, the default; :mod:`._many`; :mod:`._benchmark`).

Nothing the user types is evaluated as Python: estimators are named by import
path, imported from the installed environment only (never the current
directory) and checked to be scikit-learn estimator classes; parameters are
JSON. Files are read through one bounded reader (:func:`._data.open_bounded`)
and ``--plot`` paths resolved by one helper (:func:`._output.check_plot_path`).
"""

from ._args import CLIError, UsageError
from ._compare import _plot_title  # noqa: F401 (the tests read the --plot title)
from ._data import features_from_columns, read_csv, target_from_column
from ._main import SUBCOMMANDS, build_parser, main
from ._output import Progress

__all__ = [
    "CLIError",
    "Progress",
    "SUBCOMMANDS",
    "UsageError",
    "build_parser",
    "features_from_columns",
    "main",
    "read_csv",
    "target_from_column",
]
