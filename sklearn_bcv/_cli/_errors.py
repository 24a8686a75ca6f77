"""The command line's errors, at the bottom of its modules (every module of
:mod:`sklearn_bcv._cli` may import them; they import none)."""

__all__ = ["CLIError", "UsageError"]


class CLIError(Exception):
    """An error reported to the user as one ``error: ...`` line (status 1)."""


class UsageError(CLIError):
    """A command line that does not make sense: status 2."""
