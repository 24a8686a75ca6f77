"""The HTML report: one page whose inline figures share no element id and
whose figure text is text (searchable, selectable), the same bytes every
time."""

import re
from collections import Counter

import numpy as np
import pytest

from sklearn_bcv import compare_scores

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def page():
    rng = np.random.default_rng(3)
    split = np.clip(
        rng.normal(0.8, 0.04, (6, 10, 4)) + np.linspace(-0.03, 0.03, 4), 0, 1
    )
    result = compare_scores(
        split,
        names=["logistic regression", "random forest", "k-NN", "naive Bayes"],
        n_train=100,
        n_test=100,
        pairwise_tests=["wilcoxon", "poisson_binomial", "bayesian_signed_rank"],
        rope=0.01,
        random_state=0,
    )
    return result, result.report("html")


def test_element_ids_are_unique_across_the_inline_figures(page):
    _, html = page
    assert html.count("<svg") >= 3
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert ids
    repeated = [name for name, n in Counter(ids).items() if n > 1]
    assert repeated == []
    # Every reference points to an id of the page (of its own figure).
    for target in re.findall(r'(?:url\(#|href="#)([^")]+)', html):
        assert target in ids, target


def test_figure_text_is_text(page):
    result, html = page
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    texts = " ".join(
        re.sub(r"<[^>]+>", "", t)
        for svg in svgs
        for t in re.findall(r"<text.*?</text>", svg, re.S)
    )
    for name in result.names:  # the estimators' names, searchable
        assert name in texts, name
    # No glyph outlines stand for the text (matplotlib's svg.fonttype="path").
    assert "DejaVuSans-" not in html and "STIXGeneral-" not in html


def test_the_same_result_gives_the_same_bytes(page):
    result, html = page
    assert result.report("html") == html
