"""The manual as the tests read it: the README (the front door) and the pages under docs/, so the
tests that hold a page true name the page and the heading they read."""

from __future__ import annotations

import re

from tests.conftest import ROOT

DOCS = ROOT / "docs"


def page(name: str) -> str:
    """A page of docs/ ("screen.md"), or the README ("README.md")."""
    path = ROOT / name if name == "README.md" else DOCS / name
    return path.read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """What a heading ("## Keys") holds: its text up to the next heading of its level or above,
    headings inside code blocks (a `# comment` in a shell example) not counted."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.rstrip("\n") == heading) + 1
    fenced = False
    for end in range(start, len(lines)):
        if lines[end].startswith("```"):
            fenced = not fenced
        found = re.match(r"(#+) ", lines[end])
        if not fenced and found and len(found.group(1)) <= level:
            return "".join(lines[start:end])
    return "".join(lines[start:])
