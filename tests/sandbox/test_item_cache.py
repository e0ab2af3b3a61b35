"""Compact pages are built from cached item JSON: it must never show stale or foreign items."""

from __future__ import annotations

import json


async def test_a_write_is_visible_in_every_list_at_once(sandbox):
    project = sandbox.project_id("staging")
    assert "staging" in [p["name"] for p in (await sandbox.get("/groups")).json()["results"]]
    users = f"/groups/{project}/databaseUsers"
    first_user = (await sandbox.get(users)).json()["results"][0]

    await sandbox.call("PATCH", f"/groups/{project}", json={"name": "staging-renamed"})
    await sandbox.call(
        "PATCH", first_user["links"][0]["href"], json={"roles": [{"databaseName": "x", "roleName": "read"}]}
    )

    assert "staging-renamed" in [p["name"] for p in (await sandbox.get("/groups")).json()["results"]]
    org_projects = (await sandbox.get(f"/orgs/{sandbox.world.projects[project].org_id}/groups")).json()["results"]
    assert "staging-renamed" in [p["name"] for p in org_projects]
    assert (await sandbox.get(users)).json()["results"][0]["roles"] == [{"databaseName": "x", "roleName": "read"}]


async def test_a_deleted_item_leaves_its_list(sandbox):
    users = f"/groups/{sandbox.project_id('production')}/databaseUsers"
    listed = (await sandbox.get(users)).json()["results"]
    await sandbox.call("DELETE", listed[0]["links"][0]["href"])
    assert (await sandbox.get(users)).json()["results"] == listed[1:]


async def test_items_link_to_the_origin_each_client_used(sandbox):
    via_ip = (await sandbox.get("/orgs", headers={"Host": "127.0.0.1:9"})).json()["results"][0]
    via_name = (await sandbox.get("/orgs", headers={"Host": "sandbox.example:9"})).json()["results"][0]
    assert via_ip["links"][0]["href"].startswith("http://127.0.0.1:9/")
    assert via_name["links"][0]["href"].startswith("http://sandbox.example:9/")


async def test_each_version_of_a_list_keeps_its_own_shape(sandbox):
    path = f"/groups/{sandbox.project_id('production')}/clusters"
    old = (await sandbox.get(path)).json()["results"]
    new = (await sandbox.get(path, headers={"Accept": "application/vnd.service.2024-08-05+json"})).json()["results"]
    assert "numShards" in old[1]["replicationSpecs"][0]
    assert "numShards" not in new[1]["replicationSpecs"][0]
    assert (await sandbox.get(path)).json()["results"] == old


async def test_compact_pretty_and_enveloped_pages_hold_the_same_data(sandbox):
    path = f"/groups/{sandbox.project_id('production')}/alerts?itemsPerPage=7&pageNum=2"
    compact = await sandbox.get(path)
    pretty = await sandbox.get(path + "&pretty=true")
    wrapped = await sandbox.get(path + "&envelope=true")

    assert json.loads(pretty.text)["results"] == compact.json()["results"]
    assert compact.text == json.dumps(compact.json(), separators=(",", ":"), ensure_ascii=False)
    assert list(wrapped.json()) == ["links", "results", "totalCount", "status"]
    assert wrapped.json()["results"] == compact.json()["results"]
