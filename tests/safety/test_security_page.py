"""The security page keeps its word: every promise names the test that holds it, and that test exists.

docs/security.md lists each promise with a test as `tests/…/test_file.py::test_name`. A promise whose
test is renamed or deleted fails here, so the page cannot go on citing a test that no longer holds it.
"""

from __future__ import annotations

import ast
import re

from tests.conftest import ROOT
from tests.manual import page

CITED = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def defined_tests(path: str) -> set[str]:
    """The names of the test functions (at any depth: classes too) a test file defines."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")
    }


def test_every_test_the_security_page_cites_exists():
    cited = CITED.findall(page("security.md"))
    assert len(cited) >= 20, "the page cites a test for each promise"
    missing = [
        f"{path}::{name}" for path, name in cited if not (ROOT / path).is_file() or name not in defined_tests(path)
    ]
    assert missing == []


def test_every_safety_test_file_is_cited_by_the_security_page():
    cited = {path for path, _ in CITED.findall(page("security.md"))}
    files = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests" / "safety").glob("test_*.py"))
    assert [name for name in files if name not in cited and not name.endswith("test_security_page.py")] == []
