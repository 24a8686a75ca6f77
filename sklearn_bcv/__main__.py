"""``python -m sklearn_bcv`` and the ``sklearn-bcv`` command."""

import sys


def main():
    """The ``sklearn-bcv`` process: :func:`sklearn_bcv._cli.main`, with
    Ctrl-C and SIGTERM handled from its start to the process's exit (it
    ends the process with the exit status rather than return it)."""
    from ._cli._main import run

    run()


if __name__ == "__main__":
    sys.exit(main())
