"""Reading the examples out of reStructuredText pages, for the tests that run
them (``test_readme.py``, ``test_docs.py``)."""

import ast


def indented_block(lines, start):
    """The lines of the indented block that follows line ``start`` (a
    directive or a line ending with ``::``), dedented."""
    block = []
    for line in lines[start + 1 :]:
        if line.strip() and not line.startswith(" "):
            break
        block.append(line)
    indents = [len(line) - len(line.lstrip()) for line in block if line.strip()]
    cut = min(indents, default=0)
    return "\n".join(line[cut:] for line in block).strip("\n") + "\n"


def python_blocks(text):
    """Each ``.. code-block:: python`` of ``text`` that is not a doctest
    (doctests run apart): a list of (line number, code)."""
    lines = text.splitlines()
    blocks = [
        (number + 1, indented_block(lines, number))
        for number, line in enumerate(lines)
        if line.strip() == ".. code-block:: python"
    ]
    return [(line, code) for line, code in blocks if ">>>" not in code]


def literal_blocks(text):
    """Each plain literal block of ``text`` (after a paragraph ending with
    ``::``): a list of (line number, contents)."""
    lines = text.splitlines()
    return [
        (number + 1, indented_block(lines, number))
        for number, line in enumerate(lines)
        if line.rstrip().endswith("::") and not line.lstrip().startswith("..")
    ]


def looks_like_python(code):
    """Whether a block is Python a reader would run: it parses and imports,
    assigns or calls something (a shell command or a CSV table does not
    parse; a lone name is not an example)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    return any(
        isinstance(node, ast.Import | ast.ImportFrom | ast.Assign | ast.With)
        or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call))
        for node in tree.body
    )
