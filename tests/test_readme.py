"""The README's quick start stays true: two commands, and CI runs what the second one says."""

from __future__ import annotations

import re

from tests.conftest import ROOT


def quick_start() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the quick start has a sh code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_the_quick_start_is_exactly_two_commands():
    first, second = quick_start()
    assert "pip install" in first and "explorer" in first.rsplit("&&", 1)[1]
    assert "pip install -e '.[test]'" in second and "pytest" in second


def test_ci_runs_the_readme_install_and_test_commands():
    ci = (ROOT / ".ci" / "run").read_text()
    _, second = quick_start()
    for step in (part.strip() for part in second.split("&&")):
        assert step in ci, step
