"""Fill a World from a seed: the same seed gives the same data, byte for byte.

Field names and shapes follow the responses recorded from the real service
(`../shared/real-responses/`). Names of organizations, projects and clusters are fixed so that
the README and the lessons can refer to them; identifiers, sizes, counts and times come from
the seed.
"""

from __future__ import annotations

import hashlib
import math
import random
from datetime import datetime, timedelta, timezone
from typing import Any

from explorer.sandbox.world import (
    Cluster,
    IdFactory,
    Org,
    Project,
    Record,
    Team,
    World,
    iso,
)

EPOCH = datetime(2026, 11, 1, 9, 0, 0, tzinfo=timezone.utc)
MONGODB_VERSION = "8.0.12"

FIRST_NAMES = [
    "Amara", "Bruno", "Chen", "Dalia", "Emeka", "Freya", "Gustavo", "Hana", "Ivan", "Jonas",
    "Keiko", "Lucia", "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq",
]
LAST_NAMES = [
    "Okafor", "Silva", "Wei", "Haddad", "Nwosu", "Lind", "Pereira", "Sato", "Petrov", "Berg",
    "Tanaka", "Romero", "Garcia", "Karimi", "Farouk", "Raman", "Doyle", "Marin", "Holm", "Aziz",
]
COUNTRIES = ["IE", "US", "DE", "BR", "IN", "JP", "NG", "SE", "ES", "GB"]

# name, cluster type, instance size, provider, region, state, backup, pit, paused, shards
CLUSTERS: dict[str, list[tuple[Any, ...]]] = {
    "production": [
        ("orders-prod", "REPLICASET", "M30", "AWS", "US_EAST_1", "IDLE", True, True, False, 1),
        ("catalog-prod", "SHARDED", "M40", "AWS", "EU_WEST_1", "IDLE", True, False, False, 2),
        ("search-prod", "REPLICASET", "M20", "GCP", "CENTRAL_US", "UPDATING", False, False, False, 1),
    ],
    "staging": [
        ("orders-staging", "REPLICASET", "M10", "AWS", "US_EAST_1", "IDLE", True, False, False, 1),
        ("ml-staging", "REPLICASET", "M10", "AZURE", "US_EAST_2", "CREATING", False, False, False, 1),
    ],
    "analytics": [
        ("warehouse", "REPLICASET", "M50", "AWS", "US_WEST_2", "IDLE", True, False, True, 1),
    ],
    "training-lab": [
        ("classroom", "REPLICASET", "M0", "TENANT", "US_EAST_1", "IDLE", False, False, False, 1),
    ],
    "restricted-finance": [
        ("ledger", "REPLICASET", "M30", "AWS", "EU_CENTRAL_1", "IDLE", True, True, False, 1),
    ],
}

# org name, [(project name, tags, database users, events, alerts)]
ORGS = [
    (
        "Acme Corp",
        [
            ("production", [("env", "prod"), ("team", "orders")], 8, 1234, 150),
            ("staging", [("env", "staging")], 4, 180, 12),
            ("analytics", [("env", "prod"), ("team", "data")], 3, 40, 3),
            ("empty-sandbox", [], 0, 1, 0),
        ],
    ),
    (
        "Globex Training",
        [
            ("training-lab", [("purpose", "class")], 25, 60, 2),
            ("restricted-finance", [("env", "prod"), ("owner", "finance")], 2, 20, 1),
        ],
    ),
]
RESTRICTED = {"restricted-finance"}

METRICS = [
    ("CONNECTIONS", "SCALAR", 40.0, 25.0),
    ("OPCOUNTER_QUERY", "SCALAR_PER_SECOND", 120.0, 80.0),
    ("OPCOUNTER_INSERT", "SCALAR_PER_SECOND", 35.0, 30.0),
    ("OPCOUNTER_UPDATE", "SCALAR_PER_SECOND", 22.0, 15.0),
    ("SYSTEM_NORMALIZED_CPU_USER", "PERCENT", 18.0, 12.0),
    ("CACHE_USED_BYTES", "BYTES", 5.4e8, 1.2e8),
    ("CACHE_FILL_RATIO", "PERCENT", 0.62, 0.2),
    ("DISK_PARTITION_SPACE_USED_DATA", "BYTES", 1.9e10, 2.0e9),
    ("QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED", "SCALAR", 3.0, 2.5),
]

ALERT_CONFIGS = [
    ("NO_PRIMARY", None, None),
    ("REPLICATION_OPLOG_WINDOW_RUNNING_OUT", {"operator": "LESS_THAN", "threshold": 1, "units": "HOURS"}, None),
    ("OUTSIDE_METRIC_THRESHOLD", None, ("CONNECTIONS_PERCENT", "GREATER_THAN", 80.0, "RAW")),
    ("OUTSIDE_METRIC_THRESHOLD", None, ("NORMALIZED_SYSTEM_CPU_USER", "GREATER_THAN", 90.0, "RAW")),
    ("OUTSIDE_METRIC_THRESHOLD", None, ("DISK_PARTITION_SPACE_USED_DATA", "GREATER_THAN", 90.0, "RAW")),
    ("CLUSTER_MONGOS_IS_MISSING", None, None),
    ("USERS_WITHOUT_MULTI_FACTOR_AUTH", None, None),
    ("HOST_HAS_INDEX_SUGGESTIONS", None, None),
]

PROJECT_EVENT_TYPES = [
    "CLUSTER_UPDATE_STARTED", "CLUSTER_UPDATE_COMPLETED", "MONGODB_USER_ADDED", "MONGODB_USER_DELETED",
    "HOST_RESTARTED", "PROJECT_SCHEDULED_MAINTENANCE", "NETWORK_PERMISSION_ENTRY_ADDED",
    "ALERT_OPENED", "ALERT_CLOSED", "CLUSTER_OPLOG_RESIZED", "JOINED_GROUP", "API_KEY_ADDED_TO_GROUP",
    "CLOUD_PROVIDER_SNAPSHOT_TAKEN", "AUTO_SCALING_INITIATED",
]
ORG_EVENT_TYPES = [
    "JOINED_ORG", "INVITED_TO_ORG", "TEAM_CREATED", "TEAM_NAME_CHANGED", "ADDED_TO_TEAM",
    "REMOVED_FROM_TEAM", "API_KEY_CREATED", "GROUP_CREATED", "ORG_SETTINGS_UPDATED",
]
ROLES = ["readWriteAnyDatabase", "readAnyDatabase", "atlasAdmin", "readWrite", "read"]


def seed_world(seed: int, epoch: datetime = EPOCH) -> World:
    """The whole world for `seed`: deterministic, and fast enough to build per test."""
    rng = random.Random(seed)
    world = World(epoch=epoch, ids=IdFactory(rng))
    Seeder(world, rng).run()
    return world


class Seeder:
    def __init__(self, world: World, rng: random.Random) -> None:
        self.world = world
        self.rng = rng
        self.epoch = world.epoch

    def ago(self, low_days: float, high_days: float) -> datetime:
        return (self.epoch - timedelta(seconds=self.rng.uniform(low_days, high_days) * 86400)).replace(
            microsecond=0
        )

    def new_id(self, moment: datetime) -> str:
        return self.world.ids(moment)

    def hexname(self, length: int) -> str:
        return "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(length))

    def ip(self) -> str:
        return f"{self.rng.choice([52, 34, 18, 203])}.{self.rng.randrange(256)}.{self.rng.randrange(256)}.{self.rng.randrange(1, 255)}"

    def run(self) -> None:
        used_names: set[tuple[str, str]] = set()
        for org_name, projects in ORGS:
            org = self.org(org_name)
            members = self.users(org, used_names, 14 if org_name == "Acme Corp" else 8)
            self.teams(org, members)
            for name, tags, db_users, events, alerts in projects:
                self.project(org, members, name, tags, db_users, events, alerts)
            org.events.extend(self.org_events(org, members, 75 if org_name == "Acme Corp" else 20))

    # Organizations, users and teams ------------------------------------------------------

    def org(self, name: str) -> Org:
        created = self.ago(900, 1200)
        org = Org({"id": self.new_id(created), "isDeleted": False, "name": name, "skipDefaultAlertsSettings": False})
        self.world.orgs[org.id] = org
        return org

    def users(self, org: Org, used: set[tuple[str, str]], count: int) -> list[Record]:
        domain = org.fields["name"].split()[0].lower() + ".example"
        members = []
        while len(members) < count:
            first, last = self.rng.choice(FIRST_NAMES), self.rng.choice(LAST_NAMES)
            if (first, last) in used:
                continue
            used.add((first, last))
            created = self.ago(30, 900)
            username = f"{first.lower()}.{last.lower()}@{domain}"
            user = {
                "country": self.rng.choice(COUNTRIES),
                "createdAt": iso(created),
                "emailAddress": username,
                "firstName": first,
                "id": self.new_id(created),
                "lastAuth": iso(self.ago(0, 20)),
                "lastName": last,
                "mobileNumber": None,
                "orgId": org.id,
                "orgMembershipStatus": "PENDING" if len(members) == count - 1 else "ACTIVE",
                "orgRoles": ["ORG_OWNER"] if not members else ["ORG_MEMBER"],
                "groupRoles": {},
                "teamIds": [],
                "username": username,
            }
            self.world.users[user["id"]] = user
            org.user_ids.append(user["id"])
            members.append(user)
        return members

    def teams(self, org: Org, members: list[Record]) -> None:
        names = ["platform", "data-eng", "support", "security"] if len(members) > 10 else ["trainers", "students"]
        for name in names:
            created = self.ago(100, 800)
            team = Team({"id": self.new_id(created), "name": name}, org.id)
            team.user_ids = [u["id"] for u in self.rng.sample(members, self.rng.randint(2, 5))]
            for user_id in team.user_ids:
                self.world.users[user_id]["teamIds"].append(team.id)
            self.world.teams[team.id] = team
            org.team_ids.append(team.id)

    # Projects and what they hold -----------------------------------------------------------

    def project(
        self,
        org: Org,
        members: list[Record],
        name: str,
        tags: list[tuple[str, str]],
        db_users: int,
        events: int,
        alerts: int,
    ) -> None:
        created = self.ago(200, 700)
        project = Project(
            {
                "created": iso(created),
                "id": self.new_id(created),
                "name": name,
                "orgId": org.id,
                "tags": [{"key": k, "value": v} for k, v in tags],
                "withDefaultAlertsSettings": True,
            },
            authorized=name not in RESTRICTED,
        )
        self.world.projects[project.id] = project
        for user in self.rng.sample(members, min(3, len(members))):
            user["groupRoles"][project.id] = [self.rng.choice(["GROUP_OWNER", "GROUP_READ_ONLY", "GROUP_DATA_ACCESS_READ_WRITE"])]
        for spec in CLUSTERS.get(name, []):
            self.cluster(project, *spec)
        for index in range(db_users):
            self.database_user(project, index)
        if name != "empty-sandbox":
            self.access_list(project)
            self.alert_configs(project)
            for team_id in self.rng.sample(org.team_ids, min(2, len(org.team_ids))):
                project.teams[team_id] = {
                    "roleNames": self.rng.sample(["GROUP_READ_ONLY", "GROUP_DATA_ACCESS_READ_ONLY", "GROUP_CLUSTER_MANAGER"], 2),
                    "teamId": team_id,
                }
        self.alerts(project, alerts)
        project.events.extend(self.project_events(project, members, events))

    def cluster(
        self,
        project: Project,
        name: str,
        cluster_type: str,
        size: str,
        provider: str,
        region: str,
        state: str,
        backup: bool,
        pit: bool,
        paused: bool,
        shards: int,
    ) -> None:
        created = self.ago(60, 400)
        host_hash = self.hexname(6)
        prefix = f"{name}-shard"
        nodes = [f"{prefix}-{s:02d}-{n:02d}.{host_hash}.mongodb.net" for s in range(shards) for n in range(3)]
        tenant = provider == "TENANT"
        specs = {"instanceSize": size, "nodeCount": 3}
        if not tenant:
            specs |= {"diskIOPS": 3000, "ebsVolumeType": "STANDARD"} if provider == "AWS" else {}
        region_config: Record = {
            "electableSpecs": specs,
            "priority": 7,
            "providerName": provider,
            "regionName": region,
        }
        if tenant:
            region_config["backingProviderName"] = "AWS"
        else:
            region_config |= {
                "analyticsSpecs": {**specs, "nodeCount": 0},
                "autoScaling": {
                    "compute": {"enabled": False, "scaleDownEnabled": False},
                    "diskGB": {"enabled": True},
                },
                "readOnlySpecs": {**specs, "nodeCount": 0},
            }
        fields = {
            "advancedConfiguration": {
                "customOpensslCipherConfigTls12": [],
                "minimumEnabledTlsProtocol": "TLS1_2",
                "tlsCipherConfigMode": "DEFAULT",
            },
            "backupEnabled": backup,
            "biConnector": {"enabled": False, "readPreference": "secondary"},
            "clusterType": cluster_type,
            "connectionStrings": {}
            if state == "CREATING"
            else {
                "standard": "mongodb://" + ",".join(f"{n}:27017" for n in nodes[:3]) + f"/?ssl=true&authSource=admin&replicaSet=atlas-{host_hash}-shard-0",
                "standardSrv": f"mongodb+srv://{name}.{host_hash}.mongodb.net",
            },
            "createDate": iso(created),
            "diskSizeGB": 0.5 if tenant else float(self.rng.choice([10, 40, 80, 160])),
            "diskWarmingMode": "FULLY_WARMED",
            "encryptionAtRestProvider": "NONE",
            "globalClusterSelfManagedSharding": False,
            "groupId": project.id,
            "id": self.new_id(created),
            "labels": [],
            "mongoDBMajorVersion": MONGODB_VERSION.rsplit(".", 1)[0],
            "mongoDBVersion": MONGODB_VERSION,
            "name": name,
            "paused": paused,
            "pitEnabled": pit,
            "replicationSpecs": [
                {
                    "id": self.new_id(created),
                    "numShards": shards,
                    "regionConfigs": [region_config],
                    "zoneId": self.new_id(created),
                    "zoneName": "Zone 1",
                }
            ],
            "rootCertType": "ISRGROOTX1",
            "stateName": state,
            "tags": [],
            "terminationProtectionEnabled": name.endswith("-prod"),
            "versionReleaseSystem": "LTS",
        }
        cluster = Cluster(fields)
        project.clusters[name] = cluster
        if state != "CREATING" and not paused:
            self.processes(project, cluster, nodes, host_hash, cluster_type == "SHARDED")
        if backup:
            self.snapshots(project, cluster, cluster_type)
            if name in ("orders-prod", "catalog-prod"):
                self.restore_jobs(project, cluster, 3 if name == "orders-prod" else 1)

    def processes(self, project: Project, cluster: Cluster, nodes: list[str], host_hash: str, sharded: bool) -> None:
        created = datetime.fromisoformat(cluster.fields["createDate"].replace("Z", "+00:00"))
        for index, hostname in enumerate(nodes):
            shard = index // 3
            self.process(project, cluster, hostname, 27017, f"atlas-{host_hash}-shard-{shard}",
                         "REPLICA_PRIMARY" if index % 3 == 0 else "REPLICA_SECONDARY", created)
        if sharded:
            for index in range(2):
                hostname = f"{cluster.name}-mongos-{index:02d}.{host_hash}.mongodb.net"
                self.process(project, cluster, hostname, 27016, None, "SHARD_MONGOS", created)

    def process(self, project: Project, cluster: Cluster, hostname: str, port: int,
                replica_set: str | None, type_name: str, created: datetime) -> None:
        process = {
            "created": iso(created + timedelta(minutes=7)),
            "groupId": project.id,
            "hostname": hostname,
            "id": f"{hostname}:{port}",
            "lastPing": iso(self.epoch - timedelta(seconds=self.rng.randint(5, 55))),
            "port": port,
            "typeName": type_name,
            "userAlias": hostname.replace(".mongodb.net", ".alias.mongodb.net"),
            "version": MONGODB_VERSION,
            "clusterName": cluster.name,
        }
        if replica_set:
            process["replicaSetName"] = replica_set
        project.processes[process["id"]] = process

    def snapshots(self, project: Project, cluster: Cluster, cluster_type: str) -> None:
        policy = self.new_id(self.epoch - timedelta(days=300))
        for day in range(12, 0, -1):
            created = (self.epoch - timedelta(days=day)).replace(hour=2, minute=self.rng.randint(0, 59), second=self.rng.randint(0, 59))
            self.snapshot(cluster, cluster_type, created, "daily", "scheduled", "completed", policy)
        on_demand = self.epoch - timedelta(hours=3, minutes=self.rng.randint(0, 59))
        self.snapshot(cluster, cluster_type, on_demand.replace(microsecond=0), "ondemand", "onDemand", "inProgress", None,
                      description="before schema migration")

    def snapshot(self, cluster: Cluster, cluster_type: str, created: datetime, frequency: str, kind: str,
                 status: str, policy: str | None, description: str | None = None) -> None:
        snapshot: Record = {
            "cloudProvider": cluster.fields["replicationSpecs"][0]["regionConfigs"][0]["providerName"],
            "copyRegions": [],
            "createdAt": iso(created),
            "expiresAt": iso(created + timedelta(days=7 if frequency == "daily" else 1)),
            "frequencyType": frequency,
            "id": self.new_id(created),
            "lastOplogAppliedTimestamp": {"date": iso(created - timedelta(seconds=2)), "increment": self.rng.randint(1, 40)},
            "mongodVersion": MONGODB_VERSION,
            "policyItems": [policy] if policy else [],
            "replicaSetName": cluster.name,
            "snapshotType": kind,
            "status": status,
            "storageSizeBytes": self.rng.randint(800_000_000, 4_000_000_000) if status == "completed" else 0,
            "type": "shardedCluster" if cluster_type == "SHARDED" else "replicaSet",
        }
        if description:
            snapshot["description"] = description
        cluster.snapshots[snapshot["id"]] = snapshot

    def restore_jobs(self, project: Project, cluster: Cluster, count: int) -> None:
        completed = [s for s in cluster.snapshots.values() if s["status"] == "completed"]
        for index in range(count):
            snapshot = completed[-1 - index * 2]
            started = datetime.fromisoformat(snapshot["createdAt"].replace("Z", "+00:00")) + timedelta(hours=5)
            job: Record = {
                "cancelled": False,
                "deliveryType": "automated" if index != 1 else "download",
                "desiredTimestamp": dict(snapshot["lastOplogAppliedTimestamp"]),
                "expired": False,
                "failed": index == 2,
                "id": self.new_id(started),
                "snapshotId": snapshot["id"],
                "targetClusterName": cluster.name if index != 1 else None,
                "targetGroupId": project.id,
                "timestamp": snapshot["createdAt"],
            }
            if job["targetClusterName"] is None:
                del job["targetClusterName"]
                job["deliveryUrl"] = [f"https://restore-{self.hexname(12)}.backup.example/{snapshot['id']}.tar.gz"]
            else:
                job["deliveryUrl"] = []
            if not job["failed"]:
                job["finishedAt"] = iso(started + timedelta(minutes=self.rng.randint(8, 50)))
            cluster.restore_jobs[job["id"]] = job

    def database_user(self, project: Project, index: int) -> None:
        names = ["app-orders", "app-catalog", "reporting", "etl-runner", "backup-agent", "readonly-ops", "svc-search", "migrations"]
        if project.fields["name"] == "training-lab":
            username = f"student{index + 1:02d}"
        else:
            username = names[index % len(names)] + ("" if index < len(names) else f"-{index}")
        role = self.rng.choice(ROLES)
        user: Record = {
            "awsIAMType": "NONE",
            "databaseName": "admin",
            "groupId": project.id,
            "labels": [{"key": "owner", "value": self.rng.choice(["platform", "data-eng", "support"])}] if index % 3 == 0 else [],
            "ldapAuthType": "NONE",
            "oidcAuthType": "NONE",
            "roles": [{"databaseName": "admin", "roleName": role}],
            "scopes": [],
            "username": username,
            "x509Type": "NONE",
        }
        clusters = list(project.clusters)
        if clusters and index % 2 == 1:
            user["scopes"] = [{"name": self.rng.choice(clusters), "type": "CLUSTER"}]
        if project.fields["name"] == "training-lab":
            user["deleteAfterDate"] = iso(self.epoch + timedelta(days=14))
        project.database_users[("admin", username)] = user

    def access_list(self, project: Project) -> None:
        entries = [("10.20.0.0/16", "office VPN"), (f"{self.ip()}/32", "CI runners"), (f"{self.ip()}/32", "on-call laptop")]
        if project.fields["name"] == "production":
            entries.append(("192.0.2.0/24", "partner integration"))
        for cidr, comment in entries:
            entry = {"cidrBlock": cidr, "comment": comment, "groupId": project.id}
            if cidr.endswith("/32"):
                entry["ipAddress"] = cidr[:-3]
            project.access_list[cidr] = entry

    def alert_configs(self, project: Project) -> None:
        created = datetime.fromisoformat(project.fields["created"].replace("Z", "+00:00"))
        for event_type, threshold, metric in ALERT_CONFIGS:
            config: Record = {
                "created": iso(created),
                "enabled": True,
                "eventTypeName": event_type,
                "groupId": project.id,
                "id": self.new_id(created),
                "matchers": [],
                "notifications": [
                    {
                        "delayMin": self.rng.choice([0, 5, 15]),
                        "emailEnabled": True,
                        "intervalMin": self.rng.choice([5, 60]),
                        "notifierId": self.new_id(created),
                        "roles": ["GROUP_OWNER"],
                        "smsEnabled": False,
                        "typeName": "GROUP",
                    }
                ],
                "updated": iso(created + timedelta(days=self.rng.randint(0, 100))),
            }
            if threshold:
                config["threshold"] = threshold
            if metric:
                name, operator, value, mode = metric
                config["metricThreshold"] = {"metricName": name, "mode": "AVERAGE", "operator": operator,
                                             "threshold": value, "units": mode}
            project.alert_configs[config["id"]] = config

    def alerts(self, project: Project, count: int) -> None:
        configs = list(project.alert_configs.values())
        processes = list(project.processes.values())
        for index in range(count):
            if not configs:
                break
            config = self.rng.choice(configs)
            created = self.ago(0.01, 120)
            status = "OPEN" if index < 4 else ("TRACKING" if index % 17 == 0 else "CLOSED")
            alert: Record = {
                "alertConfigId": config["id"],
                "created": iso(created),
                "eventTypeName": config["eventTypeName"],
                "groupId": project.id,
                "id": self.new_id(created),
                "lastNotified": iso(created + timedelta(minutes=2)),
                "orgId": project.org_id,
                "status": status,
                "updated": iso(created + timedelta(minutes=self.rng.randint(3, 300))),
            }
            if status == "CLOSED":
                alert["resolved"] = alert["updated"]
            if processes and config["eventTypeName"] != "USERS_WITHOUT_MULTI_FACTOR_AUTH":
                process = self.rng.choice(processes)
                alert["clusterName"] = process["clusterName"]
                alert["hostnameAndPort"] = process["id"]
                if "replicaSetName" in process:
                    alert["replicaSetName"] = process["replicaSetName"]
            if "metricThreshold" in config:
                threshold = config["metricThreshold"]
                alert["metricName"] = threshold["metricName"]
                alert["currentValue"] = {"number": round(threshold["threshold"] + self.rng.uniform(0.5, 9.5), 1), "units": "RAW"}
            project.alerts[alert["id"]] = alert

    # Events ----------------------------------------------------------------------------------

    def project_events(self, project: Project, members: list[Record], count: int) -> list[Record]:
        events = []
        clusters = list(project.clusters)
        db_users = [u for (_, u) in project.database_users]
        span = 90 if count > 200 else 180
        for index in range(count):
            created = self.ago(0.001, span)
            if project.fields["name"] == "empty-sandbox" or index == count - 1 and count < 5:
                event_type = "GROUP_CREATED"
                created = datetime.fromisoformat(project.fields["created"].replace("Z", "+00:00"))
            else:
                event_type = self.rng.choice(PROJECT_EVENT_TYPES)
            event: Record = {
                "created": iso(created),
                "eventTypeName": event_type,
                "groupId": project.id,
                "id": self.new_id(created),
                "isGlobalAdmin": False,
            }
            self.event_details(event, event_type, clusters, db_users, members, project)
            events.append(event)
        return events

    def event_details(self, event: Record, event_type: str, clusters: list[str], db_users: list[str],
                      members: list[Record], project: Project) -> None:
        actor = self.rng.choice(members)
        if event_type.startswith("CLUSTER") or event_type in ("AUTO_SCALING_INITIATED", "CLOUD_PROVIDER_SNAPSHOT_TAKEN"):
            if clusters:
                event["clusterName"] = self.rng.choice(clusters)
        if event_type.startswith("MONGODB_USER") and db_users:
            event["dbUserUsername"] = self.rng.choice(db_users)
        if event_type == "HOST_RESTARTED" and project.processes:
            process = self.rng.choice(list(project.processes.values()))
            event["hostname"], event["port"] = process["hostname"], process["port"]
        if event_type in ("ALERT_OPENED", "ALERT_CLOSED") and project.alerts:
            alert = self.rng.choice(list(project.alerts.values()))
            event["alertId"], event["alertConfigId"] = alert["id"], alert["alertConfigId"]
        if event_type in ("MONGODB_USER_ADDED", "MONGODB_USER_DELETED", "NETWORK_PERMISSION_ENTRY_ADDED",
                          "JOINED_GROUP", "API_KEY_ADDED_TO_GROUP", "GROUP_CREATED"):
            if self.rng.random() < 0.5:
                event["apiKeyId"] = self.hex_id(event["id"])
                event["publicKey"] = "sandboxpub"
            else:
                event["userId"], event["username"] = actor["id"], actor["username"]
            event["remoteAddress"] = self.ip()

    def org_events(self, org: Org, members: list[Record], count: int) -> list[Record]:
        events = []
        for _ in range(count):
            created = self.ago(0.01, 200)
            event_type = self.rng.choice(ORG_EVENT_TYPES)
            event: Record = {
                "created": iso(created),
                "eventTypeName": event_type,
                "id": self.new_id(created),
                "isGlobalAdmin": False,
                "orgId": org.id,
                "remoteAddress": self.ip(),
            }
            actor = self.rng.choice(members)
            event["userId"], event["username"] = actor["id"], actor["username"]
            if event_type in ("JOINED_ORG", "INVITED_TO_ORG", "ADDED_TO_TEAM", "REMOVED_FROM_TEAM"):
                event["targetUsername"] = self.rng.choice(members)["username"]
            if "TEAM" in event_type and org.team_ids:
                event["teamId"] = self.rng.choice(org.team_ids)
            if event_type == "GROUP_CREATED":
                projects = self.world.projects_of(org.id)
                if projects:
                    event["groupId"] = self.rng.choice(projects).id
            events.append(event)
        return events

    @staticmethod
    def hex_id(text: str) -> str:
        return hashlib.sha1(text.encode()).hexdigest()[:24]


def measurement_value(seed: int, process_id: str, metric: str, moment: datetime, base: float, spread: float) -> float:
    """A deterministic, smoothly varying value for one metric of one process at one time."""
    digest = hashlib.blake2b(f"{seed}|{process_id}|{metric}|{int(moment.timestamp())}".encode(), digest_size=8).digest()
    noise = int.from_bytes(digest, "big") / 2**64 - 0.5
    hour = moment.hour + moment.minute / 60
    daily = 0.5 + 0.5 * math.sin((hour - 8) / 24 * 2 * math.pi)
    value = base + spread * (daily - 0.5) + spread * 0.3 * noise
    return round(max(value, 0.0), 4)

