"""The code's "spec 2.5" references point at sections of the specification shipped in docs/spec.md."""

from __future__ import annotations

import re

from tests.conftest import ROOT

SPEC = ROOT / "docs" / "spec.md"
REFERENCE = re.compile(r"\bspec (\d+(?:\.\d+)?)\b", re.IGNORECASE)


def sections() -> set[str]:
    """Every number a reference may name: "## 5." and "### 2.5" headings, and "5.3" for item 3 of 5."""
    found: set[str] = set()
    chapter = ""
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#{2,3} (\d+(?:\.\d+)?)\.? ", line)
        if heading:
            found.add(heading.group(1))
            chapter = heading.group(1).split(".")[0]
            continue
        item = re.match(r"(\d+)\. ", line)
        if item and chapter:
            found.add(f"{chapter}.{item.group(1)}")
    return found


def test_every_spec_reference_in_the_code_names_a_section_of_docs_spec_md():
    known = sections()
    assert {"2.5", "4.4", "5", "5.3", "9"} <= known  # the reader itself works
    dangling = [
        f"{path.relative_to(ROOT)}: spec {number}"
        for path in sorted((ROOT / "explorer").rglob("*.py"))
        for number in REFERENCE.findall(path.read_text(encoding="utf-8"))
        if number not in known
    ]
    assert not dangling, dangling


def test_the_readme_links_the_shipped_spec_not_a_folder_beside_the_clone():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    assert "(docs/spec.md)" in readme
