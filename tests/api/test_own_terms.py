"""The library speaks its own terms: no flag of the command line, no environment variable of the
explorer's, no page of the manual, in any module of explorer.api (code, strings, docstrings and
comments alike).

The library says what it knows as values (a failure's `setting`, a session's credentials and
backend, how writes were asked for); the command line, the screen and the login form word them
(explorer/display, explorer/commands/hint_words.py, explorer/tui/hint_words.py)."""

from __future__ import annotations

import re
from pathlib import Path

import explorer.api

LIBRARY = Path(explorer.api.__file__).parent
# A flag as a shell takes it (`--writes`, `--client-id`), not `---` nor a word-joined `a--b`; an
# environment variable of the explorer's (`EXPLORER_BASE_URL`, `EXPLORER_*`).
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
VARIABLE = re.compile(r"EXPLORER_\w*|EXPLORER_\*")
# A page of the manual, which an installed library does not have beside it.
DOCS_PAGE = re.compile(r"docs/[\w/-]+\.md")


def named(pattern: re.Pattern[str]) -> list[str]:
    """Each `file:line: match` in the library's source where the pattern occurs."""
    found = []
    for path in sorted(LIBRARY.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(LIBRARY)}:{number}: {match}" for match in pattern.findall(line)]
    return found


def test_the_library_names_no_flag_of_the_command_line():
    assert named(FLAG) == []


def test_the_library_names_no_environment_variable_of_the_explorers():
    assert named(VARIABLE) == []


def test_the_library_names_no_page_of_the_manual():
    assert named(DOCS_PAGE) == []


def test_the_scan_finds_what_it_looks_for(tmp_path):
    """The patterns catch a flag and a variable wherever they stand (a test that cannot fail is none)."""
    line = 'hint = "Set EXPLORER_BASE_URL, or give --base-url URL"  # (--writes)'
    assert FLAG.findall(line) == ["--base-url", "--writes"]
    assert VARIABLE.findall(line) == ["EXPLORER_BASE_URL"]
    assert FLAG.findall("a---b x--y ---") == []
    assert DOCS_PAGE.findall("(docs/configuration.md shows the shape)") == ["docs/configuration.md"]
