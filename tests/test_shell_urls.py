"""A command shown to be pasted quotes a URL with a query: zsh takes an unquoted `?` for a pattern to
match against files (`zsh: no matches found: …/_sandbox/unavailable?count=3`), and bash may too.

Held for the banners of `explorer sandbox` and `explorer serve`, and for every page of the manual.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.classroom.command import banner as class_banner
from explorer.sandbox.command import banner as sandbox_banner
from explorer.sandbox.settings import Settings
from tests.manual import DOCS, page

UNQUOTED = re.compile(r"(?<!['\"])https?://[^\s'\"`]*\?")  # a URL with a query, no quote before it
COMMANDS = re.compile(r"\bcurl\b|\bexplorer\b|\bhttp(ie)?\b ")


def unquoted(text: str) -> list[str]:
    """The lines of `text` that run a command on a URL with a query left unquoted."""
    return [line for line in text.splitlines() if COMMANDS.search(line) and UNQUOTED.search(line)]


def test_the_check_finds_an_unquoted_query_and_passes_a_quoted_one():
    assert unquoted("    curl -X POST http://127.0.0.1:5555/_sandbox/unavailable?count=3") != []
    assert unquoted("    curl -X POST 'http://127.0.0.1:5555/_sandbox/unavailable?count=3'") == []
    assert unquoted("  Students open   http://192.0.2.7:8000/?key=k3y") == []  # an address for a browser


@pytest.mark.parametrize("scenario", [None, "outage"])
def test_the_class_banner_quotes_its_control_example(scenario):
    text = class_banner("http://192.0.2.7:8000", "k3y", 12, "http://127.0.0.1:5555", scenario)
    assert "curl -X POST 'http://127.0.0.1:5555/_sandbox/unavailable?count=3'" in text
    assert unquoted(text) == []


@pytest.mark.parametrize("versions", ["lenient", "strict"])
def test_the_sandbox_banner_quotes_its_urls(versions):
    settings = Settings(control=True, versions=versions, latency_ms=300, unavailable=3)
    text = sandbox_banner(settings, "https://127.0.0.1:8443", Path("/ca.pem"), "127.0.0.1")
    assert "?pretty=true'" in text
    assert unquoted(text) == []


@pytest.mark.parametrize("name", sorted(["README.md", *(path.name for path in DOCS.glob("*.md"))]))
def test_no_page_of_the_manual_shows_a_command_with_an_unquoted_query(name):
    assert unquoted(page(name)) == []
