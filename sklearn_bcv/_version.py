"""The package's version, at the bottom of the layers so that every module
(the command line's ``--version`` included) can read it."""

__version__ = "0.1.0.dev0"
