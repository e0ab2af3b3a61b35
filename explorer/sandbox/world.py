"""The sandbox's data: organizations, projects and everything inside them, held in memory.

Records are plain dicts holding the JSON fields a resource returns (without `links`, which
depend on the request's origin). The containers here know who owns what; `seed.py` fills them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

Record = dict[str, Any]
OBJECT_ID = re.compile(r"[0-9a-f]{24}")


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC at second granularity, as the service writes dates (spec 2.10)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class IdFactory:
    """24-hex identifiers shaped like the service's: a 4-byte time, then 8 random bytes."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, moment: datetime) -> str:
        return f"{int(moment.timestamp()) & 0xFFFFFFFF:08x}{self.rng.getrandbits(64):016x}"


class EventLog:
    """Events newest first, with an index by id."""

    def __init__(self) -> None:
        self.newest_first: list[Record] = []
        self.by_id: dict[str, Record] = {}

    def extend(self, events: list[Record]) -> None:
        self.newest_first.extend(events)
        self.newest_first.sort(key=lambda e: (e["created"], e["id"]), reverse=True)
        self.by_id.update((e["id"], e) for e in events)

    def add(self, event: Record) -> None:
        self.newest_first.insert(0, event)
        self.by_id[event["id"]] = event

    def __len__(self) -> int:
        return len(self.newest_first)


OperationKind = Literal["create", "update", "delete"]


@dataclass(frozen=True)
class Operation:
    """What the service is still doing to a cluster after it answered (operations.py)."""

    kind: OperationKind
    due: float | None  # when it ends, by the sandbox's clock; None: never (the drill stuck-operation)


@dataclass
class Cluster:
    fields: Record
    snapshots: dict[str, Record] = field(default_factory=dict)
    restore_jobs: dict[str, Record] = field(default_factory=dict)
    operation: Operation | None = None  # none for a seeded cluster: its state stays as seeded

    @property
    def name(self) -> str:
        return str(self.fields["name"])


@dataclass
class Project:
    fields: Record
    authorized: bool = True
    clusters: dict[str, Cluster] = field(default_factory=dict)
    database_users: dict[tuple[str, str], Record] = field(default_factory=dict)
    processes: dict[str, Record] = field(default_factory=dict)
    events: EventLog = field(default_factory=EventLog)
    alerts: dict[str, Record] = field(default_factory=dict)
    alert_configs: dict[str, Record] = field(default_factory=dict)
    access_list: dict[str, Record] = field(default_factory=dict)
    teams: dict[str, Record] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return str(self.fields["id"])

    @property
    def org_id(self) -> str:
        return str(self.fields["orgId"])

    def document_fields(self) -> Record:
        return {**self.fields, "clusterCount": len(self.clusters)}


def new_event(ids: IdFactory, project: Project, moment: datetime, event_type: str, **details: Any) -> Record:
    """A project event as the service lists it; `details` add what it names (clusterName, …)."""
    event = {
        "created": iso(moment),
        "eventTypeName": event_type,
        "groupId": project.id,
        "id": ids(moment),
        "isGlobalAdmin": False,
        **details,
    }
    return dict(sorted(event.items()))


@dataclass
class Team:
    fields: Record
    org_id: str
    user_ids: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.fields["id"])


@dataclass
class Org:
    fields: Record
    user_ids: list[str] = field(default_factory=list)
    team_ids: list[str] = field(default_factory=list)
    events: EventLog = field(default_factory=EventLog)

    @property
    def id(self) -> str:
        return str(self.fields["id"])


@dataclass
class World:
    """Everything the sandbox serves. Mutated only by the write handlers and the operations they
    start, ended by the clock (operations.py)."""

    epoch: datetime
    ids: IdFactory
    orgs: dict[str, Org] = field(default_factory=dict)
    projects: dict[str, Project] = field(default_factory=dict)
    users: dict[str, Record] = field(default_factory=dict)
    teams: dict[str, Team] = field(default_factory=dict)

    def projects_of(self, org_id: str) -> list[Project]:
        return [p for p in self.projects.values() if p.org_id == org_id]

    def visible_projects(self) -> list[Project]:
        """The projects the sandbox's credentials are granted: all but the restricted ones."""
        return [p for p in self.projects.values() if p.authorized]

    def project_named(self, name: str) -> Project | None:
        return next((p for p in self.projects.values() if p.fields["name"] == name), None)
