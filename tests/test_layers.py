"""What the import contracts cannot say: no circular import, module by module; every long module
says why it is one; what the screen loads as it starts; the library's tests collected without Textual.

Which part may import which is pyproject.toml's [tool.importlinter] contracts, which import-linter
checks (tests/test_contracts.py, and `lint-imports` in .ci/run).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib

import grimp
import pytest

from tests.conftest import ROOT

# What .ci/run runs on the other Pythons, in a virtual environment without the screen's stack.
LIBRARY_TESTS = ["tests/api", "tests/sandbox"]


def circles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Each import that closes a circle: (importer, imported) where the module imported imports the
    importer back, directly or through others. (import-linter's acyclic_siblings contract says it of
    packages, not modules; and the screen's packages import each other on purpose: screens/main.py
    imports write_flow.py, which opens the editor in screens/editor.py.)"""
    return sorted(
        (module, imported)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if graph.chain_exists(importer=imported, imported=module)
    )


def test_no_module_imports_itself_round_about():
    """Imports inside functions and under TYPE_CHECKING count: where a lower module needs a higher
    one's type, it names a protocol of its own."""
    assert circles(grimp.build_graph("explorer", cache_dir=None)) == []


def test_a_circle_through_other_modules_would_be_found():
    graph = grimp.ImportGraph()
    for importer, imported in [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]:
        graph.add_import(importer=importer, imported=imported)
    assert circles(graph) == [("a", "b"), ("b", "c"), ("c", "a")]


def lines_of_code(text: str) -> int:
    """A module's lines but its docstrings': a reference page's Args and Returns make no module long."""
    tree = ast.parse(text)
    documented = {
        line
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
        for line in range(node.body[0].lineno, (node.body[0].end_lineno or node.body[0].lineno) + 1)
    }
    return text.count("\n") - len(documented)


# Modules longer than LONG lines of code, each with the reason its docstring gives for staying one module.
LONG = 350
LONG_ON_PURPOSE = {
    "explorer/api/errors.py": "the hints live beside",
    "explorer/api/description.py": "what all\nfour agree on",
    "explorer/api/resource.py": "only ever made from one",
    "explorer/api/session.py": "The rest lives in modules beside this one",
    "explorer/tui/navigation.py": "one state machine",
    "explorer/tui/screens/main.py": "Most of this module is key handling",
    "explorer/tui/widgets/status_bar.py": "one decision",
    "explorer/sandbox/command.py": "the banner echoes the flags",
    "explorer/tui/app.py": "the app's wiring",
    "explorer/tui/screens/dialogs.py": "Several small dialogs sharing one CSS",
    "explorer/tui/widgets/json_view.py": "It is one view",
    "explorer/tui/widgets/line_tree.py": "one widget's",
}


@pytest.mark.slow
def test_a_long_module_says_why_it_is_one():
    long = {}
    for path in sorted((ROOT / "explorer").rglob("*.py")):
        text = path.read_text()
        if lines_of_code(text) > LONG:
            long[str(path.relative_to(ROOT))] = ast.get_docstring(ast.parse(text)) or ""
    unexplained = sorted(name for name in long if name not in LONG_ON_PURPOSE)
    assert not unexplained, f"over {LONG} lines: split them, or say why in the docstring and list them here"
    for name, reason in LONG_ON_PURPOSE.items():
        if name in long:
            assert reason in long[name], f"{name}'s docstring no longer says why it is long"


@pytest.mark.subprocess
def test_the_screen_starts_without_what_its_first_screen_does_not_need():
    """Launch time (issue 24): the screen on a service, as `explorer` builds it, loads neither the
    sandbox's server and world (Starlette, the seed) nor the write screens (the act list, the editor,
    the preview)."""
    program = (
        "import sys\n"
        "from explorer.cli import parser\n"
        "from explorer.launch import build\n"
        "build(parser().parse_args(['--base-url', 'https://service.example/api/atlas/v2']))\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT, timeout=60
    ).stdout.split()
    assert "explorer.tui.screens.main" in loaded  # what the first screen is made of, loaded
    unwanted = ("starlette", "explorer.sandbox.world", "explorer.sandbox.seed", "explorer.tui.screens.editor")
    unwanted += ("explorer.tui.screens.act", "explorer.tui.screens.preview")
    assert [name for name in loaded if name.startswith(unwanted)] == []


def forbidden_to(source_modules: list[str]) -> list[str]:
    """What pyproject.toml's import contract for those modules forbids them."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (contract,) = [contract for contract in contracts if contract.get("source_modules") == source_modules]
    return contract["forbidden_modules"]


# The screen's stack by import name: what the library and the sandbox may not import (a contract).
SCREEN_STACK = forbidden_to(["explorer.api", "explorer.sandbox"])


def test_the_library_and_sandbox_tests_may_import_nothing_the_library_may_not_nor_the_screen():
    """Their contract forbids them the screen's stack and the screen, directly (tests/api/test_hints.py
    once worded a hint with explorer.tui's words: its collection needed no Textual, but the test was
    the screen's)."""
    forbidden = forbidden_to([test.replace("/", ".") for test in LIBRARY_TESTS])
    assert set(SCREEN_STACK) | {"explorer.tui", "explorer.classroom", "explorer.launch"} == set(forbidden)
    assert {"textual", "rich", "textual_serve"} <= set(SCREEN_STACK)


@pytest.mark.subprocess
def test_the_library_and_sandbox_tests_run_without_textual():
    """.ci/run gives the other Pythons the library's and the sandbox's tests in a virtual environment
    without Textual or the rest of the screen's stack (the list its requirements leave out): collecting
    them, conftest.py files and what they import through explorer too, must not need any of it."""
    blocked = f"import sys; sys.modules.update(dict.fromkeys({SCREEN_STACK!r})); import pytest; "
    run = subprocess.run(
        [sys.executable, "-c", blocked + "sys.exit(pytest.main(['--collect-only', '-q', '-p', 'no:cacheprovider', "
         "'-p', 'no:textual-snapshot', *sys.argv[1:]]))", *LIBRARY_TESTS],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert re.search(r"^\d{3,} tests collected", run.stdout, re.M), run.stdout[-500:]


def test_ci_gives_the_other_pythons_the_library_and_sandbox_tests():
    assert f"pytest -n auto --dist worksteal {' '.join(LIBRARY_TESTS)}" in (ROOT / ".ci" / "run").read_text()
