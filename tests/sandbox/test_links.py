"""Browsing (spec 1, 2.7, 4.7): from the root, links reach every resource of the sandbox."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from explorer.sandbox.links import REL_PREFIX
from tests.sandbox.conftest import API

ITEMS_FOLLOWED_PER_LIST = 3


async def test_root_links_onwards_to_every_top_level_resource(sandbox):
    response = await sandbox.get(API)

    assert response.status_code == 200
    body = response.json()
    rels = {link["rel"]: link["href"] for link in body["links"]}
    origin = str(sandbox.client.base_url).rstrip("/")
    assert rels["self"] == origin + API
    assert rels[REL_PREFIX + "orgs"] == origin + API + "/orgs"
    assert rels[REL_PREFIX + "groups"] == origin + API + "/groups"


async def test_delete_on_the_root_is_405(sandbox):
    response = await sandbox.call("DELETE", API)

    assert response.status_code == 405
    body = response.json()
    assert body["errorCode"] == "METHOD_NOT_ALLOWED" and body["error"] == 405
    assert body["reason"] == "Method Not Allowed"
    assert response.headers["allow"] == "GET, HEAD"


def kind_of(url: str) -> str:
    """The resource kind a URL names: its last non-identifier path segment."""
    path = urlsplit(url).path.removeprefix(API)
    words = [s for s in path.split("/") if s and not re.fullmatch(r"[0-9a-f]{24}|.*[.:%@].*|[A-Za-z]+-[\w-]+", s)]
    return words[-1] if words else "root"


async def crawl(sandbox) -> dict[str, dict]:
    """Follow every link from the root, the next pages of every list, and some items of each."""
    seen: dict[str, dict] = {}
    queue = [str(sandbox.client.base_url).rstrip("/") + API]
    while queue:
        url = queue.pop()
        key = url.split("?")[0] if "pageNum" not in url else url
        if key in seen:
            continue
        response = await sandbox.get(url)
        seen[key] = {"url": url, "status": response.status_code, "body": response.json()}
        if response.status_code != 200:
            continue
        body = response.json()
        for link in body.get("links", []):
            if link["rel"] != "self":
                queue.append(link["href"])
        for item in body.get("results", [])[:ITEMS_FOLLOWED_PER_LIST]:
            queue += [link["href"] for link in item.get("links", [])]
    return seen


@pytest.mark.slow
async def test_every_link_from_the_root_resolves(open_sandbox):
    async with open_sandbox(rate_limit=100_000) as sandbox:
        seen = await crawl(sandbox)
        origin = str(sandbox.client.base_url).rstrip("/")

    failures = {k: v["status"] for k, v in seen.items() if v["status"] != 200}
    restricted = {k: v for k, v in seen.items() if v["status"] == 401}
    # The one project the sandbox's credentials are not granted answers 401 and nothing else.
    assert failures and set(failures.values()) == {401}, failures
    assert all(v["body"]["errorCode"] == "USER_UNAUTHORIZED" for v in restricted.values())

    kinds = {kind_of(v["url"]) for v in seen.values() if v["status"] == 200}
    expected = {
        "root",
        "orgs",
        "groups",
        "teams",
        "users",
        "events",
        "clusters",
        "snapshots",
        "restoreJobs",
        "databaseUsers",
        "processes",
        "measurements",
        "alerts",
        "alertConfigs",
        "accessList",
        "ipinfo",
        "admin",
    }
    assert expected <= kinds, expected - kinds

    for entry in seen.values():
        if entry["status"] != 200:
            continue
        body = entry["body"]
        links = body["links"]
        self_links = [link["href"] for link in links if link["rel"] == "self"]
        assert len(self_links) == 1, entry["url"]
        assert self_links[0].split("?")[0] == entry["url"].split("?")[0]
        for link in links:
            assert link["href"].startswith(origin + "/api/"), link
            assert link["rel"] in ("self", "next", "previous") or link["rel"].startswith(REL_PREFIX), link
        for item in body.get("results", []):
            assert [link["rel"] for link in item["links"]] == ["self"], entry["url"]


async def test_a_url_with_a_trailing_slash_is_the_same_resource(sandbox):
    response = await sandbox.get(API + "/orgs/")
    assert response.status_code == 200
    assert response.json()["links"][0]["href"].split("?")[0].endswith("/orgs")
