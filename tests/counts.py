"""How many tests there are, of each kind, and how many the quick suite runs: docs/tests.md's figures.

    python -m tests.counts               # the whole suite
    python -m tests.counts tests/api     # a folder, a file: what pytest would collect from them

It collects the tests as pytest does (a few seconds, nothing run) and counts them by marker: every
kind tests/conftest.py also marks `slow` (SLOW_KINDS), and what `-m "not slow"` leaves.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterable, Sequence
from typing import Protocol

import pytest

from tests.conftest import SLOW_KINDS


class Marked(Protocol):
    """What a collected test is asked here: its closest marker of a name (pytest.Item has it)."""

    def get_closest_marker(self, name: str) -> object | None: ...


def tally(items: Iterable[Marked]) -> dict[str, int]:
    """Count the tests: all of them, the quick suite's (not slow), and each slow kind's.

    Args:
        items: The collected tests.

    Returns:
        `tests`, `quick` and each of SLOW_KINDS, with how many tests.
    """
    counts = dict.fromkeys(("tests", "quick", *SLOW_KINDS), 0)
    for item in items:
        counts["tests"] += 1
        counts["quick"] += item.get_closest_marker("slow") is None
        for kind in SLOW_KINDS:
            counts[kind] += item.get_closest_marker(kind) is not None
    return counts


def table(counts: dict[str, int]) -> str:
    """Write the counts as docs/tests.md names them.

    Args:
        counts: What `tally` returns.

    Returns:
        A line for the suite and the quick suite, then a line a kind.
    """
    lines = [f'{counts["tests"]:,} tests; the quick suite (-m "not slow"): {counts["quick"]:,}']
    lines += [f"  {kind:<11} {counts[kind]:>5,}" for kind in SLOW_KINDS]
    return "\n".join(lines)


class Collected:
    """A pytest plugin that keeps the tests collected, once conftest.py has marked them."""

    def __init__(self) -> None:
        self.items: list[pytest.Item] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.items = list(session.items)


def main(arguments: Sequence[str]) -> int:
    """Collect the tests the arguments name (all of them when none) and print how many of each kind.

    Args:
        arguments: pytest's arguments: folders, files.

    Returns:
        The exit code: pytest's when collecting failed, else 0.
    """
    collected = Collected()
    with contextlib.redirect_stdout(io.StringIO()) as said:
        code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *arguments], plugins=[collected])
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        sys.stderr.write(said.getvalue())
        return int(code)
    print(table(tally(collected.items)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
