"""Tests of the test registry: lookup, listing, registration, design checks."""

import numpy as np
import pytest
from sklearn.utils import Bunch

import sklearn_bcv
from sklearn_bcv import available_tests, get_test, register_test
from sklearn_bcv.stats import (
    _registry,
    bcv_mcnemar,
    cv_ci_z,
    kfold_mcnemar,
    mcnemar,
    proportion_z,
)
from sklearn_bcv.stats._registry import (
    DESIGNS,
    NEEDS,
    get_entry,
    get_test_info,
    unregister_test,
)

# The tests of this module and what the contract (API.md) says about them.
OWN_TESTS = {
    "mcnemar": (mcnemar, ("tables",), "holdout"),
    "kfold_mcnemar": (kfold_mcnemar, ("tables",), "kfold"),
    "bcv_mcnemar": (bcv_mcnemar, ("tables",), "bcv"),
    "proportion_z": (proportion_z, ("tables",), "holdout"),
    "cv_ci_z": (cv_ci_z, ("loss_differences",), "kfold"),
}


@pytest.fixture
def restore_registry():
    """Let a test register things; put the original registry back afterwards."""
    saved = dict(_registry._REGISTRY)
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(saved)


def dummy_test(*, differences, alpha=0.05, alternative="two-sided"):
    return Bunch(
        statistic=0.0,
        pvalue=1.0,
        df=None,
        reject=False,
        alternative=alternative,
        test="dummy",
    )


@pytest.mark.parametrize("name", sorted(OWN_TESTS))
def test_builtin_tests_registered_as_documented(name):
    func, needs, design = OWN_TESTS[name]
    assert get_test(name) is func
    assert get_test_info(name) == (needs, design)
    assert name in available_tests()
    assert name in available_tests(design=design)
    assert all(need in NEEDS["pair"] for need in needs) and design in DESIGNS


def test_get_test_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match=r"'mcnemer' is not a registered test") as info:
        get_test("mcnemer")
    message = str(info.value)
    assert "Valid names:" in message
    for name in OWN_TESTS:
        assert repr(name) in message


@pytest.mark.parametrize("name", [None, 3, ["mcnemar"]])
def test_get_test_non_string_name(name):
    with pytest.raises(ValueError, match=r"is not a registered test\. Valid names"):
        get_test(name)


def test_get_test_info_unknown_name():
    with pytest.raises(ValueError, match=r"'nope' is not a registered test"):
        get_test_info("nope")


def test_available_tests_sorted_and_filtered():
    names = available_tests()
    assert names == sorted(names)
    assert set(OWN_TESTS) <= set(names)
    assert available_tests(design="holdout") == ["mcnemar", "proportion_z"]
    assert {"kfold_mcnemar", "cv_ci_z"} <= set(available_tests(design="kfold"))
    assert "bcv_mcnemar" in available_tests(design="bcv")
    for design in DESIGNS:
        for name in available_tests(design=design):
            assert get_test_info(name)[1] == design
    # every registered name sits in exactly one design
    by_design = sum(len(available_tests(design=design)) for design in DESIGNS)
    assert by_design == len(names)


def test_available_tests_bad_design():
    with pytest.raises(
        ValueError, match=r"design must be one of \['holdout', .*\]; got '5x2'"
    ):
        available_tests(design="5x2")


def test_register_then_use(restore_registry):
    decorated = register_test("dummy", needs="differences")(dummy_test)
    assert decorated is dummy_test  # the decorator returns the function unchanged
    assert get_test("dummy") is dummy_test
    # needs given as a string is stored as a tuple; design None: any design
    assert get_test_info("dummy") == (("differences",), None)
    assert "dummy" in available_tests()
    assert all("dummy" not in available_tests(design=d) for d in DESIGNS)
    assert get_test("dummy")(differences=[0.1, 0.2]).statistic == 0.0


def test_register_duplicate_without_overwrite_raises(restore_registry):
    def impostor(*, tables, alpha=0.05, alternative="two-sided"):
        raise AssertionError("must not be registered")

    with pytest.raises(
        ValueError,
        match=r"A test named 'mcnemar' is already registered; pass "
        r"overwrite=True to replace it\.",
    ):
        register_test("mcnemar", needs="tables", design="holdout")(impostor)
    assert get_test("mcnemar") is mcnemar  # untouched


def test_register_duplicate_with_overwrite(restore_registry):
    def replacement(*, tables, alpha=0.05, alternative="two-sided"):
        return mcnemar(tables, alpha=alpha, alternative=alternative, exact=True)

    register_test("mcnemar", needs="tables", design="holdout", overwrite=True)(
        replacement
    )
    assert get_test("mcnemar") is replacement
    assert get_test("mcnemar")(tables=[[3, 1], [11, 5]]).df is None


def test_unregister_test(restore_registry):
    register_test("dummy", needs="differences")(dummy_test)
    assert unregister_test("dummy") is None
    assert "dummy" not in available_tests()
    with pytest.raises(ValueError, match=r"'dummy' is not a registered test"):
        get_test("dummy")
    # the name is free again: registering it needs no overwrite
    register_test("dummy", needs="differences", design="kfold")(dummy_test)
    assert get_test_info("dummy") == (("differences",), "kfold")


def test_register_checks_the_signature(restore_registry):
    # dummy_test takes differences, not tables: refused when registered, not
    # with a TypeError in the middle of a comparison.
    with pytest.raises(
        ValueError,
        match=r"The test 'dummy' is called with the keyword arguments \['tables', "
        r"'alpha', 'alternative'\]; dummy_test\(\) does not accept \['tables'\]",
    ):
        register_test("dummy", needs="tables")(dummy_test)

    def no_alpha(*, differences, alternative="two-sided"):
        return None

    with pytest.raises(ValueError, match=r"does not accept \['alpha'\]"):
        register_test("dummy", needs="differences")(no_alpha)
    with pytest.raises(ValueError, match=r"decorates a function; got 3"):
        register_test("dummy", needs="differences")(3)
    assert "dummy" not in available_tests()

    def catch_all(**kwargs):  # **kwargs accepts every keyword
        return dummy_test(differences=kwargs["differences"])

    register_test("dummy", needs=("differences", "n_test"))(catch_all)
    assert get_test("dummy")(differences=[0.1], n_test=5).test == "dummy"


def test_unregister_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match=r"'nope' is not a registered test\. Valid"):
        unregister_test("nope")


def test_registry_restored_after_overwrite():
    # Runs after the overwrite test (file order): the fixture put it back.
    assert get_test("mcnemar") is mcnemar


@pytest.mark.parametrize(
    "needs",
    ["table", ("tables", "scores"), (), [], ["differences", 3]],
)
def test_register_bad_needs(needs, restore_registry):
    before = available_tests()
    with pytest.raises(ValueError, match=r"needs must name one or more of \['tables'"):
        register_test("bad_needs", needs=needs)(dummy_test)
    assert available_tests() == before


@pytest.mark.parametrize("design", ["5x2", "mx2 ", "", "KFOLD"])
def test_register_bad_design(design, restore_registry):
    with pytest.raises(
        ValueError, match=rf"design must be one of \['holdout', .*\]; got '{design}'"
    ):
        register_test("bad_design", needs="tables", design=design)(dummy_test)
    assert "bad_design" not in available_tests()


@pytest.mark.parametrize("name", ["", None, 7])
def test_register_bad_name(name, restore_registry):
    with pytest.raises(ValueError, match=r"name must be a non-empty string"):
        register_test(name, needs="tables")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"kind": "pairs"}, r"kind must be one of \['pair', 'many', 'datasets'\]"),
        ({"alternatives": "both"}, r"alternatives must name one or more of"),
        ({"alternatives": ()}, r"alternatives must name one or more of"),
        ({"recommended_for": ["bcv"]}, r"recommended_for must be a dict"),
        ({"recommended_for": {"5x2": 1}}, r"recommended_for must be a dict"),
        ({"recommended_for": {"bcv": 1.5}}, r"recommended_for must be a dict"),
        ({"rationale": 3}, r"rationale must be a string or None; got 3"),
        ({"param_check": "positive"}, r"param_check must be a callable or None"),
        (
            {"kind": "many"},
            r"needs must name one or more of \['correct', 'scores', 'n_train', "
            r"'n_test'\] \(the needs of a 'many' test\); got \['differences'\]",
        ),
    ],
)
def test_register_bad_declarations(kwargs, match, restore_registry):
    with pytest.raises(ValueError, match=match):
        register_test("bad", needs="differences", **kwargs)(dummy_test)
    assert "bad" not in available_tests(kind=None)


# What each built-in two-estimator test declares: the alternatives it
# honours and the designs it is the recommendation for (with its rank).
DECLARATIONS = {
    "mcnemar": (("two-sided", "greater", "less"), {"holdout": 1}),
    "kfold_mcnemar": (("two-sided",), {}),
    "bcv_mcnemar": (("two-sided", "greater", "less"), {"bcv": 1}),
    "combined_f_5x2cv": (("two-sided",), {"mx2": 1}),
    "calibrated_f_5x2bcv": (("two-sided",), {"bcv": 2}),
    "corrected_t": (
        ("two-sided", "greater", "less"),
        {"bcv": 3, "mx2": 2, "kfold": 1, "any": 1},
    ),
}


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_builtin_declarations(name):
    entry = get_entry(name)
    alternatives, recommended_for = DECLARATIONS[name]
    assert entry.kind == "pair"
    assert entry.alternatives == alternatives
    assert entry.recommended_for == recommended_for
    # A recommended test's rationale says for which design.
    assert entry.rationale.startswith("recommended for") == bool(recommended_for)


@pytest.mark.parametrize("name", available_tests(kind=None))
def test_every_builtin_test_declares_its_name_reason_and_sources(name):
    # What a report says of a test: its name in a sentence, the one line
    # saying why it runs, and the works it cites in its bibliography.
    entry = get_entry(name)
    assert entry.display_name  # declared, not the "<name> test" fallback
    assert entry.rationale and entry.rationale == entry.rationale.strip()
    assert entry.references
    for citation, full in entry.references:
        assert citation in entry.citation
        assert full.endswith(".") and len(full) > len(citation)


def test_references_are_declared_as_a_dict_or_pairs(restore_registry):
    register_test(
        "cited", needs="differences", references={"Doe 2020": "J. Doe. A test."}
    )(dummy_test)
    assert get_entry("cited").references == (("Doe 2020", "J. Doe. A test."),)
    assert get_entry("cited").citation == "Doe 2020"
    register_test(
        "cited",
        needs="differences",
        references=[("Doe 2020", "J. Doe. A."), ("Roe 2021", "R. Roe. B.")],
        overwrite=True,
    )(dummy_test)
    assert get_entry("cited").citation == "Doe 2020; Roe 2021"
    for bad in ("Doe 2020", {"Doe 2020": ""}, [("Doe 2020",)], 3):
        with pytest.raises(ValueError, match="references must be a dict"):
            register_test("bad", needs="differences", references=bad)(dummy_test)


@pytest.mark.parametrize("name", available_tests())
@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_declared_alternatives_match_what_the_test_does(name, alternative):
    # The engine trusts the declaration: a test that declares an alternative
    # must run with it, one that does not must refuse it itself too.
    kwargs = {need: ALL_INPUTS[need] for need in get_test_info(name)[0]}
    if get_test_info(name)[1] == "holdout":
        kwargs["tables"] = TABLE
    if get_entry(name).honours(alternative):
        assert get_test(name)(**kwargs, alternative=alternative).alternative == (
            alternative
        )
    else:
        with pytest.raises(ValueError, match="alternative"):
            get_test(name)(**kwargs, alternative=alternative)


def test_available_tests_by_kind(restore_registry):
    register_test("omnibus_dummy", needs="scores", kind="many")(_many_dummy)
    assert "omnibus_dummy" in available_tests(kind="many")
    assert "omnibus_dummy" not in available_tests()  # kind="pair" by default
    assert set(available_tests(kind=None)) >= {"omnibus_dummy", "mcnemar"}
    with pytest.raises(ValueError, match=r"kind must be one of"):
        available_tests(kind="all")


def _many_dummy(*, scores, alpha=0.05, alternative="two-sided"):
    return Bunch(statistic=0.0, pvalue=1.0, df=None, reject=False, test="x")


# --------------------------------------------------------------------------
# Calling through the registry, and design checks
# --------------------------------------------------------------------------

TABLE = np.array([[40, 7], [15, 38]])
LOSS_FOLDS = [np.array([0, -1, 1, -1, 0]), np.array([-1, 0, 0, -1, 0])]
INPUTS = {
    "mcnemar": {"tables": TABLE},
    "proportion_z": {"tables": TABLE[np.newaxis]},
    "kfold_mcnemar": {"tables": np.stack([TABLE] * 5)},
    "bcv_mcnemar": {"tables": np.stack([TABLE] * 10)},
    "cv_ci_z": {"loss_differences": LOSS_FOLDS},
}


@pytest.mark.parametrize("name", sorted(OWN_TESTS))
def test_registered_tests_called_with_keywords(name):
    result = get_test(name)(**INPUTS[name], alpha=0.1)
    for field in ("statistic", "pvalue", "df", "reject", "alternative", "test"):
        assert field in result, field
    assert result.test == name
    assert result.alternative == "two-sided"
    assert result.alpha == 0.1
    assert result.reject == (result.pvalue < 0.1)


@pytest.mark.parametrize(
    "name, kwargs, message",
    [
        (
            "mcnemar",
            {"tables": np.stack([TABLE] * 10)},
            r"mcnemar needs the table of one hold-out split; got 10 tables",
        ),
        (
            "proportion_z",
            {"tables": np.stack([TABLE] * 3)},
            r"proportion_z needs the table of one hold-out split; got 3 tables",
        ),
        (
            "kfold_mcnemar",
            {"tables": TABLE},
            r"kfold_mcnemar needs the tables of k >= 2 folds; got 1 table",
        ),
        (
            "bcv_mcnemar",
            {"tables": np.stack([TABLE] * 5)},
            r"bcv_mcnemar needs the tables of an m×2 \(BCV\) design.*got 5 tables",
        ),
        (
            "cv_ci_z",
            {"loss_differences": LOSS_FOLDS[:1]},
            r"cv_ci_z needs the loss differences of k >= 2 folds; got 1",
        ),
    ],
)
def test_design_check_messages(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        get_test(name)(**kwargs)


def test_public_exports():
    assert sklearn_bcv.mcnemar_table is not None
    assert "mcnemar_table" in sklearn_bcv.__all__
    for name in OWN_TESTS:
        assert name in sklearn_bcv.stats.__all__
        assert getattr(sklearn_bcv.stats, name) is get_test(name)


# --------------------------------------------------------------------------
# The whole API.md table
# --------------------------------------------------------------------------

# name: (needs, design, extra fields API.md requires), from API.md's table.
API_TABLE = {
    "mcnemar": (("tables",), "holdout", ()),
    "kfold_mcnemar": (("tables",), "kfold", ()),
    "bcv_mcnemar": (
        ("tables",),
        "bcv",
        ("t", "rho1", "rho2", "mean_table", "effective_table"),
    ),
    "paired_t_5x2cv": (("differences",), "mx2", ()),
    "combined_f_5x2cv": (("differences",), "mx2", ()),
    "calibrated_f_5x2bcv": (("differences",), "bcv", ()),
    "combined_t_5x2cv": (("differences",), "mx2", ()),
    "blocked_t_3x2cv": (("differences",), "bcv", ()),
    "paired_t": (("differences",), "any", ()),
    "corrected_t": (("differences", "n_train", "n_test"), "any", ()),
    "proportion_z": (("tables",), "holdout", ("confidence_interval",)),
    "cv_ci_z": (("loss_differences",), "kfold", ("confidence_interval",)),
    "bayesian_correlated_t": (
        ("differences", "n_train", "n_test"),
        "any",
        ("p_a_better", "p_rope", "p_b_better", "rope", "loc", "scale"),
    ),
}
TWO_SIDED_ONLY = {"kfold_mcnemar", "combined_f_5x2cv", "calibrated_f_5x2bcv"}
ALL_INPUTS = {
    "tables": np.stack([TABLE, TABLE.T] * 5),
    "differences": np.array([3, 1, 2, 4, 2, 0, 5, 1, 2, 3]) / 100,
    "n_train": 50,
    "n_test": 50,
    "loss_differences": LOSS_FOLDS,
    "scores_a": np.array([83, 81, 82, 84, 82, 80, 85, 81, 82, 83]) / 100,
    "scores_b": np.array([80, 80, 80, 80, 80, 80, 80, 80, 80, 80]) / 100,
}


def api_inputs(name):
    """Inputs of the right design for ``name``, built from its needs."""
    needs, design, _ = API_TABLE[name]
    kwargs = {need: ALL_INPUTS[need] for need in needs}
    if design == "holdout":
        kwargs["tables"] = TABLE
    return kwargs


def test_registry_holds_the_api_table():
    assert set(API_TABLE) <= set(available_tests())
    for name, (needs, design, _) in API_TABLE.items():
        assert get_test_info(name) == (needs, design), name
        assert getattr(sklearn_bcv.stats, name) is get_test(name)
        assert name in sklearn_bcv.stats.__all__


@pytest.mark.parametrize("name", sorted(API_TABLE))
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_every_test_returns_the_api_fields(name, alternative):
    extra = API_TABLE[name][2]
    test = get_test(name)
    if name in TWO_SIDED_ONLY and alternative != "two-sided":
        with pytest.raises(ValueError, match=rf"{name} supports alternative in"):
            test(**api_inputs(name), alternative=alternative)
        return
    result = test(**api_inputs(name), alpha=0.1, alternative=alternative)
    assert isinstance(result, Bunch)
    for field in ("statistic", "pvalue", "df", "reject", "alternative", "test", *extra):
        assert field in result, field
    assert result.test == name and result.alternative == alternative
    assert isinstance(result.reject, bool)
    if name == "bayesian_correlated_t":
        assert result.pvalue is None
        decided_a, decided_b = result.p_a_better > 0.9, result.p_b_better > 0.9
        expected = {"greater": decided_a, "less": decided_b}.get(
            alternative, decided_a or decided_b
        )
        assert result.reject is expected
    else:
        assert 0.0 <= result.pvalue <= 1.0
        assert result.reject is (result.pvalue < 0.1)
    if name in ("combined_f_5x2cv", "calibrated_f_5x2bcv"):
        assert isinstance(result.df, tuple) and len(result.df) == 2
    if "confidence_interval" in extra:
        low, high = result.confidence_interval
        assert low <= high


def test_param_check_gets_the_users_values_over_the_defaults(restore_registry):
    seen = []

    def check(power, offset):
        seen.append((power, offset))
        if power < 0:
            raise ValueError(f"power must be >= 0; got {power}.")

    @register_test("powered", needs="differences", param_check=check)
    def powered(
        *, differences, alpha=0.05, alternative="two-sided", power=2, offset=0.0
    ):
        return dummy_test(differences=differences)

    entry = get_entry("powered")
    entry.check_params({"offset": 1.5})
    entry.check_params({})
    assert seen == [(2, 1.5), (2, 0.0)]
    with pytest.raises(ValueError, match="power must be >= 0; got -1"):
        entry.check_params({"power": -1})
    with pytest.raises(ValueError, match="alpha must be a number in"):
        entry.check_params({"alpha": 1.5})
    with pytest.raises(ValueError, match="alternative"):
        entry.check_params({"alternative": "sideways"})
    assert len(seen) == 3  # alpha and alternative are checked before it


# --------------------------------------------------------------------------
# design=None: any design, one hold-out split included


def test_builtin_tests_of_splits_declare_their_design():
    # design=None means "every design": a built-in two- or k-estimator test
    # that needs a particular design (or two splits, "any") declares it.
    for kind in ("pair", "many"):
        for name in available_tests(kind=kind):
            assert get_entry(name).design in DESIGNS, name


def _user_q(correct, *, alpha=0.05, alternative="two-sided"):
    """Cochran's Q of the pooled records of every split (a k-estimator test
    a user might register)."""
    from sklearn_bcv.stats import cochran_q

    pooled = np.concatenate([np.asarray(c) for c in correct])
    result = cochran_q([pooled], alpha=alpha, alternative=alternative)
    result["test"] = "user_q"
    return result


def test_user_many_test_without_design_runs_on_a_hold_out_split(restore_registry):
    from sklearn.datasets import load_breast_cancer
    from sklearn.dummy import DummyClassifier
    from sklearn.model_selection import ShuffleSplit
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bcv import BlockRegularized5x2CV, compare_many_estimators

    register_test("user_q", needs="correct", kind="many")(_user_q)
    X, y = load_breast_cancer(return_X_y=True)
    estimators = [
        ("bayes", GaussianNB()),
        ("tree", DecisionTreeClassifier(max_depth=2, random_state=0)),
        ("majority", DummyClassifier()),
    ]
    # the canonical Cochran's Q design: one hold-out split
    holdout = compare_many_estimators(
        estimators,
        X,
        y,
        cv=ShuffleSplit(n_splits=1, test_size=0.3, random_state=0),
        tests=["user_q", "cochran_q"],
        pairwise_tests=["mcnemar"],
    )
    assert holdout.tests.user_q.statistic == holdout.tests.cochran_q.statistic
    assert holdout.tests.user_q.df == 2 and holdout.tests.user_q.reject
    # and on any other design
    bcv = compare_many_estimators(
        estimators,
        X,
        y,
        cv=BlockRegularized5x2CV(random_state=0),
        tests=["user_q"],
        pairwise_tests=["bcv_mcnemar"],
    )
    assert bcv.tests.user_q.n_records == 10 * len(y) // 2


def test_user_pair_test_without_design_runs_on_a_hold_out_split(restore_registry):
    from sklearn.model_selection import ShuffleSplit

    from sklearn_bcv import compare_predictions

    def mean_difference(*, differences, alpha=0.05, alternative="two-sided"):
        value = float(np.mean(differences))
        return Bunch(
            statistic=value,
            pvalue=1.0,
            df=None,
            reject=False,
            alternative=alternative,
            test="mean_difference",
        )

    register_test("mean_difference", needs="differences")(mean_difference)
    register_test("two_split_mean", needs="differences", design="any")(mean_difference)
    y = np.tile([0, 1], 50)
    splits = list(ShuffleSplit(n_splits=1, test_size=0.2, random_state=0).split(y))
    test = splits[0][1]
    pred_a, pred_b = [y[test]], [np.zeros_like(y[test])]
    result = compare_predictions(y, pred_a, pred_b, splits, tests=["mean_difference"])
    expected = 1.0 - np.mean(y[test] == 0)
    assert result.tests.mean_difference.statistic == pytest.approx(expected)
    # a test that declares it needs two splits is refused, naming why
    with pytest.raises(ValueError, match="two_split_mean needs at least two splits"):
        compare_predictions(y, pred_a, pred_b, splits, tests=["two_split_mean"])


# --------------------------------------------------------------------------
# Each test's declarations, checked against what it does

#: The registered tests of two estimators: their result on (B, A) follows
#: from that on (A, B) as their ``swap`` declares.
PAIR_TESTS = sorted(
    name
    for name, entry in _registry._REGISTRY.items()
    if entry.kind == "pair" or entry.role == "pairwise"
)

#: Tests whose numbers come from a sampler (MCMC): the relation of the two
#: directions holds up to the sampler's error, with parameters that keep
#: them quick.
SAMPLED = {"bayesian_hierarchical": ({"n_samples": 4000, "n_chains": 2}, 0.05)}


def _both_directions(entry, rng):
    """The needs of ``entry`` for (A, B) and for (B, A), made from one draw
    of who is right on each record of each split (the tables transposed,
    the differences negated), or one table of scores per data set."""
    if entry.kind == "datasets":
        split = rng.normal(0.01, 0.03, (12, 10))
        forward = dict(dataset_differences=split.mean(1), split_differences=split)
        backward = dict(dataset_differences=-split.mean(1), split_differences=-split)
        sizes = dict(n_train=np.full(12, 100.0), n_test=np.full(12, 100.0))
        return forward | sizes, backward | sizes
    n_splits = 1 if entry.design == "holdout" else 10
    right_a = rng.random((n_splits, 40)) < 0.8
    right_b = rng.random((n_splits, 40)) < 0.7

    def tables(a, b):
        return np.array(
            [
                [[np.sum((x == i) & (y == j)) for j in (0, 1)] for i in (0, 1)]
                for x, y in zip(a, b)
            ]
        )

    def needs(a, b):
        return dict(
            tables=tables(a, b),
            differences=a.mean(1) - b.mean(1),
            loss_differences=[(~x).astype(float) - (~y) for x, y in zip(a, b)],
            scores_a=a.mean(1),
            scores_b=b.mean(1),
            n_train=40.0,
            n_test=40.0,
        )

    return needs(right_a, right_b), needs(right_b, right_a)


@pytest.mark.parametrize("name", PAIR_TESTS)
def test_the_swap_rule_is_what_running_both_ways_gives(name):
    """The (k, k) tables of the pairwise tests fill [B, A] from [A, B] by the
    declared rule (negated or same statistic; the same two-sided p-value;
    the posterior seen from B), or run the test again: check each
    declaration on both directions of one draw."""
    entry = get_entry(name)
    params, tolerance = SAMPLED.get(name, ({}, 1e-9))
    if "random_state" in (_registry.keyword_names(entry.func) or ()):
        params = {**params, "random_state": 0}
    forward, backward = _both_directions(entry, np.random.default_rng(3))
    ab = entry.func(**{need: forward[need] for need in entry.needs}, **params)
    ba = entry.func(**{need: backward[need] for need in entry.needs}, **params)
    stat_ab, stat_ba = float(ab.statistic), float(ba.statistic)
    assert stat_ab != 0  # the draw shows which relation holds
    close = {"atol": tolerance * abs(stat_ab), "rtol": 0}
    if entry.swap == "negate":
        np.testing.assert_allclose(stat_ba, -stat_ab, **close)
    elif entry.swap == "same":
        np.testing.assert_allclose(stat_ba, stat_ab, **close)
    else:  # recompute: neither relation holds, so the rule is needed
        assert entry.swap == "recompute"
        assert not np.isclose(stat_ba, -stat_ab) and not np.isclose(stat_ba, stat_ab)
    if entry.bayesian:
        np.testing.assert_allclose(ba.p_b_better, ab.p_a_better, atol=tolerance)
        np.testing.assert_allclose(ba.p_a_better, ab.p_b_better, atol=tolerance)
        np.testing.assert_allclose(ba.p_rope, ab.p_rope, atol=tolerance)
    elif ab.get("pvalue") is not None:  # the table repeats it at [B, A]
        np.testing.assert_allclose(ba.pvalue, ab.pvalue, rtol=1e-12)


def test_swap_rules_are_declared_for_tests_of_two_estimators_only(restore_registry):
    register_test("mine", needs="differences")(dummy_test)
    assert get_entry("mine").swap == "recompute"  # the safe default
    register_test("mine_too", needs="differences", swap="negate")(dummy_test)
    assert get_entry("mine_too").swap == "negate"
    with pytest.raises(ValueError, match="swap must be None or one of"):
        register_test("bad", needs="differences", swap="mirror")
    with pytest.raises(ValueError, match="swap declares how a test of two"):
        register_test("bad", needs="scores", kind="datasets", swap="same")
    assert get_entry("friedman").swap is None


def test_a_user_test_without_a_swap_rule_is_run_both_ways(restore_registry):
    """Undeclared, the [B, A] statistic is the test's own on (B, A): right
    for any test (here one whose statistic is neither negated nor kept)."""
    from sklearn_bcv import compare_scores

    @register_test(
        "wins", needs="dataset_differences", kind="datasets", role="pairwise"
    )
    def wins(*, dataset_differences, alpha=0.05, alternative="two-sided"):
        won = float(np.sum(np.asarray(dataset_differences) > 0))
        return Bunch(statistic=won, pvalue=0.5, df=None, reject=False)

    scores = np.random.default_rng(0).uniform(size=(9, 3))
    table = compare_scores(scores, tests=[], pairwise_tests=["wins"]).pairwise.wins
    differences = scores[:, :, None] - scores[:, None, :]
    expected = np.sum(differences > 0, axis=0) * ~np.eye(3, dtype=bool)
    np.testing.assert_array_equal(table.statistic, expected)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"display_name": 3}, "display_name must be a string or None"),
        ({"display_name": " "}, "display_name must be a non-empty string"),
        ({"not_recommended": ["x"]}, "not_recommended must be a string or None"),
        ({"bayesian": "yes"}, "bayesian must be True or False"),
        ({"statistic_label": "t"}, "statistic_label must be None or one of"),
        ({"compares": "means"}, "compares must be None or one of"),
        ({"by_default": {"all_pairs": 0}}, "by_default must be True, False or a"),
        ({"by_default": 1}, "by_default must be True, False or a dict"),
        ({"by_default": False, "defaults": {"design": 0}}, "earlier spelling"),
        ({"role": "omnibus"}, "role declares what a test across data sets is"),
        ({"content": print}, "content words the result of a test across"),
    ],
)
def test_the_new_declarations_are_checked(kwargs, match, restore_registry):
    with pytest.raises(ValueError, match=match):
        register_test("bad", needs="differences", **kwargs)(dummy_test)
    assert "bad" not in available_tests(kind=None)


def test_one_runs_by_default_declaration(restore_registry):
    """``by_default`` (with ``defaults``, its earlier spelling, as a dict)
    is the one declaration the engine reads for every kind."""
    register_test("pair_default", needs="differences")(dummy_test)
    register_test("pair_by_name", needs="differences", by_default=False)(dummy_test)
    assert get_entry("pair_default").by_default == {"design": 0}
    assert get_entry("pair_by_name").by_default == {}

    def across(*, scores, alpha=0.05, alternative="two-sided"):
        return Bunch(statistic=1.0, pvalue=0.5, df=1, reject=False)

    register_test("across_by_name", needs="scores", kind="datasets")(across)
    old_spelling = {"control": 3}
    register_test("across_old", needs="scores", kind="datasets", defaults=old_spelling)(
        across
    )
    register_test("across_new", needs="scores", kind="datasets", by_default=True)(
        across
    )
    assert get_entry("across_by_name").by_default == {}  # as before
    assert get_entry("across_old").by_default == {"control": 3}
    assert get_entry("across_new").by_default == {"all_pairs": 0, "control": 0}
    assert _registry.default_tests("control", role="omnibus") == [
        "across_new",
        "friedman",
        "across_old",
    ]


def test_the_registry_is_what_summaries_and_reports_say(restore_registry):
    """A user's test declared not recommended, with its display name and
    rationale, is shown as the built-in ones are, from its declaration."""
    from sklearn.model_selection import KFold

    from sklearn_bcv import compare_predictions

    register_test(
        "shaky",
        needs="differences",
        design="any",
        display_name="shaky t test",
        rationale="a test for the sake of the example",
        not_recommended="it is made up",
    )(dummy_test)
    y = np.tile([0, 1], 20)
    splits = list(KFold(4).split(y))
    result = compare_predictions(
        y,
        [y[test] for _, test in splits],
        [1 - y[test] for _, test in splits],
        splits,
        tests=["corrected_t", "shaky"],
    )
    assert "Not shown, not recommended here: shaky" in str(result)
    assert "not recommended: it is made up" in result.summary(show="all")
    report = result.report()
    assert "shaky (for reference, not the basis of the verdict): a test for" in report
