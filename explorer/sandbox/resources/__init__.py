"""The route table of the API: every path the sandbox serves and the methods each accepts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, Router

from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.links import API_ROOT
from explorer.sandbox.resources import (
    access_list,
    alerts,
    cluster_writes,
    clusters,
    database_users,
    events,
    orgs,
    processes,
    projects,
    rate_limits,
    root,
)
from explorer.sandbox.settings import Settings
from explorer.sandbox.versions import CLUSTERS, SCOPE_KEY, STABLE, Version, negotiate
from explorer.sandbox.writes import WRITE_KEY, declared

Handler = Callable[[Request], Awaitable[Response]]
Condition = Callable[[Settings], bool]


class Resource:
    """One path of the API: its handler per method and the versions it serves (versions.py).

    Each request is answered in the version its Accept header names (or, when lenient, the first),
    before the handler runs, so a strict sandbox refuses before any lookup; a deprecated version's
    answers, errors included, say so in `Deprecation` and `Sunset`. A write's handler finds its
    declaration (writes.py) on the request: the body it reads and the status it answers.
    """

    def __init__(self, handlers: dict[str, Handler], served: tuple[Version, ...], when: Condition | None) -> None:
        self.handlers = handlers
        self.versions = served
        self.when = when  # None: always served; else the settings under which it answers other than 404

    def served_with(self, settings: Settings) -> bool:
        return self.when is None or self.when(settings)

    async def serve(self, request: Request) -> Response:
        strict = request.app.state.sandbox.settings.versions == "strict"
        version = negotiate(request.headers.get("accept", ""), self.versions, strict)
        request.scope[SCOPE_KEY] = version
        method = "GET" if request.method == "HEAD" else request.method
        handler = self.handlers[method]
        request.scope[WRITE_KEY] = declared(handler)
        try:
            response = await handler(request)
        except ApiProblem as problem:
            problem.headers = {**problem.headers, **version.headers}
            raise
        if version.headers:
            response.headers.update(version.headers)
        return response


def resource(
    path: str, versions: tuple[Version, ...] = STABLE, when: Condition | None = None, **handlers: Handler
) -> Route:
    """One route per path, so that a method it lacks is a 405 naming all the methods it has."""
    name = next(iter(handlers.values())).__name__
    return Route(path, Resource(handlers, versions, when).serve, methods=list(handlers), name=name)


def with_buckets(settings: Settings) -> bool:
    """The token buckets' resources answer only when requests are limited with them."""
    return settings.rate_limits == "bucket"


def mount(path: str, routes: list[BaseRoute]) -> Mount:
    """A branch of the tree. Trailing slashes are the gate's business, never a redirect."""
    return Mount(path, app=Router(routes, redirect_slashes=False))


# Most requests fall under one project, so its routes sit behind one Mount checked first; the
# rest is a short flat list. (Each Mount re-enters a Router, so a deeper tree costs more than it
# saves.) Starlette's Mount needs something after its prefix, so a project itself is routed
# beside it.
GROUP = API_ROOT + "/groups/{groupId}"
ORG = API_ROOT + "/orgs/{orgId}"
CLUSTER = "/clusters/{clusterName}"

ROUTES = [
    mount(
        GROUP,
        [
            resource("/events", GET=events.project_events),
            resource("/events/{eventId}", GET=events.project_event),
            resource("/clusters", versions=CLUSTERS, GET=clusters.list_clusters, POST=cluster_writes.create_cluster),
            resource(
                CLUSTER,
                versions=CLUSTERS,
                GET=clusters.get_cluster,
                PATCH=cluster_writes.update_cluster,
                DELETE=cluster_writes.delete_cluster,
            ),
            resource(CLUSTER + "/backup/snapshots", GET=clusters.list_snapshots),
            resource(CLUSTER + "/backup/snapshots/{snapshotId}", GET=clusters.get_snapshot),
            resource(CLUSTER + "/backup/restoreJobs", GET=clusters.list_restore_jobs),
            resource(CLUSTER + "/backup/restoreJobs/{jobId}", GET=clusters.get_restore_job),
            resource(
                "/databaseUsers",
                GET=database_users.list_database_users,
                POST=database_users.create_database_user,
            ),
            resource(
                "/databaseUsers/{databaseName}/{username:path}",
                GET=database_users.get_database_user,
                PATCH=database_users.update_database_user,
                DELETE=database_users.delete_database_user,
            ),
            resource("/processes", GET=processes.list_processes),
            resource("/processes/{processId}", GET=processes.get_process),
            resource("/processes/{processId}/measurements", GET=processes.measurements),
            resource("/alerts", GET=alerts.list_alerts),
            resource("/alerts/{alertId}", GET=alerts.get_alert),
            resource("/alertConfigs", GET=alerts.list_alert_configs),
            resource("/alertConfigs/{alertConfigId}", GET=alerts.get_alert_config),
            resource("/alertConfigs/{alertConfigId}/alerts", GET=alerts.config_alerts),
            resource("/accessList", GET=access_list.list_entries, POST=access_list.add_entries),
            resource("/accessList/{entry:path}", GET=access_list.get_entry, DELETE=access_list.delete_entry),
            resource("/teams", GET=projects.project_teams),
            resource("/teams/{teamId}", GET=projects.get_project_team),
        ],
    ),
    resource(GROUP, GET=projects.get_project, PATCH=projects.update_project, DELETE=projects.delete_project),
    resource(API_ROOT + "/groups", GET=projects.list_projects, POST=projects.create_project),
    resource(API_ROOT, GET=root.root),
    resource(API_ROOT + "/orgs", GET=orgs.list_orgs),
    resource(ORG, GET=orgs.get_org),
    resource(ORG + "/groups", GET=orgs.org_projects),
    resource(ORG + "/teams", GET=orgs.org_teams),
    resource(ORG + "/teams/{teamId}", GET=orgs.get_team),
    resource(ORG + "/teams/{teamId}/users", GET=orgs.team_users),
    resource(ORG + "/users", GET=orgs.org_users),
    resource(ORG + "/events", GET=events.org_events),
    resource(ORG + "/events/{eventId}", GET=events.org_event),
    resource(API_ROOT + "/users/{userId}", GET=orgs.get_user),
    resource(API_ROOT + "/rateLimits", when=with_buckets, GET=rate_limits.list_rate_limits),
    resource(API_ROOT + "/rateLimits/{endpointSetId}", when=with_buckets, GET=rate_limits.get_rate_limit),
]

# Served beside the route table, so that the API description (made from ROUTES) leaves it out as
# the real service's does: the legacy `whitelist` a project links when links are sparse. Routed
# ahead of the project's Mount, which would otherwise answer 404 for it.
LEGACY_ROUTES = [resource(GROUP + "/whitelist", GET=access_list.legacy_whitelist)]
