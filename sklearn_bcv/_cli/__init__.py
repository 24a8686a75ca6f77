"""Command line interface: ``sklearn-bcv`` and ``python -m sklearn_bcv``."""

from ._main import (
    CLIError,
    Progress,
    _plot_title,  # noqa: F401 (the tests read the --plot title)
    build_parser,
    features_from_columns,
    main,
    read_csv,
    target_from_column,
)

__all__ = [
    "CLIError",
    "Progress",
    "build_parser",
    "features_from_columns",
    "main",
    "read_csv",
    "target_from_column",
]
