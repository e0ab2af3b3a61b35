"""Which part of explorer may import which: the contracts in pyproject.toml ([tool.importlinter]), kept.

import-linter checks them (`lint-imports` in .ci/run does the same); this runs them in the quick
suite, through import-linter's own entry point, and fails with its report: the contract broken and
the chain of imports that breaks it, module by module, with line numbers.
"""

from __future__ import annotations

import tomllib

import importlinter.api  # noqa: F401  (it configures import-linter's adapters, as lint-imports does)
import pytest
from importlinter.application.use_cases import lint_imports

from tests.conftest import ROOT


def contracts() -> list[dict]:
    """The contracts as pyproject.toml writes them."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_the_imports_keep_every_contract(capsys: pytest.CaptureFixture[str]):
    kept = lint_imports(str(ROOT / "pyproject.toml"), cache_dir=None, no_logo=True)
    report = capsys.readouterr().out
    assert kept, report
    assert f"Contracts: {len(contracts())} kept, 0 broken." in report


def test_every_folder_of_modules_is_a_package():
    """A folder without __init__.py is a namespace package, whose modules import-linter does not see:
    no contract would hold them (explorer/tui/screens and widgets were, 33 modules)."""
    folders = {path.parent for path in (ROOT / "explorer").rglob("*.py") if "__pycache__" not in path.parts}
    assert sorted(str(folder.relative_to(ROOT)) for folder in folders if not (folder / "__init__.py").exists()) == []


def test_the_layers_place_every_top_module_of_explorer():
    """`exhaustive` makes import-linter refuse a module at explorer's top that no layer names."""
    (layers,) = [contract for contract in contracts() if contract["type"] == "layers"]
    assert layers["exhaustive"] is True
    assert layers["containers"] == ["explorer"]
