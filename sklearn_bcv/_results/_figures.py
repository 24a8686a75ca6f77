"""The figures of reports: Displays drawn as SVG (HTML) or PDF files (LaTeX).

A figure block names the Display it wants (:class:`~._blocks.Figure`). The
Displays sit above the results in the layers: :mod:`sklearn_bcv._plot`
hands them over when imported (as ``import sklearn_bcv`` does) through
:func:`register_displays`. :class:`FigureMaker` draws the figures of one
report, the same bytes for the same figure every time: the SVG and the PDF
carry no date and no random id.
"""

import io
import re
import warnings
from pathlib import Path

from .._checks import check_path
from ._text import escape_controls

__all__ = [
    "FigureMaker",
    "check_figures_directory",
    "file_stem",
    "pdf_bytes",
    "register_displays",
    "svg_text",
]

#: Display name -> Display class, from :func:`register_displays`.
_DISPLAYS = {}


def register_displays(*displays):
    """Make Display classes available to the figures of reports, by their
    class name (see :class:`~._blocks.Figure`)."""
    for display in displays:
        _DISPLAYS[display.__name__] = display
    return displays


#: What makes matplotlib's SVG the same bytes for the same figure: its
#: element ids are hashes salted with this (not with a random number) and
#: it writes no date.
_SVG_SALT = "sklearn-bcv"


def svg_text(fig):
    """The SVG of a matplotlib figure, from ``<svg`` on, the same bytes for
    the same figure every time (no date in its metadata, element ids from
    a fixed salt), with the control characters of its texts (a name's
    newline or ESC, which XML cannot hold) written as escapes."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": _SVG_SALT}):
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    lines = buffer.getvalue().split("\n")
    svg = "\n".join(escape_controls(line, markup=True) for line in lines)
    return svg[svg.find("<svg") :]


def pdf_bytes(fig):
    """The PDF of a matplotlib figure, the same bytes for the same figure
    every time (no creation date), its fonts embedded as TrueType (Type 42)
    so the text stays text."""
    import matplotlib

    buffer = io.BytesIO()
    with matplotlib.rc_context({"pdf.fonttype": 42}):
        fig.savefig(
            buffer,
            format="pdf",
            bbox_inches="tight",
            metadata={"CreationDate": None, "ModDate": None},
        )
    return buffer.getvalue()


#: The characters a figure's path may hold in LaTeX's ``\\includegraphics``
#: (a space, ``%``, ``#``, ``~`` or ``\\`` would break it).
_SAFE_PATH = re.compile(r"[A-Za-z0-9._/\-]+")


def check_figures_directory(figures):
    """``figures`` of a LaTeX report: a directory path LaTeX can read back
    (letters, digits, ``.``, ``_``, ``-`` and ``/``), as a
    :class:`~pathlib.Path`."""
    text = check_path(figures, name="figures")
    posix = Path(text).as_posix()
    if not _SAFE_PATH.fullmatch(posix):
        raise ValueError(
            "figures must be a directory whose path LaTeX's \\includegraphics "
            "can read (letters, digits, '.', '_', '-' and '/'; give it relative "
            f"to the document); got {text!r}."
        )
    return Path(posix)


def file_stem(text):
    """``text`` as a file name's part (and a LaTeX label's): lowercase
    letters, digits and dashes."""
    stem = re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")
    return stem or "x"


class FigureMaker:
    """Draws the figures of one report.

    Parameters
    ----------
    directory : pathlib.Path, default=None
        Where :meth:`pdf` writes its files (created if missing).

    Attributes
    ----------
    n_drawn : int
        The figures drawn so far.
    """

    #: What a report says when matplotlib is missing.
    NO_MATPLOTLIB = (
        "Figures are left out: they need matplotlib (pip install matplotlib)."
    )

    def __init__(self, directory=None):
        self.directory = directory
        self.n_drawn = 0

    @staticmethod
    def available():
        """Whether matplotlib can be imported."""
        try:
            from matplotlib.figure import Figure  # noqa: F401
        except ImportError:
            return False
        return True

    def _draw(self, block):
        """``(matplotlib figure, None)``, or ``(None, why it was not
        drawn)``: a figure never stops a report."""
        from matplotlib.figure import Figure as MatplotlibFigure

        display = _DISPLAYS.get(block.display)
        if display is None:  # pragma: no cover - sklearn_bcv imports the plots
            return None, f"{block.display} not loaded"
        fig = MatplotlibFigure(figsize=block.size)
        with warnings.catch_warnings():
            # A name in a script the font lacks is drawn as a box; saying so
            # each time a report is written helps no one.
            warnings.filterwarnings("ignore", "Glyph .* missing from", UserWarning)
            try:
                display.from_result(block.source, ax=fig.add_subplot(), **block.params)
            except Exception as exc:  # a figure never stops the report
                return None, str(exc)
        return fig, None

    def svg(self, block):
        """``(svg text, None)`` or ``(None, why not drawn)``."""
        fig, why = self._draw(block)
        if fig is None:
            return None, why
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Glyph .* missing from", UserWarning)
            text = svg_text(fig)
        self.n_drawn += 1
        return text, None

    def pdf(self, block, name):
        """``(path written, None)`` or ``(None, why not drawn)``: the PDF of
        ``block`` in :attr:`directory`, named ``name``."""
        fig, why = self._draw(block)
        if fig is None:
            return None, why
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Glyph .* missing from", UserWarning)
            data = pdf_bytes(fig)
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / name
        path.write_bytes(data)
        self.n_drawn += 1
        return path, None
