"""Every public class and function of the client library says what it is for: a docstring each."""

from __future__ import annotations

import ast

from tests.conftest import ROOT


def undocumented() -> list[str]:
    missing = []
    for path in sorted((ROOT / "explorer" / "api").glob("*.py")):
        tree = ast.parse(path.read_text())

        def walk(node: ast.AST, prefix: str, path=path) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    if not child.name.startswith("_") and ast.get_docstring(child) is None:
                        missing.append(f"{path.name}:{child.lineno} {prefix}{child.name}")
                    if isinstance(child, ast.ClassDef):
                        walk(child, f"{prefix}{child.name}.")

        walk(tree, "")
    return missing


def test_every_public_class_and_function_of_the_library_has_a_docstring():
    assert undocumented() == []
