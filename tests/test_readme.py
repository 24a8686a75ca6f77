"""README.rst and the CI script must give the same test command."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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


def test_readme_quick_start_runs(capsys):
    text = (ROOT / "README.rst").read_text(encoding="utf-8")
    block = text.split(".. code-block:: python\n\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if line and not line.startswith("    "):
            break
        lines.append(line[4:])
    namespace = {}
    exec(compile("\n".join(lines), "README.rst", "exec"), namespace)  # noqa: S102
    assert "bcv_mcnemar" in capsys.readouterr().out
    assert 0 <= namespace["result"].tests.bcv_mcnemar.pvalue <= 1
