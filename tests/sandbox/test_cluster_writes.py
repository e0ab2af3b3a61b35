"""Cluster writes: created (201, CREATING), changed (200), deleted (202, DELETING), and refused.

What follows, as the clock moves, is in test_operations.py."""

from __future__ import annotations

import pytest

NEW = {
    "name": "reporting",
    "clusterType": "REPLICASET",
    "replicationSpecs": [
        {
            "regionConfigs": [
                {
                    "providerName": "AWS",
                    "regionName": "US_EAST_1",
                    "priority": 7,
                    "electableSpecs": {"instanceSize": "M10", "nodeCount": 3},
                }
            ]
        }
    ],
}
V2024 = {"Accept": "application/vnd.service.2024-08-05+json"}


def clusters(sandbox, project: str = "staging") -> str:
    return f"/groups/{sandbox.project_id(project)}/clusters"


async def test_post_creates_a_cluster_that_is_creating(sandbox):
    response = await sandbox.call("POST", clusters(sandbox), json={**NEW, "tags": [{"key": "env", "value": "dev"}]})

    assert response.status_code == 201
    created = response.json()
    assert (created["name"], created["stateName"], created["connectionStrings"]) == ("reporting", "CREATING", {})
    assert created["groupId"] == sandbox.project_id("staging") and created["tags"] == [{"key": "env", "value": "dev"}]
    assert created["replicationSpecs"][0]["numShards"] == 1
    assert created["replicationSpecs"][0]["regionConfigs"][0]["readOnlySpecs"]["nodeCount"] == 0
    fetched = await sandbox.get(created["links"][0]["href"])
    assert fetched.status_code == 200 and fetched.json() == created
    listed = (await sandbox.get(clusters(sandbox))).json()["results"]
    assert "reporting" in [c["name"] for c in listed]
    events = (await sandbox.get(f"/groups/{sandbox.project_id('staging')}/events?itemsPerPage=1")).json()["results"]
    assert (events[0]["eventTypeName"], events[0]["clusterName"]) == ("CLUSTER_CREATED", "reporting")


async def test_a_sharded_cluster_in_2024_08_05_gives_one_spec_per_shard(sandbox):
    body = {**NEW, "name": "events-sharded", "clusterType": "SHARDED", "replicationSpecs": NEW["replicationSpecs"] * 3}
    response = await sandbox.call("POST", clusters(sandbox), json=body, headers=V2024)

    assert response.status_code == 201
    assert len(response.json()["replicationSpecs"]) == 3
    assert "numShards" not in response.json()["replicationSpecs"][0]
    old = (await sandbox.get(clusters(sandbox) + "/events-sharded")).json()  # 2023-01-01: numShards
    assert [spec["numShards"] for spec in old["replicationSpecs"]] == [3]


@pytest.mark.parametrize(
    "change, headers, field",
    [
        ({"replicationSpecs": [{**NEW["replicationSpecs"][0], "numShards": 2}]}, V2024, "replicationSpecs"),
        ({"replicationSpecs": [{**NEW["replicationSpecs"][0], "numShards": 2}]}, {}, "replicationSpecs"),
        ({"replicationSpecs": NEW["replicationSpecs"] * 2}, {}, "replicationSpecs"),
        ({"replicationSpecs": []}, {}, "replicationSpecs"),
        ({"clusterType": "STANDALONE"}, {}, "clusterType"),
        ({"name": "has space"}, {}, "name"),
        ({"name": "x" * 65}, {}, "name"),
        ({"diskSizeGB": 5}, {}, "diskSizeGB"),
        ({"mongoDBMajorVersion": "4.4"}, {}, "mongoDBMajorVersion"),
        ({"backupEnabled": "yes"}, {}, "backupEnabled"),
        ({"colour": "blue"}, {}, "colour"),
    ],
    ids=[
        "numShards-2024",
        "replica-set-of-two-shards",
        "replica-set-of-two-specs",
        "no-specs",
        "type",
        "name-space",
        "name-long",
        "disk",
        "version",
        "boolean",
        "unknown",
    ],
)
async def test_an_invalid_cluster_is_refused_naming_the_field(sandbox, change, headers, field):
    response = await sandbox.call("POST", clusters(sandbox), json={**NEW, **change}, headers=headers)

    assert response.status_code == 400
    assert (response.json()["errorCode"], response.json()["parameters"]) == ("INVALID_ATTRIBUTE", [field])
    assert field in response.json()["detail"]
    assert "reporting" not in sandbox.world.project_named("staging").clusters  # nothing half-written


@pytest.mark.parametrize(
    "body, code, field",
    [
        ({k: v for k, v in NEW.items() if k != "clusterType"}, "MISSING_ATTRIBUTE", "clusterType"),
        ({**NEW, "stateName": "IDLE"}, "ATTRIBUTE_READ_ONLY", "stateName"),
        ({**NEW, "paused": True}, "ATTRIBUTE_READ_ONLY", "paused"),
    ],
)
async def test_missing_and_read_only_fields_on_create(sandbox, body, code, field):
    response = await sandbox.call("POST", clusters(sandbox), json=body)
    assert response.status_code == 400
    assert (response.json()["errorCode"], response.json()["parameters"]) == (code, [field])


async def test_a_name_taken_in_the_project_is_409_and_free_in_another(sandbox):
    taken = await sandbox.call("POST", clusters(sandbox), json={**NEW, "name": "orders-staging"})

    assert taken.status_code == 409
    assert taken.json()["errorCode"] == "DUPLICATE_CLUSTER_NAME"
    assert taken.json()["parameters"] == ["orders-staging", sandbox.project_id("staging")]
    elsewhere = await sandbox.call("POST", clusters(sandbox, "analytics"), json={**NEW, "name": "orders-staging"})
    assert elsewhere.status_code == 201


async def test_writes_under_a_project_that_does_not_exist_are_404(sandbox):
    missing = "/groups/111111111111111111111111/clusters"
    created = await sandbox.call("POST", missing, json=NEW)
    assert (created.status_code, created.json()["errorCode"]) == (404, "GROUP_NOT_FOUND")
    changed = await sandbox.call("PATCH", clusters(sandbox) + "/no-such-cluster", json={"paused": True})
    assert (changed.status_code, changed.json()["errorCode"]) == (404, "CLUSTER_NOT_FOUND")
    deleted = await sandbox.call("DELETE", clusters(sandbox) + "/no-such-cluster")
    assert (deleted.status_code, deleted.json()["errorCode"]) == (404, "CLUSTER_NOT_FOUND")


async def test_patch_changes_the_modifiable_fields(sandbox):
    path = clusters(sandbox) + "/orders-staging"
    response = await sandbox.call(
        "PATCH", path, json={"diskSizeGB": 80, "mongoDBMajorVersion": "7.0", "labels": [{"key": "a", "value": "b"}]}
    )

    assert response.status_code == 200
    changed = response.json()
    assert (changed["diskSizeGB"], changed["mongoDBMajorVersion"]) == (80.0, "7.0")
    assert changed["mongoDBVersion"].startswith("7.0.")
    assert (await sandbox.get(path)).json() == changed


@pytest.mark.parametrize("headers", [{}, V2024], ids=["2023-01-01", "2024-08-05"])
async def test_patch_may_send_back_the_cluster_as_fetched_with_a_change(sandbox, headers):
    path = clusters(sandbox, "production") + "/catalog-prod"  # sharded: its specs differ between versions
    fetched = (await sandbox.get(path, headers=headers)).json()

    response = await sandbox.call("PATCH", path, json={**fetched, "paused": True}, headers=headers)

    assert response.status_code == 200, response.text
    assert response.json() == {**fetched, "paused": True, "stateName": "UPDATING"}  # until done: test_operations.py


@pytest.mark.parametrize(
    "field, value",
    [("stateName", "UPDATING"), ("name", "renamed"), ("id", "0123456789abcdef01234567"), ("replicationSpecs", [])],
)
async def test_a_read_only_field_changed_by_patch_is_refused(sandbox, field, value):
    response = await sandbox.call("PATCH", clusters(sandbox) + "/orders-staging", json={field: value})

    assert response.status_code == 400
    assert (response.json()["errorCode"], response.json()["parameters"]) == ("ATTRIBUTE_READ_ONLY", [field])


async def test_a_cluster_with_termination_protection_is_not_deleted_until_it_is_turned_off(sandbox):
    path = clusters(sandbox, "production") + "/orders-prod"
    assert (await sandbox.get(path)).json()["terminationProtectionEnabled"] is True

    refused = await sandbox.call("DELETE", path)

    assert (refused.status_code, refused.json()["errorCode"]) == (
        400,
        "CANNOT_TERMINATE_CLUSTER_WHEN_TERMINATION_PROTECTION_ENABLED",
    )
    assert refused.json()["detail"] == (
        "Cannot terminate cluster orders-prod while termination protection is enabled: "
        "turn terminationProtectionEnabled off first."
    )
    assert (await sandbox.get(path)).json()["stateName"] == "IDLE"
    assert (await sandbox.call("PATCH", path, json={"terminationProtectionEnabled": False})).status_code == 200
    assert (await sandbox.call("DELETE", path)).status_code == 202


async def test_delete_is_accepted_and_the_cluster_shows_deleting(sandbox):
    path = clusters(sandbox) + "/ml-staging"

    response = await sandbox.call("DELETE", path)

    assert response.status_code == 202
    assert response.content == b"" and "content-type" not in response.headers
    assert response.headers["deprecation"]  # answered in 2023-01-01, the deprecated version
    assert (await sandbox.get(path)).json()["stateName"] == "DELETING"
    assert "ml-staging" in [c["name"] for c in (await sandbox.get(clusters(sandbox))).json()["results"]]
    again = await sandbox.call("DELETE", path)
    assert (again.status_code, again.json()["errorCode"]) == (400, "CLUSTER_ALREADY_REQUESTED_DELETION")
    changed = await sandbox.call("PATCH", path, json={"paused": True})
    assert (changed.status_code, changed.json()["errorCode"]) == (400, "CLUSTER_ALREADY_REQUESTED_DELETION")


async def test_cluster_writes_need_a_json_body_in_any_version_media_type(sandbox):
    path = clusters(sandbox)
    as_text = await sandbox.call("POST", path, content=str(NEW), headers={"Content-Type": "text/plain"})
    assert (as_text.status_code, as_text.json()["errorCode"]) == (415, "UNSUPPORTED_MEDIA_TYPE")
    broken = await sandbox.call("POST", path, content=b'{"name": ', headers={"Content-Type": "application/json"})
    assert (broken.status_code, broken.json()["errorCode"]) == (400, "INVALID_JSON")
    vendor = {"Content-Type": "application/vnd.service.2024-08-05+json", **V2024}
    typed = await sandbox.call("POST", path, json=NEW, headers=vendor)
    assert typed.status_code == 201
    assert typed.headers["content-type"] == "application/vnd.service.2024-08-05+json;charset=utf-8"
