"""A cluster the sandbox makes, as the service reports it: new, then ready.

A create makes one (resources/cluster_writes.py), and so does the drill stuck-operation
(stuck_cluster.py); the end of its operation makes it ready (operations.py). They take the shape of the
seeded clusters (seed/clusters.py), so that a made cluster and a seeded one read alike.
"""

from __future__ import annotations

import copy
from datetime import datetime

from explorer.sandbox.seed.catalog import MONGODB_VERSION
from explorer.sandbox.seed.clusters import connection_strings
from explorer.sandbox.seed.dice import derived_id
from explorer.sandbox.world import Cluster, IdFactory, Project, Record, iso

MONGODB_VERSIONS = {"7.0": "7.0.24", MONGODB_VERSION.rsplit(".", 1)[0]: MONGODB_VERSION}
ADVANCED = {
    "customOpensslCipherConfigTls12": [],
    "minimumEnabledTlsProtocol": "TLS1_2",
    "tlsCipherConfigMode": "DEFAULT",
}


def region_config(given: Record) -> Record:
    """A region config as the service reports it: the node kinds it was not given, with none of them."""
    config = dict(given)
    if config["providerName"] == "TENANT":
        config.setdefault("backingProviderName", "AWS")
    else:
        none = {**config["electableSpecs"], "nodeCount": 0}
        config.setdefault("analyticsSpecs", none)
        config.setdefault("readOnlySpecs", none)
        config["autoScaling"] = {"compute": {"enabled": False, "scaleDownEnabled": False}, "diskGB": {"enabled": True}}
    return dict(sorted(config.items()))


def replication_spec(ids: IdFactory, now: datetime, given: Record, index: int) -> Record:
    """A replication spec as the sandbox keeps it (the 2023-01-01 shape, with numShards)."""
    return {
        "id": ids(now),
        "numShards": given.get("numShards", 1),
        "regionConfigs": [region_config(config) for config in given["regionConfigs"]],
        "zoneId": ids(now),
        "zoneName": given.get("zoneName", f"Zone {index}"),
    }


def new_cluster(ids: IdFactory, project: Project, given: Record, specs: list[Record], now: datetime) -> Cluster:
    """A cluster just asked for, from the fields `given` (checked): CREATING, without connection
    strings, which it has once it is ready."""
    tenant = specs[0]["regionConfigs"][0]["providerName"] == "TENANT"
    major = given.get("mongoDBMajorVersion", MONGODB_VERSION.rsplit(".", 1)[0])
    return Cluster(
        {
            "advancedConfiguration": copy.deepcopy(ADVANCED),
            "backupEnabled": given.get("backupEnabled", False),
            "biConnector": {"enabled": False, "readPreference": "secondary"},
            "clusterType": given["clusterType"],
            "connectionStrings": {},
            "createDate": iso(now),
            "diskSizeGB": float(given.get("diskSizeGB", 0.5 if tenant else 10)),
            "diskWarmingMode": "FULLY_WARMED",
            "encryptionAtRestProvider": "NONE",
            "globalClusterSelfManagedSharding": False,
            "groupId": project.id,
            "id": ids(now),
            "labels": given.get("labels", []),
            "mongoDBMajorVersion": major,
            "mongoDBVersion": MONGODB_VERSIONS[major],
            "name": given["name"],
            "paused": False,
            "pitEnabled": given.get("pitEnabled", False),
            "replicationSpecs": specs,
            "rootCertType": "ISRGROOTX1",
            "stateName": "CREATING",
            "tags": given.get("tags", []),
            "terminationProtectionEnabled": given.get("terminationProtectionEnabled", False),
            "versionReleaseSystem": given.get("versionReleaseSystem", "LTS"),
        }
    )


def ready_connection_strings(cluster: Cluster) -> Record:
    """The connection strings a made cluster has once it is ready, shaped as a seeded one's; its
    host names follow from its id, so that the same requests give the same names."""
    label = derived_id(cluster.fields["id"])[:6]
    domain = f"{label}.mongodb.net"
    shards = sum(spec["numShards"] for spec in cluster.fields["replicationSpecs"])
    nodes = [f"{cluster.name}-shard-{s:02d}-{n:02d}.{domain}" for s in range(shards) for n in range(3)]
    return connection_strings(cluster.name, domain, nodes, f"atlas-{label}-shard")
