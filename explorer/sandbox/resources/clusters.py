"""Clusters, their backup snapshots and restore jobs (the BSON timestamps of spec 2.8 live here).

Clusters come in two resource versions, selected by Accept (spec 9): 2023-01-01 describes a
sharded cluster as one replication spec with `numShards`; 2024-08-05 lists one spec per shard.
"""

from __future__ import annotations

import hashlib
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS
from explorer.sandbox.query import Query, takes
from explorer.sandbox.resources.common import (
    find,
    find_project,
    hrefs,
    list_reply,
    reply,
    version,
)
from explorer.sandbox.versions import CLUSTERS
from explorer.sandbox.world import Cluster, Project, Record


def cluster_fields(cluster: Cluster, served: str) -> Record:
    if served == CLUSTERS[0].date:
        return cluster.fields
    specs = []
    for spec in cluster.fields["replicationSpecs"]:
        for shard in range(spec["numShards"]):
            shard_id = spec["id"] if shard == 0 else hashlib.sha1(f"{spec['id']}/{shard}".encode()).hexdigest()[:24]
            specs.append({k: v for k, v in spec.items() if k != "numShards"} | {"id": shard_id})
    return {**cluster.fields, "replicationSpecs": specs}


def cluster_document(url_of: Hrefs, project: Project, cluster: Cluster, full: bool, served: str) -> dict[str, Any]:
    base = ("groups", project.id, "clusters", cluster.name)
    links = [url_of.link("self", *base)]
    if full:
        links += [
            url_of.link("snapshots", *base, "backup", "snapshots"),
            url_of.link("restoreJobs", *base, "backup", "restoreJobs"),
            url_of.link("group", "groups", project.id),
        ]
    return with_links(cluster_fields(cluster, served), links)


def snapshot_document(
    url_of: Hrefs, project: Project, cluster: Cluster, snapshot: Record, full: bool
) -> dict[str, Any]:
    base = ("groups", project.id, "clusters", cluster.name)
    links = [url_of.link("self", *base, "backup", "snapshots", snapshot["id"])]
    if full:
        links.append(url_of.link("cluster", *base))
    return with_links(snapshot, links)


def restore_job_document(url_of: Hrefs, project: Project, cluster: Cluster, job: Record, full: bool) -> dict[str, Any]:
    base = ("groups", project.id, "clusters", cluster.name)
    links = [url_of.link("self", *base, "backup", "restoreJobs", job["id"])]
    if full:
        links += [
            url_of.link("snapshot", *base, "backup", "snapshots", job["snapshotId"]),
            url_of.link("cluster", *base),
            url_of.link("group", "groups", project.id),
        ]
    return with_links(job, links)


def find_cluster(request: Request) -> tuple[Project, Cluster]:
    project = find_project(request)
    name = request.path_params["clusterName"]
    cluster = find(
        project.clusters,
        name,
        "CLUSTER_NOT_FOUND",
        f"No cluster named {name} exists in group {project.id}.",
        name,
        project.id,
    )
    return project, cluster


@takes(PAGE_PARAMS)
async def list_clusters(request: Request) -> Response:
    """Return the clusters of a project."""
    project = find_project(request)
    url_of = hrefs(request)
    served = version(request)
    return list_reply(
        request,
        list(project.clusters.values()),
        lambda c: cluster_document(url_of, project, c, False, served),
        url_of("groups", project.id, "clusters"),
    )


async def get_cluster(request: Request) -> Response:
    """Return one cluster of a project."""
    project, cluster = find_cluster(request)
    document = cluster_document(hrefs(request), project, cluster, True, version(request))
    return reply(request, Query(request), document)


@takes(PAGE_PARAMS)
async def list_snapshots(request: Request) -> Response:
    """Return the backup snapshots of one cluster, newest first."""
    project, cluster = find_cluster(request)
    url_of = hrefs(request)
    return list_reply(
        request,
        sorted(cluster.snapshots.values(), key=lambda s: s["createdAt"], reverse=True),
        lambda s: snapshot_document(url_of, project, cluster, s, False),
        url_of("groups", project.id, "clusters", cluster.name, "backup", "snapshots"),
    )


async def get_snapshot(request: Request) -> Response:
    """Return one backup snapshot of a cluster."""
    project, cluster = find_cluster(request)
    snapshot_id = request.path_params["snapshotId"]
    snapshot = find(
        cluster.snapshots,
        snapshot_id,
        "SNAPSHOT_NOT_FOUND",
        f"No snapshot with ID {snapshot_id} exists for cluster {cluster.name}.",
    )
    return reply(request, Query(request), snapshot_document(hrefs(request), project, cluster, snapshot, True))


@takes(PAGE_PARAMS)
async def list_restore_jobs(request: Request) -> Response:
    """Return the restore jobs of one cluster."""
    project, cluster = find_cluster(request)
    url_of = hrefs(request)
    return list_reply(
        request,
        list(cluster.restore_jobs.values()),
        lambda j: restore_job_document(url_of, project, cluster, j, False),
        url_of("groups", project.id, "clusters", cluster.name, "backup", "restoreJobs"),
    )


async def get_restore_job(request: Request) -> Response:
    """Return one restore job of a cluster."""
    project, cluster = find_cluster(request)
    job_id = request.path_params["jobId"]
    job = find(
        cluster.restore_jobs,
        job_id,
        "RESTORE_JOB_NOT_FOUND",
        f"No restore job with ID {job_id} exists for cluster {cluster.name}.",
    )
    return reply(request, Query(request), restore_job_document(hrefs(request), project, cluster, job, True))
