"""Every response recorded from the real service renders in every pane, and shows what it holds.

What is asserted is what a person reads on the screen: the Page pane (an error's document, a list's
page line and table, an entity's fields), the Headers pane's status line and the status bar. The
expectations come from the recorded body itself, not from the widgets; what the explorer makes of a
recorded header or count (a version, a sunset, a page line) is written out below as literals, read
off the recordings, never worked out by the code under test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.app import ComposeResult
from textual.containers import Horizontal

from explorer.api.resource import Resource
from explorer.tui.palette import PaletteApp
from explorer.tui.widgets.headers_view import HeadersView
from explorer.tui.widgets.json_pane import JsonPane
from explorer.tui.widgets.page_view import PageView
from explorer.tui.widgets.status_bar import StatusBar
from tests.real_response import as_resource
from tests.tui.screen_text import region_text, screen_lines

pytestmark = pytest.mark.sweep

SIZE = (240, 64)  # room for the longest detail on one line and the longest entity's 35 fields

# The version each recorded Content-Type names, as the Headers pane's status line says it.
VERSIONS = {
    "application/json": None,
    "application/vnd.atlas.2023-01-01+json;charset=utf-8": "2023-01-01",
    "application/vnd.atlas.2023-02-01+json;charset=utf-8": "2023-02-01",
    "application/vnd.atlas.2023-10-01+json;charset=utf-8": "2023-10-01",
    "application/vnd.atlas.2023-11-15+json;charset=utf-8": "2023-11-15",
    "application/vnd.atlas.2024-05-30+json;charset=utf-8": "2024-05-30",
    "application/vnd.atlas.2024-08-05+json;charset=utf-8": "2024-08-05",
    "application/vnd.atlas.2024-11-13+json;charset=utf-8": "2024-11-13",
    "application/vnd.atlas.2025-02-19+json;charset=utf-8": "2025-02-19",
    "application/vnd.atlas.2025-03-12+json;charset=utf-8": "2025-03-12",
}
# A response with a Deprecation header: by its Content-Type and its Sunset, the line the Headers pane
# and the Page pane end with (the date it was deprecated is not said).
DEPRECATED = {
    ("application/json", "Thu, 1 Jul 2027 00:00:00 GMT"): "this version is deprecated; sunset 2027-07-01",
    ("application/vnd.atlas.2023-01-01+json;charset=utf-8", "Thu, 1 Jul 2027 00:00:00 GMT"): (
        "version 2023-01-01 is deprecated; sunset 2027-07-01"
    ),
    ("application/vnd.atlas.2023-02-01+json;charset=utf-8", "Thu, 1 Jul 2027 00:00:00 GMT"): (
        "version 2023-02-01 is deprecated; sunset 2027-07-01"
    ),
    ("application/vnd.atlas.2024-08-05+json;charset=utf-8", None): "version 2024-08-05 is deprecated",
}
# A page of a list, by its body's totalCount and the number of its results: the Page pane's first line.
# (The events' totalCount of 0 beside their items is the real service's: a count it did not make.)
PAGE_LINES = {
    (0, 0): "page 1 of 1 · 0 items · 100 per page",
    (0, 71): "page 1 · 71 on this page · 100 per page",
    (0, 100): "page 1 · 100 on this page · 100 per page",
    (1, 1): "page 1 of 1 · 1 item · 100 per page",
    (2, 2): "page 1 of 1 · 2 items · 100 per page",
    (3, 3): "page 1 of 1 · 3 items · 100 per page",
    (4, 4): "page 1 of 1 · 4 items · 100 per page",
    (5, 5): "page 1 of 1 · 5 items · 100 per page",
    (8, 8): "page 1 of 1 · 8 items · 100 per page",
    (9, 9): "page 1 of 1 · 9 items · 100 per page",
    (14, 14): "page 1 of 1 · 14 items · 100 per page",
    (33, 33): "page 1 of 1 · 33 items · 100 per page",
    (37, 37): "page 1 of 1 · 37 items · 100 per page",
    (106, 100): "page 1 of 2 · 106 items · 100 per page",
    (2159, 100): "page 1 of 22 · 2,159 items · 100 per page",
    (2160, 100): "page 1 of 22 · 2,160 items · 100 per page",
    (2508, 100): "page 1 of 26 · 2,508 items · 100 per page",
}


class Panes(PaletteApp):
    """The Page pane across the screen, the JSON and Headers panes under it, the status bar below."""

    CSS = """
    PageView { height: 1fr; }
    #below { height: 10; }
    #below > * { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield PageView()
        with Horizontal(id="below"):
            yield JsonPane()
            yield HeadersView()
        yield StatusBar()


class Shown:
    """What each pane shows, read from one screenshot."""

    def __init__(self, app: Panes) -> None:
        lines = screen_lines(app)
        self.page, self.headers, self.bar = (
            region_text(app, app.query_one(kind), lines) for kind in (PageView, HeadersView, StatusBar)
        )


async def show(app: Panes, pilot: Any, resource: Resource) -> Shown:
    """The resource in every pane, as the explorer screen puts it there."""
    app.query_one(PageView).show(resource)
    app.query_one(JsonPane).show(resource)
    app.query_one(HeadersView).show(resource)
    status = app.query_one(StatusBar)
    status.show_response(resource)
    status.show_error(resource.error)
    await pilot.pause()
    assert app.is_running
    return Shown(app)


def field_lines(text: str) -> dict[str, str]:
    """`name   value` rows of a document as the Page pane lays them out."""
    return dict(re.findall(r"^\s*(\S+(?: \(OAuth\))?) {2,}(.*)$", text, re.M))


def a_scalar(item: dict[str, Any]) -> str:
    """How the table writes a field of the item: its id or name when it has one, else its first scalar."""
    for key in ("id", "name", *item):
        value = item.get(key)
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            return str(value)
    raise AssertionError(f"no scalar field in {item}")


def whole(line: str, end: str = r" *[▁-█]* *$") -> str:
    """A pattern for a line of the Headers pane, on a line of its own (the pane's scrollbar may be
    beside it); a long one goes on over the next lines, broken at a space."""
    return r"(?m)^ *" + r"\s+".join(re.escape(word) for word in line.split()) + end


def check(path: Path, resource: Resource, shown: Shown) -> None:
    name = path.name
    # The Headers pane's status line, under the request
    status_line = f"HTTP/1.1 {resource.status} {resource.reason}  100 ms · {len(resource.body):,} bytes"
    content_type = resource.headers["content-type"]
    assert content_type in VERSIONS, f"{name}: a Content-Type new to the recordings: write its version in VERSIONS"
    version = VERSIONS[content_type]
    status_line += f" · version {version}" if version else ""
    assert re.search(whole(status_line), shown.headers), (name, shown.headers)
    # the version's deprecation and sunset, beside the status, as the service said them
    sunset = DEPRECATED[content_type, resource.headers.get("sunset")] if "deprecation" in resource.headers else None
    said = f"{resource.status} {resource.reason} · 100 ms" + (
        f" · deprecated{sunset.partition(' is deprecated')[2]}" if sunset else ""
    )
    if sunset:
        assert re.search(whole(sunset, r"(?: |$)"), shown.headers), (name, shown.headers)
        assert shown.page.splitlines()[-1].strip() == sunset, (name, shown.page)  # the Page pane's last line
    else:
        assert "deprecated" not in shown.bar + shown.headers, (name, shown.bar, shown.headers)
    document = json.loads(resource.body)
    if resource.status >= 400:
        code, detail = document["errorCode"], document["detail"]
        fields = field_lines(shown.page)
        assert fields.get("errorCode") == code and fields.get("detail") == detail, (name, shown.page)
        assert fields.get("status") == f"{resource.status} {resource.reason}", (name, shown.page)
        assert f"{said} │ ⚠ {code}: {detail}" in shown.bar, (name, shown.bar)
        return
    assert said in shown.bar, (name, shown.bar)
    assert "⚠" not in shown.bar, (name, shown.bar)
    bare = isinstance(document, list) and all(isinstance(item, dict) for item in document)  # a list, not paged
    if bare or isinstance(document, dict) and isinstance(document.get("results"), list):
        assert resource.page_or_array is not None
        page_line, *table = shown.page.splitlines()
        items = document if bare else document["results"]
        count = f"{len(document)} item{'' if len(document) == 1 else 's'}"
        expected = f"{count} · a bare array, not paged" if bare else PAGE_LINES[document["totalCount"], len(items)]
        assert page_line.strip() == expected, (name, page_line)
        if not items:
            assert not any(line.strip() for line in table), (name, shown.page)
            return
        first = items[0]
        header, row = table[0], table[1]
        words = header.split()  # the columns, the last maybe cut at the edge; then those left out, `+3 more`
        if re.fullmatch(r"\+\d+ more", " ".join(words[-2:])):
            words = words[:-2]
        assert words, (name, header)
        dicts = [item for item in items if isinstance(item, dict)]
        for number, word in enumerate(words):  # a field at least half the items hold, or its list's counts
            cut = number == len(words) - 1 and word.endswith("…")
            field = word.rstrip("…").split("[].")[0]
            holding = [item for item in dicts if any(key.startswith(field) if cut else key == field for key in item)]
            assert 2 * len(holding) >= len(dicts), (name, word, header)
        if all(isinstance(item.get("id"), str | int) for item in dicts):
            assert words[0] == "id", (name, header)  # an id, when every item has one, comes first
        assert a_scalar(first)[:40] in row, (name, a_scalar(first), row)
        return
    if isinstance(document, list):  # a bare array of names: nothing to tabulate, its items as [0], [1], …
        for index, item in enumerate(document):
            said = re.escape(item)
            assert re.search(rf"^\W*\[{index}\]: {said}$", shown.page, re.M), (name, index, shown.page)
        return
    for key in document:  # an entity: its top-level fields, each on a line of the field tree
        assert re.search(rf"^\W*{re.escape(key)}: ", shown.page, re.M), (name, key, shown.page)


@pytest.mark.parametrize("part", range(4), ids=[f"part{n}" for n in range(1, 5)])
async def test_every_real_response_shows_its_fields_in_every_pane(real_responses, part):
    """In four screen runs, which pytest-xdist spreads over the cores (all 148 in one: 20 s)."""
    app = Panes()
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        for path in real_responses[part::4]:
            resource = as_resource(path)
            check(path, resource, await show(app, pilot, resource))


async def test_a_body_that_is_not_json_is_said_so_in_the_page_pane(real_responses):
    """What a proxy in front of the service may answer: the service's headers, an HTML body."""
    recorded = as_resource(next(path for path in real_responses if path.name == "200_GET_api_atlas_v2_groups_1.http"))
    html = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    resource = Resource(
        method="GET", url=recorded.url, status=200, headers=httpx.Headers(recorded.headers), request_headers=[],
        body=html, elapsed=0.1, received_at=recorded.received_at,
    )  # fmt: skip
    app = Panes()
    async with app.run_test(size=SIZE) as pilot:
        shown = await show(app, pilot, resource)
    said = "The body is not JSON: expected a value (a string, number, object, array, true, false or null), at line 1"
    assert said + ", column 1" in shown.page, shown.page
    assert "200 OK · 100 ms" in shown.bar
