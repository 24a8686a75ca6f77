"""The paper of a benchmark at print size: the smallest text and the pages.

The study of a researcher: 5 classifiers (logistic regression, RBF SVM,
random forest, k-NN, naive Bayes) on 8 data sets (iris, wine,
breast_cancer, digits and four generated ones: moons, circles,
classification, gaussian_quantiles, drawn as the command line draws
them), ``benchmark(..., random_state=0)`` with the Bayesian signed-rank
test (rope 0.01) beside the default pairwise tests. Its LaTeX report is
put in a one-column and a two-column ``article`` of 10 pt, compiled with
``pdflatex`` and measured in the PDF itself:

* the smallest text: every glyph's size as set on the page (its font size
  times the scaling of the text matrix and of every transformation above
  it: a ``\\resizebox``, an ``\\includegraphics`` scaled to the line), read
  with MuPDF's ``mutool trace``; the target is 7 pt or more;
* the pages of the one-column article (target: 6 or fewer);
* overfull boxes in the log.

It prints the methods paragraph of the report too. Run from the
repository root (about two minutes on two cores)::

    python benchmarks/report_print_size.py [--out DIR]
"""

import argparse
import inspect
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
from sklearn import datasets as skd
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sklearn_bcv import benchmark

#: How the command line draws its generated data sets (``_cli._benchmark``).
DATA_STREAM = 0xDA7A
GENERATED = {
    "moons": (skd.make_moons, {"n_samples": 300, "noise": 0.3}),
    "circles": (skd.make_circles, {"n_samples": 300, "noise": 0.2, "factor": 0.5}),
    "classification": (
        skd.make_classification,
        {"n_samples": 300, "n_features": 20, "n_informative": 5, "n_redundant": 2},
    ),
    "gaussian_quantiles": (
        skd.make_gaussian_quantiles,
        {"n_samples": 300, "n_features": 4, "n_classes": 3},
    ),
}


def study_datasets():
    data = {
        "iris": skd.load_iris(return_X_y=True),
        "wine": skd.load_wine(return_X_y=True),
        "breast_cancer": skd.load_breast_cancer(return_X_y=True),
        "digits": skd.load_digits(return_X_y=True),
    }
    for name, (function, params) in GENERATED.items():
        rng = np.random.RandomState([DATA_STREAM, 0])
        data[name] = function(**params, random_state=rng)
    return data


def study_estimators():
    return {
        "logistic regression": make_pipeline(
            StandardScaler(), LogisticRegression(max_iter=1000)
        ),
        "RBF SVM": make_pipeline(StandardScaler(), SVC()),
        "random forest": RandomForestClassifier(n_estimators=100, random_state=0),
        "k-NN": make_pipeline(StandardScaler(), KNeighborsClassifier()),
        "naive Bayes": GaussianNB(),
    }


def run_study(random_state=0):
    return benchmark(
        study_estimators(),
        study_datasets(),
        pairwise_tests=["wilcoxon", "poisson_binomial", "bayesian_signed_rank"],
        rope=0.01,
        random_state=random_state,
    )


#: Points (TeX's pt) per PostScript point (the PDF's unit).
PT_PER_BP = 72.27 / 72


def glyph_sizes(pdf):
    """``[(size in pt, text, page)]`` of every span of text in ``pdf``, its
    size as set on the page (``mutool trace``)."""
    trace = subprocess.run(
        ["mutool", "trace", str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    root = ET.fromstring(trace)
    out = []
    for page in root.iter("page"):
        number = int(page.get("number"))
        for node in page.iter():
            if node.tag not in ("fill_text", "stroke_text"):
                continue
            a, b, c, d, *_ = (float(v) for v in node.get("transform").split())
            scale = abs(a * d - b * c) ** 0.5
            for span in node.iter("span"):
                ta, tb, tc, td = (float(v) for v in span.get("trm").split())
                size = abs(ta * td - tb * tc) ** 0.5 * scale * PT_PER_BP
                text = "".join(g.get("unicode") or "" for g in span.iter("g"))
                if text.strip():
                    out.append((size, text, number))
    return out


def compile_report(folder, latex_by_layout):
    """Compile the report in each layout; ``{layout: measures}``."""
    measures = {}
    for layout, latex in latex_by_layout.items():
        stem = f"paper-{layout}"
        (folder / f"report-{layout}.tex").write_text(latex, encoding="utf-8")
        (folder / f"{stem}.tex").write_text(
            f"\\documentclass[{layout}]{{article}}\n\\usepackage{{booktabs}}\n"
            "\\usepackage{graphicx}\n\\begin{document}\n"
            f"\\input{{report-{layout}}}\n\\end{{document}}\n",
            encoding="utf-8",
        )
        for _ in range(2):  # the references of floats settle on the second run
            subprocess.run(
                ["pdflatex", "-interaction=nonstopmode", f"{stem}.tex"],
                cwd=folder,
                capture_output=True,
                timeout=300,
            )
        log = (folder / f"{stem}.log").read_text(errors="replace")
        pages = int(re.search(r"Output written on .*?\((\d+) page", log).group(1))
        overfull = re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide", log)
        sizes = glyph_sizes(folder / f"{stem}.pdf")
        small = sorted({(round(s, 2), t[:30], p) for s, t, p in sizes if s < 7.0})
        measures[layout] = {
            "pages": pages,
            "overfull": [float(w) for w in overfull],
            "smallest": min(s for s, _, _ in sizes),
            "below_7pt": small,
            "pdf": folder / f"{stem}.pdf",
        }
    return measures


def methods_paragraphs(result):
    text = result.report("text")
    start = text.index("Methods")
    end = text.find("\n\nTests and why", start)
    return text[start:end].strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="keep the files here")
    args = parser.parse_args()
    if shutil.which("pdflatex") is None or shutil.which("mutool") is None:
        raise SystemExit("needs pdflatex and mutool (MuPDF)")
    folder = args.out or Path(tempfile.mkdtemp(prefix="print-size-"))
    folder.mkdir(parents=True, exist_ok=True)
    result = run_study()
    layouts = ("onecolumn", "twocolumn")
    takes_layout = "layout" in inspect.signature(result.report).parameters
    latex = {}
    for layout in layouts:
        figures = f"figures-{layout}"
        if takes_layout:  # figures= relative to the report's file
            target = folder / f"report-{layout}.tex"
            result.report("latex", figures=figures, layout=layout, path=target)
            latex[layout] = target.read_text(encoding="utf-8")
        else:  # before: figures= relative to the working directory
            here = os.getcwd()
            os.chdir(folder)
            try:
                latex[layout] = result.report("latex", figures=figures)
            finally:
                os.chdir(here)
    measures = compile_report(folder, latex)
    print(f"files in {folder}")
    print(f"{'layout':<11} {'pages':>5} {'smallest text':>14}")
    for layout, m in measures.items():
        print(f"{layout:<11} {m['pages']:>5} {m['smallest']:>11.2f} pt")
    for layout, m in measures.items():
        print(f"\n{layout}: overfull boxes {m['overfull'] or 'none'}")
        print(f"{layout}: text below 7 pt ({len(m['below_7pt'])} spans):")
        for size, text, page in m["below_7pt"][:25]:
            print(f"  {size:5.2f} pt  page {page}: {text!r}")
    print("\nTargets: smallest text >= 7 pt in both layouts; <= 6 pages in one column.")
    print("\n" + methods_paragraphs(result))


if __name__ == "__main__":
    main()
