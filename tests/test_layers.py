"""The three parts import one way: the screen talks to the library only, and the library knows no screen.

`explorer/tui` never imports httpx (the session gives what the screen needs: a resource's rate limit,
an exchange's path) nor the sandbox but through the demo; `explorer/api` imports neither Textual nor
the sandbox nor the screen.
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

# What .ci/run runs on the other Pythons, in a virtual environment without the screen's stack.
LIBRARY_TESTS = ["tests/api", "tests/sandbox"]


def imports_of(package: str) -> dict[str, set[str]]:
    """module path -> the top modules it imports (at any level: function-local imports count)."""
    found = {}
    for path in sorted((ROOT / "explorer" / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("tui", ("httpx", "explorer.sandbox", "explorer.classroom", "textual_serve")),
        ("api", ("textual", "explorer.tui", "explorer.sandbox", "explorer.commands", "explorer.classroom")),
        ("sandbox", ("textual", "explorer.api", "explorer.tui", "explorer.classroom", "textual_serve")),
    ],
)
def test_a_part_imports_only_what_is_below_it(package, forbidden):
    crossing = {
        module: sorted(name for name in names if name.split(".")[0] in forbidden or name.startswith(forbidden))
        for module, names in imports_of(package).items()
    }
    assert {module: names for module, names in crossing.items() if names} == {}


@functools.cache
def module_graph() -> dict[str, set[str]]:
    """explorer's modules -> the explorer modules each imports (function-local and TYPE_CHECKING ones too)."""
    modules = {}
    for path in (ROOT / "explorer").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:  # `from explorer.sandbox import oauth` is the module oauth
                    inner = f"{node.module}.{alias.name}"
                    found.add(inner if inner in modules else node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {other for other in found if other in modules and other not in (name, "explorer")}
    return graph


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports, directly or through the modules it imports."""
    seen: set[str] = set()
    waiting = [start]
    while waiting:
        for other in graph[waiting.pop()] - seen:
            seen.add(other)
            waiting.append(other)
    return seen


ABOVE_THE_LIBRARY = ("explorer.tui", "explorer.commands", "explorer.classroom", "explorer.sandbox")
WIRING = ("explorer.cli", "explorer.launch", "explorer.connection", "explorer.demo")


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("explorer.tui", ("explorer.sandbox", "explorer.commands", "explorer.classroom", *WIRING)),
        ("explorer.api", (*ABOVE_THE_LIBRARY, *WIRING)),
        ("explorer.sandbox", ("explorer.api", "explorer.tui", "explorer.commands", "explorer.classroom", *WIRING)),
    ],
)
def test_a_part_reaches_nothing_above_it_even_through_other_modules(package, forbidden):
    """The wiring (what opens a session on the sandbox for --demo) lives beside cli.py, so the screen
    never reaches the sandbox, not even through a module of its own that imports one that does."""
    graph = module_graph()
    crossing = {
        module: sorted(other for other in reached(graph, module) if other.startswith(forbidden))
        for module in graph
        if module == package or module.startswith(package + ".")
    }
    assert {module: found for module, found in crossing.items() if found} == {}


def test_a_reach_through_another_module_would_be_found():
    graph = {"explorer.tui.a": {"explorer.tui.b"}, "explorer.tui.b": {"explorer.demo"}, "explorer.demo": set()}
    assert reached(graph, "explorer.tui.a") == {"explorer.tui.b", "explorer.demo"}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules in a circular import: each imports the next, directly or through
    others, and the last the first (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in graph[module]:
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


@pytest.mark.slow
def test_no_module_imports_itself_round_about():
    assert circles(module_graph()) == []


def test_a_circle_would_be_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


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
    "explorer/api/session.py": "What is not HTTP is beside it",
    "explorer/tui/navigation.py": "one state machine",
    "explorer/tui/screens/main.py": "Its length is its keys",
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


@pytest.mark.subprocess
def test_the_library_and_sandbox_tests_run_without_textual():
    """.ci/run gives the other Pythons the library's and the sandbox's tests in a virtual environment
    without Textual or the rest of the screen's stack (the list its requirements leave out): collecting
    them must not need any of it."""
    screen = ["textual", "textual_serve", "rich", "aiohttp", "aiohttp_jinja2", "jinja2", "segno", "tree_sitter", "pyte"]
    blocked = f"import sys; sys.modules.update(dict.fromkeys({screen!r})); import pytest; "
    run = subprocess.run(
        [sys.executable, "-c", blocked + "sys.exit(pytest.main(['--collect-only', '-q', '-p', 'no:cacheprovider', "
         "'-p', 'no:textual-snapshot', *sys.argv[1:]]))", *LIBRARY_TESTS],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert re.search(r"^\d{3,} tests collected", run.stdout, re.M), run.stdout[-500:]


def test_ci_gives_the_other_pythons_the_library_and_sandbox_tests():
    assert f"pytest -n auto --dist worksteal {' '.join(LIBRARY_TESTS)}" in (ROOT / ".ci" / "run").read_text()
