"""The Display objects (matplotlib plots) of the comparisons."""

from ._displays import (
    ContingencyTableDisplay,
    PosteriorDisplay,
    ScoreDifferencesDisplay,
)

__all__ = [
    "ContingencyTableDisplay",
    "PosteriorDisplay",
    "ScoreDifferencesDisplay",
]
