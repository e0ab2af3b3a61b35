"""The code's "spec 2.5" references point at sections of the specification shipped in docs/spec.md."""

from __future__ import annotations

import ast
import re

import pytest

from tests.conftest import ROOT

SPEC = ROOT / "docs" / "spec.md"
REFERENCE = re.compile(r"\bspec (\d+(?:\.\d+)?)\b", re.IGNORECASE)


def sections() -> set[str]:
    """Every number a reference may name: "## 5." and "### 2.5" headings, and "5.3" for item 3 of 5."""
    found: set[str] = set()
    chapter = ""
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#{2,3} (\d+(?:\.\d+)?)\.? ", line)
        if heading:
            found.add(heading.group(1))
            chapter = heading.group(1).split(".")[0]
            continue
        item = re.match(r"(\d+)\. ", line)
        if item and chapter:
            found.add(f"{chapter}.{item.group(1)}")
    return found


def test_every_spec_reference_in_the_code_names_a_section_of_docs_spec_md():
    known = sections()
    assert {"2.5", "4.4", "5", "5.3", "9"} <= known  # the reader itself works
    dangling = [
        f"{path.relative_to(ROOT)}: spec {number}"
        for path in sorted((ROOT / "explorer").rglob("*.py"))
        for number in REFERENCE.findall(path.read_text(encoding="utf-8"))
        if number not in known
    ]
    assert not dangling, dangling


def shown_strings() -> list[tuple[str, int, str]]:
    """Every string of the code that is not a docstring (what the screen, stderr or the service may
    show), with its file and line: f-strings by their literal parts."""
    found = []
    for path in sorted((ROOT / "explorer").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        found += [
            (str(path.relative_to(ROOT)), node.lineno, node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        ]
    return found


@pytest.mark.slow
def test_spec_sections_and_markdown_quotes_stay_out_of_what_the_program_says():
    """A section number ("spec 4.5") means nothing to a newcomer, and `code` shows its backticks on a
    terminal: they are for comments, docstrings and the docs."""
    strings = shown_strings()
    assert any("Nothing can be written here" in text for _path, _line, text in strings)  # the reader works
    said = [
        f"{path}:{line}: {text!r}"
        for path, line, text in strings
        if REFERENCE.search(text) or re.search(r"`[^`\s][^`]*`", text)
    ]
    assert not said, said


def test_the_readme_links_the_shipped_spec_not_a_folder_beside_the_clone():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    assert "(docs/spec.md)" in readme
