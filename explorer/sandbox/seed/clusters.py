"""Clusters, the processes that run them, and their backups: snapshots and restore jobs."""

from __future__ import annotations

from datetime import datetime, timedelta

from explorer.sandbox.seed.catalog import MONGODB_VERSION, ClusterPlan
from explorer.sandbox.seed.dice import Dice
from explorer.sandbox.world import Cluster, Project, Record, iso


def cluster(dice: Dice, project: Project, plan: ClusterPlan) -> None:
    created = dice.ago(60, 400)
    domain = f"{dice.name(6)}.mongodb.net"
    nodes = [f"{plan.name}-shard-{s:02d}-{n:02d}.{domain}" for s in range(plan.shards) for n in range(3)]
    replica_set = f"atlas-{domain.split('.')[0]}-shard"
    fields = {
        "advancedConfiguration": {
            "customOpensslCipherConfigTls12": [],
            "minimumEnabledTlsProtocol": "TLS1_2",
            "tlsCipherConfigMode": "DEFAULT",
        },
        "backupEnabled": plan.backup,
        "biConnector": {"enabled": False, "readPreference": "secondary"},
        "clusterType": plan.cluster_type,
        "connectionStrings": {}
        if plan.state == "CREATING"
        else connection_strings(plan.name, domain, nodes, replica_set),
        "createDate": iso(created),
        "diskSizeGB": 0.5 if plan.provider == "TENANT" else float(dice.choice([10, 40, 80, 160])),
        "diskWarmingMode": "FULLY_WARMED",
        "encryptionAtRestProvider": "NONE",
        "globalClusterSelfManagedSharding": False,
        "groupId": project.id,
        "id": dice.new_id(created),
        "labels": [],
        "mongoDBMajorVersion": MONGODB_VERSION.rsplit(".", 1)[0],
        "mongoDBVersion": MONGODB_VERSION,
        "name": plan.name,
        "paused": plan.paused,
        "pitEnabled": plan.pit,
        "replicationSpecs": [
            {
                "id": dice.new_id(created),
                "numShards": plan.shards,
                "regionConfigs": [region_config(plan)],
                "zoneId": dice.new_id(created),
                "zoneName": "Zone 1",
            }
        ],
        "rootCertType": "ISRGROOTX1",
        "stateName": plan.state,
        "tags": [],
        "terminationProtectionEnabled": plan.name.endswith("-prod"),
        "versionReleaseSystem": "LTS",
    }
    made = Cluster(fields)
    project.clusters[plan.name] = made
    if plan.state != "CREATING" and not plan.paused:
        processes(dice, project, made, nodes, replica_set, sharded=plan.cluster_type == "SHARDED")
    if plan.backup:
        snapshots(dice, made, plan.cluster_type)
        restore_jobs(dice, project, made, plan.restore_jobs)


def connection_strings(name: str, domain: str, nodes: list[str], replica_set: str) -> Record:
    hosts = ",".join(f"{node}:27017" for node in nodes[:3])
    return {
        "standard": f"mongodb://{hosts}/?ssl=true&authSource=admin&replicaSet={replica_set}-0",
        "standardSrv": f"mongodb+srv://{name}.{domain}",
    }


def region_config(plan: ClusterPlan) -> Record:
    specs: Record = {"instanceSize": plan.size, "nodeCount": 3}
    if plan.provider == "AWS":
        specs |= {"diskIOPS": 3000, "ebsVolumeType": "STANDARD"}
    config: Record = {"electableSpecs": specs, "priority": 7, "providerName": plan.provider, "regionName": plan.region}
    if plan.provider == "TENANT":
        return config | {"backingProviderName": "AWS"}
    return config | {
        "analyticsSpecs": {**specs, "nodeCount": 0},
        "autoScaling": {"compute": {"enabled": False, "scaleDownEnabled": False}, "diskGB": {"enabled": True}},
        "readOnlySpecs": {**specs, "nodeCount": 0},
    }


def processes(dice: Dice, project: Project, owner: Cluster, nodes: list[str], replica_set: str, sharded: bool) -> None:
    """Three mongod per shard, the first of each its primary; two mongos in front of a sharded cluster."""
    started = datetime.fromisoformat(owner.fields["createDate"]) + timedelta(minutes=7)
    for index, hostname in enumerate(nodes):
        role = "REPLICA_PRIMARY" if index % 3 == 0 else "REPLICA_SECONDARY"
        process(dice, project, owner, hostname, 27017, f"{replica_set}-{index // 3}", role, started)
    if sharded:
        domain = nodes[0].split(".", 1)[1]
        for index in range(2):
            hostname = f"{owner.name}-mongos-{index:02d}.{domain}"
            process(dice, project, owner, hostname, 27016, None, "SHARD_MONGOS", started)


def process(
    dice: Dice,
    project: Project,
    owner: Cluster,
    hostname: str,
    port: int,
    replica_set: str | None,
    type_name: str,
    started: datetime,
) -> None:
    made: Record = {
        "clusterName": owner.name,
        "created": iso(started),
        "groupId": project.id,
        "hostname": hostname,
        "id": f"{hostname}:{port}",
        "lastPing": iso(dice.epoch - timedelta(seconds=dice.integer(5, 55))),
        "port": port,
        "typeName": type_name,
        "userAlias": hostname.replace(".mongodb.net", ".alias.mongodb.net"),
        "version": MONGODB_VERSION,
    }
    if replica_set:
        made["replicaSetName"] = replica_set
    project.processes[made["id"]] = made


def snapshots(dice: Dice, owner: Cluster, cluster_type: str) -> None:
    """Twelve daily snapshots, and one on demand still in progress."""
    policy = dice.new_id(dice.epoch - timedelta(days=300))
    for day in range(12, 0, -1):
        taken = (dice.epoch - timedelta(days=day)).replace(
            hour=2, minute=dice.integer(0, 59), second=dice.integer(0, 59)
        )
        snapshot(dice, owner, cluster_type, taken, "daily", "completed", policy)
    taken = dice.epoch - timedelta(hours=3, minutes=dice.integer(0, 59))
    snapshot(dice, owner, cluster_type, taken, "ondemand", "inProgress", None, "before schema migration")


def snapshot(
    dice: Dice,
    owner: Cluster,
    cluster_type: str,
    taken: datetime,
    frequency: str,
    status: str,
    policy: str | None,
    description: str | None = None,
) -> None:
    made: Record = {
        "cloudProvider": owner.fields["replicationSpecs"][0]["regionConfigs"][0]["providerName"],
        "copyRegions": [],
        "createdAt": iso(taken),
        "expiresAt": iso(taken + timedelta(days=7 if frequency == "daily" else 1)),
        "frequencyType": frequency,
        "id": dice.new_id(taken),
        # The BSON timestamp of spec 2.8: a date at second granularity and a 32-bit increment.
        "lastOplogAppliedTimestamp": {"date": iso(taken - timedelta(seconds=2)), "increment": dice.integer(1, 40)},
        "mongodVersion": MONGODB_VERSION,
        "policyItems": [policy] if policy else [],
        "replicaSetName": owner.name,
        "snapshotType": "scheduled" if policy else "onDemand",
        "status": status,
        "storageSizeBytes": dice.integer(800_000_000, 4_000_000_000) if status == "completed" else 0,
        "type": "shardedCluster" if cluster_type == "SHARDED" else "replicaSet",
    }
    if description:
        made["description"] = description
    owner.snapshots[made["id"]] = made


def restore_jobs(dice: Dice, project: Project, owner: Cluster, count: int) -> None:
    """Restores of recent snapshots: in place, then a download, then one that failed."""
    completed = [s for s in owner.snapshots.values() if s["status"] == "completed"]
    for index in range(count):
        source = completed[-1 - index * 2]
        started = datetime.fromisoformat(source["createdAt"]) + timedelta(hours=5)
        download = index == 1
        job: Record = {
            "cancelled": False,
            "deliveryType": "download" if download else "automated",
            "deliveryUrl": [f"https://restore-{dice.name(12)}.backup.example/{source['id']}.tar.gz"]
            if download
            else [],
            "desiredTimestamp": dict(source["lastOplogAppliedTimestamp"]),
            "expired": False,
            "failed": index == 2,
            "id": dice.new_id(started),
            "snapshotId": source["id"],
            "targetGroupId": project.id,
            "timestamp": source["createdAt"],
        }
        if not download:
            job["targetClusterName"] = owner.name
        if not job["failed"]:
            job["finishedAt"] = iso(started + timedelta(minutes=dice.integer(8, 50)))
        owner.restore_jobs[job["id"]] = job
