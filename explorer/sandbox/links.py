"""Absolute links: every entity names itself and its relations by URL (spec 2.7)."""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import quote

API_ROOT = "/api/service/v1.0"
DESCRIPTION_PATH = "/openapi.json"  # the API description (openapi.py), beside the API root, without credentials
REL_PREFIX = "https://api.service.example/"
PLAIN_RELS = frozenset({"self", "next", "previous"})

Link = dict[str, str]


def rel(name: str) -> str:
    """Extension relations share one vendor prefix; self, next and previous stay bare."""
    return name if name in PLAIN_RELS else REL_PREFIX + name


def origin(scope: MutableMapping[str, Any]) -> str:
    """scheme://host[:port] the client addressed, from its Host header (as Starlette's base_url)."""
    cached = scope.get("explorer.origin")
    if cached is None:
        host = next((v for k, v in scope["headers"] if k == b"host"), b"").decode("latin-1")
        if not host:
            server = scope.get("server") or ("localhost", None)
            host = server[0] if server[1] in (None, 80, 443) else f"{server[0]}:{server[1]}"
        cached = scope["explorer.origin"] = f"{scope.get('scheme', 'http')}://{host}"
    return cached


class Hrefs:
    """Builds absolute URLs under the API root for the origin the request came to."""

    __slots__ = ("origin", "root")

    def __init__(self, origin: str) -> None:
        self.origin = origin.rstrip("/")
        self.root = self.origin + API_ROOT

    def __call__(self, *segments: str) -> str:
        return self.root + path_of(segments)

    def link(self, name: str, *segments: str) -> Link:
        return {"href": self(*segments), "rel": rel(name)}


@lru_cache(maxsize=65536)
def path_of(segments: tuple[str, ...]) -> str:
    """The quoted path below the API root. Cached: a page of 500 items asks for 500 of them."""
    return "".join("/" + quote(str(s), safe=":@") for s in segments)


def with_links(fields: dict[str, Any], links: list[Link]) -> dict[str, Any]:
    """An entity document: its fields and its `links`, fields in name order like the service."""
    document = dict(fields)
    document["links"] = links
    return dict(sorted(document.items()))


@dataclass(frozen=True)
class Sparse:
    """How the real service links one kind of entity, as its recorded responses show."""

    path: re.Pattern[str]  # the entity's path below the API root
    keep: tuple[str, ...]  # the relations it links, of those the sandbox gives
    legacy: tuple[str, ...] = ()  # relations it links at `self/<name>` that its description leaves out


# The root links only itself; a project six children (of which the sandbox has clusters,
# databaseUsers and processes, not containers or peers) and the legacy `whitelist`; a cluster its
# snapshots and restore jobs; an organization its projects, teams and users. Other entities link
# in the sandbox as they do on the service already.
SPARSE = (
    Sparse(re.compile(""), ("self",)),
    Sparse(re.compile("/groups/[^/]+"), ("self", "clusters", "databaseUsers", "processes"), ("whitelist",)),
    Sparse(re.compile("/groups/[^/]+/clusters/[^/]+"), ("self", "snapshots", "restoreJobs")),
    Sparse(re.compile("/orgs/[^/]+"), ("self", "groups", "teams", "users")),
)


def sparse(document: Any) -> Any:
    """An entity linked as sparsely as the real service links it: the lesson that links alone
    reach little of the API, and its description the rest. Lists and other documents pass as
    they are (lists keep self, next and previous, as on the service)."""
    if not isinstance(document, dict) or "results" in document:
        return document
    links = document.get("links") or []
    me = next((link["href"] for link in links if link["rel"] == "self"), "")
    below = me.partition(API_ROOT)[2]
    for rule in SPARSE:
        if me and rule.path.fullmatch(below):
            kept_rels = {rel(name) for name in rule.keep}
            links = [link for link in links if link["rel"] in kept_rels]
            links += [{"href": f"{me}/{name}", "rel": rel(name)} for name in rule.legacy]
            return {**document, "links": links}
    return document
