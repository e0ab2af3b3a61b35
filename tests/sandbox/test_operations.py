"""Long operations move by the sandbox's clock: CREATING to IDLE, UPDATING to IDLE, DELETING to gone.

Each test moves the fake clock itself (never the real one) and reads what a client reads: the
cluster, its list, its project and the project's events, in process and over a socket.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from explorer.sandbox import Settings
from explorer.sandbox.scenarios import SCENARIOS
from explorer.sandbox.seed import seed_world
from tests.sandbox.test_cluster_writes import NEW, clusters

SECONDS = Settings().operation_seconds


def iso(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


SEEDED_MOVING = {"ml-staging", "search-prod"}  # seeded mid-operation: they finish on their own (carry_on)


async def events(sandbox, project: str = "staging", count: int = 3) -> list[tuple[str, str, str]]:
    """The project's newest events, as (type, cluster, time), but the seeded clusters' own."""
    found = await sandbox.get(f"/groups/{sandbox.project_id(project)}/events?itemsPerPage={count + 10}")
    every = [(e["eventTypeName"], e.get("clusterName", ""), e["created"]) for e in found.json()["results"]]
    return [event for event in every if event[1] not in SEEDED_MOVING][:count]


async def listed(sandbox, project: str = "staging") -> dict[str, str]:
    """The clusters of the project's list, by name, with their states."""
    return {c["name"]: c["stateName"] for c in (await sandbox.get(clusters(sandbox, project))).json()["results"]}


def test_the_default_is_twenty_seconds():
    assert SECONDS == 20


async def test_a_created_cluster_is_creating_then_idle_with_connection_strings(sandbox):
    started = sandbox.clock.now
    created = await sandbox.call("POST", clusters(sandbox), json=NEW)
    path = clusters(sandbox) + "/reporting"
    assert (created.status_code, created.json()["stateName"], created.json()["connectionStrings"]) == (
        201,
        "CREATING",
        {},
    )
    assert (await listed(sandbox))["reporting"] == "CREATING"  # the list is rendered, and kept

    sandbox.clock.advance(SECONDS - 1)
    almost = (await sandbox.get(path)).json()
    assert (almost["stateName"], almost["connectionStrings"]) == ("CREATING", {})

    sandbox.clock.advance(1)
    ready = (await sandbox.get(path)).json()
    assert ready["stateName"] == "IDLE"
    strings = ready["connectionStrings"]
    domain = re.fullmatch(r"mongodb\+srv://reporting\.([0-9a-f]{6})\.mongodb\.net", strings["standardSrv"])
    assert domain, strings
    label = domain.group(1)
    hosts = ",".join(f"reporting-shard-00-{n:02d}.{label}.mongodb.net:27017" for n in range(3))
    assert strings == {
        "standard": f"mongodb://{hosts}/?ssl=true&authSource=admin&replicaSet=atlas-{label}-shard-0",
        "standardSrv": f"mongodb+srv://reporting.{label}.mongodb.net",
    }
    assert {k: v for k, v in ready.items() if k not in ("stateName", "connectionStrings")} == {
        k: v for k, v in created.json().items() if k not in ("stateName", "connectionStrings")
    }
    assert (await listed(sandbox))["reporting"] == "IDLE"
    assert await events(sandbox, count=2) == [
        ("CLUSTER_READY", "reporting", iso(started + SECONDS)),
        ("CLUSTER_CREATED", "reporting", iso(started)),
    ]


async def test_the_service_s_own_events_name_no_address(sandbox):
    await sandbox.call("POST", clusters(sandbox), json=NEW)
    sandbox.clock.advance(SECONDS)
    found = (await sandbox.get(f"/groups/{sandbox.project_id('staging')}/events?itemsPerPage=5")).json()["results"]
    ready, created = [event for event in found if event.get("clusterName") == "reporting"]
    assert (ready["eventTypeName"], created["eventTypeName"]) == ("CLUSTER_READY", "CLUSTER_CREATED")
    assert "remoteAddress" not in ready and created["remoteAddress"] == "127.0.0.1"
    assert ready["groupId"] == sandbox.project_id("staging") and ready["isGlobalAdmin"] is False


async def test_a_deleted_cluster_is_deleting_then_gone(sandbox):
    started = sandbox.clock.now
    project = sandbox.project_id("staging")
    path = clusters(sandbox) + "/orders-staging"
    processes = f"/groups/{project}/processes"
    hosts = [p["clusterName"] for p in (await sandbox.get(processes)).json()["results"]]
    assert hosts.count("orders-staging") == 3
    count = {p["name"]: p["clusterCount"] for p in (await sandbox.get("/groups")).json()["results"]}["staging"]

    assert (await sandbox.call("DELETE", path)).status_code == 202
    assert (await sandbox.get(path)).json()["stateName"] == "DELETING"
    assert (await listed(sandbox))["orders-staging"] == "DELETING"
    counted = {p["name"]: p["clusterCount"] for p in (await sandbox.get("/groups")).json()["results"]}
    assert counted["staging"] == count  # a cluster DELETING still counts

    sandbox.clock.advance(SECONDS)
    gone = await sandbox.get(path)
    assert gone.status_code == 404
    assert gone.json() == {
        "detail": f"No cluster named orders-staging exists in group {project}.",
        "error": 404,
        "errorCode": "CLUSTER_NOT_FOUND",
        "parameters": ["orders-staging", project],
        "reason": "Not Found",
    }
    assert "orders-staging" not in await listed(sandbox)
    assert [p["clusterName"] for p in (await sandbox.get(processes)).json()["results"]] == [
        h for h in hosts if h != "orders-staging"
    ]
    assert {p["name"]: p["clusterCount"] for p in (await sandbox.get("/groups")).json()["results"]}["staging"] == (
        count - 1
    )
    assert await events(sandbox, count=2) == [
        ("CLUSTER_DELETED", "orders-staging", iso(started + SECONDS)),
        ("CLUSTER_DELETE_SUBMITTED", "orders-staging", iso(started)),
    ]
    again = await sandbox.call("POST", clusters(sandbox), json={**NEW, "name": "orders-staging"})
    assert again.status_code == 201  # the name is free once the cluster is gone


async def test_pause_and_resume_pass_through_updating(sandbox):
    started = sandbox.clock.now
    path = clusters(sandbox) + "/orders-staging"

    paused = (await sandbox.call("PATCH", path, json={"paused": True})).json()
    assert (paused["stateName"], paused["paused"]) == ("UPDATING", True)
    assert (await listed(sandbox))["orders-staging"] == "UPDATING"
    sandbox.clock.advance(SECONDS)
    fetched = (await sandbox.get(path)).json()
    assert (fetched["stateName"], fetched["paused"]) == ("IDLE", True)
    assert (await listed(sandbox))["orders-staging"] == "IDLE"

    resumed = (await sandbox.call("PATCH", path, json={"paused": False})).json()
    assert (resumed["stateName"], resumed["paused"]) == ("UPDATING", False)
    sandbox.clock.advance(SECONDS)
    fetched = (await sandbox.get(path)).json()
    assert (fetched["stateName"], fetched["paused"]) == ("IDLE", False)
    assert await events(sandbox, count=4) == [
        ("CLUSTER_UPDATE_COMPLETED", "orders-staging", iso(started + 2 * SECONDS)),
        ("CLUSTER_UPDATE_SUBMITTED", "orders-staging", iso(started + SECONDS)),
        ("CLUSTER_UPDATE_COMPLETED", "orders-staging", iso(started + SECONDS)),
        ("CLUSTER_UPDATE_SUBMITTED", "orders-staging", iso(started)),
    ]


async def test_a_second_change_restarts_the_update(sandbox):
    path = clusters(sandbox) + "/orders-staging"
    await sandbox.call("PATCH", path, json={"backupEnabled": False})
    sandbox.clock.advance(SECONDS // 2)
    await sandbox.call("PATCH", path, json={"pitEnabled": True})
    sandbox.clock.advance(SECONDS // 2)
    assert (await sandbox.get(path)).json()["stateName"] == "UPDATING"
    sandbox.clock.advance(SECONDS // 2)
    assert (await sandbox.get(path)).json()["stateName"] == "IDLE"
    assert [kind for kind, _, _ in await events(sandbox)] == [
        "CLUSTER_UPDATE_COMPLETED",
        "CLUSTER_UPDATE_SUBMITTED",
        "CLUSTER_UPDATE_SUBMITTED",
    ]


async def test_a_change_while_creating_goes_with_the_creation(sandbox):
    started = sandbox.clock.now
    path = clusters(sandbox) + "/reporting"
    await sandbox.call("POST", clusters(sandbox), json=NEW)
    sandbox.clock.advance(SECONDS // 2)

    changed = (await sandbox.call("PATCH", path, json={"backupEnabled": True})).json()
    assert (changed["stateName"], changed["backupEnabled"]) == ("CREATING", True)
    sandbox.clock.advance(SECONDS // 2)
    ready = (await sandbox.get(path)).json()
    assert (ready["stateName"], ready["backupEnabled"]) == ("IDLE", True)
    assert await events(sandbox) == [
        ("CLUSTER_READY", "reporting", iso(started + SECONDS)),
        ("CLUSTER_UPDATE_SUBMITTED", "reporting", iso(started + SECONDS // 2)),
        ("CLUSTER_CREATED", "reporting", iso(started)),
    ]


async def test_a_delete_while_creating_ends_the_creation(sandbox):
    path = clusters(sandbox) + "/reporting"
    await sandbox.call("POST", clusters(sandbox), json=NEW)
    sandbox.clock.advance(5)
    await sandbox.call("DELETE", path)

    sandbox.clock.advance(SECONDS - 5)  # when the creation would have ended
    assert (await sandbox.get(path)).json()["stateName"] == "DELETING"
    sandbox.clock.advance(5)
    assert (await sandbox.get(path)).status_code == 404
    assert [kind for kind, _, _ in await events(sandbox)] == [
        "CLUSTER_DELETED",
        "CLUSTER_DELETE_SUBMITTED",
        "CLUSTER_CREATED",
    ]


async def test_operations_end_in_the_order_they_fell_due_when_read_late(sandbox):
    started = sandbox.clock.now
    await sandbox.call("POST", clusters(sandbox), json=NEW)
    sandbox.clock.advance(3)
    await sandbox.call("DELETE", clusters(sandbox) + "/orders-staging")
    sandbox.clock.advance(600)  # nobody asked in between

    assert await events(sandbox, count=4) == [
        ("CLUSTER_DELETED", "orders-staging", iso(started + 3 + SECONDS)),
        ("CLUSTER_READY", "reporting", iso(started + SECONDS)),
        ("CLUSTER_DELETE_SUBMITTED", "orders-staging", iso(started + 3)),
        ("CLUSTER_CREATED", "reporting", iso(started)),
    ]
    assert await listed(sandbox) == {"ml-staging": "IDLE", "reporting": "IDLE"}


async def test_with_zero_seconds_the_next_request_sees_the_end(open_sandbox):
    async with open_sandbox(operation_seconds=0) as sandbox:
        path = clusters(sandbox) + "/reporting"
        created = await sandbox.call("POST", clusters(sandbox), json=NEW)
        assert (created.status_code, created.json()["stateName"]) == (201, "CREATING")
        ready = (await sandbox.get(path)).json()
        assert ready["stateName"] == "IDLE" and ready["connectionStrings"]["standardSrv"].startswith("mongodb+srv://")

        paused = await sandbox.call("PATCH", path, json={"paused": True})
        assert paused.json()["stateName"] == "UPDATING"
        assert (await sandbox.get(path)).json()["stateName"] == "IDLE"

        deleted = await sandbox.call("DELETE", path)
        assert deleted.status_code == 202
        assert (await sandbox.get(path)).json()["errorCode"] == "CLUSTER_NOT_FOUND"


async def test_the_same_requests_at_the_same_times_give_the_same_world(open_in_process, clock):
    seen = []
    for _ in range(2):
        clock.now = 1_794_999_980.0
        async with open_in_process() as sandbox:
            await sandbox.call("POST", clusters(sandbox), json=NEW)
            await sandbox.call("DELETE", clusters(sandbox) + "/orders-staging")
            clock.advance(SECONDS)
            cluster = (await sandbox.get(clusters(sandbox) + "/reporting")).json()
            log = (await sandbox.get(f"/groups/{sandbox.project_id('staging')}/events?itemsPerPage=4")).json()
            seen.append((cluster, log))
    assert seen[0] == seen[1]


async def test_stuck_operation_never_leaves_creating_and_its_events_say_why(open_sandbox):
    drill = SCENARIOS["stuck-operation"]
    async with open_sandbox(**drill.server) as sandbox:
        started = sandbox.clock.now
        path = clusters(sandbox) + "/orders-reporting"
        stuck = (await sandbox.get(path)).json()
        assert (stuck["stateName"], stuck["connectionStrings"], stuck["createDate"]) == (
            "CREATING",
            {},
            iso(started - 3600),
        )
        region = stuck["replicationSpecs"][0]["regionConfigs"][0]
        assert (region["regionName"], region["electableSpecs"]["instanceSize"]) == ("US_EAST_1", "M30")

        for _ in range(3):
            sandbox.clock.advance(1000)
            assert (await sandbox.get(path)).json()["stateName"] == "CREATING"
        assert (await sandbox.call("PATCH", path, json={"backupEnabled": False})).json()["stateName"] == "CREATING"
        sandbox.clock.advance(SECONDS)
        assert (await sandbox.get(path)).json()["stateName"] == "CREATING"

        found = await sandbox.get(f"/groups/{sandbox.project_id('staging')}/events?itemsPerPage=5")
        log = [event for event in found.json()["results"] if event.get("clusterName") == "orders-reporting"]
        why = log[1]
        assert (why["eventTypeName"], why["clusterName"], why["created"]) == (
            "CLUSTER_OPERATION_STUCK",
            "orders-reporting",
            iso(started - 3600 + SECONDS),
        )
        assert why["description"] == "No capacity in region US_EAST_1 for M30; the operation waits for it."
        assert [(e["eventTypeName"], e["created"]) for e in (log[0], log[2])] == [
            ("CLUSTER_UPDATE_SUBMITTED", iso(started + 3000)),
            ("CLUSTER_CREATED", iso(started - 3600)),
        ]


async def test_a_stuck_cluster_can_still_be_deleted(open_sandbox):
    async with open_sandbox(**SCENARIOS["stuck-operation"].server) as sandbox:
        path = clusters(sandbox) + "/orders-reporting"
        assert (await sandbox.call("DELETE", path)).status_code == 202
        sandbox.clock.advance(SECONDS)
        assert (await sandbox.get(path)).status_code == 404


def test_the_drill_s_lesson_names_the_cluster_and_the_reason():
    drill = SCENARIOS["stuck-operation"]
    assert drill.settings().stuck_operation is True
    assert drill.lesson == (
        "Cluster orders-reporting in project staging stays CREATING however long you watch it; the project's "
        "events say why (CLUSTER_OPERATION_STUCK: no capacity in US_EAST_1 for M30)."
    )


def test_without_the_drill_there_is_no_stuck_cluster():
    from explorer.sandbox import create_app

    world = create_app(Settings()).state.sandbox.world
    assert "orders-reporting" not in world.project_named("staging").clusters


@pytest.mark.parametrize("seconds", [-1, -20])
def test_negative_operation_seconds_are_refused(seconds):
    with pytest.raises(ValueError, match="^operation-seconds must not be negative$"):
        Settings(operation_seconds=seconds)


def explorer(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "explorer", *words], capture_output=True, text=True, timeout=60)


@pytest.mark.subprocess
def test_the_demo_takes_operation_seconds_and_refuses_a_negative_one():
    refused = explorer("get", "--operation-seconds", "-1", "/")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "argument --operation-seconds: '-1' is not a whole number of seconds, 0 or more" in refused.stderr
    taken = explorer("get", "--operation-seconds", "0", "/groups")  # the demo's flag: it implies --demo
    assert taken.returncode == 0, taken.stderr
    assert "staging" in [p["name"] for p in json.loads(taken.stdout)["results"]]


@pytest.mark.subprocess
def test_the_demo_runs_the_stuck_operation_drill():
    staging = seed_world(Settings().seed).project_named("staging").id
    ran = explorer("get", "--scenario", "stuck-operation", f"/groups/{staging}/clusters/orders-reporting")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["stateName"] == "CREATING"


async def test_seeded_clusters_caught_mid_operation_finish_after_the_operation_time(open_sandbox):
    async with open_sandbox() as sandbox:
        started = sandbox.clock.now
        assert (await listed(sandbox))["ml-staging"] == "CREATING"
        assert (await listed(sandbox, "production"))["search-prod"] == "UPDATING"
        sandbox.clock.advance(SECONDS)
        assert (await listed(sandbox))["ml-staging"] == "IDLE"
        assert (await listed(sandbox, "production"))["search-prod"] == "IDLE"
        found = await sandbox.get(f"/groups/{sandbox.project_id('staging')}/events?itemsPerPage=1")
        (ready,) = found.json()["results"]
        assert (ready["eventTypeName"], ready["clusterName"], ready["created"]) == (
            "CLUSTER_READY",
            "ml-staging",
            iso(started + SECONDS),
        )


async def test_in_the_stuck_drill_the_stuck_cluster_is_the_only_one_left_creating(open_sandbox):
    async with open_sandbox(**SCENARIOS["stuck-operation"].server) as sandbox:
        states = await listed(sandbox)
        assert [name for name, state in states.items() if state != "IDLE"] == ["orders-reporting"]
