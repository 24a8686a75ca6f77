"""``--report FILE``: the report of the result, its format read off the
file's suffix, checked before any fit and written atomically;
``--report-figures DIR``: the figures of a LaTeX report, as PDF files.

Every subcommand has the option (:func:`add_report_option`, called by
:func:`~._args.add_output_arguments`); :func:`~._main.main` checks the path
(:func:`check_report_path`) before the subcommand runs and writes the
report of the result it returns (:func:`write_report`).
"""

import os
import tempfile
from pathlib import Path

from .._checks import check_creatable
from ._errors import CLIError, UsageError
from ._files import checked_path

__all__ = [
    "REPORT_SUFFIXES",
    "add_report_option",
    "check_report_figures",
    "check_report_layout",
    "check_report_path",
    "write_report",
]

#: The suffix of the ``--report`` file -> the format of
#: :meth:`~sklearn_bcv.BenchmarkResult.report`.
REPORT_SUFFIXES = {
    ".txt": "text",
    ".md": "markdown",
    ".tex": "latex",
    ".html": "html",
}


def add_report_option(parser):
    """Add ``--report FILE`` and ``--report-figures DIR`` to ``parser`` (a
    parser or an argument group)."""
    parser.add_argument(
        "--report",
        metavar="FILE",
        default=None,
        help="also write a report (its methods, the tests and why, the "
        "verdicts in sentences, effect sizes, every table, the references) "
        "in the format of the suffix: .txt, .md (markdown), .tex (a LaTeX "
        "fragment to \\input; booktabs and graphicx) or .html (one "
        "self-contained page, figures inline when matplotlib is installed); "
        "checked before any fit, written atomically",
    )
    parser.add_argument(
        "--report-figures",
        metavar="DIR",
        default=None,
        help="with --report FILE.tex: write the report's figures as PDF files "
        "in DIR (created if missing; relative to the report's file, as the "
        "document that inputs it reaches them: letters, digits, '.', '_', '-' "
        "and '/'), which the report includes",
    )
    parser.add_argument(
        "--report-layout",
        choices=("onecolumn", "twocolumn"),
        default=None,
        help="with --report FILE.tex: the article it is set for (10 pt): "
        "tables and figures fit its line at print size, none of their text "
        "below 7 pt; in two columns a table or figure too wide for a column "
        "spans the page (default: onecolumn)",
    )


def check_report_path(text):
    """The file ``--report`` writes and its format, checked before fitting.

    Parameters
    ----------
    text : str or path-like
        The value of ``--report``.

    Returns
    -------
    path : pathlib.Path
        The file to write.
    format : str
        ``"text"``, ``"markdown"``, ``"latex"`` or ``"html"``.

    Raises
    ------
    UsageError
        If the path cannot be used as given: a NUL byte or a control
        character in it, an unknown suffix, a directory, a missing
        directory, one in which no file can be created (tried for real, by
        creating and removing a temporary file), an existing path that is
        not a regular file.
    """
    text = os.fsdecode(os.fspath(text))
    if not text.strip():
        raise UsageError("--report: give a file name such as report.html")
    text = checked_path(text, "--report")
    separators = tuple(sep for sep in (os.sep, os.altsep, "/") if sep)
    path = Path(text)
    try:
        if text.endswith(separators) or path.is_dir():
            raise UsageError(
                f"--report: {text} is a directory; give a file name, such as "
                f"{path / 'report.html'}"
            )
        suffix = path.suffix.lower()
        if suffix not in REPORT_SUFFIXES:
            raise UsageError(
                f"--report: unknown report format {path.suffix or '(no suffix)'!r}; "
                f"use one of {', '.join(REPORT_SUFFIXES)}"
            )
        parent = path.parent
        if not parent.is_dir():
            raise UsageError(
                f"--report: no directory {str(parent)!r} to write {path.name} in"
            )
        if not path.is_symlink() and path.exists() and not path.is_file():
            raise UsageError(f"--report: {path} exists and is not a regular file")
        check_creatable(path)  # /proc, a read-only file system: tried for real
    except OSError as exc:  # a name too long, a loop of links, ...
        reason = exc.strerror if exc.strerror and exc.filename else exc
        raise UsageError(f"--report: cannot use {text}: {reason}") from None
    return path, REPORT_SUFFIXES[suffix]


def check_report_figures(text, format, report=None):
    """The directory of ``--report-figures`` (None without it), checked
    before any fit: for a LaTeX report only, a path LaTeX reads back,
    relative to the folder of ``report`` (the report's file) when given,
    where files can be created (tried for real, in the directory or, when
    it is still to be made, in the nearest existing one above it: ``/proc``
    or a read-only file system fail here, not after the fits)."""
    if text is None:
        return None
    if format != "latex":
        raise UsageError(
            "--report-figures writes the figures of a LaTeX report: give it with "
            "--report FILE.tex (an HTML report embeds its figures)"
        )
    from .._results._figures import check_figures_directory

    text = checked_path(text, "--report-figures")
    try:
        directory = check_figures_directory(text)
    except ValueError as exc:
        raise UsageError(f"--report-figures: {exc}") from None
    where = directory
    if report is not None and not directory.is_absolute():
        where = Path(report).parent / directory
    if where.exists() and not where.is_dir():
        raise UsageError(f"--report-figures: {where} exists and is not a directory")
    existing = where
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    try:
        if not existing.is_dir():
            raise UsageError(
                f"--report-figures: cannot create {text}: {existing} is not a directory"
            )
        check_creatable(existing / "figure.pdf")
    except OSError as exc:
        reason = exc.strerror if exc.strerror and exc.filename else exc
        raise UsageError(
            f"--report-figures: cannot write in {text}: {reason}"
        ) from None
    return directory


def check_report_layout(layout, format):
    """``--report-layout`` (None without it), checked before any fit: for a
    LaTeX report only."""
    if layout is None:
        return None
    if format != "latex":
        raise UsageError(
            "--report-layout sets a LaTeX report for its article: give it with "
            "--report FILE.tex"
        )
    return layout


def write_report(
    result,
    path,
    *,
    format=None,
    quiet=False,
    stderr=None,
    figures=None,
    layout=None,
):
    """Write the report of ``result`` to ``path``, atomically.

    The report goes to a temporary file in the same directory, which then
    replaces ``path`` (:func:`os.replace`): a reader never sees half a
    report, and a symbolic link at ``path`` is replaced, not followed.

    Parameters
    ----------
    result : ComparisonResult, ManyComparisonResult, BenchmarkResult or SequentialResult
        What :meth:`report` is called on.
    path : str or path-like
        The file, as :func:`check_report_path` returned it.
    format : str, default=None
        The report format; None reads it off the suffix.
    quiet : bool, default=False
        Say nothing on ``stderr``.
    stderr : file-like, default=None
        Where "report written to PATH" goes.
    figures : pathlib.Path, default=None
        The directory of the figures of a LaTeX report
        (:func:`check_report_figures`), relative to the report's file (or
        absolute).
    layout : {"onecolumn", "twocolumn"}, default=None
        The article a LaTeX report is set for (None: one column).
    """
    from .._results._report import render_report

    path = Path(path)
    if format is None:
        format = REPORT_SUFFIXES.get(path.suffix.lower(), "text")
    options = {} if layout is None else {"layout": layout}
    try:
        if figures is None:
            text = result.report(format, **options)
        else:  # the directory beside the report's file
            text = render_report(
                result, format, figures=figures, relative_to=path.parent, **options
            )
    except OSError as exc:  # the directory of figures cannot be written
        raise CLIError(
            f"--report-figures: cannot write {figures}: "
            f"{exc.strerror or type(exc).__name__}"
        ) from None
    temporary = None
    try:
        fd, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or "."
        )
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        os.chmod(temporary, 0o644 & ~_umask())
        os.replace(temporary, path)
    except OSError as exc:  # named after the report, never its temporary file
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
        raise CLIError(
            f"--report: cannot write {path}: {exc.strerror or type(exc).__name__}"
        ) from None
    if not quiet and stderr is not None:
        stderr.write(f"report written to {path}\n")
    return path


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask
