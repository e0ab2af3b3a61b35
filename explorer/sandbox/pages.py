"""Lists and pages (spec 2.5 and 4.6): results, totalCount, and self/next/previous links.

Compact pages are assembled from each item's JSON, kept between requests in a cache that the
gate empties whenever a write answers. Rendering and serializing 100 to 500 items on every request
would otherwise be most of the sandbox's work.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlencode

from starlette.requests import Request

from explorer.sandbox.links import origin


class Asked(Protocol):
    """What a page needs of the request's query (query.Query): its numbers and booleans, checked.

    A protocol, not an import: query.py reads the format from documents.py, which writes pages.
    """

    def integer(self, name: str, default: int, minimum: int, maximum: int | None = None) -> int: ...

    def boolean(self, name: str, default: bool) -> bool: ...


PAGE_PARAMS = frozenset({"pageNum", "itemsPerPage", "includeCount"})
DEFAULT_ITEMS_PER_PAGE = 100
MAX_ITEMS_PER_PAGE = 500
MAX_CACHED_LISTS = 1_000

Render = Callable[[Any], dict[str, Any]]


@dataclass
class Page:
    """One page of a list, as a document or as compact JSON bytes."""

    links: list[dict[str, str]]
    items: Sequence[Any]
    render: Render
    total: int | None
    cache: dict[Hashable, Fragments]
    context: Hashable

    def document(self) -> dict[str, Any]:
        document: dict[str, Any] = {"links": self.links, "results": [self.render(item) for item in self.items]}
        if self.total is not None:
            document["totalCount"] = self.total
        return document

    def compact(self, status: int | None) -> bytes:
        """The same bytes as json.dumps(self.document()) compactly, with `status` last when enveloped."""
        # The call site (the render function's code), the request's origin and version decide how
        # a record is rendered; within them, the record does. Records are held by the cache, so an
        # id is never reused for another record while its entry lives.
        key = (self.render.__code__, self.context)
        fragments = self.cache.get(key)
        if fragments is None:
            if len(self.cache) >= MAX_CACHED_LISTS:
                self.cache.clear()
            fragments = self.cache[key] = Fragments()
        results = b",".join([fragments.get(id(item)) or fragments.add(item, self.render) for item in self.items])
        parts = [b'{"links":', dump(self.links), b',"results":[', results, b"]"]
        if self.total is not None:
            parts += [b',"totalCount":', str(self.total).encode()]
        if status is not None:
            parts += [b',"status":', str(status).encode()]
        parts.append(b"}")
        return b"".join(parts)


class Fragments(dict[Any, Any]):
    """JSON of rendered items by the id of their record, holding the records themselves."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[Any] = []

    def add(self, item: Any, render: Render) -> bytes:
        self.records.append(item)
        fragment = self[id(item)] = dump(render(item))
        return fragment


def dump(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def page(
    request: Request,
    query: Asked,
    href: str,
    items: Sequence[Any],
    render: Render,
    version: str = "",
) -> Page:
    """One page of `items`; only the items on it are rendered, and each once until a write."""
    page_num = query.integer("pageNum", 1, 1)
    per_page = query.integer("itemsPerPage", DEFAULT_ITEMS_PER_PAGE, 1, MAX_ITEMS_PER_PAGE)
    include_count = query.boolean("includeCount", True)
    start = (page_num - 1) * per_page

    # Links keep the request's other parameters (filters, pretty, envelope) so that
    # following `next` asks for the same thing, one page on.
    other_params = urlencode([(k, v) for k, v in request.query_params.multi_items() if k not in PAGE_PARAMS])
    prefix = f"{href}?{other_params}&" if other_params else f"{href}?"
    count = "true" if include_count else "false"

    def link(name: str, number: int) -> dict[str, str]:
        return {"href": f"{prefix}includeCount={count}&pageNum={number}&itemsPerPage={per_page}", "rel": name}

    links = [link("self", page_num)]
    if page_num > 1:
        links.append(link("previous", page_num - 1))
    if start + per_page < len(items):
        links.append(link("next", page_num + 1))
    return Page(
        links=links,
        items=items[start : start + per_page],
        render=render,
        total=len(items) if include_count else None,
        cache=request.app.state.sandbox.rendered,
        context=(origin(request.scope), version),
    )
