"""README.rst: the CI script gives its test command, and its examples run and
print what they say."""

import ast
import contextlib
import io
import re
import tokenize
from pathlib import Path

from _rst import indented_block, python_blocks

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.rst").read_text(encoding="utf-8")
VENV_PREFIX = "python3 -m venv .venv && . .venv/bin/activate && "
CI_MARKER = "# --- README test command (keep identical to README.rst) ---"


def _readme_test_command():
    lines = (ROOT / "README.rst").read_text(encoding="utf-8").splitlines()
    start = lines.index("Run the tests")
    commands = [line.strip() for line in lines[start:] if "python -m pytest" in line]
    assert commands, "README.rst's 'Run the tests' section lost its command"
    return commands[0]


def _ci_test_command():
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return lines[lines.index(CI_MARKER) + 1]


def test_readme_test_command_is_the_ci_command():
    # The README creates and activates a virtual environment first (CI makes
    # its own); the rest of the line is byte-identical to the CI's.
    readme = _readme_test_command()
    assert readme.startswith(VENV_PREFIX)
    assert readme[len(VENV_PREFIX) :] == _ci_test_command()


def test_readme_main_job_command_installs_and_runs_the_package():
    text = (ROOT / "README.rst").read_text(encoding="utf-8")
    assert f"{VENV_PREFIX}python -m pip install . && python -m sklearn_bcv" in text


def readme_python_blocks():
    """Every ``.. code-block:: python`` of README.rst: (line number, code)."""
    return python_blocks(README)


def readme_file(name):
    """The literal block README.rst gives as the contents of ``name``."""
    lines = README.splitlines()
    (start,) = [
        i
        for i, line in enumerate(lines)
        if f"``{name}``" in line and line.endswith("::")
    ]
    return indented_block(lines, start)


def _claims(comment):
    """What a comment beside a ``print`` says the output holds: its numbers
    and its ``a > b`` verdicts."""
    numbers = re.findall(r"(?<![\w.×])\d+(?:\.\d+)?(?![\w.×])", comment)
    verdicts = re.findall(r"\w+ > \w+", comment)
    return numbers + verdicts


def _statements_with_comments(code):
    """Each top-level statement of ``code`` with the comment on its last line."""
    comments = {
        token.start[0]: token.string.lstrip("# ")
        for token in tokenize.generate_tokens(io.StringIO(code).readline)
        if token.type == tokenize.COMMENT
    }
    tree = ast.parse(code)
    return [
        (ast.Module(body=[node], type_ignores=[]), comments.get(node.end_lineno, ""))
        for node in tree.body
    ]


def test_readme_python_examples_run_and_print_what_they_say(tmp_path, monkeypatch):
    # Every Python block of the README runs, in order, in one session (as a
    # reader pastes them), in a folder holding the README's results.csv; a
    # ``print`` whose comment gives numbers or verdicts prints them.
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results.csv").write_text(readme_file("results.csv"))
    namespace = {}
    checked = 0
    for line, code in readme_python_blocks():
        for statement, comment in _statements_with_comments(code):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(statement, f"README.rst:{line}", "exec"), namespace)  # noqa: S102
            printed = " ".join(out.getvalue().split())
            for claim in _claims(comment) if out.getvalue() else []:
                assert claim in printed, (line, comment, claim, printed[:2000])
                checked += 1
    assert checked >= 4  # the p-value, the post hoc pair, the sequential run
    # The comments beside calls that print nothing, checked on the values.
    assert namespace["result"].decision == "A better"
    assert 0 <= namespace["many"].pairwise.bcv_mcnemar.pvalue_adjusted.min() <= 1
    errors = namespace["errors"]
    scores = namespace["table"]
    assert (
        errors.mean_ranks.tolist()
        == namespace["compare_scores"](scores).mean_ranks.tolist()
    )
    assert "knn" in namespace["study"].names


def test_readme_claims_are_checked():
    # The checker itself: numbers and verdicts of a comment, nothing else.
    assert _claims("Friedman p = 0.0113; Nemenyi: forest > bayes") == [
        "0.0113",
        "forest > bayes",
    ]
    assert _claims("A better 3 16") == ["3", "16"]
    assert _claims("the verdict first, then the tests apart") == []
    assert _claims("5×2 BCV McNemar's test") == []
