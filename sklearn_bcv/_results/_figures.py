"""The figures of reports: Displays drawn as SVG (HTML) or PDF files (LaTeX).

A figure block names the Display it wants (:class:`~._blocks.Figure`). The
Displays sit above the results in the layers: :mod:`sklearn_bcv._plot`
hands them over when imported (as ``import sklearn_bcv`` does) through
:func:`register_displays`. :class:`FigureMaker` draws the figures of one
report, the same bytes for the same figure every time: the SVG and the PDF
carry no date and no random id.
"""

import contextlib
import io
import os
import re
import tempfile
import warnings
from pathlib import Path

from .._checks import check_path
from ._text import escape_controls

__all__ = [
    "FigureMaker",
    "check_figures_directory",
    "figure_file_name",
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


def svg_text(fig, id_prefix=""):
    """The SVG of a matplotlib figure, from ``<svg`` on, the same bytes for
    the same figure every time (no date in its metadata, element ids from
    a fixed salt), with the control characters of its texts (a name's
    newline or ESC, which XML cannot hold) written as escapes. Its texts
    are SVG text (searchable, selectable), not paths; ``id_prefix`` starts
    every element id (and every reference to one), so several figures in
    one page never share an id."""
    import matplotlib

    buffer = io.StringIO()
    rc = {"svg.hashsalt": _SVG_SALT, "svg.fonttype": "none"}
    with matplotlib.rc_context(rc):
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    lines = buffer.getvalue().split("\n")
    svg = "\n".join(escape_controls(line, markup=True) for line in lines)
    svg = svg[svg.find("<svg") :]
    return _prefix_ids(svg, id_prefix) if id_prefix else svg


#: An element id of an SVG and the references to one.
_SVG_ID = re.compile(r'(\bid="|url\(#|href="#)([^"()]+)')


def _prefix_ids(svg, prefix):
    """``svg`` with ``prefix`` before every id and every reference to it."""
    return _SVG_ID.sub(lambda m: f"{m.group(1)}{prefix}{m.group(2)}", svg)


#: The sizes of a figure's text at print size, in points: its smallest
#: (tick labels, legends, matplotlib's "small" of 9 pt: 7.5 pt) at least
#: 7 pt.
PRINT_RC = {
    # STIX, a Times of matplotlib's own: narrower than DejaVu Sans (a cell of
    # a matrix holds "0.966" at 7.5 pt) and at home beside a paper's serif
    # text; DejaVu Sans draws what STIX lacks.
    "font.family": ["STIXGeneral", "DejaVu Sans"],
    "mathtext.fontset": "stix",
    "font.size": 9.0,
    "axes.titlesize": 9.0,
    "axes.labelsize": 9.0,
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.0,
    "legend.fontsize": 8.0,
    "figure.titlesize": 9.0,
}

#: TeX points per inch.
POINTS_PER_INCH = 72.27


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
            pad_inches=_PAD_INCHES,
            metadata={"CreationDate": None, "ModDate": None},
        )
    return buffer.getvalue()


#: The margin of a figure's tight bounding box, in inches.
_PAD_INCHES = 0.03


def _tight_width(fig):
    """The width of ``fig`` as saved with ``bbox_inches="tight"``, inches."""
    fig.draw_without_rendering()
    return fig.get_tightbbox().width + 2 * _PAD_INCHES


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


#: How a character of a LaTeX label (letters, digits, ``:``, ``.``, ``_``,
#: ``-``) is written in a figure's file name, by :func:`figure_file_name`.
_FILE_CODES = {":": "_c", ".": "_d", "_": "__"}


def figure_file_name(label):
    """The PDF file of the figure labelled ``label``: a one-to-one spelling
    of the label in lowercase letters, digits, ``-`` and ``_`` (``:`` as
    ``_c``, ``.`` as ``_d``, ``_`` as ``__``, an uppercase letter as ``_u``
    and the letter), so two labels never share a file -- not even on a
    file system that ignores case -- and reports with two label prefixes
    written into one directory keep each its own figures.

    Examples
    --------
    >>> from sklearn_bcv._results._figures import figure_file_name
    >>> [figure_file_name(f"{p}fig-cd") for p in ("s1:", "s1.", "S1:", "s1-")]
    ['s1_cfig-cd.pdf', 's1_dfig-cd.pdf', '_us1_cfig-cd.pdf', 's1-fig-cd.pdf']
    """
    parts = []
    for char in str(label):
        if char in _FILE_CODES:
            parts.append(_FILE_CODES[char])
        elif char.isascii() and char.isupper():
            parts.append("_u" + char.lower())
        elif char.isascii() and (char.isalnum() or char == "-"):
            parts.append(char)
        else:  # not in a label (check_label_prefix); its code point, still 1:1
            parts.append(f"_x{ord(char):06x}")
    return "".join(parts) + ".pdf"


def replace_file(path, data):
    """Write ``data`` (bytes) as the file ``path``: into a new temporary
    file in its directory, then renamed over ``path`` (:func:`os.replace`),
    so a symbolic link at ``path`` is replaced, never written through, and
    a reader never sees half a file."""
    path = Path(path)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's file is 0600
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return path


class FigureMaker:
    """Draws the figures of one report.

    Parameters
    ----------
    directory : pathlib.Path, default=None
        Where :meth:`pdf` writes its files (created if missing).
    reference : str, default=None
        The directory as the LaTeX document reaches it (what
        ``\\includegraphics`` is given): relative to the report's file; None
        is ``directory`` itself.

    Attributes
    ----------
    n_drawn : int
        The figures drawn so far.
    """

    #: What a report says when matplotlib is missing.
    NO_MATPLOTLIB = (
        "Figures are left out: they need matplotlib (pip install matplotlib)."
    )

    def __init__(self, directory=None, reference=None):
        self.directory = directory
        self.reference = (
            None
            if directory is None
            else Path(directory).as_posix()
            if reference is None
            else str(reference)
        )
        self.n_drawn = 0

    @staticmethod
    def available():
        """Whether matplotlib can be imported."""
        try:
            from matplotlib.figure import Figure  # noqa: F401
        except ImportError:
            return False
        return True

    def _draw(self, block, size=None, target=None):
        """``(matplotlib figure, None)``, or ``(None, why it was not
        drawn)``: a figure never stops a report (the names on it are made
        drawable by the Displays, ``sklearn_bcv._plot._labels``; whatever
        still fails leaves the figure out, said in the report). Drawn at
        print size (:data:`PRINT_RC`; a display that takes a ``fontsize``
        gets 9 pt)."""
        import inspect

        import matplotlib
        from matplotlib.figure import Figure as MatplotlibFigure

        panels = getattr(block, "panels", None) or [(block.display, block.params)]
        if size is None:  # its own size; a grid of panels as tall as its rows
            width = block.size[0]
            size = (width, block.height_at(width)) if len(panels) > 1 else block.size
        # Panels side by side need a layout engine to keep their titles and
        # labels apart; one display on its own axes lays itself out.
        fig = MatplotlibFigure(
            figsize=size, layout="constrained" if len(panels) > 1 else None
        )
        n_columns = 1
        if len(panels) > 1:
            width = size[0] if target is None else target
            n_columns = max(1, min(len(panels), int(block.columns(width))))
        n_rows = -(-len(panels) // n_columns)
        with warnings.catch_warnings(), matplotlib.rc_context(PRINT_RC):
            # A name in a script the font lacks is drawn as a box; saying so
            # each time a report is written helps no one.
            warnings.filterwarnings("ignore", "Glyph .* missing from", UserWarning)
            for i, (name, params) in enumerate(panels):
                display = _DISPLAYS.get(name)
                if display is None:  # pragma: no cover - sklearn_bcv imports them
                    return None, f"{name} not loaded"
                params = dict(params)
                if len(panels) > 1 and i % n_columns == 0:
                    params.update(block.first_column)
                plot = getattr(display, "plot", None)
                if (
                    plot is not None
                    and "fontsize" in inspect.signature(plot).parameters
                ):
                    params.setdefault("fontsize", PRINT_RC["font.size"])
                ax = fig.add_subplot(n_rows, n_columns, i + 1)
                try:
                    display.from_result(block.source, ax=ax, **params)
                except Exception as exc:  # a figure never stops the report
                    return None, _why(exc)
        return fig, None

    def _draw_for_width(self, block, width):
        """The figure drawn so that, saved tight, it is ``width`` inches
        wide (its text at print size): the figure's width is corrected
        until its tight box is within 1 % of it (or no better can be
        done: text wider than the page, then shrunk by LaTeX)."""
        figure_width = width
        for _ in range(4):
            size = (figure_width, block.height_at(width))
            fig, why = self._draw(block, size, target=width)
            if fig is None:
                return None, why
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "Glyph .* missing from", UserWarning)
                try:
                    actual = _tight_width(fig)
                except Exception as exc:  # a figure never stops the report
                    return None, _why(exc)
            if 0.97 * width <= actual <= width:  # never wider than it is set
                break
            # The tight box grows about as the figure does: one step, aimed
            # a little inside the width.
            figure_width = max(
                figure_width + (0.99 * width - actual), 0.5 * figure_width
            )
        return fig, None

    def _saved(self, block, save, width=None):
        """``(save(figure), None)`` or ``(None, why not drawn)``: drawing
        (for ``width`` inches when given) and saving (where matplotlib lays
        the text out) never stop the report."""
        if width is None:
            fig, why = self._draw(block)
        else:
            fig, why = self._draw_for_width(block, width)
        if fig is None:
            return None, why
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Glyph .* missing from", UserWarning)
            try:
                return save(fig), None
            except Exception as exc:  # a figure never stops the report
                return None, _why(exc)

    def svg(self, block):
        """``(svg text, None)`` or ``(None, why not drawn)``: its element
        ids start with ``f<n>-`` (the n-th figure of the page)."""
        prefix = f"f{self.n_drawn + 1}-"
        text, why = self._saved(block, lambda fig: svg_text(fig, id_prefix=prefix))
        if text is not None:
            self.n_drawn += 1
        return text, why

    def pdf(self, block, name, width_pt=None):
        """``(path as LaTeX reaches it, None)`` or ``(None, why not
        drawn)``: the PDF of ``block`` in :attr:`directory`, named
        ``name``, drawn ``width_pt`` points wide (None: its own size),
        written as a new file renamed over it (:func:`replace_file`: a
        link named like it is replaced, never written through). An error
        writing it (a read-only directory) is raised: every figure would
        fail alike."""
        width = None if width_pt is None else width_pt / POINTS_PER_INCH
        data, why = self._saved(block, pdf_bytes, width)
        if data is None:
            return None, why
        self.directory.mkdir(parents=True, exist_ok=True)
        replace_file(self.directory / name, data)
        self.n_drawn += 1
        return f"{self.reference}/{name}", None


def _why(exc):
    """Why a figure was not drawn, in a few words on one line (a message
    may quote the user's text, or run over pages)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if len(text) > 200:
        text = text[:199] + "\u2026"
    return text
