"""Estimators of the command line: by import path, with JSON parameters.

Nothing the user types is evaluated as Python: an estimator is named by an
import path of dotted identifiers, its module is imported from the installed
environment only (never from the current directory, see
:func:`import_estimator_class`), its class must be a scikit-learn estimator,
and its parameters are a JSON object (:func:`json.loads`). The default
estimators of the main job live here too.
"""

import contextlib
import importlib
import importlib.machinery
import inspect
import io
import json
import os
import sys

from sklearn.base import BaseEstimator, clone, is_classifier, is_regressor

from ._args import CLIError

__all__ = [
    "add_preprocessing_arguments",
    "build_estimator",
    "check_estimator_task",
    "default_estimators",
    "estimator_name",
    "import_estimator_class",
    "installed_environment_only",
    "no_current_directory_imports",
    "parse_params",
    "preprocessing_steps",
    "seed_estimator",
    "with_preprocessor",
    "with_steps",
]


def parse_params(text, option):
    """Parse a JSON object of estimator parameters (json.loads only)."""
    if text is None:
        return {}
    try:
        params = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CLIError(f"{option}: not valid JSON ({exc.msg}): {text!r}") from None
    except RecursionError:
        raise CLIError(f"{option}: the JSON is nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise CLIError(f"{option}: not valid JSON ({exc})") from None
    if not isinstance(params, dict):
        raise CLIError(
            f"{option}: expected a JSON object like '{{\"C\": 1.0}}'; got {text!r}"
        )
    return params


def _is_current_directory(entry, cwd):
    """Whether the ``sys.path`` entry ``entry`` is the current directory."""
    if entry in ("", "."):
        return True
    try:
        return os.path.realpath(entry) == cwd
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def installed_environment_only():
    """Leave the current directory off ``sys.path`` in the block.

    ``python -m sklearn_bcv`` puts the current directory first on the path
    (``sklearn-bcv`` does not); it is taken off, and put back afterwards,
    so that a file in it is neither imported nor shadows an installed
    module: not the estimator modules the user names, nor what is imported
    lazily while the command runs (matplotlib for ``--plot``, ...).
    Modules Python imported before the command line ran (``sklearn_bcv``
    and what it imports) are out of its reach: ``sklearn-bcv`` or
    ``python -P -m sklearn_bcv`` (Python 3.11+) never look there.
    """
    try:
        cwd = os.path.realpath(os.getcwd())
    except OSError:  # the current directory was removed
        cwd = None
    removed = [
        (i, entry)
        for i, entry in enumerate(sys.path)
        if isinstance(entry, str) and _is_current_directory(entry, cwd)
    ]
    for i, _ in reversed(removed):
        del sys.path[i]
    try:
        yield
    finally:
        for i, entry in removed:
            sys.path.insert(i, entry)


@contextlib.contextmanager
def no_current_directory_imports():
    """While the command runs: nothing is imported from the current
    directory, in this process (:func:`installed_environment_only`) nor in
    the worker processes joblib starts (``python -m ...``, which would put
    the current directory first on their path): ``PYTHONSAFEPATH=1`` in
    their environment tells them not to (Python 3.11 and later)."""
    saved = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        with installed_environment_only():
            yield
    finally:
        if saved is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = saved


def _in_current_directory(top):
    """Whether the top-level module ``top`` is in the current directory
    (looked up there only, without importing anything)."""
    try:
        return importlib.machinery.PathFinder.find_spec(top, [os.getcwd()]) is not None
    except (ImportError, OSError, ValueError):
        return False


def import_estimator_class(path, option, *, stdout=None):
    """Import the class at ``path`` and check it is a scikit-learn estimator.

    Importing runs the module's code (that is what naming a module asks
    for), but nothing else: ``path`` must be dotted identifiers; the module
    must be importable from the installed environment (site-packages, the
    standard library, ``PYTHONPATH``), never from the current directory,
    which is taken off ``sys.path`` while importing (``python -m`` puts it
    there); and anything the module prints goes to ``stdout`` (stderr, or
    nowhere with ``--quiet``) so the requested output stays clean.
    """
    module_name, _, class_name = path.rpartition(".")
    if (
        not module_name
        or not class_name.isidentifier()
        or not all(part.isidentifier() for part in module_name.split("."))
    ):
        raise CLIError(
            f"{option}: expected an import path such as sklearn.svm.SVC; got {path!r}"
        )
    top = module_name.partition(".")[0]
    # What the module prints while importing (to stdout or stderr) is held
    # back, and passed on only if the import succeeds: a module that fails
    # (or exits, printing its usage) ends in one error line.
    printed = io.StringIO()
    try:
        with (
            installed_environment_only(),
            contextlib.redirect_stdout(printed),
            contextlib.redirect_stderr(printed),
        ):
            module = importlib.import_module(module_name)
    except SystemExit as exc:  # a script's module (unittest.__main__)
        raise CLIError(
            f"{option}: importing module {module_name!r} made it exit "
            f"(sys.exit({exc.code!r})); it is a script, not a module of "
            "estimators"
        ) from None
    except ImportError as exc:
        if exc.name == top and _in_current_directory(top):
            raise CLIError(
                f"{option}: module {top!r} is only in the current directory, and "
                "nothing is imported from there; install it (pip install -e), or "
                "run from another directory with its directory on PYTHONPATH"
            ) from None
        raise CLIError(
            f"{option}: cannot import module {module_name!r} ({exc})"
        ) from None
    except Exception as exc:  # the module's own code failed while importing
        raise CLIError(
            f"{option}: importing module {module_name!r} failed "
            f"({type(exc).__name__}: {exc})"
        ) from None
    (stdout or sys.stderr).write(printed.getvalue())
    cls = getattr(module, class_name, None)
    if cls is None:
        raise CLIError(f"{option}: module {module_name!r} has no {class_name!r}")
    if not (
        inspect.isclass(cls) and issubclass(cls, BaseEstimator) and hasattr(cls, "fit")
    ):
        raise CLIError(f"{option}: {path} is not a scikit-learn estimator class")
    return cls


def default_estimators(task, random_state):
    """The default estimators for ``task``, as ``[(name, estimator), ...]``.

    The first two are the main job's A and B (``compare``); ``many``
    compares all four. Each fits in well under a second on the bundled data
    sets; the randomised ones are seeded with ``random_state``.
    """
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    if task == "regression":
        from sklearn.ensemble import RandomForestRegressor
        from sklearn.linear_model import Ridge
        from sklearn.neighbors import KNeighborsRegressor
        from sklearn.tree import DecisionTreeRegressor

        estimators = [
            make_pipeline(StandardScaler(), Ridge()),
            RandomForestRegressor(n_estimators=50, random_state=random_state),
            DecisionTreeRegressor(random_state=random_state),
            make_pipeline(StandardScaler(), KNeighborsRegressor()),
        ]
    else:
        from sklearn.ensemble import RandomForestClassifier
        from sklearn.linear_model import LogisticRegression
        from sklearn.naive_bayes import GaussianNB
        from sklearn.tree import DecisionTreeClassifier

        estimators = [
            make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
            RandomForestClassifier(n_estimators=50, random_state=random_state),
            DecisionTreeClassifier(random_state=random_state),
            GaussianNB(),
        ]
    return [(estimator_name(estimator), estimator) for estimator in estimators]


def build_estimator(
    path,
    params,
    *,
    default=None,
    option,
    params_option,
    stdout=None,
    random_state=None,
):
    """Instantiate the class at ``path`` with ``params``, or use ``default``.

    ``params`` (a dict, from :func:`parse_params`) sets parameters of the
    named class; for a default that is a pipeline (a scaled linear model)
    they go to its final estimator, so ``{"C": 10}`` works on the default
    logistic regression as on any classifier. ``random_state`` (None: left
    alone) seeds every ``random_state`` parameter of the estimator, nested
    ones included (:func:`seed_estimator`), before ``params``, so a seed the
    user gives in ``params`` wins. ``option`` and ``params_option`` name
    the options in error messages.
    """
    if path is None:
        estimator = default
        target = default[-1] if hasattr(default, "steps") else default
    else:
        cls = import_estimator_class(path, option, stdout=stdout)
        try:
            estimator = target = cls()
        except Exception as exc:  # abstract classes, required arguments
            raise CLIError(
                f"{option}: cannot create {path}() without arguments "
                f"({type(exc).__name__}: {exc})"
            ) from None
    if not hasattr(estimator, "predict"):
        raise CLIError(
            f"{option}: {type(estimator).__name__} has no predict method; "
            "give a classifier or a regressor"
        )
    if random_state is not None:
        seed_estimator(estimator, random_state)
    if params:
        try:
            target.set_params(**params)
        except ValueError as exc:
            raise CLIError(f"{params_option}: {exc}") from None
    return estimator


def seed_estimator(estimator, random_state):
    """Set every ``random_state`` parameter of ``estimator`` to
    ``random_state``: its own and those of the estimators it holds
    (pipeline steps, a meta-estimator's estimator, ...), every key of
    ``get_params(deep=True)`` that is ``random_state`` or ends with
    ``__random_state``. Returns the estimator (changed in place)."""
    keys = [
        key
        for key in estimator.get_params(deep=True)
        if key == "random_state" or key.endswith("__random_state")
    ]
    # outer keys first: setting an inner key after its estimator is final
    for key in sorted(keys, key=lambda key: key.count("__")):
        estimator.set_params(**{key: random_state})
    return estimator


#: What ``--scale`` puts in front of each estimator.
SCALER = "sklearn.preprocessing.StandardScaler"


def add_preprocessing_arguments(group):
    """``--scale`` and ``--preprocess``: steps in front of every estimator."""
    group.add_argument(
        "--scale",
        action="store_true",
        help="put a StandardScaler in front of every estimator "
        "(make_pipeline(StandardScaler(), estimator), fitted on each training "
        "set; the default estimators that need it are scaled already)",
    )
    group.add_argument(
        "--preprocess",
        metavar="IMPORT.PATH",
        action="append",
        default=None,
        help="a transformer class put, with its default parameters and "
        "seeded by --random-state, in front of every estimator, e.g. "
        "sklearn.preprocessing.MinMaxScaler; repeat it for a chain (after "
        "--scale's StandardScaler, in the order given)",
    )


def preprocessing_steps(args, stdout=None):
    """The transformers of ``--scale`` and ``--preprocess`` (a list, empty
    without them), each checked to be a transformer and seeded with
    ``--random-state``."""
    paths = [SCALER] if getattr(args, "scale", False) else []
    paths += getattr(args, "preprocess", None) or []
    steps = []
    for path in paths:
        cls = import_estimator_class(path, "--preprocess", stdout=stdout)
        try:
            step = cls()
        except Exception as exc:  # required arguments
            raise CLIError(
                f"--preprocess: cannot create {path}() without arguments "
                f"({type(exc).__name__}: {exc})"
            ) from None
        if not (hasattr(step, "fit") and hasattr(step, "transform")):
            raise CLIError(
                f"--preprocess: {path} is not a transformer (it has no transform "
                "method); give a class such as sklearn.preprocessing.MinMaxScaler"
            )
        steps.append(seed_estimator(step, args.random_state))
    return steps


def _leading_classes(estimator, n):
    from sklearn.pipeline import Pipeline

    if not isinstance(estimator, Pipeline):
        return []
    return [type(step) for _, step in estimator.steps[:n]]


def with_steps(estimator, steps):
    """``estimator`` behind clones of ``steps`` (a pipeline), unless it is a
    pipeline that starts with those steps' classes already (the default
    scaled models under ``--scale``)."""
    if not steps:
        return estimator
    if _leading_classes(estimator, len(steps)) == [type(step) for step in steps]:
        return estimator
    from sklearn.pipeline import make_pipeline

    return make_pipeline(*(clone(step) for step in steps), estimator)


def check_estimator_task(estimator, task, option):
    """Refuse a regressor on a categorical target and the converse."""
    if task == "classification" and is_regressor(estimator):
        raise CLIError(
            f"{option}: {type(estimator).__name__} is a regressor but "
            "the target is categorical"
        )
    if task == "regression" and is_classifier(estimator):
        raise CLIError(
            f"{option}: {type(estimator).__name__} is a classifier but "
            "the target is continuous"
        )


def with_preprocessor(estimator, preprocessor):
    """``estimator`` behind a clone of ``preprocessor`` (None: unchanged)."""
    if preprocessor is None:
        return estimator
    from sklearn.pipeline import make_pipeline

    return make_pipeline(clone(preprocessor), estimator)


def estimator_name(estimator):
    """The class name of ``estimator`` (of a pipeline's final step)."""
    from sklearn.pipeline import Pipeline

    while isinstance(estimator, Pipeline):
        estimator = estimator.steps[-1][1]
    return type(estimator).__name__


# --------------------------------------------------------------------------
# Two estimators, A and B (``compare`` and ``sequential``)


def add_pair_estimator_arguments(parser):
    """``--estimator-a``, ``--params-a``, ``--estimator-b``, ``--params-b``."""
    models = parser.add_argument_group("estimators")
    for side, default in (
        ("a", "a scaled LogisticRegression (Ridge for regression)"),
        (
            "b",
            "RandomForestClassifier(n_estimators=50) "
            "(RandomForestRegressor for regression)",
        ),
    ):
        models.add_argument(
            f"--estimator-{side}",
            metavar="IMPORT.PATH",
            default=None,
            help=f"import path of estimator {side.upper()}'s class, e.g. "
            "sklearn.svm.SVC; its module is imported from the installed "
            f"environment, never the current directory (default: {default})",
        )
        models.add_argument(
            f"--params-{side}",
            metavar="JSON",
            default=None,
            help=f"constructor parameters of estimator {side.upper()} as a JSON "
            "object, e.g. '{\"C\": 10}' (for a default pipeline: of its "
            "final estimator)",
        )
    add_preprocessing_arguments(models)


def build_pair_estimators(args, data, stderr):
    """``((estimator_a, estimator_b), names)`` from the options: built,
    checked against the task, behind the data's preprocessor; the names are
    the class names (``A (X)``/``B (X)`` when they are the same)."""
    from ._output import chatter

    (_, default_a), (_, default_b), *_ = default_estimators(
        data.task, args.random_state
    )
    steps = preprocessing_steps(args, chatter(args, stderr))
    estimators = []
    for side, path, params_text, default in (
        ("a", args.estimator_a, args.params_a, default_a),
        ("b", args.estimator_b, args.params_b, default_b),
    ):
        params = parse_params(params_text, f"--params-{side}")
        estimator = build_estimator(
            path,
            params,
            default=default,
            option=f"--estimator-{side}",
            params_option=f"--params-{side}",
            stdout=chatter(args, stderr),
            random_state=args.random_state,
        )
        check_estimator_task(estimator, data.task, f"--estimator-{side}")
        estimators.append(with_steps(estimator, steps))
    names = tuple(estimator_name(estimator) for estimator in estimators)
    if names[0] == names[1]:
        names = (f"A ({names[0]})", f"B ({names[1]})")
    pair = tuple(with_preprocessor(e, data.preprocessor) for e in estimators)
    return pair, names
