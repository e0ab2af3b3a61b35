"""Clusters made, changed and deleted: what the service answers at once, the rest going on after.

A new cluster answers 201 in state CREATING, with no connection strings yet; a change answers 200
with the cluster as changed, in state UPDATING; a deleted one answers 202 Accepted and shows
DELETING, still listed. Each then goes on for `--operation-seconds` by the sandbox's clock: the
new cluster becomes IDLE with its connection strings, the changed one IDLE, the deleted one is
gone (operations.py, which also says what a change to a cluster still CREATING does). A body
follows the version asked for, as its reads do (clusters.py): in 2023-01-01 a replication spec
may say `numShards`; in 2024-08-05 each spec is one shard.
"""

from __future__ import annotations

import json
from itertools import groupby

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.cluster_records import MONGODB_VERSIONS, new_cluster, replication_spec
from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.query import Query
from explorer.sandbox.resources.clusters import cluster_document, find_cluster
from explorer.sandbox.resources.common import (
    done,
    find_project,
    hrefs,
    linked,
    now_of,
    project_event,
    sandbox,
    version,
    world,
)
from explorer.sandbox.shapes import (
    LINKS,
    TAGS,
    Boolean,
    Choice,
    Date,
    Identifier,
    ListOf,
    Number,
    Object,
    Reported,
    Text,
)
from explorer.sandbox.versions import CLUSTERS
from explorer.sandbox.world import Cluster, Project, Record
from explorer.sandbox.writes import Fields, read_fields, writes

PROVIDERS = ("AWS", "AZURE", "GCP")
HARDWARE = Object(
    {
        "instanceSize": Text(2, 5, pattern="M[0-9]{1,3}", expected="an instance size such as M10"),
        "nodeCount": Number(0, 50, whole=True),
        "diskIOPS": Number(100, 64000, whole=True),
        "ebsVolumeType": Choice(("STANDARD", "PROVISIONED")),
    },
    optional=frozenset({"diskIOPS", "ebsVolumeType"}),
)
REGION = Object(
    {
        "providerName": Choice((*PROVIDERS, "TENANT")),
        "backingProviderName": Choice(PROVIDERS),
        "regionName": Text(2, 32, pattern="[A-Z0-9_]+", expected="a region such as US_EAST_1"),
        "priority": Number(0, 7, whole=True),
        "electableSpecs": HARDWARE,
        "readOnlySpecs": HARDWARE,
        "analyticsSpecs": HARDWARE,
    },
    optional=frozenset({"backingProviderName", "readOnlySpecs", "analyticsSpecs"}),
)
SPEC = Object(
    {
        "numShards": Number(1, 50, whole=True),
        "zoneName": Text(1, 64),
        "regionConfigs": ListOf(REGION, "region configs", minimum=1, maximum=10),
    },
    optional=frozenset({"numShards", "zoneName"}),
)
SPECS_EXPECTED = "replication specs, each with regionConfigs (providerName, regionName, priority, electableSpecs)"
CHANGEABLE = {
    "backupEnabled": Boolean(),
    "pitEnabled": Boolean(),
    "terminationProtectionEnabled": Boolean(),
    "labels": TAGS,
    "tags": TAGS,
    "mongoDBMajorVersion": Choice(tuple(MONGODB_VERSIONS)),
    "diskSizeGB": Number(10, 4096),
    "versionReleaseSystem": Choice(("LTS", "CONTINUOUS")),
}
REPORTED = {
    "advancedConfiguration": Reported("object"),
    "biConnector": Reported("object"),
    "connectionStrings": Reported("object"),
    "createDate": Date(),
    "diskWarmingMode": Reported("string"),
    "encryptionAtRestProvider": Reported("string"),
    "globalClusterSelfManagedSharding": Reported("boolean"),
    "groupId": Identifier(),
    "id": Identifier(),
    "mongoDBVersion": Reported("string"),
    "rootCertType": Reported("string"),
    "stateName": Reported("string"),
    "links": LINKS,
}
NAME = Text(1, 64, pattern="[A-Za-z0-9][A-Za-z0-9-]*", expected="1 to 64 ASCII letters, digits and hyphens")
CLUSTER_TYPE = Choice(("REPLICASET", "SHARDED"))
CREATE = Fields(
    "CreateCluster",
    writable={
        "name": NAME,
        "clusterType": CLUSTER_TYPE,
        "replicationSpecs": ListOf(SPEC, SPECS_EXPECTED, minimum=1, maximum=50),
        **CHANGEABLE,
    },
    required=("name", "clusterType", "replicationSpecs"),
    read_only={**REPORTED, "paused": Boolean()},  # a cluster is not created paused
    example={
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
        "backupEnabled": True,
        "tags": [{"key": "env", "value": "dev"}],
    },
    description="A cluster to create in the project; its name is unique there.",
)
UPDATE = Fields(
    "UpdateCluster",
    writable={**CHANGEABLE, "paused": Boolean()},
    read_only={
        **REPORTED,
        "name": NAME,
        "clusterType": CLUSTER_TYPE,
        "replicationSpecs": Reported("array"),
    },
    example={"backupEnabled": True, "tags": [{"key": "env", "value": "staging"}]},
    description="The fields of a cluster to change; the others keep their values.",
)


def refuse_specs(detail: str) -> ApiProblem:
    return ApiProblem(
        400, "INVALID_ATTRIBUTE", f"Invalid value for attribute replicationSpecs: {detail}.", ["replicationSpecs"]
    )


def stored_specs(request: Request, fields: Record, served: str) -> list[Record]:
    """The replication specs as the sandbox keeps them (the 2023-01-01 shape, with numShards)."""
    given: list[Record] = fields["replicationSpecs"]
    if served != CLUSTERS[0].date:
        if any("numShards" in spec for spec in given):
            raise refuse_specs(f"numShards is not a field of version {served}; give one replication spec per shard")
        # Shards alike (the same zone and regions) are one spec of that many shards, as in 2023-01-01.
        merged = []
        for _, alike in groupby(given, key=lambda spec: json.dumps(spec, sort_keys=True)):
            shards = list(alike)
            merged.append({**shards[0], "numShards": len(shards)})
        given = merged
    if fields["clusterType"] == "REPLICASET" and (len(given) > 1 or given[0].get("numShards", 1) > 1):
        raise refuse_specs("a replica set has one replication spec of one shard")
    now = now_of(request)
    return [replication_spec(world(request).ids, now, spec, index) for index, spec in enumerate(given, 1)]


def check_name_free(project: Project, name: str) -> None:
    if name in project.clusters:
        raise ApiProblem(
            409,
            "DUPLICATE_CLUSTER_NAME",
            f"A cluster named {name} is already present in group {project.id}.",
            [name, project.id],
        )


def check_not_deleting(project: Project, cluster: Cluster) -> None:
    if cluster.fields["stateName"] == "DELETING":
        raise ApiProblem(
            400,
            "CLUSTER_ALREADY_REQUESTED_DELETION",
            f"The cluster {cluster.name} has already been requested for deletion.",
            [cluster.name, project.id],
        )


@writes(201, CREATE, refusals=(409,), description="Created: the cluster, in state CREATING.")
async def create_cluster(request: Request) -> Response:
    """Create a cluster in a project.

    It answers at once, in state CREATING and without connection strings; once the service has
    made it, it is IDLE and has them."""
    project = find_project(request)
    query = Query(request)
    fields = await read_fields(request)
    check_name_free(project, fields["name"])
    served = version(request)
    specs = stored_specs(request, fields, served)
    cluster = new_cluster(world(request).ids, project, fields, specs, now_of(request))
    sandbox(request).operations.start(project, cluster, "create")
    project.clusters[cluster.name] = cluster
    project_event(request, project, "CLUSTER_CREATED", clusterName=cluster.name)
    return done(request, query, cluster_document(hrefs(request), project, cluster, True, served))


@writes(200, UPDATE, description="OK: the cluster as it now is, in state UPDATING until the change is applied.")
async def update_cluster(request: Request) -> Response:
    """Update one cluster of a project.

    Only the fields sent change; a read-only one (its name, state, replication specs) may repeat
    its value but not change it. The cluster is UPDATING while the service applies the change (a
    pause or a resume too), then IDLE; one still CREATING stays so, its creation taking the change."""
    project, cluster = find_cluster(request)
    query = Query(request)
    url_of = hrefs(request)
    served = version(request)
    check_not_deleting(project, cluster)
    changes = await read_fields(request, linked(request, cluster_document(url_of, project, cluster, True, served)))
    if "diskSizeGB" in changes:
        changes["diskSizeGB"] = float(changes["diskSizeGB"])
    if "mongoDBMajorVersion" in changes:
        changes["mongoDBVersion"] = MONGODB_VERSIONS[changes["mongoDBMajorVersion"]]
    cluster.fields.update(changes)
    sandbox(request).operations.start(project, cluster, "update")
    project_event(request, project, "CLUSTER_UPDATE_SUBMITTED", clusterName=cluster.name)
    return done(request, query, cluster_document(url_of, project, cluster, True, served))


@writes(202, description="Accepted: the deletion goes on; meanwhile the cluster shows stateName DELETING.")
async def delete_cluster(request: Request) -> Response:
    """Delete one cluster of a project.

    The deletion goes on after the answer: the cluster stays listed, in state DELETING, until it
    is gone (then 404 CLUSTER_NOT_FOUND). One with termination protection on (the demo's `-prod`
    clusters) is refused, as the service refuses it, until a PATCH turns it off."""
    project, cluster = find_cluster(request)
    query = Query(request)
    check_not_deleting(project, cluster)
    if cluster.fields.get("terminationProtectionEnabled"):
        raise ApiProblem(
            400,
            "CANNOT_TERMINATE_CLUSTER_WHEN_TERMINATION_PROTECTION_ENABLED",
            f"Cannot terminate cluster {cluster.name} while termination protection is enabled: "
            "turn terminationProtectionEnabled off first.",
            [cluster.name],
        )
    sandbox(request).operations.start(project, cluster, "delete")
    project_event(request, project, "CLUSTER_DELETE_SUBMITTED", clusterName=cluster.name)
    return done(request, query)
