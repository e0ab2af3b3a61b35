"""Whatever a server sends, nothing raises: arbitrary JSON, headers, statuses and hrefs, through
`Resource`, the navigation model, the tree's labels and what the panes make of a body.

Hypothesis generates the answers; hostile hrefs (unclosed IPv6 hosts, ports that are words, escape
sequences, full-width hosts) are mixed into the links, a list's `self` and its `next`.
"""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.api.resource import Resource
from explorer.display.pages import page_summary
from explorer.tui.navigation import Navigation
from explorer.tui.safe_text import visible
from explorer.tui.widgets.field_tree import describe
from explorer.tui.widgets.items_table import cell, choose_columns
from explorer.tui.widgets.json_view import Pretty, highlight
from explorer.tui.widgets.link_tree import LinkTree

pytestmark = pytest.mark.sweep

ROOT = "https://api.example/api/service/v1.0"
HOSTILE_HREFS = [
    "http://[::1/x",
    "https://api.example:port/x",
    "https://api.example:99999/x",
    "https://ｅｘａｍｐｌｅ.com/x",
    "https://api.example/\x1b]52;c;aGk=\x07",
    "https://api.example/caf\u00e9/\ud800",
    "//api.example/x",
    "javascript:alert(1)",
    "",
    ROOT + "/groups?pageNum=2",
    ROOT,
]

texts = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=40)
hrefs = st.one_of(st.sampled_from(HOSTILE_HREFS), texts)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), texts)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)),
    max_leaves=20,
)
rels = st.one_of(st.sampled_from(["self", "next", "x"]), texts)
links = st.lists(st.fixed_dictionaries({"rel": rels, "href": hrefs}))
documents = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"links": links},
        optional={
            "results": st.lists(st.one_of(json_values, st.fixed_dictionaries({"links": links})), max_size=5),
            "totalCount": st.one_of(st.integers(), texts, st.just(10**400)),
            "created": st.one_of(
                texts,
                st.sampled_from(["99999-01-01T00:00:00Z", "2024-02-30T00:00:00Z", "9999-12-31T23:59:59-14:00"]),
            ),
            "errorCode": texts,
            "detail": texts,
            "error": st.one_of(st.integers(), texts),
            "parameters": st.lists(json_values, max_size=6),
        },
    ),
)
header_values = st.text(alphabet=st.characters(max_codepoint=255, exclude_characters="\r\n"), max_size=30)
headers = st.dictionaries(
    st.sampled_from(
        [
            "content-type",
            "retry-after",
            "ratelimit-limit",
            "ratelimit-remaining",
            "deprecation",
            "sunset",
            "x-service-version",
            "www-authenticate",
            "location",
        ]  # fmt: skip
    ),
    st.one_of(
        header_values,
        st.sampled_from(
            ["²", "9" * 4400, "application/json; charset=x-unknown", "application/json; charset=undefined"]
        ),
    ),
)
bodies = st.one_of(documents.map(lambda document: json.dumps(document).encode()), st.binary(max_size=60))
statuses = st.sampled_from([200, 201, 204, 301, 400, 401, 403, 404, 406, 410, 429, 500, 502, 503])


@given(body=bodies, headers=headers, status=statuses, method=st.sampled_from(["GET", "HEAD", "POST"]))
def test_no_answer_makes_anything_raise(body: bytes, headers: dict[str, str], status: int, method: str):
    resource = Resource(
        method=method,
        url=ROOT + "/groups",
        status=status,
        headers=httpx.Headers([(name.encode(), value.encode("latin-1")) for name, value in headers.items()]),
        request_headers=[("accept", "application/json")],
        body=body,
        elapsed=0.001,
        received_at=0.0,
    )
    for part in (resource.json_error, resource.version, resource.charset, resource.media_type, resource.text):
        visible(part)
    error = resource.error
    if error is not None:
        visible(error.line())
        visible(error.hint or "")
    page = resource.page_or_array
    if page is not None:
        visible(page_summary(page))
        choose_columns(page.results)
        for item in page.results[:5]:
            cell(item)
    for value in walk(resource.json, 6):
        describe(value)
    for line in Pretty(resource.json).lines[:50]:
        highlight(line)
    navigation = Navigation(ROOT)
    step = navigation.open(navigation.root)
    assert step.fetch is not None
    navigation.arrived(step.fetch, resource)
    tree = LinkTree()
    tree.navigation = navigation
    for node in navigation.root.children:
        tree.label(node)
        navigation.open(node)


def walk(value: object, depth: int):
    """Every value of a document, to `depth` levels."""
    yield value
    if depth and isinstance(value, dict):
        for inner in value.values():
            yield from walk(inner, depth - 1)
    elif depth and isinstance(value, list):
        for inner in value:
            yield from walk(inner, depth - 1)
