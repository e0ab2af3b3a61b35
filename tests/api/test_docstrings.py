"""Every public class and function of the client library says what it is for: a docstring each."""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

import explorer.api as api
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


# What ruff's pydocstyle rules (pyproject.toml) cannot say: D417 checks the parameters an `Args:`
# section names, but not that a function with parameters has one, nor that one returning a value
# has `Returns:`. The reference pages (docs/reference.md) render these sections as tables.
SECTION = re.compile(r"^(\w+):$")
ENTRY = re.compile(r"^    (\**\w+)(?: \([^)]*\))?:")
NOTHING = {"None", "NoReturn"}


def sections(docstring: str) -> dict[str, list[str]]:
    """The Google-style sections of a docstring, each with the names its entries document."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in inspect.cleandoc(docstring).splitlines():
        if SECTION.match(line):
            current = found.setdefault(line[:-1], [])
        elif line and not line.startswith(" "):
            current = None
        elif current is not None and (entry := ENTRY.match(line)):
            current.append(entry.group(1).lstrip("*"))
    return found


def parameters(function: Callable[..., Any]) -> list[str]:
    """The names a caller passes, self and cls aside."""
    return [name for name in inspect.signature(function).parameters if name not in ("self", "cls")]


def public_face() -> Iterator[tuple[str, Any, bool]]:
    """Each class of `explorer.api.__all__` (its constructor) and its public methods and properties.

    Yields:
        The dotted name, the object, and whether it is a property (one line may do).
    """
    for name in api.__all__:
        cls = getattr(api, name)
        yield name, cls, False
        fields = {field.name for field in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
        for owner in cls.__mro__:
            if not owner.__module__.startswith("explorer.api"):
                continue
            for member, value in vars(owner).items():
                if member.startswith("_") or member in fields:
                    continue
                if isinstance(value, property | functools.cached_property):
                    yield f"{name}.{member}", value, True
                elif isinstance(value, classmethod | staticmethod):
                    yield f"{name}.{member}", value.__func__, False
                elif inspect.isfunction(value):
                    yield f"{name}.{member}", value, False


def undocumented_sections() -> list[str]:
    missing = []
    for name, value, is_property in public_face():
        found = sections(inspect.getdoc(value) or "")
        if inspect.isclass(value):
            # As mkdocs.yml merges __init__ into the class: its parameters in either docstring.
            own_init = sections(inspect.getdoc(value.__init__) or "") if "__init__" in vars(value) else {}
            named = found.get("Args", []) + found.get("Attributes", []) + own_init.get("Args", [])
            missing += [
                f"{name}: {parameter} not in Args or Attributes"
                for parameter in parameters(value)
                if parameter not in named
            ]
            continue
        if is_property:
            continue
        missing += [
            f"{name}: {parameter} not in Args"
            for parameter in parameters(value)
            if parameter not in found.get("Args", [])
        ]
        returned = inspect.signature(value).return_annotation
        if returned is inspect.Signature.empty or str(returned) in NOTHING:
            continue
        section = "Yields" if inspect.isgeneratorfunction(value) or inspect.isasyncgenfunction(value) else "Returns"
        if section not in found:
            missing.append(f"{name}: no {section}")
    return missing


def test_the_public_face_documents_every_parameter_and_what_it_returns():
    assert undocumented_sections() == []


def test_the_check_reads_google_sections():
    def example(count: int, *names: str, deep: bool = False) -> str:
        """Join some names.

        Args:
            count: How many.
            *names: The names.
            deep (bool): Whether deeply.

        Returns:
            The names, joined.
        """
        return ""

    assert sections(example.__doc__ or "") == {"Args": ["count", "names", "deep"], "Returns": []}
    assert parameters(example) == ["count", "names", "deep"]
