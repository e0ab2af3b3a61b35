"""Long operations: what the service goes on doing to a cluster after it answered the write.

The real service answers a cluster's create, change or delete at once and does the work after;
meanwhile the cluster's `stateName` says what is under way. So does the sandbox's:

    write                      answer      meanwhile  then                        events
    POST …/clusters            201, it     CREATING   IDLE, connection strings    CLUSTER_CREATED, CLUSTER_READY
    PATCH …/clusters/{name}    200, it     UPDATING   IDLE                        CLUSTER_UPDATE_SUBMITTED,
                                                                                  CLUSTER_UPDATE_COMPLETED
    DELETE …/clusters/{name}   202         DELETING   gone: 404, not listed       CLUSTER_DELETE_SUBMITTED,
                                                                                  CLUSTER_DELETED

A change shows at once in the answer and every read after it (`paused: true` is paused from
then on) while the state says the service is still applying it: a pause and a resume are updates
like any other. A change to a cluster still CREATING is part of its creation, which goes on as it
was; another change restarts the update's time; a delete ends whatever was under way.

Each operation lasts `Settings.operation_seconds` (default 20); the seeded clusters caught
mid-operation finish that long after the sandbox starts (at once in the drill stuck-operation, so
that its cluster is the one left CREATING). With 0 the write still answers
CREATING, UPDATING or DELETING, and the next request sees the end. Time is the sandbox's clock
(`Settings.clock`, a fake one in tests), never a task in the background: the gate calls `advance`
before every request under the API root, which ends each operation due by then, in the order
they fell due, with its event dated when it fell due. The same requests at the same clock
readings give the same states and events, over a socket or in process.

An operation that is never due waits for ever: the drill stuck-operation (stuck_cluster.py).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import count

from explorer.sandbox.cluster_records import ready_connection_strings
from explorer.sandbox.world import Cluster, Operation, OperationKind, Project, World, new_event

STATES: dict[OperationKind, str] = {"create": "CREATING", "update": "UPDATING", "delete": "DELETING"}
ENDED: dict[OperationKind, str] = {
    "create": "CLUSTER_READY",
    "update": "CLUSTER_UPDATE_COMPLETED",
    "delete": "CLUSTER_DELETED",
}


class Operations:
    """The operations under way in one sandbox, ended as its clock passes their time.

    Each cluster holds its own operation (`Cluster.operation`); the heap here only finds the next
    one due without looking at every cluster on every request. An entry whose operation a later
    write replaced is skipped when it comes up.
    """

    def __init__(self, world: World, clock: Callable[[], float], seconds: int) -> None:
        self.world = world
        self.clock = clock
        self.seconds = seconds
        self.pending: list[tuple[float, int, Project, Cluster, Operation]] = []
        self.order = count()  # ties in time end in the order they began, and never compare the rest

    def start(self, project: Project, cluster: Cluster, kind: OperationKind) -> None:
        """A write asked for `kind`: the cluster shows its state until it ends, `seconds` from now.

        An update of a cluster still CREATING starts nothing: the creation takes the change with it."""
        if kind == "update" and cluster.fields["stateName"] == "CREATING":
            return
        due = self.clock() + self.seconds
        operation = Operation(kind, due)
        self.hold(cluster, operation)
        heapq.heappush(self.pending, (due, next(self.order), project, cluster, operation))

    def carry_on(self, seconds: float) -> None:
        """The seeded clusters caught mid-operation (ml-staging CREATING, search-prod UPDATING) finish
        `seconds` from now, as the service would finish them: a demo has something to watch without
        a write. A state the seed gives no operation of (IDLE, REPAIRING) stays."""
        kinds = {state: kind for kind, state in STATES.items()}
        for project in self.world.projects.values():
            for cluster in list(project.clusters.values()):
                kind = kinds.get(cluster.fields["stateName"])
                if kind is not None and cluster.operation is None:
                    due = self.clock() + seconds
                    operation = Operation(kind, due)
                    self.hold(cluster, operation)
                    heapq.heappush(self.pending, (due, next(self.order), project, cluster, operation))

    def hold(self, cluster: Cluster, operation: Operation) -> None:
        """Give the cluster `operation` and its state; one never due (stuck_cluster.py) is never ended."""
        cluster.operation = operation
        cluster.fields["stateName"] = STATES[operation.kind]

    def advance(self) -> bool:
        """End every operation due by now; whether anything changed (and lists must be rendered anew)."""
        now = self.clock()
        moved = False
        while self.pending and self.pending[0][0] <= now:
            due, _, project, cluster, operation = heapq.heappop(self.pending)
            if cluster.operation is operation:
                self.end(project, cluster, operation, due)
                moved = True
        return moved

    def end(self, project: Project, cluster: Cluster, operation: Operation, due: float) -> None:
        cluster.operation = None
        if operation.kind == "delete":
            if project.clusters.get(cluster.name) is cluster:
                del project.clusters[cluster.name]
            # Its hosts go with it: a process would otherwise link to a cluster that is not there.
            for process_id in [i for i, p in project.processes.items() if p["clusterName"] == cluster.name]:
                del project.processes[process_id]
        else:
            cluster.fields["stateName"] = "IDLE"
            if operation.kind == "create":
                cluster.fields["connectionStrings"] = ready_connection_strings(cluster)
        moment = datetime.fromtimestamp(due, UTC).replace(microsecond=0)
        project.events.add(new_event(self.world.ids, project, moment, ENDED[operation.kind], clusterName=cluster.name))
