"""The manual holds together: every page is in the site's navigation, the README's links land on a
page and a heading that exist, every picture is shown, the reference names every public face of
explorer.api, and the architecture page names every module. (`mkdocs build --strict`, in .ci/run,
checks the links between the pages themselves.)"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import yaml

import explorer.api
from tests.conftest import ROOT
from tests.manual import DOCS, headings, page, section


def nav_pages(entries: list[object]) -> list[str]:
    """The files the navigation of mkdocs.yml names, in order."""
    found: list[str] = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        found += nav_pages(value) if isinstance(value, list) else [str(value)]
    return found


def slug(heading: str) -> str:
    """A heading's anchor as MkDocs (Python-Markdown's toc) makes it: `code` and punctuation dropped."""
    text = re.sub(r"[^\w\s-]", "", heading.replace("`", "")).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(text: str) -> set[str]:
    return {slug(title) for _, _, title in headings(text)}


def test_every_page_is_in_the_navigation_and_every_entry_is_a_page():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    listed = nav_pages(config["nav"])
    on_disk = sorted(str(path.relative_to(DOCS)) for path in DOCS.rglob("*.md"))
    assert "how-to/add-a-pane.md" in listed
    assert sorted(listed) == on_disk


def test_the_readme_links_land_on_pages_and_headings_that_exist():
    readme = page("README.md")
    links = re.findall(r"\]\(([^)#\s]+)(?:#([^)\s]+))?\)", readme)
    local = [(target, anchor) for target, anchor in links if "://" not in target]
    assert ("docs/screen.md", "") in local and ("docs/index.md", "a-tour") in local  # the reader works
    missing = [target for target, _ in local if not (ROOT / target).exists()]
    assert not missing, missing
    dangling = [
        f"{target}#{anchor}"
        for target, anchor in local
        if anchor and anchor not in anchors((ROOT / target).read_text(encoding="utf-8"))
    ]
    assert not dangling, dangling


def test_the_readme_links_every_page_of_the_manual():
    readme = page("README.md")
    pages = sorted(str(path.relative_to(ROOT)) for path in DOCS.glob("*.md") if path.name != "index.md")
    assert [name for name in pages if f"({name})" not in readme] == []


def test_every_picture_is_shown_somewhere():
    shown = page("README.md") + "".join(path.read_text(encoding="utf-8") for path in DOCS.rglob("*.md"))
    pictures = sorted(path.name for path in (ROOT / "screenshots").iterdir() if path.suffix in {".svg", ".png"})
    assert "root.svg" in pictures
    assert [name for name in pictures if f"screenshots/{name})" not in shown] == []


def test_the_reference_documents_every_public_face_of_the_library():
    reference = page("reference.md")
    assert [name for name in explorer.api.__all__ if f"::: explorer.api.{name}\n" not in reference] == []


def test_the_architecture_page_names_every_module():
    architecture = page("architecture.md")
    unnamed = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "explorer").rglob("*.py"))
        if path.stem not in {"__init__", "__main__"} and not re.search(rf"\b{path.stem}\b", architecture)
    ]
    assert not unnamed, unnamed


@pytest.mark.skipif(shutil.which("git") is None, reason="NO GIT: git apply checks the how-to pages' changes")
@pytest.mark.parametrize("name", ["add-a-pane.md", "add-a-command.md", "add-a-sandbox-resource.md"])
def test_a_how_to_page_shows_a_change_that_applies_to_the_code_as_it_is(name, tmp_path):
    """Each how-to page's ```diff blocks, together, are one change that applies to this tree as it
    stands: a refactor that moves what a page changes fails here, and the page is mended with it."""
    blocks = re.findall(r"```diff\n(.*?)```", page(f"how-to/{name}"), re.S)
    assert blocks, f"{name} shows its change as ```diff blocks"
    change = tmp_path / "change.diff"
    change.write_text("".join(blocks), encoding="utf-8")
    applied = subprocess.run(
        ["git", "apply", "--check", str(change)], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert applied.returncode == 0, applied.stderr


def test_every_key_of_the_explorer_is_in_the_docs_with_its_id():
    from explorer.tui.keys import all_bindings

    keys = section(page("screen.md"), "## Keys")
    missing = [b.id for b in all_bindings() if f"`{b.id}`" not in keys]
    assert not missing, missing


LIST_ITEM = re.compile(r"([-*+]|\d+\.) ")


def under_a_list(line: str) -> bool:
    return bool(LIST_ITEM.match(line)) or line.startswith((" ", "|"))


def test_every_list_begins_after_a_blank_line_as_python_markdown_needs():
    """A list right under a line of text is, to Python-Markdown (the site), more of that paragraph: "The
    safety model." in writes.md and the rules in spec.md read as one run-on paragraph in the browser."""
    run_on = []
    for source in [*sorted(DOCS.rglob("*.md")), ROOT / "README.md"]:
        fenced, before = False, ""
        for number, line in enumerate(source.read_text().splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            # under a list item, its continuation (indented) or a table row, a list goes on as it should
            elif not fenced and LIST_ITEM.match(line) and before.strip() and not under_a_list(before):
                run_on.append(f"{source.relative_to(ROOT)}:{number}: {line[:50]}")
            before = line
    assert run_on == []
