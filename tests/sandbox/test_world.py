"""The generated world: deterministic from the seed, and shaped like the real service's data."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from explorer.sandbox import Settings, create_app
from tests.conftest import REAL_RESPONSES
from tests.real_response import read_recorded
from tests.sandbox.conftest import API

OBJECT_ID = re.compile(r"[0-9a-f]{24}")

# Each kind: where the sandbox serves one (or a list of them), the recorded files holding that kind
# (entities or list items), and the fields the sandbox adds beyond the recordings, with the reason.
KINDS = {
    "org": ("/orgs/{org}", ["orgs_1", "orgs_a0123456789abcdef012345a_1"], {}),
    "project": ("/groups/{project}", ["groups_1", "groups_6a793feb2c88faeba59bd8f6_1"], {}),
    "cluster": (
        "/groups/{project}/clusters/orders-prod",
        ["groups_b0123456789abcdef012345b_clusters_cluster-989_1", "groups_6a799efbc0eb9e7a177d7e0e_clusters_1"],
        {},
    ),
    "database user": (
        "/groups/{project}/databaseUsers/admin/app-orders",
        [
            "groups_b0123456789abcdef012345b_databaseUsers_1",
            "groups_b0123456789abcdef012345b_databaseUsers_admin_user-253_1",
        ],
        {},
    ),
    "process": (
        "/groups/{project}/processes/{process}",
        ["groups_6a793f5cc0eb9e7a177147ec_processes_1"],
        {"clusterName": "names the cluster the process belongs to, as alerts and events do"},
    ),
    "measurements": (
        "/groups/{project}/processes/{process}/measurements",
        [
            "groups_6a793f53c0eb9e7a177137c2_processes_atlas-qgu1cy-shard-00-00.fyfn6y.mongodb-dev.net_27017_measurements_1"
        ],
        {},
    ),
    "event": (
        "/groups/{project}/events?itemsPerPage=500",
        ["groups_b0123456789abcdef012345b_events_1", "orgs_a0123456789abcdef012345a_events_1"],
        {
            "hostname": "HOST_RESTARTED events name the host",
            "port": "and its port",
            "userId": "the user who acted",
            "username": "the user who acted",
        },
    ),
    "alert": (
        "/groups/{project}/alerts/{alert}",
        [
            "groups_b0123456789abcdef012345b_alerts_1",
            "groups_b0123456789abcdef012345b_alerts_5efdb5dd5b306e51e2e9b05b_1",
        ],
        {
            "clusterName": "host alerts name their cluster",
            "hostnameAndPort": "host alerts",
            "metricName": "metric alerts",
            "currentValue": "metric alerts",
        },
    ),
    "alert configuration": (
        "/groups/{project}/alertConfigs/{config}",
        ["groups_b0123456789abcdef012345b_alertConfigs_1"],
        {"metricThreshold": "metric alert configurations"},
    ),
    "team": ("/orgs/{org}/teams/{team}", ["orgs_a0123456789abcdef012345a_teams_1"], {}),
    "user": ("/users/{user}", ["users_5e4bc367c6b0f41bb9bbb178_1"], {}),
    "access list entry": (
        "/groups/{project}/accessList/10.20.0.0%2F16",
        ["groups_6a793f62c0eb9e7a1771502a_accessList_1"],
        {},
    ),
    "snapshot": (
        "/groups/{project}/clusters/orders-prod/backup/snapshots/{snapshot}",
        ["groups_b0123456789abcdef012345b_clusters_cluster-209_backup_snapshots_1"],
        {"lastOplogAppliedTimestamp": "the BSON timestamp of spec 2.8"},
    ),
    "restore job": (
        "/groups/{project}/clusters/orders-prod/backup/restoreJobs/{job}",
        ["groups_6a793f6b2c88faeba59bae37_clusters_backupRestores-305_backup_restoreJobs_1"],
        {},
    ),
}


def keys_of(body: dict) -> set[str]:
    """The field names of an entity, or of all the items of a list."""
    return set().union(*(set(document) for document in body.get("results", [body])))


def recorded_keys(stems: list[str]) -> set[str]:
    bodies = [json.loads(read_recorded(REAL_RESPONSES / f"200_GET_api_atlas_v2_{stem}.http").body) for stem in stems]
    return set().union(*(keys_of(body) for body in bodies)) | {"links"}


@pytest.fixture
async def client():
    app = create_app(Settings(rate_limit=100_000))
    auth = httpx.DigestAuth(Settings().public_key, Settings().private_key)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://sandbox.test", auth=auth
    ) as http:
        http.world = app.state.sandbox.world
        yield http


def names(world) -> dict[str, str]:
    project = world.project_named("production")
    cluster = project.clusters["orders-prod"]
    org = world.orgs[project.org_id]
    return {
        "project": project.id,
        "org": org.id,
        "process": next(iter(project.processes)),
        "alert": next(iter(project.alerts)),
        "config": next(iter(project.alert_configs)),
        "team": org.team_ids[0],
        "user": org.user_ids[0],
        "snapshot": next(iter(cluster.snapshots)),
        "job": next(iter(cluster.restore_jobs)),
    }


@pytest.mark.parametrize("kind", list(KINDS))
async def test_each_kind_uses_the_field_names_of_the_real_service(client, kind):
    path, stems, extras = KINDS[kind]
    response = await client.get(API + path.format(**names(client.world)))
    assert response.status_code == 200

    served = keys_of(response.json())
    recorded = recorded_keys(stems)
    assert served - recorded <= set(extras), served - recorded - set(extras)
    assert len(served & recorded) >= 0.6 * len(recorded - {"links"}), sorted(recorded - served)


async def test_identifiers_are_24_hex_characters(client):
    body = (await client.get(API + "/groups")).json()
    assert all(OBJECT_ID.fullmatch(p["id"]) and OBJECT_ID.fullmatch(p["orgId"]) for p in body["results"])


@pytest.mark.slow
async def test_the_same_seed_gives_the_same_world_and_another_seed_another():
    async def snapshot(seed: int) -> list[str]:
        app = create_app(Settings(seed=seed))
        auth = httpx.DigestAuth(Settings().public_key, Settings().private_key)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://s", auth=auth) as http:
            project = app.state.sandbox.world.project_named("production").id
            paths = ["/groups", f"/groups/{project}/events?itemsPerPage=500", f"/groups/{project}/clusters"]
            return [(await http.get(API + p)).text for p in paths]

    assert await snapshot(7) == await snapshot(7)
    assert await snapshot(7) != await snapshot(8)


def test_the_world_has_what_the_lessons_need():
    world = create_app().state.sandbox.world
    projects = {p.fields["name"]: p for p in world.projects.values()}
    assert len(world.orgs) >= 1 and len(projects) >= 4
    assert max(len(p.events) for p in projects.values()) > 1000
    assert sum(len(p.clusters) for p in projects.values()) >= 5
    assert any(not p.clusters for p in projects.values())  # at least one empty list
    assert all(
        c.fields["connectionStrings"] or c.fields["stateName"] == "CREATING"
        for p in projects.values()
        for c in p.clusters.values()
    )
    assert any(c.restore_jobs for p in projects.values() for c in p.clusters.values())
