"""What the seeded world is made of: its fixed names and plans, and the vocabularies it draws from.

Names are fixed so that the docs and the lessons can refer to them; everything a plan leaves
open (identifiers, times, sizes, which users, which events) comes from the seed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, NamedTuple

EPOCH = datetime(2026, 11, 1, 9, 0, 0, tzinfo=UTC)
MONGODB_VERSION = "8.0.12"


class ClusterPlan(NamedTuple):
    name: str
    cluster_type: str
    size: str
    provider: str
    region: str
    state: str
    backup: bool = False
    pit: bool = False
    paused: bool = False
    shards: int = 1
    restore_jobs: int = 0


class ProjectPlan(NamedTuple):
    name: str
    tags: list[tuple[str, str]]
    clusters: list[ClusterPlan]
    database_users: int
    events: int
    alerts: int
    granted: bool = True  # whether the sandbox's credentials may use it
    new: bool = False  # just created: no access list, alert settings or teams yet


class OrgPlan(NamedTuple):
    name: str
    members: int
    teams: list[str]
    events: int
    projects: list[ProjectPlan]


ORGS = [
    OrgPlan(
        "Acme Corp",
        members=14,
        teams=["platform", "data-eng", "support", "security"],
        events=75,
        projects=[
            ProjectPlan(
                "production",
                [("env", "prod"), ("team", "orders")],
                [
                    ClusterPlan(
                        "orders-prod", "REPLICASET", "M30", "AWS", "US_EAST_1", "IDLE", True, True, restore_jobs=3
                    ),
                    ClusterPlan(
                        "catalog-prod", "SHARDED", "M40", "AWS", "EU_WEST_1", "IDLE", True, shards=2, restore_jobs=1
                    ),
                    ClusterPlan("search-prod", "REPLICASET", "M20", "GCP", "CENTRAL_US", "UPDATING"),
                ],
                database_users=8,
                events=1234,
                alerts=150,
            ),
            ProjectPlan(
                "staging",
                [("env", "staging")],
                [
                    ClusterPlan("orders-staging", "REPLICASET", "M10", "AWS", "US_EAST_1", "IDLE", True),
                    ClusterPlan("ml-staging", "REPLICASET", "M10", "AZURE", "US_EAST_2", "CREATING"),
                ],
                database_users=4,
                events=180,
                alerts=12,
            ),
            ProjectPlan(
                "analytics",
                [("env", "prod"), ("team", "data")],
                [ClusterPlan("warehouse", "REPLICASET", "M50", "AWS", "US_WEST_2", "IDLE", True, paused=True)],
                database_users=3,
                events=40,
                alerts=3,
            ),
            ProjectPlan("empty-sandbox", [], [], database_users=0, events=1, alerts=0, new=True),
        ],
    ),
    OrgPlan(
        "Globex Training",
        members=8,
        teams=["trainers", "students"],
        events=20,
        projects=[
            ProjectPlan(
                "training-lab",
                [("purpose", "class")],
                [ClusterPlan("classroom", "REPLICASET", "M0", "TENANT", "US_EAST_1", "IDLE")],
                database_users=25,
                events=60,
                alerts=2,
            ),
            ProjectPlan(
                "restricted-finance",
                [("env", "prod"), ("owner", "finance")],
                [ClusterPlan("ledger", "REPLICASET", "M30", "AWS", "EU_CENTRAL_1", "IDLE", True, True)],
                database_users=2,
                events=20,
                alerts=1,
                granted=False,
            ),
        ],
    ),
]

FIRST_NAMES = "Amara Bruno Chen Dalia Emeka Freya Gustavo Hana Ivan Jonas Keiko Lucia Mateo Nadia Omar Priya".split()
LAST_NAMES = "Okafor Silva Wei Haddad Nwosu Lind Pereira Sato Petrov Berg Tanaka Romero Garcia Karimi Farouk".split()
COUNTRIES = "IE US DE BR IN JP NG SE ES GB".split()
SERVICE_NAMES = "app-orders app-catalog reporting etl-runner backup-agent readonly-ops svc-search migrations".split()
DATABASE_ROLES = "readWriteAnyDatabase readAnyDatabase atlasAdmin readWrite read".split()
PROJECT_ROLES = "GROUP_OWNER GROUP_READ_ONLY GROUP_DATA_ACCESS_READ_WRITE".split()
TEAM_ROLES = "GROUP_READ_ONLY GROUP_DATA_ACCESS_READ_ONLY GROUP_CLUSTER_MANAGER".split()

# event type, threshold, metric threshold (name, operator, value, units)
ALERT_CONFIGS: list[tuple[str, dict[str, Any] | None, tuple[str, str, float, str] | None]] = [
    ("NO_PRIMARY", None, None),
    ("REPLICATION_OPLOG_WINDOW_RUNNING_OUT", {"operator": "LESS_THAN", "threshold": 1, "units": "HOURS"}, None),
    ("OUTSIDE_METRIC_THRESHOLD", None, ("CONNECTIONS_PERCENT", "GREATER_THAN", 80.0, "RAW")),
    ("OUTSIDE_METRIC_THRESHOLD", None, ("NORMALIZED_SYSTEM_CPU_USER", "GREATER_THAN", 90.0, "RAW")),
    ("OUTSIDE_METRIC_THRESHOLD", None, ("DISK_PARTITION_SPACE_USED_DATA", "GREATER_THAN", 90.0, "RAW")),
    ("CLUSTER_MONGOS_IS_MISSING", None, None),
    ("USERS_WITHOUT_MULTI_FACTOR_AUTH", None, None),
    ("HOST_HAS_INDEX_SUGGESTIONS", None, None),
]

PROJECT_EVENT_TYPES = """
    CLUSTER_UPDATE_STARTED CLUSTER_UPDATE_COMPLETED MONGODB_USER_ADDED MONGODB_USER_DELETED HOST_RESTARTED
    PROJECT_SCHEDULED_MAINTENANCE NETWORK_PERMISSION_ENTRY_ADDED ALERT_OPENED ALERT_CLOSED CLUSTER_OPLOG_RESIZED
    JOINED_GROUP API_KEY_ADDED_TO_GROUP CLOUD_PROVIDER_SNAPSHOT_TAKEN AUTO_SCALING_INITIATED
""".split()
ORG_EVENT_TYPES = """
    JOINED_ORG INVITED_TO_ORG TEAM_CREATED TEAM_NAME_CHANGED ADDED_TO_TEAM REMOVED_FROM_TEAM API_KEY_CREATED
    GROUP_CREATED ORG_SETTINGS_UPDATED
""".split()
CLUSTER_EVENT_TYPES = {"AUTO_SCALING_INITIATED", "CLOUD_PROVIDER_SNAPSHOT_TAKEN"}
ACTOR_EVENT_TYPES = {
    "MONGODB_USER_ADDED", "MONGODB_USER_DELETED", "NETWORK_PERMISSION_ENTRY_ADDED", "JOINED_GROUP",
    "API_KEY_ADDED_TO_GROUP", "GROUP_CREATED",
}  # fmt: skip
TARGET_EVENT_TYPES = {"JOINED_ORG", "INVITED_TO_ORG", "ADDED_TO_TEAM", "REMOVED_FROM_TEAM"}
