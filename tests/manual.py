"""The manual as the tests read it: the README (the front door) and the pages under docs/, so the
tests that hold a page true name the page and the heading they read."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tests.conftest import ROOT

DOCS = ROOT / "docs"


def page(name: str) -> str:
    """A page of docs/ ("screen.md"), or the README ("README.md")."""
    path = ROOT / name if name == "README.md" else DOCS / name
    return path.read_text(encoding="utf-8")


def headings(text: str) -> Iterator[tuple[int, int, str]]:
    """Each heading as (line index, level, title), those inside code blocks (a `# comment` in a shell
    example) not counted."""
    fenced = False
    for index, line in enumerate(text.splitlines()):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (found := re.match(r"(#+) (.*)", line)):
            yield index, len(found.group(1)), found.group(2)


def section(text: str, heading: str) -> str:
    """What a heading ("## Keys") holds: its text up to the next heading of its level or above."""
    level = len(heading) - len(heading.lstrip("#"))
    title = heading.lstrip("#").strip()
    lines = text.splitlines(keepends=True)
    start = next(index for index, depth, name in headings(text) if depth == level and name == title) + 1
    end = next((index for index, depth, _ in headings(text) if index >= start and depth <= level), len(lines))
    return "".join(lines[start:end])
