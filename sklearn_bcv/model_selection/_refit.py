"""A refit rule: the simplest candidate not shown worse than the best.

scikit-learn's searches take a callable ``refit`` that reads ``cv_results_``
and returns the index of the candidate to refit. scikit-learn's own example
of one, and the "one standard error" rule of tidymodels, keep the simplest
candidate within one standard deviation (or error) of the best's mean,
computed as though the splits were independent. :class:`SimplestNotWorse`
asks instead the design's test of "the best is better" — a variance that
knows the training sets overlap — and refits the simplest candidate it does
not reject (or, with a margin, the simplest shown non-inferior; with a rope,
the simplest the Bayesian correlated t puts within the rope).
"""

import math
import numbers

import numpy as np
from sklearn.utils import Bunch

from .._engine._cv_results import candidate_names, read_cv_results
from .._engine._needs import SCORE_NEEDS
from .._engine._plan import recommend
from .._engine._split_scores import ScoreStore, design_of_cv
from .._results._text import format_number
from .._split_scores import ROPE_TEST, compare_stored
from ..stats._registry import get_entry, keyword_names

__all__ = ["RefitResult", "SimplestNotWorse", "simplest_not_worse"]

_DIRECTIONS = ("smaller", "larger")


class RefitResult(Bunch):
    """What :class:`SimplestNotWorse` compared and chose, and why.

    A :class:`~sklearn.utils.Bunch`; printing it gives ``text``.

    Attributes
    ----------
    best_index, chosen_index : int
        ``cv_results_`` indices of the best candidate (rank 1) and of the
        one chosen.
    best_params, chosen_params : dict
    metric : str
    test : str
        The test that compared each candidate with the best.
    criterion : str
        ``"not worse"`` (the default), ``"non-inferior"`` (a margin) or
        ``"within rope"`` (a rope).
    alpha, margin, rope : float or None
    candidates : list of int
        The candidates compared, best first (rank order).
    qualifying : list of int
        Those that qualify, simplest first (the first is chosen).
    evidence : dict of int to float
        Candidate index -> its p-value against the best (default and
        margin rules) or its posterior probability of not being worse than
        the best by more than the rope (rope rule).
    comparison : ManyComparisonResult
        The comparison of every candidate with the best (with a margin, the
        candidates' scores are raised by it).
    text : str
        The choice, in sentences.
    """

    def __repr__(self):
        return self.text

    __str__ = __repr__


def _check_order_item(item):
    if isinstance(item, str) and item:
        return (item, "smaller")
    if (
        isinstance(item, tuple)
        and len(item) == 2
        and isinstance(item[0], str)
        and item[1] in _DIRECTIONS
    ):
        return item
    if callable(item):
        return item
    raise ValueError(
        "order must be a parameter name (smaller is simpler), a pair (name, "
        "'larger') or (name, 'smaller'), a key function of a candidate's params, "
        f"or a list of these; got {item!r}."
    )


def _check_order(order):
    items = order if isinstance(order, list) else [order]
    if not items:
        raise ValueError("order must name at least one criterion; got [].")
    return [_check_order_item(item) for item in items]


def _order_text(order):
    parts = []
    for item in order:
        if callable(item):
            parts.append(f"{getattr(item, '__name__', 'key')}(params) smaller")
        else:
            parts.append(f"{item[0]} {item[1]}")
    return ", then ".join(parts) + " is simpler"


class _Simpler:
    """A value of a parameter, compared as "simpler": numbers (booleans
    too) by value, None above every number (``max_depth=None`` is no
    limit), reversed when larger is simpler."""

    def __init__(self, value, larger, name):
        if isinstance(value, np.generic):
            value = value.item()
        if value is not None and not isinstance(value, numbers.Real):
            raise ValueError(
                f"order: parameter {name!r} has the value {value!r}, which has "
                "no order of simplicity; pass a key function of the params "
                "(e.g. lambda p: {'linear': 0, 'rbf': 1}[p['kernel']])."
            )
        self.key = math.inf if value is None else float(value)
        if larger:
            self.key = -self.key

    def __lt__(self, other):
        return self.key < other.key

    def __eq__(self, other):
        return self.key == other.key


def _simplicity(params, order, index):
    key = []
    for item in order:
        if callable(item):
            key.append(item(params))
            continue
        name, direction = item
        if name not in params:
            raise ValueError(
                f"order: candidate {index} ({params}) has no parameter {name!r}; "
                "pass a key function of the params to order candidates of "
                "different grids."
            )
        key.append(_Simpler(params[name], direction == "larger", name))
    return tuple(key)


def _check_number(value, name, *, low=0.0, closed=True):
    valid = (
        isinstance(value, numbers.Real)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and (value >= low if closed else value > low)
    )
    if not valid:
        bound = f">= {low}" if closed else f"> {low}"
        raise ValueError(f"{name} must be a finite number {bound}; got {value!r}.")
    return float(value)


class SimplestNotWorse:
    """The refit rule of :func:`simplest_not_worse` (see there).

    A callable ``cv_results -> index`` for ``refit=`` of
    :class:`~sklearn.model_selection.GridSearchCV` and
    :class:`~sklearn.model_selection.RandomizedSearchCV`; after the search,
    ``result_`` (a :class:`RefitResult`) says what it compared, chose and
    why.
    """

    def __init__(
        self, order, *, cv, test=None, alpha=0.05, margin=0.0, rope=None, metric=None
    ):
        self.order = order
        self.cv = cv
        self.test = test
        self.alpha = alpha
        self.margin = margin
        self.rope = rope
        self.metric = metric
        self._check()

    def __repr__(self):
        shown = ", ".join(
            f"{name}={getattr(self, name)!r}"
            for name in ("cv", "test", "alpha", "margin", "rope", "metric")
        )
        return f"simplest_not_worse({self.order!r}, {shown})"

    # ---- checks ---------------------------------------------------------

    def _check(self):
        self._order = _check_order(self.order)
        _check_number(self.alpha, "alpha", low=0.0, closed=False)
        if self.alpha >= 1:
            raise ValueError(f"alpha must be in (0, 1); got {self.alpha!r}.")
        _check_number(self.margin, "margin")
        if self.rope is not None:
            _check_number(self.rope, "rope")
            if self.margin:
                raise ValueError(
                    "give margin (a non-inferiority test) or rope (the Bayesian "
                    "rule), not both."
                )
        if self.metric is not None and not isinstance(self.metric, str):
            raise ValueError(f"metric must be a str or None; got {self.metric!r}.")
        if self.test is not None:
            self._check_test(self.test)

    def _check_test(self, name):
        entry = get_entry(name)  # a ValueError listing the names
        if entry.kind != "pair" or not set(entry.needs) <= SCORE_NEEDS:
            raise ValueError(
                f"test must be a two-estimator test of score differences (e.g. "
                f"corrected_t, bcv_t, paired_t_5x2cv); {name} needs "
                f"{list(entry.needs)}."
            )
        if self.rope is not None:
            if not entry.bayesian or "rope" not in (keyword_names(entry.func) or ()):
                raise ValueError(
                    f"with rope, test must be a Bayesian test with a rope (e.g. "
                    f"{ROPE_TEST}); got {name}."
                )
        elif entry.bayesian:
            raise ValueError(
                f"{name} is Bayesian: pass rope= for the rule of its posterior."
            )
        elif "less" not in entry.alternatives:
            raise ValueError(
                f"the rule needs a one-sided test of 'the best is better'; {name} "
                f"is {'/'.join(entry.alternatives)} only."
            )
        return entry

    # ---- the rule --------------------------------------------------------

    def _test_of(self, design):
        if self.rope is not None:
            return self.test or ROPE_TEST
        if self.test is not None:
            return self.test
        alternative = "greater" if self.margin else "less"
        name, _ = recommend(
            design, None, "score", alternative=alternative, available=SCORE_NEEDS
        )
        if name is None:
            raise ValueError(
                f"no one-sided test of score differences fits {design.describe()}; "
                "pass test=."
            )
        return name

    def __call__(self, cv_results):
        """Return the ``cv_results`` index of the candidate to refit."""
        read = read_cv_results(cv_results, metric=self.metric, argument="cv_results")
        indices = list(read.eligible)
        if not indices:
            raise ValueError("no candidate has a finite score on every split.")
        params = [read.params[j] for j in indices]
        simplicity = {j: _simplicity(read.params[j], self._order, j) for j in indices}
        if len(indices) == 1:
            return self._only(read, indices[0])
        design = design_of_cv(self.cv, read.n_splits)
        test = self._test_of(design)
        self._check_test(test)
        names = candidate_names(params, labels=indices)
        scores = read.scores[:, indices].copy()
        if self.margin:
            scores[:, 1:] += self.margin
        alternative = {None: "less", "margin": "greater", "rope": "two-sided"}[
            "rope" if self.rope is not None else "margin" if self.margin else None
        ]
        comparison = compare_stored(
            ScoreStore(
                scores,
                n_train=design.n_train,
                n_test=design.n_test,
                scoring=read.metric,
            ),
            design,
            names,
            pairwise_tests={test: {}},
            correction=None,
            control=names[0],
            rope=0.0 if self.rope is None else self.rope,
            alpha=self.alpha,
            alternative=alternative,
        )
        table = comparison.pairwise[test]
        evidence, qualifying = {}, [indices[0]]
        for position, j in enumerate(indices[1:], start=1):
            if self.rope is not None:
                run = table.results[(names[position], names[0])]
                evidence[j] = float(run.p_a_better + run.get("p_rope", 0.0))
                passes = evidence[j] >= 1 - self.alpha
            else:
                evidence[j] = float(table.pvalue[position, 0])
                rejected = bool(table.reject[position, 0])
                passes = rejected if self.margin else not rejected
            if passes:
                qualifying.append(j)
        rank = {j: position for position, j in enumerate(indices)}
        try:
            qualifying.sort(key=lambda j: (simplicity[j], rank[j]))
        except TypeError as exc:
            raise ValueError(
                f"order: the candidates' keys cannot be compared ({exc})."
            ) from None
        chosen = qualifying[0]
        self.result_ = self._result(
            read, indices, names, qualifying, evidence, test, comparison, chosen
        )
        return int(chosen)

    def _criterion(self):
        if self.rope is not None:
            return "within rope"
        return "non-inferior" if self.margin else "not worse"

    def _only(self, read, j):
        self.result_ = RefitResult(
            best_index=int(j),
            chosen_index=int(j),
            best_params=read.params[j],
            chosen_params=read.params[j],
            metric=read.metric,
            test=None,
            criterion=self._criterion(),
            alpha=self.alpha,
            margin=self.margin,
            rope=self.rope,
            candidates=[int(j)],
            qualifying=[int(j)],
            evidence={},
            comparison=None,
            text=f"One candidate ({j}) has a score on every split: it is refitted.",
        )
        return int(j)

    def _result(
        self, read, indices, names, qualifying, evidence, test, comparison, chosen
    ):
        name_of = dict(zip(indices, names))
        best = indices[0]
        mean = comparison.mean_scores
        if self.margin:
            mean = mean - np.r_[0.0, np.full(len(indices) - 1, self.margin)]
        mean_of = dict(zip(indices, mean))
        text = [
            f"Best on {read.metric}: {name_of[best]} (cv_results_ index {best}, mean "
            f"{format_number(mean_of[best], 4)}), compared with each of the "
            f"{len(indices) - 1} other candidates by {test}."
        ]
        if self.rope is not None:
            rule = (
                f"the posterior probability that it is not worse than the best by "
                f"more than the rope ({format_number(self.rope)}) reaches "
                f"1 - alpha = {format_number(1 - self.alpha)}"
            )
            shown = "P"
        elif self.margin:
            rule = (
                "the one-sided test of 'worse than the best by more than the "
                f"margin ({format_number(self.margin)})' rejects at alpha = "
                f"{self.alpha} (non-inferiority)"
            )
            shown = "p"
        else:
            rule = (
                "the one-sided test of 'the best is better' does not reject at "
                f"alpha = {self.alpha}"
            )
            shown = "p"
        listed = ", ".join(
            name_of[j]
            + ("" if j == best else f" ({shown} = {format_number(evidence[j], 3)})")
            for j in qualifying
        )
        text.append(f"A candidate qualifies when {rule}: {listed}.")
        text.append(
            f"Chosen, the simplest of them ({_order_text(self._order)}): "
            f"{name_of[chosen]} (cv_results_ index {chosen})."
        )
        return RefitResult(
            best_index=int(best),
            chosen_index=int(chosen),
            best_params=read.params[best],
            chosen_params=read.params[chosen],
            metric=read.metric,
            test=test,
            criterion=self._criterion(),
            alpha=self.alpha,
            margin=self.margin,
            rope=self.rope,
            candidates=[int(j) for j in indices],
            qualifying=[int(j) for j in qualifying],
            evidence={int(j): value for j, value in evidence.items()},
            comparison=comparison,
            text="\n".join(text),
        )


def simplest_not_worse(
    order, *, cv, test=None, alpha=0.05, margin=0.0, rope=None, metric=None
):
    """A refit rule: the simplest candidate not shown worse than the best.

    Pass it as ``refit=`` to :class:`~sklearn.model_selection.GridSearchCV`
    or :class:`~sklearn.model_selection.RandomizedSearchCV` (single- or
    multi-metric): after the search, it compares every candidate with the
    best (rank 1 on the metric) on the search's own splits, by the test of
    the design, and refits the simplest candidate that qualifies. This is
    the intent of the one-standard-error rule (and of scikit-learn's
    "balance model complexity and cross-validated score" example, which
    uses one standard deviation), with a variance that knows the training
    sets of the splits overlap.

    Parameters
    ----------
    order : str, (str, "larger"), callable or list of these
        What "simpler" means: a parameter name (its smaller values are
        simpler; None counts above every number, as ``max_depth=None``
        means no limit), ``(name, "larger")`` when larger values are simpler
        (e.g. a regularisation ``alpha``), a key function of a candidate's
        params (smaller is simpler), or a list of these, compared in turn.
        Ties go to the better-ranked candidate.
    cv : int, cross-validation splitter or list of (train, test)
        The search's ``cv`` (the same object): its design gives the test and
        the ratio of test to training set sizes (see
        :func:`~sklearn_bcv.compare_split_scores`).
    test : str, default=None
        The test of a candidate against the best: None is the one-sided
        test recommended for the design (the corrected resampled t of
        Nadeau and Bengio (2003); on a block-regularized m×2 CV it gives
        the numbers of ``bcv_t``); any registered test of score differences
        that takes ``alternative="less"``; with ``rope``, a Bayesian test
        (default ``bayesian_correlated_t``).
    alpha : float, default=0.05
        Level of the test (of the posterior, with ``rope``).
    margin : float, default=0.0
        ``> 0``: non-inferiority. A candidate qualifies when the one-sided
        test of "worse than the best by more than ``margin``" (in score
        units) rejects; 0, when the test of "the best is better" does not
        reject.
    rope : float, default=None
        The Bayesian rule: a candidate qualifies when the Bayesian
        correlated t of Corani and Benavoli (2015) gives a probability of
        at least ``1 - alpha`` that it is not worse than the best by more
        than ``rope``.
    metric : str, default=None
        The metric of a multi-metric search (required there).

    Returns
    -------
    rule : SimplestNotWorse
        Call it with ``cv_results_`` to get the index to refit; then
        ``rule.result_`` (a :class:`~sklearn_bcv.model_selection._refit.RefitResult`)
        holds the comparison with the best, the candidates that qualify,
        the choice, and ``text`` saying why.

    Notes
    -----
    The best is chosen on the very splits that test it. With all candidates
    equal in truth, the one-sided test at alpha = 0.05 excludes a given
    candidate as worse than the best in 12% to 36% of simulated grids (10
    and 50 candidates, 5×2 BCV and 10 × 10 repeated k-fold; the user guide
    gives the simulation), not 5%: the rule errs on the side of the best
    candidate, seldom on the side of a simpler one that is worse. A margin
    or a rope states how much worse is acceptable and makes the choice
    depend on it rather than on noise alone.

    The rule sees only the search's ``cv_results_``; a search cloned by
    another (nested cross-validation) calls a copy of it, whose
    ``result_`` stays in the copy.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_bcv import StratifiedBlockRegularized5x2CV
    >>> from sklearn_bcv.model_selection import simplest_not_worse
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pipe = make_pipeline(StandardScaler(), LogisticRegression())
    >>> grid = {"logisticregression__C": [0.001, 0.01, 0.1, 1.0]}
    >>> cv = StratifiedBlockRegularized5x2CV(random_state=0)
    >>> rule = simplest_not_worse("logisticregression__C", cv=cv)
    >>> search = GridSearchCV(pipe, grid, cv=cv, refit=rule).fit(X, y)
    >>> search.best_params_
    {'logisticregression__C': 0.1}
    >>> rule.result_.test, rule.result_.qualifying
    ('corrected_t', [2, 3])
    """
    return SimplestNotWorse(
        order, cv=cv, test=test, alpha=alpha, margin=margin, rope=rope, metric=metric
    )
