"""The benchmarks are run by hand, not by the suite: each must at least import, or it rots unseen
(description_load.py imported a helper that issue 12 had removed)."""

from __future__ import annotations

import importlib

import pytest

from tests.conftest import ROOT

BENCHMARKS = sorted(path.stem for path in (ROOT / "tests" / "benchmarks").glob("*.py") if path.stem != "__init__")


def test_the_benchmarks_are_found():
    assert {"description_load", "tui_performance", "client_throughput"} <= set(BENCHMARKS)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_benchmark_imports(name):
    module = importlib.import_module(f"tests.benchmarks.{name}")
    assert module.__doc__, f"{name} says what it measures"
