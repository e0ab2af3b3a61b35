"""The three parts import one way: the screen talks to the library only, and the library knows no screen.

`explorer/tui` never imports httpx (the session gives what the screen needs: a resource's rate limit,
an exchange's path) nor the sandbox but through the demo; `explorer/api` imports neither Textual nor
the sandbox nor the screen.
"""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT


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


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("tui", ("httpx", "explorer.sandbox")),
        ("api", ("textual", "explorer.tui", "explorer.sandbox", "explorer.commands")),
    ],
)
def test_a_part_imports_only_what_is_below_it(package, forbidden):
    crossing = {
        module: sorted(name for name in names if name.split(".")[0] in forbidden or name.startswith(forbidden))
        for module, names in imports_of(package).items()
    }
    assert {module: names for module, names in crossing.items() if names} == {}
