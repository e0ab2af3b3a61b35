"""docs/tests.md's counts of tests come from a command (`python -m tests.counts`), never by hand."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT, SLOW_KINDS
from tests.counts import table, tally
from tests.manual import page


class Item:
    """A collected test with the markers given."""

    def __init__(self, *markers: str) -> None:
        self.markers = markers

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


def test_each_kind_is_counted_and_what_the_quick_suite_leaves():
    counts = tally([Item(), Item("slow"), Item("screen", "slow"), Item("subprocess", "slow"), Item("sweep", "slow")])
    assert counts == {"tests": 5, "quick": 1, "browser": 0, "subprocess": 1, "sweep": 1, "screen": 1}
    assert table(counts | {"tests": 2273, "quick": 1621}) == (
        '2,273 tests; the quick suite (-m "not slow"): 1,621\n'
        "  browser         0\n"
        "  subprocess      1\n"
        "  sweep           1\n"
        "  screen          1"
    )


def test_the_tests_page_names_the_command_and_writes_no_count_of_its_own():
    tests = page("tests.md")
    assert "`python -m tests.counts`" in tests
    rows = re.findall(r"^\| `(\w+)` \|(.*)\|$", tests, re.M)
    assert sorted(kind for kind, _ in rows) == sorted(SLOW_KINDS)  # a row for each kind conftest.py marks slow
    assert [cells for _, cells in rows if re.search(r"\|\s*[\d,]+\s*$", cells)] == []  # no column of counts
    assert not re.search(r"\b\d[\d,]* of \d[\d,]* tests\b", tests)


@pytest.mark.subprocess
def test_the_command_counts_what_pytest_collects():
    run = subprocess.run(
        [sys.executable, "-m", "tests.counts", "tests/test_counts.py"],  # this file: its own three tests
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[:3] == [
        '3 tests; the quick suite (-m "not slow"): 2',
        "  browser         0",
        "  subprocess      1",
    ]
