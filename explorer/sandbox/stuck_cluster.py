"""The drill stuck-operation: a cluster whose creation waits for capacity that never comes.

Operations on the real service do get stuck (a region short of an instance size, a quota, a
provider's incident); the cluster then says nothing but its state, and the project's events say
why. The sandbox makes one such cluster, created an hour before it started, so that a class
learns to look there rather than press `r` again.

Its names are read by the scenarios' descriptions, which the command line's help shows: the world's
modules are imported when the cluster is made, not with them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from explorer.sandbox.operations import Operations
    from explorer.sandbox.world import Cluster, World

PROJECT = "staging"
NAME = "orders-reporting"
REGION = "US_EAST_1"
SIZE = "M30"
STUCK_EVENT = "CLUSTER_OPERATION_STUCK"
REASON = f"No capacity in region {REGION} for {SIZE}; the operation waits for it."
AGO = timedelta(hours=1)


def add_stuck_cluster(world: World, operations: Operations) -> Cluster:
    """The stuck cluster in project staging, CREATING for ever, and its events: its creation an
    hour ago, then, when it would have been ready, the reason it is not."""
    from explorer.sandbox.cluster_records import new_cluster, replication_spec
    from explorer.sandbox.world import Operation, new_event

    project = world.project_named(PROJECT)
    if project is None:
        raise LookupError(f"the drill stuck-operation needs the seeded project {PROJECT!r}")
    now = datetime.fromtimestamp(operations.clock(), UTC).replace(microsecond=0)
    created = now - AGO
    hardware = {"instanceSize": SIZE, "nodeCount": 3}
    region = {"providerName": "AWS", "regionName": REGION, "priority": 7, "electableSpecs": hardware}
    specs = [replication_spec(world.ids, created, {"regionConfigs": [region]}, 1)]
    given = {"name": NAME, "clusterType": "REPLICASET", "backupEnabled": True}
    cluster = new_cluster(world.ids, project, given, specs, created)
    operations.hold(cluster, Operation("create", None))
    project.clusters[NAME] = cluster
    due = created + timedelta(seconds=operations.seconds)
    project.events.add(new_event(world.ids, project, created, "CLUSTER_CREATED", clusterName=NAME))
    project.events.add(new_event(world.ids, project, due, STUCK_EVENT, clusterName=NAME, description=REASON))
    return cluster
