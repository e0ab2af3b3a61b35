"""Sparse links (`links="sparse"`, the drill `sparse-links`): entities link as the real service does.

The recorded real responses (tests/fixtures/real-responses) show it: the root links only itself, a
project six children (one of them the legacy `whitelist`), a cluster two, an organization three.
The rest of the API is there all the same, documented in the API description and not linked.
"""

from __future__ import annotations

import pytest
from starlette.routing import Match, Mount

from explorer.sandbox import Settings
from explorer.sandbox.links import REL_PREFIX
from explorer.sandbox.resources import ROUTES
from explorer.sandbox.scenarios import SCENARIOS
from tests.sandbox.conftest import API


def links_of(body: dict) -> list[tuple[str, str]]:
    """(relation, path below the API root) of each link, relations without the vendor prefix."""
    return [(link["rel"].removeprefix(REL_PREFIX), link["href"].partition(API)[2]) for link in body["links"]]


async def test_the_root_links_only_itself(open_sandbox):
    async with open_sandbox(links="sparse") as sandbox:
        body = (await sandbox.get(API)).json()
    assert links_of(body) == [("self", "")]


async def test_a_project_links_as_the_real_one_with_the_legacy_whitelist(open_sandbox):
    async with open_sandbox(links="sparse") as sandbox:
        project = sandbox.project_id("production")
        body = (await sandbox.get(f"/groups/{project}")).json()
    base = f"/groups/{project}"
    assert links_of(body) == [
        ("self", base),
        ("clusters", base + "/clusters"),
        ("databaseUsers", base + "/databaseUsers"),
        ("processes", base + "/processes"),
        ("whitelist", base + "/whitelist"),
    ]


async def test_a_cluster_links_its_snapshots_and_restore_jobs_only(open_sandbox):
    async with open_sandbox(links="sparse") as sandbox:
        project = sandbox.project_id("production")
        body = (await sandbox.get(f"/groups/{project}/clusters/orders-prod")).json()
    base = f"/groups/{project}/clusters/orders-prod"
    assert links_of(body) == [
        ("self", base),
        ("snapshots", base + "/backup/snapshots"),
        ("restoreJobs", base + "/backup/restoreJobs"),
    ]


async def test_an_organization_links_its_projects_teams_and_users_only(open_sandbox):
    async with open_sandbox(links="sparse") as sandbox:
        org = sandbox.world.project_named("production").org_id
        body = (await sandbox.get(f"/orgs/{org}")).json()
    base = f"/orgs/{org}"
    assert links_of(body) == [
        ("self", base),
        ("groups", base + "/groups"),
        ("teams", base + "/teams"),
        ("users", base + "/users"),
    ]


async def test_lists_keep_their_paging_links_and_unlinked_resources_still_answer(open_sandbox):
    async with open_sandbox(links="sparse") as sandbox:
        project = sandbox.project_id("production")
        events = (await sandbox.get(f"/groups/{project}/events?itemsPerPage=500&pageNum=2")).json()
        access_list = await sandbox.get(f"/groups/{project}/accessList")  # documented, not linked
    assert [rel for rel, _ in links_of(events)] == ["self", "previous", "next"]
    assert all([rel for rel, _ in links_of(item)] == ["self"] for item in events["results"])
    assert access_list.status_code == 200 and access_list.json()["totalCount"] > 0


async def test_the_legacy_whitelist_answers_with_the_access_list(open_sandbox):
    async with open_sandbox(links="sparse") as sandbox:
        project = sandbox.project_id("production")
        whitelist = await sandbox.get(f"/groups/{project}/whitelist")
        access_list = (await sandbox.get(f"/groups/{project}/accessList")).json()
    assert whitelist.status_code == 200
    body = whitelist.json()
    assert body["results"] == access_list["results"]
    assert body["totalCount"] == access_list["totalCount"]
    assert links_of(body)[0][1].split("?")[0] == f"/groups/{project}/whitelist"


def routed(routes: list, scope: dict) -> bool:
    """Whether the route table (mounts followed) has a route for this request."""
    for route in routes:
        match, child = route.matches(scope)
        if match is Match.FULL:
            return routed(route.routes, {**scope, **child}) if isinstance(route, Mount) else True
    return False


def get(path: str) -> dict:
    return {"type": "http", "path": path, "method": "GET", "root_path": ""}


def test_the_whitelist_is_served_beside_the_route_table_so_the_description_leaves_it_out():
    project = "687b4c139cc9af4ec9546b43"
    assert routed(ROUTES, get(f"{API}/groups/{project}/accessList"))  # the check itself sees routes
    assert not routed(ROUTES, get(f"{API}/groups/{project}/whitelist"))


async def test_full_links_stay_the_default(sandbox):
    project = sandbox.project_id("production")
    root = [rel for rel, _ in links_of((await sandbox.get(API)).json())]
    rels = [rel for rel, _ in links_of((await sandbox.get(f"/groups/{project}")).json())]
    assert root[:3] == ["self", "orgs", "groups"]
    assert "accessList" in rels and "org" in rels and "whitelist" not in rels


def test_the_drill_turns_sparse_links_on_and_says_what_to_watch():
    drill = SCENARIOS["sparse-links"]
    assert drill.settings().links == "sparse"
    assert "description" in drill.lesson and "links" in drill.lesson


def test_an_unknown_kind_of_links_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match="links must be one of full, sparse"):
        Settings(links="none")
