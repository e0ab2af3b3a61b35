"""Writes (spec 2.10, 4.5, 7.1): projects and database users, their validation and their codes."""

from __future__ import annotations

import asyncio
import json

import pytest


def acme(sandbox) -> str:
    return next(o.id for o in sandbox.world.orgs.values() if o.fields["name"] == "Acme Corp")


async def test_post_groups_creates_a_project(sandbox):
    response = await sandbox.call("POST", "/groups", json={"name": "payments", "orgId": acme(sandbox)})

    assert response.status_code == 201
    created = response.json()
    assert created["name"] == "payments" and created["clusterCount"] == 0
    self_href = created["links"][0]["href"]
    fetched = await sandbox.get(self_href)
    assert fetched.status_code == 200 and fetched.json() == created
    listed = (await sandbox.get("/groups")).json()["results"]
    assert "payments" in [p["name"] for p in listed]
    org_events = (await sandbox.get(f"/orgs/{acme(sandbox)}/events")).json()["results"]
    assert org_events[0]["eventTypeName"] == "GROUP_CREATED" and org_events[0]["groupId"] == created["id"]


async def test_a_duplicate_project_name_is_409(sandbox):
    response = await sandbox.call("POST", "/groups", json={"name": "production", "orgId": acme(sandbox)})
    assert response.status_code == 409
    assert response.json()["errorCode"] == "GROUP_ALREADY_EXISTS"
    other_org = next(o.id for o in sandbox.world.orgs.values() if o.id != acme(sandbox))
    elsewhere = await sandbox.call("POST", "/groups", json={"name": "production", "orgId": other_org})
    assert elsewhere.status_code == 201  # names are unique within an organization


@pytest.mark.parametrize(
    "body, status, code, field",
    [
        ({"name": "x", "orgId": "ORG", "colour": "red"}, 400, "INVALID_ATTRIBUTE", "colour"),
        ({"name": "x", "orgId": "ORG", "nmae": "typo"}, 400, "INVALID_ATTRIBUTE", "nmae"),
        ({"name": "x", "orgId": "ORG", "id": "0123456789abcdef01234567"}, 400, "ATTRIBUTE_READ_ONLY", "id"),
        ({"name": "x", "orgId": "ORG", "clusterCount": 3}, 400, "ATTRIBUTE_READ_ONLY", "clusterCount"),
        ({"orgId": "ORG"}, 400, "MISSING_ATTRIBUTE", "name"),
        ({"name": "x"}, 400, "MISSING_ATTRIBUTE", "orgId"),
        ({"name": 5, "orgId": "ORG"}, 400, "INVALID_ATTRIBUTE", "name"),
        ({"name": "", "orgId": "ORG"}, 400, "INVALID_ATTRIBUTE", "name"),
        ({"name": "x" * 65, "orgId": "ORG"}, 400, "INVALID_ATTRIBUTE", "name"),
        ({"name": "bad\u001b[31m", "orgId": "ORG"}, 400, "INVALID_ATTRIBUTE", "name"),
        ({"name": "x", "orgId": "ORG", "tags": "env=prod"}, 400, "INVALID_ATTRIBUTE", "tags"),
        ({"name": "x", "orgId": "ORG", "tags": [{"key": "env"}]}, 400, "INVALID_ATTRIBUTE", "tags"),
        (
            {"name": "x", "orgId": "ORG", "withDefaultAlertsSettings": "yes"},
            400,
            "INVALID_ATTRIBUTE",
            "withDefaultAlertsSettings",
        ),
        ({"name": "x", "orgId": "nope"}, 400, "INVALID_ATTRIBUTE", "orgId"),
        ({"name": "x", "orgId": "111111111111111111111111"}, 404, "ORG_NOT_FOUND", "111111111111111111111111"),
    ],
)
async def test_invalid_fields_are_rejected_naming_the_field(sandbox, body, status, code, field):
    body = {k: (acme(sandbox) if v == "ORG" else v) for k, v in body.items()}
    before = (await sandbox.get("/groups")).json()["totalCount"]

    response = await sandbox.call("POST", "/groups", json=body)

    assert response.status_code == status
    assert response.json()["errorCode"] == code
    assert response.json()["parameters"] == [field]
    assert field in response.json()["detail"]
    assert (await sandbox.get("/groups")).json()["totalCount"] == before  # nothing half-written


@pytest.mark.parametrize(
    "content, content_type, status, code",
    [
        (b'{"name": "x"}', None, 415, "UNSUPPORTED_MEDIA_TYPE"),
        (b'{"name": "x"}', "text/plain", 415, "UNSUPPORTED_MEDIA_TYPE"),
        (b"name=x", "application/x-www-form-urlencoded", 415, "UNSUPPORTED_MEDIA_TYPE"),
        (b"", "application/json", 400, "INVALID_JSON"),
        (b"{name: x}", "application/json", 400, "INVALID_JSON"),
        (b'{"name": "x",}', "application/json", 400, "INVALID_JSON"),
        (b"[1, 2]", "application/json", 400, "INVALID_JSON"),
        (b'"text"', "application/json", 400, "INVALID_JSON"),
        (b'{"name": NaN}', "application/json", 400, "INVALID_JSON"),
        (b'{"name": "\xff"}', "application/json", 400, "INVALID_JSON"),
        (b"[" * 50_000 + b"]" * 50_000, "application/json", 413, "REQUEST_TOO_LARGE"),
        (b"[" * 20_000 + b"]" * 20_000, "application/json", 400, "INVALID_JSON"),
        (json.dumps({"name": "x" * 70_000}).encode(), "application/json", 413, "REQUEST_TOO_LARGE"),
    ],
    ids=[
        "no-type",
        "text",
        "form",
        "empty",
        "not-json",
        "trailing-comma",
        "array",
        "string",
        "nan",
        "not-utf8",
        "huge",
        "deep",
        "long",
    ],
)
async def test_bodies_that_are_not_json_objects_are_refused_never_500(sandbox, content, content_type, status, code):
    headers = {"Content-Type": content_type} if content_type else {}
    response = await sandbox.call("POST", "/groups", content=content, headers=headers)

    assert response.status_code == status
    assert response.json()["errorCode"] == code


async def test_the_vendor_media_type_is_accepted_for_a_body(sandbox):
    response = await sandbox.call(
        "POST",
        "/groups",
        content=json.dumps({"name": "vendor-typed", "orgId": acme(sandbox)}),
        headers={"Content-Type": "application/vnd.service.2023-01-01+json;charset=utf-8"},
    )
    assert response.status_code == 201


async def test_patch_renames_a_project(sandbox):
    path = f"/groups/{sandbox.project_id('staging')}"
    response = await sandbox.call(
        "PATCH", path, json={"name": "staging-eu", "tags": [{"key": "env", "value": "staging"}]}
    )

    assert response.status_code == 200
    assert response.json()["name"] == "staging-eu"
    assert (await sandbox.get(path)).json()["name"] == "staging-eu"


async def test_patch_may_repeat_a_read_only_field_but_not_change_it(sandbox):
    path = f"/groups/{sandbox.project_id('staging')}"
    current = (await sandbox.get(path)).json()

    same = await sandbox.call("PATCH", path, json={"orgId": current["orgId"], "name": "staging"})
    changed = await sandbox.call("PATCH", path, json={"orgId": "111111111111111111111111"})

    assert same.status_code == 200
    assert changed.status_code == 400
    assert changed.json()["errorCode"] == "ATTRIBUTE_READ_ONLY" and changed.json()["parameters"] == ["orgId"]


async def test_patch_to_a_taken_name_is_409(sandbox):
    response = await sandbox.call("PATCH", f"/groups/{sandbox.project_id('staging')}", json={"name": "production"})
    assert response.status_code == 409


async def test_deleting_a_project_with_clusters_is_409_and_an_empty_one_goes(sandbox):
    busy = await sandbox.call("DELETE", f"/groups/{sandbox.project_id('production')}")
    assert busy.status_code == 409
    assert busy.json()["errorCode"] == "CANNOT_CLOSE_GROUP_ACTIVE_ATLAS_CLUSTERS"

    path = f"/groups/{sandbox.project_id('empty-sandbox')}"
    gone = await sandbox.call("DELETE", path)
    assert gone.status_code == 204 and gone.content == b""
    assert "content-type" not in gone.headers
    assert (await sandbox.get(path)).status_code == 404


async def test_unsupported_methods_are_405(sandbox):
    put = await sandbox.call("PUT", "/groups", json={})
    assert put.status_code == 405
    assert put.headers["allow"] == "GET, HEAD, POST"
    post = await sandbox.call("POST", "/orgs", json={})
    assert post.status_code == 405


def users_path(sandbox) -> str:
    return f"/groups/{sandbox.project_id('production')}/databaseUsers"


NEW_USER = {
    "databaseName": "admin",
    "username": "analyst",
    "password": "correct-horse-battery",
    "roles": [{"databaseName": "sales", "roleName": "read"}],
    "scopes": [{"name": "orders-prod", "type": "CLUSTER"}],
}


async def test_database_user_lifecycle(sandbox):
    created = await sandbox.call("POST", users_path(sandbox), json=NEW_USER)
    assert created.status_code == 201
    assert "password" not in created.json() and "correct-horse" not in created.text
    href = created.json()["links"][0]["href"]
    assert href.endswith("/databaseUsers/admin/analyst")

    assert (await sandbox.call("POST", users_path(sandbox), json=NEW_USER)).status_code == 409

    patched = await sandbox.call("PATCH", href, json={"roles": [{"databaseName": "sales", "roleName": "readWrite"}]})
    assert patched.status_code == 200
    assert (await sandbox.get(href)).json()["roles"][0]["roleName"] == "readWrite"

    renamed = await sandbox.call("PATCH", href, json={"username": "someone-else"})
    assert renamed.status_code == 400 and renamed.json()["errorCode"] == "ATTRIBUTE_READ_ONLY"

    deleted = await sandbox.call("DELETE", href)
    assert deleted.status_code == 204 and deleted.content == b""
    missing = await sandbox.get(href)
    assert missing.status_code == 404
    assert missing.json()["errorCode"] == "USERNAME_NOT_FOUND"
    events = (await sandbox.get(f"/groups/{sandbox.project_id('production')}/events?itemsPerPage=3")).json()["results"]
    assert [e["eventTypeName"] for e in events] == [
        "MONGODB_USER_DELETED",
        "MONGODB_USER_UPDATED",
        "MONGODB_USER_ADDED",
    ]


@pytest.mark.parametrize(
    "change, field",
    [
        ({"password": "short"}, "password"),
        ({"roles": []}, "roles"),
        ({"roles": [{"roleName": "read"}]}, "roles"),
        ({"scopes": [{"name": "no-such-cluster", "type": "CLUSTER"}]}, "scopes"),
        ({"databaseName": "sales"}, "databaseName"),
        ({"deleteAfterDate": "next tuesday"}, "deleteAfterDate"),
    ],
)
async def test_database_user_fields_are_checked(sandbox, change, field):
    response = await sandbox.call("POST", users_path(sandbox), json={**NEW_USER, **change})
    assert response.status_code == 400
    assert response.json()["parameters"] == [field]


async def test_concurrent_writes_are_all_kept(sandbox):
    names = [f"team-{n:02d}" for n in range(20)]
    responses = await asyncio.gather(
        *(sandbox.call("POST", "/groups", json={"name": name, "orgId": acme(sandbox)}) for name in names)
    )
    assert [r.status_code for r in responses] == [201] * 20
    listed = {p["name"] for p in (await sandbox.get("/groups?itemsPerPage=500")).json()["results"]}
    assert set(names) <= listed


async def test_a_project_outside_the_grant_is_401_not_found_or_served(sandbox):
    restricted = sandbox.project_id("restricted-finance")
    assert restricted not in [p["id"] for p in (await sandbox.get("/groups")).json()["results"]]
    org_listing = (await sandbox.get(f"/orgs/{sandbox.world.projects[restricted].org_id}/groups")).json()["results"]
    assert restricted in [p["id"] for p in org_listing]

    response = await sandbox.get(f"/groups/{restricted}/clusters")
    assert response.status_code == 401
    assert response.json()["errorCode"] == "USER_UNAUTHORIZED"
