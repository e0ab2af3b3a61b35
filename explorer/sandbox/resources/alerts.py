"""Alerts of a project and the alert configurations that raise them."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS, page
from explorer.sandbox.query import Query, takes
from explorer.sandbox.resources.common import find, find_project, hrefs, list_reply, reply
from explorer.sandbox.world import Project, Record

STATUSES = ("OPEN", "TRACKING", "CLOSED")
FILTERS = frozenset({"status"})


def alert_document(url_of: Hrefs, project: Project, alert: Record, full: bool) -> dict[str, Any]:
    links = [url_of.link("self", "groups", project.id, "alerts", alert["id"])]
    if full:
        links.append(url_of.link("alertConfig", "groups", project.id, "alertConfigs", alert["alertConfigId"]))
    return with_links(alert, links)


def alert_config_document(url_of: Hrefs, project: Project, config: Record, full: bool) -> dict[str, Any]:
    base = ("groups", project.id, "alertConfigs", config["id"])
    links = [url_of.link("self", *base)]
    if full:
        links.append(url_of.link("alerts", *base, "alerts"))
    return with_links(config, links)


def alerts_reply(request: Request, project: Project, alerts: list[Record], href: str) -> Response:
    query = Query(request, PAGE_PARAMS | FILTERS)
    status = query.choice("status", STATUSES)
    if status:
        alerts = [a for a in alerts if a["status"] == status]
    url_of = hrefs(request)
    return reply(
        request, query, page(request, query, href, alerts, lambda a: alert_document(url_of, project, a, False))
    )


@takes(PAGE_PARAMS | FILTERS)
async def list_alerts(request: Request) -> Response:
    """Return the alerts of a project, newest first; by status if asked."""
    project = find_project(request)
    alerts = sorted(project.alerts.values(), key=lambda a: a["created"], reverse=True)
    return alerts_reply(request, project, alerts, hrefs(request)("groups", project.id, "alerts"))


async def get_alert(request: Request) -> Response:
    """Return one alert of a project."""
    project = find_project(request)
    alert_id = request.path_params["alertId"]
    alert = find(project.alerts, alert_id, "ALERT_NOT_FOUND", f"No alert with ID {alert_id} exists.")
    return reply(request, Query(request), alert_document(hrefs(request), project, alert, True))


def find_config(request: Request, project: Project) -> Record:
    config_id = request.path_params["alertConfigId"]
    return find(
        project.alert_configs,
        config_id,
        "ALERT_CONFIG_NOT_FOUND",
        f"No alert configuration with ID {config_id} exists.",
    )


@takes(PAGE_PARAMS)
async def list_alert_configs(request: Request) -> Response:
    """Return the alert configurations of a project."""
    project = find_project(request)
    url_of = hrefs(request)
    return list_reply(
        request,
        list(project.alert_configs.values()),
        lambda c: alert_config_document(url_of, project, c, False),
        url_of("groups", project.id, "alertConfigs"),
    )


async def get_alert_config(request: Request) -> Response:
    """Return one alert configuration of a project."""
    project = find_project(request)
    config = find_config(request, project)
    return reply(request, Query(request), alert_config_document(hrefs(request), project, config, True))


@takes(PAGE_PARAMS | FILTERS)
async def config_alerts(request: Request) -> Response:
    """Return the alerts that one alert configuration raised; by status if asked."""
    project = find_project(request)
    config = find_config(request, project)
    alerts = sorted(
        (a for a in project.alerts.values() if a["alertConfigId"] == config["id"]),
        key=lambda a: a["created"],
        reverse=True,
    )
    href = hrefs(request)("groups", project.id, "alertConfigs", config["id"], "alerts")
    return alerts_reply(request, project, alerts, href)
